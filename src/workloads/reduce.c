/* Sum reduction of N floats (Kirk & Hwu ch. 5, seed 002): the textbook
 * kernels of Fig 5.13 (interleaved, divergent) and Fig 5.15 (sequential,
 * less divergent), run pass after pass over the partial sums until one
 * value remains, and a coarsened kernel near the memory bandwidth: a fixed
 * number of groups adding float4s in registers, then one group summing
 * their partials. Every pass runs on the device and is timed. */
#include "harness/traffic.h"
#include "harness/workload.h"

#include <stdlib.h>

enum { INTERLEAVED, SEQUENTIAL, COARSENED, ONE_PASS };

struct reduce_state {
    struct clmem_sum_run sum; /* first: the harness's sum hooks read it */
    float *x;
    cl_mem d_x;
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
                   "reduceCoarsened", NULL, .roof = "read", .source = "sum_coarsened.cl",
                   .sum = CLMEM_SUM_GRID_STRIDE},
    [ONE_PASS] = {"one_pass",
                  "coarsened in one launch: the group that finishes last sums the partials "
                  "(an atomic count of finished groups, CUDA's threadFenceReduction)",
                  "reduceOnePass", NULL, .roof = "read", .source = "sum_coarsened.cl",
                  .sum = CLMEM_SUM_ONE_LAUNCH,
                  /* 5001: several groups, one of them last. */
                  .check_sizes = "1000 5001"},
};

/* X: N floats. */
static int reduce_plan(struct clmem_run *run, struct clmem_error *err)
{
    return clmem_sum_plan(run, 1, err);
}

static int reduce_setup(struct clmem_run *run, struct clmem_error *err)
{
    struct reduce_state *s = run->state;
    int status;
    s->sum.n = run->size.dim[0];
    s->sum.first_out_arg = 1; /* after X */
    if (!(s->x = clmem_alloc_array(s->sum.n, sizeof(float), err)))
        return err->status;
    /* 1s and 2s: every partial sum is a whole number, exact in float while
     * the total stays within 2^24, so the check can be exact (verify). */
    clmem_fill_integers(s->x, s->sum.n, 1, 2, run->seed);
    s->sum.ref = clmem_sum_kahan(s->x, s->sum.n);
    char options[96];
    if ((status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, s->sum.n * sizeof(float), s->x,
                                      &s->d_x, err)) ||
        (status = clmem_sum_setup(run, &s->sum, options, sizeof options, err)))
        return status;
    return clmem_run_build(run, options, err);
}

/* Every textbook variant: the same kernel for every pass, over X first. */
static int reduce_execute(struct clmem_run *run, const struct clmem_variant *v,
                          struct clmem_timing *timing, struct clmem_error *err)
{
    struct reduce_state *s = run->state;
    struct clmem_sum sum = clmem_sum_of(run, &s->sum, v);
    int status = clmem_kernel_args(sum.first, err, CLMEM_ARG(s->d_x));
    if (status)
        return status;
    return clmem_sum_passes(run->ctx, &sum, &s->sum.result, timing, err);
}

static void reduce_traffic(const struct clmem_run *run, const struct clmem_variant *v,
                           struct clmem_traffic *t)
{
    const struct reduce_state *s = run->state;
    clmem_sum_traffic(run, &s->sum, v, 1, t);
    /* Fig 5.13's adders are scattered over the group: few whole
     * sub-groups retire at each step. */
    if (v == &reduce_variants[INTERLEAVED])
        t->unmodelled = "a barrier a tree step, scattered adders, a launch a pass";
}

static void reduce_teardown(struct clmem_run *run)
{
    struct reduce_state *s = run->state;
    clmem_release_mem(&s->d_x);
    clmem_sum_release(&s->sum);
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
    .prepare = clmem_sum_prepare,
    .verify = clmem_sum_verify,
    .traffic = reduce_traffic,
    /* N floats read once (the partials' passes are not counted); N - 1 adds
     * over them: about 1 flop per 4-byte float. */
    .work_per_element = sizeof(float),
    .flops_per_byte = 1.0 / sizeof(float),
    .teardown = reduce_teardown,
};
