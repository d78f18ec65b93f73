/* The device's own peaks: copy and read bandwidth, fused multiply-add
 * throughput, measured as clpeak does, and what a kernel launch costs.
 * `clmem peak` and `--peak` compare every result with them. Beside them,
 * clpeak's throughput per type (FP64, FP16 where the device has them,
 * 32-bit integers): reported, but no result's roof. */
#include "harness/workload.h"

#include <math.h>
#include <stdlib.h>

enum { COPY, READ, FMA, FP64, FP16, INT32, LAUNCH };

/* Iterations of the FMA loop (the .cl default is the same) and work-items
 * per compute unit: enough to fill every unit for tens of milliseconds. */
#define FMA_ITERATIONS     512
#define FMA_ITEMS_PER_UNIT 16384
/* 8 chains of FMA_WIDTH lanes x 2 fma steps x 2 flops, as fma_peak's loop
 * body; the width is the device's (fma_width). */
#define FMA_CHAINS                     8
#define FMA_MAX_WIDTH                  16
#define FMA_STEPS_PER_ITERATION        2
#define FMA_FLOPS_PER_ITERATION(width) (FMA_CHAINS * (width)*FMA_STEPS_PER_ITERATION * 2)
/* The FMA chains' multiplier and addend: values stay in (0, 1). */
#define FMA_A 0.9990234375f
#define FMA_B 0.0009765625f
/* The integer chains' multiplier and addend (a full-period LCG's): every
 * bit of the 32 changes. */
#define INT32_A 1664525u
#define INT32_B 1013904223u
/* FP16 chains: the host rounds each step as the device's fma() does; a
 * device whose halves round through float (twice) may differ by an ulp
 * at a step, which the chains carry: 1e-2 of the value bounds it. */
#define FP16_TOLERANCE 1e-2
/* Work-items of the FMA kernel checked on the host (evenly spread). */
#define FMA_CHECKED 4096
/* float4s each work-item of read_peak reads, and whether they lie a
 * work-group apart (1: each group one contiguous block) or the whole grid
 * apart (0; peak.cl says more). Passed to the kernel, whose defaults are
 * the same; the host's reference reads the same way. */
#define READ_PER_ITEM     16
#define READ_GROUP_BLOCKS 0
/* Launches of launch_peak per timed run: enough that the first launch's
 * own start-up is a small part of the span timed. */
#define LAUNCHES 100

struct peak_state {
    size_t n, fma_items, read_items, local;
    int fma_width;
    int mad;      /* the chains use mad(): the device has no hardware fma */
    int fp16_mad; /* the same for halves (CL_DEVICE_HALF_FP_CONFIG) */
    float *src, *dst, *fma_out, *read_out;
    void *chain_out; /* fma_items of the typed chains' outputs, 8 bytes each at most */
    int launched[LAUNCHES];
    cl_mem d_src, d_dst, d_fma, d_read, d_launch, d_chain;
};

static const struct clmem_variant peak_variants[] = {
    [COPY] = {"copy", "float4 copy: the device's memory bandwidth (clpeak's global bandwidth)",
              "copy_peak", NULL, .metric_unit = "GB/s", .peak = CLMEM_PEAK_COPY},
    [READ] = {"read",
              "float4 reads, one float written per 16 read: the device's read bandwidth, the "
              "roof of reductions (clpeak's global bandwidth)",
              "read_peak", NULL, .metric_unit = "GB/s", .roof = "read", .peak = CLMEM_PEAK_READ},
    [FMA] = {"fma",
             "chains of fused multiply-adds: the device's FP32 throughput (clpeak's compute sp)",
             "fma_peak", NULL, .metric_unit = "GFLOP/s", .peak = CLMEM_PEAK_FMA,
             /* min(16384 per compute unit, --size rounded up to a group)
              * work-items: at 7, one group. */
             .check_sizes = "7"},
    [FP64] = {"fp64",
              "chains of fma() on doubles, fma's shape: the device's FP64 throughput (clpeak's "
              "compute dp)",
              "fp64_peak", NULL, .needs_extension = "cl_khr_fp64", .metric_unit = "GFLOP/s",
              .source = "peak_fp64.cl", .check_sizes = "7"},
    [FP16] = {"fp16",
              "chains of fma() on halves, fma's shape: the device's FP16 throughput (clpeak's "
              "compute hp)",
              "fp16_peak", NULL, .needs_extension = "cl_khr_fp16", .metric_unit = "GFLOP/s",
              .source = "peak_fp16.cl", .check_sizes = "7"},
    [INT32] = {"int32",
               "chains of x * a + b on 32-bit uints, fma's shape: the device's integer "
               "throughput, a multiply and an add counted as 2 operations (clpeak's compute "
               "integer)",
               "int32_peak", NULL, .metric_unit = "GIOP/s", .source = "peak_int32.cl",
               .check_sizes = "7"},
    [LAUNCH] = {"launch",
                "100 launches of a one-work-item kernel back to back: launches per second, "
                "the inverse of what one costs (clpeak's kernel latency)",
                "launch_peak", NULL, .metric_unit = "Glaunch/s", .peak = CLMEM_PEAK_LAUNCH},
};

static size_t work_group(const struct clmem_device *device)
{
    return device->max_work_group >= 256 ? 256 : device->max_work_group;
}

/* FMA work-items: FMA_ITEMS_PER_UNIT per compute unit, but no more than the
 * size rounded up to a work-group, so a small --size makes fma small too
 * (under a simulator such as Oclgrind, or in a quick test). */
/* The chains' vector width: 4 (float4, as clpeak) on GPUs, whose lanes are
 * work-items; on CPUs the device's native float width when it is 8 or 16
 * (AVX2, AVX-512), so that each FMA fills a register (float4 on AVX-512
 * measured a quarter of the roof: bench/README.md). */
static int fma_width(const struct clmem_device *device)
{
    cl_uint native = 0;
    if (!(device->type & CL_DEVICE_TYPE_CPU) ||
        clGetDeviceInfo(device->id, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof native, &native,
                        NULL) != CL_SUCCESS)
        return 4;
    return native == 16 ? 16 : native == 8 ? 8 : 4;
}

/* Not in every cl_ext.h the build may meet (cl_khr_fp16's query). */
#ifndef CL_DEVICE_HALF_FP_CONFIG
#define CL_DEVICE_HALF_FP_CONFIG 0x1033
#endif

/* Whether the device computes fma() in hardware (CL_FP_FMA in
 * CL_DEVICE_SINGLE_FP_CONFIG). One that does not must still round fma()
 * once, in software: Mesa 22.3's llvmpipe (rusticl) reports no CL_FP_FMA
 * and its fma() chains ran hundreds of times slower than the same chains
 * of x * a + b on the same cores, below its own matmul.
 * There the chains use mad(), which the device computes its fastest way
 * (fused or not), as clpeak's do. */
static int hardware_fma(const struct clmem_device *device, cl_device_info fp_config)
{
    cl_device_fp_config config = 0;
    if (clGetDeviceInfo(device->id, fp_config, sizeof config, &config, NULL) != CL_SUCCESS)
        return 1;
    return (config & CL_FP_FMA) != 0;
}

/* The FP64 chains' width: the float chains' lanes in as many bytes (8 of
 * AVX-512's 16 floats), but 4 at least, as clpeak's double4. */
static int fp64_width(int float_width)
{
    return float_width >= 8 ? float_width / 2 : 4;
}

/* Lanes of variant v's chains (fma and the typed ones). */
static int chain_width(const struct peak_state *s, const struct clmem_variant *v)
{
    return v == &peak_variants[FP64] ? fp64_width(s->fma_width) : s->fma_width;
}

/* Bytes each work-item of variant v's chains writes. */
static size_t chain_out_bytes(const struct clmem_variant *v)
{
    return v == &peak_variants[FP64] ? sizeof(cl_double) : sizeof(cl_float);
}

static size_t fma_items(const struct clmem_run *run)
{
    const struct clmem_device *device = &run->ctx->device;
    size_t units = device->compute_units ? device->compute_units : 1;
    /* The same flops per unit at any width. */
    size_t full = units * (FMA_ITEMS_PER_UNIT * 4 / (size_t)fma_width(device));
    size_t asked = clmem_round_up(run->size.dim[0], work_group(device));
    return asked < full ? asked : full;
}

/* read_peak's work-items: enough for READ_PER_ITEM float4s each to cover
 * the n / 4 float4s, in whole work-groups. */
static size_t read_items(const struct clmem_run *run)
{
    size_t n4 = run->size.dim[0] / 4;
    size_t items = (n4 + READ_PER_ITEM - 1) / READ_PER_ITEM;
    return clmem_round_up(items ? items : 1, work_group(&run->ctx->device));
}

static int peak_plan(struct clmem_run *run, struct clmem_error *err)
{
    size_t n = run->size.dim[0];
    if (n > INT32_MAX)
        return clmem_fail(err, CLMEM_ERR_USAGE, "size %zu is too large for peak", n);
    run->buffer_bytes[0] = n * sizeof(float);
    run->buffer_bytes[1] = n * sizeof(float);
    run->buffer_bytes[2] = fma_items(run) * sizeof(float);
    run->buffer_bytes[3] = read_items(run) * sizeof(float);
    run->buffer_bytes[4] = LAUNCHES * sizeof(cl_int);
    run->buffer_bytes[5] = fma_items(run) * sizeof(cl_double);
    run->n_buffers = 6;
    return CLMEM_OK;
}

static int peak_setup(struct clmem_run *run, struct clmem_error *err)
{
    struct peak_state *s = run->state;
    int status;
    s->n = run->size.dim[0];
    s->local = work_group(&run->ctx->device);
    s->fma_items = fma_items(run);
    s->fma_width = fma_width(&run->ctx->device);
    s->mad = !hardware_fma(&run->ctx->device, CL_DEVICE_SINGLE_FP_CONFIG);
    /* Asked only of a device with halves: the query is an error elsewhere. */
    s->fp16_mad = clmem_device_has_extension(&run->ctx->device, "cl_khr_fp16") &&
                  !hardware_fma(&run->ctx->device, CL_DEVICE_HALF_FP_CONFIG);
    s->read_items = read_items(run);
    if (!(s->src = clmem_alloc_array(s->n, sizeof(float), err)) ||
        !(s->dst = clmem_alloc_array(s->n, sizeof(float), err)) ||
        !(s->fma_out = clmem_alloc_array(s->fma_items, sizeof(float), err)) ||
        !(s->read_out = clmem_alloc_array(s->read_items, sizeof(float), err)) ||
        !(s->chain_out = clmem_alloc_array(s->fma_items, sizeof(cl_double), err)))
        return err->status;
    clmem_fill_uniform(s->src, s->n, -1.0f, 1.0f, run->seed);
    char options[256];
    snprintf(options, sizeof options,
             "-DFMA_ITERATIONS=%d -DFMA_WIDTH=%d -DFMA_MAD=%d -DREAD_PER_ITEM=%d "
             "-DREAD_GROUP_BLOCKS=%d -DFP64_WIDTH=%d -DFP16_MAD=%d",
             FMA_ITERATIONS, s->fma_width, s->mad, READ_PER_ITEM, READ_GROUP_BLOCKS,
             fp64_width(s->fma_width), s->fp16_mad);
    if ((status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, s->n * sizeof(float), s->src,
                                      &s->d_src, err)) ||
        (status = clmem_run_output_buffer(run, "dst", CL_MEM_WRITE_ONLY, s->n * sizeof(float),
                                          &s->d_dst, err)) ||
        (status = clmem_run_output_buffer(run, "out", CL_MEM_WRITE_ONLY,
                                          s->fma_items * sizeof(float), &s->d_fma, err)) ||
        (status = clmem_run_output_buffer(run, "sums", CL_MEM_WRITE_ONLY,
                                          s->read_items * sizeof(float), &s->d_read, err)) ||
        (status = clmem_run_output_buffer(run, "slots", CL_MEM_WRITE_ONLY,
                                          LAUNCHES * sizeof(cl_int), &s->d_launch, err)) ||
        (status = clmem_run_output_buffer(run, "chains", CL_MEM_WRITE_ONLY,
                                          s->fma_items * sizeof(cl_double), &s->d_chain, err)))
        return status;
    return clmem_run_build(run, options, err);
}

static int peak_prepare(struct clmem_run *run, const struct clmem_variant *v,
                        struct clmem_error *err)
{
    struct peak_state *s = run->state;
    switch (v - peak_variants) {
    case COPY: return clmem_buffer_poison(run->ctx, s->d_dst, s->n * sizeof(float), err);
    case READ: return clmem_buffer_poison(run->ctx, s->d_read, s->read_items * sizeof(float), err);
    case LAUNCH: return clmem_buffer_poison(run->ctx, s->d_launch, LAUNCHES * sizeof(cl_int), err);
    case FP64:
    case FP16:
    case INT32:
        return clmem_buffer_poison(run->ctx, s->d_chain, s->fma_items * sizeof(cl_double), err);
    default: return clmem_buffer_poison(run->ctx, s->d_fma, s->fma_items * sizeof(float), err);
    }
}

static int peak_execute(struct clmem_run *run, const struct clmem_variant *v,
                        struct clmem_timing *timing, struct clmem_error *err)
{
    struct peak_state *s = run->state;
    cl_kernel k = clmem_run_kernel(run, v);
    int status;
    if (v == &peak_variants[COPY]) {
        cl_int n = (cl_int)s->n;
        size_t global = s->n / 4 + 1;
        if ((status =
                 clmem_kernel_args(k, err, CLMEM_ARG(s->d_src), CLMEM_ARG(s->d_dst), CLMEM_ARG(n))))
            return status;
        return clmem_launch(run->ctx, k, 1, &global, &s->local, timing, err);
    }
    if (v == &peak_variants[READ]) {
        cl_int n = (cl_int)s->n;
        if ((status = clmem_kernel_args(k, err, CLMEM_ARG(s->d_src), CLMEM_ARG(s->d_read),
                                        CLMEM_ARG(n))))
            return status;
        return clmem_launch(run->ctx, k, 1, &s->read_items, &s->local, timing, err);
    }
    if (v == &peak_variants[LAUNCH]) {
        /* The arguments are taken at each enqueue: every launch its slot. */
        size_t one = 1;
        for (cl_int slot = 0; slot < LAUNCHES; slot++)
            if ((status = clmem_kernel_args(k, err, CLMEM_ARG(s->d_launch), CLMEM_ARG(slot))) ||
                (status = clmem_launch(run->ctx, k, 1, &one, &one, timing, err)))
                return status;
        return CLMEM_OK;
    }
    float a = FMA_A, b = FMA_B;
    cl_uint ai = INT32_A, bi = INT32_B;
    switch (v - peak_variants) {
    case INT32:
        status = clmem_kernel_args(k, err, CLMEM_ARG(s->d_chain), CLMEM_ARG(ai), CLMEM_ARG(bi));
        break;
    case FP64:
    case FP16:
        status = clmem_kernel_args(k, err, CLMEM_ARG(s->d_chain), CLMEM_ARG(a), CLMEM_ARG(b));
        break;
    default: status = clmem_kernel_args(k, err, CLMEM_ARG(s->d_fma), CLMEM_ARG(a), CLMEM_ARG(b));
    }
    if (status)
        return status;
    return clmem_launch(run->ctx, k, 1, &s->fma_items, &s->local, timing, err);
}

/* The kernel's chains, on the host, with the same exact fmaf and the same
 * order of additions, lane by lane; halves added down to four lanes. */
static float fma_reference(size_t gid, int width)
{
    float lane_sum[FMA_MAX_WIDTH];
    for (int l = 0; l < width; l++) {
        float x[FMA_CHAINS];
        x[0] = (float)(gid & 1023) * 0x1p-10f + 0.03125f * (float)l;
        for (int c = 1; c < FMA_CHAINS; c++)
            x[c] = x[0] + 0.125f * (float)c;
        for (int i = 0; i < FMA_ITERATIONS; i++)
            for (int step = 0; step < FMA_STEPS_PER_ITERATION; step++)
                for (int c = 0; c < FMA_CHAINS; c++)
                    x[c] = fmaf(x[c], FMA_A, FMA_B);
        lane_sum[l] = ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
    }
    for (int w = width; w > 4; w /= 2)
        for (int l = 0; l < w / 2; l++)
            lane_sum[l] += lane_sum[l + w / 2];
    return (lane_sum[0] + lane_sum[1]) + (lane_sum[2] + lane_sum[3]);
}

/* v rounded to the nearest half, ties to even (IEEE binary16: 11
 * significant bits, subnormals below 2^-14); the chains stay far inside
 * its range. */
static double round_half(double v)
{
    if (v == 0 || !isfinite(v))
        return v;
    int e = ilogb(v);
    if (e < -14)
        e = -14;
    return ldexp(nearbyint(ldexp(v, 10 - e)), e - 10);
}

static double round_double(double v)
{
    return v;
}

/* peak_chains.h's chains of work-item gid in double, each step and sum
 * rounded by `round`: as doubles (no rounding beyond double's own) or as
 * halves. A step's x * a + b of halves is exact in double, so rounding it
 * once is fma() on halves. */
static double chain_reference(size_t gid, int width, double (*round)(double))
{
    double lane_sum[FMA_MAX_WIDTH];
    const double a = round(FMA_A), b = round(FMA_B);
    for (int l = 0; l < width; l++) {
        double x[FMA_CHAINS];
        x[0] = round(round((double)(gid & 1023) * 0x1p-10) + round((double)l * 0.03125));
        for (int c = 1; c < FMA_CHAINS; c++)
            x[c] = round(x[c - 1] + 0.125);
        for (int i = 0; i < FMA_ITERATIONS; i++)
            for (int step = 0; step < FMA_STEPS_PER_ITERATION; step++)
                for (int c = 0; c < FMA_CHAINS; c++)
                    x[c] = round(fma(x[c], a, b));
        double p[4];
        for (int c = 0; c < 4; c++)
            p[c] = round(x[2 * c] + x[2 * c + 1]);
        lane_sum[l] = round(round(p[0] + p[1]) + round(p[2] + p[3]));
    }
    for (int w = width; w > 4; w /= 2)
        for (int l = 0; l < w / 2; l++)
            lane_sum[l] = round(lane_sum[l] + lane_sum[l + w / 2]);
    return round(round(lane_sum[0] + lane_sum[1]) + round(lane_sum[2] + lane_sum[3]));
}

/* The same chains of x * a + b on uint32, wrapping as the device's uint. */
static uint32_t int32_reference(size_t gid, int width)
{
    uint32_t lane_sum[FMA_MAX_WIDTH];
    for (int l = 0; l < width; l++) {
        uint32_t x[FMA_CHAINS];
        x[0] = (uint32_t)gid + (uint32_t)l * 0x10001u;
        for (int c = 1; c < FMA_CHAINS; c++)
            x[c] = x[c - 1] + 0x9E3779B9u;
        for (int i = 0; i < FMA_ITERATIONS; i++)
            for (int step = 0; step < FMA_STEPS_PER_ITERATION; step++)
                for (int c = 0; c < FMA_CHAINS; c++)
                    x[c] = x[c] * INT32_A + INT32_B;
        lane_sum[l] = ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
    }
    for (int w = width; w > 4; w /= 2)
        for (int l = 0; l < w / 2; l++)
            lane_sum[l] += lane_sum[l + w / 2];
    return (lane_sum[0] + lane_sum[1]) + (lane_sum[2] + lane_sum[3]);
}

/* Work-item i's output of variant v's chains, and what the host expects. */
static void chain_value(const struct peak_state *s, const struct clmem_variant *v, size_t i,
                        double *expected, double *got)
{
    int width = chain_width(s, v);
    switch (v - peak_variants) {
    case FP64:
        *expected = chain_reference(i, width, round_double);
        *got = ((const double *)s->chain_out)[i];
        break;
    case FP16:
        *expected = chain_reference(i, width, round_half);
        *got = ((const float *)s->chain_out)[i];
        break;
    case INT32:
        *expected = int32_reference(i, width);
        *got = ((const uint32_t *)s->chain_out)[i];
        break;
    default: *expected = fma_reference(i, width), *got = s->fma_out[i];
    }
}

/* read_peak's sum of work-item `gid`: the same floats added in the same
 * order, lane by lane. */
static float read_reference(const struct peak_state *s, size_t gid)
{
    size_t n4 = s->n / 4;
    float lane[4] = {0};
    size_t group = gid / s->local, lid = gid % s->local;
    for (size_t j = 0; j < READ_PER_ITEM; j++) {
        size_t i = READ_GROUP_BLOCKS ? (group * READ_PER_ITEM + j) * s->local + lid
                                     : gid + j * s->read_items;
        for (int l = 0; i < n4 && l < 4; l++)
            lane[l] += s->src[4 * i + (size_t)l];
    }
    float sum = (lane[0] + lane[1]) + (lane[2] + lane[3]);
    for (size_t j = 4 * n4; gid == 0 && j < s->n; j++)
        sum += s->src[j];
    return sum;
}

static int verify_read(struct clmem_run *run, struct peak_state *s, struct clmem_check *check,
                       struct clmem_error *err)
{
    int status =
        clmem_buffer_read(run->ctx, s->d_read, s->read_items * sizeof(float), s->read_out, err);
    if (status)
        return status;
    /* Sums of READ_PER_ITEM * 4 numbers in [-1, 1]: scaled by 64 so a sum near zero is not
     * held to a relative error it cannot have. */
    for (size_t i = 0; i < s->read_items; i++)
        clmem_check_value(check, read_reference(s, i), s->read_out[i], 4.0 * READ_PER_ITEM,
                          "sums[%zu]", i, 0);
    return CLMEM_OK;
}

static int verify_launch(struct clmem_run *run, struct peak_state *s, struct clmem_check *check,
                         struct clmem_error *err)
{
    int status = clmem_buffer_read(run->ctx, s->d_launch, sizeof s->launched, s->launched, err);
    if (status)
        return status;
    /* Every launch ran: slot i holds i + 1. */
    for (size_t i = 0; i < LAUNCHES; i++)
        clmem_check_value(check, (double)i + 1, s->launched[i], 1.0, "slots[%zu]", i, 0);
    return CLMEM_OK;
}

static int peak_verify(struct clmem_run *run, const struct clmem_variant *v,
                       struct clmem_check *check, struct clmem_error *err)
{
    struct peak_state *s = run->state;
    int status;
    clmem_check_init(check, 0.0);
    if (v == &peak_variants[COPY]) {
        if ((status = clmem_buffer_read(run->ctx, s->d_dst, s->n * sizeof(float), s->dst, err)))
            return status;
        for (size_t i = 0; i < s->n; i++)
            clmem_check_value(check, s->src[i], s->dst[i], 1.0, "dst[%zu]", i, 0);
        return CLMEM_OK;
    }
    if (v == &peak_variants[READ]) {
        clmem_check_init(check, 1e-6);
        return verify_read(run, s, check, err);
    }
    if (v == &peak_variants[LAUNCH])
        return verify_launch(run, s, check, err);
    if (v == &peak_variants[FMA])
        status =
            clmem_buffer_read(run->ctx, s->d_fma, s->fma_items * sizeof(float), s->fma_out, err);
    else
        status = clmem_buffer_read(run->ctx, s->d_chain, s->fma_items * chain_out_bytes(v),
                                   s->chain_out, err);
    if (status)
        return status;
    /* Work-items differ only by gid % 1024: checking 1024 consecutive ones
     * and a spread of the rest covers every distinct chain; the last one
     * too, which the spread may step over, so that a kernel that gets the
     * end of its range wrong is seen. */
    size_t stride = s->fma_items > FMA_CHECKED ? s->fma_items / FMA_CHECKED : 1, last = 0;
    /* fma() is rounded once, exactly as fmaf; mad() may round twice, a
     * few ulps a step that the chains' contraction (a < 1) keeps bounded
     * near ulp / (1 - a): 1e-4 of the sum. */
    if (s->mad && v == &peak_variants[FMA]) {
        clmem_check_init(check, 1e-3);
        snprintf(check->note, sizeof check->note,
                 "mad(): the device reports no hardware fma (CL_FP_FMA)");
    }
    if (v == &peak_variants[FP16]) {
        clmem_check_init(check, FP16_TOLERANCE);
        if (s->fp16_mad)
            snprintf(check->note, sizeof check->note,
                     "mad(): the device reports no hardware fma for halves (CL_FP_FMA)");
    }
    /* The integers' sums wrap: exact, relative to 2^32. */
    double scale = v == &peak_variants[INT32] ? 0x1p32 : 1.0, expected, got;
    for (size_t i = 0; i < s->fma_items; i += (i < 1024 ? 1 : stride)) {
        chain_value(s, v, i, &expected, &got);
        clmem_check_value(check, expected, got, scale, "out[%zu]", i, 0);
        last = i;
    }
    if (last + 1 < s->fma_items) {
        chain_value(s, v, s->fma_items - 1, &expected, &got);
        clmem_check_value(check, expected, got, scale, "out[%zu]", s->fma_items - 1, 0);
    }
    if (check->checked < s->fma_items)
        snprintf(check->scope, sizeof check->scope, "%zu of %zu work-items", check->checked,
                 s->fma_items);
    return CLMEM_OK;
}

static double peak_work(const struct clmem_run *run, const struct clmem_variant *v)
{
    const struct peak_state *s = run->state;
    switch (v - peak_variants) {
    case COPY: return 2.0 * (double)run->size.dim[0] * sizeof(float);
    /* n floats read, one written per work-item. */
    case READ: return (double)(run->size.dim[0] + s->read_items) * sizeof(float);
    case LAUNCH: return LAUNCHES;
    default:
        return (double)s->fma_items * FMA_ITERATIONS * FMA_FLOPS_PER_ITERATION(chain_width(s, v));
    }
}

/* copy, read and launch: no arithmetic to speak of, 0. fma: FMA_ITERATIONS
 * * FMA_FLOPS_PER_ITERATION flops per work-item over the one float it
 * writes (peak_work's flops over the 4 bytes each of fma_items stores):
 * 512 * 128 / 4 at width 4 (GPUs), 512 * 512 / 4 at 16 (AVX-512). */
static double peak_intensity(const struct clmem_run *run, const struct clmem_variant *v)
{
    int width = fma_width(&run->ctx->device);
    switch (v - peak_variants) {
    case FMA:
    case FP16: return (double)FMA_ITERATIONS * FMA_FLOPS_PER_ITERATION(width) / sizeof(float);
    case FP64:
        return (double)FMA_ITERATIONS * FMA_FLOPS_PER_ITERATION(fp64_width(width)) / sizeof(double);
    /* Integer operations are no flops: no place on a roofline. */
    case INT32: return NAN;
    default: return 0.0;
    }
}

static void peak_teardown(struct clmem_run *run)
{
    struct peak_state *s = run->state;
    clmem_release_mem(&s->d_src);
    clmem_release_mem(&s->d_dst);
    clmem_release_mem(&s->d_fma);
    clmem_release_mem(&s->d_read);
    clmem_release_mem(&s->d_launch);
    clmem_release_mem(&s->d_chain);
    free(s->src);
    free(s->dst);
    free(s->fma_out);
    free(s->read_out);
    free(s->chain_out);
}

const struct clmem_workload clmem_workload_peak = {
    .name = "peak",
    .summary = "the device's own peaks: copy and read bandwidth, FP32 FMA throughput, launch "
               "cost; FP64, FP16 and int32 throughput",
    .source = "peak.cl",
    /* 256 MiB a buffer: past the last level cache of GPUs (tens of MiB on
     * the largest), and long enough that the start and end of a launch are a
     * small part of it, as they are not at 2^24 (bench/peak-probes/).
     * --peak and bench measure GPUs at 2^28 where it fits
     * (clmem_peak_measure). */
    .default_size = "67108864",
    .size_help = "N floats to copy and to read; fma runs 16384 work-items per compute unit, at "
                 "most N rounded up to a work-group",
    .max_dims = 1,
    .check_sizes = "1001",
    .variants = peak_variants,
    .n_variants = CLMEM_ARRAY_SIZE(peak_variants),
    .metric_unit = "GB/s", /* fma's own unit is GFLOP/s */
    .state_size = sizeof(struct peak_state),
    .plan = peak_plan,
    .setup = peak_setup,
    .execute = peak_execute,
    .prepare = peak_prepare,
    .verify = peak_verify,
    .work = peak_work,
    .intensity = peak_intensity,
    .teardown = peak_teardown,
};
