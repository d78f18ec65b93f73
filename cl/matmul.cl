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
