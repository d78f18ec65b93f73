/* Constant memory (CUDA course, seed 003, slides "La Constant Memory in
 * CUDA" and "Allocazione della Constant Memory"): coefficients every
 * work-item reads in the same order, read-only, are what the constant
 * cache is for. A 2D convolution of a float image, h rows of w, with a
 * (2*FILTER_RADIUS+1)^2 filter; outside the image counts as zero (those
 * terms are left out, with the image-edge check of Kirk & Hwu Fig 4.1).
 * The two kernels differ only in where the filter lives: __global or
 * __constant (CUDA's __constant__ + cudaMemcpyToSymbol becomes a
 * __constant kernel argument in OpenCL). Same summation order in both and
 * in the CPU reference: rows of the filter, then columns.
 * The host sets FILTER_RADIUS; the default lets this file build alone. */
#ifndef FILTER_RADIUS
#define FILTER_RADIUS 2
#endif
#define FILTER_WIDTH (2 * FILTER_RADIUS + 1)

/* The convolution of the slides "La Constant Memory in CUDA" and
 * "Allocazione della Constant Memory", written once: both kernels below are
 * this body, NAME taking the filter as FILTER_TYPE (only the filter's
 * address space differs). */
#define CONVOLUTION_KERNEL(NAME, FILTER_TYPE)                                                      \
    __kernel void NAME(__global const float *in, __global float *out, FILTER_TYPE *filter, int w,  \
                       int h)                                                                      \
    {                                                                                              \
        int Col = get_global_id(0);                                                                \
        int Row = get_global_id(1);                                                                \
        if (Col < w && Row < h) {                                                                  \
            float sum = 0.0f;                                                                      \
            for (int fRow = -FILTER_RADIUS; fRow < FILTER_RADIUS + 1; ++fRow) {                    \
                for (int fCol = -FILTER_RADIUS; fCol < FILTER_RADIUS + 1; ++fCol) {                \
                    int curRow = Row + fRow;                                                       \
                    int curCol = Col + fCol;                                                       \
                    if (curRow > -1 && curRow < h && curCol > -1 && curCol < w)                    \
                        sum +=                                                                     \
                            filter[(fRow + FILTER_RADIUS) * FILTER_WIDTH + fCol + FILTER_RADIUS] * \
                            in[curRow * w + curCol];                                               \
                }                                                                                  \
            }                                                                                      \
            out[Row * w + Col] = sum;                                                              \
        }                                                                                          \
    }

/* The filter in global memory: every work-item loads it through the
 * ordinary memory path. */
CONVOLUTION_KERNEL(convolutionGlobal, __global const float)

/* The same with the filter in __constant memory: every work-item of a
 * group reads the same coefficient at the same time, one broadcast from
 * the constant cache. */
CONVOLUTION_KERNEL(convolutionConstant, __constant float)
