/* clmem.h's handles that need nothing but their structs: fields read by
 * the names the run files give them, through one table a struct (struct
 * clmem_member), which the options' setters (harness/options.c) also use;
 * the peaks and a report's meta made and released. */
#include "base/base.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const struct clmem_member *clmem_member_find(const struct clmem_member *members, size_t n,
                                             const char *name)
{
    for (size_t i = 0; name && i < n; i++)
        if (strcmp(members[i].name, name) == 0)
            return &members[i];
    return NULL;
}

const char *clmem_member_text(const void *object, const struct clmem_member *members, size_t n,
                              const char *name)
{
    const struct clmem_member *m = object ? clmem_member_find(members, n, name) : NULL;
    const char *at = m ? (const char *)object + m->offset : NULL;
    if (!m || (m->kind != CLMEM_MEMBER_CHARS && m->kind != CLMEM_MEMBER_STRING))
        return NULL;
    if (m->kind == CLMEM_MEMBER_CHARS)
        return at;
    const char *text;
    memcpy(&text, at, sizeof text);
    return text;
}

double clmem_member_number(const void *object, const struct clmem_member *members, size_t n,
                           const char *name)
{
    const struct clmem_member *m = object ? clmem_member_find(members, n, name) : NULL;
    const char *at = m ? (const char *)object + m->offset : NULL;
    if (!m)
        return NAN;
    if (m->kind == CLMEM_MEMBER_DOUBLE) {
        double v;
        memcpy(&v, at, sizeof v);
        return v;
    }
    if (m->kind == CLMEM_MEMBER_SIGNED && m->size == sizeof(int)) {
        int v;
        memcpy(&v, at, sizeof v);
        return v;
    }
    if (m->kind == CLMEM_MEMBER_SIGNED || m->kind == CLMEM_MEMBER_UNSIGNED) {
        uint64_t v = 0; /* unsigned of 4 or 8 bytes, long */
        if (m->size == sizeof(uint32_t)) {
            uint32_t v32;
            memcpy(&v32, at, sizeof v32);
            v = v32;
        } else {
            memcpy(&v, at, sizeof v);
        }
        return m->kind == CLMEM_MEMBER_SIGNED ? (double)(int64_t)v : (double)v;
    }
    return NAN;
}

/* An option's number: digits alone, as the CLI takes them, in its range. */
static int parse_number(const char *who, const struct clmem_member *m, const char *value,
                        uint64_t *out, struct clmem_error *err)
{
    char *end;
    errno = 0;
    unsigned long long v = value[0] >= '0' && value[0] <= '9' ? strtoull(value, &end, 10) : 0;
    CLMEM_REFUSE_IF(value[0] < '0' || value[0] > '9' || *end || errno, err,
                    "%s: '%s' takes a whole number, not '%s'", who, m->name, value);
    CLMEM_REFUSE_IF(v < m->min || v > m->max, err, "%s: '%s' %s is out of range (%llu to %llu)",
                    who, m->name, value, m->min, m->max);
    *out = v;
    return CLMEM_OK;
}

int clmem_member_set(void *object, char **owned, const struct clmem_member *members, size_t n,
                     const char *name, const char *value, const char *who, struct clmem_error *err)
{
    const struct clmem_member *m = clmem_member_find(members, n, name);
    CLMEM_REFUSE_IF(!m, err, "%s: unknown option '%s'", who, name ? name : "(null)");
    char *at = (char *)object + m->offset;
    if (m->kind == CLMEM_MEMBER_STRING) {
        char **slot = &owned[m - members];
        char *copy = value ? strdup(value) : NULL;
        if (value && !copy)
            return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
        free(*slot);
        *slot = copy;
        memcpy(at, slot, sizeof *slot);
        return CLMEM_OK;
    }
    CLMEM_REFUSE_IF(!value, err, "%s: '%s' needs a value", who, m->name);
    if (m->kind == CLMEM_MEMBER_DEVICE_TYPE) {
        cl_device_type type = clmem_device_type_of(value);
        CLMEM_REFUSE_IF(type == CL_DEVICE_TYPE_DEFAULT, err,
                        "%s: '%s' takes gpu, cpu or accelerator, not '%s'", who, m->name, value);
        memcpy(at, &type, sizeof type);
        return CLMEM_OK;
    }
    uint64_t v = 0;
    int status = parse_number(who, m, value, &v, err);
    if (status)
        return status;
    if (m->size == sizeof(uint32_t)) {
        uint32_t v32 = (uint32_t)v; /* the range keeps it whole */
        memcpy(at, &v32, sizeof v32);
    } else {
        memcpy(at, &v, sizeof v);
    }
    return CLMEM_OK;
}

/* ---- devices ---- */
static const struct clmem_member device_members[] = {
    CLMEM_MEMBER(clmem_device, name, "name"),
    CLMEM_MEMBER(clmem_device, platform_name, "platform"),
    CLMEM_MEMBER(clmem_device, vendor, "vendor"),
    CLMEM_MEMBER(clmem_device, version, "version"),
    CLMEM_MEMBER(clmem_device, driver, "driver"),
    CLMEM_MEMBER(clmem_device, c_version, "opencl_c_version"),
    CLMEM_MEMBER(clmem_device, family, "family"),
};

const struct clmem_device *clmem_device_at(const struct clmem_device *devices, size_t count,
                                           size_t i)
{
    return devices && i < count ? &devices[i] : NULL;
}

const char *clmem_device_text(const struct clmem_device *device, const char *field)
{
    return clmem_member_text(device, device_members, CLMEM_ARRAY_SIZE(device_members), field);
}

cl_device_id clmem_device_id(const struct clmem_device *device)
{
    return device ? device->id : NULL;
}

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

/* ---- a report's meta: copies of what it names ---- */
struct held_meta {
    struct clmem_report_meta meta; /* first: the handle is its address */
    struct clmem_device device;
    struct clmem_peak peak;
};

int clmem_report_meta_create(const struct clmem_device *device, const struct clmem_peak *peak,
                             struct clmem_report_meta **meta, struct clmem_error *err)
{
    CLMEM_REFUSE_NULL(err, err);
    CLMEM_REFUSE_NULL(meta, err);
    struct held_meta *held = calloc(1, sizeof *held);
    *meta = held ? &held->meta : NULL;
    if (!held)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    if (device) {
        held->device = *device;
        held->meta.device = &held->device;
    }
    if (peak) {
        held->peak = *peak;
        held->meta.peak = &held->peak;
    }
    return CLMEM_OK;
}

void clmem_report_meta_release(struct clmem_report_meta *meta)
{
    free(meta); /* the held_meta it starts */
}

/* ---- run files ---- */
const struct clmem_result *clmem_runfile_results(const struct clmem_compare_device *runs,
                                                 size_t n_runs, size_t i, size_t *n_results)
{
    if (n_results)
        *n_results = 0;
    if (!runs || i >= n_runs || !n_results)
        return NULL;
    *n_results = runs[i].n_results;
    return runs[i].results;
}
