/* Dot product of two float vectors of any N (CUDA course, seed 003,
 * exercise "dotProduct"): products summed in local memory per work-group,
 * the partials summed again on the device pass after pass; and a coarsened
 * kernel near the memory bandwidth, float4 grid-stride sums in registers
 * and one group summing the partials. */
#include "harness/traffic.h"
#include "harness/workload.h"

#include <stdlib.h>

enum { LOCAL_SUMS, COARSENED, ONE_PASS };

struct dot_state {
    struct clmem_sum_run sum; /* first: the harness's sum hooks read it */
    float *a, *b;
    cl_mem d_a, d_b;
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
                   .more_kernels = {"reduceCoarsened"}, .sum = CLMEM_SUM_GRID_STRIDE},
    [ONE_PASS] = {"one_pass",
                  "coarsened in one launch: the group that finishes last sums the partials "
                  "(an atomic count of finished groups, CUDA's threadFenceReduction)",
                  "dotOnePass", NULL, .roof = "read", .source = "sum_coarsened.cl",
                  .sum = CLMEM_SUM_ONE_LAUNCH,
                  /* 5001: several groups, one of them last. */
                  .check_sizes = "1000 5001"},
};

/* a and b: N floats each. */
static int dot_plan(struct clmem_run *run, struct clmem_error *err)
{
    return clmem_sum_plan(run, 2, err);
}

static int dot_setup(struct clmem_run *run, struct clmem_error *err)
{
    struct dot_state *s = run->state;
    int status;
    size_t n = s->sum.n = run->size.dim[0];
    s->sum.first_out_arg = 2; /* after a and b */
    /* One more step of depth for the rounding of each product (or its
     * absence in a multiply-add). */
    s->sum.extra_depth = 1;
    float *products;
    if (!(s->a = clmem_alloc_array(n, sizeof(float), err)) ||
        !(s->b = clmem_alloc_array(n, sizeof(float), err)) ||
        !(products = clmem_alloc_array(n, sizeof(float), err)))
        return err->status;
    /* 1s and 2s: products 1, 2 or 4 and whole partial sums, exact in float
     * while the total stays within 2^24 (see verify). */
    clmem_fill_integers(s->a, n, 1, 2, run->seed);
    clmem_fill_integers(s->b, n, 1, 2, run->seed + 1);
    /* The float products the kernels add (a contracted multiply-add on the
     * device differs by at most one rounding of each product). */
    for (size_t i = 0; i < n; i++)
        products[i] = s->a[i] * s->b[i];
    s->sum.ref = clmem_sum_kahan(products, n);
    free(products);
    char options[96];
    if ((status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, n * sizeof(float), s->a, &s->d_a,
                                      err)) ||
        (status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, n * sizeof(float), s->b, &s->d_b,
                                      err)) ||
        (status = clmem_sum_setup(run, &s->sum, options, sizeof options, err)))
        return status;
    return clmem_run_build(run, options, err);
}

/* Variant v's passes: its kernel over a and b, then the matching sum. */
static int dot_execute(struct clmem_run *run, const struct clmem_variant *v,
                       struct clmem_timing *timing, struct clmem_error *err)
{
    struct dot_state *s = run->state;
    struct clmem_sum sum = clmem_sum_of(run, &s->sum, v);
    int status = clmem_kernel_args(sum.first, err, CLMEM_ARG(s->d_a), CLMEM_ARG(s->d_b));
    if (status)
        return status;
    return clmem_sum_passes(run->ctx, &sum, &s->sum.result, timing, err);
}

static void dot_traffic(const struct clmem_run *run, const struct clmem_variant *v,
                        struct clmem_traffic *t)
{
    const struct dot_state *s = run->state;
    clmem_sum_traffic(run, &s->sum, v, 2, t);
}

static void dot_teardown(struct clmem_run *run)
{
    struct dot_state *s = run->state;
    clmem_release_mem(&s->d_a);
    clmem_release_mem(&s->d_b);
    clmem_sum_release(&s->sum);
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
    .prepare = clmem_sum_prepare,
    .verify = clmem_sum_verify,
    .traffic = dot_traffic,
    /* Two vectors of N floats read once (the partials are not counted); a
     * multiply and an add per pair of floats read: 2 flops per 8 bytes. */
    .work_per_element = 2.0 * sizeof(float),
    .flops_per_byte = 2.0 / (2.0 * sizeof(float)),
    .teardown = dot_teardown,
};
