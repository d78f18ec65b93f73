/* The device's own peaks, measured as clpeak does: a copy for memory
 * bandwidth, long chains of fused multiply-adds for arithmetic throughput.
 * Every result of clmem is compared with these. */

/* Copy n floats as float4; the work-item after the last float4 copies the
 * n % 4 left over. */
__kernel void copy_peak(__global const float4 *src, __global float4 *dst, int n)
{
    int i = get_global_id(0);
    int n4 = n / 4;
    if (i < n4) {
        dst[i] = src[i];
    } else if (i == n4) {
        __global const float *src_tail = (__global const float *)src;
        __global float *dst_tail = (__global float *)dst;
        for (int j = 4 * n4; j < n; j++)
            dst_tail[j] = src_tail[j];
    }
}

#ifndef FMA_ITERATIONS
#define FMA_ITERATIONS 512
#endif
/* 8 independent chains per work-item (enough instruction-level parallelism
 * for GPUs and for CPUs that vectorize across work-items), 2 steps each per
 * iteration: 16 fma, 32 flops per iteration (peak.c counts the same). fma() is exact, so the host computes
 * the same values bit for bit. */
#define STEP(x) x = fma(x, a, b)
#define STEP8                                                                                     \
    STEP(x0);                                                                                     \
    STEP(x1);                                                                                     \
    STEP(x2);                                                                                     \
    STEP(x3);                                                                                     \
    STEP(x4);                                                                                     \
    STEP(x5);                                                                                     \
    STEP(x6);                                                                                     \
    STEP(x7)
__kernel void fma_peak(__global float *out, float a, float b)
{
    int gid = get_global_id(0);
    float x0 = (float)(gid & 1023) * 0x1p-10f;
    float x1 = x0 + 0.125f, x2 = x0 + 0.25f, x3 = x0 + 0.375f;
    float x4 = x0 + 0.5f, x5 = x0 + 0.625f, x6 = x0 + 0.75f, x7 = x0 + 0.875f;
    for (int i = 0; i < FMA_ITERATIONS; i++) {
        STEP8;
        STEP8;
    }
    out[gid] = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
}
