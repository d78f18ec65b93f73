/* The rates the traffic model divides by (traffic.h): the peaks' for
 * global memory and compute, the hierarchy workload's probes for __local
 * and __constant memory, run through the harness like any workload. */
#include "harness/traffic.h"

#include <string.h>

/* The best stride-1 (or only) result of one hierarchy probe: its GB/s. */
static int probe(struct clmem_ctx *ctx, const struct clmem_workload *hierarchy, const char *variant,
                 unsigned reps, double *gbs, struct clmem_result **results, size_t *n_results,
                 struct clmem_error *err)
{
    size_t first = *n_results;
    struct clmem_run_options options = {.variant = variant,
                                        .reps = reps,
                                        .warmup = CLMEM_DEFAULT_WARMUP,
                                        .seed = CLMEM_DEFAULT_SEED};
    int status = clmem_run(ctx, hierarchy, &options, results, n_results, err);
    if (status)
        return status;
    *gbs = clmem_level_probe_rate(*results + first, *n_results - first, variant);
    return CLMEM_OK;
}

double clmem_level_probe_rate(const struct clmem_result *results, size_t n, const char *variant)
{
    double gbs = 0;
    for (size_t i = 0; i < n; i++) {
        const struct clmem_result *r = &results[i];
        if (strcmp(r->workload, "hierarchy") == 0 && strcmp(r->variant, variant) == 0 &&
            r->verified && !r->skipped && !r->error[0] && r->metric > 0 &&
            (!r->sweep[0] || r->sweep_value == 1))
            gbs = r->metric;
    }
    return gbs;
}

int clmem_level_rates_measure(struct clmem_ctx *ctx, const struct clmem_workload *hierarchy,
                              unsigned reps, const struct clmem_peak *peak,
                              struct clmem_level_rates *rates, struct clmem_result **results,
                              size_t *n_results, struct clmem_error *err)
{
    memset(rates, 0, sizeof *rates);
    rates->copy_gbs = peak->bandwidth;
    rates->read_gbs = peak->read_bandwidth;
    rates->gflops = peak->flops;
    if (!hierarchy)
        return CLMEM_OK;
    int status =
        probe(ctx, hierarchy, "local_stride", reps, &rates->local_gbs, results, n_results, err);
    if (status == CLMEM_OK)
        status = probe(ctx, hierarchy, "constant_broadcast", reps, &rates->constant_gbs, results,
                       n_results, err);
    return status;
}
