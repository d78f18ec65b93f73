/* Race condition and atomic operations (CUDA course, seed 003, "Race
 * condition e operazioni atomiche"): N work-items each add 1 to one int.
 * The plain `*a += 1` loses updates; atomic_inc in global memory, or in
 * local memory with one global atomic_add per group, counts exactly N. */
#include "harness/workload.h"

#include <math.h>
#include <stdlib.h>

enum { RACY, ATOMIC_GLOBAL, ATOMIC_LOCAL };

struct atomics_state {
    size_t n, group;
    cl_mem dcounter;
};

static const struct clmem_variant atomics_variants[] = {
    [RACY] = {"racy", "plain *a += 1 on one global int: lost updates expected (slide 'Esempio')",
              "add", NULL, .demonstrates_failure = 1},
    [ATOMIC_GLOBAL] = {"atomic_global",
                       "atomic_inc on the global counter (slide 'Atomic Operation', atomicAdd)",
                       "addAtomic", NULL},
    [ATOMIC_LOCAL] = {"atomic_local",
                      "atomic_inc on a __local counter, one global atomic_add per work-group",
                      "addAtomicLocal", NULL},
};

static int atomics_plan(struct clmem_run *run, struct clmem_error *err)
{
    char text[64];
    clmem_size_format(&run->size, text, sizeof text);
    /* The counter is an int: N at most INT_MAX, so even the exact count fits,
     * and the uint index of the rounded-up NDRange cannot wrap. */
    if (run->size.dim[0] > 2147483647UL)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "size '%s' is too large (at most 2147483647 work-items)", text);
    run->buffer_bytes[0] = sizeof(cl_int);
    run->n_buffers = 1;
    return CLMEM_OK;
}

static int atomics_setup(struct clmem_run *run, struct clmem_error *err)
{
    struct atomics_state *s = run->state;
    int status;
    s->n = run->size.dim[0];
    s->group = clmem_pick_group(&run->ctx->device, CLMEM_GROUP_SIZE);
    char options[64];
    snprintf(options, sizeof options, "-DWG_SIZE=%zu", s->group);
    if ((status = clmem_run_output_buffer(run, "a_d", CL_MEM_READ_WRITE, sizeof(cl_int),
                                          &s->dcounter, err)))
        return status;
    return clmem_run_build(run, options, err);
}

static int atomics_execute(struct clmem_run *run, const struct clmem_variant *v,
                           struct clmem_timing *timing, struct clmem_error *err)
{
    struct atomics_state *s = run->state;
    cl_kernel kernel = clmem_run_kernel(run, v);
    cl_uint n = (cl_uint)s->n;
    int status;
    /* The counter starts at 0 every execution; the fill is not timed. */
    if ((status = clmem_buffer_fill_zero(run->ctx, s->dcounter, sizeof(cl_int), err)) ||
        (status = clmem_kernel_args(kernel, err, CLMEM_ARG(s->dcounter), CLMEM_ARG(n))))
        return status;
    size_t global = s->n, local = s->group;
    return clmem_launch(run->ctx, kernel, 1, &global, &local, timing, err);
}

static int atomics_verify(struct clmem_run *run, const struct clmem_variant *v,
                          struct clmem_check *check, struct clmem_error *err)
{
    struct atomics_state *s = run->state;
    cl_int value;
    int status = clmem_buffer_read(run->ctx, s->dcounter, sizeof value, &value, err);
    if (status)
        return status;
    double n = (double)s->n, got = (double)value;
    clmem_check_init(check, 0.0);
    if (v == &atomics_variants[RACY]) {
        /* Lost updates are the point: any count 1..N is a correct outcome.
         * Compared with the nearest allowed count, so inside passes. */
        double nearest = got < 1.0 ? 1.0 : got > n ? n : got;
        clmem_check_value(check, nearest, got, n, "count (between 1 and N)", 0, 0);
        snprintf(check->note, sizeof check->note, "count %d of %zu (%lld updates lost)", value,
                 s->n, (long long)s->n - (long long)value);
    } else {
        clmem_check_value(check, n, got, n, "count", 0, 0);
        snprintf(check->note, sizeof check->note, "count %d of %zu", value, s->n);
    }
    return CLMEM_OK;
}

static void atomics_teardown(struct clmem_run *run)
{
    struct atomics_state *s = run->state;
    clmem_release_mem(&s->dcounter);
}

static const char *const atomics_bench_sizes[] = {"67108864", NULL};
static const char *const atomics_bench_sizes_cpu[] = {"4194304", NULL};

const struct clmem_workload clmem_workload_atomics = {
    .name = "atomics",
    .summary = "N work-items increment one counter: race condition against atomics",
    .source = "atomics.cl",
    .default_size = "4194304",
    .bench_sizes = atomics_bench_sizes,
    .bench_sizes_cpu = atomics_bench_sizes_cpu,
    .size_help = "N work-items (updates)",
    .max_dims = 1,
    .check_sizes = "1000",
    .variants = atomics_variants,
    .n_variants = CLMEM_ARRAY_SIZE(atomics_variants),
    .metric_unit = "Gupdates/s",
    .state_size = sizeof(struct atomics_state),
    .plan = atomics_plan,
    .setup = atomics_setup,
    .execute = atomics_execute,
    .verify = atomics_verify,
    .work_per_element = 1.0,
    .flops_per_byte = NAN, /* the metric counts updates */
    .teardown = atomics_teardown,
};
