/* clmem.h's handles on results and peaks that need nothing but their
 * structs: fields read by the names the run files give them (struct
 * clmem_member); the peaks made and released. */
#include "harness/harness.h"

#include <stdlib.h>

/* ---- results ---- */
static const struct clmem_member result_members[] = {
    CLMEM_MEMBER(clmem_result, workload, "workload"),
    CLMEM_MEMBER(clmem_result, variant, "variant"),
    CLMEM_MEMBER(clmem_result, device, "device"),
    CLMEM_MEMBER(clmem_result, size, "size"),
    CLMEM_MEMBER(clmem_result, params, "params"),
    CLMEM_MEMBER(clmem_result, metric_unit, "unit"),
    CLMEM_MEMBER(clmem_result, roof, "roof"),
    CLMEM_MEMBER(clmem_result, sweep, "sweep"),
    CLMEM_MEMBER(clmem_result, skip_reason, "skip_reason"),
    CLMEM_MEMBER(clmem_result, error, "error"),
    CLMEM_MEMBER(clmem_result, note, "note"),
    CLMEM_MEMBER(clmem_result, verify_scope, "verify_scope"),
    CLMEM_MEMBER(clmem_result, verify_detail, "verify_detail"),
    CLMEM_MEMBER(clmem_result, timer, "timer"),
    CLMEM_MEMBER(clmem_result, energy_source, "energy_source"),
    CLMEM_MEMBER(clmem_result, energy_na, "energy_na"),
    CLMEM_MEMBER(clmem_result, median_ms, "median_ms"),
    CLMEM_MEMBER(clmem_result, min_ms, "min_ms"),
    CLMEM_MEMBER(clmem_result, max_ms, "max_ms"),
    CLMEM_MEMBER(clmem_result, metric, "metric"),
    CLMEM_MEMBER(clmem_result, baseline_fraction, "baseline_fraction"),
    CLMEM_MEMBER(clmem_result, peak_fraction, "peak_fraction"),
    CLMEM_MEMBER(clmem_result, looped_ms, "looped_ms"),
    CLMEM_MEMBER(clmem_result, max_rel_error, "max_rel_error"),
    CLMEM_MEMBER(clmem_result, flops_per_byte, "flops_per_byte"),
    CLMEM_MEMBER(clmem_result, sweep_value, "sweep_value"),
    CLMEM_MEMBER(clmem_result, reps, "reps"),
    CLMEM_MEMBER(clmem_result, warmup, "warmup"),
    CLMEM_MEMBER(clmem_result, seed, "seed"),
    CLMEM_MEMBER(clmem_result, runs_per_sample, "runs_per_sample"),
    CLMEM_MEMBER(clmem_result, n_samples, "samples"),
    CLMEM_MEMBER(clmem_result, verified, "verified"),
    CLMEM_MEMBER(clmem_result, skipped, "skipped"),
    CLMEM_MEMBER(clmem_result, demonstrates_failure, "demonstrates_failure"),
    CLMEM_MEMBER(clmem_result, energy_j, "energy_j"),
    CLMEM_MEMBER(clmem_result, power_w, "power_w"),
    CLMEM_MEMBER(clmem_result, energy_efficiency, "energy_efficiency"),
    CLMEM_MEMBER(clmem_result, energy_span_s, "energy_span_s"),
    CLMEM_MEMBER(clmem_result, energy_runs, "energy_runs"),
};

const struct clmem_result *clmem_result_at(const struct clmem_result *results, size_t n, size_t i)
{
    return results && i < n ? &results[i] : NULL;
}

const char *clmem_result_text(const struct clmem_result *result, const char *field)
{
    return clmem_member_text(result, result_members, CLMEM_ARRAY_SIZE(result_members), field);
}

double clmem_result_number(const struct clmem_result *result, const char *field)
{
    return clmem_member_number(result, result_members, CLMEM_ARRAY_SIZE(result_members), field);
}

/* ---- peaks ---- */
static const struct clmem_member peak_members[] = {
    CLMEM_MEMBER(clmem_peak, bandwidth, "bandwidth_gbs"),
    CLMEM_MEMBER(clmem_peak, flops, "fp32_gflops"),
    CLMEM_MEMBER(clmem_peak, read_bandwidth, "read_bandwidth_gbs"),
    CLMEM_MEMBER(clmem_peak, launch_us, "launch_us"),
};

int clmem_peak_create(struct clmem_peak **peak, struct clmem_error *err)
{
    CLMEM_REFUSE_NULL(err, err);
    CLMEM_REFUSE_NULL(peak, err);
    *peak = calloc(1, sizeof **peak);
    return *peak ? CLMEM_OK : clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
}

double clmem_peak_number(const struct clmem_peak *peak, const char *field)
{
    return clmem_member_number(peak, peak_members, CLMEM_ARRAY_SIZE(peak_members), field);
}

void clmem_peak_release(struct clmem_peak *peak)
{
    free(peak);
}
