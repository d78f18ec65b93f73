/* What each matmul kernel moves by design (the traffic hook), as Kirk &
 * Hwu count the compute-to-global-memory-access ratio: the naive kernel
 * reads a row of M and a column of N for every P element, 8 bytes per
 * multiply-add's 2 flops; a tile of side T, each value loaded once into
 * __local and read there T times, cuts the global loads by T. Tiles cut
 * short at the edges are loaded whole (the guarded loads still run), so
 * the counts go by the tiles a size needs, not by its elements. */
#include "harness/traffic.h"
#include "matmul_internal.h"

#include <math.h>
#include <stddef.h>

static double tiles(size_t n, size_t tile)
{
    return tile ? ceil((double)n / (double)tile) : 0;
}

/* A blocked kernel's traffic: blocks of bm x bn of P, each stepping
 * through K by bk, loading a bm x bk slab of M and a bk x bn slab of N
 * into __local once a step; a work-item computes wm x wn of its block,
 * reading wm values of M and wn of N from __local for each k. */
static void blocked(size_t rows, size_t cols, size_t inner, size_t bm, size_t bn, size_t bk,
                    size_t wm, size_t wn, struct clmem_traffic *t)
{
    double f = sizeof(float), steps = tiles(rows, bm) * tiles(cols, bn) * tiles(inner, bk);
    double loaded = steps * f * (double)bk * (double)(bm + bn);
    double items = (double)bm * (double)bn / ((double)wm * (double)wn);
    t->global_bytes += loaded;
    t->local_bytes += loaded + steps * (double)bk * items * f * (double)(wm + wn);
}

/* The __local rate is the probe's: distinct words a work-item, no
 * barrier. The tiles' reads are broadcasts (a group's work-items read
 * the same value), and each phase waits twice. */
static const char tiled_unmodelled[] =
    "__local broadcast reads unlike the probe's, two barriers a phase";

void matmul_traffic(const struct clmem_run *run, const struct clmem_variant *v,
                    struct clmem_traffic *t)
{
    const struct matmul_state *s = run->state;
    size_t m = s->host.rows, n = s->host.cols, k = s->host.inner, tile = s->tile;
    double f = sizeof(float), p = (double)m * (double)n;
    ptrdiff_t which = v - run->workload->variants;
    t->flops = 2.0 * p * (double)k;
    t->global_bytes = f * p; /* P written once */
    if (which == NAIVE) {
        t->global_bytes += 2.0 * f * p * (double)k;
        /* Neighbouring work-items read the same rows and columns. */
        t->unmodelled = "L1 and L2 serving the repeated row and column reads";
    } else if (which == TILED || which == TILED_BOUNDS) {
        blocked(m, n, k, tile, tile, tile, 1, 1, t);
        t->unmodelled = tiled_unmodelled;
    } else if (which == COARSENED) {
        /* A group keeps its M tile for COARSE_FACTOR tiles of N: the
         * M loads are cut by the factor again. */
        blocked(m, n, k, tile, tile * COARSE_FACTOR, tile, 1, COARSE_FACTOR, t);
        t->unmodelled = tiled_unmodelled;
    } else if (which == REGBLOCK || which == REGBLOCK_PADDED) {
        const int *rb = s->rb;
        size_t pm = m, pn = n, pk = k;
        if (which == REGBLOCK_PADDED && s->padded[0]) {
            pm = s->padded[0], pn = s->padded[1], pk = s->padded[2];
            /* The padded copies, timed with it: M and N read and written
             * padded, P written padded and read back into its place. */
            t->global_bytes += f * ((double)(m * k + k * n) + (double)(pm * pk + pk * pn)) +
                               f * ((double)(pm * pn) + p);
        }
        blocked(pm, pn, pk, (size_t)rb[P_TSM], (size_t)rb[P_TSN], (size_t)rb[P_TSK],
                (size_t)rb[P_WPTM], (size_t)rb[P_WPTN], t);
        t->unmodelled = which == REGBLOCK
                            ? "float4 __local reads unlike the probe's, a barrier a K step"
                            : "float4 __local reads unlike the probe's, the pad and unpad launches";
    } else if (which == SPLITK) {
        const struct splitk_plan *sp = &s->split;
        blocked(m, n, k, (size_t)sp->p[SPL_TSM], (size_t)sp->p[SPL_TSN], (size_t)sp->p[SPL_TSK],
                (size_t)sp->p[SPL_WPTM], (size_t)sp->p[SPL_WPTN], t);
        /* Each slice's sums written to the workspace, read by the pass
         * that adds them. */
        double slices = sp->slice_steps ? ceil((double)sp->steps / (double)sp->slice_steps) : 1;
        if (slices > 1)
            t->global_bytes += 2.0 * f * p * slices;
        t->unmodelled = "float4 __local reads unlike the probe's, the launch adding the slices";
    } else {
        /* The CPU kernels, the libraries and auto: not modelled. */
        *t = (struct clmem_traffic){0};
    }
}
