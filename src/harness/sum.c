/* Sums on the device in passes (Kirk & Hwu ch. 5's reduction tree carried
 * over work-groups): each pass leaves one partial sum per work-group, the
 * next pass sums those, until one value remains. reduce and dot share it. */
#include "harness/traffic.h"
#include "harness/workload.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

/* WG_SIZE: a power of two the device allows (reqd_work_group_size). */
static int sum_valid(const struct clmem_device *device, const int v[])
{
    return v[0] > 0 && (v[0] & (v[0] - 1)) == 0 && (size_t)v[0] <= device->max_work_group &&
           v[1] > 0;
}

static const struct clmem_tune_param sum_space[] = {
    {"SUM_WG_SIZE", {64, 128, 256, 512, 1024}},
    {"GROUPS_PER_UNIT", {1, 2, 4, 8, 16, 32}},
};
const struct clmem_tunable clmem_sum_tunables[1] = {
    {"one_pass", sum_space, CLMEM_ARRAY_SIZE(sum_space), sum_valid, 0, 0},
};

int clmem_sum_plan(struct clmem_run *run, size_t inputs, struct clmem_error *err)
{
    size_t n = run->size.dim[0], bytes, counts[2];
    if (!clmem_mul_size(n, sizeof(float), &bytes)) {
        char text[64];
        clmem_size_format(&run->size, text, sizeof text);
        return clmem_fail(err, CLMEM_ERR_USAGE, "size '%s' is too large", text);
    }
    /* One work-item per value needs the most partials, in the smallest
     * group setup may take: the built-in one or the smallest SUM_WG_SIZE
     * tune may have kept. */
    size_t group = clmem_pick_group(&run->ctx->device, CLMEM_GROUP_SIZE);
    if ((size_t)sum_space[0].values[0] < group)
        group = (size_t)sum_space[0].values[0];
    struct clmem_sum shape = {.n = n, .group = group};
    clmem_sum_scratch(&shape, counts);
    run->n_buffers = 0;
    while (run->n_buffers < inputs)
        run->buffer_bytes[run->n_buffers++] = bytes;
    run->buffer_bytes[run->n_buffers++] = counts[0] * sizeof(float);
    run->buffer_bytes[run->n_buffers++] = counts[1] * sizeof(float);
    return CLMEM_OK;
}

int clmem_sum_setup(struct clmem_run *run, struct clmem_sum_run *s, char *options, size_t size,
                    struct clmem_error *err)
{
    int tuned[CLMEM_MAX_PARAMS];
    s->group = s->coarse_group = clmem_pick_group(&run->ctx->device, CLMEM_GROUP_SIZE);
    s->per_unit = CLMEM_SUM_GROUPS_PER_UNIT;
    if (clmem_run_tuned(run, &clmem_sum_tunables[0], tuned)) {
        s->coarse_group = (size_t)tuned[0];
        s->per_unit = (size_t)tuned[1];
    }
    s->groups = clmem_sum_first_groups(&run->ctx->device, s->n, s->coarse_group, s->per_unit);
    /* The smaller group's pass after pass needs the most partials. */
    size_t smallest = s->group < s->coarse_group ? s->group : s->coarse_group, counts[2];
    struct clmem_sum shape = {.n = s->n, .group = smallest};
    clmem_sum_scratch(&shape, counts);
    /* GROUPS_PER_UNIT is the host's (the first pass's groups): named in
     * the parameters so that results and the tuner see it. */
    snprintf(options, size, "-DWG_SIZE=%zu -DSUM_WG_SIZE=%zu -DGROUPS_PER_UNIT=%zu", s->group,
             s->coarse_group, s->per_unit);
    int status;
    if ((status = clmem_run_output_buffer(run, "partial (odd passes)", CL_MEM_READ_WRITE,
                                          counts[0] * sizeof(float), &s->scratch[0], err)) ||
        (status = clmem_run_output_buffer(run, "partial (even passes)", CL_MEM_READ_WRITE,
                                          counts[1] * sizeof(float), &s->scratch[1], err)))
        return status;
    return clmem_buffer_create(run->ctx, CL_MEM_READ_WRITE, sizeof(cl_uint), NULL, &s->done, err);
}

struct clmem_sum clmem_sum_of(const struct clmem_run *run, const struct clmem_sum_run *s,
                              const struct clmem_variant *v)
{
    int grid_stride = v->sum != CLMEM_SUM_PASSES;
    cl_kernel pass = clmem_run_more_kernel(run, v, 0);
    struct clmem_sum sum = {
        .first = clmem_run_kernel(run, v),
        .sum = pass ? pass : clmem_run_kernel(run, v),
        .first_out_arg = s->first_out_arg,
        .n = s->n,
        .group = grid_stride ? s->coarse_group : s->group,
        .first_groups = grid_stride ? s->groups : 0,
        .scratch = {s->scratch[0], s->scratch[1]},
        .done = v->sum == CLMEM_SUM_ONE_LAUNCH ? s->done : NULL,
    };
    return sum;
}

/* Untimed, before each variant: a pass that writes nothing leaves NaN. */
int clmem_sum_prepare(struct clmem_run *run, const struct clmem_variant *v, struct clmem_error *err)
{
    struct clmem_sum_run *s = run->state;
    struct clmem_sum sum = clmem_sum_of(run, s, v);
    s->result = NULL;
    return clmem_sum_poison(run->ctx, &sum, err);
}

int clmem_sum_verify(struct clmem_run *run, const struct clmem_variant *v,
                     struct clmem_check *check, struct clmem_error *err)
{
    struct clmem_sum_run *s = run->state;
    struct clmem_sum sum = clmem_sum_of(run, s, v);
    return clmem_sum_check(run->ctx, &sum, s->result, s->ref, s->extra_depth, check, err);
}

void clmem_sum_release(struct clmem_sum_run *s)
{
    clmem_release_mem(&s->scratch[0]);
    clmem_release_mem(&s->scratch[1]);
    clmem_release_mem(&s->done);
}

size_t clmem_sum_first_groups(const struct clmem_device *device, size_t n, size_t group,
                              size_t per_unit)
{
    size_t units = device->compute_units ? device->compute_units : 1;
    size_t groups = (per_unit ? per_unit : CLMEM_SUM_GROUPS_PER_UNIT) * units,
           needed = (n + 4 * group - 1) / (4 * group);
    return groups < needed ? groups : needed;
}

/* Work-groups of one pass over `count` values. */
static size_t pass_groups(const struct clmem_sum *sum, size_t count, int first)
{
    if (!sum->first_groups)
        return (count + sum->group - 1) / sum->group; /* one work-item per value */
    return first ? sum->first_groups : 1;             /* grid-stride kernels */
}

void clmem_sum_scratch(const struct clmem_sum *sum, size_t counts[2])
{
    counts[0] = pass_groups(sum, sum->n, 1);
    counts[1] = pass_groups(sum, counts[0], 0);
}

static size_t log2_size(size_t v)
{
    size_t l = 0;
    while (v > 1) {
        v >>= 1;
        l++;
    }
    return l;
}

size_t clmem_sum_depth(const struct clmem_sum *sum)
{
    size_t depth = 0, count = sum->n;
    for (int first = 1;; first = 0) {
        size_t groups = pass_groups(sum, count, first);
        if (sum->first_groups) {
            /* Each float4 lane adds ceil(count / (4 * work-items)) values in
             * turn; 2 adds join the lanes, at most 3 add the scalar tail. */
            size_t items = groups * sum->group;
            depth += (count + 4 * items - 1) / (4 * items) + 5;
        }
        depth += log2_size(sum->group); /* the tree in local memory */
        count = groups;
        if (count == 1)
            return depth;
    }
}

int clmem_sum_poison(struct clmem_ctx *ctx, const struct clmem_sum *sum, struct clmem_error *err)
{
    size_t counts[2];
    clmem_sum_scratch(sum, counts);
    int status;
    if ((status = clmem_buffer_poison(ctx, sum->scratch[0], counts[0] * sizeof(float), err)) ||
        (status = clmem_buffer_poison(ctx, sum->scratch[1], counts[1] * sizeof(float), err)))
        return status;
    /* No group counted done yet (each launch's last group sets it back). */
    if (sum->done)
        return clmem_buffer_fill_zero(ctx, sum->done, sizeof(cl_uint), err);
    return CLMEM_OK;
}

int clmem_sum_passes(struct clmem_ctx *ctx, const struct clmem_sum *sum, cl_mem *result,
                     struct clmem_timing *timing, struct clmem_error *err)
{
    cl_kernel kernel = sum->first;
    cl_uint out_arg = sum->first_out_arg;
    cl_mem in = NULL;
    size_t count = sum->n;
    int status;
    if (count == 0 || count > 0xFFFFFFFFu || sum->group == 0)
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot sum %zu values in groups of %zu", count,
                          sum->group);
    for (unsigned pass = 0;; pass++) {
        size_t groups = pass_groups(sum, count, pass == 0);
        cl_mem out = sum->scratch[pass % 2];
        cl_uint n = (cl_uint)count;
        if (pass > 0)
            CLMEM_CHECK(err, clSetKernelArg(kernel, 0, sizeof in, &in));
        CLMEM_CHECK(err, clSetKernelArg(kernel, out_arg, sizeof out, &out));
        CLMEM_CHECK(err, clSetKernelArg(kernel, out_arg + 1, sizeof n, &n));
        size_t global = groups * sum->group, local = sum->group;
        if (pass == 0 && sum->done) { /* one launch, the last group's pass in it */
            CLMEM_CHECK(err, clSetKernelArg(kernel, out_arg + 2, sizeof(cl_mem), &sum->scratch[1]));
            CLMEM_CHECK(err, clSetKernelArg(kernel, out_arg + 3, sizeof(cl_mem), &sum->done));
            if ((status = clmem_launch(ctx, kernel, 1, &global, &local, timing, err)))
                return status;
            *result = sum->scratch[1];
            return CLMEM_OK;
        }
        if ((status = clmem_launch(ctx, kernel, 1, &global, &local, timing, err)))
            return status;
        in = out;
        count = groups;
        if (count == 1)
            break;
        kernel = sum->sum;
        out_arg = 1;
    }
    *result = in;
    return CLMEM_OK;
}

int clmem_sum_check(struct clmem_ctx *ctx, const struct clmem_sum *sum, cl_mem result, double ref,
                    size_t extra_depth, struct clmem_check *check, struct clmem_error *err)
{
    if (!result)
        return clmem_fail(err, CLMEM_ERR_CL, "the sum's passes produced no result");
    float got;
    int status = clmem_buffer_read(ctx, result, sizeof got, &got, err);
    if (status)
        return status;
    /* The inputs are >= 0, so whatever the order a float sum whose longest
     * chain of additions is h has a relative error of at most h*u/(1 - h*u),
     * u = FLT_EPSILON/2 (Higham, Accuracy and Stability of Numerical
     * Algorithms, 4.2): h * FLT_EPSILON is twice that bound, the Kahan
     * reference in double exact to a few 1e-16. But the workloads' inputs
     * are whole numbers, whose sum is exact in any order up to 2^24: there
     * the check is exact, and a lost or doubled element fails at any size. */
    clmem_check_init(check, ref <= CLMEM_FLOAT_EXACT_INTEGERS
                                ? 0.0
                                : (double)(clmem_sum_depth(sum) + extra_depth) * FLT_EPSILON);
    clmem_check_value(check, ref, got, ref, "sum", 0, 0);
    snprintf(check->note, sizeof check->note, "sum %.9g (reference %.12g)", got, ref);
    /* One launch: its last group set the count back to 0, or the next
     * launch would find no last group and leave this total in place. */
    cl_uint done = 0;
    if (sum->done && (status = clmem_buffer_read(ctx, sum->done, sizeof done, &done, err)))
        return status;
    check->checked += sum->done != NULL;
    if (done)
        clmem_check_mismatch(check, "count of finished groups left at %u, not 0", (unsigned)done);
    return CLMEM_OK;
}

/* A group tree over g values in local memory: each stored once, then
 * g - 1 adds each reading two floats and writing one (Fig 5.13/5.15). */
static double tree_local_bytes(double values)
{
    return values > 0 ? sizeof(float) * (values + 3 * (values - 1)) : 0;
}

void clmem_sum_traffic(const struct clmem_run *run, const struct clmem_sum_run *s,
                       const struct clmem_variant *v, size_t inputs, struct clmem_traffic *t)
{
    (void)run;
    double n = (double)s->n, f = sizeof(float);
    /* Each input read once from global memory; one flop (an add) per
     * value summed and, with two inputs, a multiply per pair. */
    t->global_bytes = f * n * (double)inputs;
    t->flops = n * (double)inputs;
    double partials;
    if (v->sum == CLMEM_SUM_PASSES) {
        /* A work-item a value: every value goes through its group's tree,
         * then each pass writes a partial per group and the next reads it. */
        double group = s->group ? (double)s->group : 1, values = n;
        t->local_bytes = 0;
        partials = 0;
        while (values > 1) {
            double groups = ceil(values / group);
            t->local_bytes += groups * tree_local_bytes(group);
            partials += groups;
            values = groups;
        }
    } else {
        /* Grid stride: each work-item sums its share in registers, one
         * tree per group, then one group sums the groups' partials. */
        double group = s->coarse_group ? (double)s->coarse_group : 1;
        double groups = s->groups ? (double)s->groups : 1;
        t->local_bytes = (groups + 1) * tree_local_bytes(group);
        partials = groups + 1;
    }
    /* A partial written and read back. */
    t->global_bytes += 2 * f * partials;
    /* The trees' steps wait for each other, and each pass or the last
     * group's sum is a launch or a handshake of its own. */
    t->unmodelled = v->sum == CLMEM_SUM_PASSES        ? "a barrier a tree step, a launch a pass"
                    : v->sum == CLMEM_SUM_GRID_STRIDE ? "the second launch summing the partials"
                                                      : "the atomic count of finished groups";
}
