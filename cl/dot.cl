/* Dot product c = sum a_i * b_i (CUDA course, seed 003, exercise
 * "dotProduct": "sfruttando opportunamente la shared memory"). Every kernel
 * sums its work-group's share into partial[group]; the host runs passes of
 * sumPartials (or one group of sumCoarsened) over the partials until one
 * value remains, all on the device.
 * The host picks WG_SIZE, a power of two, the launch's local size; the
 * default lets this file build alone. */
#ifndef WG_SIZE
#define WG_SIZE 256
#endif

/* The group's tree in local memory, stride halving (Kirk & Hwu Fig 5.15):
 * every work-item of the group calls it; work-item 0 gets the sum, the
 * others 0. */
float groupSum(__local float *cache, float value)
{
    unsigned int t = get_local_id(0);
    cache[t] = value;
    for (unsigned int stride = WG_SIZE / 2; stride >= 1; stride = stride >> 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t < stride)
            cache[t] += cache[t + stride];
    }
    /* cache[0] was last written by work-item 0 itself. */
    return t == 0 ? cache[0] : 0.0f;
}

/* The exercise: each work-item multiplies one pair, the group sums the
 * products in shared (local) memory, one partial per group. Work-items
 * past n contribute 0. */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void
dotProduct(__global const float *a, __global const float *b, __global float *partial, uint n)
{
    __local float cache[WG_SIZE];
    size_t i = get_global_id(0);
    float sum = groupSum(cache, i < n ? a[i] * b[i] : 0.0f);
    if (get_local_id(0) == 0)
        partial[get_group_id(0)] = sum;
}

/* The later passes of dotProduct: the partials summed the same way. */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void
sumPartials(__global const float *in, __global float *partial, uint n)
{
    __local float cache[WG_SIZE];
    size_t i = get_global_id(0);
    float sum = groupSum(cache, i < n ? in[i] : 0.0f);
    if (get_local_id(0) == 0)
        partial[get_group_id(0)] = sum;
}

/* Near peak: a fixed number of groups; each work-item accumulates the
 * products of every (global size)-th float4 pair in registers, then the
 * scalar tail n % 4, then the group's tree. Buffers start aligned for
 * float4 (CL_DEVICE_MEM_BASE_ADDR_ALIGN >= 128 bits). */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void
dotCoarsened(__global const float *a, __global const float *b, __global float *partial, uint n)
{
    __local float cache[WG_SIZE];
    size_t gid = get_global_id(0), items = get_global_size(0);
    size_t n4 = n / 4;
    __global const float4 *a4 = (__global const float4 *)a;
    __global const float4 *b4 = (__global const float4 *)b;
    float4 acc = (float4)(0.0f);
    for (size_t i = gid; i < n4; i += items)
        acc += a4[i] * b4[i];
    float sum = (acc.x + acc.y) + (acc.z + acc.w);
    for (size_t i = 4 * n4 + gid; i < n; i += items)
        sum += a[i] * b[i];
    sum = groupSum(cache, sum);
    if (get_local_id(0) == 0)
        partial[get_group_id(0)] = sum;
}

/* The final pass of dotCoarsened: one group sums the partials, float4
 * grid-stride as above. */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void
sumCoarsened(__global const float *in, __global float *partial, uint n)
{
    __local float cache[WG_SIZE];
    size_t gid = get_global_id(0), items = get_global_size(0);
    size_t n4 = n / 4;
    __global const float4 *in4 = (__global const float4 *)in;
    float4 acc = (float4)(0.0f);
    for (size_t i = gid; i < n4; i += items)
        acc += in4[i];
    float sum = (acc.x + acc.y) + (acc.z + acc.w);
    for (size_t i = 4 * n4 + gid; i < n; i += items)
        sum += in[i];
    sum = groupSum(cache, sum);
    if (get_local_id(0) == 0)
        partial[get_group_id(0)] = sum;
}
