/* Matrix multiplication P = M x N (Kirk & Hwu ch. 4-5).
 * M is rows x inner, N is inner x cols, P is rows x cols, all row-major.
 * The host picks TILE_WIDTH per device; the default lets this file build alone. */
#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

/* Fig 4.3: one work-item per P element, every operand from global memory. */
__kernel void MatrixMulKernel(__global const float *M, __global const float *N,
                              __global float *P, int rows, int cols, int inner)
{
    int Row = get_global_id(1);
    int Col = get_global_id(0);
    if ((Row < rows) && (Col < cols)) {
        float Pvalue = 0;
        for (int k = 0; k < inner; ++k)
            Pvalue += M[Row * inner + k] * N[k * cols + Col];
        P[Row * cols + Col] = Pvalue;
    }
}

/* Fig 4.16 / 5.6: M and N tiles staged in local memory. As in the book it
 * needs every dimension to be a multiple of TILE_WIDTH (the host refuses others). */
__kernel void MatrixMulTiled(__global const float *M, __global const float *N,
                             __global float *P, int rows, int cols, int inner)
{
    __local float Mds[TILE_WIDTH][TILE_WIDTH];
    __local float Nds[TILE_WIDTH][TILE_WIDTH];
    int bx = get_group_id(0);
    int by = get_group_id(1);
    int tx = get_local_id(0);
    int ty = get_local_id(1);
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < inner / TILE_WIDTH; ++ph) {
        Mds[ty][tx] = M[Row * inner + ph * TILE_WIDTH + tx];
        Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * cols + Col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds[ty][k] * Nds[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    P[Row * cols + Col] = Pvalue;
}

/* Fig 4.20: the tiled kernel with boundary checks, for any size. Elements
 * outside the matrices load as 0 (the figure leaves them stale), so the
 * partial last tile adds nothing; every work-item reaches both barriers. */
__kernel void MatrixMulTiledBounds(__global const float *M, __global const float *N,
                                   __global float *P, int rows, int cols, int inner)
{
    __local float Mds[TILE_WIDTH][TILE_WIDTH];
    __local float Nds[TILE_WIDTH][TILE_WIDTH];
    int tx = get_local_id(0);
    int ty = get_local_id(1);
    int Row = get_group_id(1) * TILE_WIDTH + ty;
    int Col = get_group_id(0) * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < (inner + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
        if ((Row < rows) && (ph * TILE_WIDTH + tx) < inner)
            Mds[ty][tx] = M[Row * inner + ph * TILE_WIDTH + tx];
        else
            Mds[ty][tx] = 0.0f;
        if ((ph * TILE_WIDTH + ty) < inner && Col < cols)
            Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * cols + Col];
        else
            Nds[ty][tx] = 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE_WIDTH; ++k)
            Pvalue += Mds[ty][k] * Nds[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if ((Row < rows) && (Col < cols))
        P[Row * cols + Col] = Pvalue;
}

/* Fig 5.17: increased thread granularity. Each work-item computes
 * COARSE_FACTOR P elements, TILE_WIDTH columns apart, so each M tile loaded
 * into local memory serves COARSE_FACTOR N tiles. Boundary checks as Fig 4.20. */
#ifndef COARSE_FACTOR
#define COARSE_FACTOR 4
#endif
__kernel void MatrixMulCoarsened(__global const float *M, __global const float *N,
                                 __global float *P, int rows, int cols, int inner)
{
    __local float Mds[TILE_WIDTH][TILE_WIDTH];
    __local float Nds[TILE_WIDTH][TILE_WIDTH];
    int tx = get_local_id(0);
    int ty = get_local_id(1);
    int Row = get_group_id(1) * TILE_WIDTH + ty;
    int colStart = get_group_id(0) * TILE_WIDTH * COARSE_FACTOR + tx;
    float Pvalue[COARSE_FACTOR];
    for (int c = 0; c < COARSE_FACTOR; ++c)
        Pvalue[c] = 0.0f;
    for (int ph = 0; ph < (inner + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
        if ((Row < rows) && (ph * TILE_WIDTH + tx) < inner)
            Mds[ty][tx] = M[Row * inner + ph * TILE_WIDTH + tx];
        else
            Mds[ty][tx] = 0.0f;
        for (int c = 0; c < COARSE_FACTOR; ++c) {
            int Col = colStart + c * TILE_WIDTH;
            if ((ph * TILE_WIDTH + ty) < inner && Col < cols)
                Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * cols + Col];
            else
                Nds[ty][tx] = 0.0f;
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int k = 0; k < TILE_WIDTH; ++k)
                Pvalue[c] += Mds[ty][k] * Nds[k][tx];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    for (int c = 0; c < COARSE_FACTOR; ++c) {
        int Col = colStart + c * TILE_WIDTH;
        if ((Row < rows) && (Col < cols))
            P[Row * cols + Col] = Pvalue[c];
    }
}

/* ---- Beyond the textbook: register blocking (not in the seeds) ----
 * Each work-group computes a TSM x TSN block of P; each work-item WPTM x WPTN
 * of its elements, kept in registers, so every value read from local memory
 * feeds WPTM or WPTN multiply-adds instead of one. M's tile is stored
 * transposed in local memory so both operands are read as rows. A work-item's
 * rows and columns are VW-wide groups RTSM*VW (RTSN*VW) apart, so the
 * work-items of a group read consecutive local addresses (no bank conflicts)
 * and write P with coalesced VW-wide stores.
 * FULL_TILES=1 (chosen by the host when every dimension is a multiple of the
 * tiles and of VW) drops all bounds checks and uses vector loads; otherwise
 * loads outside the matrices read 0 and stores are guarded: any size works. */
#ifndef TSM
#define TSM 64
#endif
#ifndef TSN
#define TSN 64
#endif
#ifndef TSK
#define TSK 16
#endif
#ifndef WPTM
#define WPTM 4
#endif
#ifndef WPTN
#define WPTN 4
#endif
#ifndef VW
#define VW 4
#endif
#ifndef FULL_TILES
#define FULL_TILES 0
#endif
#define RTSM (TSM / WPTM) /* work-group rows */
#define RTSN (TSN / WPTN) /* work-group columns */
#define WG_SIZE (RTSM * RTSN)

__kernel __attribute__((reqd_work_group_size(RTSN, RTSM, 1))) void
MatrixMulRegisterBlocked(__global const float *M, __global const float *N, __global float *P,
                         int rows, int cols, int inner)
{
    __local float Msub[TSK][TSM]; /* transposed: Msub[k][m] */
    __local float Nsub[TSK][TSN];
    const int tidn = get_local_id(0);
    const int tidm = get_local_id(1);
    const int tid = tidm * RTSN + tidn;
    const int offsetM = TSM * get_group_id(1);
    const int offsetN = TSN * get_group_id(0);

    float acc[WPTM][WPTN];
    for (int wm = 0; wm < WPTM; wm++)
        for (int wn = 0; wn < WPTN; wn++)
            acc[wm][wn] = 0.0f;

    const int numTiles = (inner + TSK - 1) / TSK;
    for (int t = 0; t < numTiles; t++) {
        const int tileK = t * TSK;
        /* Stage M's TSM x TSK tile (transposed) and N's TSK x TSN tile. */
        for (int idx = tid; idx < TSM * TSK / VW; idx += WG_SIZE) {
            const int m = idx / (TSK / VW);
            const int k = (idx % (TSK / VW)) * VW;
#if FULL_TILES && VW == 4
            const float4 v = vload4(0, M + (size_t)(offsetM + m) * inner + tileK + k);
            Msub[k + 0][m] = v.x;
            Msub[k + 1][m] = v.y;
            Msub[k + 2][m] = v.z;
            Msub[k + 3][m] = v.w;
#else
            for (int e = 0; e < VW; e++) {
                const int row = offsetM + m, col = tileK + k + e;
                Msub[k + e][m] = (row < rows && col < inner) ? M[(size_t)row * inner + col] : 0.0f;
            }
#endif
        }
        for (int idx = tid; idx < TSK * TSN / VW; idx += WG_SIZE) {
            const int k = idx / (TSN / VW);
            const int n = (idx % (TSN / VW)) * VW;
#if FULL_TILES && VW == 4
            vstore4(vload4(0, N + (size_t)(tileK + k) * cols + offsetN + n), 0, &Nsub[k][n]);
#else
            for (int e = 0; e < VW; e++) {
                const int row = tileK + k, col = offsetN + n + e;
                Nsub[k][n + e] = (row < inner && col < cols) ? N[(size_t)row * cols + col] : 0.0f;
            }
#endif
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TSK; k++) {
            float Mreg[WPTM], Nreg[WPTN];
            for (int wm = 0; wm < WPTM; wm++)
                Mreg[wm] = Msub[k][(wm / VW) * RTSM * VW + tidm * VW + wm % VW];
            for (int wn = 0; wn < WPTN; wn++)
                Nreg[wn] = Nsub[k][(wn / VW) * RTSN * VW + tidn * VW + wn % VW];
            for (int wm = 0; wm < WPTM; wm++)
                for (int wn = 0; wn < WPTN; wn++)
                    acc[wm][wn] = fma(Mreg[wm], Nreg[wn], acc[wm][wn]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    for (int wm = 0; wm < WPTM; wm++) {
        const int row = offsetM + (wm / VW) * RTSM * VW + tidm * VW + wm % VW;
        for (int wn = 0; wn < WPTN; wn++) {
            const int col = offsetN + (wn / VW) * RTSN * VW + tidn * VW + wn % VW;
#if !FULL_TILES
            if (row < rows && col < cols)
#endif
                P[(size_t)row * cols + col] = acc[wm][wn];
        }
    }
}
