/* clmem run under mpirun: every rank runs the workload on its device and
 * rank 0 reports them all with their total; with --summa, matmul
 * distributed over the ranks (SUMMA, src/mpi/summa.c). */
#include "run.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Each rank runs the workload on its device; rank 0 gets every rank's
 * results (in *all) and, in *results, them and their totals. */
static int run_each_rank(const struct run_args *a, const struct clmem_workload *w,
                         struct clmem_ctx *ctx, struct clmem_rank_report **all,
                         struct clmem_result **results, size_t *n_results, struct clmem_error *err)
{
    const struct clmem_mpi *m = cli_mpi();
    struct clmem_run run = {0};
    struct clmem_error run_err = {0};
    struct clmem_result *mine = NULL;
    size_t n_mine = 0;
    struct clmem_run_options options = run_options(a);
    int status = clmem_mpi_agree(m, clmem_run_plan(&run, w, ctx, &options, err), err);
    if (status == CLMEM_OK) {
        int run_status = clmem_run_execute(&run, &options, &mine, &n_mine, &run_err);
        status = cli_mpi_gather(ctx, 0, NULL, run_status, &run_err, mine, n_mine, all, err);
        if (status == CLMEM_OK && m->rank == 0) {
            run_status = cli_mpi_report_ranks(*all, (size_t)m->size);
            status = cli_mpi_combine(*all, (size_t)m->size, 1, results, n_results, err);
            if (status == CLMEM_OK)
                status = run_status;
        }
    }
    clmem_run_release(&run);
    clmem_results_free(mine, n_mine);
    clmem_error_clear(&run_err);
    return status;
}

/* SUMMA: the ranks multiply together; rank 0 gets the one result. */
static int run_summa(const struct run_args *a, struct clmem_ctx *ctx, struct clmem_result **results,
                     size_t *n_results, struct clmem_error *err)
{
    struct clmem_summa_options so = {.variant = a->variant,
                                     .size = a->size,
                                     .panel = (size_t)a->panel,
                                     .reps = (unsigned)a->reps,
                                     .warmup = (unsigned)a->warmup,
                                     .seed = a->seed,
                                     .grid_rows = (int)a->summa_rows,
                                     .grid_cols = (int)a->summa_cols,
                                     .no_overlap = a->no_overlap};
    int status = clmem_summa(cli_mpi(), ctx, &so, results, n_results, err);
    if (status == CLMEM_ERR_VERIFY && cli_mpi()->rank == 0)
        for (size_t i = 0; i < *n_results; i++)
            if (!(*results)[i].verified)
                fprintf(stderr, "clmem: %s %s (%s): verification failed: %s\n",
                        (*results)[i].workload, (*results)[i].variant, (*results)[i].device,
                        (*results)[i].verify_detail);
    /* A usage error is the same on every rank; an OpenCL one may be a
     * single rank's. */
    return clmem_mpi_agree(cli_mpi(), status, err);
}

int run_mpi(const struct run_args *a, const struct clmem_workload *w)
{
    const struct clmem_mpi *m = cli_mpi();
    struct clmem_error err = {0};
    struct clmem_output output = {0};
    struct clmem_ctx ctx = {0};
    struct clmem_rank_report *all = NULL;
    struct clmem_result *results = NULL;
    size_t n_results = 0;
    int status = CLMEM_OK;
    /* Only rank 0 writes; where, is checked before any rank works. */
    if (m->rank == 0 && a->output)
        status = clmem_output_open(&output, a->output, &err);
    if ((status = clmem_mpi_agree(m, status, &err)))
        goto cleanup;
    cli_signals_temp(output.tmp_path);
    if ((status = cli_mpi_open_device(a->device, a->kernel_dir, &ctx, &err)))
        goto cleanup;
    ctx.no_cache = a->no_cache;
    cli_catch_interrupts();
    status = a->summa ? run_summa(a, &ctx, &results, &n_results, &err)
                      : run_each_rank(a, w, &ctx, &all, &results, &n_results, &err);
    if (m->rank == 0 &&
        (status == CLMEM_OK || status == CLMEM_ERR_VERIFY || status == CLMEM_ERR_INTERRUPTED)) {
        struct clmem_report_meta meta = {.interrupted = status == CLMEM_ERR_INTERRUPTED};
        /* Each rank's failure was said; err now only keeps a write's. */
        clmem_error_clear(&err);
        int write_status =
            output.file ? clmem_output_report(&output, a->format, results, n_results, &meta, &err)
                        : clmem_report_write(stdout, a->format, results, n_results, &meta, &err);
        if (write_status)
            status = write_status;
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
    return status;
}
