/* clmem compare: saved run files of any machines and the suite on live
 * devices, in one report side by side with pictures (src/report/compare.c). */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_COMPARED 16
#define MAX_FILES    64

struct compare_args {
    const char *devices, *output_dir, *workloads, *kernel_dir, *compare, *sizes;
    unsigned long long reps, seed;
    int no_cache;
    int devices_given;            /* --devices was given (under mpirun the default is the GPUs) */
    const char *files[MAX_FILES]; /* saved run files, in the order given */
    size_t n_files;
};

static void usage(FILE *out)
{
    fprintf(out, "usage: clmem compare [FILE.json...] [options]\n\n"
                 "Writes a report comparing devices: those of saved run files (written by\n"
                 "'clmem bench --output' or '--format json' on any machine, an MPI file\n"
                 "giving one per rank) and live ones, on which it runs 'clmem bench' first.\n"
                 "With no FILE it runs every device of this machine; with files, only the\n"
                 "devices named by --devices. The report: report.md and report.html (the\n"
                 "best result per workload and device at a glance, then a table per\n"
                 "workload of the rows every device has, then the rows only some have),\n"
                 "results.csv, one JSON per device, and with gnuplot installed SVG\n"
                 "pictures (coalescing curves, transpose bars, matmul against size, a\n"
                 "roofline per device).\n\n"
                 "options:\n"
                 "  --devices LIST      comma-separated devices as 'clmem run --device' takes\n"
                 "                      them, or all (default: all without FILE, none with)\n"
                 "  --device LIST       the same\n"
                 "  --sizes S           live devices' bench sizes: common (default: every\n"
                 "                      device at the smallest device's sizes, the CPU ones\n"
                 "                      when any device, live or saved, is a CPU), own\n"
                 "                      (each device its own), cpu or gpu\n"
                 "  --output-dir DIR    where the report goes (default clmem-report); it\n"
                 "                      appears whole or not at all\n"
                 "  --workloads LIST    comma-separated workloads (default: all)\n"
                 "  --reps N            timed runs per variant, 1 to 1000 (default 5)\n"
                 "  --seed N            input generator seed (default 42)\n"
                 "  --compare LIB       as 'clmem bench --compare'\n"
                 "  --kernel-dir DIR    where the .cl files are\n"
                 "  --no-cache          build the kernels from source\n\n"
                 "Every FILE is read and checked before any work: a file that cannot be\n"
                 "read, is empty, not JSON, of a newer schema or holds no results is a\n"
                 "usage error (exit 2) and nothing is written.\n"
                 "Under mpirun (an MPI build), each rank runs on one device of its host,\n"
                 "chosen by its rank there from --devices (default: the host's GPUs), and\n"
                 "the report has a column per rank; FILE arguments are refused there.\n"
                 "Ctrl-C stops after the current variant; the report then covers what\n"
                 "finished.\n\n"
                 "exit codes: 0 ok, 1 a live verification failed, 2 usage error or bad file,\n"
                 "3 no device or OpenCL error, 128+N stopped by signal N (130: Ctrl-C)\n");
}

static int parse_args(int argc, char **argv, struct compare_args *a, int *help,
                      struct clmem_error *err)
{
    static const struct option long_options[] = {{"devices", required_argument, NULL, 'd'},
                                                 {"device", required_argument, NULL, 'd'},
                                                 {"sizes", required_argument, NULL, 'z'},
                                                 {"output-dir", required_argument, NULL, 'o'},
                                                 {"workloads", required_argument, NULL, 'w'},
                                                 {"reps", required_argument, NULL, 'r'},
                                                 {"seed", required_argument, NULL, 'S'},
                                                 {"compare", required_argument, NULL, 'c'},
                                                 {"kernel-dir", required_argument, NULL, 'k'},
                                                 {"no-cache", no_argument, NULL, 'n'},
                                                 {"help", no_argument, NULL, 'h'},
                                                 {0}};
    int c, status = CLMEM_OK;
    char bad[64];
    opterr = 0;
    optind = 0; /* a full reset of getopt's state, as glibc and musl read it */
    while (status == CLMEM_OK && (c = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
        switch (c) {
        case 'd':
            a->devices = optarg;
            a->devices_given = 1;
            break;
        case 'o': a->output_dir = optarg; break;
        case 'z': a->sizes = optarg; break;
        case 'w': a->workloads = optarg; break;
        case 'c': a->compare = optarg; break;
        case 'k': status = cli_parse_dir("--kernel-dir", optarg, &a->kernel_dir, err); break;
        case 'n': a->no_cache = 1; break;
        case 'r': status = cli_parse_uint("--reps", optarg, 1, 1000, &a->reps, err); break;
        case 'S': status = cli_parse_uint("--seed", optarg, 0, UINT64_MAX, &a->seed, err); break;
        case 'h': *help = 1; return CLMEM_OK;
        default:
            return cli_option_error("compare", c, cli_refused_option(argc, argv, bad, sizeof bad),
                                    err);
        }
    }
    /* What is left are the saved run files (getopt moved them to the end). */
    for (; status == CLMEM_OK && optind < argc; optind++) {
        if (a->n_files == MAX_FILES)
            return clmem_fail(err, CLMEM_ERR_USAGE, "more than %d run files", MAX_FILES);
        if (!argv[optind][0])
            return clmem_fail(err, CLMEM_ERR_USAGE, "an empty run file name");
        a->files[a->n_files++] = argv[optind];
    }
    if (status == CLMEM_OK && strcmp(a->sizes, "common") != 0 && strcmp(a->sizes, "own") != 0 &&
        strcmp(a->sizes, "cpu") != 0 && strcmp(a->sizes, "gpu") != 0)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "unknown --sizes '%s' (use common, own, cpu or gpu)", a->sizes);
    if (status == CLMEM_OK)
        status = clmem_compare_check(NULL, a->compare, err);
    return status;
}

/* The devices named by `list` ("all" or specs), each once, in order. */
static int choose_devices(const char *list, const struct clmem_device *devices, size_t count,
                          size_t *chosen, size_t *n_chosen, struct clmem_error *err)
{
    *n_chosen = 0;
    if (strcmp(list, "all") == 0) {
        for (size_t i = 0; i < count && i < MAX_COMPARED; i++)
            chosen[(*n_chosen)++] = i;
        return count ? CLMEM_OK : clmem_fail(err, CLMEM_ERR_CL, "no OpenCL device found");
    }
    char spec[256];
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        snprintf(spec, sizeof spec, "%.*s", (int)len, p);
        size_t index;
        int status = clmem_devices_select(spec, devices, count, &index, err);
        if (status)
            return status;
        int seen = 0;
        for (size_t i = 0; i < *n_chosen; i++)
            seen |= chosen[i] == index;
        if (!seen && *n_chosen < MAX_COMPARED)
            chosen[(*n_chosen)++] = index;
        p = end ? end + 1 : p + len;
    }
    return *n_chosen ? CLMEM_OK : clmem_fail(err, CLMEM_ERR_USAGE, "--devices names no device");
}

struct progress {
    size_t device, devices;
    const char *name;
};

static void show_progress(void *user, size_t step, size_t steps, const char *workload,
                          const char *size)
{
    const struct progress *p = user;
    fprintf(stderr, "clmem: device %zu/%zu (%s) [%zu/%zu] %s %s\n", p->device + 1, p->devices,
            p->name, step, steps, workload, size);
}

#ifdef CLMEM_HAVE_MPI
/* compare under mpirun: each rank runs bench on its device (from --devices
 * by its rank on its host; default: the host's GPUs) and rank 0 writes
 * one report with a column per rank. */
static int compare_mpi(const struct compare_args *a, const struct clmem_mpi *m)
{
    struct clmem_error err = {0}, run_err = {0};
    struct clmem_ctx ctx = {0};
    struct clmem_result *results = NULL;
    struct clmem_rank_report *all = NULL;
    struct clmem_compare_device *runs = NULL;
    struct clmem_peak peak = {0};
    size_t n_results = 0, steps;
    int status = CLMEM_OK, run_status;
    if (m->rank == 0)
        status = clmem_compare_dir(a->output_dir, &err);
    if ((status = clmem_mpi_agree(m, status, &err)))
        goto cleanup;
    if ((status =
             cli_mpi_open_device(a->devices_given ? a->devices : NULL, a->kernel_dir, &ctx, &err)))
        goto cleanup;
    ctx.no_cache = a->no_cache;
    cli_catch_interrupts();
    struct clmem_bench_options options = {.reps = (unsigned)a->reps,
                                          .seed = a->seed,
                                          .compare = a->compare,
                                          .only = a->workloads,
                                          .cancelled = cli_interrupted};
    if ((status = clmem_mpi_agree(m, clmem_bench_plan(&ctx, &options, &steps, &err), &err)))
        goto cleanup;
    run_status = clmem_bench_run(&ctx, &options, &peak, &results, &n_results, &run_err);
    status = cli_mpi_gather(&ctx, n_results > 0, &peak, run_status, &run_err, results, n_results,
                            &all, &err);
    if (status == CLMEM_OK && m->rank == 0) {
        run_status = cli_mpi_report_ranks(all, (size_t)m->size);
        if (!(runs = calloc((size_t)m->size, sizeof *runs))) {
            status = clmem_fail(&err, CLMEM_ERR_CL, "out of host memory");
        } else {
            /* The report's columns: one per rank, named by rank and host. */
            for (int i = 0; i < m->size; i++) {
                runs[i].device = all[i].device;
                runs[i].rank = all[i].rank;
                runs[i].host_info = all[i].host;
                snprintf(runs[i].host, sizeof runs[i].host, "%s", all[i].host.name);
                runs[i].peak = all[i].peak;
                runs[i].results = all[i].results;
                runs[i].n_results = all[i].n_results;
            }
            char note[1300];
            status =
                clmem_compare_report(a->output_dir, runs, (size_t)m->size, note, sizeof note, &err);
            if (status == CLMEM_OK) {
                printf("clmem: report for %d rank(s) in '%s/report.md'\n", m->size, a->output_dir);
                if (note[0])
                    fprintf(stderr, "clmem: %s\n", note);
                status = run_status;
            }
        }
    }
    status = cli_mpi_final(status);

cleanup:
    cli_report_warnings(&ctx);
    status = cli_report_end(status, n_results, a->output_dir, &err);
    free(runs);
    clmem_rank_reports_free(all, all ? (size_t)m->size : 0);
    clmem_results_free(results, n_results);
    clmem_ctx_close(&ctx);
    clmem_error_clear(&err);
    clmem_error_clear(&run_err);
    return status;
}
#endif

/* Whose bench sizes the live devices run (--sizes): common is the CPU
 * sizes when any device compared, live or saved, is a CPU. */
static cl_device_type sizes_type(const char *sizes, const struct clmem_device *devices,
                                 const size_t *chosen, size_t n_chosen,
                                 const struct clmem_compare_device *saved, size_t n_saved)
{
    if (strcmp(sizes, "own") == 0)
        return 0;
    if (strcmp(sizes, "cpu") == 0)
        return CL_DEVICE_TYPE_CPU;
    if (strcmp(sizes, "gpu") == 0)
        return CL_DEVICE_TYPE_GPU;
    int cpu = 0;
    for (size_t i = 0; i < n_chosen; i++)
        cpu |= (devices[chosen[i]].type & CL_DEVICE_TYPE_CPU) != 0;
    for (size_t i = 0; i < n_saved; i++)
        cpu |= (saved[i].device.type & CL_DEVICE_TYPE_CPU) != 0;
    return cpu ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU;
}

/* Runs bench on each chosen device into live[0 .. *n_live). A device that
 * cannot be opened or fails is reported and the others still run; returns
 * the worst status, or a usage error / interruption at once. */
static int run_live(const struct compare_args *a, const struct clmem_device *devices,
                    const size_t *chosen, size_t n_chosen, cl_device_type sizes,
                    struct clmem_compare_device *live, size_t *n_live, struct clmem_error *err)
{
    struct clmem_host host;
    int status, worst = CLMEM_OK;
    clmem_host_describe(&host);
    for (size_t i = 0; i < n_chosen && !cli_interrupted(NULL); i++) {
        struct clmem_ctx ctx;
        struct progress progress = {i, n_chosen, devices[chosen[i]].name};
        struct clmem_bench_options options = {
            .reps = (unsigned)a->reps,
            .seed = a->seed,
            .compare = a->compare,
            .only = a->workloads,
            .sizes = sizes,
            .progress = isatty(STDERR_FILENO) ? show_progress : NULL,
            .progress_user = &progress,
            .cancelled = cli_interrupted,
        };
        live[i].device = devices[chosen[i]];
        live[i].rank = -1;
        live[i].host_info = host;
        snprintf(live[i].host, sizeof live[i].host, "%s", host.name);
        *n_live = i + 1;
        /* A device that cannot be opened is reported; the others still run. */
        if ((status = cli_ctx_open(&ctx, &devices[chosen[i]], a->kernel_dir, err))) {
            cli_report_error(err);
            worst = clmem_status_worst(worst, status);
            clmem_error_clear(err);
            continue;
        }
        ctx.no_cache = a->no_cache;
        size_t steps;
        status = clmem_bench_plan(&ctx, &options, &steps, err);
        if (status == CLMEM_OK)
            status = clmem_bench_run(&ctx, &options, &live[i].peak, &live[i].results,
                                     &live[i].n_results, err);
        cli_report_warnings(&ctx);
        clmem_ctx_close(&ctx);
        if (status == CLMEM_ERR_USAGE || status == CLMEM_ERR_INTERRUPTED)
            return status;
        /* A device that fails is reported; the others still run. */
        if (status == CLMEM_ERR_CL)
            cli_report_error(err);
        worst = clmem_status_worst(worst, status);
        clmem_error_clear(err);
    }
    return worst;
}

int cmd_compare(int argc, char **argv)
{
    struct compare_args a = {
        .devices = "all", .output_dir = "clmem-report", .sizes = "common", .reps = 5, .seed = 42};
    struct clmem_error err = {0};
    struct clmem_device *devices = NULL;
    struct clmem_compare_device *runs = NULL;
    size_t count = 0, chosen[MAX_COMPARED], n_chosen = 0, n_saved = 0, n_live = 0;
    int help = 0, status, worst = CLMEM_OK;

    if ((status = cli_agree(parse_args(argc, argv, &a, &help, &err), &err)) || help) {
        if (help && !cli_silent)
            usage(stdout);
        return status ? cli_report_error(&err) : CLMEM_OK;
    }
#ifdef CLMEM_HAVE_MPI
    if (cli_mpi()) {
        if (a.n_files) {
            clmem_fail(&err, CLMEM_ERR_USAGE,
                       "compare reads run files without mpirun: run 'clmem compare FILE...' "
                       "alone");
            return cli_report_error(&err);
        }
        return compare_mpi(&a, cli_mpi());
    }
#endif
    /* Every file is read and checked before any device or directory. */
    for (size_t f = 0; f < a.n_files; f++)
        if ((status = clmem_runfile_load(a.files[f], &runs, &n_saved, &err)))
            goto cleanup;
    int live_wanted = a.n_files == 0 || a.devices_given;
    if ((status = clmem_compare_dir(a.output_dir, &err)))
        goto cleanup;
    if (live_wanted &&
        ((status = cli_devices_list(&devices, &count, CLI_DRIVER_ADDRESS_SPACE_MIB, &err)) ||
         (status = choose_devices(a.devices, devices, count, chosen, &n_chosen, &err))))
        goto cleanup;
    struct clmem_compare_device *all = realloc(runs, (n_saved + n_chosen + 1) * sizeof *all);
    if (!all) {
        status = clmem_fail(&err, CLMEM_ERR_CL, "out of host memory");
        goto cleanup;
    }
    runs = all;
    memset(runs + n_saved, 0, (n_chosen + 1) * sizeof *runs);
    cli_catch_interrupts();
    cl_device_type sizes = sizes_type(a.sizes, devices, chosen, n_chosen, runs, n_saved);
    worst = run_live(&a, devices, chosen, n_chosen, sizes, runs + n_saved, &n_live, &err);
    if (worst == CLMEM_ERR_USAGE) {
        status = worst;
        goto cleanup;
    }
    /* Interrupted, the report covers the devices and workloads that finished. */
    char note[1300];
    int interrupted = cli_interrupted(NULL);
    if ((status =
             clmem_compare_report(a.output_dir, runs, n_saved + n_live, note, sizeof note, &err)))
        goto cleanup;
    printf("clmem: report for %zu device(s) in '%s/report.md'\n", n_saved + n_live, a.output_dir);
    if (note[0])
        fprintf(stderr, "clmem: %s\n", note);
    status = interrupted ? CLMEM_ERR_INTERRUPTED : worst;

cleanup:;
    size_t kept = 0;
    for (size_t i = n_saved; i < n_saved + n_live; i++)
        kept += runs[i].n_results;
    status = cli_report_end(status, kept, a.output_dir, &err);
    clmem_compare_devices_free(runs, n_saved + n_live);
    free(devices);
    clmem_error_clear(&err);
    return status;
}
