/* The ranks of an MPI job as the commands' flow (flow.c) sees them: MPI
 * started for a command, each rank's device, agreeing on a status,
 * gathering what the ranks ran for rank 0's report, the exit status for
 * all. MPI itself is behind src/mpi/job.h, built with or without it; here
 * a process alone (no job started: without mpirun, or without MPI) does
 * what one process does. Only the flow calls the collectives. Ranks other
 * than 0 print no errors: rank 0 says each once, for all. */
#include "ranks.h"

#include "common.h"
#include "driver.h"

#include <stdlib.h>
#include <string.h>

/* The job this process is a rank of, from cli_mpi_start to cli_mpi_stop;
 * NULL alone. */
static struct clmem_mpi *job;

int cli_mpi_start(const char *command, int *argc, char ***argv)
{
    if (!clmem_mpi_built())
        return cli_usage_error(
            NULL,
            "this clmem was built without MPI: for 'mpirun ... clmem %s' build it "
            "with 'meson configure build -Dmpi=enabled' (docs/usage.md, \"Many hosts: "
            "MPI\")",
            command);
    struct clmem_error err = {0};
    if (clmem_mpi_start(argc, argv, &job, &err))
        return cli_report_error(&err);
    cli_silent = clmem_mpi_rank(job) != 0;
    return CLMEM_OK;
}

void cli_mpi_stop(void)
{
    clmem_mpi_stop(job);
    job = NULL;
}

int ranks_joined(void)
{
    return job != NULL;
}

int ranks_is_reporter(void)
{
    return !job || clmem_mpi_rank(job) == 0;
}

int ranks_agree_status(int status, struct clmem_error *err)
{
    return job ? clmem_mpi_agree(job, status, err) : status;
}

/* With --device left out each rank asks for its host's GPUs and takes any
 * device where it finds none: most often a CPU because the OpenCL drivers
 * the shell sees did not reach the ranks (Open MPI's mpirun has passed
 * OCL_ICD_FILENAMES cut at its first ':'). Collective: rank 0 says so once
 * for all, naming the first such rank's host, device and variable. */
static void say_no_gpu(int no_gpu, const struct clmem_device *device)
{
    int first, count = clmem_mpi_count(job, no_gpu, &first);
    if (count == 0)
        return;
    struct {
        char host[256];
        char device[sizeof device->name];
        char icd[256]; /* what OCL_ICD_FILENAMES is there, quoted, or "unset" */
    } what;
    memset(&what, 0, sizeof what);
    if (clmem_mpi_rank(job) == first) {
        const char *icd = getenv("OCL_ICD_FILENAMES");
        snprintf(what.host, sizeof what.host, "%s", clmem_mpi_host(job));
        snprintf(what.device, sizeof what.device, "%s", device->name);
        if (icd)
            snprintf(what.icd, sizeof what.icd, "'%.200s'", icd);
        else
            snprintf(what.icd, sizeof what.icd, "unset");
    }
    clmem_mpi_broadcast(job, &what, sizeof what, first);
    if (clmem_mpi_rank(job) == 0)
        fprintf(stderr,
                "clmem: warning: no GPU found on %s (%d of %d ranks): running on '%s' instead; "
                "the ranks may not see the OpenCL drivers this shell sees (rank %d's "
                "OCL_ICD_FILENAMES is %s; Open MPI passes it cut at its first ':'): pass them "
                "explicitly, 'mpirun ... env OCL_ICD_FILENAMES=$OCL_ICD_FILENAMES "
                "OCL_ICD_VENDORS=$OCL_ICD_VENDORS clmem ...', or name the device (--device cpu)\n",
                what.host, count, clmem_mpi_size(job), what.device, first, what.icd);
}

/* This rank's device among its host's: the devices `d` names (not given:
 * the host's GPUs, else every device), the rank taking the one its rank
 * on the host gives, modulo their number, so that ranks share devices
 * when there are more ranks than devices. */
static int open_rank_device(const struct cli_devices *d, const struct cli_open *how,
                            struct clmem_ctx *ctx, int *no_gpu, struct clmem_error *err)
{
    struct cli_chosen c;
    int status = cli_devices_pick(d, CLI_CHOOSE_GPUS, CLI_DRIVER_ADDRESS_SPACE_MIB, &c, err);
    if (status == CLMEM_OK) {
        size_t mine = (size_t)clmem_mpi_local_rank(job);
        *no_gpu = !d->text && !(cli_chosen_device(&c, mine)->type & CL_DEVICE_TYPE_GPU);
        status = cli_device_open(&c, mine, how, ctx, err);
    }
    cli_chosen_free(&c);
    return status;
}

int ranks_open_device(const struct cli_devices *d, const struct cli_open *how,
                      struct clmem_ctx *ctx, struct clmem_error *err)
{
    if (!job)
        return cli_open_device(d, how, ctx, err);
    int no_gpu = 0;
    int status = clmem_mpi_agree(job, open_rank_device(d, how, ctx, &no_gpu, err), err);
    if (status == CLMEM_OK)
        say_no_gpu(no_gpu, &ctx->device);
    return status;
}

/* "rank R on HOST: DEVICE", a rank's name in reports; short enough for a
 * result's device field (128 bytes). */
static void rank_label(const struct clmem_rank_report *r, char *out, size_t size)
{
    snprintf(out, size, "rank %d on %.32s: %.64s", r->rank, r->host.name, r->device.name);
}

/* Says each rank's failed checks and error; returns the worst status. */
static int say_rank_failures(const struct clmem_rank_report *all, size_t n)
{
    int worst = CLMEM_OK;
    for (size_t i = 0; i < n; i++) {
        const struct clmem_rank_report *r = &all[i];
        /* A FAILED result an error stopped: the rank's error, said below. */
        for (size_t j = 0; j < r->n_results; j++)
            if (!r->results[j].skipped && !r->results[j].verified && !r->results[j].error[0])
                fprintf(stderr, "clmem: rank %d on %s: %s %s at %s: verification failed: %s\n",
                        r->rank, r->host.name, r->results[j].workload, r->results[j].variant,
                        r->results[j].size, r->results[j].verify_detail);
        if (r->error[0])
            fprintf(stderr, "clmem: rank %d on %s: %s\n", r->rank, r->host.name, r->error);
        worst = clmem_status_worst(worst, r->status);
    }
    return worst;
}

int ranks_gather_runs(const struct clmem_device *device, const struct clmem_peak *peak, int status,
                      const struct clmem_result *results, size_t n_results, struct cli_rank_runs *g,
                      struct clmem_error *err)
{
    g->all = NULL;
    g->n = 0;
    if (!job)
        return status;
    struct clmem_rank_report mine = {.rank = clmem_mpi_rank(job),
                                     .device = *device,
                                     .has_peak = peak != NULL,
                                     .status = status,
                                     .results = (struct clmem_result *)results,
                                     .n_results = n_results};
    clmem_host_describe(&mine.host);
    /* MPI's name for the host, as every "rank R on HOST" message gives it. */
    snprintf(mine.host.name, sizeof mine.host.name, "%.255s", clmem_mpi_host(job));
    if (peak)
        mine.peak = *peak;
    if (status != CLMEM_OK && status != CLMEM_ERR_VERIFY)
        snprintf(mine.error, sizeof mine.error, "%s", err->message);
    /* Said by rank 0 with the rank's name: err keeps the gather's own. */
    clmem_error_clear(err);
    int gathered = clmem_mpi_gather(job, &mine, &g->all, err);
    if (gathered != CLMEM_OK || clmem_mpi_rank(job) != 0)
        return gathered;
    g->n = (size_t)clmem_mpi_size(job);
    return say_rank_failures(g->all, g->n);
}

int cli_rank_runs_results(const struct cli_rank_runs *g, int totals, struct clmem_result **results,
                          size_t *n_results, struct clmem_error *err)
{
    if (g->n == 0)
        return CLMEM_OK;
    size_t count = 0, n = 0, first[CLI_MPI_MAX_TOTALS], each[CLI_MPI_MAX_TOTALS];
    for (size_t i = 0; i < g->n; i++)
        count += g->all[i].n_results;
    struct clmem_result *all = clmem_alloc_array(count ? count : 1, sizeof *all, err);
    if (!all)
        return err->status;
    int status = CLMEM_OK;
    for (size_t i = 0; i < g->n && status == CLMEM_OK; i++) {
        if (i < CLI_MPI_MAX_TOTALS) {
            first[i] = n;
            each[i] = g->all[i].n_results;
        }
        for (size_t j = 0; j < g->all[i].n_results; j++) {
            const struct clmem_result *from = &g->all[i].results[j];
            struct clmem_result *r = &all[n];
            *r = *from;
            r->samples_ms = NULL;
            if (from->n_samples &&
                !(r->samples_ms = clmem_alloc_array(from->n_samples, sizeof(double), err))) {
                status = err->status;
                break;
            }
            if (from->n_samples)
                memcpy(r->samples_ms, from->samples_ms, from->n_samples * sizeof(double));
            n++;
            rank_label(&g->all[i], r->device, sizeof r->device);
        }
    }
    if (status == CLMEM_OK && totals && g->n > 1 && g->n <= CLI_MPI_MAX_TOTALS)
        status = clmem_results_total(&all, &n, first, each, g->n, err);
    clmem_results_free(*results, *n_results);
    *results = all;
    *n_results = n;
    return status;
}

int cli_rank_runs_write(const struct cli_rank_runs *g, enum clmem_format format,
                        struct clmem_output *output, int interrupted, struct clmem_error *err)
{
    int status = CLMEM_OK;
    if (output->file)
        status = clmem_output_end(
            output, clmem_report_json_ranks(output->file, g->all, g->n, interrupted, err), err);
    if (status)
        return status;
    if (format == CLMEM_FORMAT_JSON)
        return clmem_report_json_ranks(stdout, g->all, g->n, interrupted, err);
    struct clmem_result *results = NULL;
    size_t n_results = 0;
    status = cli_rank_runs_results(g, 0, &results, &n_results, err);
    if (status == CLMEM_OK && format == CLMEM_FORMAT_TABLE)
        for (size_t i = 0; i < g->n; i++)
            if (g->all[i].has_peak)
                printf("rank %d on %s: %s, peaks: copy %.1f GB/s, FMA %.1f GFLOP/s\n",
                       g->all[i].rank, g->all[i].host.name, g->all[i].device.name,
                       g->all[i].peak.bandwidth, g->all[i].peak.flops);
    if (status == CLMEM_OK)
        status = clmem_report_write(stdout, format, results, n_results, NULL, err);
    clmem_results_free(results, n_results);
    return status;
}

int cli_rank_runs_devices(const struct cli_rank_runs *g, struct clmem_compare_device **runs,
                          size_t *n_runs, struct clmem_error *err)
{
    *runs = NULL;
    *n_runs = 0;
    if (g->n == 0)
        return CLMEM_OK;
    if (!(*runs = calloc(g->n, sizeof **runs)))
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    /* The report's columns: one per rank, named by rank and host. */
    for (size_t i = 0; i < g->n; i++) {
        struct clmem_compare_device *run = &(*runs)[i];
        run->device = g->all[i].device;
        run->rank = g->all[i].rank;
        run->host_info = g->all[i].host;
        snprintf(run->host, sizeof run->host, "%s", g->all[i].host.name);
        run->peak = g->all[i].peak;
        run->results = g->all[i].results;
        run->n_results = g->all[i].n_results;
    }
    *n_runs = g->n;
    return CLMEM_OK;
}

void cli_rank_runs_free(struct cli_rank_runs *g)
{
    clmem_rank_reports_free(g->all, g->n);
    g->all = NULL;
    g->n = 0;
}

int ranks_exit_status(int status)
{
    if (job)
        clmem_mpi_broadcast(job, &status, sizeof status, 0);
    return status;
}

int ranks_summa(const struct cli_opts *o, struct clmem_ctx *ctx, struct clmem_result **results,
                size_t *n_results, struct clmem_error *err)
{
    if (!job)
        return clmem_fail(err, CLMEM_ERR_USAGE, "--summa runs under mpirun");
    struct clmem_summa_options so = {.variant = o->variant,
                                     .size = o->size,
                                     .panel = (size_t)o->panel,
                                     .reps = (unsigned)o->reps,
                                     .warmup = (unsigned)o->warmup,
                                     .seed = o->seed,
                                     .grid_rows = (int)o->summa.rows,
                                     .grid_cols = (int)o->summa.cols,
                                     .no_overlap = o->no_overlap};
    int status = clmem_summa(job, ctx, &so, results, n_results, err);
    if (status == CLMEM_ERR_VERIFY && clmem_mpi_rank(job) == 0)
        for (size_t i = 0; i < *n_results; i++)
            if (!(*results)[i].verified)
                fprintf(stderr, "clmem: %s %s (%s): verification failed: %s\n",
                        (*results)[i].workload, (*results)[i].variant, (*results)[i].device,
                        (*results)[i].verify_detail);
    /* A usage error is the same on every rank; an OpenCL one may be a
     * single rank's. */
    return clmem_mpi_agree(job, status, err);
}
