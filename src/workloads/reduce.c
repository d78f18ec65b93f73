/* Sum reduction of N floats (Kirk & Hwu ch. 5, seed 002): the textbook
 * kernels of Fig 5.13 (interleaved, divergent) and Fig 5.15 (sequential,
 * less divergent), run pass after pass over the partial sums until one
 * value remains, and a coarsened kernel near the memory bandwidth: a fixed
 * number of groups adding float4s in registers, then one group summing
 * their partials. Every pass runs on the device and is timed. */
#include "harness/workload.h"

#include <stdlib.h>

enum { INTERLEAVED, SEQUENTIAL, COARSENED, ONE_PASS };

struct reduce_state {
    size_t n, group, groups; /* groups: the grid-stride kernels' first pass */
    size_t coarse_group;     /* the grid-stride kernels' work-group */
    float *x;
    double ref;                     /* the Kahan sum of x in double */
    cl_mem d_x, scratch[2], result; /* result: the scratch buffer of the last sum */
    cl_mem done;                    /* one_pass's count of finished groups */
};

static const struct clmem_variant reduce_variants[] = {
    [INTERLEAVED] = {"interleaved",
                     "Fig 5.13: stride doubling, t % (2*stride) == 0 adds (divergent); passes "
                     "over the partials",
                     "reduceInterleaved", NULL, .roof = "read"},
    [SEQUENTIAL] = {"sequential",
                    "Fig 5.15: stride halving, t < stride adds (less divergence); passes over "
                    "the partials",
                    "reduceSequential", NULL, .roof = "read"},
    [COARSENED] = {"coarsened",
                   "coarsened (Fig 5.17's idea): float4 grid-stride sums in registers, Fig 5.15's "
                   "tree, one group sums the partials",
                   "reduceCoarsened", NULL, .roof = "read", .source = "sum_coarsened.cl"},
    [ONE_PASS] = {"one_pass",
                  "coarsened in one launch: the group that finishes last sums the partials "
                  "(an atomic count of finished groups, CUDA's threadFenceReduction)",
                  "reduceOnePass", NULL, .roof = "read", .source = "sum_coarsened.cl",
                  /* 5001: several groups, one of them last. */
                  .check_sizes = "1000 5001"},
};

/* The pass structure of variant v (kernels and buffers left to the caller). */
static struct clmem_sum sum_shape(size_t n, size_t group, size_t groups, int coarsened)
{
    struct clmem_sum sum = {.first_out_arg = 1, .n = n, .group = group};
    sum.first_groups = coarsened ? groups : 0;
    return sum;
}

static int reduce_plan(struct clmem_run *run, struct clmem_error *err)
{
    char text[64];
    clmem_size_format(&run->size, text, sizeof text);
    size_t n = run->size.dim[0], bytes, counts[2];
    if (!clmem_mul_size(n, sizeof(float), &bytes))
        return clmem_fail(err, CLMEM_ERR_USAGE, "size '%s' is too large", text);
    /* One work-item per value needs the most partials. */
    struct clmem_sum shape =
        sum_shape(n, clmem_pick_group(&run->ctx->device, CLMEM_GROUP_SIZE), 0, 0);
    clmem_sum_scratch(&shape, counts);
    run->buffer_bytes[0] = bytes;
    run->buffer_bytes[1] = counts[0] * sizeof(float);
    run->buffer_bytes[2] = counts[1] * sizeof(float);
    run->n_buffers = 3;
    return CLMEM_OK;
}

static int reduce_setup(struct clmem_run *run, struct clmem_error *err)
{
    struct reduce_state *s = run->state;
    int status;
    size_t counts[2];
    s->n = run->size.dim[0];
    struct clmem_sum_groups g;
    clmem_sum_choose(run, &g);
    s->group = g.group;
    s->coarse_group = g.coarse_group;
    s->groups = clmem_sum_first_groups(&run->ctx->device, s->n, s->coarse_group, g.per_unit);
    if (!(s->x = clmem_alloc_array(s->n, sizeof(float), err)))
        return err->status;
    /* In [0, 1): a positive, well-conditioned sum. */
    /* 1s and 2s: every partial sum is a whole number, exact in float while
     * the total stays within 2^24, so the check can be exact (verify). */
    clmem_fill_integers(s->x, s->n, 1, 2, run->seed);
    s->ref = clmem_sum_kahan(s->x, s->n);

    struct clmem_sum shape = sum_shape(s->n, s->group, s->groups, 0);
    clmem_sum_scratch(&shape, counts);
    char options[96];
    /* GROUPS_PER_UNIT is the host's (the first pass's groups): named in
     * the parameters so that results and the tuner see it. */
    snprintf(options, sizeof options, "-DWG_SIZE=%zu -DSUM_WG_SIZE=%zu -DGROUPS_PER_UNIT=%zu",
             s->group, s->coarse_group, g.per_unit);
    if ((status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, s->n * sizeof(float), s->x,
                                      &s->d_x, err)) ||
        (status = clmem_run_output_buffer(run, "partial (odd passes)", CL_MEM_READ_WRITE,
                                          counts[0] * sizeof(float), &s->scratch[0], err)) ||
        (status = clmem_run_output_buffer(run, "partial (even passes)", CL_MEM_READ_WRITE,
                                          counts[1] * sizeof(float), &s->scratch[1], err)) ||
        (status = clmem_buffer_create(run->ctx, CL_MEM_READ_WRITE, sizeof(cl_uint), NULL, &s->done,
                                      err)))
        return status;
    return clmem_run_build(run, options, err);
}

/* Every variant: the same kernel for every pass, over X first. */
static struct clmem_sum variant_sum(const struct clmem_run *run, const struct clmem_variant *v)
{
    const struct reduce_state *s = run->state;
    int one_pass = v == &reduce_variants[ONE_PASS];
    int coarsened = one_pass || v == &reduce_variants[COARSENED];
    struct clmem_sum sum =
        sum_shape(s->n, coarsened ? s->coarse_group : s->group, s->groups, coarsened);
    sum.first = sum.sum = clmem_run_kernel(run, v);
    sum.scratch[0] = s->scratch[0];
    sum.scratch[1] = s->scratch[1];
    sum.done = one_pass ? s->done : NULL;
    return sum;
}

static int reduce_execute(struct clmem_run *run, const struct clmem_variant *v,
                          struct clmem_timing *timing, struct clmem_error *err)
{
    struct reduce_state *s = run->state;
    struct clmem_sum sum = variant_sum(run, v);
    int status = clmem_kernel_args(sum.first, err, 1, sizeof(cl_mem), &s->d_x);
    if (status)
        return status;
    return clmem_sum_passes(run->ctx, &sum, &s->result, timing, err);
}

/* Untimed, before each variant: a pass that writes nothing leaves NaN. */
static int reduce_prepare(struct clmem_run *run, const struct clmem_variant *v,
                          struct clmem_error *err)
{
    struct reduce_state *s = run->state;
    struct clmem_sum sum = variant_sum(run, v);
    s->result = NULL;
    return clmem_sum_poison(run->ctx, &sum, err);
}

static int reduce_verify(struct clmem_run *run, const struct clmem_variant *v,
                         struct clmem_check *check, struct clmem_error *err)
{
    struct reduce_state *s = run->state;
    struct clmem_sum sum = variant_sum(run, v);
    return clmem_sum_check(run->ctx, &sum, s->result, s->ref, 0, check, err);
}

static double reduce_work(const struct clmem_run *run, const struct clmem_variant *v)
{
    (void)v;
    /* N floats read once; the partials' passes are not counted. */
    return (double)run->size.dim[0] * sizeof(float);
}

/* 1 add per 4-byte float read: N - 1 adds over the N floats reduce_work
 * counts, about 1/4 flop per byte. */
static double reduce_intensity(const struct clmem_run *run, const struct clmem_variant *v)
{
    (void)run;
    (void)v;
    return 1.0 / sizeof(float);
}

static void reduce_teardown(struct clmem_run *run)
{
    struct reduce_state *s = run->state;
    clmem_release_mem(&s->d_x);
    clmem_release_mem(&s->scratch[0]);
    clmem_release_mem(&s->scratch[1]);
    clmem_release_mem(&s->done);
    free(s->x);
}

/* 2^26 floats, and 2^28 where the launches' fixed cost weighs less. */
static const char *const reduce_bench_sizes[] = {"67108864", "268435456", NULL};
static const char *const reduce_bench_sizes_cpu[] = {"16777216", NULL};

const struct clmem_workload clmem_workload_reduce = {
    .name = "reduce",
    .summary = "sum of N floats: Kirk & Hwu's reduction trees (Fig 5.13, 5.15) and a coarsened "
               "one, all passes on the device",
    .source = "reduce.cl",
    .default_size = "16777216",
    .bench_sizes = reduce_bench_sizes,
    .bench_sizes_cpu = reduce_bench_sizes_cpu,
    .size_help = "N floats to sum",
    .tunables = clmem_sum_tunables,
    .n_tunables = 1,
    .max_dims = 1,
    .check_sizes = "1000",
    .variants = reduce_variants,
    .n_variants = CLMEM_ARRAY_SIZE(reduce_variants),
    .metric_unit = "GB/s",
    .state_size = sizeof(struct reduce_state),
    .plan = reduce_plan,
    .setup = reduce_setup,
    .execute = reduce_execute,
    .prepare = reduce_prepare,
    .verify = reduce_verify,
    .work = reduce_work,
    .intensity = reduce_intensity,
    .teardown = reduce_teardown,
};
