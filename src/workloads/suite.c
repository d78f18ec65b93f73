/* The suite as libclmem's users see it (clmem.h): bench and the peaks
 * over every workload of the list, through the harness, which is given
 * the workloads and never looks them up. */
#include "harness/harness.h"

static struct clmem_suite every_workload(void)
{
    struct clmem_suite suite;
    suite.workloads = clmem_workloads(&suite.n);
    return suite;
}

int clmem_bench_plan(const struct clmem_ctx *ctx, const struct clmem_bench_options *options,
                     size_t *steps, struct clmem_error *err)
{
    struct clmem_suite suite = every_workload();
    return clmem_suite_plan(ctx, &suite, options, steps, err);
}

int clmem_bench_run(struct clmem_ctx *ctx, const struct clmem_bench_options *options,
                    struct clmem_peak *peak, struct clmem_result **results, size_t *n_results,
                    struct clmem_error *err)
{
    struct clmem_suite suite = every_workload();
    return clmem_suite_run(ctx, &suite, options, peak, results, n_results, err);
}

int clmem_peak_measure(struct clmem_ctx *ctx, unsigned reps, struct clmem_peak *peak,
                       struct clmem_result **results, size_t *n_results, struct clmem_error *err)
{
    struct clmem_suite suite = every_workload();
    for (size_t i = 0; i < suite.n; i++)
        if (clmem_workload_is_peak(suite.workloads[i]))
            return clmem_peak_run(ctx, suite.workloads[i], reps, peak, results, n_results, err);
    return clmem_fail(err, CLMEM_ERR_USAGE, "no workload measures the device's peaks");
}
