/* The launches of matmul's variants that take more than one kernel:
 * cpu_blocked (packing, then the micro-kernel), regblock's stream-K,
 * regblock_padded (pad, multiply, unpad), splitk (slices, then their sum). */
#include "workloads/matmul_internal.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Packs M and N (two launches), then the micro-kernel: one work-item per
 * MR x NR micro-tile, in one dimension (the kernel orders them in blocks
 * of MT panels of M). All three launches are the variant's time. */
int cpu_blocked_execute(struct clmem_run *run, const struct clmem_variant *v,
                        struct matmul_state *s, struct clmem_timing *timing,
                        struct clmem_error *err)
{
    size_t vec = (size_t)s->cb[CB_VEC], mr = (size_t)s->cb[CB_MR], nv = (size_t)s->cb[CB_NV];
    size_t m_panels = (s->host.rows + mr - 1) / mr,
           n_panels = (s->host.cols + vec * nv - 1) / (vec * nv);
    cl_int rows = (cl_int)s->host.rows, cols = (cl_int)s->host.cols, inner = (cl_int)s->host.inner;
    size_t pack_m[2] = {(s->host.inner + vec - 1) / vec, m_panels},
           pack_n[2] = {n_panels * nv, s->host.inner};
    size_t tiles = m_panels * n_panels, local = (size_t)s->cb[CB_WG];
    cl_kernel micro = clmem_run_kernel(run, v), pack_m_kernel = clmem_run_more_kernel(run, v, 0),
              pack_n_kernel = clmem_run_more_kernel(run, v, 1);
    int status;
    if ((status = clmem_kernel_args(pack_m_kernel, err, CLMEM_ARG(s->dM), CLMEM_ARG(s->dMp),
                                    CLMEM_ARG(rows), CLMEM_ARG(inner))) ||
        (status = clmem_launch(run->ctx, pack_m_kernel, 2, pack_m, NULL, timing, err)) ||
        (status = clmem_kernel_args(pack_n_kernel, err, CLMEM_ARG(s->dN), CLMEM_ARG(s->dNp),
                                    CLMEM_ARG(cols), CLMEM_ARG(inner))) ||
        (status = clmem_launch(run->ctx, pack_n_kernel, 2, pack_n, NULL, timing, err)) ||
        (status =
             clmem_kernel_args(micro, err, CLMEM_ARG(s->dMp), CLMEM_ARG(s->dNp), CLMEM_ARG(s->dP),
                               CLMEM_ARG(rows), CLMEM_ARG(cols), CLMEM_ARG(inner))))
        return status;
    return clmem_launch(run->ctx, micro, 1, &tiles, &local, timing, err);
}

/* A regblock kernel whose arguments are set, over a rows x cols P: one
 * work-item per WPTM x WPTN block of it. */
static int regblock_launch(struct clmem_run *run, cl_kernel kernel, size_t rows, size_t cols,
                           struct clmem_timing *timing, struct clmem_error *err)
{
    const struct matmul_state *s = run->state;
    size_t tsm = (size_t)s->rb[P_TSM], tsn = (size_t)s->rb[P_TSN];
    size_t local[2] = {tsn / (size_t)s->rb[P_WPTN], tsm / (size_t)s->rb[P_WPTM]};
    size_t global[2] = {(cols + tsn - 1) / tsn * local[0], (rows + tsm - 1) / tsm * local[1]};
    return clmem_launch(run->ctx, kernel, 2, global, local, timing, err);
}

/* A copy kernel whose arguments are set, over rows x cols: work-groups of
 * 32 x 8 (as the device allows), the range rounded up to them. */
static int copy_launch(struct clmem_run *run, cl_kernel kernel, size_t rows, size_t cols,
                       struct clmem_timing *timing, struct clmem_error *err)
{
    size_t group = clmem_pick_group(&run->ctx->device, 256);
    size_t local[2] = {group < 32 ? group : 32, group < 32 ? 1 : group / 32};
    size_t global[2] = {(cols + local[0] - 1) / local[0] * local[0],
                        (rows + local[1] - 1) / local[1] * local[1]};
    return clmem_launch(run->ctx, kernel, 2, global, local, timing, err);
}

/* regblock's or regblock_padded's multiply of M by N into P (rows x cols,
 * K inner), its kernels' arguments the same: stream-K where given its
 * kernel `sk` (one dimension: the groups that share blocks, then a group
 * per remaining block), else `gemm`, a group per block. */
int regblock_gemm(struct clmem_run *run, cl_kernel gemm, cl_kernel sk, cl_mem M, cl_mem N, cl_mem P,
                  size_t rows, size_t cols, size_t inner, struct clmem_timing *timing,
                  struct clmem_error *err)
{
    const struct matmul_state *s = run->state;
    cl_int r = (cl_int)rows, c = (cl_int)cols, k = (cl_int)inner;
    if (!sk) {
        int status = clmem_kernel_args(gemm, err, CLMEM_ARG(M), CLMEM_ARG(N), CLMEM_ARG(P),
                                       CLMEM_ARG(r), CLMEM_ARG(c), CLMEM_ARG(k));
        return status ? status : regblock_launch(run, gemm, rows, cols, timing, err);
    }
    cl_int groups = (cl_int)s->sk_groups, tiles = (cl_int)s->sk_tiles;
    size_t tsm = (size_t)s->rb[P_TSM], tsn = (size_t)s->rb[P_TSN];
    size_t local[2] = {tsn / (size_t)s->rb[P_WPTN], tsm / (size_t)s->rb[P_WPTM]};
    size_t blocks = (rows + tsm - 1) / tsm * ((cols + tsn - 1) / tsn);
    size_t global[2] = {(s->sk_groups + blocks - s->sk_tiles) * local[0], local[1]};
    int status = clmem_kernel_args(sk, err, CLMEM_ARG(M), CLMEM_ARG(N), CLMEM_ARG(P), CLMEM_ARG(r),
                                   CLMEM_ARG(c), CLMEM_ARG(k), CLMEM_ARG(s->dPartial),
                                   CLMEM_ARG(s->dArrived), CLMEM_ARG(groups), CLMEM_ARG(tiles));
    return status ? status : clmem_launch(run->ctx, sk, 2, global, local, timing, err);
}

/* regblock_padded: M and N padded (two launches), the unchecked kernel on
 * the padded copies, P copied out of its padded copy; all four launches are
 * the variant's time. Dimensions that are whole tiles: the kernel alone, on
 * the run's buffers. */
int regblock_padded_execute(struct clmem_run *run, const struct clmem_variant *v,
                            struct matmul_state *s, struct clmem_timing *timing,
                            struct clmem_error *err)
{
    cl_kernel pad = clmem_run_more_kernel(run, v, 0), unpad = clmem_run_more_kernel(run, v, 1),
              gemm = clmem_run_kernel(run, v),
              sk = s->sk_groups ? clmem_run_more_kernel(run, v, 2) : NULL;
    cl_int rows = (cl_int)s->host.rows, cols = (cl_int)s->host.cols, inner = (cl_int)s->host.inner,
           prows = (cl_int)s->padded[0], pcols = (cl_int)s->padded[1],
           pinner = (cl_int)s->padded[2];
    int status;
    if (!s->dPpad)
        return regblock_gemm(run, gemm, sk, s->dM, s->dN, s->dP, s->host.rows, s->host.cols,
                             s->host.inner, timing, err);
    if ((status =
             clmem_kernel_args(pad, err, CLMEM_ARG(s->dM), CLMEM_ARG(s->dMpad), CLMEM_ARG(rows),
                               CLMEM_ARG(inner), CLMEM_ARG(prows), CLMEM_ARG(pinner))) ||
        (status = copy_launch(run, pad, s->padded[0], s->padded[2], timing, err)) ||
        (status =
             clmem_kernel_args(pad, err, CLMEM_ARG(s->dN), CLMEM_ARG(s->dNpad), CLMEM_ARG(inner),
                               CLMEM_ARG(cols), CLMEM_ARG(pinner), CLMEM_ARG(pcols))) ||
        (status = copy_launch(run, pad, s->padded[2], s->padded[1], timing, err)) ||
        (status = regblock_gemm(run, gemm, sk, s->dMpad, s->dNpad, s->dPpad, s->padded[0],
                                s->padded[1], s->padded[2], timing, err)) ||
        (status = clmem_kernel_args(unpad, err, CLMEM_ARG(s->dPpad), CLMEM_ARG(s->dP),
                                    CLMEM_ARG(rows), CLMEM_ARG(cols), CLMEM_ARG(pcols))))
        return status;
    return copy_launch(run, unpad, s->host.rows, s->host.cols, timing, err);
}

/* splitk: the blocks of P by K slices (one launch of three dimensions:
 * blocks across, blocks down, slices), each slice into its part of the
 * workspace, then the slices added into P (a launch of a float4 a
 * work-item); with one slice, the first launch alone, into P. */
int splitk_execute(struct clmem_run *run, const struct clmem_variant *v, struct matmul_state *s,
                   struct clmem_timing *timing, struct clmem_error *err)
{
    const int *k = s->split.p;
    cl_kernel gemm = clmem_run_kernel(run, v), sum = clmem_run_more_kernel(run, v, 0);
    cl_int rows = (cl_int)s->host.rows, cols = (cl_int)s->host.cols, inner = (cl_int)s->host.inner,
           slice = (cl_int)s->split.slice_steps, slices = (cl_int)k[SPL_SPLITS];
    cl_mem work = slices > 1 ? s->dWork : s->dP;
    size_t tsm = (size_t)k[SPL_TSM], tsn = (size_t)k[SPL_TSN];
    size_t local[3] = {tsn / (size_t)k[SPL_WPTN], tsm / (size_t)k[SPL_WPTM], 1};
    size_t global[3] = {(s->host.cols + tsn - 1) / tsn * local[0],
                        (s->host.rows + tsm - 1) / tsm * local[1], (size_t)slices};
    int status =
        clmem_kernel_args(gemm, err, CLMEM_ARG(s->dM), CLMEM_ARG(s->dN), CLMEM_ARG(work),
                          CLMEM_ARG(rows), CLMEM_ARG(cols), CLMEM_ARG(inner), CLMEM_ARG(slice));
    if (status || (status = clmem_launch(run->ctx, gemm, 3, global, local, timing, err)) ||
        slices == 1)
        return status;
    cl_int n = rows * cols;
    size_t group = clmem_pick_group(&run->ctx->device, CLMEM_GROUP_SIZE),
           items = ((size_t)n + 3) / 4;
    size_t sum_global = (items + group - 1) / group * group;
    if ((status = clmem_kernel_args(sum, err, CLMEM_ARG(s->dWork), CLMEM_ARG(s->dP), CLMEM_ARG(n),
                                    CLMEM_ARG(slices))))
        return status;
    return clmem_launch(run->ctx, sum, 1, &sum_global, &group, timing, err);
}
