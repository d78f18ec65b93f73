/* Coalescing: effective bandwidth against offset and stride (CUDA course,
 * seed 003, day 2: kernels `offset` and `stride`, plots "Effective
 * Bandwidth vs. Offset/Stride for Single Precision"). The lecture's
 * template kernels, once per type: T = float, and T = double where the
 * device has cl_khr_fp64.
 *
 * Two changes from the slide, both said where they are:
 * - out of place, b[i] = a[i] + 1 instead of a[i] = a[i] + 1: the run
 *   executes each point several times (warm-up, timed runs), so the in-place
 *   body would leave a[i] + runs and the check would depend on their number;
 *   this one writes the same b every time. Still one read and one write per
 *   work-item, as the lecture counts them.
 * - a bound: the host rounds the NDRange up to the work-group size (any N
 *   works, not only multiples of 256), so the work-items past N do nothing.
 * Indices are int, as on the slide; the host refuses sizes they cannot hold. */

#define COALESCING_KERNELS(T)                                                                      \
    /* Slide "Esempio": offset<T>, i = blockDim.x*blockIdx.x + threadIdx.x + s */                 \
    __kernel void offset_##T(__global const T *a, __global T *b, int s, int n)                     \
    {                                                                                              \
        int i = get_local_size(0) * get_group_id(0) + get_local_id(0) + s;                         \
        if (i < n + s)                                                                             \
            b[i] = a[i] + 1;                                                                       \
    }                                                                                              \
                                                                                                   \
    /* Slide "Esempio": stride<T>, i = (blockDim.x*blockIdx.x + threadIdx.x) * s */               \
    __kernel void stride_##T(__global const T *a, __global T *b, int s, int n)                     \
    {                                                                                              \
        int i = (get_local_size(0) * get_group_id(0) + get_local_id(0)) * s;                       \
        if (i < n * s)                                                                             \
            b[i] = a[i] + 1;                                                                       \
    }

COALESCING_KERNELS(float)

/* The slide's "fp64" run; the file still builds on devices without it. */
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
COALESCING_KERNELS(double)
#endif
