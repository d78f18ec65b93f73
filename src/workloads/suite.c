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

/* Options NULL: the CLI's defaults. */
static const struct clmem_bench_options *or_defaults(const struct clmem_bench_options *options)
{
    static const struct clmem_bench_options defaults = {.reps = CLMEM_DEFAULT_REPS,
                                                        .seed = CLMEM_DEFAULT_SEED};
    return options ? options : &defaults;
}

/* What every run of the suite or the peaks needs: a usage error naming
 * `who` otherwise. */
static int check_results(const char *who, const void *ctx, const void *peak,
                         struct clmem_result **results, size_t *n_results, struct clmem_error *err)
{
    CLMEM_REFUSE_IF(!ctx, err, "%s: 'ctx' is NULL", who);
    CLMEM_REFUSE_IF(!peak, err, "%s: 'peak' is NULL", who);
    CLMEM_REFUSE_IF(!results || !n_results, err, "%s: '%s' is NULL", who,
                    results ? "n_results" : "results");
    CLMEM_REFUSE_IF(!*results && *n_results, err, "%s: *results is NULL, *n_results %zu", who,
                    *n_results);
    return CLMEM_OK;
}

int clmem_bench_plan(const struct clmem_ctx *ctx, const struct clmem_bench_options *options,
                     size_t *steps, struct clmem_error *err)
{
    CLMEM_REFUSE_NULL(err, err);
    CLMEM_REFUSE_NULL(ctx, err);
    CLMEM_REFUSE_NULL(steps, err);
    struct clmem_suite suite = every_workload();
    return clmem_suite_plan(ctx, &suite, or_defaults(options), steps, err);
}

int clmem_bench_run(struct clmem_ctx *ctx, const struct clmem_bench_options *options,
                    struct clmem_peak *peak, struct clmem_result **results, size_t *n_results,
                    struct clmem_error *err)
{
    CLMEM_REFUSE_NULL(err, err);
    int status = check_results(__func__, ctx, peak, results, n_results, err);
    if (status)
        return status;
    struct clmem_suite suite = every_workload();
    return clmem_suite_run(ctx, &suite, or_defaults(options), peak, results, n_results, err);
}

int clmem_peak_measure(struct clmem_ctx *ctx, unsigned reps, struct clmem_peak *peak,
                       struct clmem_result **results, size_t *n_results, struct clmem_error *err)
{
    CLMEM_REFUSE_NULL(err, err);
    int status = check_results(__func__, ctx, peak, results, n_results, err);
    if (status)
        return status;
    CLMEM_REFUSE_IF(reps < 1 || reps > CLMEM_MAX_REPS, err, "%s: reps %u is out of range (1 to %u)",
                    __func__, reps, CLMEM_MAX_REPS);
    struct clmem_suite suite = every_workload();
    for (size_t i = 0; i < suite.n; i++)
        if (clmem_workload_is_peak(suite.workloads[i]))
            return clmem_peak_run(ctx, suite.workloads[i], reps, peak, results, n_results, err);
    return clmem_fail(err, CLMEM_ERR_USAGE, "no workload measures the device's peaks");
}
