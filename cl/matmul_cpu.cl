/* Matrix multiplication for CPUs, beyond the textbook: the shape of a BLAS
 * SGEMM (Goto & van de Geijn, "Anatomy of high-performance matrix
 * multiplication", 2008; BLIS's micro-kernels), in OpenCL C for PoCL and
 * other CPU drivers. P (rows x cols) = M (rows x inner) x N (inner x cols),
 * row-major, any size.
 *
 * Three kernels, launched one after the other by matmul's `cpu_blocked`
 * variant (the packing is part of its time):
 *  - MatrixMulPackM copies M into micro-panels of CPU_MR rows, each stored
 *    k by k: the CPU_MR values of column k of a panel are contiguous.
 *  - MatrixMulPackN copies N into micro-panels of NR = CPU_VEC x CPU_NV
 *    columns, each stored k by k: the NR values of row k are contiguous.
 *    Both pad the last panel with zeros, so that the micro-kernel needs no
 *    guard inside its loop.
 *  - MatrixMulCpuBlocked, the micro-kernel: each work-item computes a
 *    CPU_MR x NR micro-tile of P in CPU_MR x CPU_NV vector accumulators of
 *    the CPU's native width (float8 on AVX2, float16 on AVX-512), reading
 *    both panels at unit stride: per k, CPU_NV vector loads of N's panel,
 *    CPU_MR broadcasts from M's and CPU_MR x CPU_NV fused multiply-adds,
 *    all in registers. Only the stores of the last micro-tiles of a row or
 *    column are guarded.
 * Cache blocking: work-items are taken in blocks of CPU_MT panels of M;
 * within a block, the CPU_MT micro-tiles of one panel of N, then of the
 * next. A driver hands each core a run of consecutive work-groups, so a
 * core reads one panel of N (inner x NR floats) CPU_MT times from its L2
 * cache, and the block's panels of M (CPU_MT x CPU_MR x inner floats) once
 * per panel of N from L2 too, not from L3 or memory. K is not cut (no KC):
 * cutting it would take partial sums through P, which is write-only here;
 * on CPUs with an L2 of 1 MiB or more both panels stay in it up to K of
 * about 2000-3000 (AVX-512 row: 192 + 128 KiB at K = 1024).
 * A work-group of CPU_WG work-items (reqd_work_group_size): PoCL keeps the
 * kernel's explicit vectors rather than vectorising across work-items. No
 * local memory: on a CPU the caches do its work. */
#pragma OPENCL FP_CONTRACT ON

#ifndef CPU_VEC
#define CPU_VEC 8 /* floats per vector: the CPU's native width */
#endif
#ifndef CPU_MR
#define CPU_MR 6 /* rows of P per micro-tile */
#endif
#ifndef CPU_NV
#define CPU_NV 2 /* vectors per row of a micro-tile: NR = CPU_VEC * CPU_NV columns */
#endif
#ifndef CPU_MT
#define CPU_MT 4 /* panels of M per block (cache blocking, above) */
#endif
#ifndef CPU_WG
#define CPU_WG 1 /* work-items per work-group, along M's panels */
#endif

#define CPU_NR (CPU_VEC * CPU_NV)

#if CPU_VEC == 16
typedef float16 floatv;
#define VLOAD  vload16
#define VSTORE vstore16
#elif CPU_VEC == 8
typedef float8 floatv;
#define VLOAD  vload8
#define VSTORE vstore8
#elif CPU_VEC == 4
typedef float4 floatv;
#define VLOAD  vload4
#define VSTORE vstore4
#else
#error "CPU_VEC must be 4, 8 or 16"
#endif

/* M's rows [ip * CPU_MR, ...) into panel ip of Mp: Mp[(ip * inner + k) *
 * CPU_MR + r] = M[(ip * CPU_MR + r) * inner + k], zero past the last row.
 * A work-item moves CPU_VEC values of k of each of the panel's rows: it
 * reads CPU_MR vectors and writes one contiguous block. */
__kernel void MatrixMulPackM(__global const float *restrict M, __global float *restrict Mp,
                             int rows, int inner)
{
    const int k0 = get_global_id(0) * CPU_VEC;
    const int ip = get_global_id(1);
    if (k0 >= inner)
        return; /* no barrier in this kernel: an early return is safe */
    const int nk = inner - k0 < CPU_VEC ? inner - k0 : CPU_VEC;
    float t[CPU_MR][CPU_VEC];
    for (int r = 0; r < CPU_MR; r++) {
        const int row = ip * CPU_MR + r;
        if (row < rows && nk == CPU_VEC) {
            VSTORE(VLOAD(0, M + (size_t)row * inner + k0), 0, t[r]);
        } else {
            for (int c = 0; c < CPU_VEC; c++)
                t[r][c] = row < rows && c < nk ? M[(size_t)row * inner + k0 + c] : 0.0f;
        }
    }
    __global float *dst = Mp + ((size_t)ip * inner + k0) * CPU_MR;
    for (int c = 0; c < nk; c++)
        for (int r = 0; r < CPU_MR; r++)
            dst[c * CPU_MR + r] = t[r][c];
}

/* N's columns [jp * CPU_NR, ...) into panel jp of Np: Np[(jp * inner + k) *
 * CPU_NR + c] = N[k * cols + jp * CPU_NR + c], zero past the last column.
 * A work-item moves one vector: global size (panels * CPU_NV, inner). */
__kernel void MatrixMulPackN(__global const float *restrict N, __global float *restrict Np,
                             int cols, int inner)
{
    const int v = get_global_id(0), k = get_global_id(1);
    const int col = v * CPU_VEC;
    const __global float *src = N + (size_t)k * cols + col;
    floatv x;
    if (cols - col >= CPU_VEC) {
        x = VLOAD(0, src);
    } else {
        float t[CPU_VEC];
        for (int c = 0; c < CPU_VEC; c++)
            t[c] = col + c < cols ? src[c] : 0.0f;
        x = VLOAD(0, t);
    }
    const int jp = v / CPU_NV;
    VSTORE(x, 0, Np + ((size_t)jp * inner + k) * CPU_NR + (v % CPU_NV) * CPU_VEC);
}

/* The micro-kernel: a work-item computes P's rows [ip * CPU_MR, ...) and
 * columns [jp * CPU_NR, ...) from panel ip of Mp and panel jp of Np, the
 * work-items in blocks of CPU_MT panels of M (one dimension: the global
 * size is the number of micro-tiles, rounded up to CPU_WG). */
__kernel __attribute__((reqd_work_group_size(CPU_WG, 1, 1))) void
MatrixMulCpuBlocked(__global const float *restrict Mp, __global const float *restrict Np,
                    __global float *restrict P, int rows, int cols, int inner)
{
    const int m_panels = (rows + CPU_MR - 1) / CPU_MR, n_panels = (cols + CPU_NR - 1) / CPU_NR;
    const int id = get_global_id(0);
    if (id >= m_panels * n_panels)
        return; /* the global size is a multiple of CPU_WG; no barrier here */
    /* Within a block, the micro-tiles of panel jp of N, then of jp + 1;
     * the last block may have fewer panels of M. */
    const int block = id / (CPU_MT * n_panels), in_block = id % (CPU_MT * n_panels);
    const int mt = m_panels - block * CPU_MT < CPU_MT ? m_panels - block * CPU_MT : CPU_MT;
    const int ip = block * CPU_MT + in_block % mt, jp = in_block / mt;
    const int row0 = ip * CPU_MR, col0 = jp * CPU_NR;
    const __global float *a = Mp + (size_t)ip * inner * CPU_MR;
    /* Np's panels are whole vectors from an aligned buffer start: the
     * vectors can be read as such. */
    const __global floatv *b = (const __global floatv *)(Np + (size_t)jp * inner * CPU_NR);
    floatv acc[CPU_MR][CPU_NV];
#pragma unroll
    for (int r = 0; r < CPU_MR; r++)
#pragma unroll
        for (int v = 0; v < CPU_NV; v++)
            acc[r][v] = (floatv)(0.0f);
    for (int k = 0; k < inner; k++) {
        floatv bv[CPU_NV];
#pragma unroll
        for (int v = 0; v < CPU_NV; v++)
            bv[v] = b[v];
#pragma unroll
        for (int r = 0; r < CPU_MR; r++) {
            const floatv av = (floatv)(a[r]);
#pragma unroll
            for (int v = 0; v < CPU_NV; v++)
                acc[r][v] = av * bv[v] + acc[r][v];
        }
        a += CPU_MR;
        b += CPU_NV;
    }
    __global float *p = P + (size_t)row0 * cols + col0;
    if (rows - row0 >= CPU_MR && cols - col0 >= CPU_NR) {
#pragma unroll
        for (int r = 0; r < CPU_MR; r++)
#pragma unroll
            for (int v = 0; v < CPU_NV; v++)
                VSTORE(acc[r][v], v, p + (size_t)r * cols);
        return;
    }
    /* The last micro-tiles of a row or column: only what lies inside P. */
    const int n_rows = rows - row0 < CPU_MR ? rows - row0 : CPU_MR;
    const int n_cols = cols - col0 < CPU_NR ? cols - col0 : CPU_NR;
    /* Unrolled, so that acc is indexed by constants and stays in registers. */
#pragma unroll
    for (int r = 0; r < CPU_MR; r++) {
        if (r < n_rows) {
            float out[CPU_NR];
#pragma unroll
            for (int v = 0; v < CPU_NV; v++)
                VSTORE(acc[r][v], v, out);
            for (int c = 0; c < n_cols; c++)
                p[(size_t)r * cols + c] = out[c];
        }
    }
}
