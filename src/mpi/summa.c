/* SUMMA (van de Geijn & Watts, "SUMMA: scalable universal matrix
 * multiplication algorithm", 1997): P = M x N over a grid of MPI ranks, a
 * device each (clmem_summa, src/mpi/job.h). Each rank owns a block of
 * P, of M and of N. For each piece of the inner dimension the owner of M's
 * piece broadcasts it along its grid row and the owner of N's along its grid
 * column; every rank multiplies the two on its device with one of matmul's
 * kernels (an ordinary matmul run whose inputs are borrowed, as
 * matmul_split.c does) and adds the product into its block of P there.
 * Pipelined: while the device multiplies piece i, the next pieces are
 * exchanged and copied up (a queue of its own, into other device panels).
 * Where a grid row's ranks share a host, M's pieces are not broadcast:
 * each rank copies them up from the owner's block in shared memory
 * (MPI_Win_allocate_shared), pinned for the device where the driver pins
 * memory it did not allocate (pin_window), else copied on the host into
 * pinned panels first, with a few threads; likewise N's along a grid
 * column. Elsewhere they are broadcast (MPI_Ibcast). The pieces take their
 * owners in turn, so that no rank receives a long run of them. */
#include "mpi/summa_internal.h"

#include <stdlib.h>
#include <string.h>

static void add_times(struct summa_times *sum, const struct summa_times *t)
{
    double *to = (double *)sum;
    const double *from = (const double *)t;
    for (size_t i = 0; i < N_TIMES; i++)
        to[i] += from[i];
}

/* Warm-up runs, then `reps` timed ones: each from a barrier to the last
 * rank's end (the slowest rank's host wall time), in ms; each rank's own
 * times summed in me->sum. */
static int measure(const struct clmem_mpi *m, const struct summa_plan *p, struct summa_rank *me,
                   const struct clmem_summa_options *o, unsigned reps, double *samples,
                   struct clmem_error *err)
{
    for (unsigned i = 0; i < o->warmup + reps; i++) {
        struct summa_times t;
        double slowest_s;
        MPI_Barrier(m->world);
        double t0 = MPI_Wtime();
        int status = summa_multiply(p, me, o->no_overlap, &t, err);
        t.wall = MPI_Wtime() - t0;
        MPI_Allreduce(&t.wall, &slowest_s, 1, MPI_DOUBLE, MPI_MAX, m->world);
        if ((status = clmem_mpi_agree(m, status, err)))
            return status;
        if (i >= o->warmup) {
            samples[i - o->warmup] = slowest_s * 1e3;
            add_times(&me->sum, &t);
        }
    }
    return CLMEM_OK;
}

int clmem_summa(const struct clmem_mpi *m, struct clmem_ctx *ctx,
                const struct clmem_summa_options *o, struct clmem_result **results,
                size_t *n_results, struct clmem_error *err)
{
    struct summa_plan p = {0};
    struct summa_rank me = {
        .row_comm = MPI_COMM_NULL, .col_comm = MPI_COMM_NULL, .window = MPI_WIN_NULL};
    double *samples = NULL;
    int status = summa_check_options(m, o, &p, err);
    if (status)
        return status;
    unsigned reps = p.reps;
    if (!(status = summa_prepare(m, ctx, o, &p, &me, reps, &samples, err)) &&
        !(status = measure(m, &p, &me, o, reps, samples, err)) &&
        !(status = summa_gather_p(m, &p, &me, err)))
        status = summa_report(m, &p, &me, o, &samples, reps, results, n_results, err);
    free(samples);
    summa_release(&p, &me);
    return status;
}
