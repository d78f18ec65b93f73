/* A SUMMA rank's set-up (summa_internal.h): its block planned on its device, its
 * host blocks, panels and queues, the accumulation kernel, then the inputs
 * dealt out and shared; and its release, whatever was made. */
#include "mpi/summa_internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The rank's block and its matmul run of rows x cols x panel, planned on
 * its device (a textbook kernel may refuse the block's size there). */
static int plan_rank(const struct clmem_mpi *m, struct clmem_ctx *ctx,
                     const struct clmem_summa_options *o, const struct summa_plan *p,
                     struct summa_rank *me, struct clmem_error *err)
{
    me->grid_row = m->rank / p->grid_cols;
    me->grid_col = m->rank % p->grid_cols;
    me->rows = p->p_rows[me->grid_row].count;
    me->cols = p->p_cols[me->grid_col].count;
    me->m_k = p->m_inner[me->grid_col];
    me->n_k = p->n_inner[me->grid_row];
    char block[96];
    snprintf(block, sizeof block, "%zux%zux%zu", me->rows, me->cols, p->panel);
    struct clmem_run_options ro = {.size = block, .variant = p->variant->name, .seed = o->seed};
    int status = clmem_run_plan(&me->run, &clmem_workload_matmul, ctx, &ro, err);
    if (status) {
        char why[sizeof err->message];
        snprintf(why, sizeof why, "%s", err->message);
        clmem_fail(err, status, "SUMMA block %s of rank %d on '%s': %s", block, m->rank,
                   ctx->device.name, why);
    }
    return status;
}

/* The accumulation kernel (cl/summa.cl), and the rank's block of P. */
static int build_accumulate(struct clmem_ctx *ctx, struct summa_rank *me, struct clmem_error *err)
{
    int status;
    if ((status = clmem_buffer_create(ctx, CL_MEM_READ_WRITE, me->rows * me->cols * sizeof(float),
                                      NULL, &me->dP, err)) ||
        (status = clmem_program_build(ctx, "summa.cl", "", &me->program, err)) ||
        (status = clmem_kernel_create(me->program, "summa.cl", "accumulate", &me->accumulate, err)))
        return status;
    /* NaN until the first piece stores: an element never written fails the check. */
    return clmem_buffer_poison(ctx, me->dP, me->rows * me->cols * sizeof(float), err);
}

/* Host blocks, panels and samples; the matmul run set up on the borrowed
 * panels; the accumulation kernel. Rank 0 also makes the whole problem. */
static int setup_rank(const struct clmem_mpi *m, struct clmem_ctx *ctx,
                      const struct clmem_summa_options *o, struct summa_plan *p,
                      struct summa_rank *me, struct clmem_error *err)
{
    int status;
    size_t m_bytes = me->rows * p->panel * sizeof(float),
           n_bytes = p->panel * me->cols * sizeof(float);
    size_t m_elems = me->rows * me->m_k.count, n_elems = me->n_k.count * me->cols;
    if ((status = clmem_pinned_alloc(ctx, m_elems * sizeof(float), &me->m_block, err)) ||
        (status = clmem_pinned_alloc(ctx, n_elems * sizeof(float), &me->n_block, err)))
        return status;
    me->M = me->m_block.host;
    me->N = me->n_block.host;
    if (!(me->P = clmem_alloc_array(me->rows * me->cols, sizeof(float), err)) ||
        !(me->kernels = clmem_alloc_array(p->n_pieces, sizeof *me->kernels, err)) ||
        !(me->ups = clmem_alloc_array(2 * p->n_pieces, sizeof *me->ups, err)))
        return err->status;
    for (int i = 0; i < SLOTS; i++) {
        if ((status = clmem_pinned_alloc(ctx, m_bytes, &me->m_pinned[i], err)) ||
            (status = clmem_pinned_alloc(ctx, n_bytes, &me->n_pinned[i], err)))
            return status;
        me->m_panel[i] = me->m_pinned[i].host;
        me->n_panel[i] = me->n_pinned[i].host;
    }
    memset(me->kernels, 0, p->n_pieces * sizeof *me->kernels);
    memset(me->ups, 0, 2 * p->n_pieces * sizeof *me->ups);
    if (!(me->m_from = clmem_alloc_array((size_t)p->grid_cols, sizeof *me->m_from, err)) ||
        !(me->n_from = clmem_alloc_array((size_t)p->grid_rows, sizeof *me->n_from, err)))
        return err->status;
    if (m->rank == 0 &&
        (!(me->all = clmem_alloc_array((size_t)m->size, sizeof *me->all, err)) ||
         !(me->shared_all = clmem_alloc_array(3 * (size_t)m->size, sizeof(int), err))))
        return err->status;
    /* Threads to copy pieces from shared memory: the host's cores shared
     * among its ranks, at least two. */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    me->copy_threads = cores > 0 ? (size_t)cores / (size_t)m->local_size : 1;
    me->copy_threads = me->copy_threads < 2                  ? 2
                       : me->copy_threads > MAX_COPY_THREADS ? MAX_COPY_THREADS
                                                             : me->copy_threads;
    /* Each piece fills the panels whole; zeros until then (setup copies them). */
    for (int i = 0; i < SLOTS; i++) {
        memset(me->m_panel[i], 0, m_bytes);
        memset(me->n_panel[i], 0, n_bytes);
    }
    if (m->rank == 0 && (status = matmul_problem_make(&p->whole, o->seed, err)))
        return status;
    /* The run's inputs are the panels, written anew for each piece; its P
     * takes each product, which the accumulation kernel reads. */
    if ((status =
             matmul_block_setup(&me->run, me->m_panel[0], me->n_panel[0], CL_MEM_READ_WRITE, err)))
        return status;
    matmul_block_buffers(&me->run, &me->dM[0], &me->dN[0], &me->product);
    for (int i = 1; i < SLOTS; i++)
        if ((status = clmem_buffer_create(ctx, CL_MEM_READ_ONLY, m_bytes, me->m_panel[i],
                                          &me->dM[i], err)) ||
            (status = clmem_buffer_create(ctx, CL_MEM_READ_ONLY, n_bytes, me->n_panel[i],
                                          &me->dN[i], err)))
            return status;
    if ((status = clmem_queue_open(ctx, &me->up, err)))
        return status;
    return build_accumulate(ctx, me, err);
}

/* Everything the rank made, and on rank 0 the whole problem. */
void summa_release(struct summa_plan *p, struct summa_rank *me)
{
    for (int i = 0; i < SLOTS && me->run.ctx; i++) {
        clmem_pinned_free(me->run.ctx, &me->m_pinned[i]);
        clmem_pinned_free(me->run.ctx, &me->n_pinned[i]);
    }
    if (me->run.ctx) {
        clmem_pinned_free(me->run.ctx, &me->m_block);
        clmem_pinned_free(me->run.ctx, &me->n_block);
    }
    clmem_run_release(&me->run);
    clmem_release_kernel(&me->accumulate);
    clmem_release_program(&me->program);
    clmem_release_mem(&me->dP);
    for (int i = 1; i < SLOTS; i++) {
        clmem_release_mem(&me->dM[i]);
        clmem_release_mem(&me->dN[i]);
    }
    for (int i = 0; i < SLOTS; i++) {
        clmem_event_release(&me->uploaded[i]);
        clmem_event_release(&me->multiplied[i]);
    }
    clmem_release_queue(&me->up);
    summa_unpin_window(p, me);
    if (me->window != MPI_WIN_NULL) {
        MPI_Win_unlock_all(me->window);
        MPI_Win_free(&me->window);
    }
    free(me->m_from);
    free(me->n_from);
    free(me->shared_all);
    if (me->row_comm != MPI_COMM_NULL)
        MPI_Comm_free(&me->row_comm);
    if (me->col_comm != MPI_COMM_NULL)
        MPI_Comm_free(&me->col_comm);
    free(me->P);
    if (me->kernels)
        for (size_t i = 0; i < p->n_pieces; i++)
            clmem_timing_release(&me->kernels[i]);
    free(me->kernels);
    if (me->ups)
        for (size_t i = 0; i < 2 * p->n_pieces; i++)
            clmem_event_release(&me->ups[i]);
    free(me->ups);
    free(me->all);
    matmul_problem_free(&p->whole);
    free(p->p_rows);
    free(p->p_cols);
    free(p->m_inner);
    free(p->n_inner);
    free(p->pieces);
}

/* Everything up to the first multiplication, on every rank alike: each
 * step's failure is agreed on (clmem_mpi_agree) before the next collective
 * one. The block's plan comes first, so that a size the device or the
 * kernel refuses is a usage error before any work. */
int summa_prepare(const struct clmem_mpi *m, struct clmem_ctx *ctx,
                  const struct clmem_summa_options *o, struct summa_plan *p, struct summa_rank *me,
                  unsigned reps, double **samples, struct clmem_error *err)
{
    int status = summa_cut_problem(p, err);
    if (!status)
        status = plan_rank(m, ctx, o, p, me, err);
    if ((status = clmem_mpi_agree(m, status, err)))
        return status;
    MPI_Comm_split(m->world, me->grid_row, me->grid_col, &me->row_comm);
    MPI_Comm_split(m->world, me->grid_col, me->grid_row, &me->col_comm);
    if (!status && !(*samples = clmem_alloc_array(reps, sizeof **samples, err)))
        status = err->status;
    /* The ranks of a host mostly build the same programs (same device
     * model, same options): the host's first rank builds them into the
     * program cache before the others set up and load them from there,
     * rather than all compiling at once. */
    int in_turn = !ctx->no_cache && m->local_size > 1;
    if (in_turn && m->local_rank > 0)
        MPI_Barrier(m->local);
    if (!status)
        status = setup_rank(m, ctx, o, p, me, err);
    if (!status && !ctx->clock.checked)
        status = clmem_clock_check(ctx, err);
    me->events_ok = ctx->clock.checked && ctx->clock.events_ok;
    if (in_turn && m->local_rank == 0)
        MPI_Barrier(m->local);
    if ((status = clmem_mpi_agree(m, status, err)))
        return status;
    summa_scatter_inputs(m, p, me);
    summa_share_blocks(m, p, me);
    summa_pin_window(ctx, p, me);
    return CLMEM_OK;
}
