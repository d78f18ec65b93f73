/* libFuzzer harness: the CLI's option parsing, without a device. The input
 * is split at NUL bytes into arguments, which go through
 *  - the 'run' and 'bench' commands' own parse_args (static: this file
 *    includes src/cli/cmd_run.c and cmd_bench.c), then what those commands
 *    check before opening a device: run's validate() (workload, variant,
 *    --compare, --size, --device, kernel file) and clmem_bench_plan
 *    (--workloads, on a device that is not opened);
 *  - one by one: cli_parse_uint, clmem_format_parse, clmem_size_parse,
 *    clmem_devices_parse_spec and clmem_devices_select on made-up devices.
 * Every refusal is a usage error with a message; what is accepted is in
 * range. */
#include "cli.h"
#include "harness/harness.h"
#include "report/report.h"
#include "fuzz.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Both files name their helpers the same: one name each here. */
#define usage         run_usage
#define parse_args    run_parse_args
#define show_progress run_show_progress
#include "../../src/cli/cmd_run.c"
#undef usage
#undef parse_args
#undef show_progress
#define usage         bench_usage
#define parse_args    bench_parse_args
#define show_progress bench_show_progress
#include "../../src/cli/cmd_bench.c"
#undef usage
#undef parse_args
#undef show_progress

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

/* Parsing the same arguments twice gives the same answer: nothing of one
 * parse (getopt's state) leaks into the next. */
static void check_same(int status, int help, const struct clmem_error *err, int status2, int help2,
                       const struct clmem_error *err2)
{
    FUZZ_CHECK(status == status2 && help == help2);
    FUZZ_CHECK(strcmp(err->message, err2->message) == 0);
}

static void fuzz_run(int argc, char **argv)
{
    struct run_args a = {.reps = 5, .warmup = 1, .seed = 42, .format = CLMEM_FORMAT_TABLE};
    struct clmem_error err = {0};
    const struct clmem_workload *w = NULL;
    char *again[MAX_ARGS + 2];
    memcpy(again, argv, (size_t)(argc + 1) * sizeof *argv);
    struct run_args a2 = a;
    struct clmem_error err2 = {0};
    int help = 0, help2 = 0, status = run_parse_args(argc, argv, &a, &help, &err);
    int status2 = run_parse_args(argc, again, &a2, &help2, &err2);
    check_same(status, help, &err, status2, help2, &err2);
    clmem_error_clear(&err2);
    if (status == CLMEM_OK && !help)
        status = validate(&a, &w, &err);
    if (status) {
        check_refusal(status, &err);
        return;
    }
    if (help)
        return;
    FUZZ_CHECK(w != NULL && a.workload != NULL);
    FUZZ_CHECK(a.reps >= 1 && a.reps <= MAX_REPS && a.warmup <= 100);
    FUZZ_CHECK(a.format == CLMEM_FORMAT_TABLE || a.format == CLMEM_FORMAT_CSV ||
               a.format == CLMEM_FORMAT_JSON);
}

static void fuzz_bench(int argc, char **argv, cl_device_type type)
{
    struct bench_args a = {.reps = 5, .seed = 42, .format = CLMEM_FORMAT_TABLE};
    struct clmem_error err = {0};
    struct clmem_ctx ctx = {0};
    ctx.device.type = type;
    size_t steps = 0;
    char *again[MAX_ARGS + 2];
    memcpy(again, argv, (size_t)(argc + 1) * sizeof *argv);
    struct bench_args a2 = a;
    struct clmem_error err2 = {0};
    int help = 0, help2 = 0, status = bench_parse_args(argc, argv, &a, &help, &err);
    int status2 = bench_parse_args(argc, again, &a2, &help2, &err2);
    check_same(status, help, &err, status2, help2, &err2);
    clmem_error_clear(&err2);
    if (status == CLMEM_OK && !help) {
        struct clmem_bench_options options = {
            .reps = (unsigned)a.reps, .seed = a.seed, .compare = a.compare, .only = a.workloads};
        status = clmem_bench_plan(&ctx, &options, &steps, &err);
    }
    if (status) {
        check_refusal(status, &err);
        return;
    }
    FUZZ_CHECK(help || (a.reps >= 1 && a.reps <= 1000));
}

/* Each argument alone through the parsers the options use. */
static void fuzz_values(const char *text)
{
    static const struct {
        unsigned long long min, max;
    } ranges[] = {{1, MAX_REPS}, {0, 100}, {0, UINT64_MAX}, {1, 1000}};
    struct clmem_error err = {0};
    int status;
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(ranges); i++) {
        unsigned long long v = 0;
        status = cli_parse_uint("--n", text, ranges[i].min, ranges[i].max, &v, &err);
        if (status == CLMEM_OK)
            FUZZ_CHECK(v >= ranges[i].min && v <= ranges[i].max && strtoull(text, NULL, 10) == v);
        else
            check_refusal(status, &err);
    }
    enum clmem_format format;
    if ((status = clmem_format_parse(text, &format, &err)))
        check_refusal(status, &err);
    struct clmem_size size;
    if ((status = clmem_size_parse(text, &size, &err)))
        check_refusal(status, &err);
    if ((status = clmem_devices_parse_spec(text, &err)))
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
    char *copy = malloc(size + 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    copy[size] = '\0';
    char *run_argv[MAX_ARGS + 2] = {"run"}, *bench_argv[MAX_ARGS + 2] = {"bench"};
    int argc = 1;
    for (size_t at = 0; at < size && argc <= MAX_ARGS; argc++) {
        run_argv[argc] = bench_argv[argc] = copy + at;
        at += strlen(copy + at) + 1;
    }
    run_argv[argc] = bench_argv[argc] = NULL;
    fuzz_run(argc, run_argv);
    fuzz_bench(argc, bench_argv, size % 2 ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU);
    for (int i = 1; i < argc; i++)
        fuzz_values(run_argv[i]);
    free(copy);
    return 0;
}
