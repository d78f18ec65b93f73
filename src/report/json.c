/* JSON output through cJSON; the schema is documented in README.md. */
#include "json.h"

#include <math.h>
#include <stdlib.h>

#ifndef CLMEM_VERSION
#define CLMEM_VERSION "unknown"
#endif

cJSON *clmem_json_result(const struct clmem_result *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "workload", r->workload);
    cJSON_AddStringToObject(o, "variant", r->variant);
    cJSON_AddStringToObject(o, "device", r->device);
    cJSON_AddStringToObject(o, "size", r->size);
    if (r->sweep[0]) {
        cJSON_AddStringToObject(o, "sweep", r->sweep);
        cJSON_AddNumberToObject(o, "sweep_value", r->sweep_value);
    }
    cJSON_AddStringToObject(o, "params", r->params);
    cJSON_AddStringToObject(o, "status", clmem_result_status(r));
    if (r->skipped) {
        cJSON_AddStringToObject(o, "skip_reason", r->skip_reason);
        return o;
    }
    cJSON *samples = cJSON_AddArrayToObject(o, "samples_ms");
    for (size_t i = 0; i < r->n_samples; i++)
        cJSON_AddItemToArray(samples, cJSON_CreateNumber(r->samples_ms[i]));
    cJSON_AddNumberToObject(o, "median_ms", r->median_ms);
    cJSON_AddNumberToObject(o, "min_ms", r->min_ms);
    cJSON_AddNumberToObject(o, "max_ms", r->max_ms);
    cJSON_AddNumberToObject(o, "metric", r->metric);
    cJSON_AddStringToObject(o, "unit", r->metric_unit);
    if (!isnan(r->baseline_fraction))
        cJSON_AddNumberToObject(o, "baseline_fraction", r->baseline_fraction);
    if (!isnan(r->peak_fraction))
        cJSON_AddNumberToObject(o, "peak_fraction", r->peak_fraction);
    if (!isnan(r->looped_ms))
        cJSON_AddNumberToObject(o, "looped_ms", r->looped_ms);
    if (r->note[0])
        cJSON_AddStringToObject(o, "note", r->note);
    /* JSON has no infinity: an unbounded error is written as null. */
    if (isfinite(r->max_rel_error))
        cJSON_AddNumberToObject(o, "max_rel_error", r->max_rel_error);
    else
        cJSON_AddNullToObject(o, "max_rel_error");
    cJSON_AddBoolToObject(o, "verified", r->verified);
    cJSON_AddStringToObject(o, "verify_scope", r->verify_scope);
    return o;
}

cJSON *clmem_json_device(const struct clmem_device *d)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", d->name);
    cJSON_AddStringToObject(o, "platform", d->platform_name);
    cJSON_AddStringToObject(o, "vendor", d->vendor);
    cJSON_AddStringToObject(o, "type", clmem_device_type_name(d->type));
    cJSON_AddStringToObject(o, "version", d->version);
    cJSON_AddStringToObject(o, "driver", d->driver);
    cJSON_AddNumberToObject(o, "compute_units", d->compute_units);
    cJSON_AddNumberToObject(o, "clock_mhz", d->clock_mhz);
    cJSON_AddNumberToObject(o, "global_mem_bytes", (double)d->global_mem);
    cJSON_AddNumberToObject(o, "local_mem_bytes", (double)d->local_mem);
    cJSON_AddNumberToObject(o, "max_work_group", (double)d->max_work_group);
    return o;
}

cJSON *clmem_json_peak(const struct clmem_peak *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "bandwidth_gbs", p->bandwidth);
    cJSON_AddNumberToObject(o, "fp32_gflops", p->flops);
    return o;
}

int clmem_json_print(FILE *out, cJSON *root, struct clmem_error *err)
{
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    fprintf(out, "%s\n", text);
    cJSON_free(text);
    return CLMEM_OK;
}

int clmem_report_json(FILE *out, const struct clmem_result *results, size_t n,
                      const struct clmem_report_meta *meta, struct clmem_error *err)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    cJSON_AddStringToObject(root, "clmem_version", CLMEM_VERSION);
    /* Stopped early (Ctrl-C): the results are those that finished. */
    if (meta && meta->interrupted)
        cJSON_AddTrueToObject(root, "interrupted");
    if (meta && meta->device)
        cJSON_AddItemToObject(root, "device", clmem_json_device(meta->device));
    if (meta && meta->peak)
        cJSON_AddItemToObject(root, "peak", clmem_json_peak(meta->peak));
    cJSON *list = cJSON_AddArrayToObject(root, "results");
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(list, clmem_json_result(&results[i]));
    return clmem_json_print(out, root, err);
}
