/* A measured result's energy, from its device's meter (power/): the
 * result is the harness's, the readings the meter's. */
#include "harness/harness.h"
#include "power/power.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Whether a metric is a rate per second, whose work per joule the result
 * gets (the report writes its unit: clmem_unit_per_joule). */
static int per_second(const char *metric_unit)
{
    size_t n = strlen(metric_unit);
    return n > 2 && strcmp(metric_unit + n - 2, "/s") == 0;
}

void clmem_energy_result(struct clmem_result *r, const struct clmem_energy_meter *m,
                         const struct clmem_energy_reading *before,
                         const struct clmem_energy_reading *after, unsigned long runs)
{
    r->energy_j = r->power_w = r->energy_efficiency = r->energy_span_s = NAN;
    r->energy_runs = 0;
    r->energy_na[0] = '\0';
    snprintf(r->energy_source, sizeof r->energy_source, "%s", m->source);
    double span_ms = after->t_ms - before->t_ms, joules = 0, need_ms = clmem_energy_min_span_ms(m);
    char why[sizeof r->energy_na];
    if (!m->source[0])
        snprintf(r->energy_na, sizeof r->energy_na, "%s", m->why[0] ? m->why : "no energy counter");
    else if (!before->ok || !after->ok)
        snprintf(r->energy_na, sizeof r->energy_na, "%s", !before->ok ? before->why : after->why);
    else if (runs == 0 || !(span_ms >= need_ms))
        snprintf(r->energy_na, sizeof r->energy_na,
                 "run shorter than the counter's resolution: %.3g s metered, %.3g s needed "
                 "(--energy runs on for it)",
                 span_ms * 1e-3, need_ms * 1e-3);
    else if (clmem_energy_joules(m, before, after, &joules, why, sizeof why))
        snprintf(r->energy_na, sizeof r->energy_na, "%s", why);
    else if (!(joules > 0))
        snprintf(r->energy_na, sizeof r->energy_na, "the energy counter did not advance in %.3g s",
                 span_ms * 1e-3);
    else if (!(joules / (span_ms * 1e-3) <= CLMEM_ENERGY_MAX_WATTS))
        snprintf(r->energy_na, sizeof r->energy_na,
                 "the energy counter implies %.3g W over %.3g s, above the %g W no device draws",
                 joules / (span_ms * 1e-3), span_ms * 1e-3, CLMEM_ENERGY_MAX_WATTS);
    if (!r->energy_na[0]) {
        r->energy_span_s = span_ms * 1e-3;
        r->energy_runs = runs;
        r->energy_j = joules / (double)runs;
        r->power_w = joules / r->energy_span_s;
        /* One run's work is the metric times the median: the metric is
         * that work over the median's time. */
        if (per_second(r->metric_unit) && isfinite(r->metric) && r->metric >= 0)
            r->energy_efficiency = r->metric * r->median_ms * 1e-3 / r->energy_j;
    }
    if (!clmem_debug_enabled(CLMEM_DEBUG_ENERGY))
        return;
    if (r->energy_na[0])
        fprintf(stderr, "clmem: energy: %s %s: n/a: %s\n", r->workload, r->variant, r->energy_na);
    else
        fprintf(stderr,
                "clmem: energy: %s %s: %s %.6g J over %.6f s (Unix time %.3f to %.3f), %lu "
                "runs: %.6g J a run, %.6g W\n",
                r->workload, r->variant, r->energy_source, joules, r->energy_span_s,
                before->epoch_s, after->epoch_s, runs, r->energy_j, r->power_w);
}
