/* What the report's parts read the results by: whether a result counts,
 * a device's best of a workload, the (workload, unit) rows, sizes as one
 * number. Used by the document's sections, the pictures and the
 * portability measures; uses none of them. */
#include "compare/model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int compare_usable(const struct clmem_result *r)
{
    return !r->skipped && r->verified && !r->demonstrates_failure && r->metric > 0 &&
           isfinite(r->metric);
}

int compare_is_peak(const char *workload)
{
    return strcmp(workload, "peak") == 0;
}

int compare_is_probe(const char *workload)
{
    return strcmp(workload, "hierarchy") == 0;
}

void compare_build_text(const struct clmem_compare_device *dev, char *out, size_t size)
{
    const char *version = dev->origin[0] ? dev->clmem_version : CLMEM_VERSION;
    const char *git = dev->origin[0] ? dev->clmem_git : clmem_build_git();
    if (git[0])
        snprintf(out, size, "%s %s", version[0] ? version : "?", git);
    else
        snprintf(out, size, "%s, build not recorded", version[0] ? version : "?");
}

int compare_builds_differ(const struct clmem_compare_device *a,
                          const struct clmem_compare_device *b)
{
    if (strcmp(a->device.name, b->device.name) != 0 || strcmp(a->host, b->host) != 0)
        return 0;
    char ta[160], tb[160];
    compare_build_text(a, ta, sizeof ta);
    compare_build_text(b, tb, sizeof tb);
    return strcmp(ta, tb) != 0 || strcmp(a->device.driver, b->device.driver) != 0;
}

double compare_linear_size(const char *size)
{
    double product = 1, log_sum = 0;
    int dims = 0;
    for (const char *p = size;; p++) {
        char *end;
        double v = strtod(p, &end);
        if (end == p || !(v > 0) || !isfinite(v))
            return NAN;
        product *= v;
        log_sum += log(v);
        dims++;
        if (*end != '\0' && *end != 'x')
            return NAN;
        if (*end == '\0')
            break;
        p = end;
    }
    /* Exact for N, NxN and NxNxN (the root of an exact product). */
    if (isfinite(product) && dims <= 3)
        return dims == 1 ? product : dims == 2 ? sqrt(product) : cbrt(product);
    return exp(log_sum / dims);
}

const struct clmem_result *compare_best_of(const struct clmem_compare_device *dev,
                                           const char *workload, const char *unit, size_t *ran)
{
    const struct clmem_result *best = NULL;
    *ran = 0;
    for (size_t i = 0; i < dev->n_results; i++) {
        const struct clmem_result *r = &dev->results[i];
        if (strcmp(r->workload, workload) != 0 || strcmp(r->metric_unit, unit) != 0)
            continue;
        (*ran)++;
        if (!r->skipped && r->verified && !r->demonstrates_failure && !isnan(r->metric) &&
            (!best || r->metric > best->metric))
            best = r;
    }
    return best;
}

/* Where a workload measures in several units (peak: GB/s, GFLOP/s and
 * launches), its row names the unit; a rate of launches as the time of
 * one. */

size_t compare_groups(const struct clmem_compare_device *devs, size_t n_devs,
                      struct compare_group *g, size_t max)
{
    size_t n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t d = 0; d < n_devs; d++)
            for (size_t i = 0; i < devs[d].n_results; i++) {
                const struct clmem_result *r = &devs[d].results[i];
                /* First the pairs of a unit; then the workloads of none. */
                if ((r->metric_unit[0] == '\0') != pass)
                    continue;
                size_t k = 0;
                while (k < n && !(strcmp(g[k].workload, r->workload) == 0 &&
                                  (pass || strcmp(g[k].unit, r->metric_unit) == 0)))
                    k++;
                if (k == n && n < max)
                    g[n++] = (struct compare_group){r->workload, r->metric_unit, 0};
            }
    for (size_t k = 0; k < n; k++)
        for (size_t j = 0; j < n; j++)
            if (j != k && strcmp(g[j].workload, g[k].workload) == 0)
                g[k].several = 1;
    return n;
}

const char *compare_none_text(const struct clmem_compare_device *dev, const char *workload,
                              const char *unit)
{
    int failed = 0, skipped = 0;
    for (size_t i = 0; i < dev->n_results; i++) {
        const struct clmem_result *r = &dev->results[i];
        if (strcmp(r->workload, workload) != 0)
            continue;
        if (r->skipped)
            skipped = 1;
        else if (strcmp(r->metric_unit, unit) == 0 && !compare_usable(r))
            failed = 1;
    }
    return failed ? "none verified" : skipped ? "skipped" : "not run";
}
