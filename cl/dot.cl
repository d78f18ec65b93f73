/* Dot product c = sum a_i * b_i (CUDA course, seed 003, exercise
 * "dotProduct": "sfruttando opportunamente la shared memory"). Every kernel
 * sums its work-group's share into partial[group]; the host runs passes of
 * sumPartials over the partials until one value remains, all on the device.
 * (dot's coarsened variant is in sum_coarsened.cl.)
 * The host picks WG_SIZE, a power of two, the launch's local size; the
 * default lets this file build alone. */
#ifndef WG_SIZE
#define WG_SIZE 256
#endif

/* The group's tree in local memory (Kirk & Hwu Fig 5.15): groupSum. */
#define GROUP_SUM_SIZE WG_SIZE
#include "group_sum.h"

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
