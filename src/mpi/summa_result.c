/* SUMMA's result (summa_internal.h): every rank's times gathered on rank 0, the
 * CLMEM_DEBUG=4 trace of them, and rank 0's one result with its note. */
#include "mpi/summa_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Every rank's sums to rank 0's me->all. */
static void gather_times(const struct clmem_mpi *m, struct summa_rank *me)
{
    int shared[3] = {me->m_shared, me->n_shared, me->pinned};
    MPI_Gather(&me->sum, (int)N_TIMES, MPI_DOUBLE, me->all, (int)N_TIMES, MPI_DOUBLE, 0, m->world);
    MPI_Gather(shared, 3, MPI_INT, me->shared_all, 3, MPI_INT, 0, m->world);
}

/* A rank's share of its time not computing (its time less its device's
 * kernels': the broadcasts, copies and launches that no kernel hid), and
 * spent exchanging panels on the host (waiting for broadcasts, copying). */
static double not_computing(const struct summa_times *t)
{
    if (isnan(t->kernels))
        return NAN;
    return t->wall > t->kernels ? (t->wall - t->kernels) / t->wall : 0.0;
}

static double exchanging(const struct summa_times *t)
{
    return t->wall > 0.0 ? (t->bcast + t->copy) / t->wall : 0.0;
}

/* How the pieces went between the ranks: "shared memory" (every rank
 * copied them from its neighbours' blocks), "pinned shared memory" (every
 * rank copied them up from there), "MPI" (broadcast), or "shared memory
 * and MPI" (some of each: grid rows on one host, columns across hosts, or
 * the other way round). */
static const char *exchange_name(const struct clmem_mpi *m, const struct summa_rank *me)
{
    int shared = 0, pinned = 0;
    for (int r = 0; r < m->size; r++) {
        shared += me->shared_all[3 * r] + me->shared_all[3 * r + 1];
        pinned += me->shared_all[3 * r + 2];
    }
    return shared == 0             ? "MPI"
           : shared != 2 * m->size ? "shared memory and MPI"
           : pinned == m->size     ? "pinned shared memory"
                                   : "shared memory";
}

/* "grid 1x2, panel 256, 64 pieces, overlapped, shared memory; not
 * computing per rank: 3% 4%; exchanging up to 1%; checked on rank 0". */
static void describe_shares(const struct clmem_mpi *m, const struct summa_plan *p,
                            const struct summa_rank *me, const struct clmem_summa_options *o,
                            char *note, size_t size)
{
    size_t len = (size_t)snprintf(
        note, size,
        "grid %dx%d, panel %zu, %zu pieces, %s, %s; not computing per rank:", p->grid_rows,
        p->grid_cols, p->panel, p->n_pieces, o->no_overlap ? "no overlap" : "overlapped",
        exchange_name(m, me));
    double most = 0.0;
    for (int r = 0; r < m->size; r++) {
        double share = not_computing(&me->all[r]);
        if (len < size)
            len +=
                (size_t)(isnan(share) ? snprintf(note + len, size - len, " -")
                                      : snprintf(note + len, size - len, " %.0f%%", share * 100.0));
        if (exchanging(&me->all[r]) > most)
            most = exchanging(&me->all[r]);
    }
    if (len < size)
        snprintf(note + len, size - len, "; exchanging up to %.0f%%; checked on rank 0",
                 most * 100.0);
}

/* CLMEM_DEBUG=4: where each rank's time went, per timed run (the mean),
 * one line a rank, on rank 0's stderr. M and N say how each rank got
 * those pieces (pin: up from pinned shared memory, shm: copied from shared
 * memory on the host, mpi: broadcast). */
static void trace_times(const struct clmem_mpi *m, const struct summa_plan *p,
                        const struct summa_rank *me, unsigned reps)
{
    if (!clmem_debug_enabled(CLMEM_DEBUG_TIMING))
        return;
    fprintf(stderr,
            "clmem: summa %dx%d grid, %s, panel %zu, %zu pieces, %d in flight, %zu copy threads "
            "on rank 0 (where a piece is copied on the host); per rank, the mean of %u timed "
            "runs; P read back after them in %.1f ms on rank 0\n",
            p->grid_rows, p->grid_cols, p->size_text, p->panel, p->n_pieces, SLOTS,
            me->copy_threads, reps, me->read_p * 1e3);
    fprintf(stderr, "clmem: summa rank  grid    M   N    wall ms  kernels ms  idle ms     up ms  "
                    "up GB/s  bcast ms   copy ms   wait ms  other ms     in MB  not computing\n");
    for (int r = 0; r < m->size; r++) {
        struct summa_times t = me->all[r];
        double *v = (double *)&t;
        for (size_t i = 0; i < N_TIMES; i++)
            v[i] /= reps;
        double other = t.wall - t.bcast - t.copy - t.wait;
        static const char *const how[] = {"mpi", "shm", "pin"};
        int pin = me->shared_all[3 * r + 2] ? 2 : 1;
        fprintf(stderr,
                "clmem: summa %4d %3d,%-3d %3s %3s %10.2f %11.2f %8.2f %9.2f %8.1f %9.2f %9.2f "
                "%9.2f %9.2f %9.1f %13.0f%%\n",
                r, r / p->grid_cols, r % p->grid_cols, how[me->shared_all[3 * r] ? pin : 0],
                how[me->shared_all[3 * r + 1] ? pin : 0], t.wall * 1e3, t.kernels * 1e3,
                t.idle * 1e3, t.up * 1e3,
                isnan(t.up)  ? NAN
                : t.up > 0.0 ? t.bytes_up / t.up * 1e-9
                             : 0.0,
                t.bcast * 1e3, t.copy * 1e3, t.wait * 1e3, other * 1e3, t.bytes_in * 1e-6,
                not_computing(&t) * 100.0);
    }
}

/* Rank 0's result: the samples (taken over), the metric, the check. */
static int append_result(const struct clmem_mpi *m, const struct summa_plan *p,
                         const struct summa_rank *me, const struct clmem_summa_options *o,
                         double **samples, unsigned reps, struct clmem_result **results,
                         size_t *n_results, struct clmem_error *err)
{
    struct clmem_result *grown = realloc(*results, (*n_results + 1) * sizeof *grown);
    if (!grown)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    *results = grown;
    struct clmem_result *r = &grown[(*n_results)++];
    memset(r, 0, sizeof *r);
    snprintf(r->workload, sizeof r->workload, "%s", clmem_workload_matmul.name);
    snprintf(r->variant, sizeof r->variant, "%s", p->variant->name);
    snprintf(r->device, sizeof r->device, "SUMMA %dx%d grid, %d rank%s", p->grid_rows, p->grid_cols,
             m->size, m->size == 1 ? "" : "s");
    snprintf(r->size, sizeof r->size, "%s", p->size_text);
    snprintf(r->params, sizeof r->params, "%s", me->run.params);
    snprintf(r->metric_unit, sizeof r->metric_unit, "%s", clmem_workload_matmul.metric_unit);
    r->baseline_fraction = r->peak_fraction = r->looped_ms = NAN;
    r->reps = reps;
    r->warmup = o->warmup;
    r->seed = o->seed;
    /* Of the whole product; the panels' broadcasts are not device traffic. */
    r->flops_per_byte = matmul_flops_per_byte(p->rows, p->cols, p->inner);
    r->samples_ms = *samples;
    r->n_samples = reps;
    *samples = NULL;
    clmem_result_summarise(r);
    double work = 2.0 * (double)p->rows * (double)p->cols * (double)p->inner;
    r->metric = r->median_ms > 0 ? work / (r->median_ms * 1e-3) / 1e9 : NAN;
    /* End to end by the host's clock: a run of many milliseconds. */
    snprintf(r->timer, sizeof r->timer, "host");
    r->runs_per_sample = 1;
    describe_shares(m, p, me, o, r->note, sizeof r->note);
    struct clmem_check check;
    matmul_problem_check(&p->whole, &check);
    clmem_result_set_check(r, &check);
    if (!r->verified)
        return clmem_fail(err, CLMEM_ERR_VERIFY,
                          "SUMMA matmul '%s' at '%s': P differs from the CPU reference (%s)",
                          p->variant->name, p->size_text, r->verify_detail);
    return CLMEM_OK;
}

/* Rank 0's result; its verdict (or its lack of memory) becomes every rank's. */
int summa_report(const struct clmem_mpi *m, const struct summa_plan *p, struct summa_rank *me,
                 const struct clmem_summa_options *o, double **samples, unsigned reps,
                 struct clmem_result **results, size_t *n_results, struct clmem_error *err)
{
    int status = CLMEM_OK;
    gather_times(m, me);
    if (m->rank == 0) {
        trace_times(m, p, me, reps);
        status = append_result(m, p, me, o, samples, reps, results, n_results, err);
    }
    return clmem_mpi_agree(m, status, err);
}
