/* clmem bench: the whole suite at benchmark sizes on one device, each
 * result beside the device's own measured peak; under mpirun, on a device
 * per rank, one report from rank 0 (the steps with the other ranks:
 * src/cli/mpi.c). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct cli_use bench_uses[] = {
    {.id = CLI_OPT_DEVICE, .flags = CLI_ONE_DEVICE_ALONE},
    {.id = CLI_OPT_WORKLOADS},
    {.id = CLI_OPT_REPS},
    {.id = CLI_OPT_SEED},
    {.id = CLI_OPT_FORMAT},
    {.id = CLI_OPT_OUTPUT},
    {.id = CLI_OPT_KERNEL_DIR},
    {.id = CLI_OPT_NO_CACHE},
    {.id = CLI_OPT_COMPARE},
    {.id = CLI_OPT_PROGRESS},
    {.id = CLI_OPT_QUIET},
};

const struct cli_spec cli_bench_spec = {
    .name = "bench",
    .synopsis = "[options]",
    .about = "Measures the device's peaks ('clmem peak'), then runs every workload's variants\n"
             "at its benchmark sizes (larger on GPUs than on CPUs; 'clmem list' shows the\n"
             "defaults), verifying each, and reports each result's fraction of the peak.\n"
             "A workload that fails does not stop the others. --format chooses what stdout\n"
             "shows; --output also writes the JSON report there (CSV when named FILE.csv).\n"
             "Without mpirun bench takes one device ('clmem compare' benches several).\n"
             "Under mpirun (clmem built with MPI), each rank runs on one device of its\n"
             "host, chosen by its rank there from --device (a device, a list or all;\n"
             "default: the host's GPUs), and rank 0 reports every rank's results (JSON: a\n"
             "section per rank).\n",
    .more = "Ctrl-C stops after the current variant and reports the results that finished\n"
            "(exit 130).\n"
            "exit codes: 0 ok, 1 a verification failed, 2 usage error or a file that\n"
            "cannot be written, 3 no device or OpenCL error, 128+N stopped by signal N\n"
            "(130: Ctrl-C)\n",
    .uses = bench_uses,
    .n_uses = CLMEM_ARRAY_SIZE(bench_uses),
    .min_args = 0,
    .max_args = 0,
};

static void show_progress(void *user, size_t step, size_t steps, const char *workload,
                          const char *size)
{
    (void)user;
    char what[200];
    snprintf(what, sizeof what, "%s %s", workload, size[0] ? size : "(the device's peaks)");
    cli_progress_step(step, steps, what);
}

static void report_failures(const struct clmem_result *results, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!results[i].skipped && !results[i].verified)
            fprintf(stderr, "clmem: %s %s at %s: verification failed: %s\n", results[i].workload,
                    results[i].variant, results[i].size, results[i].verify_detail);
}

/* The --output file: JSON (what compare and diff read), CSV when named
 * FILE.csv; --format chooses what stdout shows. */
static enum clmem_format bench_file_format(struct cli_opts *o)
{
    unsigned char given = o->given[CLI_OPT_FORMAT];
    o->given[CLI_OPT_FORMAT] = 0;
    enum clmem_format format = cli_output_format(o, CLMEM_FORMAT_JSON);
    o->given[CLI_OPT_FORMAT] = given;
    return format;
}

int cmd_bench(int argc, char **argv)
{
    struct cli_opts o;
    struct clmem_error err = {0};
    struct clmem_output output = {0};
    struct clmem_ctx ctx = {0};
    struct cli_gathered ranks = {0};
    struct clmem_result *results = NULL;
    size_t n_results = 0, steps;
    int status;

    if ((status = cli_start(&cli_bench_spec, argc, argv, &o, &err)) || o.help)
        return status;
    if ((status = cli_output_open(&output, o.output, &err)))
        goto cleanup;
    if ((status = cli_open(o.device, o.kernel_dir, &ctx, &err)))
        goto cleanup;
    ctx.no_cache = o.no_cache;
    struct clmem_bench_options options = {
        .reps = (unsigned)o.reps,
        .seed = o.seed,
        .compare = o.compare,
        .only = o.workloads,
        .progress = cli_reporter() && cli_progress_on() ? show_progress : NULL,
        .cancelled = cli_interrupted,
    };
    if ((status = cli_agree(clmem_bench_plan(&ctx, &options, &steps, &err), &err)))
        goto cleanup;
    /* From here a signal stops after the current variant. */
    cli_catch_interrupts();
    struct clmem_peak peak = {0};
    status = cli_stop_status(clmem_bench_run(&ctx, &options, &peak, &results, &n_results, &err));
    /* Stopped before the peaks were measured: none to report. */
    int have_peak = peak.bandwidth > 0 || peak.flops > 0;
    /* Under mpirun rank 0 gets every rank's run and names each rank's
     * failures; alone, they are said here. */
    status =
        cli_gather(&ctx.device, n_results ? &peak : NULL, status, results, n_results, &ranks, &err);
    if (!cli_under_mpi())
        report_failures(results, n_results);
    int interrupted = status == CLMEM_ERR_INTERRUPTED;
    /* Whatever ran is reported, even when a workload failed (interrupted,
     * what finished: JSON says "interrupted"); under mpirun, every rank's. */
    int have_report = cli_under_mpi() ? ranks.n > 0 : n_results > 0 || interrupted;
    if (cli_reporter() && have_report) {
        int write_status = CLMEM_OK;
        if (ranks.n) {
            write_status = cli_gathered_write(&ranks, o.format, &output, interrupted, &err);
        } else {
            struct clmem_report_meta meta = {.device = &ctx.device,
                                             .peak = have_peak ? &peak : NULL,
                                             .interrupted = interrupted};
            /* The file first: it is what a long run is for, stdout may be closed. */
            if (output.file)
                write_status = clmem_output_report(&output, bench_file_format(&o), results,
                                                   n_results, &meta, &err);
            if (write_status == CLMEM_OK)
                write_status =
                    clmem_report_write(stdout, o.format, results, n_results, &meta, &err);
        }
        if (write_status)
            status = write_status;
    }

cleanup:
    return cli_end(status, o.output, &output, &ctx, &ranks, results, n_results, &err);
}
