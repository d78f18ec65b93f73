/* clmem bench: the whole suite at benchmark sizes on one device, each
 * result beside the device's own measured peak. */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct bench_args {
    const char *device, *output, *workloads, *kernel_dir, *compare;
    unsigned long long reps, seed;
    int no_cache;
    enum clmem_format format;
};

static void usage(FILE *out)
{
    fprintf(out, "usage: clmem bench [options]\n\n"
                 "Measures the device's peaks ('clmem peak'), then runs every workload's variants\n"
                 "at its benchmark sizes (larger on GPUs than on CPUs; 'clmem list' shows the\n"
                 "defaults), verifying each, and reports each result's fraction of the peak.\n"
                 "A workload that fails does not stop the others. Ctrl-C stops after the\n"
                 "current variant and reports the results that finished (exit 130).\n"
                 "Under mpirun (clmem built with MPI), each rank runs on one device of its\n"
                 "host, chosen by its rank there from --device (default: the host's GPUs),\n"
                 "and rank 0 reports every rank's results (JSON: a section per rank).\n\n"
                 "options:\n"
                 "  --device D          as 'clmem run' (default: first GPU)\n"
                 "  --workloads LIST    comma-separated workloads (default: all)\n"
                 "  --reps N            timed runs per variant, 1 to 1000 (default 5)\n"
                 "  --seed N            input generator seed (default 42)\n"
                 "  --format F          what stdout shows: table (default), csv or json\n"
                 "  --output FILE       also write the JSON report there (whole, or not at all)\n"
                 "  --kernel-dir DIR    where the .cl files are\n"
                 "  --no-cache          build the kernels from source (no compiled-program cache)\n"
                 "  --compare LIB       run LIB beside the kernels that it can stand for\n"
                 "                      (clblast: matmul's SGEMM; openblas: cblas_sgemm on the\n"
                 "                      host's cores, CPU devices only) and give the ratios\n\n"
                 "exit codes: 0 ok, 1 a verification failed, 2 usage error or a file that\n"
                 "cannot be written, 3 no device or OpenCL error, 128+N stopped by signal N\n"
                 "(130: Ctrl-C)\n");
}

static int parse_args(int argc, char **argv, struct bench_args *a, int *help,
                      struct clmem_error *err)
{
    static const struct option long_options[] = {{"device", required_argument, NULL, 'd'},
                                                 {"output", required_argument, NULL, 'o'},
                                                 {"workloads", required_argument, NULL, 'w'},
                                                 {"reps", required_argument, NULL, 'r'},
                                                 {"seed", required_argument, NULL, 'S'},
                                                 {"format", required_argument, NULL, 'f'},
                                                 {"kernel-dir", required_argument, NULL, 'k'},
                                                 {"help", no_argument, NULL, 'h'},
                                                 {"compare", required_argument, NULL, 'c'},
                                                 {"no-cache", no_argument, NULL, 'n'},
                                                 {0}};
    int c, status = CLMEM_OK;
    char bad[3];
    opterr = 0;
    optind = 0; /* 0, not 1: also forgets a half-read "-xy" of an earlier parse */
    while (status == CLMEM_OK && (c = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
        switch (c) {
        case 'd': a->device = optarg; break;
        case 'o': a->output = optarg; break;
        case 'w': a->workloads = optarg; break;
        case 'k': status = cli_parse_dir("--kernel-dir", optarg, &a->kernel_dir, err); break;
        case 'c': a->compare = optarg; break;
        case 'n': a->no_cache = 1; break;
        case 'r': status = cli_parse_uint("--reps", optarg, 1, 1000, &a->reps, err); break;
        case 'S': status = cli_parse_uint("--seed", optarg, 0, UINT64_MAX, &a->seed, err); break;
        case 'f': status = clmem_format_parse(optarg, &a->format, err); break;
        case 'h': *help = 1; return CLMEM_OK;
        default:
            return cli_option_error("bench", c, cli_refused_option(argc, argv, bad, sizeof bad),
                                    err);
        }
    }
    if (status == CLMEM_OK && optind < argc)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "unexpected argument '%s' (see 'clmem bench --help')", argv[optind]);
    if (status == CLMEM_OK)
        status = clmem_devices_parse_spec(a->device, err);
    if (status == CLMEM_OK)
        status = clmem_compare_check(NULL, a->compare, err);
    return status;
}

static void show_progress(void *user, size_t step, size_t steps, const char *workload,
                          const char *size)
{
    (void)user;
    fprintf(stderr, "clmem: [%zu/%zu] %s %s\n", step, steps, workload, size);
}

#ifdef CLMEM_HAVE_MPI
/* Rank 0's report of every rank's bench: JSON has a section per rank
 * (host, device, peaks, results); table and CSV name each result's rank. */
static int write_ranks(const struct bench_args *a, struct clmem_output *output,
                       const struct clmem_rank_report *all, size_t n, int interrupted,
                       struct clmem_error *err)
{
    int status = CLMEM_OK;
    if (output->file) {
        status = clmem_report_json_ranks(output->file, all, n, interrupted, err);
        if (status == CLMEM_OK)
            status = clmem_output_commit(output, err);
    }
    if (status)
        return status;
    if (a->format == CLMEM_FORMAT_JSON)
        return clmem_report_json_ranks(stdout, all, n, interrupted, err);
    struct clmem_result *results = NULL;
    size_t n_results = 0;
    status = cli_mpi_combine(all, n, 0, &results, &n_results, err);
    if (status == CLMEM_OK && a->format == CLMEM_FORMAT_TABLE)
        for (size_t i = 0; i < n; i++)
            if (all[i].has_peak)
                printf("rank %d on %s: %s, peaks: copy %.1f GB/s, FMA %.1f GFLOP/s\n", all[i].rank,
                       all[i].host.name, all[i].device.name, all[i].peak.bandwidth,
                       all[i].peak.flops);
    if (status == CLMEM_OK)
        status = clmem_report_write(stdout, a->format, results, n_results, NULL, err);
    clmem_results_free(results, n_results);
    return status;
}

/* bench under mpirun: every rank on its device, one report from rank 0. */
static int bench_mpi(const struct bench_args *a, const struct clmem_mpi *m)
{
    struct clmem_error err = {0}, run_err = {0};
    struct clmem_output output = {0};
    struct clmem_ctx ctx = {0};
    struct clmem_result *results = NULL;
    struct clmem_rank_report *all = NULL;
    struct clmem_peak peak = {0};
    size_t n_results = 0, steps;
    int status = CLMEM_OK, run_status = CLMEM_OK;
    /* Only rank 0 writes; where, is checked before any rank works. */
    if (m->rank == 0 && a->output)
        status = clmem_output_open(&output, a->output, &err);
    if ((status = clmem_mpi_agree(m, status, &err)))
        goto cleanup;
    cli_signals_temp(output.tmp_path);
    if ((status = cli_mpi_open_device(a->device, a->kernel_dir, &ctx, &err)))
        goto cleanup;
    ctx.no_cache = a->no_cache;
    struct clmem_bench_options options = {
        .reps = (unsigned)a->reps,
        .seed = a->seed,
        .compare = a->compare,
        .only = a->workloads,
        .progress = m->rank == 0 && isatty(STDERR_FILENO) ? show_progress : NULL,
        .cancelled = cli_interrupted,
    };
    status = clmem_bench_plan(&ctx, &options, &steps, &err);
    if ((status = clmem_mpi_agree(m, status, &err)))
        goto cleanup;
    cli_catch_interrupts();
    run_status = clmem_bench_run(&ctx, &options, &peak, &results, &n_results, &run_err);
    status = cli_mpi_gather(&ctx, n_results > 0, &peak, run_status, &run_err, results, n_results,
                            &all, &err);
    if (status == CLMEM_OK && m->rank == 0) {
        /* Each rank's failure is said here, once: err keeps rank 0's own. */
        run_status = cli_mpi_report_ranks(all, (size_t)m->size);
        status = write_ranks(a, &output, all, (size_t)m->size, run_status == CLMEM_ERR_INTERRUPTED,
                             &err);
        if (status == CLMEM_OK)
            status = run_status;
    }
    status = cli_mpi_final(status);

cleanup:
    cli_report_warnings(&ctx);
    status = cli_report_end(status, n_results, a->output, &err);
    clmem_output_abort(&output);
    clmem_rank_reports_free(all, all ? (size_t)m->size : 0);
    clmem_results_free(results, n_results);
    clmem_ctx_close(&ctx);
    clmem_error_clear(&err);
    clmem_error_clear(&run_err);
    return status;
}
#endif

int cmd_bench(int argc, char **argv)
{
    struct bench_args a = {.reps = 5, .seed = 42, .format = CLMEM_FORMAT_TABLE};
    struct clmem_error err = {0};
    struct clmem_output output = {0};
    struct clmem_ctx ctx = {0};
    struct clmem_result *results = NULL;
    size_t n_results = 0, steps;
    int help = 0, status;

    if ((status = cli_agree(parse_args(argc, argv, &a, &help, &err), &err)))
        return cli_report_error(&err);
    if (help) {
        if (!cli_silent)
            usage(stdout);
        return CLMEM_OK;
    }
#ifdef CLMEM_HAVE_MPI
    if (cli_mpi())
        return bench_mpi(&a, cli_mpi());
#endif
    if (a.output && (status = clmem_output_open(&output, a.output, &err)))
        return cli_report_error(&err);
    cli_signals_temp(output.tmp_path);
    if ((status = cli_open_device(a.device, a.kernel_dir, &ctx, &err)))
        goto cleanup;
    ctx.no_cache = a.no_cache;
    struct clmem_bench_options options = {
        .reps = (unsigned)a.reps,
        .seed = a.seed,
        .compare = a.compare,
        .only = a.workloads,
        .progress = isatty(STDERR_FILENO) ? show_progress : NULL,
        .cancelled = cli_interrupted,
    };
    if ((status = clmem_bench_plan(&ctx, &options, &steps, &err)))
        goto cleanup;
    /* From here a signal stops after the current variant. */
    cli_catch_interrupts();
    struct clmem_peak peak = {0};
    status = cli_stop_status(clmem_bench_run(&ctx, &options, &peak, &results, &n_results, &err));
    /* Interrupted, what finished is still reported (JSON: "interrupted"). */
    if (n_results == 0 && status != CLMEM_ERR_INTERRUPTED)
        goto cleanup;
    /* Whatever ran is reported, even when a workload failed. */
    for (size_t i = 0; i < n_results; i++)
        if (!results[i].skipped && !results[i].verified)
            fprintf(stderr, "clmem: %s %s at %s: verification failed: %s\n", results[i].workload,
                    results[i].variant, results[i].size, results[i].verify_detail);
    /* Stopped before the peaks were measured: none to report. */
    int have_peak = peak.bandwidth > 0 || peak.flops > 0;
    struct clmem_report_meta meta = {.device = &ctx.device,
                                     .peak = have_peak ? &peak : NULL,
                                     .interrupted = status == CLMEM_ERR_INTERRUPTED};
    int write_status = CLMEM_OK;
    /* The file first: it is what a long run is for, stdout may be closed. */
    if (output.file)
        write_status =
            clmem_output_report(&output, CLMEM_FORMAT_JSON, results, n_results, &meta, &err);
    if (write_status == CLMEM_OK)
        write_status = clmem_report_write(stdout, a.format, results, n_results, &meta, &err);
    if (write_status)
        status = write_status;

cleanup:
    cli_report_warnings(&ctx);
    status = cli_report_end(status, n_results, a.output, &err);
    clmem_output_abort(&output);
    clmem_results_free(results, n_results);
    clmem_ctx_close(&ctx);
    clmem_error_clear(&err);
    return status;
}
