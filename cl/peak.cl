/* The device's own peaks, measured as clpeak does: a copy for memory
 * bandwidth, reads alone for the read bandwidth (what a reduction can
 * reach), long chains of fused multiply-adds for arithmetic throughput, and
 * back-to-back launches of a kernel that does almost nothing for the cost
 * of a launch. Every result of clmem is compared with these. */

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

#ifndef READ_PER_ITEM
#define READ_PER_ITEM 16
#endif
#ifndef READ_GROUP_BLOCKS
#define READ_GROUP_BLOCKS 0
#endif
/* float4 j of work-item gid's READ_PER_ITEM: READ_GROUP_BLOCKS=0, the whole
 * grid apart; 1, the work-group apart, each group reading one contiguous
 * block (clpeak's local offset). Either way neighbouring work-items read
 * neighbouring float4s (coalesced). */
#if READ_GROUP_BLOCKS
#define READ_INDEX(j)                                                                              \
    (get_group_id(0) * get_local_size(0) * READ_PER_ITEM + get_local_id(0) +                      \
     (j) * get_local_size(0))
#else
#define READ_INDEX(j) (gid + (j) * items)
#endif
/* Reads n floats and writes one per work-item, so the writes are a
 * READ_PER_ITEM*4-th of the traffic; work-item 0 also adds the n % 4 floats
 * after the last float4. The host adds the same floats in the same order. */
__kernel void read_peak(__global const float4 *src, __global float *out, int n)
{
    int gid = get_global_id(0), items = get_global_size(0);
    int n4 = n / 4;
    float4 acc = (float4)(0.0f);
#pragma unroll
    for (int j = 0; j < READ_PER_ITEM; j++) {
        int i = READ_INDEX(j);
        if (i < n4)
            acc += src[i];
    }
    (void)items;
    float sum = (acc.x + acc.y) + (acc.z + acc.w);
    if (gid == 0) {
        __global const float *src_tail = (__global const float *)src;
        for (int j = 4 * n4; j < n; j++)
            sum += src_tail[j];
    }
    out[gid] = sum;
}

/* One work-item that writes one number: the host launches it many times
 * back to back, each writing its own slot, and times from the first start
 * to the last end, so what is measured is what a launch costs. */
__kernel void launch_peak(__global int *out, int slot)
{
    if (get_global_id(0) == 0)
        out[slot] = slot + 1;
}

#ifndef FMA_ITERATIONS
#define FMA_ITERATIONS 512
#endif
/* The vector width of the chains: 4 (float4, as clpeak) by default; the
 * host asks for the device's native width on CPUs (8 for AVX2, 16 for
 * AVX-512), where PoCL does not always vectorize across work-items and
 * float4 would fill a quarter of an AVX-512 register. */
#ifndef FMA_WIDTH
#define FMA_WIDTH 4
#endif
#if FMA_WIDTH == 16
typedef float16 fvec;
#define LANES (fvec)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#elif FMA_WIDTH == 8
typedef float8 fvec;
#define LANES (fvec)(0, 1, 2, 3, 4, 5, 6, 7)
#else
typedef float4 fvec;
#define LANES (fvec)(0, 1, 2, 3)
#endif
/* 8 independent chains of FMA_WIDTH lanes per work-item: enough
 * instruction-level parallelism for GPUs and for CPUs' FMA pipelines. 2
 * steps each per iteration: 16 vector fma, 8 * FMA_WIDTH * 4 flops per
 * iteration (peak.c counts the same). fma() is exact, so the host computes
 * the same values bit for bit. */
#ifndef FMA_MAD
#define FMA_MAD 0
#endif
/* FMA_MAD 1 where the device reports no hardware fma (CL_FP_FMA): its
 * fma() is rounded once in software, far below its throughput; mad() is
 * computed the fastest way it has (the host then checks within 1e-3). */
#if FMA_MAD
#define STEP(x) x = mad(x, a, b)
#else
#define STEP(x) x = fma(x, a, b)
#endif
#define STEP8                                                                                     \
    STEP(x0);                                                                                     \
    STEP(x1);                                                                                     \
    STEP(x2);                                                                                     \
    STEP(x3);                                                                                     \
    STEP(x4);                                                                                     \
    STEP(x5);                                                                                     \
    STEP(x6);                                                                                     \
    STEP(x7)
__kernel void fma_peak(__global float *out, float a_scalar, float b_scalar)
{
    int gid = get_global_id(0);
    const fvec a = (fvec)(a_scalar), b = (fvec)(b_scalar);
    /* Lane l of chain c starts at base + c/8 + l/32. */
    fvec x0 = (float)(gid & 1023) * 0x1p-10f + LANES * 0.03125f;
    fvec x1 = x0 + 0.125f, x2 = x0 + 0.25f, x3 = x0 + 0.375f;
    fvec x4 = x0 + 0.5f, x5 = x0 + 0.625f, x6 = x0 + 0.75f, x7 = x0 + 0.875f;
    for (int i = 0; i < FMA_ITERATIONS; i++) {
        STEP8;
        STEP8;
    }
    fvec sum = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
    /* Halves added until four lanes are left, then those as before. */
#if FMA_WIDTH == 16
    float8 s8 = sum.lo + sum.hi;
    float4 s4 = s8.lo + s8.hi;
#elif FMA_WIDTH == 8
    float4 s4 = sum.lo + sum.hi;
#else
    float4 s4 = sum;
#endif
    out[gid] = (s4.x + s4.y) + (s4.z + s4.w);
}
