/* JSON output through cJSON: the run files, described by
 * schema/run.schema.json and docs/usage.md ("Output formats"). */
#include "report/json.h"

#include "git_describe.h"
#include "harness/traffic.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef CLMEM_VERSION
#define CLMEM_VERSION "unknown"
#endif

/* The device's energy over the result's runs: the figures with their
 * counter, or why there are none ("na"); nothing where it was not measured. */
static void add_energy(cJSON *o, const struct clmem_result *r)
{
    if (!r->energy_source[0] && !r->energy_na[0])
        return;
    cJSON *e = cJSON_AddObjectToObject(o, "energy");
    if (r->energy_source[0])
        cJSON_AddStringToObject(e, "source", r->energy_source);
    if (r->energy_na[0]) {
        cJSON_AddStringToObject(e, "na", r->energy_na);
        return;
    }
    cJSON_AddNumberToObject(e, "energy_j", r->energy_j);
    cJSON_AddNumberToObject(e, "power_w", r->power_w);
    char unit[24];
    clmem_unit_per_joule(r->metric_unit, unit, sizeof unit);
    if (unit[0] && isfinite(r->energy_efficiency)) {
        cJSON_AddNumberToObject(e, "efficiency", r->energy_efficiency);
        cJSON_AddStringToObject(e, "efficiency_unit", unit);
    }
    cJSON_AddNumberToObject(e, "span_s", r->energy_span_s);
    cJSON_AddNumberToObject(e, "runs", (double)r->energy_runs);
}

/* The traffic its variant declares at each level, each level's
 * predicted time where the device's rate is known, the binding level and
 * predicted / measured, and the phrase naming what the model leaves out
 * (harness/traffic.h); nothing where it declares none. */
static void add_bound(cJSON *o, const struct clmem_result *r)
{
    const struct clmem_bound *b = &r->bound;
    cJSON *levels = NULL;
    for (int l = 0; l < CLMEM_BOUND_LEVELS; l++) {
        if (!(b->amount[l] > 0))
            continue;
        if (!levels)
            levels = cJSON_AddObjectToObject(cJSON_AddObjectToObject(o, "bound"), "levels");
        cJSON *level = cJSON_AddObjectToObject(levels, clmem_bound_level_name(l));
        cJSON_AddNumberToObject(level, l == CLMEM_BOUND_COMPUTE ? "flops" : "bytes", b->amount[l]);
        if (b->predicted_ms[l] > 0)
            cJSON_AddNumberToObject(level, "predicted_ms", b->predicted_ms[l]);
    }
    if (!levels)
        return;
    cJSON *bound = cJSON_GetObjectItemCaseSensitive(o, "bound");
    if (b->unmodelled[0])
        cJSON_AddStringToObject(bound, "unmodelled", b->unmodelled);
    if (!b->binding)
        return;
    cJSON_AddStringToObject(bound, "binding", clmem_bound_level_name(b->binding - 1));
    if (isfinite(b->ratio)) {
        cJSON_AddNumberToObject(bound, "ratio", b->ratio);
        cJSON_AddBoolToObject(bound, "model_error", b->model_error);
    }
}

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
    if (r->timer[0]) {
        cJSON_AddStringToObject(o, "timer", r->timer);
        cJSON_AddNumberToObject(o, "runs_per_sample", r->runs_per_sample);
    }
    add_energy(o, r);
    add_bound(o, r);
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
    if (r->skipped) {
        cJSON_AddStringToObject(o, "skip_reason", r->skip_reason);
    } else if (r->error[0]) {
        /* FAILED with no measurement: what stopped it, in its unit's place. */
        cJSON_AddStringToObject(o, "error", r->error);
        cJSON_AddStringToObject(o, "unit", r->metric_unit);
    } else {
        add_measurement(o, r);
    }
    cJSON_AddNumberToObject(o, "reps", r->reps);
    cJSON_AddNumberToObject(o, "warmup", r->warmup);
    /* Exact above 2^53, where a double would round it. */
    char seed[32];
    snprintf(seed, sizeof seed, "%" PRIu64, r->seed);
    cJSON_AddRawToObject(o, "seed", seed);
    if (isfinite(r->flops_per_byte))
        cJSON_AddNumberToObject(o, "flops_per_byte", r->flops_per_byte);
    if (r->demonstrates_failure)
        cJSON_AddBoolToObject(o, "demonstrates_failure", 1);
    return o;
}

#define FIELD(type_, member, key, json_type, required)                                             \
    {                                                                                              \
        key, json_type, offsetof(struct type_, member), sizeof(((struct type_ *)0)->member),       \
            required                                                                               \
    }

static const struct clmem_json_field device_fields[] = {
    FIELD(clmem_device, name, "name", CLMEM_JSON_TEXT, 1),
    FIELD(clmem_device, platform_name, "platform", CLMEM_JSON_TEXT, 0),
    FIELD(clmem_device, vendor, "vendor", CLMEM_JSON_TEXT, 0),
    FIELD(clmem_device, type, "type", CLMEM_JSON_DEVICE_TYPE, 0),
    FIELD(clmem_device, version, "version", CLMEM_JSON_TEXT, 0),
    FIELD(clmem_device, driver, "driver", CLMEM_JSON_TEXT, 0),
    FIELD(clmem_device, compute_units, "compute_units", CLMEM_JSON_WHOLE, 0),
    FIELD(clmem_device, clock_mhz, "clock_mhz", CLMEM_JSON_WHOLE, 0),
    FIELD(clmem_device, global_mem, "global_mem_bytes", CLMEM_JSON_WHOLE, 0),
    FIELD(clmem_device, local_mem, "local_mem_bytes", CLMEM_JSON_WHOLE, 0),
    FIELD(clmem_device, max_work_group, "max_work_group", CLMEM_JSON_WHOLE, 0),
    /* The limits kernel parameters are chosen from (since schema 1). */
    FIELD(clmem_device, c_version, "opencl_c_version", CLMEM_JSON_TEXT, 0),
    FIELD(clmem_device, max_alloc, "max_alloc_bytes", CLMEM_JSON_WHOLE, 0),
    FIELD(clmem_device, base_addr_align_bits, "base_addr_align_bits", CLMEM_JSON_WHOLE, 0),
    FIELD(clmem_device, has_fp64, "fp64", CLMEM_JSON_BOOL, 0),
    FIELD(clmem_device, timer_resolution_ns, "timer_resolution_ns", CLMEM_JSON_WHOLE, 0),
    FIELD(clmem_device, global_mem_cache, "global_mem_cache_bytes", CLMEM_JSON_WHOLE, 0),
};
const struct clmem_json_fields clmem_json_device_fields = {device_fields,
                                                           CLMEM_ARRAY_SIZE(device_fields)};

static const struct clmem_json_field host_fields[] = {
    FIELD(clmem_host, name, "name", CLMEM_JSON_TEXT, 1),
    FIELD(clmem_host, os, "os", CLMEM_JSON_TEXT, 0),
    FIELD(clmem_host, kernel, "kernel", CLMEM_JSON_TEXT, 0),
    FIELD(clmem_host, cpu, "cpu", CLMEM_JSON_TEXT, 0),
    FIELD(clmem_host, cores, "cores", CLMEM_JSON_WHOLE, 0),
    FIELD(clmem_host, memory_bytes, "memory_bytes", CLMEM_JSON_WHOLE, 0),
};
const struct clmem_json_fields clmem_json_host_fields = {host_fields,
                                                         CLMEM_ARRAY_SIZE(host_fields)};

double clmem_json_whole_get(const void *member, size_t size)
{
    if (size == sizeof(uint32_t)) {
        uint32_t v;
        memcpy(&v, member, sizeof v);
        return v;
    }
    uint64_t v;
    memcpy(&v, member, sizeof v);
    return (double)v;
}

void clmem_json_whole_set(void *member, size_t size, double value)
{
    /* Below 2^31 or 2^63: a signed member (long) stays positive. */
    double limit = size == sizeof(uint32_t) ? 2147483648.0 : 9223372036854775808.0;
    int fits = value >= 0 && value < limit;
    if (size == sizeof(uint32_t)) {
        uint32_t v = fits ? (uint32_t)value : 0;
        memcpy(member, &v, sizeof v);
    } else {
        uint64_t v = fits ? (uint64_t)value : 0;
        memcpy(member, &v, sizeof v);
    }
}

static cJSON *json_object(const void *object, const struct clmem_json_fields *table)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < table->n; i++) {
        const struct clmem_json_field *f = &table->fields[i];
        const char *member = (const char *)object + f->offset;
        switch (f->type) {
        case CLMEM_JSON_TEXT: cJSON_AddStringToObject(o, f->key, member); break;
        case CLMEM_JSON_WHOLE:
            cJSON_AddNumberToObject(o, f->key, clmem_json_whole_get(member, f->size));
            break;
        case CLMEM_JSON_BOOL: {
            int v;
            memcpy(&v, member, sizeof v);
            cJSON_AddBoolToObject(o, f->key, v);
            break;
        }
        case CLMEM_JSON_DEVICE_TYPE: {
            cl_device_type v;
            memcpy(&v, member, sizeof v);
            cJSON_AddStringToObject(o, f->key, clmem_device_type_name(v));
            break;
        }
        }
    }
    return o;
}

cJSON *clmem_json_device(const struct clmem_device *d)
{
    return json_object(d, &clmem_json_device_fields);
}

cJSON *clmem_json_host(const struct clmem_host *h)
{
    return json_object(h, &clmem_json_host_fields);
}

const char *clmem_build_git(void)
{
    return strcmp(CLMEM_GIT_DESCRIBE, CLMEM_GIT_NONE) != 0 ? CLMEM_GIT_DESCRIBE : "";
}

void clmem_json_add_header(cJSON *root, const char *when)
{
    cJSON_AddNumberToObject(root, "schema_version", CLMEM_SCHEMA_VERSION);
    cJSON_AddStringToObject(root, "clmem_version", CLMEM_VERSION);
    if (clmem_build_git()[0])
        cJSON_AddStringToObject(root, "clmem_git", clmem_build_git());
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

/* A curve of the hierarchy: {bytes, KEY} objects. */
static cJSON *saved_curve(const struct clmem_saved_point *c, size_t n, const char *key)
{
    cJSON *list = cJSON_CreateArray();
    for (size_t i = 0; list && i < n; i++) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "bytes", c[i].bytes);
        cJSON_AddNumberToObject(p, key, c[i].value);
        cJSON_AddItemToArray(list, p);
    }
    return list;
}

/* A string where it is not "". */
static void add_text(cJSON *o, const char *key, const char *text)
{
    if (text[0])
        cJSON_AddStringToObject(o, key, text);
}

/* chase_page's TLB reach (schema: "tlb"), where chase_page ran. */
static void add_tlb(cJSON *o, const struct clmem_saved_tlb *t)
{
    if (!(t->last_bytes > 0))
        return;
    cJSON *tlb = cJSON_AddObjectToObject(o, "tlb");
    if (!tlb)
        return;
    cJSON_AddNumberToObject(tlb, "reach_bytes", t->reach_bytes > 0 ? t->reach_bytes : 0);
    cJSON_AddNumberToObject(tlb, "last_bytes", t->last_bytes);
    if (t->hit_ns > 0)
        cJSON_AddNumberToObject(tlb, "hit_ns", t->hit_ns);
    if (t->miss_ns > 0)
        cJSON_AddNumberToObject(tlb, "miss_ns", t->miss_ns);
    cJSON_AddItemToObject(tlb, "plateaus", saved_curve(t->plateaus, t->n_plateaus, "ns"));
}

/* A level's facts past its plateau's: whether it resolved, why it is
 * unnamed, a split cache's half and the size reported for the whole. */
static void add_level_notes(cJSON *l, const struct clmem_saved_level *L)
{
    cJSON_AddBoolToObject(l, "resolved", L->resolved);
    if (L->last_bytes > 0)
        cJSON_AddNumberToObject(l, "last_bytes", L->last_bytes);
    if (L->points > 0)
        cJSON_AddNumberToObject(l, "points", L->points);
    add_text(l, "split", L->split);
    if (L->split[0] && L->reported_bytes > 0)
        cJSON_AddNumberToObject(l, "reported_bytes", L->reported_bytes);
    add_text(l, "why", L->why);
}

/* clmem hierarchy's object as a run file read it (schema: "hierarchy"). */
static cJSON *saved_hierarchy(const struct clmem_saved_hierarchy *h)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddNumberToObject(o, "extent_bytes", h->extent);
    cJSON_AddNumberToObject(o, "largest_cache_bytes", h->cache_bytes);
    cJSON_AddStringToObject(o, "largest_cache_from", h->cache_from);
    if (h->clock_mhz > 0)
        cJSON_AddNumberToObject(o, "clock_mhz", h->clock_mhz);
    add_text(o, "stopped_by", h->stopped_by);
    add_text(o, "memory_note", h->memory_note);
    if (h->page_bytes > 0)
        cJSON_AddNumberToObject(o, "page_bytes", h->page_bytes);
    add_text(o, "pages", h->pages);
    add_text(o, "transparent_huge_pages", h->huge_pages);
    add_tlb(o, &h->tlb);
    cJSON *levels = cJSON_AddArrayToObject(o, "levels");
    for (size_t k = 0; levels && k < h->n_levels; k++) {
        const struct clmem_saved_level *L = &h->levels[k];
        cJSON *l = cJSON_CreateObject();
        cJSON_AddStringToObject(l, "name", L->name);
        cJSON_AddBoolToObject(l, "memory", L->is_memory);
        if (!L->is_memory && L->size_bytes > 0)
            cJSON_AddNumberToObject(l, "size_bytes", L->size_bytes);
        cJSON_AddNumberToObject(l, "first_bytes", L->first_bytes);
        cJSON_AddNumberToObject(l, "latency_ns", L->latency_ns);
        if (L->latency_cycles > 0)
            cJSON_AddNumberToObject(l, "latency_cycles", L->latency_cycles);
        if (L->bandwidth_gbs > 0)
            cJSON_AddNumberToObject(l, "bandwidth_gbs", L->bandwidth_gbs);
        if (L->bandwidth_bytes > 0)
            cJSON_AddNumberToObject(l, "bandwidth_bytes", L->bandwidth_bytes);
        add_level_notes(l, L);
        cJSON_AddItemToArray(levels, l);
    }
    cJSON_AddItemToObject(o, "latency", saved_curve(h->latency, h->n_latency, "ns"));
    cJSON_AddItemToObject(o, "local_latency",
                          saved_curve(h->local_latency, h->n_local_latency, "ns"));
    cJSON_AddItemToObject(o, "bandwidth", saved_curve(h->bandwidth, h->n_bandwidth, "gbs"));
    cJSON_AddItemToObject(o, "unmatched_bandwidth",
                          saved_curve(h->unmatched, h->n_unmatched, "gbs"));
    return o;
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
    if (meta && meta->hierarchy)
        cJSON_AddItemToObject(root, "hierarchy", saved_hierarchy(meta->hierarchy));
    return clmem_json_print(out, root, err);
}
