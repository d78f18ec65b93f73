/* The device's peaks and the whole suite at benchmark sizes. */
#include "clmem/clmem.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The floats the peaks move. GPUs: 2^28 (1 GiB a buffer) where it fits:
 * on the H100, 2^24 read 19% less than 2^28, 2^26 4% less (a launch's
 * start and end are microseconds; bench/peak-probes); else the workload's
 * default, 2^26. CPUs: 2^24, their copies taking 100 times longer (every
 * test and PoCL bench measures the peak). */
static const char *peak_size(const struct clmem_device *device)
{
    const cl_ulong gib = 1UL << 30;
    if (!(device->type & CL_DEVICE_TYPE_GPU))
        return "16777216";
    return device->max_alloc >= gib && device->global_mem >= 4 * gib ? "268435456" : NULL;
}

int clmem_peak_measure(struct clmem_ctx *ctx, unsigned reps, struct clmem_peak *peak,
                       struct clmem_result **results, size_t *n_results, struct clmem_error *err)
{
    size_t first = *n_results;
    memset(peak, 0, sizeof *peak);
    const char *size = peak_size(&ctx->device);
    int status = clmem_run_workload(ctx, "peak", "all", size, reps, results, n_results, err);
    if (status)
        return status;
    for (size_t i = first; i < *n_results; i++) {
        const struct clmem_result *r = &(*results)[i];
        if (strcmp(r->variant, "copy") == 0)
            peak->bandwidth = r->metric;
        else if (strcmp(r->variant, "read") == 0)
            peak->read_bandwidth = r->metric;
        else if (strcmp(r->variant, "fma") == 0)
            peak->flops = r->metric;
        else if (strcmp(r->variant, "launch") == 0 && r->metric > 0)
            peak->launch_us = 1e-3 / r->metric; /* launches per ns -> us per launch */
    }
    return CLMEM_OK;
}

void clmem_results_apply_peak(struct clmem_result *results, size_t n, const struct clmem_peak *peak)
{
    for (size_t i = 0; i < n; i++) {
        struct clmem_result *r = &results[i];
        double reference = 0;
        if (strcmp(r->metric_unit, "GB/s") == 0)
            reference = strcmp(r->roof, "read") == 0 && peak->read_bandwidth > 0
                            ? peak->read_bandwidth
                            : peak->bandwidth;
        else if (strcmp(r->metric_unit, "GFLOP/s") == 0)
            reference = peak->flops;
        r->peak_fraction =
            !r->skipped && r->n_samples && reference > 0 ? r->metric / reference : NAN;
    }
}

/* Whether `name` is one of the comma-separated `list`. */
static int in_list(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && strncmp(p, name, n) == 0)
            return 1;
        p = end ? end + 1 : NULL;
    }
    return 0;
}

/* The workload's bench sizes for the device's type, or for the type the
 * options name (compare: every device at the same sizes). */
static const char *const *sizes_for(const struct clmem_workload *w, const struct clmem_ctx *ctx,
                                    const struct clmem_bench_options *options)
{
    cl_device_type type = options->sizes ? options->sizes : ctx->device.type;
    int cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
    return cpu && w->bench_sizes_cpu ? w->bench_sizes_cpu : w->bench_sizes;
}

int clmem_bench_plan(const struct clmem_ctx *ctx, const struct clmem_bench_options *options,
                     size_t *steps, struct clmem_error *err)
{
    size_t n;
    const struct clmem_workload *const *all = clmem_workloads(&n);
    int status = clmem_compare_check(NULL, options->compare, err);
    if (status || (status = clmem_compare_fits(options->compare, &ctx->device, err)))
        return status;
    /* Every name in --workloads must exist. */
    for (const char *p = options->only; p && *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
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
        int is_peak = strcmp(all[i]->name, "peak") == 0;
        if (!is_peak && options->only && !in_list(options->only, all[i]->name))
            continue;
        /* A kernel file that is missing or unreadable stops the bench
         * before any work, rather than failing its workload half-way. */
        char path[2048];
        if ((status = clmem_source_find(ctx->kernel_dir, all[i]->source, path, sizeof path, err)))
            return status;
        if (access(path, R_OK) != 0)
            return clmem_fail(err, CLMEM_ERR_USAGE, "cannot read kernel source '%s': %s", path,
                              strerror(errno));
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

static int skipped_result(const struct clmem_ctx *ctx, const struct clmem_workload *w,
                          const char *size, const char *why,
                          const struct clmem_run_options *options, struct clmem_result **results,
                          size_t *n_results, struct clmem_error *err)
{
    struct clmem_result *grown = realloc(*results, (*n_results + 1) * sizeof *grown);
    if (!grown)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    *results = grown;
    struct clmem_result *r = &grown[(*n_results)++];
    memset(r, 0, sizeof *r);
    snprintf(r->workload, sizeof r->workload, "%s", w->name);
    snprintf(r->variant, sizeof r->variant, "all");
    snprintf(r->device, sizeof r->device, "%s", ctx->device.name);
    snprintf(r->size, sizeof r->size, "%s", size);
    snprintf(r->metric_unit, sizeof r->metric_unit, "%s", w->metric_unit);
    snprintf(r->skip_reason, sizeof r->skip_reason, "%.255s", why);
    r->skipped = 1;
    r->max_rel_error = r->baseline_fraction = r->peak_fraction = r->looped_ms = NAN;
    r->reps = options->reps ? options->reps : 1;
    r->warmup = options->warmup;
    r->seed = options->seed;
    r->flops_per_byte = NAN; /* no variant, no size that ran */
    return CLMEM_OK;
}

int clmem_bench_run(struct clmem_ctx *ctx, const struct clmem_bench_options *options,
                    struct clmem_peak *peak, struct clmem_result **results, size_t *n_results,
                    struct clmem_error *err)
{
    size_t steps = 0, step = 0, n;
    int status = clmem_bench_plan(ctx, options, &steps, err);
    if (status)
        return status;
    if (options->progress)
        options->progress(options->progress_user, 0, steps, "peak", "");
    if ((status = clmem_peak_measure(ctx, options->reps, peak, results, n_results, err)))
        return status;

    int worst = CLMEM_OK, interrupted = 0;
    struct clmem_error step_err = {0};
    const struct clmem_workload *const *all = clmem_workloads(&n);
    for (size_t i = 0; i < n && !interrupted; i++) {
        const struct clmem_workload *w = all[i];
        if (strcmp(w->name, "peak") == 0 || (options->only && !in_list(options->only, w->name)))
            continue;
        const char *const *sizes = sizes_for(w, ctx, options);
        const char *const defaults[] = {w->default_size, NULL};
        if (!sizes || !sizes[0])
            sizes = defaults;
        for (size_t s = 0; sizes[s]; s++) {
            if (options->cancelled && options->cancelled(options->cancelled_user)) {
                interrupted = 1;
                break;
            }
            if (options->progress)
                options->progress(options->progress_user, ++step, steps, w->name, sizes[s]);
            struct clmem_run_options ro = {.size = sizes[s],
                                           .variant = "all",
                                           .reps = options->reps,
                                           .warmup = 1,
                                           .seed = options->seed,
                                           .cancelled = options->cancelled,
                                           .cancelled_user = options->cancelled_user};
            /* Only the workloads that can run the library compare with it. */
            if (options->compare && clmem_workload_has_library(w, options->compare))
                ro.compare = options->compare;
            struct clmem_run run;
            clmem_error_clear(&step_err);
            status = clmem_run_plan(&run, w, ctx, &ro, &step_err);
            if (status == CLMEM_OK)
                status = clmem_run_execute(&run, &ro, results, n_results, &step_err);
            clmem_run_release(&run);
            if (status == CLMEM_ERR_INTERRUPTED) {
                interrupted = 1;
                break;
            }
            /* A size the device cannot hold is not the suite's failure: it
             * is listed as skipped, with the reason. */
            if (status == CLMEM_ERR_USAGE) {
                status = skipped_result(ctx, w, sizes[s], step_err.message, &ro, results, n_results,
                                        err);
                if (status)
                    return status;
            }
            if (status == CLMEM_ERR_CL && worst != CLMEM_ERR_CL) {
                clmem_fail(err, CLMEM_ERR_CL, "%s at %s: %s", w->name, sizes[s], step_err.message);
                /* A build failure's log goes with its message. */
                free(err->log);
                err->log = step_err.log;
                step_err.log = NULL;
                worst = CLMEM_ERR_CL;
            } else if (status == CLMEM_ERR_VERIFY && worst == CLMEM_OK) {
                worst = CLMEM_ERR_VERIFY;
            }
        }
    }
    clmem_error_clear(&step_err);
    clmem_results_apply_peak(*results, *n_results, peak);
    /* Stopped early, the results so far are kept and the interruption is
     * what is reported (over a failed check or an earlier OpenCL error). */
    if (interrupted)
        return clmem_fail(err, CLMEM_ERR_INTERRUPTED, "interrupted");
    return worst;
}
