/* The memory hierarchy probed level by level, as the microbenchmark papers
 * do it (Saavedra & Smith 1995 for CPUs; Wong et al. 2010, Mei & Chu 2016,
 * Jia et al. 2018 and Luo et al. 2024 for GPUs): a chase of dependent
 * loads for latency, reads of a working set for bandwidth, local memory at
 * strides that make bank conflicts, __constant and private memory against
 * __global, images against buffers, atomics. Every kernel leaves a result
 * the host checks (a chase's end and first return, a work-item's sum), so
 * no load can be dropped by the compiler without the check seeing it.
 *
 * Sizes and counts come in as arguments, so one program serves every
 * working set; only the private array's length is a build option. */

/* ---- latency: a chase of dependent loads ----
 * next[] holds one random cycle through every element (Sattolo's
 * algorithm, on the host): each load's address is the value the load
 * before returned, so loads cannot overlap and each costs the full latency
 * of the level that holds the working set. state[0] is where the last run
 * stopped (the next run goes on from there, 0 at first), state[1] the
 * steps from the start to the first return to element 0 (0 until then: it
 * must be the cycle's length, every element), state[2] the steps taken so
 * far. */
__kernel void hier_chase(__global const uint *next, __global uint *state, uint steps)
{
    uint j = state[0], first = state[1], done = state[2];
    for (uint i = 0; i < steps; i++) {
        j = next[j];
        if (j == 0 && first == 0)
            first = done + i + 1;
    }
    state[0] = j;
    state[1] = first;
    state[2] = done + steps;
}

/* The same chase inside __local memory: the group copies the cycle in,
 * then one work-item follows it. */
__kernel void hier_chase_local(__global const uint *next, __global uint *state, uint n, uint steps,
                               __local uint *tile)
{
    for (uint i = get_local_id(0); i < n; i += get_local_size(0))
        tile[i] = next[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        uint j = state[0], first = state[1], done = state[2];
        for (uint i = 0; i < steps; i++) {
            j = tile[j];
            if (j == 0 && first == 0)
                first = done + i + 1;
        }
        state[0] = j;
        state[1] = first;
        state[2] = done + steps;
    }
}

/* ---- bandwidth by working set ----
 * The grid reads a working set of n4 float4s per_item times a work-item:
 * work-item gid starts at float4 `start` and steps `step` float4s,
 * wrapping at n4. contiguous = 0 (GPUs): start gid, step the grid's size,
 * so neighbouring work-items read neighbouring float4s (coalesced);
 * contiguous = 1 (CPUs): each work-item a run of its own (start gid *
 * per_item, step 1), which a core's prefetcher follows. Small working sets
 * are read many times over, from the cache that holds them. Four sums a
 * work-item, so that the adds do not chain every load to the one before
 * (on a CPU core one chain holds a load per add's latency). */
#define WRAP(i, n)                                                                                 \
    if ((i) >= (n))                                                                                \
    (i) -= (n)

__kernel void hier_read(__global const float4 *src, __global float *out, uint n4, uint per_item,
                        uint step, uint contiguous)
{
    uint gid = get_global_id(0);
    uint i = contiguous ? (uint)(((ulong)gid * per_item) % n4) : gid % n4;
    float4 a0 = (float4)(0.0f), a1 = a0, a2 = a0, a3 = a0;
    uint k = 0;
    if (contiguous) {
        /* Straight runs up to the wrap. */
        for (uint left = per_item; left > 0; i = 0) {
            uint len = min(left, n4 - i);
            __global const float4 *p = src + i;
            uint j = 0;
            for (; j + 4 <= len; j += 4) {
                a0 += p[j];
                a1 += p[j + 1];
                a2 += p[j + 2];
                a3 += p[j + 3];
            }
            for (; j < len; j++)
                a0 += p[j];
            left -= len;
        }
    } else {
        for (; k + 4 <= per_item; k += 4) {
            a0 += src[i];
            i += step;
            WRAP(i, n4);
            a1 += src[i];
            i += step;
            WRAP(i, n4);
            a2 += src[i];
            i += step;
            WRAP(i, n4);
            a3 += src[i];
            i += step;
            WRAP(i, n4);
        }
        for (; k < per_item; k++) {
            a0 += src[i];
            i += step;
            WRAP(i, n4);
        }
    }
    float4 acc = (a0 + a1) + (a2 + a3);
    out[gid] = (acc.x + acc.y) + (acc.z + acc.w);
}

/* ---- __local memory: bank conflicts and broadcast ----
 * The group copies a working set of n words (a power of two) into local
 * memory, then each work-item reads `reps` words: work-item lid at step k
 * reads word (lid * stride + k) mod n. stride 1: neighbours read
 * neighbouring words, every bank once (no conflict); stride 2..32: lid and
 * lid + 32 / gcd(stride, 32) fall in one bank, and the reads of a warp are
 * serialised that many times (the conflicts the padded transpose's
 * tile[T][T+1] removes); stride 0: every work-item reads the same word
 * (a broadcast, one read for the whole warp). */
/* reps words from idx on, wrapping at mask + 1, into four sums a0..a3
 * (each read its own add chain, as hier_read's). */
#define FOUR_SUMS(words)                                                                           \
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;                                              \
    uint k = 0;                                                                                    \
    for (; k + 4 <= reps; k += 4) {                                                                \
        a0 += words[idx];                                                                          \
        a1 += words[(idx + 1) & mask];                                                             \
        a2 += words[(idx + 2) & mask];                                                             \
        a3 += words[(idx + 3) & mask];                                                             \
        idx = (idx + 4) & mask;                                                                    \
    }                                                                                              \
    for (; k < reps; k++) {                                                                        \
        a0 += words[idx];                                                                          \
        idx = (idx + 1) & mask;                                                                    \
    }

__kernel void hier_local_read(__global const float *src, __global float *out, uint n, uint stride,
                              uint reps, __local float *tile)
{
    uint lid = get_local_id(0);
    for (uint i = lid; i < n; i += get_local_size(0))
        tile[i] = src[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint mask = n - 1, idx = (lid * stride) & mask;
    FOUR_SUMS(tile);
    out[get_global_id(0)] = (a0 + a1) + (a2 + a3);
}

/* ---- __constant against __global ----
 * Each work-item reads `reps` words of a table of n words (a power of two):
 * work-item gid at step k reads word (gid * spread + k) mod n. spread 0:
 * every work-item the same word at once, which the constant cache
 * broadcasts; spread 33: a different word each, which it serialises. The
 * twin reads the same through __global. */
#define TABLE_READ(table)                                                                          \
    uint gid = get_global_id(0), mask = n - 1, idx = (gid * spread) & mask;                        \
    FOUR_SUMS(table);                                                                              \
    out[gid] = (a0 + a1) + (a2 + a3)

__kernel void hier_constant_read(__constant float *table, __global float *out, uint n, uint spread,
                                 uint reps)
{
    TABLE_READ(table);
}

__kernel void hier_global_read(__global const float *table, __global float *out, uint n,
                               uint spread, uint reps)
{
    TABLE_READ(table);
}

/* ---- private memory: registers against a spilled array ----
 * Each work-item updates each element of a private array of PRIVATE_N
 * words reps times. With constant indices (the loop unrolled) the array
 * lives in registers; indexed by a value known only at run time it must
 * be addressable, so it goes to private memory in the device's memory
 * (CUDA's local memory, cached in L1). Both apply the same update to every
 * element once per step, so both end with the same array. */
#ifndef PRIVATE_N
#define PRIVATE_N 32
#endif
#define PRIVATE_MIX(x, k) (((x) ^ ((x) >> 7)) * 0x9E3779B1u + (k))

static void private_store(__global uint *out, const uint *a)
{
    uint sum = 0;
    for (uint j = 0; j < PRIVATE_N; j++)
        sum += a[j] * (j + 1);
    out[get_global_id(0)] = sum;
}

__kernel void hier_private_dynamic(__global uint *out, uint reps)
{
    uint gid = get_global_id(0);
    uint a[PRIVATE_N];
    for (uint j = 0; j < PRIVATE_N; j++)
        a[j] = gid * PRIVATE_N + j;
    uint rot = gid;
    for (uint k = 0; k < reps; k++) {
        /* j * 7 mod PRIVATE_N visits every element once (7 is odd). */
        for (uint j = 0; j < PRIVATE_N; j++) {
            uint e = (j * 7u + rot) & (PRIVATE_N - 1);
            a[e] = PRIVATE_MIX(a[e], k);
        }
        rot += 3u;
    }
    private_store(out, a);
}

__kernel void hier_private_registers(__global uint *out, uint reps)
{
    uint gid = get_global_id(0);
    uint a[PRIVATE_N];
#pragma unroll
    for (uint j = 0; j < PRIVATE_N; j++)
        a[j] = gid * PRIVATE_N + j;
    for (uint k = 0; k < reps; k++) {
#pragma unroll
        for (uint j = 0; j < PRIVATE_N; j++)
            a[j] = PRIVATE_MIX(a[j], k);
    }
    private_store(out, a);
}

/* ---- images against buffers ----
 * A width x rows image of float4 texels, read per_item times a work-item:
 * work-item gid reads column gid mod width from row gid / width on, ystep
 * rows a step (the grid's rows), wrapping at rows, into four sums. The
 * buffer twin reads the same texels in the same order from a buffer, row
 * after row. */
#define TEXEL_READ(load)                                                                           \
    uint gid = get_global_id(0), x = gid % width, y = (gid / width) % rows;                        \
    float4 a0 = (float4)(0.0f), a1 = a0, a2 = a0, a3 = a0;                                         \
    uint k = 0;                                                                                    \
    for (; k + 4 <= per_item; k += 4) {                                                            \
        a0 += load;                                                                                \
        y += ystep;                                                                                \
        WRAP(y, rows);                                                                             \
        a1 += load;                                                                                \
        y += ystep;                                                                                \
        WRAP(y, rows);                                                                             \
        a2 += load;                                                                                \
        y += ystep;                                                                                \
        WRAP(y, rows);                                                                             \
        a3 += load;                                                                                \
        y += ystep;                                                                                \
        WRAP(y, rows);                                                                             \
    }                                                                                              \
    for (; k < per_item; k++) {                                                                    \
        a0 += load;                                                                                \
        y += ystep;                                                                                \
        WRAP(y, rows);                                                                             \
    }                                                                                              \
    float4 acc = (a0 + a1) + (a2 + a3);                                                            \
    out[gid] = (acc.x + acc.y) + (acc.z + acc.w)

#ifdef __IMAGE_SUPPORT__
__constant sampler_t texel_sampler = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;

__kernel void hier_image_read(__read_only image2d_t img, __global float *out, uint width, uint rows,
                              uint per_item, uint ystep)
{
    TEXEL_READ(read_imagef(img, texel_sampler, (int2)((int)x, (int)y)));
}
#else
/* A device without images (CL_DEVICE_IMAGE_SUPPORT false) builds this
 * stand-in, which the host never launches there: the variant is skipped. */
__kernel void hier_image_read(__global float *out)
{
    out[0] = 0.0f;
}
#endif

__kernel void hier_buffer_read(__global const float4 *src, __global float *out, uint width,
                               uint rows, uint per_item, uint ystep)
{
    TEXEL_READ(src[y * width + x]);
}

/* ---- atomics ----
 * updates atomic_inc a work-item: each on a counter of its own
 * (uncontended), all on one global counter, or the group's on one __local
 * counter that one work-item then stores. */
__kernel void hier_atomic_own(__global uint *counters, uint updates)
{
    __global uint *mine = counters + get_global_id(0);
    for (uint k = 0; k < updates; k++)
        atomic_inc(mine);
}

__kernel void hier_atomic_one(__global uint *counter, uint updates)
{
    for (uint k = 0; k < updates; k++)
        atomic_inc(counter);
}

__kernel void hier_atomic_local(__global uint *out, uint updates)
{
    __local uint count;
    if (get_local_id(0) == 0)
        count = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < updates; k++)
        atomic_inc(&count);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        out[get_group_id(0)] = count;
}
