/* Monte-Carlo approximation of pi, the "piApproximation" exercises of the
 * CUDA course (seed 003): N random points (x, y) in the unit square; the
 * fraction inside the quarter circle tends to pi/4, so PI = 4.0*count/npoints.
 * The hit test is integer-only, so every device and the host agree bit for
 * bit: x and y are 24-bit integers and a point is inside when
 * x*x + y*y < 2^48, computed in ulong.
 * The host picks WG_SIZE (a power of two, the launch's local size) and
 * SAMPLES_PER_ITEM; the defaults let this file build alone. */
#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef SAMPLES_PER_ITEM
#define SAMPLES_PER_ITEM 64
#endif

/* (2^24)^2: the radius 1 squared in 24-bit fixed point. */
#define ONE_SQUARED ((ulong)1 << 48)

/* inCircle(x, y) of the exercise, on 24-bit integer coordinates. */
int inCircle(uint x, uint y)
{
    return (ulong)x * x + (ulong)y * y < ONE_SQUARED;
}

/* The host's random() numbers are floats k / 2^24: this gives back k exactly. */
uint to_fixed24(float u)
{
    return (uint)(u * 16777216.0f);
}

/* Sums the group's WG_SIZE values of `cache` into cache[0] with the tree of
 * CUDA by Example's dot product (sec. 5.3): each step halves the work-items
 * adding. Every work-item of the group calls it; the barriers are reached by all. */
void reduce_local(__local int *cache)
{
    int cacheIndex = get_local_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = WG_SIZE / 2; i != 0; i /= 2) {
        if (cacheIndex < i)
            cache[cacheIndex] += cache[cacheIndex + i];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* First exercise ("usando la global memory e generando i numeri casuali su
 * host"): one work-item per point, reading the host's x[i], y[i] and writing
 * its hit to global memory; the host counts the hits. */
__kernel void piApproximation(__global const float *x, __global const float *y,
                              __global int *hit, uint npoints)
{
    uint j = get_global_id(0);
    if (j < npoints)
        hit[j] = inCircle(to_fixed24(x[j]), to_fixed24(y[j]));
}

/* Second exercise ("sfruttando opportunamente la shared memory"): the
 * group's hits are reduced in __local memory and one partial count per
 * group is written; the host adds the partials. */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void
piApproximationShared(__global const float *x, __global const float *y, __global int *partial,
                      uint npoints)
{
    __local int cache[WG_SIZE];
    uint j = get_global_id(0);
    /* Points past the end count 0; every work-item still reaches the barriers. */
    cache[get_local_id(0)] = j < npoints ? inCircle(to_fixed24(x[j]), to_fixed24(y[j])) : 0;
    reduce_local(cache);
    if (get_local_id(0) == 0)
        partial[get_group_id(0)] = cache[0];
}

/* Philox4x32-10 (Salmon, Moraes, Dror, Shaw, SC'11), as Random123's
 * philox4x32_R(10, ctr, key): ten rounds, the key bumped between them. */
#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u

uint4 philox4x32_10(uint4 ctr, uint2 key)
{
    for (int round = 0; round < 10; round++) {
        if (round > 0) {
            key.x += PHILOX_W0;
            key.y += PHILOX_W1;
        }
        uint hi0 = mul_hi(PHILOX_M0, ctr.x), lo0 = PHILOX_M0 * ctr.x;
        uint hi1 = mul_hi(PHILOX_M1, ctr.z), lo1 = PHILOX_M1 * ctr.z;
        ctr = (uint4)(hi1 ^ ctr.y ^ key.x, lo1, hi0 ^ ctr.w ^ key.y, lo0);
    }
    return ctr;
}

/* Random numbers made on the device: point j is Philox4x32-10 of the
 * counter (j, 0, 0, 0) under the key (seed), its x and y the top 24 bits of
 * the first two words, so the points do not depend on the device or the
 * launch shape. Each work-item takes SAMPLES_PER_ITEM points a grid apart,
 * the group reduces its hits in __local memory, and one atomic_add per group
 * adds them to the global count (which the host zeroes before the launch). */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void
piPhilox(__global uint *count, uint npoints, uint key_lo, uint key_hi)
{
    __local int cache[WG_SIZE];
    uint stride = get_global_size(0);
    int hits = 0;
    for (uint k = 0; k < SAMPLES_PER_ITEM; k++) {
        uint j = get_global_id(0) + k * stride;
        if (j < npoints) {
            uint4 r = philox4x32_10((uint4)(j, 0, 0, 0), (uint2)(key_lo, key_hi));
            hits += inCircle(r.x >> 8, r.y >> 8);
        }
    }
    cache[get_local_id(0)] = hits;
    reduce_local(cache);
    if (get_local_id(0) == 0)
        atomic_add(count, (uint)cache[0]);
}
