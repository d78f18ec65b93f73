/* clmem run WORKLOAD: build, time and verify a workload's variants on one device. */
#include "run.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_REPS    100000
#define MAX_DEVICES 64

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
            "  --device D          P:D index, gpu, cpu or part of a name (default: first GPU);\n"
            "                      'all' or a comma-separated list (cpu,cpu) runs on every\n"
            "                      device at once, a thread each, and adds a total line\n"
            "  --split[=W,W,...]   matmul on a device list: P's rows divided into one\n"
            "                      block per device (shares W, equal by default), gathered\n"
            "                      and verified; a strong-scaling table over the first\n"
            "                      1..D devices (host wall time, end to end: each device's\n"
            "                      copies overlap its kernels, in tiles of P)\n"
            "  --weak              with --split: weak scaling, k devices multiply k times\n"
            "                      the rows of --size (each keeps its share of them)\n"
            "  --summa[=RxC]       under mpirun (an MPI build): matmul distributed over\n"
            "                      the ranks, a grid of R x C (default: the squarest),\n"
            "                      SUMMA, each rank's blocks on its device, verified\n"
            "  --panel N           SUMMA's panel width (inner dimension; default 256)\n"
            "  --no-overlap        with --split or --summa: each copy, broadcast and kernel\n"
            "                      waits for the one before (to see what overlap hides)\n"
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
            "                      built with libclblast-dev; openblas: matmul on a CPU\n"
            "                      device, cblas_sgemm on the host's cores, host wall time;\n"
            "                      needs libopenblas-dev)\n"
            "  --input FILE        an input file, for workloads that take one (blur: a\n"
            "                      binary PGM or PPM image); such workloads write their\n"
            "                      image to an --output named FILE.pgm or FILE.ppm\n\n"
            "Under mpirun, each rank runs on one device of its host, chosen by its rank\n"
            "there from --device (default: the host's GPUs), and rank 0 reports every\n"
            "rank's results and their total.\n"
            "Ctrl-C (SIGTERM, SIGHUP) stops after the current variant and reports those\n"
            "that finished; a second one, SIGQUIT or SIGPIPE stop at once.\n"
            "exit codes: 0 ok, 1 verification failed, 2 usage error or a file that cannot\n"
            "be written, 3 no device or OpenCL error, 128+N stopped by signal N (130:\n"
            "Ctrl-C)\n",
            MAX_REPS);
}

/* "RxC" of --summa=RxC, each part as cli_parse_uint takes it, 1 to 65536
 * (NULL: 0 x 0, the squarest grid). */
static int parse_grid(const char *text, unsigned long long *rows, unsigned long long *cols,
                      struct clmem_error *err)
{
    *rows = *cols = 0;
    if (!text)
        return CLMEM_OK;
    const char *x = strchr(text, 'x');
    char part[64];
    if (!x || x == text || !x[1] || strchr(x + 1, 'x') || (size_t)(x - text) >= sizeof part)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "bad --summa grid '%s' (expected RxC, e.g. 2x2, rows x columns of "
                          "ranks)",
                          text);
    snprintf(part, sizeof part, "%.*s", (int)(x - text), text);
    int status = cli_parse_uint("--summa rows", part, 1, 65536, rows, err);
    if (status == CLMEM_OK)
        status = cli_parse_uint("--summa columns", x + 1, 1, 65536, cols, err);
    return status;
}

static int parse_args(int argc, char **argv, struct run_args *a, int *help, struct clmem_error *err)
{
    static const struct option long_options[] = {
        {"variant", required_argument, NULL, 'v'},    {"size", required_argument, NULL, 's'},
        {"device", required_argument, NULL, 'd'},     {"reps", required_argument, NULL, 'r'},
        {"warmup", required_argument, NULL, 'w'},     {"seed", required_argument, NULL, 'S'},
        {"format", required_argument, NULL, 'f'},     {"output", required_argument, NULL, 'o'},
        {"kernel-dir", required_argument, NULL, 'k'}, {"help", no_argument, NULL, 'h'},
        {"input", required_argument, NULL, 'i'},      {"peak", no_argument, NULL, 'p'},
        {"compare", required_argument, NULL, 'c'},    {"no-cache", no_argument, NULL, 'n'},
        {"split", optional_argument, NULL, 'x'},      {"summa", optional_argument, NULL, 'G'},
        {"panel", required_argument, NULL, 'P'},      {"weak", no_argument, NULL, 'K'},
        {"no-overlap", no_argument, NULL, 'O'},       {0}};
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
        case 'k': status = cli_parse_dir("--kernel-dir", optarg, &a->kernel_dir, err); break;
        case 'i': a->input = optarg; break;
        case 'p': a->peak = 1; break;
        case 'c': a->compare = optarg; break;
        case 'n': a->no_cache = 1; break;
        case 'K': a->weak = 1; break;
        case 'O': a->no_overlap = 1; break;
        case 'x':
            a->split = 1;
            a->split_weights = optarg;
            break;
        case 'G':
            a->summa = 1;
            status = parse_grid(optarg, &a->summa_rows, &a->summa_cols, err);
            break;
        case 'P': status = cli_parse_uint("--panel", optarg, 1, 1u << 30, &a->panel, err); break;
        case 'r': status = cli_parse_uint("--reps", optarg, 1, MAX_REPS, &a->reps, err); break;
        case 'w': status = cli_parse_uint("--warmup", optarg, 0, 100, &a->warmup, err); break;
        case 'S': status = cli_parse_uint("--seed", optarg, 0, UINT64_MAX, &a->seed, err); break;
        case 'f': status = clmem_format_parse(optarg, &a->format, err); break;
        case 'h': *help = 1; return CLMEM_OK;
        default:
            /* argv[0]: "run", or "peak" when clmem peak runs through here. */
            return cli_option_error(argv[0], c, cli_refused_option(argc, argv, bad, sizeof bad),
                                    err);
        }
    }
    if (status)
        return status;
    if (optind >= argc)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "run needs a workload (try 'clmem list', 'clmem run --help')");
    if (argc - optind > 1)
        return clmem_fail(err, CLMEM_ERR_USAGE, "unexpected argument '%s' (see 'clmem %s --help')",
                          argv[optind + 1], argv[0]);
    a->workload = argv[optind];
    return CLMEM_OK;
}

/* Workloads that make an image write it to an --output named .pgm or .ppm;
 * the report then goes to stdout. */
struct clmem_run_options run_options(const struct run_args *a)
{
    return (struct clmem_run_options){.size = a->size,
                                      .variant = a->variant,
                                      .reps = (unsigned)a->reps,
                                      .warmup = (unsigned)a->warmup,
                                      .seed = a->seed,
                                      .compare = a->compare,
                                      .cancelled = cli_interrupted};
}

int run_is_image_path(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    return n > 4 && (strcmp(path + n - 4, ".pgm") == 0 || strcmp(path + n - 4, ".ppm") == 0);
}

/* --device all, or a comma-separated list: several devices at once. */
static int is_device_list(const char *spec)
{
    return spec && (strchr(spec, ',') || strcasecmp(spec, "all") == 0);
}

/* The specs of a list, each checked as --device checks one. */
static int validate_devices(const struct run_args *a, const struct clmem_workload *w,
                            struct clmem_error *err)
{
    if (a->weak && !a->split)
        return clmem_fail(err, CLMEM_ERR_USAGE, "--weak goes with --split (a device list)");
    if (a->no_overlap && !a->split && !a->summa)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--no-overlap goes with --split (a device list) or --summa (mpirun)");
    if (!is_device_list(a->device)) {
        if (a->split)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "--split needs several devices: --device all or a list (cpu,cpu)");
        return clmem_devices_parse_spec(a->device, err);
    }
    if (a->split && strcmp(w->name, "matmul") != 0)
        return clmem_fail(err, CLMEM_ERR_USAGE, "--split is for matmul, not '%s'", w->name);
    if (a->peak)
        return clmem_fail(err, CLMEM_ERR_USAGE, "--peak takes one device, not '%s'", a->device);
    if (a->input)
        return clmem_fail(err, CLMEM_ERR_USAGE, "--input takes one device, not '%s'", a->device);
    if (w->input_help && run_is_image_path(a->output))
        return clmem_fail(err, CLMEM_ERR_USAGE, "an image --output takes one device, not '%s'",
                          a->device);
    if (a->split && (!a->variant || strcmp(a->variant, "all") == 0))
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--split runs one variant: name it with --variant (try 'clmem list "
                          "matmul')");
    if (a->split && a->compare)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--split runs clmem's kernels: leave out --compare");
    if (strcasecmp(a->device, "all") == 0)
        return CLMEM_OK;
    char spec[256];
    size_t n = 0;
    for (const char *p = a->device;; n++) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 0 || len >= sizeof spec)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "bad device list '%s': item %zu is %s (expected specs as --device "
                              "takes, comma-separated, e.g. 'cpu,cpu' or '0:0,1:0')",
                              a->device, n + 1, len ? "too long" : "empty");
        snprintf(spec, sizeof spec, "%.*s", (int)len, p);
        if (strcasecmp(spec, "all") == 0)
            return clmem_fail(err, CLMEM_ERR_USAGE, "bad device list '%s': 'all' stands alone",
                              a->device);
        int status = clmem_devices_parse_spec(spec, err);
        if (status)
            return status;
        if (n + 1 > MAX_DEVICES)
            return clmem_fail(err, CLMEM_ERR_USAGE, "bad device list '%s': more than %d devices",
                              a->device, MAX_DEVICES);
        if (!end)
            break;
        p = end + 1;
    }
    return CLMEM_OK;
}

/* --summa and --panel, and what a run under mpirun leaves out. */
static int validate_mpi(const struct run_args *a, const struct clmem_workload *w,
                        struct clmem_error *err)
{
    int under_mpirun = cli_launched_by_mpirun();
    if (a->panel && !a->summa)
        return clmem_fail(err, CLMEM_ERR_USAGE, "--panel is SUMMA's: use it with --summa");
    if (a->summa) {
#ifndef CLMEM_HAVE_MPI
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--summa needs clmem built with MPI ('meson configure build "
                          "-Dmpi=enabled', README \"Many hosts: MPI\")");
#endif
        if (!under_mpirun)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "--summa runs under mpirun, e.g. 'mpirun -n 4 clmem run matmul "
                              "--variant tiled --summa'");
        if (strcmp(w->name, "matmul") != 0)
            return clmem_fail(err, CLMEM_ERR_USAGE, "--summa is for matmul, not '%s'", w->name);
        if (!a->variant || strcmp(a->variant, "all") == 0)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "--summa runs one variant: name it with --variant (try 'clmem "
                              "list matmul')");
    }
    if (!under_mpirun)
        return CLMEM_OK;
    const char *left_out = a->split                                        ? "--split"
                           : a->summa && a->compare                        ? "--compare"
                           : a->peak                                       ? "--peak"
                           : a->input                                      ? "--input"
                           : w->input_help && run_is_image_path(a->output) ? "an image --output"
                                                                           : NULL;
    if (left_out)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "under mpirun, run takes no %s (each rank runs one device; for peaks "
                          "use 'clmem bench', for a distributed matmul --summa)",
                          left_out);
    return CLMEM_OK;
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
    struct stat st;
    if (a->input && stat(a->input, &st) == 0 && S_ISDIR(st.st_mode))
        return clmem_fail(err, CLMEM_ERR_USAGE, "--input '%s' is a directory, not a file",
                          a->input);
    struct clmem_size size;
    int status = clmem_compare_check(w, a->compare, err);
    if (status == CLMEM_OK)
        status = clmem_size_parse(a->size ? a->size : w->default_size, &size, err);
    if (status == CLMEM_OK)
        status = validate_mpi(a, w, err);
    if (status == CLMEM_OK)
        status = validate_devices(a, w, err);
    char path[2048];
    if (status == CLMEM_OK &&
        (status = clmem_source_find(a->kernel_dir, w->source, path, sizeof path, err)) == 0 &&
        access(path, R_OK) != 0)
        status = clmem_fail(err, CLMEM_ERR_USAGE, "cannot read kernel source '%s': %s", path,
                            strerror(errno));
    *workload = w;
    return status;
}

static void show_progress(void *user, const struct clmem_result *next, size_t index, size_t count)
{
    (void)user;
    fprintf(stderr, "clmem: [%zu/%zu] %s %s on %s\n", index + 1, count, next->workload,
            next->variant, next->device);
}

static void report_failures(const struct clmem_result *results, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!results[i].skipped && !results[i].verified)
            fprintf(stderr, "clmem: %s %s: verification failed: %s\n", results[i].workload,
                    results[i].variant, results[i].verify_detail);
}

/* --split=W,W,...: one share per device, each a number >= 0 written with
 * digits first (no sign or space, as the other numbers). */
static int parse_weights(const char *text, double *weights, size_t n_devices,
                         struct clmem_error *err)
{
    size_t n = 0;
    for (const char *p = text;; n++) {
        char *end;
        errno = 0;
        double w = strtod(p, &end);
        if (!(isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) ||
            end == p || (*end != ',' && *end != '\0') || errno || !isfinite(w) || w < 0.0)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "bad --split weights '%s': item %zu is not a number >= 0", text,
                              n + 1);
        if (n < n_devices)
            weights[n] = w;
        if (*end == '\0')
            break;
        p = end + 1;
    }
    if (n + 1 != n_devices)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--split has %zu weights for %zu devices: give one per device", n + 1,
                          n_devices);
    return CLMEM_OK;
}

/* The devices a list names, in order, a device named twice taken twice. */
static int choose_devices(const char *list, const struct clmem_device *devices, size_t count,
                          size_t *chosen, size_t *n_chosen, struct clmem_error *err)
{
    *n_chosen = 0;
    if (strcasecmp(list, "all") == 0) {
        if (count == 0)
            return clmem_fail(err, CLMEM_ERR_CL, "no OpenCL device found");
        for (size_t i = 0; i < count && i < MAX_DEVICES; i++)
            chosen[(*n_chosen)++] = i;
        return CLMEM_OK;
    }
    char spec[256];
    for (const char *p = list; *p && *n_chosen < MAX_DEVICES;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        snprintf(spec, sizeof spec, "%.*s", (int)len, p);
        int status = clmem_devices_select(spec, devices, count, &chosen[*n_chosen], err);
        if (status)
            return status;
        (*n_chosen)++;
        p = end ? end + 1 : p + len;
    }
    return CLMEM_OK;
}

/* The scaling table of a split run, after its results: strong (speedup,
 * efficiency speedup/k) or weak (the size per point, efficiency t(1)/t(k)). */
static void print_scaling(FILE *out, const struct clmem_result *results, size_t n,
                          const struct clmem_ctx *ctxs, int weak)
{
    if (n == 0)
        return;
    if (weak)
        fprintf(out,
                "\nweak scaling: %s %s, k devices multiply k times the rows of the first "
                "size, host wall time from inputs on the host to P there (median)\n",
                results[0].workload, results[0].variant);
    else
        fprintf(out,
                "\nstrong scaling: %s %s %s, the same size on the first k devices, host wall "
                "time from inputs on the host to P there (median)\n",
                results[0].workload, results[0].variant, results[0].size);
    for (size_t k = 0; k < n; k++)
        fprintf(out, "  device %zu: %s\n", k + 1, ctxs[k].device.name);
    if (weak)
        fprintf(out, "%7s %-18s %11s %12s %10s\n", "devices", "size", "median ms", "GFLOP/s",
                "efficiency");
    else
        fprintf(out, "%7s %11s %12s %8s %10s\n", "devices", "median ms", "GFLOP/s", "speedup",
                "efficiency");
    for (size_t k = 0; k < n; k++) {
        const struct clmem_result *r = &results[k];
        if (weak)
            fprintf(out, "%7zu %-18s", k + 1, r->size);
        else
            fprintf(out, "%7zu", k + 1);
        if (r->skipped) {
            fprintf(out, " %11s %12s %s%10s  skipped: %s\n", "-", "-", weak ? "" : "       - ", "-",
                    r->skip_reason);
            continue;
        }
        fprintf(out, " %11.4f %12.3f", r->median_ms, r->metric);
        if (isnan(r->baseline_fraction))
            fprintf(out, weak ? " %10s\n" : " %8s %10s\n", "-", "-");
        else if (weak)
            fprintf(out, " %10.2f\n", r->baseline_fraction);
        else
            fprintf(out, " %8.2f %10.2f\n", r->baseline_fraction,
                    r->baseline_fraction / (double)(k + 1));
    }
}

/* run on a device list: every device at once (a thread each) and the
 * totals, or with --split matmul's rows divided over them. */
static int run_several(const struct run_args *a, const struct clmem_workload *workload,
                       struct clmem_output *output, struct clmem_error *err)
{
    struct clmem_device *devices = NULL;
    size_t count, chosen[MAX_DEVICES], n = 0, opened = 0;
    struct clmem_ctx *ctxs = NULL;
    struct clmem_result *results = NULL;
    size_t n_results = 0;
    double weights[MAX_DEVICES];
    int status = cli_devices_list(&devices, &count, CLI_DRIVER_ADDRESS_SPACE_MIB, err);
    if (status == CLMEM_OK)
        status = choose_devices(a->device, devices, count, chosen, &n, err);
    if (status == CLMEM_OK && a->split_weights)
        status = parse_weights(a->split_weights, weights, n, err);
    if (status)
        goto cleanup;
    if (!(ctxs = calloc(n, sizeof *ctxs))) {
        status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
        goto cleanup;
    }
    for (; opened < n; opened++) {
        if ((status = cli_ctx_open(&ctxs[opened], &devices[chosen[opened]], a->kernel_dir, err)))
            goto cleanup;
        ctxs[opened].no_cache = a->no_cache;
    }
    cli_catch_interrupts();
    if (a->split) {
        struct clmem_split_options so = {.variant = a->variant,
                                         .size = a->size,
                                         .weights = a->split_weights ? weights : NULL,
                                         .reps = (unsigned)a->reps,
                                         .warmup = (unsigned)a->warmup,
                                         .seed = a->seed,
                                         .weak = a->weak,
                                         .no_overlap = a->no_overlap,
                                         .cancelled = cli_interrupted};
        status = clmem_matmul_split(ctxs, n, &so, &results, &n_results, err);
    } else {
        struct clmem_run_options options = run_options(a);
        options.progress = isatty(STDERR_FILENO) ? show_progress : NULL;
        status = clmem_run_multi(workload, ctxs, n, &options, &results, &n_results, err);
    }
    status = cli_stop_status(status);
    int interrupted = status == CLMEM_ERR_INTERRUPTED;
    if (status != CLMEM_OK && status != CLMEM_ERR_VERIFY && !interrupted)
        goto cleanup;
    report_failures(results, n_results);
    struct clmem_report_meta meta = {.interrupted = interrupted};
    FILE *out = output->file ? output->file : stdout;
    int write_status = clmem_report_write(out, a->format, results, n_results, &meta, err);
    if (write_status == CLMEM_OK && a->split && a->format == CLMEM_FORMAT_TABLE) {
        print_scaling(out, results, n_results, ctxs, a->weak);
        if (fflush(out) != 0 || ferror(out))
            write_status = clmem_fail(err, CLMEM_ERR_USAGE, "cannot write the report: %s",
                                      strerror(errno ? errno : EIO));
    }
    if (write_status == CLMEM_ERR_USAGE && output->file) {
        /* As clmem_output_report: name the file, leave none behind. */
        int saved = errno ? errno : EIO;
        clmem_output_abort(output);
        write_status = clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", output->path,
                                  strerror(saved));
    } else if (write_status == CLMEM_OK && output->file)
        write_status = clmem_output_commit(output, err);
    if (write_status)
        status = write_status;

cleanup:
    for (size_t i = 0; i < opened; i++) {
        cli_report_warnings(&ctxs[i]);
        clmem_ctx_close(&ctxs[i]);
    }
    status = cli_report_end(status, n_results, a->output, err);
    clmem_results_free(results, n_results);
    free(ctxs);
    free(devices);
    return status;
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

    if ((status = cli_agree(parse_args(argc, argv, &a, &help, &err), &err)))
        return cli_report_error(&err);
    if (help) {
        if (!cli_silent)
            usage(stdout);
        return CLMEM_OK;
    }
    if ((status = cli_agree(validate(&a, &workload, &err), &err)))
        return cli_report_error(&err);
#ifdef CLMEM_HAVE_MPI
    if (cli_mpi())
        return run_mpi(&a, workload);
#endif
    const char *image_output = NULL;
    if (workload->input_help && run_is_image_path(a.output)) {
        image_output = a.output;
        a.output = NULL;
        /* Written after the run: checked now, as a report's --output is. */
        if ((status = clmem_output_check(image_output, &err)))
            return cli_report_error(&err);
    }
    if (a.output && (status = clmem_output_open(&output, a.output, &err)))
        return cli_report_error(&err);
    cli_signals_temp(output.tmp_path);
    if (is_device_list(a.device)) {
        status = run_several(&a, workload, &output, &err);
        clmem_output_abort(&output);
        clmem_error_clear(&err);
        return status;
    }
    if ((status = cli_open_device(a.device, a.kernel_dir, &ctx, &err)))
        goto cleanup;
    ctx.no_cache = a.no_cache;

    struct clmem_run_options options = run_options(&a);
    options.input = a.input;
    options.image_output = image_output;
    options.progress = isatty(STDERR_FILENO) ? show_progress : NULL;
    if ((status = clmem_run_plan(&run, workload, &ctx, &options, &err)))
        goto cleanup;
    /* Planned (an --input read): from here a signal stops after a variant. */
    cli_catch_interrupts();
    status = cli_stop_status(clmem_run_execute(&run, &options, &results, &n_results, &err));
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
    status = cli_report_end(status, n_results, a.output, &err);
    clmem_output_abort(&output);
    clmem_results_free(results, n_results);
    clmem_run_release(&run);
    clmem_ctx_close(&ctx);
    clmem_error_clear(&err);
    return status;
}
