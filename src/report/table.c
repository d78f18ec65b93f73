/* The human-readable table. */
#include "clmem/clmem.h"

#include <string.h>

static void verified_text(const struct clmem_result *r, char *out, size_t size)
{
    if (r->skipped)
        snprintf(out, size, "skipped: %s", r->skip_reason);
    else if (!r->verified)
        snprintf(out, size, "FAILED");
    else if (r->verify_scope[0])
        snprintf(out, size, "yes (%s)", r->verify_scope);
    else
        snprintf(out, size, "yes");
}

int clmem_report_table(FILE *out, const struct clmem_result *results, size_t n)
{
    const char *device = "";
    const char *params = NULL;
    for (size_t i = 0; i < n; i++) {
        const struct clmem_result *r = &results[i];
        /* Device and build parameters head each group of results that share them. */
        if (strcmp(device, r->device) != 0 || !params || strcmp(params, r->params) != 0) {
            device = r->device;
            params = r->params;
            fprintf(out, "%sdevice: %s\nparameters: %s\n", i ? "\n" : "", r->device,
                    r->params[0] ? r->params : "(none)");
            fprintf(out, "%-12s %-16s %-16s %11s %11s %11s %12s %-9s %11s  %s\n", "workload",
                    "variant", "size", "median ms", "min ms", "max ms", "value", "unit",
                    "max rel err", "verified");
        }
        char verified[320];
        verified_text(r, verified, sizeof verified);
        if (r->skipped) {
            fprintf(out, "%-12s %-16s %-16s %11s %11s %11s %12s %-9s %11s  %s\n", r->workload,
                    r->variant, r->size, "-", "-", "-", "-", r->metric_unit, "-", verified);
            continue;
        }
        fprintf(out, "%-12s %-16s %-16s %11.4f %11.4f %11.4f %12.3f %-9s %11.2e  %s\n",
                r->workload, r->variant, r->size, r->median_ms, r->min_ms, r->max_ms, r->metric,
                r->metric_unit, r->max_rel_error, verified);
    }
    return CLMEM_OK;
}
