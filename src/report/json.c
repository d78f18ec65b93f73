/* JSON output through cJSON: the run files, described by
 * schema/run.schema.json and README.md ("JSON"). */
#include "report/json.h"

#include "git_describe.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef CLMEM_VERSION
#define CLMEM_VERSION "unknown"
#endif

/* What a result that ran measured: times, metric, check. */
static void add_measurement(cJSON *o, const struct clmem_result *r)
{
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
}

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
    if (r->skipped)
        cJSON_AddStringToObject(o, "skip_reason", r->skip_reason);
    else
        add_measurement(o, r);
    cJSON_AddNumberToObject(o, "reps", r->reps);
    cJSON_AddNumberToObject(o, "warmup", r->warmup);
    /* Exact above 2^53, where a double would round it. */
    char seed[32];
    snprintf(seed, sizeof seed, "%" PRIu64, r->seed);
    cJSON_AddRawToObject(o, "seed", seed);
    if (isfinite(r->flops_per_byte))
        cJSON_AddNumberToObject(o, "flops_per_byte", r->flops_per_byte);
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
    /* The limits kernel parameters are chosen from. */
    cJSON_AddStringToObject(o, "opencl_c_version", d->c_version);
    cJSON_AddNumberToObject(o, "max_alloc_bytes", (double)d->max_alloc);
    cJSON_AddNumberToObject(o, "base_addr_align_bits", d->base_addr_align_bits);
    cJSON_AddBoolToObject(o, "fp64", d->has_fp64);
    return o;
}

cJSON *clmem_json_host(const struct clmem_host *h)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", h->name);
    cJSON_AddStringToObject(o, "os", h->os);
    cJSON_AddStringToObject(o, "kernel", h->kernel);
    cJSON_AddStringToObject(o, "cpu", h->cpu);
    cJSON_AddNumberToObject(o, "cores", (double)h->cores);
    cJSON_AddNumberToObject(o, "memory_bytes", (double)h->memory_bytes);
    return o;
}

void clmem_json_add_header(cJSON *root, const char *when)
{
    cJSON_AddNumberToObject(root, "schema_version", CLMEM_SCHEMA_VERSION);
    cJSON_AddStringToObject(root, "clmem_version", CLMEM_VERSION);
    if (CLMEM_GIT_DESCRIBE[0] && strcmp(CLMEM_GIT_DESCRIBE, CLMEM_GIT_NONE) != 0)
        cJSON_AddStringToObject(root, "clmem_git", CLMEM_GIT_DESCRIBE);
    char created[32] = "";
    time_t now = time(NULL);
    struct tm utc;
    if (now != (time_t)-1 && gmtime_r(&now, &utc))
        strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &utc);
    cJSON_AddStringToObject(root, "created", when && when[0] ? when : created);
}

cJSON *clmem_json_peak(const struct clmem_peak *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "bandwidth_gbs", p->bandwidth);
    cJSON_AddNumberToObject(o, "fp32_gflops", p->flops);
    /* Measured since schema 1's first files: absent from those. */
    if (p->read_bandwidth > 0)
        cJSON_AddNumberToObject(o, "read_bandwidth_gbs", p->read_bandwidth);
    if (p->launch_us > 0)
        cJSON_AddNumberToObject(o, "launch_us", p->launch_us);
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
    clmem_json_add_header(root, meta ? meta->created : NULL);
    struct clmem_host here;
    const struct clmem_host *host = meta && meta->host ? meta->host : &here;
    if (host == &here)
        clmem_host_describe(&here);
    cJSON_AddItemToObject(root, "host", clmem_json_host(host));
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
