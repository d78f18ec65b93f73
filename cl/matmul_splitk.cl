/* Split-K matrix multiplication P = M x N (beyond the seeds): for shapes
 * whose P has too few blocks to fill the device (a thin M or N, a long K,
 * small squares). M is rows x inner, N is inner x cols, P rows x cols, all
 * row-major, as in matmul.cl.
 * The same register-blocked body as regblock (matmul_regblock.cl,
 * included below: regblock_steps and regblock_store), with tiles of its
 * own (SPLITK_TSM x SPLITK_TSN, chosen by the host for the shape), on a
 * grid of blocks of P by K slices: work-group (bn, bm, z) multiplies the
 * K steps [z * slice_steps, (z + 1) * slice_steps) of block (bm, bn) and
 * writes its sums to slice z of a workspace W (slices x rows x cols); then
 * MatrixSumSlices adds the slices element by element in a fixed order
 * (0, 1, ..., slices - 1), so P is the same bit for bit from run to run,
 * whatever order the work-groups ran in. No work-group waits for
 * another: the second pass is a launch of its own. With one slice the
 * host passes P as W and runs no second pass (smaller tiles alone).
 * Any size: blocks across P's edges and the last K step check their
 * bounds as regblock's do (the blocks clamp them where rows start on
 * float4s: SPLITK_CLAMP below); SPLITK_K_FULL (K a multiple of the K
 * step) and SPLITK_ALIGNED (4: K and N multiples of 4, every row starts on
 * a float4; 2: on a float2; 1: neither) compile checks away and widen the
 * loads, as regblock's K_FULL and VEC_ALIGNED. */
#ifndef SPLITK_TSM
#define SPLITK_TSM 32
#endif
#ifndef SPLITK_TSN
#define SPLITK_TSN 64
#endif
#ifndef SPLITK_TSK
#define SPLITK_TSK 8
#endif
#ifndef SPLITK_WPTM
#define SPLITK_WPTM 4
#endif
#ifndef SPLITK_WPTN
#define SPLITK_WPTN 4
#endif
#ifndef SPLITK_K_FULL
#define SPLITK_K_FULL 0
#endif
#ifndef SPLITK_ALIGNED
#define SPLITK_ALIGNED 1
#endif
/* SPLITK_EDGE: some block crosses P's edge (the host says so). Those
 * blocks read clamped float4s (LOAD_CLAMPED in matmul_regblock.cl) where
 * rows start on float4s; SPLITK_CLAMP 0: checked, as
 * bench/sgemm/shapes/loads.sh builds them to compare. Only where there are
 * such blocks: the clamped path compiled in but never taken still slows
 * splitk down (its registers), most where the blocks are few. */
#ifndef SPLITK_EDGE
#define SPLITK_EDGE 1
#endif
#ifndef SPLITK_CLAMP
#define SPLITK_CLAMP 1
#endif
#if SPLITK_CLAMP && SPLITK_ALIGNED == 4 && SPLITK_EDGE
#define SPLITK_CLAMPED 1
#else
#define SPLITK_CLAMPED 0
#endif

/* regblock's body with these tiles, and none of its kernels (the build
 * options name regblock's own tiles and kernels for its program). */
#undef TSM
#undef TSN
#undef TSK
#undef WPTM
#undef WPTN
#undef FULL_TILES
#undef K_FULL
#undef VEC_ALIGNED
#undef REGBLOCK_DIRECT
#undef REGBLOCK_PADDED
#define TSM             SPLITK_TSM
#define TSN             SPLITK_TSN
#define TSK             SPLITK_TSK
#define WPTM            SPLITK_WPTM
#define WPTN            SPLITK_WPTN
#define REGBLOCK_DIRECT 0
#define REGBLOCK_PADDED 0
#include "matmul_regblock.cl"

/* Block (get_group_id(1), get_group_id(0)) of P over K slice
 * get_group_id(2) into W's slice of that index (rows x cols each). */
__kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1))) void
MatrixMulSplitK(__global const float *M, __global const float *N, __global float *W, int rows,
                int cols, int inner, int slice_steps)
{
    __local float4 Msub[2][TSK][TSM / 4];
    __local float4 Nsub[2][TSK][TSN / 4];
    const int offsetM = TSM * get_group_id(1);
    const int offsetN = TSN * get_group_id(0);
    const int z = get_group_id(2);
    const int steps = (inner + TSK - 1) / TSK;
    const int t0 = z * slice_steps, t1 = min(t0 + slice_steps, steps);
    const int whole = offsetM + TSM <= rows && offsetN + TSN <= cols;
    float4 acc[WPTM][WPTN / 4];
    for (int wm = 0; wm < WPTM; wm++)
        for (int wn = 0; wn < WPTN / 4; wn++)
            acc[wm][wn] = (float4)(0.0f);
    regblock_steps(M, N, rows, cols, inner, Msub, Nsub, offsetM, offsetN, whole, t0, t1,
                   SPLITK_K_FULL, SPLITK_ALIGNED, SPLITK_CLAMPED, acc);
    regblock_store(W + (size_t)z * rows * cols, rows, cols, offsetM, offsetN, whole, SPLITK_ALIGNED,
                   acc);
}

/* P[i] = W[0][i] + W[1][i] + ... + W[slices - 1][i], in that order, for
 * n = rows x cols elements: four consecutive ones a work-item (float4s
 * where n is a multiple of 4, so every slice starts on one). Work-items
 * past n do nothing (the host rounds the range up to whole groups). */
__kernel void MatrixSumSlices(__global const float *W, __global float *P, int n, int slices)
{
    const size_t i = (size_t)get_global_id(0) * 4, stride = (size_t)n;
    if (i + 4 <= stride && (n & 3) == 0) {
        float4 sum = *(__global const float4 *)(W + i);
        for (int z = 1; z < slices; z++)
            sum += *(__global const float4 *)(W + z * stride + i);
        *(__global float4 *)(P + i) = sum;
        return;
    }
    for (size_t j = i; j < i + 4 && j < stride; j++) {
        float sum = W[j];
        for (int z = 1; z < slices; z++)
            sum += W[z * stride + j];
        P[j] = sum;
    }
}
