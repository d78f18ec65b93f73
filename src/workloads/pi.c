/* Monte-Carlo approximation of pi, the "piApproximation" exercises of the
 * CUDA course (seed 003): N points in the unit square, 4 * hits / N.
 * The hit test works on 24-bit integers (see cl/pi.cl), so the CPU reference
 * gives the exact hit count and verification asks for equality. */
#include "harness/workload.h"

#include <math.h>
#include <stdlib.h>

/* Points per work-item of device_rng: enough to hide the launch and the
 * group's reduction, few enough to keep every compute unit busy at 1<<20. */
#define SAMPLES_PER_ITEM 64
/* The estimate must lie within this many expected errors of pi. */
#define SANITY_SIGMAS 6.0

enum { HOST_RNG_GLOBAL, LOCAL_REDUCE, DEVICE_RNG };

struct pi_state {
    size_t n, group, groups;
    float *x, *y;        /* the host's random points, k / 2^24 */
    cl_int *readback;    /* hits (host_rng_global) or group partials (local_reduce) */
    uint64_t ref_host;   /* exact hits of the host's points */
    uint64_t ref_philox; /* exact hits of device_rng's points */
    cl_mem dx, dy, dhit, dpartial, dcount;
};

static const struct clmem_variant pi_variants[] = {
    [HOST_RNG_GLOBAL] = {"host_rng_global",
                         "host random numbers, one work-item per point, hits to a global array "
                         "counted on the host (pi exercise 1)",
                         "piApproximation", NULL},
    [LOCAL_REDUCE] = {"local_reduce",
                      "host random numbers, hits reduced per group in local memory, group "
                      "partials added on the host (pi exercise 2)",
                      "piApproximationShared", NULL},
    [DEVICE_RNG] = {"device_rng",
                    "Philox4x32-10 on the device keyed by --seed, SAMPLES_PER_ITEM points per "
                    "work-item, one atomic_add per group",
                    "piPhilox", NULL},
};

/* inCircle of cl/pi.cl, the same integers. */
static int in_circle(uint32_t x, uint32_t y)
{
    return (uint64_t)x * x + (uint64_t)y * y < ((uint64_t)1 << 48);
}

static int selected(const struct clmem_run *run, size_t index)
{
    for (size_t i = 0; i < run->n_variants; i++)
        if (run->variants[i] == &pi_variants[index])
            return 1;
    return 0;
}

static int uses_host_points(const struct clmem_run *run)
{
    return selected(run, HOST_RNG_GLOBAL) || selected(run, LOCAL_REDUCE);
}

static int pi_plan(struct clmem_run *run, struct clmem_error *err)
{
    char text[64];
    clmem_size_format(&run->size, text, sizeof text);
    size_t n = run->size.dim[0], group = clmem_pick_group(&run->ctx->device, CLMEM_GROUP_SIZE);
    /* The kernels index points with uint and count hits in uint: N below
     * 2^31 keeps the rounded-up NDRange and every count in range. */
    if (n > 2147483647UL)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "size '%s' is too large (at most 2147483647 points)", text);
    size_t groups = (n + group - 1) / group;
    run->n_buffers = 0;
    if (uses_host_points(run)) {
        run->buffer_bytes[run->n_buffers++] = n * sizeof(float); /* x */
        run->buffer_bytes[run->n_buffers++] = n * sizeof(float); /* y */
    }
    if (selected(run, HOST_RNG_GLOBAL))
        run->buffer_bytes[run->n_buffers++] = n * sizeof(cl_int);
    if (selected(run, LOCAL_REDUCE))
        run->buffer_bytes[run->n_buffers++] = groups * sizeof(cl_int);
    if (selected(run, DEVICE_RNG))
        run->buffer_bytes[run->n_buffers++] = sizeof(cl_uint);
    return CLMEM_OK;
}

static uint32_t to_fixed24(float u)
{
    return (uint32_t)(u * 16777216.0f);
}

static int pi_setup(struct clmem_run *run, struct clmem_error *err)
{
    struct pi_state *s = run->state;
    int status;
    s->n = run->size.dim[0];
    s->group = clmem_pick_group(&run->ctx->device, CLMEM_GROUP_SIZE);
    s->groups = (s->n + s->group - 1) / s->group;

    if (uses_host_points(run)) {
        size_t readback = selected(run, HOST_RNG_GLOBAL) ? s->n : s->groups;
        if (!(s->x = clmem_alloc_array(s->n, sizeof(float), err)) ||
            !(s->y = clmem_alloc_array(s->n, sizeof(float), err)) ||
            !(s->readback = clmem_alloc_array(readback, sizeof(cl_int), err)))
            return err->status;
        /* x = random(); y = random(): 24-bit uniforms in [0, 1). */
        clmem_fill_uniform(s->x, s->n, 0.0f, 1.0f, run->seed);
        clmem_fill_uniform(s->y, s->n, 0.0f, 1.0f, run->seed + 1);
        for (size_t j = 0; j < s->n; j++)
            s->ref_host += (uint64_t)in_circle(to_fixed24(s->x[j]), to_fixed24(s->y[j]));
        if ((status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, s->n * sizeof(float), s->x,
                                          &s->dx, err)) ||
            (status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, s->n * sizeof(float), s->y,
                                          &s->dy, err)))
            return status;
    }
    if (selected(run, HOST_RNG_GLOBAL) &&
        (status = clmem_run_output_buffer(run, "hit", CL_MEM_WRITE_ONLY, s->n * sizeof(cl_int),
                                          &s->dhit, err)))
        return status;
    if (selected(run, LOCAL_REDUCE) &&
        (status = clmem_run_output_buffer(run, "partial", CL_MEM_WRITE_ONLY,
                                          s->groups * sizeof(cl_int), &s->dpartial, err)))
        return status;
    if (selected(run, DEVICE_RNG)) {
        const uint32_t key[2] = {(uint32_t)run->seed, (uint32_t)(run->seed >> 32)};
        for (size_t j = 0; j < s->n; j++) {
            const uint32_t ctr[4] = {(uint32_t)j, 0, 0, 0};
            uint32_t r[4];
            clmem_philox4x32_10(ctr, key, r);
            s->ref_philox += (uint64_t)in_circle(r[0] >> 8, r[1] >> 8);
        }
        if ((status = clmem_run_output_buffer(run, "count", CL_MEM_READ_WRITE, sizeof(cl_uint),
                                              &s->dcount, err)))
            return status;
    }

    char options[128];
    snprintf(options, sizeof options, "-DWG_SIZE=%zu -DSAMPLES_PER_ITEM=%d", s->group,
             SAMPLES_PER_ITEM);
    return clmem_run_build(run, options, err);
}

static int pi_execute(struct clmem_run *run, const struct clmem_variant *v,
                      struct clmem_timing *timing, struct clmem_error *err)
{
    struct pi_state *s = run->state;
    cl_kernel kernel = clmem_run_kernel(run, v);
    cl_uint npoints = (cl_uint)s->n;
    size_t global = s->n, local = s->group;
    int status;
    switch (v - pi_variants) {
    case HOST_RNG_GLOBAL:
        status = clmem_kernel_args(kernel, err, CLMEM_ARG(s->dx), CLMEM_ARG(s->dy),
                                   CLMEM_ARG(s->dhit), CLMEM_ARG(npoints));
        break;
    case LOCAL_REDUCE:
        status = clmem_kernel_args(kernel, err, CLMEM_ARG(s->dx), CLMEM_ARG(s->dy),
                                   CLMEM_ARG(s->dpartial), CLMEM_ARG(npoints));
        break;
    default: {
        cl_uint key_lo = (cl_uint)run->seed, key_hi = (cl_uint)(run->seed >> 32);
        global = (s->n + SAMPLES_PER_ITEM - 1) / SAMPLES_PER_ITEM;
        /* The count starts at 0 every execution; the fill is not timed. */
        if ((status = clmem_buffer_fill_zero(run->ctx, s->dcount, sizeof(cl_uint), err)))
            return status;
        status = clmem_kernel_args(kernel, err, CLMEM_ARG(s->dcount), CLMEM_ARG(npoints),
                                   CLMEM_ARG(key_lo), CLMEM_ARG(key_hi));
        break;
    }
    }
    if (status)
        return status;
    return clmem_launch(run->ctx, kernel, 1, &global, &local, timing, err);
}

static int read_hits(struct clmem_run *run, const struct clmem_variant *v, uint64_t *hits,
                     struct clmem_error *err)
{
    struct pi_state *s = run->state;
    int status;
    *hits = 0;
    if (v == &pi_variants[DEVICE_RNG]) {
        cl_uint count;
        if ((status = clmem_buffer_read(run->ctx, s->dcount, sizeof count, &count, err)))
            return status;
        *hits = count;
        return CLMEM_OK;
    }
    /* The exercises count on the host: every hit, or every group's partial. */
    int global = v == &pi_variants[HOST_RNG_GLOBAL];
    size_t count = global ? s->n : s->groups;
    if ((status = clmem_buffer_read(run->ctx, global ? s->dhit : s->dpartial,
                                    count * sizeof(cl_int), s->readback, err)))
        return status;
    for (size_t i = 0; i < count; i++)
        *hits += (uint64_t)(int64_t)s->readback[i];
    return CLMEM_OK;
}

static int pi_verify(struct clmem_run *run, const struct clmem_variant *v,
                     struct clmem_check *check, struct clmem_error *err)
{
    struct pi_state *s = run->state;
    uint64_t hits;
    int status = read_hits(run, v, &hits, err);
    if (status)
        return status;
    uint64_t expected = v == &pi_variants[DEVICE_RNG] ? s->ref_philox : s->ref_host;
    double n = (double)s->n, estimate = 4.0 * (double)hits / n;
    double p = CL_M_PI / 4.0, expected_error = 4.0 * sqrt(p * (1.0 - p) / n);
    double bound = SANITY_SIGMAS * expected_error;

    /* Same points, integer test: the count must be exact. */
    clmem_check_init(check, 0.0);
    clmem_check_value(check, (double)expected, (double)hits, n, "hit count", 0, 0);
    /* Sanity: a correct count of uniform points lands near pi. Compared
     * with the nearest allowed value, so it passes (error 0) inside the band. */
    double nearest = fmin(fmax(estimate, CL_M_PI - bound), CL_M_PI + bound);
    clmem_check_value(check, nearest, estimate, CL_M_PI,
                      "pi estimate (at most 6 expected errors from pi)", 0, 0);
    snprintf(check->note, sizeof check->note, "pi %.6f, error %.2g, expected error %.2g", estimate,
             fabs(estimate - CL_M_PI), expected_error);
    return CLMEM_OK;
}

static void pi_teardown(struct clmem_run *run)
{
    struct pi_state *s = run->state;
    clmem_release_mem(&s->dx);
    clmem_release_mem(&s->dy);
    clmem_release_mem(&s->dhit);
    clmem_release_mem(&s->dpartial);
    clmem_release_mem(&s->dcount);
    free(s->x);
    free(s->y);
    free(s->readback);
}

static const char *const pi_bench_sizes[] = {"268435456", NULL};
static const char *const pi_bench_sizes_cpu[] = {"4194304", NULL};

const struct clmem_workload clmem_workload_pi = {
    .name = "pi",
    .summary = "Monte-Carlo estimate of pi from N random points, exact integer hit test",
    .source = "pi.cl",
    .default_size = "16777216",
    .bench_sizes = pi_bench_sizes,
    .bench_sizes_cpu = pi_bench_sizes_cpu,
    .size_help = "N points",
    .max_dims = 1,
    .check_sizes = "1000",
    .variants = pi_variants,
    .n_variants = CLMEM_ARRAY_SIZE(pi_variants),
    .metric_unit = "Gsamples/s",
    .state_size = sizeof(struct pi_state),
    .plan = pi_plan,
    .setup = pi_setup,
    .execute = pi_execute,
    .verify = pi_verify,
    .work_per_element = 1.0,
    .flops_per_byte = NAN, /* the metric counts samples */
    .teardown = pi_teardown,
};
