/* Reading run files back (clmem compare FILE..., clmem diff): the JSON that
 * clmem_report_json and the MPI report write, of any schema this clmem knows
 * (a file without schema_version is refused). Everything read is checked, so
 * a bad file is one usage error naming it before any work. */
#include "report/json.h"

#include <cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Larger than any run file clmem writes (a whole bench is about 100 KiB). */
#define MAX_RUN_FILE_BYTES (256u << 20)
/* The JSON values read at most, each a node of cJSON's (about 100 bytes
 * with its key): 4 Mi of them take about 400 MiB. A result holds about
 * 35, so this is over 100,000 results; a 50 MB array of numbers (12
 * million of them, 2 GB parsed) is refused before it is parsed. */
#define MAX_RUN_FILE_VALUES ((size_t)4 << 20)

/* What a problem in the file is reported against. */
struct reader {
    const char *path;
    struct clmem_error *err;
    char where[64]; /* "result 3", "rank 1 result 3", or "" */
};

static int bad(struct reader *rd, const char *fmt, const char *field)
{
    char what[256];
    snprintf(what, sizeof what, fmt, field);
    return clmem_fail(rd->err, CLMEM_ERR_USAGE, "'%s' is not a clmem run file: %s%s%s", rd->path,
                      rd->where, rd->where[0] ? ": " : "", what);
}

/* The whole file, NUL-terminated. */
static int read_whole(struct reader *rd, char **text, size_t *len)
{
    int fd = open(rd->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return clmem_fail(rd->err, CLMEM_ERR_USAGE, "cannot read '%s': %s", rd->path,
                          strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        int saved = S_ISDIR(st.st_mode) ? EISDIR : errno;
        close(fd);
        return clmem_fail(rd->err, CLMEM_ERR_USAGE, "cannot read '%s': %s", rd->path,
                          strerror(saved));
    }
    /* Read to the end rather than trusting st_size: a pipe has none. */
    int failed = clmem_read_fd(fd, MAX_RUN_FILE_BYTES, 0, text, len);
    int saved = errno;
    close(fd);
    if (failed && saved == ENOMEM)
        return clmem_fail(rd->err, CLMEM_ERR_USAGE, "out of memory reading '%s'", rd->path);
    if (failed && saved == EFBIG)
        return clmem_fail(rd->err, CLMEM_ERR_USAGE,
                          "cannot read '%s': larger than %u MiB, not a run file", rd->path,
                          MAX_RUN_FILE_BYTES >> 20);
    if (failed)
        return clmem_fail(rd->err, CLMEM_ERR_USAGE, "cannot read '%s': %s", rd->path,
                          strerror(saved));
    return CLMEM_OK;
}

/* ---- what a file of a schema must hold ----
 * Each section's keys that schema/run.schema.json requires (its `required`
 * lists): a file that lacks one is refused, naming it.
 * tests/test_runfile.c removes each key that the schema requires from a
 * good file, so these lists follow it. */
static const char *const single_keys[] = {"schema_version", "clmem_version", "created",
                                          "host",           "results",       NULL};
static const char *const ranks_keys[] = {"schema_version", "clmem_version", "created", "ranks",
                                         NULL};
static const char *const rank_keys[] = {"rank", "host", "device", "status", "results", NULL};
static const char *const host_keys[] = {"name",  "os",           "kernel", "cpu",
                                        "cores", "memory_bytes", NULL};
static const char *const device_keys[] = {"name",
                                          "platform",
                                          "vendor",
                                          "type",
                                          "version",
                                          "driver",
                                          "compute_units",
                                          "clock_mhz",
                                          "global_mem_bytes",
                                          "local_mem_bytes",
                                          "max_work_group",
                                          "opencl_c_version",
                                          "max_alloc_bytes",
                                          "base_addr_align_bits",
                                          "fp64",
                                          NULL};
static const char *const peak_keys[] = {"bandwidth_gbs", "fp32_gflops", NULL};
static const char *const result_keys[] = {"workload", "variant", "device", "size", "params",
                                          "status",   "reps",    "warmup", "seed", NULL};
static const char *const timed_keys[] = {"samples_ms",   "median_ms", "min_ms",        "max_ms",
                                         "metric",       "unit",      "max_rel_error", "verified",
                                         "verify_scope", NULL};
static const char *const skipped_keys[] = {"skip_reason", NULL};
/* clmem hierarchy's object: its levels and the curves they were read from. */
static const char *const hierarchy_keys[] = {
    "extent_bytes",  "largest_cache_bytes", "largest_cache_from",  "levels", "latency",
    "local_latency", "bandwidth",           "unmatched_bandwidth", NULL};
static const char *const level_keys[] = {"name", "memory", "first_bytes", "latency_ns", NULL};
static const char *const curve_ns_keys[] = {"bytes", "ns", NULL};
static const char *const curve_gbs_keys[] = {"bytes", "gbs", NULL};

/* The first of `keys` that `o` lacks, refused ("no 'os' in 'host'" when
 * `section` names it). */
static int require(struct reader *rd, const cJSON *o, const char *section, const char *const keys[])
{
    if (!cJSON_IsObject(o))
        return CLMEM_OK;
    for (size_t i = 0; keys[i]; i++)
        if (!cJSON_GetObjectItemCaseSensitive(o, keys[i])) {
            char what[128];
            snprintf(what, sizeof what, "no '%s'%s%s%s", keys[i], section ? " in '" : "",
                     section ? section : "", section ? "'" : "");
            return bad(rd, "%s", what);
        }
    return CLMEM_OK;
}

/* The keys the schema requires of clmem hierarchy's object and of each
 * item of its lists, where the file has one (what it holds is not read
 * back: compare and diff use the results). */
static int require_hierarchy(struct reader *rd, const cJSON *root)
{
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(root, "hierarchy");
    static const struct {
        const char *list;
        const char *const *keys;
    } lists[] = {{"levels", level_keys},
                 {"latency", curve_ns_keys},
                 {"local_latency", curve_ns_keys},
                 {"bandwidth", curve_gbs_keys},
                 {"unmatched_bandwidth", curve_gbs_keys}};
    int status = require(rd, h, "hierarchy", hierarchy_keys);
    for (size_t i = 0; h && status == CLMEM_OK && i < CLMEM_ARRAY_SIZE(lists); i++) {
        const cJSON *item, *list = cJSON_GetObjectItemCaseSensitive(h, lists[i].list);
        cJSON_ArrayForEach(item, list)
        {
            if ((status = require(rd, item, lists[i].list, lists[i].keys)))
                break;
        }
    }
    return status;
}

/* ---- typed fields: absent is allowed where `required` is 0 ---- */

static int get_string(struct reader *rd, const cJSON *o, const char *key, int required, char *out,
                      size_t size)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v)
        return required ? bad(rd, "no '%s'", key) : CLMEM_OK;
    if (!cJSON_IsString(v))
        return bad(rd, "'%s' is not a string", key);
    clmem_text_copy(out, size, v->valuestring);
    return CLMEM_OK;
}

/* null reads as `if_null` (the writer's way of saying "not finite"). */
static int get_number(struct reader *rd, const cJSON *o, const char *key, int required,
                      double if_null, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v)
        return required ? bad(rd, "no '%s'", key) : CLMEM_OK;
    if (cJSON_IsNull(v)) {
        *out = if_null;
        return CLMEM_OK;
    }
    if (!cJSON_IsNumber(v))
        return bad(rd, "'%s' is not a number", key);
    *out = v->valuedouble;
    return CLMEM_OK;
}

static int get_count(struct reader *rd, const cJSON *o, const char *key, unsigned *out)
{
    double v = NAN;
    int status = get_number(rd, o, key, 0, NAN, &v);
    if (status || isnan(v))
        return status;
    if (v < 0 || v > 4294967295.0 || v != floor(v))
        return bad(rd, "'%s' is not a whole number", key);
    *out = (unsigned)v;
    return CLMEM_OK;
}

/* The seed is written as an exact integer; doubles hold it exactly up to
 * 2^53, beyond that it is for show only (a file's results are matched by
 * workload, variant and size, never by seed). */
/* The clock that timed a result (absent before clocks were named): "events" or "host",
 * with the runs each sample held; "" in older files. */
static int get_timer(struct reader *rd, const cJSON *o, struct clmem_result *r)
{
    int status = get_string(rd, o, "timer", 0, r->timer, sizeof r->timer);
    if (status)
        return status;
    if (r->timer[0] && strcmp(r->timer, "events") != 0 && strcmp(r->timer, "host") != 0)
        return bad(rd, "unknown 'timer' '%s' (events or host)", r->timer);
    if ((status = get_count(rd, o, "runs_per_sample", &r->runs_per_sample)))
        return status;
    if (r->timer[0] && r->runs_per_sample == 0)
        return bad(rd, "%s", "'timer' without 'runs_per_sample' of at least 1");
    const cJSON *demo = cJSON_GetObjectItemCaseSensitive(o, "demonstrates_failure");
    if (demo && !cJSON_IsBool(demo))
        return bad(rd, "%s", "'demonstrates_failure' is not true or false");
    r->demonstrates_failure = cJSON_IsTrue(demo);
    /* Files written before the field: atomics' racy variant, the one that
     * shows a failure by design then, is marked as a newer file marks it. */
    if (!demo && !r->timer[0] && strcmp(r->workload, "atomics") == 0 &&
        strcmp(r->variant, "racy") == 0)
        r->demonstrates_failure = 1;
    return CLMEM_OK;
}

/* The device's energy over the result's runs (absent in files written
 * before it was read, and where it was not): the figures and their
 * counter, or "na" saying why there are none. */
static int get_energy(struct reader *rd, const cJSON *o, struct clmem_result *r)
{
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(o, "energy");
    r->energy_j = r->power_w = r->energy_efficiency = r->energy_span_s = NAN;
    if (!e)
        return CLMEM_OK;
    if (!cJSON_IsObject(e))
        return bad(rd, "%s", "'energy' is not an object");
    int status;
    if ((status = get_string(rd, e, "source", 0, r->energy_source, sizeof r->energy_source)) ||
        (status = get_string(rd, e, "na", 0, r->energy_na, sizeof r->energy_na)))
        return status;
    if (r->energy_na[0])
        return CLMEM_OK;
    if (!r->energy_source[0])
        return bad(rd, "%s", "no 'source' in 'energy' (nor 'na', why there are no figures)");
    double runs = NAN;
    if ((status = get_number(rd, e, "energy_j", 1, NAN, &r->energy_j)) ||
        (status = get_number(rd, e, "power_w", 1, NAN, &r->power_w)) ||
        (status = get_number(rd, e, "efficiency", 0, NAN, &r->energy_efficiency)) ||
        (status = get_number(rd, e, "span_s", 1, NAN, &r->energy_span_s)) ||
        (status = get_number(rd, e, "runs", 1, NAN, &runs)))
        return status;
    if (!(r->energy_j > 0) || !(r->power_w > 0) || !(r->energy_span_s > 0))
        return bad(rd, "%s", "'energy' has a figure that is not a positive number");
    if (!(runs >= 1) || runs != floor(runs) || runs >= 18446744073709551616.0)
        return bad(rd, "%s", "'energy' 'runs' is not a whole number of at least 1");
    r->energy_runs = (uint64_t)runs;
    return CLMEM_OK;
}

static int get_seed(struct reader *rd, const cJSON *o, uint64_t *out)
{
    double v = NAN;
    int status = get_number(rd, o, "seed", 0, NAN, &v);
    if (status || isnan(v))
        return status;
    if (v < 0 || v >= 18446744073709551616.0 || v != floor(v))
        return bad(rd, "'%s' is not a whole number", "seed");
    *out = (uint64_t)v;
    return CLMEM_OK;
}

static int parse_result(struct reader *rd, const cJSON *o, struct clmem_result *r)
{
    char status_text[16] = "";
    int status;
    /* Beyond clmem_result_append's defaults: no figures until read. */
    r->median_ms = r->min_ms = r->max_ms = r->metric = NAN;
    if (!cJSON_IsObject(o))
        return bad(rd, "%s", "not an object");
    if ((status = require(rd, o, NULL, result_keys)))
        return status;
    if ((status = get_string(rd, o, "workload", 1, r->workload, sizeof r->workload)) ||
        (status = get_string(rd, o, "variant", 1, r->variant, sizeof r->variant)) ||
        (status = get_string(rd, o, "size", 1, r->size, sizeof r->size)) ||
        (status = get_string(rd, o, "status", 1, status_text, sizeof status_text)) ||
        (status = get_string(rd, o, "device", 0, r->device, sizeof r->device)) ||
        (status = get_string(rd, o, "params", 0, r->params, sizeof r->params)) ||
        (status = get_string(rd, o, "sweep", 0, r->sweep, sizeof r->sweep)) ||
        (status = get_count(rd, o, "sweep_value", &r->sweep_value)) ||
        (status = get_count(rd, o, "reps", &r->reps)) ||
        (status = get_count(rd, o, "warmup", &r->warmup)) || (status = get_seed(rd, o, &r->seed)))
        return status;
    if (strcmp(status_text, "skipped") == 0) {
        r->skipped = 1;
        if ((status = require(rd, o, NULL, skipped_keys)))
            return status;
        return get_string(rd, o, "skip_reason", 0, r->skip_reason, sizeof r->skip_reason);
    }
    if (strcmp(status_text, "ok") != 0 && strcmp(status_text, "FAILED") != 0)
        return bad(rd, "unknown status '%s'", status_text);
    if (strcmp(status_text, "FAILED") != 0 && cJSON_GetObjectItemCaseSensitive(o, "error"))
        return bad(rd, "'error' in a result of status '%s'", status_text);
    /* FAILED by an error (kernels that did not build): no measurement. */
    if (strcmp(status_text, "FAILED") == 0 && cJSON_GetObjectItemCaseSensitive(o, "error")) {
        if ((status = get_string(rd, o, "error", 1, r->error, sizeof r->error)) ||
            (status = get_string(rd, o, "unit", 1, r->metric_unit, sizeof r->metric_unit)))
            return status;
        if (!r->error[0])
            return bad(rd, "%s", "'error' is empty");
        return CLMEM_OK;
    }
    if ((status = require(rd, o, NULL, timed_keys)))
        return status;
    const cJSON *samples = cJSON_GetObjectItemCaseSensitive(o, "samples_ms");
    if (!cJSON_IsArray(samples))
        return bad(rd, "%s", "'samples_ms' is not a list");
    size_t n = (size_t)cJSON_GetArraySize(samples);
    if (n && !(r->samples_ms = clmem_alloc_array(n, sizeof *r->samples_ms, rd->err)))
        return CLMEM_ERR_CL;
    const cJSON *s;
    cJSON_ArrayForEach(s, samples)
    {
        if (!cJSON_IsNumber(s) || !(s->valuedouble >= 0))
            return bad(rd, "%s", "a sample in 'samples_ms' is not a time");
        r->samples_ms[r->n_samples++] = s->valuedouble;
    }
    const cJSON *verified = cJSON_GetObjectItemCaseSensitive(o, "verified");
    if (!cJSON_IsBool(verified))
        return bad(rd, "%s", "'verified' is not true or false");
    r->verified = cJSON_IsTrue(verified);
    if (r->verified != (strcmp(status_text, "ok") == 0))
        return bad(rd, "'status' '%s' and 'verified' disagree", status_text);
    if ((status = get_number(rd, o, "median_ms", 1, NAN, &r->median_ms)) ||
        (status = get_number(rd, o, "min_ms", 0, NAN, &r->min_ms)) ||
        (status = get_number(rd, o, "max_ms", 0, NAN, &r->max_ms)) ||
        (status = get_number(rd, o, "metric", 1, NAN, &r->metric)) ||
        (status = get_string(rd, o, "unit", 1, r->metric_unit, sizeof r->metric_unit)) ||
        (status = get_number(rd, o, "baseline_fraction", 0, NAN, &r->baseline_fraction)) ||
        (status = get_number(rd, o, "peak_fraction", 0, NAN, &r->peak_fraction)) ||
        (status = get_number(rd, o, "looped_ms", 0, NAN, &r->looped_ms)) ||
        (status = get_number(rd, o, "max_rel_error", 0, INFINITY, &r->max_rel_error)) ||
        (status = get_string(rd, o, "note", 0, r->note, sizeof r->note)) ||
        (status = get_string(rd, o, "verify_scope", 0, r->verify_scope, sizeof r->verify_scope)) ||
        (status = get_number(rd, o, "flops_per_byte", 0, NAN, &r->flops_per_byte)) ||
        (status = get_timer(rd, o, r)) || (status = get_energy(rd, o, r)))
        return status;
    /* Figures that no measurement gives: a file edited by hand, or forged
     * to pass a gate (a metric of 0 makes no ratio, so no verdict). */
    if (r->metric <= 0)
        return bad(rd, "%s", "'metric' is 0 or below, which no measurement gives");
    if (r->min_ms > r->max_ms)
        return bad(rd, "%s", "'min_ms' is above 'max_ms'");
    return CLMEM_OK;
}

/* The fields of `table` from `o` into `object` (a struct the table
 * describes), as clmem_json_device and clmem_json_host write them. */
static int parse_fields(struct reader *rd, const cJSON *o, const struct clmem_json_fields *table,
                        void *object)
{
    int status = CLMEM_OK;
    for (size_t i = 0; i < table->n && !status; i++) {
        const struct clmem_json_field *f = &table->fields[i];
        char *member = (char *)object + f->offset, text[64] = "";
        double value = 0;
        switch (f->type) {
        case CLMEM_JSON_TEXT:
            status = get_string(rd, o, f->key, f->required, member, f->size);
            break;
        case CLMEM_JSON_WHOLE:
            if (!(status = get_number(rd, o, f->key, f->required, 0, &value)))
                clmem_json_whole_set(member, f->size, value);
            break;
        case CLMEM_JSON_BOOL: {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, f->key);
            int flag = cJSON_IsTrue(v);
            if (v && !cJSON_IsBool(v))
                status = bad(rd, "'%s' is not true or false", f->key);
            else if (!v && f->required)
                status = bad(rd, "no '%s'", f->key);
            memcpy(member, &flag, sizeof flag);
            break;
        }
        case CLMEM_JSON_DEVICE_TYPE: {
            /* A name clmem_device_type_name gives, else the default type. */
            status = get_string(rd, o, f->key, f->required, text, sizeof text);
            cl_device_type type = clmem_device_type_of(text);
            memcpy(member, &type, sizeof type);
            break;
        }
        }
    }
    return status;
}

static int parse_device(struct reader *rd, const cJSON *o, struct clmem_device *d)
{
    memset(d, 0, sizeof *d);
    if (!cJSON_IsObject(o))
        return bad(rd, "%s", "no 'device' object");
    int status = require(rd, o, "device", device_keys);
    if (status)
        return status;
    return parse_fields(rd, o, &clmem_json_device_fields, d);
}

static int parse_peak(struct reader *rd, const cJSON *o, struct clmem_peak *p)
{
    double bw = 0, flops = 0, read = 0, launch = 0;
    int status;
    if (!o)
        return CLMEM_OK;
    if (!cJSON_IsObject(o))
        return bad(rd, "%s", "'peak' is not an object");
    if ((status = require(rd, o, "peak", peak_keys)) ||
        (status = get_number(rd, o, "bandwidth_gbs", 0, 0, &bw)) ||
        (status = get_number(rd, o, "fp32_gflops", 0, 0, &flops)) ||
        (status = get_number(rd, o, "read_bandwidth_gbs", 0, 0, &read)) ||
        (status = get_number(rd, o, "launch_us", 0, 0, &launch)))
        return status;
    p->bandwidth = bw > 0 ? bw : 0;
    p->flops = flops > 0 ? flops : 0;
    p->read_bandwidth = read > 0 ? read : 0;
    p->launch_us = launch > 0 ? launch : 0;
    return CLMEM_OK;
}

static int parse_host(struct reader *rd, const cJSON *o, struct clmem_host *h)
{
    if (!cJSON_IsObject(o))
        return bad(rd, "%s", "'host' is not an object");
    int status = require(rd, o, "host", host_keys);
    if (status)
        return status;
    return parse_fields(rd, o, &clmem_json_host_fields, h);
}

/* A result as clmem_result_append makes one (its defaults kept in one
 * place), in an array the reader sized itself. */
static int result_init(struct clmem_result *r)
{
    struct clmem_result *one = NULL;
    size_t n = 0;
    if (!clmem_result_append(&one, &n, "", "", "", ""))
        return -1;
    *r = *one;
    free(one);
    return 0;
}

/* One device's section: the whole file, or one rank of an MPI file. */
static int parse_run(struct reader *rd, const cJSON *o, const cJSON *host,
                     struct clmem_compare_device *run)
{
    int status;
    if ((status = parse_device(rd, cJSON_GetObjectItemCaseSensitive(o, "device"), &run->device)) ||
        (status = parse_peak(rd, cJSON_GetObjectItemCaseSensitive(o, "peak"), &run->peak)) ||
        (status = parse_host(rd, host, &run->host_info)))
        return status;
    clmem_text_copy(run->host, sizeof run->host, run->host_info.name);
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(o, "results");
    if (!cJSON_IsArray(list))
        return bad(rd, "%s", "no 'results' list");
    size_t prefix = strlen(rd->where), count = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, list)
    {
        count++;
    }
    /* Allocated once: grown one result at a time, 40,000 results (120 MB)
     * spent their time moving the array. */
    if (count && !(run->results = calloc(count, sizeof *run->results)))
        return clmem_fail(rd->err, CLMEM_ERR_USAGE, "out of memory reading '%s' (%zu results)",
                          rd->path, count);
    cJSON_ArrayForEach(item, list)
    {
        snprintf(rd->where + prefix, sizeof rd->where - prefix, "%sresult %zu", prefix ? " " : "",
                 run->n_results + 1);
        /* Counted even when half-read, so that it is freed. */
        struct clmem_result *r = &run->results[run->n_results++];
        if (result_init(r) != 0)
            return clmem_fail(rd->err, CLMEM_ERR_USAGE, "out of memory reading '%s'", rd->path);
        if ((status = parse_result(rd, item, r)))
            return status;
    }
    rd->where[prefix] = '\0';
    return CLMEM_OK;
}

static void hierarchy_free(struct clmem_saved_hierarchy *h)
{
    if (!h)
        return;
    free(h->latency);
    free(h->local_latency);
    free(h->bandwidth);
    free(h->unmatched);
    free(h);
}

void clmem_compare_devices_free(struct clmem_compare_device *runs, size_t n)
{
    for (size_t i = 0; runs && i < n; i++) {
        clmem_results_free(runs[i].results, runs[i].n_results);
        hierarchy_free(runs[i].hierarchy);
    }
    free(runs);
}

/* A curve's point and its place in the file: sorted by bytes, points of
 * equal bytes keep the file's order. */
struct placed_point {
    struct clmem_saved_point p;
    size_t at;
};

static int by_bytes(const void *a, const void *b)
{
    const struct placed_point *x = a, *y = b;
    if (x->p.bytes != y->p.bytes)
        return x->p.bytes < y->p.bytes ? -1 : 1;
    return (x->at > y->at) - (x->at < y->at);
}

/* One of the hierarchy's curves: points of `bytes` and `value_key`, kept
 * in ascending order of bytes (a file need not be sorted: it is sorted
 * once, in n log n, where an insertion sort of 320,000 points in
 * descending order took a minute); points whose figures are not above 0
 * are left out. */
static int parse_curve(struct reader *rd, const cJSON *h, const char *key, const char *value_key,
                       struct clmem_saved_point **out, size_t *n)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(h, key), *item;
    *out = NULL;
    *n = 0;
    if (!cJSON_IsArray(list))
        return bad(rd, "'hierarchy.%s' is not a list", key);
    size_t count = (size_t)cJSON_GetArraySize(list), kept = 0;
    if (!count)
        return CLMEM_OK;
    struct placed_point *placed = calloc(count, sizeof *placed);
    struct clmem_saved_point *c = calloc(count, sizeof *c);
    if (!placed || !c) {
        free(placed);
        free(c);
        return clmem_fail(rd->err, CLMEM_ERR_USAGE, "out of memory reading '%s'", rd->path);
    }
    int sorted = 1;
    cJSON_ArrayForEach(item, list)
    {
        double bytes = NAN, v = NAN;
        int status;
        if ((status = get_number(rd, item, "bytes", 1, NAN, &bytes)) ||
            (status = get_number(rd, item, value_key, 1, NAN, &v))) {
            free(placed);
            free(c);
            return status;
        }
        if (!(bytes > 0) || !(v > 0) || !isfinite(bytes) || !isfinite(v))
            continue;
        if (kept && placed[kept - 1].p.bytes > bytes)
            sorted = 0;
        placed[kept] = (struct placed_point){{bytes, v}, kept};
        kept++;
    }
    if (!sorted)
        qsort(placed, kept, sizeof *placed, by_bytes);
    for (size_t i = 0; i < kept; i++)
        c[i] = placed[i].p;
    free(placed);
    *out = c;
    *n = kept;
    return CLMEM_OK;
}

/* clmem hierarchy's object, where the file has one (its keys checked by
 * require_hierarchy). */
static int parse_hierarchy(struct reader *rd, const cJSON *o, struct clmem_saved_hierarchy **out)
{
    *out = NULL;
    if (!o)
        return CLMEM_OK;
    if (!cJSON_IsObject(o))
        return bad(rd, "%s", "'hierarchy' is not an object");
    struct clmem_saved_hierarchy *h = calloc(1, sizeof *h);
    if (!h)
        return clmem_fail(rd->err, CLMEM_ERR_USAGE, "out of memory reading '%s'", rd->path);
    int status;
    const cJSON *levels = cJSON_GetObjectItemCaseSensitive(o, "levels"), *item;
    if ((status = get_number(rd, o, "extent_bytes", 1, 0, &h->extent)) ||
        (status = get_number(rd, o, "largest_cache_bytes", 1, 0, &h->cache_bytes)) ||
        (status =
             get_string(rd, o, "largest_cache_from", 1, h->cache_from, sizeof h->cache_from)) ||
        (status = get_number(rd, o, "clock_mhz", 0, 0, &h->clock_mhz)))
        goto fail;
    if (!cJSON_IsArray(levels)) {
        status = bad(rd, "%s", "'hierarchy.levels' is not a list");
        goto fail;
    }
    cJSON_ArrayForEach(item, levels)
    {
        if (h->n_levels == CLMEM_SAVED_LEVELS)
            break;
        struct clmem_saved_level *L = &h->levels[h->n_levels];
        const cJSON *memory = cJSON_GetObjectItemCaseSensitive(item, "memory");
        L->size_bytes = 0;
        L->latency_cycles = L->bandwidth_gbs = L->bandwidth_bytes = NAN;
        if ((status = get_string(rd, item, "name", 1, L->name, sizeof L->name)) ||
            (status = get_number(rd, item, "size_bytes", 0, 0, &L->size_bytes)) ||
            (status = get_number(rd, item, "first_bytes", 1, NAN, &L->first_bytes)) ||
            (status = get_number(rd, item, "latency_ns", 1, NAN, &L->latency_ns)) ||
            (status = get_number(rd, item, "latency_cycles", 0, NAN, &L->latency_cycles)) ||
            (status = get_number(rd, item, "bandwidth_gbs", 0, NAN, &L->bandwidth_gbs)) ||
            (status = get_number(rd, item, "bandwidth_bytes", 0, NAN, &L->bandwidth_bytes)))
            goto fail;
        if (!cJSON_IsBool(memory)) {
            status = bad(rd, "%s", "'hierarchy.levels[].memory' is not true or false");
            goto fail;
        }
        L->is_memory = cJSON_IsTrue(memory);
        h->n_levels++;
    }
    if ((status = parse_curve(rd, o, "latency", "ns", &h->latency, &h->n_latency)) ||
        (status =
             parse_curve(rd, o, "local_latency", "ns", &h->local_latency, &h->n_local_latency)) ||
        (status = parse_curve(rd, o, "bandwidth", "gbs", &h->bandwidth, &h->n_bandwidth)) ||
        (status = parse_curve(rd, o, "unmatched_bandwidth", "gbs", &h->unmatched, &h->n_unmatched)))
        goto fail;
    *out = h;
    return CLMEM_OK;
fail:
    hierarchy_free(h);
    return status;
}

static int parse_file(struct reader *rd, const cJSON *root, struct clmem_compare_device **runs,
                      size_t *n_runs)
{
    char version[64] = "", created[40] = "";
    int status;
    if (!cJSON_IsObject(root))
        return bad(rd, "%s", "not a JSON object");
    /* Every file clmem reads is of schema 1; one of a later version that
     * changes a field's meaning would be told apart here. */
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema_version");
    if (!schema)
        return bad(rd, "%s",
                   cJSON_GetObjectItemCaseSensitive(root, "clmem_version")
                       ? "no 'schema_version' (written by a clmem before run files had one)"
                       : "no 'schema_version'");
    if (!cJSON_IsNumber(schema) || schema->valuedouble < 1 ||
        schema->valuedouble != floor(schema->valuedouble))
        return bad(rd, "%s", "'schema_version' is not a positive whole number");
    if (schema->valuedouble > CLMEM_SCHEMA_VERSION)
        return clmem_fail(rd->err, CLMEM_ERR_USAGE,
                          "'%s' has schema_version %.0f, newer than this clmem reads (%d): "
                          "read it with a newer clmem",
                          rd->path, schema->valuedouble, CLMEM_SCHEMA_VERSION);
    char git[64] = "";
    if ((status = get_string(rd, root, "clmem_version", 1, version, sizeof version)) ||
        (status = get_string(rd, root, "clmem_git", 0, git, sizeof git)) ||
        (status = get_string(rd, root, "created", 0, created, sizeof created)))
        return status;
    const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(root, "ranks");
    if (!ranks && !cJSON_GetObjectItemCaseSensitive(root, "results"))
        return bad(rd, "%s", "no 'results' list (nor 'ranks')");
    if ((status = require(rd, root, NULL, ranks ? ranks_keys : single_keys)) ||
        (status = require_hierarchy(rd, root)))
        return status;
    const cJSON *stopped = cJSON_GetObjectItemCaseSensitive(root, "interrupted");
    if (stopped && !cJSON_IsBool(stopped))
        return bad(rd, "%s", "'interrupted' is not true or false");
    size_t n = 1;
    if (ranks) {
        if (!cJSON_IsArray(ranks))
            return bad(rd, "%s", "'ranks' is not a list");
        n = (size_t)cJSON_GetArraySize(ranks);
    }
    /* As many runs as --device takes devices: each becomes files of a
     * report (device-N.json, its plots). */
    if (*n_runs + n > CLMEM_MAX_RUNS)
        return clmem_fail(rd->err, CLMEM_ERR_USAGE,
                          "'%s' holds %zu runs, which with the %zu before it is more than the %d "
                          "clmem reads at once",
                          rd->path, n, *n_runs, CLMEM_MAX_RUNS);
    struct clmem_compare_device *found = calloc(n ? n : 1, sizeof *found);
    if (!found)
        return clmem_fail(rd->err, CLMEM_ERR_CL, "out of host memory");
    size_t kept = 0, results = 0;
    const cJSON *section = ranks ? ranks->child : root;
    for (size_t i = 0; i < n && status == CLMEM_OK; i++, section = section->next) {
        struct clmem_compare_device *run = &found[kept];
        run->rank = -1;
        if (ranks) {
            double rank = (double)i;
            snprintf(rd->where, sizeof rd->where, "rank %zu", i);
            if (!cJSON_IsObject(section)) {
                status = bad(rd, "%s", "not an object");
                break;
            }
            if ((status = require(rd, section, NULL, rank_keys)) ||
                (status = get_number(rd, section, "rank", 0, rank, &rank)))
                break;
            run->rank = (int)rank;
            /* A rank that failed before it ran anything has no device to show. */
            const cJSON *list = cJSON_GetObjectItemCaseSensitive(section, "results");
            if (cJSON_IsArray(list) && cJSON_GetArraySize(list) == 0)
                continue;
        }
        status = parse_run(rd, section, cJSON_GetObjectItemCaseSensitive(section, "host"), run);
        clmem_text_copy(run->origin, sizeof run->origin, rd->path);
        clmem_text_copy(run->created, sizeof run->created, created);
        clmem_text_copy(run->clmem_version, sizeof run->clmem_version, version);
        clmem_text_copy(run->clmem_git, sizeof run->clmem_git, git);
        run->interrupted = cJSON_IsTrue(stopped);
        if (status == CLMEM_OK && !ranks)
            status = parse_hierarchy(rd, cJSON_GetObjectItemCaseSensitive(root, "hierarchy"),
                                     &run->hierarchy);
        results += run->n_results;
        kept++;
    }
    if (status == CLMEM_OK && results == 0) {
        rd->where[0] = '\0';
        status = clmem_fail(rd->err, CLMEM_ERR_USAGE, "'%s' holds no results", rd->path);
    }
    if (status == CLMEM_OK) {
        struct clmem_compare_device *all = realloc(*runs, (*n_runs + kept) * sizeof *all);
        if (!all)
            status = clmem_fail(rd->err, CLMEM_ERR_CL, "out of host memory");
        else {
            memcpy(all + *n_runs, found, kept * sizeof *found);
            *runs = all;
            *n_runs += kept;
            free(found);
            return CLMEM_OK;
        }
    }
    /* The half-read run was counted in `kept` only when it finished. */
    clmem_compare_devices_free(found, kept < n ? kept + 1 : kept);
    return status;
}

/* ---- the text as a whole: one JSON document, UTF-8, each key once ---- */

static int key_order(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Where `item` sits, for a message: "results[2].device" from its parent's
 * place. */
static void place_of(const char *parent, const cJSON *item, size_t index, char *out, size_t size)
{
    if (item->string)
        snprintf(out, size, "%s%s%s", parent, parent[0] ? "." : "", item->string);
    else
        snprintf(out, size, "%s[%zu]", parent, index);
}

/* Every string (keys too) valid UTF-8, and no key twice in an object:
 * parsers disagree on which of two keys wins (cJSON reads the first,
 * Python's json the last), so such a file is refused rather than read one
 * way here and another elsewhere. */
static int check_tree(struct reader *rd, const cJSON *node, const char *place)
{
    size_t n = 0, index = 0;
    for (const cJSON *c = node->child; c; c = c->next)
        n++;
    if (cJSON_IsObject(node) && n > 1) {
        const char **keys = malloc(n * sizeof *keys);
        if (!keys)
            return clmem_fail(rd->err, CLMEM_ERR_CL, "out of host memory");
        size_t k = 0;
        for (const cJSON *c = node->child; c; c = c->next)
            keys[k++] = c->string ? c->string : "";
        qsort(keys, n, sizeof *keys, key_order);
        for (k = 1; k < n && strcmp(keys[k - 1], keys[k]) != 0; k++)
            ;
        int twice = k < n;
        char key[64];
        if (twice)
            snprintf(key, sizeof key, "%s", keys[k]);
        free(keys);
        if (twice)
            return clmem_fail(rd->err, CLMEM_ERR_USAGE,
                              "'%s' is not a clmem run file: the key '%s' appears twice in %s%s%s",
                              rd->path, key, place[0] ? "'" : "the top-level object", place,
                              place[0] ? "'" : "");
    }
    for (const cJSON *c = node->child; c; c = c->next, index++) {
        char here[256];
        place_of(place, c, index, here, sizeof here);
        size_t bad_at;
        if (c->string && !clmem_utf8_valid(c->string, strlen(c->string), &bad_at))
            return clmem_fail(rd->err, CLMEM_ERR_USAGE,
                              "'%s' is not a clmem run file: a key in '%s' is not UTF-8 (byte %zu "
                              "of it)",
                              rd->path, place[0] ? place : "the top level", bad_at);
        if (cJSON_IsString(c) && c->valuestring &&
            !clmem_utf8_valid(c->valuestring, strlen(c->valuestring), &bad_at))
            return clmem_fail(rd->err, CLMEM_ERR_USAGE,
                              "'%s' is not a clmem run file: '%s' is not UTF-8 (byte %zu of it)",
                              rd->path, here, bad_at);
        if (c->child) {
            int status = check_tree(rd, c, here);
            if (status)
                return status;
        }
    }
    return CLMEM_OK;
}

int clmem_runfile_load(const char *path, struct clmem_compare_device **runs, size_t *n_runs,
                       struct clmem_error *err)
{
    CLMEM_REFUSE_NULL(err, err);
    CLMEM_REFUSE_NULL(path, err);
    CLMEM_REFUSE_IF(!runs || !n_runs, err, "%s: '%s' is NULL", __func__, runs ? "n_runs" : "runs");
    CLMEM_REFUSE_IF(!*runs && *n_runs, err, "%s: *runs is NULL, *n_runs %zu", __func__, *n_runs);
    struct reader rd = {.path = path, .err = err};
    char *text = NULL;
    size_t len = 0;
    int status = read_whole(&rd, &text, &len);
    if (status)
        return status;
    if (len == 0) {
        free(text);
        return clmem_fail(err, CLMEM_ERR_USAGE, "'%s' is empty, not a clmem run file", path);
    }
    /* The text checked before cJSON reads it: one document, JSON's own
     * numbers, no more values than a run file holds. Its strings' UTF-8
     * is checked in the tree, where each has a name. */
    struct clmem_json_check check;
    cJSON *root = NULL;
    if (clmem_json_check(text, len, 0, MAX_RUN_FILE_VALUES, &check) != 0) {
        switch (check.fault) {
        case CLMEM_JSON_EARLY_END:
            status =
                clmem_fail(err, CLMEM_ERR_USAGE,
                           "'%s' is not a clmem run file: the JSON ends early (truncated?)", path);
            break;
        case CLMEM_JSON_TOO_MANY:
            status = clmem_fail(err, CLMEM_ERR_USAGE,
                                "'%s' is not a clmem run file: more than %zu JSON values (a run "
                                "file of 100,000 results holds 3.5 million)",
                                path, MAX_RUN_FILE_VALUES);
            break;
        default:
            status = clmem_fail(err, CLMEM_ERR_USAGE,
                                "'%s' is not a clmem run file: not JSON (%s%sat byte %zu)", path,
                                check.what, check.what[0] ? " " : "", check.at);
        }
    } else if (!(root = cJSON_ParseWithLength(text, len))) {
        /* Valid JSON that cJSON could not hold. */
        status = clmem_fail(err, CLMEM_ERR_USAGE, "out of memory reading '%s' (%zu JSON values)",
                            path, check.values);
    } else if ((status = check_tree(&rd, root, "")) == CLMEM_OK) {
        status = parse_file(&rd, root, runs, n_runs);
    }
    cJSON_Delete(root);
    free(text);
    return status;
}
