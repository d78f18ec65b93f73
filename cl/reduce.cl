/* Sum reduction (Kirk & Hwu ch. 5, "Performance considerations", seed 002):
 * every kernel sums X[0..n) of one work-group into partial[group], so a
 * pass turns n values into one per group; the host runs passes over the
 * partials until one value remains, all on the device. (reduce's coarsened
 * variant is in sum_coarsened.cl.)
 * The host picks WG_SIZE, a power of two, the launch's local size; the
 * default lets this file build alone. */
#ifndef WG_SIZE
#define WG_SIZE 256
#endif

/* Fig 5.13, "A simple sum reduction kernel": the stride doubles and the
 * work-items t % (2*stride) == 0 add, interleaved, so the active ones are
 * scattered over every warp (divergence). Unlike the figure, the work-items
 * past n load 0 instead of reading out of bounds, and work-item 0 writes
 * the group's sum out. */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void
reduceInterleaved(__global const float *X, __global float *partial, uint n)
{
    __local float partialSum[WG_SIZE];
    size_t i = get_global_id(0);
    partialSum[get_local_id(0)] = i < n ? X[i] : 0.0f;
    unsigned int t = get_local_id(0);
    for (unsigned int stride = 1; stride < get_local_size(0); stride *= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t % (2 * stride) == 0)
            partialSum[t] += partialSum[t + stride];
    }
    /* partialSum[0] was last written by work-item 0 itself. */
    if (t == 0)
        partial[get_group_id(0)] = partialSum[0];
}

/* Fig 5.15, "A kernel with fewer thread divergence": the stride halves from
 * blockDim/2 and the first `stride` work-items add, so the active ones stay
 * contiguous and whole warps retire. Guards as above. */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void
reduceSequential(__global const float *X, __global float *partial, uint n)
{
    __local float partialSum[WG_SIZE];
    size_t i = get_global_id(0);
    partialSum[get_local_id(0)] = i < n ? X[i] : 0.0f;
    unsigned int t = get_local_id(0);
    for (unsigned int stride = get_local_size(0) / 2; stride >= 1; stride = stride >> 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t < stride)
            partialSum[t] += partialSum[t + stride];
    }
    if (t == 0)
        partial[get_group_id(0)] = partialSum[0];
}
