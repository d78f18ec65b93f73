/* The commands under mpirun (an MPI build): starting MPI, each rank's
 * device, gathering what the ranks ran for rank 0's report. Ranks other
 * than 0 print no errors: rank 0 says each once, for all. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static struct clmem_mpi mpi_state;
static int mpi_active;

int cli_mpi_start(int *argc, char ***argv)
{
    struct clmem_error err = {0};
    if (clmem_mpi_init(argc, argv, &mpi_state, &err))
        return cli_report_error(&err);
    mpi_active = 1;
    cli_silent = mpi_state.rank != 0;
    return CLMEM_OK;
}

void cli_mpi_stop(void)
{
    if (mpi_active)
        clmem_mpi_finalize(&mpi_state);
    mpi_active = 0;
}

const struct clmem_mpi *cli_mpi(void)
{
    return mpi_active ? &mpi_state : NULL;
}

int cli_mpi_open_device(const char *spec, const char *kernel_dir, struct clmem_ctx *ctx,
                        struct clmem_error *err)
{
    const struct clmem_mpi *m = cli_mpi();
    struct clmem_device *devices = NULL;
    size_t count = 0, chosen = 0;
    int status = clmem_devices_parse_spec(spec && strchr(spec, ',') ? NULL : spec, err);
    if (status == CLMEM_OK)
        status = cli_devices_list(&devices, &count, CLI_DRIVER_ADDRESS_SPACE_MIB, err);
    if (status == CLMEM_OK)
        status = clmem_mpi_pick_device(m, spec, devices, count, &chosen, err);
    if (status == CLMEM_OK)
        status = cli_ctx_open(ctx, &devices[chosen], kernel_dir, err);
    free(devices);
    return clmem_mpi_agree(m, status, err);
}

int cli_mpi_gather(const struct clmem_ctx *ctx, int has_peak, const struct clmem_peak *peak,
                   int status, const struct clmem_error *run_err, struct clmem_result *results,
                   size_t n_results, struct clmem_rank_report **all, struct clmem_error *err)
{
    const struct clmem_mpi *m = cli_mpi();
    struct clmem_rank_report mine = {.rank = m->rank,
                                     .device = ctx->device,
                                     .has_peak = has_peak,
                                     .status = status,
                                     .results = results,
                                     .n_results = n_results};
    clmem_host_describe(&mine.host);
    /* MPI's name for the host, as every "rank R on HOST" message gives it. */
    snprintf(mine.host.name, sizeof mine.host.name, "%.255s", m->host);
    if (has_peak)
        mine.peak = *peak;
    if (status != CLMEM_OK && status != CLMEM_ERR_VERIFY)
        snprintf(mine.error, sizeof mine.error, "%s", run_err->message);
    return clmem_mpi_gather(m, &mine, all, err);
}

void cli_mpi_label(const struct clmem_rank_report *r, char *out, size_t size)
{
    /* Short enough for a result's device field (128 bytes). */
    snprintf(out, size, "rank %d on %.32s: %.64s", r->rank, r->host.name, r->device.name);
}

int cli_mpi_combine(const struct clmem_rank_report *all, size_t n, int totals,
                    struct clmem_result **results, size_t *n_results, struct clmem_error *err)
{
    size_t count = 0, first[CLI_MPI_MAX_TOTALS], each[CLI_MPI_MAX_TOTALS];
    for (size_t i = 0; i < n; i++)
        count += all[i].n_results;
    *n_results = 0;
    if (!(*results = clmem_alloc_array(count ? count : 1, sizeof **results, err)))
        return err->status;
    for (size_t i = 0; i < n; i++) {
        if (i < CLI_MPI_MAX_TOTALS) {
            first[i] = *n_results;
            each[i] = all[i].n_results;
        }
        for (size_t j = 0; j < all[i].n_results; j++) {
            const struct clmem_result *from = &all[i].results[j];
            struct clmem_result *r = &(*results)[*n_results];
            *r = *from;
            r->samples_ms = NULL;
            if (from->n_samples &&
                !(r->samples_ms = clmem_alloc_array(from->n_samples, sizeof(double), err)))
                return err->status;
            if (from->n_samples)
                memcpy(r->samples_ms, from->samples_ms, from->n_samples * sizeof(double));
            (*n_results)++;
            cli_mpi_label(&all[i], r->device, sizeof r->device);
        }
    }
    if (totals && n > 1 && n <= CLI_MPI_MAX_TOTALS)
        return clmem_results_total(results, n_results, first, each, n, err);
    return CLMEM_OK;
}

int cli_mpi_report_ranks(const struct clmem_rank_report *all, size_t n)
{
    int worst = CLMEM_OK;
    for (size_t i = 0; i < n; i++) {
        const struct clmem_rank_report *r = &all[i];
        for (size_t j = 0; j < r->n_results; j++)
            if (!r->results[j].skipped && !r->results[j].verified)
                fprintf(stderr, "clmem: rank %d on %s: %s %s at %s: verification failed: %s\n",
                        r->rank, r->host.name, r->results[j].workload, r->results[j].variant,
                        r->results[j].size, r->results[j].verify_detail);
        if (r->error[0])
            fprintf(stderr, "clmem: rank %d on %s: %s\n", r->rank, r->host.name, r->error);
        worst = clmem_status_worst(worst, r->status);
    }
    return worst;
}

int cli_mpi_final(int status)
{
    MPI_Bcast(&status, 1, MPI_INT, 0, cli_mpi()->world);
    return status;
}
