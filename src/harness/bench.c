/* The whole suite at benchmark sizes: the workloads it is given, the
 * peak workload first (its variants measure the device's peaks). */
#include "harness/harness.h"
#include "harness/traffic.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The workload's bench sizes for the device's type, or for the type the
 * options name (compare: every device at the same sizes). */
static const char *const *sizes_for(const struct clmem_workload *w, const struct clmem_ctx *ctx,
                                    const struct clmem_bench_options *options)
{
    cl_device_type type = options->sizes ? options->sizes : ctx->device.type;
    int cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
    return cpu && w->bench_sizes_cpu ? w->bench_sizes_cpu : w->bench_sizes;
}

int clmem_suite_plan(const struct clmem_ctx *ctx, const struct clmem_suite *suite,
                     const struct clmem_bench_options *options, size_t *steps,
                     struct clmem_error *err)
{
    size_t n = suite->n;
    const struct clmem_workload *const *all = suite->workloads;
    int status = clmem_run_counts_check("clmem_bench_plan", options->reps, 0, err);
    if (status || (status = clmem_compare_check(NULL, options->compare, err)) ||
        (status = clmem_compare_fits(options->compare, &ctx->device, err)))
        return status;
    /* Every name in --workloads must exist, and name something: an empty
     * list or item ("", "dot,") would run the peaks alone. */
    for (const char *p = options->only; p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 0)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "--workloads '%s' has an empty name (try 'clmem list')",
                              options->only);
        int found = 0;
        for (size_t i = 0; i < n; i++)
            found |= strlen(all[i]->name) == len && strncmp(all[i]->name, p, len) == 0;
        if (!found)
            return clmem_fail(err, CLMEM_ERR_USAGE, "unknown workload '%.*s' (try 'clmem list')",
                              (int)len, p);
        p = end ? end + 1 : NULL;
    }
    *steps = 0;
    for (size_t i = 0; i < n; i++) {
        int is_peak = clmem_workload_is_peak(all[i]);
        if (!is_peak && options->only && !clmem_list_has(options->only, all[i]->name))
            continue;
        /* A kernel file that is missing or unreadable stops the bench
         * before any work, rather than failing its workload half-way: the
         * peak workload's for the device's peaks alone, which bench runs
         * (fp64 and the other types are `clmem peak`'s). */
        for (size_t k = 0; is_peak && k < all[i]->n_variants && !status; k++)
            if (all[i]->variants[k].peak != CLMEM_PEAK_NONE)
                status =
                    clmem_sources_check(ctx->kernel_dir, all[i], all[i]->variants[k].name, err);
        if (!is_peak)
            status = clmem_sources_check(ctx->kernel_dir, all[i], NULL, err);
        if (status)
            return status;
        if (is_peak)
            continue;
        const char *const *sizes = sizes_for(all[i], ctx, options);
        size_t count = 0;
        while (sizes && sizes[count])
            count++;
        *steps += count ? count : 1;
    }
    return CLMEM_OK;
}

/* A workload's size that ran no variant, as one result for them all:
 * skipped (a size the device cannot hold) or FAILED (an OpenCL error
 * before any variant, e.g. while planning), with the reason. */
static int unrun_result(const struct clmem_ctx *ctx, const struct clmem_workload *w,
                        const struct clmem_run_settings *run, int skipped, const char *why,
                        struct clmem_result **results, size_t *n_results, struct clmem_error *err)
{
    struct clmem_result *r =
        clmem_result_append(results, n_results, w->name, "all", ctx->device.name, run->size_text);
    if (!r)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    snprintf(r->metric_unit, sizeof r->metric_unit, "%s", w->metric_unit);
    if (skipped)
        snprintf(r->skip_reason, sizeof r->skip_reason, "%.255s", why);
    else
        snprintf(r->error, sizeof r->error, "%.255s", why);
    r->median_ms = r->min_ms = r->max_ms = r->metric = NAN;
    r->skipped = skipped;
    r->reps = run->options.reps;
    r->warmup = run->options.warmup;
    r->seed = run->options.seed;
    return CLMEM_OK;
}

/* Of one workload's results (from `first` on): a variant skipped at one
 * bench size but run at another is left out where it was skipped. A short
 * form chooses its sizes for the probes it has (hierarchy's on-chip probes
 * run at the smallest working set alone): the table shows what ran, and a
 * variant that ran nowhere keeps its skips, with their reasons. */
static void drop_skips_that_ran(struct clmem_result *results, size_t *n_results, size_t first)
{
    size_t kept = first;
    for (size_t i = first; i < *n_results; i++) {
        struct clmem_result *r = &results[i];
        int ran = 0;
        for (size_t j = first; r->skipped && j < *n_results && !ran; j++)
            ran = !results[j].skipped && strcmp(results[j].variant, r->variant) == 0;
        if (ran) {
            clmem_result_free(r);
            continue;
        }
        results[kept++] = *r;
    }
    *n_results = kept;
}

/* Each result's bound (traffic.h), as `run --peak` gives it: the peaks'
 * rates, and the __local and __constant rates of the suite's hierarchy
 * probes, run apart (their results are not the suite's). A probe that
 * fails leaves its level without a rate, and is the status. */
static int suite_bounds(struct clmem_ctx *ctx, const struct clmem_suite *suite,
                        const struct clmem_bench_options *options, size_t steps,
                        const struct clmem_peak *peak, struct clmem_result *results, size_t n,
                        struct clmem_error *err)
{
    const struct clmem_workload *hierarchy = NULL;
    for (size_t i = 0; i < suite->n; i++)
        if (!strcmp(suite->workloads[i]->name, "hierarchy"))
            hierarchy = suite->workloads[i];
    struct clmem_level_rates rates;
    struct clmem_result *probes = NULL;
    size_t n_probes = 0;
    if (options->progress && hierarchy)
        options->progress(options->progress_user, steps, steps, hierarchy->name,
                          "the __local and __constant rates");
    int status = clmem_level_rates_measure(ctx, hierarchy, options->reps, peak, &rates, &probes,
                                           &n_probes, err);
    clmem_results_free(probes, n_probes);
    if (status != CLMEM_ERR_INTERRUPTED)
        clmem_results_apply_bounds(results, n, &rates);
    return status;
}

int clmem_suite_run(struct clmem_ctx *ctx, const struct clmem_suite *suite,
                    const struct clmem_bench_options *options, struct clmem_peak *peak,
                    struct clmem_result **results, size_t *n_results, struct clmem_error *err)
{
    size_t steps = 0, step = 0, n = suite->n;
    const struct clmem_workload *const *all = suite->workloads;
    int status = clmem_suite_plan(ctx, suite, options, &steps, err);
    if (status)
        return status;
    memset(peak, 0, sizeof *peak);
    const struct clmem_workload *peak_workload = NULL;
    size_t peak_first = 0, peak_end = 0;
    for (size_t i = 0; i < n; i++) {
        if (!clmem_workload_is_peak(all[i]))
            continue;
        peak_workload = all[i];
        peak_first = *n_results;
        if (options->progress)
            options->progress(options->progress_user, 0, steps, all[i]->name, "");
        size_t first = *n_results;
        if ((status = clmem_peak_run(ctx, all[i], options->reps, peak, results, n_results, err)))
            return status;
        peak_end = *n_results;
        for (size_t r = first; options->done && r < *n_results; r++)
            options->done(options->done_user, &(*results)[r], r - first, *n_results - first);
    }

    int worst = CLMEM_OK, interrupted = 0;
    struct clmem_error step_err = {0};
    for (size_t i = 0; i < n && !interrupted; i++) {
        const struct clmem_workload *w = all[i];
        if (clmem_workload_is_peak(w) || (options->only && !clmem_list_has(options->only, w->name)))
            continue;
        /* No bench sizes: one run at the workload's default size. */
        const char *const *sizes = sizes_for(w, ctx, options);
        const char *const no_sizes[] = {NULL};
        size_t n_sizes = 0;
        while (sizes && sizes[n_sizes])
            n_sizes++;
        if (n_sizes == 0) {
            sizes = no_sizes;
            n_sizes = 1;
        }
        size_t first = *n_results;
        for (size_t s = 0; s < n_sizes; s++) {
            if (options->cancelled && options->cancelled(options->cancelled_user)) {
                interrupted = 1;
                break;
            }
            struct clmem_run_options given = {.size = sizes[s],
                                              .reps = options->reps,
                                              .energy = options->energy,
                                              .warmup = CLMEM_DEFAULT_WARMUP,
                                              .seed = options->seed,
                                              .cancelled = options->cancelled,
                                              .cancelled_user = options->cancelled_user,
                                              .done = options->done,
                                              .done_user = options->done_user};
            /* Only the workloads that can run the library compare with it. */
            if (options->compare && clmem_workload_has_library(w, options->compare))
                given.compare = options->compare;
            struct clmem_run_settings ro;
            struct clmem_run run = {0};
            size_t before = *n_results;
            clmem_error_clear(&step_err);
            status = clmem_run_normalise(w, &given, &ro, &step_err);
            if (options->progress)
                options->progress(options->progress_user, ++step, steps, w->name, ro.size_text);
            if (status == CLMEM_OK)
                status = clmem_run_plan_normalised(&run, w, ctx, &ro, &step_err);
            if (status == CLMEM_OK)
                status = clmem_run_execute(&run, &ro.options, results, n_results, &step_err);
            clmem_run_release(&run);
            if (status == CLMEM_ERR_INTERRUPTED) {
                interrupted = 1;
                break;
            }
            /* A size the device cannot hold is not the suite's failure: it
             * is listed as skipped, with the reason. An OpenCL error leaves
             * FAILED results (clmem_run_execute's), or, where it came
             * before any variant ran, one FAILED result for them all. */
            int unrun = status == CLMEM_ERR_USAGE || (status == CLMEM_ERR_CL && *n_results == before);
            if (unrun) {
                int skipped = status == CLMEM_ERR_USAGE;
                int appended = unrun_result(ctx, w, &ro, skipped, step_err.message, results,
                                            n_results, err);
                if (appended)
                    return appended;
                if (skipped)
                    status = CLMEM_OK;
                if (options->done)
                    options->done(options->done_user, &(*results)[*n_results - 1], 0, 1);
            }
            if (status == CLMEM_ERR_CL && worst != CLMEM_ERR_CL) {
                clmem_fail(err, CLMEM_ERR_CL, "%s at %s: %s", w->name, ro.size_text,
                           step_err.message);
                /* A build failure's log goes with its message. */
                free(err->log);
                err->log = step_err.log;
                step_err.log = NULL;
                worst = CLMEM_ERR_CL;
            } else if (status == CLMEM_ERR_VERIFY && worst == CLMEM_OK) {
                worst = CLMEM_ERR_VERIFY;
            }
        }
        drop_skips_that_ran(*results, n_results, first);
    }
    clmem_error_clear(&step_err);
    clmem_results_apply_peak(*results, *n_results, peak);
    /* A roof below a result of its own run was measured at a busier
     * moment: measured again, the higher kept (each peak result says so),
     * and what is still above it is flagged in its note. */
    if (!interrupted && peak_workload &&
        clmem_results_above_roof(*results + peak_end, *n_results - peak_end)) {
        if (options->progress)
            options->progress(options->progress_user, steps, steps, peak_workload->name, "again");
        status = clmem_peak_again(ctx, peak_workload, options->reps, peak, *results + peak_first,
                                  peak_end - peak_first, &step_err);
        if (status == CLMEM_ERR_INTERRUPTED)
            interrupted = 1;
        else if (status && worst == CLMEM_OK)
            worst = clmem_fail(err, status, "the peaks measured again: %s", step_err.message);
        clmem_error_clear(&step_err);
        clmem_results_apply_peak(*results, *n_results, peak);
    }
    if (!interrupted && (peak->bandwidth > 0 || peak->flops > 0)) {
        status = suite_bounds(ctx, suite, options, steps, peak, *results + peak_end,
                              *n_results - peak_end, &step_err);
        if (status == CLMEM_ERR_INTERRUPTED)
            interrupted = 1;
        else if (status && worst == CLMEM_OK)
            worst = clmem_fail(err, status, "the __local and __constant probes: %s",
                               step_err.message);
        clmem_error_clear(&step_err);
    }
    /* Stopped early, the results so far are kept and the interruption is
     * what is reported (over a failed check or an earlier OpenCL error). */
    if (interrupted)
        return clmem_fail(err, CLMEM_ERR_INTERRUPTED, "interrupted");
    return worst;
}
