/* STREAM as BabelStream runs it (UoB-HPC/BabelStream): copy, mul, add,
 * triad and dot over three arrays of N floats holding its start values,
 * reported in GB/s with its byte counts (copy, mul and dot move 2 arrays,
 * add and triad 3); and mixbench's arithmetic-intensity sweep
 * (ekondis/mixbench), GFLOP/s at 0.25 to 64 flops per byte, the curve from
 * memory-bound to compute-bound. */
#include "harness/workload.h"

#include <math.h>
#include <stdlib.h>

enum { COPY, MUL, ADD, TRIAD, DOT, INTENSITY };

/* BabelStream's start values (startA, startB, startC, startScalar). */
#define START_A 0.1f
#define START_B 0.2f
#define START_C 0.0f
#define SCALAR  0.4f
/* Groups of stream_dot per compute unit (BabelStream's dot_num_groups). */
#define DOT_GROUPS_PER_UNIT 4
/* The sweep: point k runs 2^k multiply-adds per element, 2^k / 4 flops per
 * byte (2 flops per step over a float read and one written), k = 0..8:
 * 0.25 to 64. */
#define SWEEP_LAST  8
#define SWEEP_ELEMS 4 /* stream_intensity's float4 */
/* The sweep's chains' multiplier and addend: values stay in (0, 1]. */
#define SWEEP_A 0.9990234375f
#define SWEEP_B 0.0009765625f
/* Elements of the sweep checked on the host (evenly spread, and the last). */
#define SWEEP_CHECKED 4096

struct stream_state {
    size_t n, local, dot_groups, sweep_items;
    float *a, *b, *c, *in, *sums;
    cl_mem d_a, d_b, d_c, d_sums;
};

static const struct clmem_variant stream_variants[] = {
    [COPY] = {"copy", "c = a: 2 arrays moved (BabelStream's copy)", "stream_copy"},
    [MUL] = {"mul", "b = scalar * c: 2 arrays moved (BabelStream's mul)", "stream_mul"},
    [ADD] = {"add", "c = a + b: 3 arrays moved (BabelStream's add)", "stream_add"},
    [TRIAD] = {"triad", "a = b + scalar * c: 3 arrays moved (BabelStream's triad)", "stream_triad"},
    [DOT] = {"dot",
             "sum of a * b, groups' sums in local memory, added on the host: 2 arrays read "
             "(BabelStream's dot)",
             "stream_dot", NULL, .roof = "read"},
    [INTENSITY] = {"intensity",
                   "a float read, 2^k multiply-adds, a float written: 2^k / 4 flops per byte, "
                   "k = 0..8, GFLOP/s against intensity (mixbench's sweep)",
                   "stream_intensity", NULL, "log2_steps", 0, SWEEP_LAST, .metric_unit = "GFLOP/s"},
};

/* A power of two: stream_dot's tree needs one. */
static size_t work_group(const struct clmem_device *device)
{
    size_t g = 1;
    while (g * 2 <= device->max_work_group && g * 2 <= 256)
        g *= 2;
    return g;
}

static size_t dot_groups(const struct clmem_device *device)
{
    return (device->compute_units ? device->compute_units : 1) * DOT_GROUPS_PER_UNIT;
}

static size_t sweep_items(size_t n, size_t local)
{
    return clmem_round_up((n + SWEEP_ELEMS - 1) / SWEEP_ELEMS, local);
}

static int stream_plan(struct clmem_run *run, struct clmem_error *err)
{
    size_t n = run->size.dim[0];
    /* Indices are ints, and the sweep's reach n plus a few groups. */
    if (n > INT32_MAX / 2)
        return clmem_fail(err, CLMEM_ERR_USAGE, "size %zu is too large for stream", n);
    for (size_t i = 0; i < 3; i++)
        run->buffer_bytes[i] = n * sizeof(float);
    run->buffer_bytes[3] = dot_groups(&run->ctx->device) * sizeof(float);
    run->n_buffers = 4;
    return CLMEM_OK;
}

static int stream_setup(struct clmem_run *run, struct clmem_error *err)
{
    struct stream_state *s = run->state;
    const struct clmem_device *device = &run->ctx->device;
    int status;
    s->n = run->size.dim[0];
    s->local = work_group(device);
    s->dot_groups = dot_groups(device);
    s->sweep_items = sweep_items(s->n, s->local);
    if (!(s->a = clmem_alloc_array(s->n, sizeof(float), err)) ||
        !(s->b = clmem_alloc_array(s->n, sizeof(float), err)) ||
        !(s->c = clmem_alloc_array(s->n, sizeof(float), err)) ||
        !(s->in = clmem_alloc_array(s->n, sizeof(float), err)) ||
        !(s->sums = clmem_alloc_array(s->dot_groups, sizeof(float), err)))
        return err->status;
    /* The sweep's input: distinct values, so that an element read from the
     * wrong place is seen. */
    clmem_fill_uniform(s->in, s->n, 0.0f, 1.0f, run->seed);
    char options[96];
    snprintf(options, sizeof options, "-DDOT_GROUP=%zu -DWHOLE_GROUPS=%d", s->local,
             s->n % s->local == 0);
    /* Every array is written by some kernel: each an output, with guard zones. */
    if ((status = clmem_run_output_buffer(run, "a", CL_MEM_READ_WRITE, s->n * sizeof(float),
                                          &s->d_a, err)) ||
        (status = clmem_run_output_buffer(run, "b", CL_MEM_READ_WRITE, s->n * sizeof(float),
                                          &s->d_b, err)) ||
        (status = clmem_run_output_buffer(run, "c", CL_MEM_READ_WRITE, s->n * sizeof(float),
                                          &s->d_c, err)) ||
        (status = clmem_run_output_buffer(run, "sums", CL_MEM_WRITE_ONLY,
                                          s->dot_groups * sizeof(float), &s->d_sums, err)))
        return status;
    return clmem_run_build(run, options, err);
}

/* The arrays' values before kernel v runs, as in BabelStream's first
 * iteration (copy, mul, add, triad, dot in turn from the start values):
 * each kernel then computes the same values however often it repeats,
 * since none reads what it writes. */
static void values_before(const struct clmem_variant *v, float *a, float *b, float *c)
{
    *a = START_A, *b = START_B, *c = START_C;
    if (v > &stream_variants[COPY])
        *c = *a;
    if (v > &stream_variants[MUL])
        *b = SCALAR * *c;
    if (v > &stream_variants[ADD])
        *c = *a + *b;
    if (v > &stream_variants[TRIAD])
        *a = *b + SCALAR * *c;
}

static void fill(float *x, size_t n, float value)
{
    for (size_t i = 0; i < n; i++)
        x[i] = value;
}

static int stream_prepare(struct clmem_run *run, const struct clmem_variant *v,
                          struct clmem_error *err)
{
    struct stream_state *s = run->state;
    size_t bytes = s->n * sizeof(float);
    int status;
    if (v == &stream_variants[INTENSITY]) {
        if ((status = clmem_buffer_write(run->ctx, s->d_a, bytes, s->in, err)))
            return status;
        return clmem_buffer_poison(run->ctx, s->d_c, bytes, err);
    }
    float a, b, c;
    values_before(v, &a, &b, &c);
    fill(s->a, s->n, a);
    fill(s->b, s->n, b);
    fill(s->c, s->n, c);
    if ((status = clmem_buffer_write(run->ctx, s->d_a, bytes, s->a, err)) ||
        (status = clmem_buffer_write(run->ctx, s->d_b, bytes, s->b, err)) ||
        (status = clmem_buffer_write(run->ctx, s->d_c, bytes, s->c, err)))
        return status;
    /* The array v writes starts as poison: an element it misses shows. */
    switch (v - stream_variants) {
    case COPY:
    case ADD: return clmem_buffer_poison(run->ctx, s->d_c, bytes, err);
    case MUL: return clmem_buffer_poison(run->ctx, s->d_b, bytes, err);
    case TRIAD: return clmem_buffer_poison(run->ctx, s->d_a, bytes, err);
    default: return clmem_buffer_poison(run->ctx, s->d_sums, s->dot_groups * sizeof(float), err);
    }
}

static int stream_execute(struct clmem_run *run, const struct clmem_variant *v,
                          struct clmem_timing *timing, struct clmem_error *err)
{
    struct stream_state *s = run->state;
    cl_kernel k = clmem_run_kernel(run, v);
    cl_int n = (cl_int)s->n; /* bounded by plan() */
    cl_float scalar = SCALAR;
    size_t global = clmem_round_up(s->n, s->local);
    int status;
    switch (v - stream_variants) {
    case COPY:
        status = clmem_kernel_args(k, err, CLMEM_ARG(s->d_a), CLMEM_ARG(s->d_c), CLMEM_ARG(n));
        break;
    case MUL:
        status = clmem_kernel_args(k, err, CLMEM_ARG(s->d_b), CLMEM_ARG(s->d_c), CLMEM_ARG(scalar),
                                   CLMEM_ARG(n));
        break;
    case ADD:
        status = clmem_kernel_args(k, err, CLMEM_ARG(s->d_a), CLMEM_ARG(s->d_b), CLMEM_ARG(s->d_c),
                                   CLMEM_ARG(n));
        break;
    case TRIAD:
        status = clmem_kernel_args(k, err, CLMEM_ARG(s->d_a), CLMEM_ARG(s->d_b), CLMEM_ARG(s->d_c),
                                   CLMEM_ARG(scalar), CLMEM_ARG(n));
        break;
    case DOT:
        global = s->dot_groups * s->local;
        status = clmem_kernel_args(k, err, CLMEM_ARG(s->d_a), CLMEM_ARG(s->d_b),
                                   CLMEM_ARG(s->d_sums), CLMEM_ARG(n));
        break;
    default: {
        cl_int steps = 1 << run->sweep_value;
        cl_float a = SWEEP_A, b = SWEEP_B;
        global = s->sweep_items;
        status = clmem_kernel_args(k, err, CLMEM_ARG(s->d_a), CLMEM_ARG(s->d_c), CLMEM_ARG(n),
                                   CLMEM_ARG(steps), CLMEM_ARG(a), CLMEM_ARG(b));
    }
    }
    if (status)
        return status;
    return clmem_launch(run->ctx, k, 1, &global, &s->local, timing, err);
}

/* The sweep's chain of `steps` multiply-adds from x, rounded once each
 * (mad() may round twice: the check allows for it). */
static float sweep_reference(float x, unsigned steps)
{
    for (unsigned i = 0; i < steps; i++)
        x = fmaf(x, SWEEP_A, SWEEP_B);
    return x;
}

static int verify_sweep(struct clmem_run *run, struct stream_state *s, struct clmem_check *check,
                        struct clmem_error *err)
{
    int status = clmem_buffer_read(run->ctx, s->d_c, s->n * sizeof(float), s->c, err);
    if (status)
        return status;
    unsigned steps = 1u << run->sweep_value;
    /* mad() may round the product and the sum apart: a few ulps a step,
     * which the chains' contraction (a < 1) keeps near ulp / (1 - a). */
    clmem_check_init(check, 1e-3);
    size_t stride = s->n > SWEEP_CHECKED ? s->n / SWEEP_CHECKED : 1;
    for (size_t i = 0; i < s->n; i += stride)
        clmem_check_value(check, sweep_reference(s->in[i], steps), s->c[i], 1.0, "c[%zu]", i, 0);
    if ((s->n - 1) % stride != 0)
        clmem_check_value(check, sweep_reference(s->in[s->n - 1], steps), s->c[s->n - 1], 1.0,
                          "c[%zu]", s->n - 1, 0);
    if (check->checked < s->n)
        snprintf(check->scope, sizeof check->scope, "%zu of %zu elements", check->checked, s->n);
    return CLMEM_OK;
}

/* dot's sum against N a * b: each work-item adds about N / (its work-items)
 * products in float, each addition off by half an ulp of the running sum
 * at most; the groups' trees and the products add a few more. */
static int verify_dot(struct clmem_run *run, struct stream_state *s, struct clmem_check *check,
                      struct clmem_error *err)
{
    int status =
        clmem_buffer_read(run->ctx, s->d_sums, s->dot_groups * sizeof(float), s->sums, err);
    if (status)
        return status;
    float a, b, c;
    values_before(&stream_variants[DOT], &a, &b, &c);
    double sum = 0, items = (double)(s->dot_groups * s->local);
    for (size_t g = 0; g < s->dot_groups; g++)
        sum += s->sums[g];
    double terms = ceil((double)s->n / items) + log2((double)s->local) + 2;
    clmem_check_init(check, terms * 0x1p-24);
    double expected = (double)s->n * (double)a * (double)b;
    clmem_check_value(check, expected, sum, expected, "sum", 0, 0);
    snprintf(check->note, sizeof check->note, "sum %.9g, expected %.9g", sum, expected);
    return CLMEM_OK;
}

static int stream_verify(struct clmem_run *run, const struct clmem_variant *v,
                         struct clmem_check *check, struct clmem_error *err)
{
    struct stream_state *s = run->state;
    if (v == &stream_variants[INTENSITY])
        return verify_sweep(run, s, check, err);
    if (v == &stream_variants[DOT])
        return verify_dot(run, s, check, err);
    float a, b, c;
    values_before(v, &a, &b, &c);
    cl_mem out = s->d_c;
    float expected = a; /* copy: c = a */
    const char *name = "c[%zu]";
    switch (v - stream_variants) {
    case MUL: out = s->d_b, expected = SCALAR * c, name = "b[%zu]"; break;
    case ADD: expected = a + b; break;
    case TRIAD: out = s->d_a, expected = b + SCALAR * c, name = "a[%zu]"; break;
    default: break;
    }
    int status = clmem_buffer_read(run->ctx, out, s->n * sizeof(float), s->c, err);
    if (status)
        return status;
    /* A device may fuse triad's multiply and add: an ulp apart at most. */
    clmem_check_init(check, 1e-6);
    for (size_t i = 0; i < s->n; i++)
        clmem_check_value(check, expected, s->c[i], expected, name, i, 0);
    return CLMEM_OK;
}

/* BabelStream's bytes: copy, mul and dot move 2 arrays, add and triad 3.
 * The sweep's flops: 2 per step per element. */
static double stream_work(const struct clmem_run *run, const struct clmem_variant *v)
{
    double n = (double)run->size.dim[0];
    switch (v - stream_variants) {
    case ADD:
    case TRIAD: return 3.0 * n * sizeof(float);
    case INTENSITY: return 2.0 * n * (double)(1u << run->sweep_value);
    default: return 2.0 * n * sizeof(float);
    }
}

static double stream_intensity(const struct clmem_run *run, const struct clmem_variant *v)
{
    if (v == &stream_variants[INTENSITY])
        return (double)(1u << run->sweep_value) / 4.0;
    /* mul and triad's multiplies are no measure of anything: as BabelStream, bytes alone. */
    return 0.0;
}

static void stream_teardown(struct clmem_run *run)
{
    struct stream_state *s = run->state;
    clmem_release_mem(&s->d_a);
    clmem_release_mem(&s->d_b);
    clmem_release_mem(&s->d_c);
    clmem_release_mem(&s->d_sums);
    free(s->a);
    free(s->b);
    free(s->c);
    free(s->in);
    free(s->sums);
}

static const char *const stream_bench_sizes[] = {"33554432", NULL};
static const char *const stream_bench_sizes_cpu[] = {"16777216", NULL};

const struct clmem_workload clmem_workload_stream = {
    .name = "stream",
    .summary = "BabelStream's copy, mul, add, triad and dot in GB/s; mixbench's "
               "arithmetic-intensity sweep",
    .source = "stream.cl",
    /* BabelStream's default array size, 2^25 elements. */
    .default_size = "33554432",
    .size_help = "N floats in each of the three arrays",
    .max_dims = 1,
    .check_sizes = "1 7 257 1024",
    .variants = stream_variants,
    .n_variants = CLMEM_ARRAY_SIZE(stream_variants),
    .metric_unit = "GB/s", /* intensity's own unit is GFLOP/s */
    .state_size = sizeof(struct stream_state),
    .plan = stream_plan,
    .setup = stream_setup,
    .execute = stream_execute,
    .prepare = stream_prepare,
    .verify = stream_verify,
    .work = stream_work,
    .intensity = stream_intensity,
    .teardown = stream_teardown,
    .bench_sizes = stream_bench_sizes,
    .bench_sizes_cpu = stream_bench_sizes_cpu,
};
