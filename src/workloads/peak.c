/* The device's own peaks: copy bandwidth and fused multiply-add throughput,
 * measured as clpeak does. `clmem peak` and `--peak` compare every result
 * with them. */
#include "clmem/clmem.h"

#include <math.h>
#include <stdlib.h>

enum { COPY, FMA };

/* Iterations of the FMA loop (the .cl default is the same) and work-items
 * per compute unit: enough to fill every unit for tens of milliseconds. */
#define FMA_ITERATIONS     512
#define FMA_ITEMS_PER_UNIT 16384
/* 8 chains of float4 x 2 fma steps x 2 flops, as fma_peak's loop body. */
#define FMA_CHAINS              8
#define FMA_LANES               4
#define FMA_STEPS_PER_ITERATION 2
#define FMA_FLOPS_PER_ITERATION (FMA_CHAINS * FMA_LANES * FMA_STEPS_PER_ITERATION * 2)
/* The FMA chains' multiplier and addend: values stay in (0, 1). */
#define FMA_A 0.9990234375f
#define FMA_B 0.0009765625f
/* Work-items of the FMA kernel checked on the host (evenly spread). */
#define FMA_CHECKED 4096

struct peak_state {
    size_t n, fma_items, local;
    float *src, *dst, *fma_out;
    cl_mem d_src, d_dst, d_fma;
    cl_program program;
    cl_kernel kernels[CLMEM_MAX_VARIANTS];
};

static const struct clmem_variant peak_variants[] = {
    [COPY] = {"copy", "float4 copy: the device's memory bandwidth (clpeak's global bandwidth)",
              "copy_peak", NULL, .metric_unit = "GB/s"},
    [FMA] = {"fma",
             "chains of fused multiply-adds: the device's FP32 throughput (clpeak's compute sp)",
             "fma_peak", NULL, .metric_unit = "GFLOP/s"},
};

static size_t work_group(const struct clmem_device *device)
{
    return device->max_work_group >= 256 ? 256 : device->max_work_group;
}

/* FMA work-items: FMA_ITEMS_PER_UNIT per compute unit, but no more than the
 * size rounded up to a work-group, so a small --size makes fma small too
 * (under a simulator such as Oclgrind, or in a quick test). */
static size_t fma_items(const struct clmem_run *run)
{
    const struct clmem_device *device = &run->ctx->device;
    size_t units = device->compute_units ? device->compute_units : 1;
    size_t full = units * FMA_ITEMS_PER_UNIT;
    size_t asked = clmem_round_up(run->size.dim[0], work_group(device));
    return asked < full ? asked : full;
}

static int peak_plan(struct clmem_run *run, struct clmem_error *err)
{
    if (run->size.ndims > 1)
        return clmem_fail(err, CLMEM_ERR_USAGE, "peak takes --size N (floats to copy)");
    size_t n = run->size.dim[0];
    if (n > INT32_MAX)
        return clmem_fail(err, CLMEM_ERR_USAGE, "size %zu is too large for peak", n);
    run->buffer_bytes[0] = n * sizeof(float);
    run->buffer_bytes[1] = n * sizeof(float);
    run->buffer_bytes[2] = fma_items(run) * sizeof(float);
    run->n_buffers = 3;
    return CLMEM_OK;
}

static int peak_setup(struct clmem_run *run, struct clmem_error *err)
{
    struct peak_state *s = run->state;
    int status;
    s->n = run->size.dim[0];
    s->local = work_group(&run->ctx->device);
    s->fma_items = fma_items(run);
    if (!(s->src = clmem_alloc_array(s->n, sizeof(float), err)) ||
        !(s->dst = clmem_alloc_array(s->n, sizeof(float), err)) ||
        !(s->fma_out = clmem_alloc_array(s->fma_items, sizeof(float), err)))
        return err->status;
    clmem_fill_uniform(s->src, s->n, -1.0f, 1.0f, run->seed);
    char options[64];
    snprintf(options, sizeof options, "-DFMA_ITERATIONS=%d", FMA_ITERATIONS);
    if ((status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, s->n * sizeof(float), s->src,
                                      &s->d_src, err)) ||
        (status = clmem_run_output_buffer(run, "dst", CL_MEM_WRITE_ONLY, s->n * sizeof(float),
                                          &s->d_dst, err)) ||
        (status = clmem_run_output_buffer(run, "out", CL_MEM_WRITE_ONLY,
                                          s->fma_items * sizeof(float), &s->d_fma, err)))
        return status;
    return clmem_run_build(run, options, &s->program, s->kernels, err);
}

static int peak_prepare(struct clmem_run *run, const struct clmem_variant *v,
                        struct clmem_error *err)
{
    struct peak_state *s = run->state;
    if (v == &peak_variants[COPY])
        return clmem_buffer_poison(run->ctx, s->d_dst, s->n * sizeof(float), err);
    return clmem_buffer_poison(run->ctx, s->d_fma, s->fma_items * sizeof(float), err);
}

static int peak_execute(struct clmem_run *run, const struct clmem_variant *v,
                        struct clmem_timing *timing, struct clmem_error *err)
{
    struct peak_state *s = run->state;
    cl_kernel k = s->kernels[v - peak_variants];
    int status;
    if (v == &peak_variants[COPY]) {
        cl_int n = (cl_int)s->n;
        size_t global = s->n / 4 + 1;
        if ((status = clmem_kernel_args(k, err, 3, sizeof(cl_mem), &s->d_src, sizeof(cl_mem),
                                        &s->d_dst, sizeof n, &n)))
            return status;
        return clmem_launch(run->ctx, k, 1, &global, &s->local, timing, err);
    }
    float a = FMA_A, b = FMA_B;
    if ((status =
             clmem_kernel_args(k, err, 3, sizeof(cl_mem), &s->d_fma, sizeof a, &a, sizeof b, &b)))
        return status;
    return clmem_launch(run->ctx, k, 1, &s->fma_items, &s->local, timing, err);
}

/* The kernel's chains, on the host, with the same exact fmaf and the same
 * order of additions, lane by lane. */
static float fma_reference(size_t gid)
{
    float lane_sum[FMA_LANES];
    for (int l = 0; l < FMA_LANES; l++) {
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
    return (lane_sum[0] + lane_sum[1]) + (lane_sum[2] + lane_sum[3]);
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
    if ((status =
             clmem_buffer_read(run->ctx, s->d_fma, s->fma_items * sizeof(float), s->fma_out, err)))
        return status;
    /* Work-items differ only by gid % 1024: checking 1024 consecutive ones
     * and a spread of the rest covers every distinct chain; the last one
     * too, which the spread may step over, so that a kernel that gets the
     * end of its range wrong is seen. */
    size_t stride = s->fma_items > FMA_CHECKED ? s->fma_items / FMA_CHECKED : 1, last = 0;
    for (size_t i = 0; i < s->fma_items; i += (i < 1024 ? 1 : stride)) {
        clmem_check_value(check, fma_reference(i), s->fma_out[i], 1.0, "out[%zu]", i, 0);
        last = i;
    }
    if (last + 1 < s->fma_items)
        clmem_check_value(check, fma_reference(s->fma_items - 1), s->fma_out[s->fma_items - 1], 1.0,
                          "out[%zu]", s->fma_items - 1, 0);
    if (check->checked < s->fma_items)
        snprintf(check->scope, sizeof check->scope, "%zu of %zu work-items", check->checked,
                 s->fma_items);
    return CLMEM_OK;
}

static double peak_work(const struct clmem_run *run, const struct clmem_variant *v)
{
    const struct peak_state *s = run->state;
    if (v == &peak_variants[COPY])
        return 2.0 * (double)run->size.dim[0] * sizeof(float);
    return (double)s->fma_items * FMA_ITERATIONS * FMA_FLOPS_PER_ITERATION;
}

/* copy: pure data movement, 0. fma: FMA_ITERATIONS * FMA_FLOPS_PER_ITERATION
 * flops per work-item over the one float it writes (peak_work's flops over
 * the 4 bytes each of fma_items stores): 512 * 128 / 4. */
static double peak_intensity(const struct clmem_run *run, const struct clmem_variant *v)
{
    (void)run;
    if (v == &peak_variants[COPY])
        return 0.0;
    return (double)FMA_ITERATIONS * FMA_FLOPS_PER_ITERATION / sizeof(float);
}

static void peak_teardown(struct clmem_run *run)
{
    struct peak_state *s = run->state;
    clmem_kernels_release(s->kernels);
    clmem_release_program(&s->program);
    clmem_release_mem(&s->d_src);
    clmem_release_mem(&s->d_dst);
    clmem_release_mem(&s->d_fma);
    free(s->src);
    free(s->dst);
    free(s->fma_out);
}

const struct clmem_workload clmem_workload_peak = {
    .name = "peak",
    .summary = "the device's own peaks: copy bandwidth and FP32 FMA throughput",
    .source = "peak.cl",
    .default_size = "16777216",
    .size_help = "N floats to copy; fma runs 16384 work-items per compute unit, at most N "
                 "rounded up to a work-group",
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
