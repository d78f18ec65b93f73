/* libFuzzer harness: the CLI's option parsing, without a device. The input
 * is split at NUL bytes into arguments, which go through
 *  - every command's parser (cli_parse with the command's spec, through
 *    src/cli/options.h and commands.h), twice, then what run and peak check before they
 *    open a device (cli_run_check: workload, variant, --compare, --size,
 *    --device, kernel file) and what bench checks (clmem_bench_plan:
 *    --workloads, on a device that is not opened);
 *  - one by one: every option of the table (cli_parse_value),
 *    clmem_size_parse, clmem_device_spec_parse and clmem_devices_select on
 *    made-up devices.
 * Every refusal is a usage error with a message; what is accepted is in
 * the table's range. */
#include "commands.h"
#include "fuzz.h"
#include "harness/harness.h"
#include "options.h"
#include "report/report.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_ARGS 64

static void check_refusal(int status, struct clmem_error *err)
{
    FUZZ_CHECK(status == CLMEM_ERR_USAGE);
    FUZZ_CHECK(err->message[0] != '\0');
    /* An unknown option is named as written, which starts with '-'. */
    if (strncmp(err->message, "unknown option '", 16) == 0)
        FUZZ_CHECK(err->message[16] == '-');
    clmem_error_clear(err);
}

/* Whether a number option's value is in the table's range. */
static void check_ranges(const struct cli_opts *o)
{
    const struct cli_option *reps = cli_option(CLI_OPT_REPS);
    FUZZ_CHECK(o->reps >= reps->min && o->reps <= reps->max && reps->max == CLI_MAX_REPS);
    FUZZ_CHECK(o->warmup <= cli_option(CLI_OPT_WARMUP)->max);
    FUZZ_CHECK(o->max_candidates >= 1 && o->max_candidates <= 10000);
    FUZZ_CHECK(o->panel <= cli_option(CLI_OPT_PANEL)->max);
    FUZZ_CHECK(o->threshold >= 0 && o->threshold <= CLMEM_DIFF_MAX_THRESHOLD);
    FUZZ_CHECK(o->format == CLMEM_FORMAT_TABLE || o->format == CLMEM_FORMAT_CSV ||
               o->format == CLMEM_FORMAT_JSON);
    FUZZ_CHECK(!o->kernel_dir || o->kernel_dir[0]);
    FUZZ_CHECK(!o->summa.given || (o->summa.rows <= 65536 && o->summa.cols <= 65536));
    if (o->device && !cli_is_device_list(o->device))
        FUZZ_CHECK(strchr(o->device, ',') == NULL);
    if (o->device && strchr(o->device, ',')) {
        size_t items = 1;
        for (const char *p = o->device; *p; p++)
            items += *p == ',';
        FUZZ_CHECK(items <= CLI_MAX_DEVICES);
    }
}

/* Parses argv as `spec`, twice: the same answer (nothing of one parse, such
 * as getopt's state, leaks into the next); refusals are usage errors. */
static int parse(const struct cli_spec *spec, int argc, char **argv, struct cli_opts *o)
{
    struct clmem_error err = {0}, err2 = {0};
    struct cli_opts o2;
    char *again[MAX_ARGS + 2];
    memcpy(again, argv, (size_t)(argc + 1) * sizeof *argv);
    again[0] = argv[0] = (char *)spec->name;
    int status = cli_parse(spec, argc, argv, o, &err);
    int status2 = cli_parse(spec, argc, again, &o2, &err2);
    FUZZ_CHECK(status == status2 && o->help == o2.help);
    FUZZ_CHECK(strcmp(err.message, err2.message) == 0);
    clmem_error_clear(&err2);
    if (status) {
        check_refusal(status, &err);
        return status;
    }
    if (!o->help) {
        check_ranges(o);
        FUZZ_CHECK(o->n_args >= spec->min_args && o->n_args <= spec->max_args);
    }
    return CLMEM_OK;
}

static void fuzz_run(const struct cli_spec *spec, const char *workload, int argc, char **argv)
{
    struct cli_opts o;
    struct clmem_error err = {0};
    const struct clmem_workload *w = NULL;
    if (parse(spec, argc, argv, &o) || o.help)
        return;
    int status = cli_run_check(&o, workload ? workload : o.args[0], &w, &err);
    if (status) {
        check_refusal(status, &err);
        return;
    }
    FUZZ_CHECK(w != NULL);
}

static void fuzz_bench(int argc, char **argv, cl_device_type type)
{
    struct cli_opts o;
    struct clmem_error err = {0};
    struct clmem_ctx ctx = {0};
    ctx.device.type = type;
    size_t steps = 0;
    if (parse(&cli_bench_spec, argc, argv, &o) || o.help)
        return;
    FUZZ_CHECK(!cli_is_device_list(o.device)); /* one device, without mpirun */
    struct clmem_bench_options options = {
        .reps = (unsigned)o.reps, .seed = o.seed, .compare = o.compare, .only = o.workloads};
    int status = clmem_bench_plan(&ctx, &options, &steps, &err);
    if (status)
        check_refusal(status, &err);
}

/* Each argument alone through every option of the table and the parsers
 * the options use. */
static void fuzz_values(const char *text)
{
    struct clmem_error err = {0};
    int status;
    for (int id = 0; id < CLI_OPT_COUNT; id++) {
        struct cli_opts o;
        memset(&o, 0, sizeof o);
        o.reps = 1;
        o.max_candidates = 1;
        const struct cli_option *opt = cli_option((enum cli_opt)id);
        status = cli_parse_value((enum cli_opt)id, text, &o, &err);
        FUZZ_CHECK(o.given[id]);
        if (status) {
            check_refusal(status, &err);
            continue;
        }
        if (opt->type == CLI_UINT) {
            unsigned long long v = *(const unsigned long long *)((const char *)&o + opt->offset);
            FUZZ_CHECK(v >= opt->min && v <= opt->max && strtoull(text, NULL, 10) == v);
        }
        check_ranges(&o);
    }
    struct clmem_size size;
    if ((status = clmem_size_parse(text, &size, &err)))
        check_refusal(status, &err);
    struct clmem_device_spec spec;
    if ((status = clmem_device_spec_parse(text, strlen(text), &spec, &err)))
        check_refusal(status, &err);

    static struct clmem_device devices[3];
    static const char *const names[] = {"pthread-cpu", "NVIDIA H100", "gfx90a"};
    for (unsigned i = 0; i < 3; i++) {
        memset(&devices[i], 0, sizeof devices[i]);
        devices[i].platform_index = i / 2;
        devices[i].device_index = i % 2;
        devices[i].type = i == 0 ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU;
        snprintf(devices[i].name, sizeof devices[i].name, "%s", names[i]);
        snprintf(devices[i].platform_name, sizeof devices[i].platform_name, "platform %u", i / 2);
    }
    size_t chosen = SIZE_MAX;
    status = clmem_devices_select(text, devices, 3, &chosen, &err);
    if (status == CLMEM_OK)
        FUZZ_CHECK(chosen < 3);
    else
        check_refusal(status, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* argv[0] is the command; the arguments follow, each NUL-terminated. */
    char *copy = fuzz_text(data, size);
    if (!copy)
        return 0;
    char *args[MAX_ARGS + 2] = {NULL}, *argv[MAX_ARGS + 2];
    int argc = 1;
    for (size_t at = 0; at < size && argc <= MAX_ARGS; argc++) {
        args[argc] = copy + at;
        at += strlen(copy + at) + 1;
    }
    args[argc] = NULL;
    /* getopt_long permutes argv: each command gets its own copy. */
#define ARGV() (memcpy(argv, args, sizeof args), argv)
    fuzz_run(&cli_run_spec, NULL, argc, ARGV());
    fuzz_run(&cli_peak_spec, "peak", argc, ARGV());
    fuzz_bench(argc, ARGV(), size % 2 ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU);
    const struct cli_spec *const others[] = {&cli_compare_spec, &cli_tune_spec, &cli_diff_spec,
                                             &cli_devices_spec, &cli_list_spec};
    for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
        struct cli_opts o;
        parse(others[i], argc, ARGV(), &o);
    }
#undef ARGV
    for (int i = 1; i < argc; i++)
        fuzz_values(args[i]);
    free(copy);
    return 0;
}
