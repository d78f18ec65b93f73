/* Dot product of two float vectors of any N (CUDA course, seed 003,
 * exercise "dotProduct"): products summed in local memory per work-group,
 * the partials summed again on the device pass after pass; and a coarsened
 * kernel near the memory bandwidth, float4 grid-stride sums in registers
 * and one group summing the partials. */
#include "harness/workload.h"

#include <stdlib.h>

enum { LOCAL_SUMS, COARSENED, ONE_PASS };

struct dot_state {
    size_t n, group, groups; /* groups: the grid-stride kernels' first pass */
    size_t coarse_group;     /* the grid-stride kernels' work-group */
    float *a, *b;
    double ref;                          /* the Kahan sum of the float products in double */
    cl_mem d_a, d_b, scratch[2], result; /* result: the scratch buffer of the last sum */
    cl_mem done;                         /* one_pass's count of finished groups */
};

static const struct clmem_variant dot_variants[] = {
    [LOCAL_SUMS] = {"local_sums",
                    "exercise dotProduct: products summed in local memory per group, passes "
                    "over the partials",
                    "dotProduct", NULL, .roof = "read", .more_kernels = {"sumPartials"}},
    [COARSENED] = {"coarsened",
                   "coarsened: float4 grid-stride products in registers, one group sums the "
                   "partials",
                   "dotCoarsened", NULL, .roof = "read", .source = "sum_coarsened.cl",
                   .more_kernels = {"reduceCoarsened"}},
    [ONE_PASS] = {"one_pass",
                  "coarsened in one launch: the group that finishes last sums the partials "
                  "(an atomic count of finished groups, CUDA's threadFenceReduction)",
                  "dotOnePass", NULL, .roof = "read", .source = "sum_coarsened.cl",
                  /* 5001: several groups, one of them last. */
                  .check_sizes = "1000 5001"},
};

static int dot_plan(struct clmem_run *run, struct clmem_error *err)
{
    char text[64];
    clmem_size_format(&run->size, text, sizeof text);
    size_t n = run->size.dim[0], bytes, counts[2];
    if (!clmem_mul_size(n, sizeof(float), &bytes))
        return clmem_fail(err, CLMEM_ERR_USAGE, "size '%s' is too large", text);
    /* One work-item per value needs the most partials. */
    struct clmem_sum shape = {.n = n,
                              .group = clmem_pick_group(&run->ctx->device, CLMEM_GROUP_SIZE)};
    clmem_sum_scratch(&shape, counts);
    run->buffer_bytes[0] = bytes;
    run->buffer_bytes[1] = bytes;
    run->buffer_bytes[2] = counts[0] * sizeof(float);
    run->buffer_bytes[3] = counts[1] * sizeof(float);
    run->n_buffers = 4;
    return CLMEM_OK;
}

static int dot_setup(struct clmem_run *run, struct clmem_error *err)
{
    struct dot_state *s = run->state;
    int status;
    s->n = run->size.dim[0];
    struct clmem_sum_groups g;
    clmem_sum_choose(run, &g);
    s->group = g.group;
    s->coarse_group = g.coarse_group;
    s->groups = clmem_sum_first_groups(&run->ctx->device, s->n, s->coarse_group, g.per_unit);
    float *products;
    if (!(s->a = clmem_alloc_array(s->n, sizeof(float), err)) ||
        !(s->b = clmem_alloc_array(s->n, sizeof(float), err)) ||
        !(products = clmem_alloc_array(s->n, sizeof(float), err)))
        return err->status;
    /* In [0, 1): positive products, a well-conditioned sum. */
    /* 1s and 2s: products 1, 2 or 4 and whole partial sums, exact in float
     * while the total stays within 2^24 (see verify). */
    clmem_fill_integers(s->a, s->n, 1, 2, run->seed);
    clmem_fill_integers(s->b, s->n, 1, 2, run->seed + 1);
    /* The float products the kernels add (a contracted multiply-add on the
     * device differs by at most one rounding of each product). */
    for (size_t i = 0; i < s->n; i++)
        products[i] = s->a[i] * s->b[i];
    s->ref = clmem_sum_kahan(products, s->n);
    free(products);

    struct clmem_sum shape = {.n = s->n, .group = s->group};
    size_t counts[2];
    clmem_sum_scratch(&shape, counts);
    char options[96];
    /* GROUPS_PER_UNIT is the host's (the first pass's groups): named in
     * the parameters so that results and the tuner see it. */
    snprintf(options, sizeof options, "-DWG_SIZE=%zu -DSUM_WG_SIZE=%zu -DGROUPS_PER_UNIT=%zu",
             s->group, s->coarse_group, g.per_unit);
    if ((status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, s->n * sizeof(float), s->a,
                                      &s->d_a, err)) ||
        (status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, s->n * sizeof(float), s->b,
                                      &s->d_b, err)) ||
        (status = clmem_run_output_buffer(run, "partial (odd passes)", CL_MEM_READ_WRITE,
                                          counts[0] * sizeof(float), &s->scratch[0], err)) ||
        (status = clmem_run_output_buffer(run, "partial (even passes)", CL_MEM_READ_WRITE,
                                          counts[1] * sizeof(float), &s->scratch[1], err)) ||
        (status = clmem_buffer_create(run->ctx, CL_MEM_READ_WRITE, sizeof(cl_uint), NULL, &s->done,
                                      err)) ||
        (status = clmem_run_build(run, options, err)))
        return status;
    return CLMEM_OK;
}

/* Variant v's passes: its kernel over a and b, then the matching sum. */
static struct clmem_sum variant_sum(const struct clmem_run *run, const struct clmem_variant *v)
{
    const struct dot_state *s = run->state;
    int one_pass = v == &dot_variants[ONE_PASS];
    int coarsened = one_pass || v == &dot_variants[COARSENED];
    struct clmem_sum sum = {
        .first = clmem_run_kernel(run, v),
        .sum = clmem_run_more_kernel(run, v, 0), /* the later passes' */
        .first_out_arg = 2,
        .n = s->n,
        .group = coarsened ? s->coarse_group : s->group,
        .first_groups = coarsened ? s->groups : 0,
        .scratch = {s->scratch[0], s->scratch[1]},
        .done = one_pass ? s->done : NULL,
    };
    return sum;
}

static int dot_execute(struct clmem_run *run, const struct clmem_variant *v,
                       struct clmem_timing *timing, struct clmem_error *err)
{
    struct dot_state *s = run->state;
    struct clmem_sum sum = variant_sum(run, v);
    int status =
        clmem_kernel_args(sum.first, err, 2, sizeof(cl_mem), &s->d_a, sizeof(cl_mem), &s->d_b);
    if (status)
        return status;
    return clmem_sum_passes(run->ctx, &sum, &s->result, timing, err);
}

/* Untimed, before each variant: a pass that writes nothing leaves NaN. */
static int dot_prepare(struct clmem_run *run, const struct clmem_variant *v,
                       struct clmem_error *err)
{
    struct dot_state *s = run->state;
    struct clmem_sum sum = variant_sum(run, v);
    s->result = NULL;
    return clmem_sum_poison(run->ctx, &sum, err);
}

static int dot_verify(struct clmem_run *run, const struct clmem_variant *v,
                      struct clmem_check *check, struct clmem_error *err)
{
    struct dot_state *s = run->state;
    struct clmem_sum sum = variant_sum(run, v);
    /* One more step of depth for the rounding of each product (or its
     * absence in a multiply-add). */
    return clmem_sum_check(run->ctx, &sum, s->result, s->ref, 1, check, err);
}

static double dot_work(const struct clmem_run *run, const struct clmem_variant *v)
{
    (void)v;
    /* Two vectors of N floats read once; the partials are not counted. */
    return 2.0 * (double)run->size.dim[0] * sizeof(float);
}

/* A multiply and an add per pair of floats read: 2 flops per 8 bytes. */
static double dot_intensity(const struct clmem_run *run, const struct clmem_variant *v)
{
    (void)run;
    (void)v;
    return 2.0 / (2.0 * sizeof(float));
}

static void dot_teardown(struct clmem_run *run)
{
    struct dot_state *s = run->state;
    clmem_release_mem(&s->d_a);
    clmem_release_mem(&s->d_b);
    clmem_release_mem(&s->done);
    clmem_release_mem(&s->scratch[0]);
    clmem_release_mem(&s->scratch[1]);
    free(s->a);
    free(s->b);
}

/* 2^26 floats, and 2^28 where the launches' fixed cost weighs less. */
static const char *const dot_bench_sizes[] = {"67108864", "268435456", NULL};
static const char *const dot_bench_sizes_cpu[] = {"16777216", NULL};

const struct clmem_workload clmem_workload_dot = {
    .name = "dot",
    .summary = "dot product of two N-float vectors (exercise dotProduct): local-memory sums per "
               "group, all passes on the device",
    .source = "dot.cl",
    .default_size = "16777216",
    .bench_sizes = dot_bench_sizes,
    .bench_sizes_cpu = dot_bench_sizes_cpu,
    .size_help = "N floats per vector",
    .tunables = clmem_sum_tunables,
    .n_tunables = 1,
    .max_dims = 1,
    .check_sizes = "1000",
    .variants = dot_variants,
    .n_variants = CLMEM_ARRAY_SIZE(dot_variants),
    .metric_unit = "GB/s",
    .state_size = sizeof(struct dot_state),
    .plan = dot_plan,
    .setup = dot_setup,
    .execute = dot_execute,
    .prepare = dot_prepare,
    .verify = dot_verify,
    .work = dot_work,
    .intensity = dot_intensity,
    .teardown = dot_teardown,
};
