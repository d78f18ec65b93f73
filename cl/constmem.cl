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
 * the constant cache. Not on NVIDIA's OpenCL: its PTX reads a __constant
 * argument with ld.const through the argument's pointer, which ptxas
 * makes a load of the read-only global path, as for a const __global
 * pointer (bench/roofs/); both kernels read as fast. */
CONVOLUTION_KERNEL(convolutionConstant, __constant float)

/* Beyond the slides: the convolution with the filter in __constant,
 * coarsened and vectorised. The kernels above load 25 inputs (at radius 2)
 * and check the image's edges 25 times for every output; on a GPU that is
 * instruction-bound, far from the memory's roof. Here a work-item takes a
 * strip of VEC neighbouring outputs of a row, ROWS rows tall, and keeps
 * their ROWS sums in registers: each input row the strip needs (ROWS +
 * 2*FILTER_RADIUS of them) is loaded once, as FILTER_WIDTH vectors of VEC
 * floats, one at each horizontal offset of the filter (the halo comes with
 * them), and each vector is multiplied into every output row whose filter
 * reaches that input row. Per output that is about FILTER_WIDTH * (ROWS +
 * 2*FILTER_RADIUS) / ROWS loads instead of 25, no edge check in the loop,
 * and the same 25 multiply-adds in the same order as the CPU reference
 * (rows of the filter, then columns). Every loop is unrolled: the filter's
 * indices are constants, its coefficients read once into registers, and
 * the sums stay in registers. Input rows above or below the
 * image add nothing (zero outside, as above). Strips that touch the left or
 * right edge (their filter would read outside the row: the first and last
 * FILTER_RADIUS columns, and the columns past the last whole vector of a
 * width that is not a multiple of VEC) take the loop above, element by
 * element. Neighbouring work-items load neighbouring strips; on a CPU
 * (VEC 16) each vector is one or two unaligned loads.
 * The host sets VEC (1, 2, 4, 8 or 16), ROWS, ALIGNED (w a multiple of
 * VEC) and STRIP_LOAD (a tuning parameter): 1 reads each row as above,
 * FILTER_WIDTH vectors at every horizontal offset; 2 (with ALIGNED, VEC
 * 2 to 16 and an even radius) reads it as ONE aligned load of the strip's
 * VEC floats plus the FILTER_RADIUS floats on either side as float2s, the
 * shifted vectors taken out of registers. On a GPU an unaligned vector
 * load is one load per float (a strip of 4 at radius 2: 8 loads of a float
 * a row); the aligned one is one 16-byte load and 2 loads of two floats
 * (half the load instructions of 4 floats, and no slower:
 * bench/roofs/), and it loads every row of the strip before its first multiply-add
 * (loadRows). in and out are two buffers (restrict): the compiler may
 * order loads and stores as it likes. */
#ifndef VEC
#define VEC 1
#endif
#ifndef ROWS
#define ROWS 8
#endif
#ifndef STRIP_LOAD
#define STRIP_LOAD 1
#endif
#ifndef ALIGNED
#define ALIGNED 0
#endif
/* The aligned path reads the halo as float2s: an even radius keeps them
 * aligned (an odd one takes the vector loads of STRIP_LOAD 1). */
#if STRIP_LOAD == 2 && VEC > 1 && ALIGNED && FILTER_RADIUS % 2 == 0
#define WIDE 1
#else
#define WIDE 0
#endif

#define CAT_(a, b) a##b
#define CAT(a, b)  CAT_(a, b)
#if VEC == 1
#define FLOATV       float
#define LOADV(p)     (*(p))
#define STOREV(v, p) (*(p) = (v))
#else
#define FLOATV       CAT(float, VEC)
#define LOADV(p)     CAT(vload, VEC)(0, p)
#define STOREV(v, p) CAT(vstore, VEC)(v, 0, p)
#endif
/* A vector and its floats: taken apart and put together in registers. */
union floatv {
    FLOATV v;
    float f[VEC];
};

/* The convolution above for the output (Row, Col). */
static float convolveOne(__global const float *in, __constant float *filter, int w, int h, int Row,
                         int Col)
{
    float sum = 0.0f;
    for (int fRow = -FILTER_RADIUS; fRow < FILTER_RADIUS + 1; ++fRow) {
        for (int fCol = -FILTER_RADIUS; fCol < FILTER_RADIUS + 1; ++fCol) {
            int curRow = Row + fRow;
            int curCol = Col + fCol;
            if (curRow > -1 && curRow < h && curCol > -1 && curCol < w)
                sum += filter[(fRow + FILTER_RADIUS) * FILTER_WIDTH + fCol + FILTER_RADIUS] *
                       in[curRow * w + curCol];
        }
    }
    return sum;
}

#if WIDE
/* The aligned path's rows: e[i][k] is the float x - FILTER_RADIUS + k of
 * input row row0 - FILTER_RADIUS + i, the strip's VEC of them from one
 * aligned load, the halo two floats a load (p - FILTER_RADIUS and p + VEC
 * are 8-byte aligned: VEC and FILTER_RADIUS even); rows outside the image
 * are zeros (their multiply-adds add +0.0: each sum is the one that
 * leaves those terms out, as the reference does). Every row is loaded
 * before the first multiply-add. Loaded row by row, NVIDIA's compiler put
 * each row's loads after the multiply-adds of the row before, one row of
 * loads in flight at a time; all first, more loads are in flight
 * (bench/roofs/). */
static void loadRows(__global const float *restrict in, int w, int h, int x, int row0,
                     float e[ROWS + 2 * FILTER_RADIUS][VEC + 2 * FILTER_RADIUS])
{
#pragma unroll
    for (int i = 0; i < ROWS + 2 * FILTER_RADIUS; i++) {
        int curRow = row0 - FILTER_RADIUS + i;
        if (curRow < 0 || curRow >= h) {
#pragma unroll
            for (int k = 0; k < VEC + 2 * FILTER_RADIUS; k++)
                e[i][k] = 0.0f;
            continue;
        }
        __global const float *p = in + curRow * w + x;
        union floatv centre = {*(__global const FLOATV *)p};
#pragma unroll
        for (int k = 0; k < VEC; k++)
            e[i][FILTER_RADIUS + k] = centre.f[k];
#pragma unroll
        for (int k = 0; k < FILTER_RADIUS; k += 2) {
            float2 left = *(__global const float2 *)(p + k - FILTER_RADIUS);
            float2 right = *(__global const float2 *)(p + VEC + k);
            e[i][k] = left.x;
            e[i][k + 1] = left.y;
            e[i][FILTER_RADIUS + VEC + k] = right.x;
            e[i][FILTER_RADIUS + VEC + k + 1] = right.y;
        }
    }
}
#endif

__kernel void convolutionCoarsened(__global const float *restrict in, __global float *restrict out,
                                   __constant float *filter, int w, int h)
{
    int x = get_global_id(0) * VEC; /* the strip's first column */
    int row0 = get_global_id(1) * ROWS;
    if (x >= w || row0 >= h)
        return;

    if (x < FILTER_RADIUS || x + VEC + FILTER_RADIUS > w) {
        /* A strip at the left or right edge: the loop above, element by element. */
        for (int Row = row0; Row < row0 + ROWS && Row < h; Row++)
            for (int Col = x; Col < x + VEC && Col < w; Col++)
                out[Row * w + Col] = convolveOne(in, filter, w, h, Row, Col);
        return;
    }

    /* The filter once into registers: each coefficient is used by up to
     * ROWS output rows. Four coefficients a load (the buffer starts
     * aligned): on NVIDIA's OpenCL each is a load instruction (see
     * convolutionConstant), which its compiler repeats between the
     * multiply-adds where registers run short; four a load, a quarter of
     * those (bench/roofs/). */
    float f[FILTER_WIDTH * FILTER_WIDTH];
#pragma unroll
    for (int k = 0; k < FILTER_WIDTH * FILTER_WIDTH / 4; k++) {
        float4 c = ((__constant float4 *)filter)[k];
        f[4 * k] = c.x;
        f[4 * k + 1] = c.y;
        f[4 * k + 2] = c.z;
        f[4 * k + 3] = c.w;
    }
#pragma unroll
    for (int k = FILTER_WIDTH * FILTER_WIDTH / 4 * 4; k < FILTER_WIDTH * FILTER_WIDTH; k++)
        f[k] = filter[k];
    FLOATV sum[ROWS];
#pragma unroll
    for (int r = 0; r < ROWS; r++)
        sum[r] = (FLOATV)(0.0f);
#if WIDE
    float e[ROWS + 2 * FILTER_RADIUS][VEC + 2 * FILTER_RADIUS];
    loadRows(in, w, h, x, row0, e);
#endif
    /* Input row row0 - FILTER_RADIUS + i is row fRow = i - r of the filter
     * of output row row0 + r. */
#pragma unroll
    for (int i = 0; i < ROWS + 2 * FILTER_RADIUS; i++) {
#if !WIDE
        int curRow = row0 - FILTER_RADIUS + i;
        if (curRow < 0 || curRow >= h)
            continue; /* outside the image: adds nothing */
        __global const float *p = in + curRow * w + x;
#endif
#pragma unroll
        for (int fCol = -FILTER_RADIUS; fCol < FILTER_RADIUS + 1; ++fCol) {
#if WIDE
            union floatv shifted;
#pragma unroll
            for (int k = 0; k < VEC; k++)
                shifted.f[k] = e[i][FILTER_RADIUS + fCol + k];
            FLOATV v = shifted.v;
#else
            FLOATV v = LOADV(p + fCol);
#endif
#pragma unroll
            for (int r = 0; r < ROWS; r++) {
                int fRow = i - r;
                if (fRow >= 0 && fRow < FILTER_WIDTH)
                    sum[r] += f[fRow * FILTER_WIDTH + fCol + FILTER_RADIUS] * v;
            }
        }
    }
#pragma unroll
    for (int r = 0; r < ROWS; r++)
        if (row0 + r < h)
#if WIDE
            *(__global FLOATV *)(out + (row0 + r) * w + x) = sum[r];
#else
            STOREV(sum[r], out + (row0 + r) * w + x);
#endif
}
