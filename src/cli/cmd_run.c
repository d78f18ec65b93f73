/* clmem run WORKLOAD: build, time and verify a workload's variants on one device. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_REPS 100000

struct run_args {
    const char *workload, *variant, *size, *device, *output, *kernel_dir, *input, *compare;
    unsigned long long reps, warmup, seed;
    int peak, no_cache;
    enum clmem_format format;
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: clmem run WORKLOAD [options]\n\n"
            "Builds WORKLOAD's kernels for the device, runs each variant --warmup times\n"
            "untimed and --reps times timed (event profiling), verifies the result against\n"
            "the CPU reference and reports median, min and max.\n\n"
            "options:\n"
            "  --variant V|all     one variant or all of them (default all; 'clmem list')\n"
            "  --size S            N, MxN or MxNxK (default: the workload's)\n"
            "  --device D          P:D index, gpu, cpu or part of a name (default: first GPU)\n"
            "  --reps N            timed runs, 1 to %d (default 5)\n"
            "  --warmup N          untimed runs first, 0 to 100 (default 1)\n"
            "  --seed N            input generator seed (default 42)\n"
            "  --format F          table, csv or json (default table)\n"
            "  --output FILE       write the report there (whole, or not at all)\n"
            "  --kernel-dir DIR    where the .cl files are (default: CLMEM_KERNEL_DIR,\n"
            "                      the installed ones, the source tree)\n"
            "  --no-cache          build the kernels from source, neither using nor\n"
            "                      filling the compiled-program cache\n"
            "  --peak              measure the device's peaks first (as 'clmem peak') and\n"
            "                      give each result its fraction of them\n"
            "  --compare LIB       also run LIB's routine on the same buffers and give each\n"
            "                      result its ratio to it (clblast: matmul; needs clmem\n"
            "                      built with libclblast-dev)\n"
            "  --input FILE        an input file, for workloads that take one (blur: a\n"
            "                      binary PGM or PPM image); such workloads write their\n"
            "                      image to an --output named FILE.pgm or FILE.ppm\n\n"
            "Ctrl-C stops after the current variant and reports those that finished.\n"
            "exit codes: 0 ok, 1 verification failed, 2 usage error or a file that cannot\n"
            "be written, 3 no device or OpenCL error, 130 interrupted (Ctrl-C)\n",
            MAX_REPS);
}

static int parse_args(int argc, char **argv, struct run_args *a, int *help, struct clmem_error *err)
{
    static const struct option long_options[] = {{"variant", required_argument, NULL, 'v'},
                                                 {"size", required_argument, NULL, 's'},
                                                 {"device", required_argument, NULL, 'd'},
                                                 {"reps", required_argument, NULL, 'r'},
                                                 {"warmup", required_argument, NULL, 'w'},
                                                 {"seed", required_argument, NULL, 'S'},
                                                 {"format", required_argument, NULL, 'f'},
                                                 {"output", required_argument, NULL, 'o'},
                                                 {"kernel-dir", required_argument, NULL, 'k'},
                                                 {"help", no_argument, NULL, 'h'},
                                                 {"input", required_argument, NULL, 'i'},
                                                 {"peak", no_argument, NULL, 'p'},
                                                 {"compare", required_argument, NULL, 'c'},
                                                 {"no-cache", no_argument, NULL, 'n'},
                                                 {0}};
    int c, status = CLMEM_OK;
    char bad[3];
    opterr = 0;
    optind = 0; /* 0, not 1: also forgets a half-read "-xy" of an earlier parse */
    while (status == CLMEM_OK && (c = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
        switch (c) {
        case 'v': a->variant = optarg; break;
        case 's': a->size = optarg; break;
        case 'd': a->device = optarg; break;
        case 'o': a->output = optarg; break;
        case 'k': a->kernel_dir = optarg; break;
        case 'i': a->input = optarg; break;
        case 'p': a->peak = 1; break;
        case 'c': a->compare = optarg; break;
        case 'n': a->no_cache = 1; break;
        case 'r': status = cli_parse_uint("--reps", optarg, 1, MAX_REPS, &a->reps, err); break;
        case 'w': status = cli_parse_uint("--warmup", optarg, 0, 100, &a->warmup, err); break;
        case 'S': status = cli_parse_uint("--seed", optarg, 0, UINT64_MAX, &a->seed, err); break;
        case 'f': status = clmem_format_parse(optarg, &a->format, err); break;
        case 'h': *help = 1; return CLMEM_OK;
        default:
            return cli_option_error("run", c, cli_refused_option(argc, argv, bad, sizeof bad), err);
        }
    }
    if (status)
        return status;
    if (optind >= argc)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "run needs a workload (try 'clmem list', 'clmem run --help')");
    if (argc - optind > 1)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "unexpected argument '%s' (see 'clmem run "
                          "--help')",
                          argv[optind + 1]);
    a->workload = argv[optind];
    return CLMEM_OK;
}

/* Workloads that make an image write it to an --output named .pgm or .ppm;
 * the report then goes to stdout. */
static int is_image_path(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    return n > 4 && (strcmp(path + n - 4, ".pgm") == 0 || strcmp(path + n - 4, ".ppm") == 0);
}

/* Every check that needs no device: names, size syntax, kernel files. */
static int validate(const struct run_args *a, const struct clmem_workload **workload,
                    struct clmem_error *err)
{
    const struct clmem_workload *w = clmem_workload_find(a->workload);
    if (!w)
        return clmem_fail(err, CLMEM_ERR_USAGE, "unknown workload '%s' (try 'clmem list')",
                          a->workload);
    if (a->variant && strcmp(a->variant, "all") != 0 && !clmem_variant_find(w, a->variant))
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "unknown variant '%s' of '%s' (try 'clmem list %s')", a->variant, w->name,
                          w->name);
    if (a->input && !w->input_help)
        return clmem_fail(err, CLMEM_ERR_USAGE, "workload '%s' takes no --input", w->name);
    struct clmem_size size;
    int status = clmem_compare_check(w, a->compare, err);
    if (status == CLMEM_OK)
        status = clmem_size_parse(a->size ? a->size : w->default_size, &size, err);
    if (status == CLMEM_OK)
        status = clmem_devices_parse_spec(a->device, err);
    char path[2048];
    if (status == CLMEM_OK &&
        (status = clmem_source_find(a->kernel_dir, w->source, path, sizeof path, err)) == 0 &&
        access(path, R_OK) != 0)
        status = clmem_fail(err, CLMEM_ERR_USAGE, "cannot read kernel source '%s': %s", path,
                            strerror(errno));
    *workload = w;
    return status;
}

static void show_progress(void *user, const struct clmem_run *run, size_t index)
{
    (void)user;
    fprintf(stderr, "clmem: [%zu/%zu] %s %s on %s\n", index + 1, run->n_variants,
            run->workload->name, run->variants[index]->name, run->ctx->device.name);
}

static void report_failures(const struct clmem_result *results, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!results[i].skipped && !results[i].verified)
            fprintf(stderr, "clmem: %s %s: verification failed: %s\n", results[i].workload,
                    results[i].variant, results[i].verify_detail);
}

int cmd_run(int argc, char **argv)
{
    struct run_args a = {.reps = 5, .warmup = 1, .seed = 42, .format = CLMEM_FORMAT_TABLE};
    struct clmem_error err = {0};
    const struct clmem_workload *workload = NULL;
    struct clmem_output output = {0};
    struct clmem_ctx ctx = {0};
    struct clmem_run run = {0};
    struct clmem_result *results = NULL;
    size_t n_results = 0;
    int help = 0, status;

    if ((status = parse_args(argc, argv, &a, &help, &err)))
        return cli_report_error(&err);
    if (help) {
        usage(stdout);
        return CLMEM_OK;
    }
    if ((status = validate(&a, &workload, &err)))
        return cli_report_error(&err);
    const char *image_output = NULL;
    if (workload->input_help && is_image_path(a.output)) {
        image_output = a.output;
        a.output = NULL;
    }
    if (a.output && (status = clmem_output_open(&output, a.output, &err)))
        return cli_report_error(&err);
    cli_catch_interrupts(output.tmp_path);
    if ((status = cli_open_device(a.device, a.kernel_dir, &ctx, &err)))
        goto cleanup;
    ctx.no_cache = a.no_cache;

    struct clmem_run_options options = {.size = a.size,
                                        .variant = a.variant,
                                        .reps = (unsigned)a.reps,
                                        .warmup = (unsigned)a.warmup,
                                        .seed = a.seed,
                                        .input = a.input,
                                        .image_output = image_output,
                                        .compare = a.compare,
                                        .progress = isatty(STDERR_FILENO) ? show_progress : NULL,
                                        .cancelled = cli_interrupted};
    if ((status = clmem_run_plan(&run, workload, &ctx, &options, &err)))
        goto cleanup;
    status = clmem_run_execute(&run, &options, &results, &n_results, &err);
    int interrupted = status == CLMEM_ERR_INTERRUPTED;
    if (status != CLMEM_OK && status != CLMEM_ERR_VERIFY && !interrupted)
        goto cleanup;
    report_failures(results, n_results);
    struct clmem_peak peak;
    if (a.peak && !interrupted) {
        struct clmem_result *peak_results = NULL;
        size_t n_peak = 0;
        int peak_status =
            clmem_peak_measure(&ctx, (unsigned)a.reps, &peak, &peak_results, &n_peak, &err);
        clmem_results_free(peak_results, n_peak);
        if (peak_status) {
            status = peak_status;
            goto cleanup;
        }
        clmem_results_apply_peak(results, n_results, &peak);
    }
    struct clmem_report_meta meta = {.device = &ctx.device,
                                     .peak = a.peak && !interrupted ? &peak : NULL,
                                     .interrupted = interrupted};
    int write_status = output.file
                           ? clmem_output_report(&output, a.format, results, n_results, &meta, &err)
                           : clmem_report_write(stdout, a.format, results, n_results, &meta, &err);
    if (write_status)
        status = write_status;

cleanup:
    cli_report_warnings(&ctx);
    if (status == CLMEM_ERR_INTERRUPTED)
        status = cli_report_interrupted(n_results, a.output);
    else if (status && status != CLMEM_ERR_VERIFY)
        cli_report_error(&err);
    clmem_output_abort(&output);
    clmem_results_free(results, n_results);
    clmem_run_release(&run);
    clmem_ctx_close(&ctx);
    clmem_error_clear(&err);
    return status;
}
