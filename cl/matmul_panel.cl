/* Matrix multiplication P = M x N beyond the textbook, for CPUs: row
 * panels in vector registers (M, N, P row-major, as in matmul.cl).
 * Each work-item computes PANEL_ROWS x 16 elements of P as PANEL_ROWS
 * float16 accumulators, straight from global memory (CPU caches play the
 * part of local memory): per k, one float16 of N's row k and PANEL_ROWS
 * scalars of M's column k, broadcast. This is the shape of a CPU GEMM
 * micro-kernel, which PoCL maps onto the host's widest vectors; on GPUs the
 * register-blocked kernel (matmul_regblock.cl) is the one to use. Any size: the last
 * panels' rows and columns are guarded (PANEL_FULL=0). */
#ifndef PANEL_ROWS
#define PANEL_ROWS 8
#endif
#ifndef PANEL_FULL
#define PANEL_FULL 0
#endif

__kernel void MatrixMulPanel(__global const float *M, __global const float *N, __global float *P,
                             int rows, int cols, int inner)
{
    const int col0 = get_global_id(0) * 16;
    const int row0 = get_global_id(1) * PANEL_ROWS;
    float16 acc[PANEL_ROWS];
    for (int r = 0; r < PANEL_ROWS; r++)
        acc[r] = (float16)(0.0f);
#if PANEL_FULL
    for (int k = 0; k < inner; k++) {
        const float16 b = vload16(0, N + (size_t)k * cols + col0);
        for (int r = 0; r < PANEL_ROWS; r++)
            acc[r] = fma((float16)(M[(size_t)(row0 + r) * inner + k]), b, acc[r]);
    }
    for (int r = 0; r < PANEL_ROWS; r++)
        vstore16(acc[r], 0, P + (size_t)(row0 + r) * cols + col0);
#else
    if (row0 >= rows || col0 >= cols)
        return; /* no barrier in this kernel: an early return is safe */
    const int n_cols = cols - col0 < 16 ? cols - col0 : 16;
    for (int k = 0; k < inner; k++) {
        float b_row[16];
        for (int c = 0; c < 16; c++)
            b_row[c] = c < n_cols ? N[(size_t)k * cols + col0 + c] : 0.0f;
        const float16 b = vload16(0, b_row);
        for (int r = 0; r < PANEL_ROWS; r++) {
            const float a = row0 + r < rows ? M[(size_t)(row0 + r) * inner + k] : 0.0f;
            acc[r] = fma((float16)(a), b, acc[r]);
        }
    }
    for (int r = 0; r < PANEL_ROWS && row0 + r < rows; r++) {
        float out[16];
        vstore16(acc[r], 0, out);
        for (int c = 0; c < n_cols; c++)
            P[(size_t)(row0 + r) * cols + col0 + c] = out[c];
    }
#endif
}
