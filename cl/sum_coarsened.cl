/* Sums near the read roof (beyond the seeds): thread coarsening, Kirk &
 * Hwu Fig 5.17's idea applied to the reduction (reduce's coarsened variant)
 * and to the dot product (dot's). A fixed number of groups; each work-item
 * first adds, in registers, every (global size)-th float4 of its input (the
 * first add happens during the load, no local memory per element), then
 * the scalar tail n % 4, then the group runs Fig 5.15's tree on one value
 * per work-item and writes partial[group]. The host launches a kernel once
 * over the input with many groups and reduceCoarsened once with one group
 * over their partials: the last pass never leaves the device. Buffers
 * start aligned for float4 (CL_DEVICE_MEM_BASE_ADDR_ALIGN >= 128 bits).
 * The host picks SUM_WG_SIZE, a power of two, the launch's local size
 * (tuned apart from the textbook kernels' WG_SIZE); the default lets this
 * file build alone. */
#ifndef SUM_WG_SIZE
#define SUM_WG_SIZE 256
#endif

/* Fig 5.15's tree in local memory: groupSum. */
#define GROUP_SUM_SIZE SUM_WG_SIZE
#include "group_sum.h"

/* This work-item's share of X[0..n): every (global size)-th float4 added
 * in registers, then the scalar tail. */
static float sumShare(__global const float *X, uint n)
{
    size_t gid = get_global_id(0), items = get_global_size(0);
    size_t n4 = n / 4;
    __global const float4 *X4 = (__global const float4 *)X;
    float4 acc = (float4)(0.0f);
    for (size_t i = gid; i < n4; i += items)
        acc += X4[i];
    float sum = (acc.x + acc.y) + (acc.z + acc.w);
    for (size_t i = 4 * n4 + gid; i < n; i += items)
        sum += X[i];
    return sum;
}

/* This work-item's share of the products a[i] * b[i], the same way. */
static float dotShare(__global const float *a, __global const float *b, uint n)
{
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
    return sum;
}

/* The sum of X[0..n): reduce's coarsened variant, and the last pass of
 * both coarsened variants. */
__kernel __attribute__((reqd_work_group_size(SUM_WG_SIZE, 1, 1))) void
reduceCoarsened(__global const float *X, __global float *partial, uint n)
{
    __local float partialSum[SUM_WG_SIZE];
    float sum = groupSum(partialSum, sumShare(X, n));
    if (get_local_id(0) == 0)
        partial[get_group_id(0)] = sum;
}

/* dot's coarsened variant: the products of a and b summed the same way. */
__kernel __attribute__((reqd_work_group_size(SUM_WG_SIZE, 1, 1))) void
dotCoarsened(__global const float *a, __global const float *b, __global float *partial, uint n)
{
    __local float partialSum[SUM_WG_SIZE];
    float sum = groupSum(partialSum, dotShare(a, b, n));
    if (get_local_id(0) == 0)
        partial[get_group_id(0)] = sum;
}

/* ---- One launch instead of two (CUDA's threadFenceReduction sample) ----
 * Each group sums its share as above and writes its partial; then counts
 * itself done on an atomic counter, its partial made visible first
 * (mem_fence, CUDA's __threadfence). The group that counts last sums every
 * partial, as reduceCoarsened's one-group pass would, writes the total and
 * sets the counter back to 0 for the next launch: the second launch, and
 * the gap before it, are gone. (OpenCL 1.2 promises no order between
 * work-groups; the fence and the atomic give it on the devices clmem
 * runs, as they do in CUDA.) */
static void finishGroups(float sum, __global float *partial, __global float *total,
                         __global volatile uint *done, __local float *partialSum,
                         __local uint *last)
{
    unsigned int t = get_local_id(0);
    sum = groupSum(partialSum, sum);
    if (t == 0) {
        partial[get_group_id(0)] = sum;
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        *last = atomic_inc(done) == get_num_groups(0) - 1;
    }
    /* Global too: the last group's own partial, written by its item 0. */
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    /* The same value for the whole group: its barriers are reached by all. */
    if (*last) {
        __global volatile const float *partials = partial;
        float s = 0.0f;
        for (size_t i = t; i < get_num_groups(0); i += SUM_WG_SIZE)
            s += partials[i];
        s = groupSum(partialSum, s);
        if (t == 0) {
            *total = s;
            *done = 0;
        }
    }
}

/* reduce's one_pass variant. */
__kernel __attribute__((reqd_work_group_size(SUM_WG_SIZE, 1, 1))) void
reduceOnePass(__global const float *X, __global float *partial, uint n, __global float *total,
              __global volatile uint *done)
{
    __local float partialSum[SUM_WG_SIZE];
    __local uint last;
    finishGroups(sumShare(X, n), partial, total, done, partialSum, &last);
}

/* dot's one_pass variant. */
__kernel __attribute__((reqd_work_group_size(SUM_WG_SIZE, 1, 1))) void
dotOnePass(__global const float *a, __global const float *b, __global float *partial, uint n,
           __global float *total, __global volatile uint *done)
{
    __local float partialSum[SUM_WG_SIZE];
    __local uint last;
    finishGroups(dotShare(a, b, n), partial, total, done, partialSum, &last);
}
