/* The device's own peaks (the peak workload), and each result's fraction
 * of them. */
#include "harness/harness.h"

#include <math.h>
#include <string.h>

/* The floats the peaks move. GPUs: 2^28 (1 GiB a buffer) where it fits,
 * as smaller buffers read less, a launch's start and end being
 * microseconds (bench/README.md, "Peaks, the read roof and launches");
 * else the workload's default, 2^26. CPUs: 2^24, their copies taking 100
 * times longer (every test and PoCL bench measures the peak). */
static const char *peak_size(const struct clmem_device *device)
{
    const cl_ulong gib = 1UL << 30;
    if (!(device->type & CL_DEVICE_TYPE_GPU))
        return "16777216";
    return device->max_alloc >= gib && device->global_mem >= 4 * gib ? "268435456" : NULL;
}

int clmem_workload_is_peak(const struct clmem_workload *w)
{
    for (size_t i = 0; i < w->n_variants; i++)
        if (w->variants[i].peak != CLMEM_PEAK_NONE)
            return 1;
    return 0;
}

/* *peak from the peak workload's results, by their variants' roles. */
static void peak_from(const struct clmem_workload *peak_workload,
                      const struct clmem_result *results, size_t n, struct clmem_peak *peak)
{
    for (size_t i = 0; i < n; i++) {
        const struct clmem_result *r = &results[i];
        const struct clmem_variant *v = clmem_variant_find(peak_workload, r->variant);
        switch (v ? v->peak : CLMEM_PEAK_NONE) {
        case CLMEM_PEAK_COPY: peak->bandwidth = r->metric; break;
        case CLMEM_PEAK_READ: peak->read_bandwidth = r->metric; break;
        case CLMEM_PEAK_FMA: peak->flops = r->metric; break;
        case CLMEM_PEAK_LAUNCH:
            /* launches per ns -> us per launch */
            peak->launch_us = r->metric > 0 ? 1e-3 / r->metric : 0;
            break;
        case CLMEM_PEAK_NONE: break;
        }
    }
}

int clmem_peak_run(struct clmem_ctx *ctx, const struct clmem_workload *peak_workload, unsigned reps,
                   struct clmem_peak *peak, struct clmem_result **results, size_t *n_results,
                   struct clmem_error *err)
{
    size_t first = *n_results;
    memset(peak, 0, sizeof *peak);
    /* The peaks take the default seed, whatever the run's. */
    struct clmem_run_options options = {.size = peak_size(&ctx->device),
                                        .reps = reps,
                                        .warmup = CLMEM_DEFAULT_WARMUP,
                                        .seed = CLMEM_DEFAULT_SEED,
                                        .peaks_only = 1};
    int status = clmem_run(ctx, peak_workload, &options, results, n_results, err);
    if (status)
        return status;
    peak_from(peak_workload, *results + first, *n_results - first, peak);
    return CLMEM_OK;
}

int clmem_results_above_roof(const struct clmem_result *results, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (results[i].peak_fraction > 1)
            return 1;
    return 0;
}

int clmem_peak_again(struct clmem_ctx *ctx, const struct clmem_workload *peak_workload,
                     unsigned reps, struct clmem_peak *peak, struct clmem_result *peak_results,
                     size_t n_peak, struct clmem_error *err)
{
    struct clmem_result *again = NULL;
    size_t n_again = 0;
    struct clmem_peak second;
    int status = clmem_peak_run(ctx, peak_workload, reps, &second, &again, &n_again, err);
    for (size_t i = 0; status == CLMEM_OK && i < n_again; i++) {
        struct clmem_result *b = &again[i];
        for (size_t k = 0; k < n_peak; k++) {
            struct clmem_result *a = &peak_results[k];
            if (strcmp(a->variant, b->variant) != 0 || a->skipped || b->skipped || !b->verified)
                continue;
            /* The higher of the two is the roof (a launch: the faster). */
            double first = a->metric, second = b->metric;
            if (second > first) {
                struct clmem_result kept = *b;
                *b = *a; /* freed with `again` */
                *a = kept;
            }
            size_t len = strlen(a->note);
            snprintf(a->note + len, sizeof a->note - len,
                     "%smeasured twice, a result of the run being above the first: %.4g, then "
                     "%.4g %s; the higher is the roof",
                     len ? "; " : "", first, second, a->metric_unit);
        }
    }
    clmem_results_free(again, n_again);
    if (status == CLMEM_OK)
        peak_from(peak_workload, peak_results, n_peak, peak);
    return status;
}

/* A figure above its own roof by more than its samples' spread (and 5%)
 * is not bounded by it: a bandwidth whose bytes a run fit in a cache (the
 * roof is device memory's), or a peak that reads below the device. It is
 * said in the note with the bytes a run moves, never passed off as plain;
 * clmem compare names the cache level from the device's measured levels. */
static void flag_above_roof(struct clmem_result *r)
{
    /* Applied again (the peaks measured again), the clause is written anew. */
    char *earlier = strstr(r->note, "above its roof: ");
    if (earlier)
        *(earlier > r->note + 1 && earlier[-2] == ';' ? earlier - 2 : earlier) = '\0';
    if (!(r->peak_fraction > 1) || !(r->median_ms > 0))
        return;
    double spread = (r->max_ms - r->min_ms) / r->median_ms;
    if (r->peak_fraction <= 1 + (spread > 0.05 ? spread : 0.05))
        return;
    size_t len = strlen(r->note);
    if (strcmp(r->metric_unit, "GB/s") == 0) {
        double mib = r->metric * 1e9 * r->median_ms * 1e-3 / (1 << 20);
        snprintf(r->note + len, sizeof r->note - len,
                 "%sabove its roof: %.2fx the %s peak: its %.3g MiB a run may sit in a cache",
                 len ? "; " : "", r->peak_fraction, strcmp(r->roof, "read") == 0 ? "read" : "copy",
                 mib);
    } else {
        snprintf(r->note + len, sizeof r->note - len,
                 "%sabove its roof: %.2fx the %s peak, which reads below this kernel",
                 len ? "; " : "", r->peak_fraction,
                 strcmp(r->metric_unit, "GFLOP/s") == 0 ? "FMA" : "device's");
    }
}

int clmem_results_apply_peak(struct clmem_result *results, size_t n, const struct clmem_peak *peak)
{
    if ((!results && n) || !peak)
        return CLMEM_ERR_USAGE;
    for (size_t i = 0; i < n; i++) {
        struct clmem_result *r = &results[i];
        double reference = 0;
        if (strcmp(r->roof, "none") == 0)
            reference = 0;
        else if (strcmp(r->metric_unit, "GB/s") == 0)
            reference = strcmp(r->roof, "read") == 0 && peak->read_bandwidth > 0
                            ? peak->read_bandwidth
                            : peak->bandwidth;
        else if (strcmp(r->metric_unit, "GFLOP/s") == 0)
            reference = peak->flops;
        r->peak_fraction =
            !r->skipped && r->n_samples && reference > 0 ? r->metric / reference : NAN;
        flag_above_roof(r);
    }
    return CLMEM_OK;
}
