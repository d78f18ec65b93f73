/* One result read back from a run file (runfile_internal.h): its fields
 * as clmem_json_result writes them, each checked, by its status (ok,
 * FAILED with or without a measurement, skipped). */
#include "harness/traffic.h"
#include "report/runfile_internal.h"

#include <math.h>
#include <string.h>

/* A result's keys that schema/run.schema.json requires (runfile.c says
 * how these lists follow it): every result's, a measured one's, a skipped
 * one's. */
static const char *const result_keys[] = {"workload", "variant", "device", "size", "params",
                                          "status",   "reps",    "warmup", "seed", NULL};
static const char *const timed_keys[] = {"samples_ms",   "median_ms", "min_ms",        "max_ms",
                                         "metric",       "unit",      "max_rel_error", "verified",
                                         "verify_scope", NULL};
static const char *const skipped_keys[] = {"skip_reason", NULL};

/* The seed is written as an exact integer; doubles hold it exactly up to
 * 2^53, beyond that it is for show only (a file's results are matched by
 * workload, variant and size, never by seed). */
/* The clock that timed a result (absent before clocks were named): "events" or "host",
 * with the runs each sample held; "" in older files. */
static int get_timer(struct reader *rd, const cJSON *o, struct clmem_result *r)
{
    int status = runfile_get_string(rd, o, "timer", 0, r->timer, sizeof r->timer);
    if (status)
        return status;
    if (r->timer[0] && strcmp(r->timer, "events") != 0 && strcmp(r->timer, "host") != 0)
        return runfile_bad(rd, "unknown 'timer' '%s' (events or host)", r->timer);
    if ((status = runfile_get_count(rd, o, "runs_per_sample", &r->runs_per_sample)))
        return status;
    if (r->timer[0] && r->runs_per_sample == 0)
        return runfile_bad(rd, "%s", "'timer' without 'runs_per_sample' of at least 1");
    const cJSON *demo = cJSON_GetObjectItemCaseSensitive(o, "demonstrates_failure");
    if (demo && !cJSON_IsBool(demo))
        return runfile_bad(rd, "%s", "'demonstrates_failure' is not true or false");
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
/* The traffic model's "bound", optional (files written before it have
 * none): each level's amount and predicted time, the binding level, the
 * ratio and its flag. */
static int get_bound(struct reader *rd, const cJSON *o, struct clmem_result *r)
{
    struct clmem_bound *b = &r->bound;
    memset(b, 0, sizeof *b);
    b->ratio = NAN;
    const cJSON *bound = cJSON_GetObjectItemCaseSensitive(o, "bound");
    if (!bound)
        return CLMEM_OK;
    if (!cJSON_IsObject(bound))
        return runfile_bad(rd, "%s", "'bound' is not an object");
    const cJSON *levels = cJSON_GetObjectItemCaseSensitive(bound, "levels");
    if (!levels)
        return runfile_bad(rd, "%s", "no 'levels' in 'bound'");
    if (!cJSON_IsObject(levels))
        return runfile_bad(rd, "%s", "'levels' in 'bound' is not an object");
    int status;
    for (int l = 0; l < CLMEM_BOUND_LEVELS; l++) {
        const cJSON *level = cJSON_GetObjectItemCaseSensitive(levels, clmem_bound_level_name(l));
        b->predicted_ms[l] = NAN;
        if (!level)
            continue;
        if ((status = runfile_get_number(rd, level, l == CLMEM_BOUND_COMPUTE ? "flops" : "bytes", 0,
                                         0, &b->amount[l])) ||
            (status = runfile_get_number(rd, level, "predicted_ms", 0, NAN, &b->predicted_ms[l])))
            return status;
    }
    char binding[16] = "";
    /* Files written before the phrase have none: absent reads as "". */
    if ((status = runfile_get_string(rd, bound, "binding", 0, binding, sizeof binding)) ||
        (status =
             runfile_get_string(rd, bound, "unmodelled", 0, b->unmodelled, sizeof b->unmodelled)) ||
        (status = runfile_get_number(rd, bound, "ratio", 0, NAN, &b->ratio)))
        return status;
    for (int l = 0; binding[0] && l < CLMEM_BOUND_LEVELS; l++)
        if (strcmp(binding, clmem_bound_level_name(l)) == 0)
            b->binding = l + 1;
    if (binding[0] && !b->binding)
        return runfile_bad(rd, "'bound' names no level '%s'", binding);
    b->model_error = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(bound, "model_error"));
    return CLMEM_OK;
}

static int get_energy(struct reader *rd, const cJSON *o, struct clmem_result *r)
{
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(o, "energy");
    r->energy_j = r->power_w = r->energy_efficiency = r->energy_span_s = NAN;
    if (!e)
        return CLMEM_OK;
    if (!cJSON_IsObject(e))
        return runfile_bad(rd, "%s", "'energy' is not an object");
    int status;
    if ((status =
             runfile_get_string(rd, e, "source", 0, r->energy_source, sizeof r->energy_source)) ||
        (status = runfile_get_string(rd, e, "na", 0, r->energy_na, sizeof r->energy_na)))
        return status;
    if (r->energy_na[0])
        return CLMEM_OK;
    if (!r->energy_source[0])
        return runfile_bad(rd, "%s",
                           "no 'source' in 'energy' (nor 'na', why there are no figures)");
    double runs = NAN;
    if ((status = runfile_get_number(rd, e, "energy_j", 1, NAN, &r->energy_j)) ||
        (status = runfile_get_number(rd, e, "power_w", 1, NAN, &r->power_w)) ||
        (status = runfile_get_number(rd, e, "efficiency", 0, NAN, &r->energy_efficiency)) ||
        (status = runfile_get_number(rd, e, "span_s", 1, NAN, &r->energy_span_s)) ||
        (status = runfile_get_number(rd, e, "runs", 1, NAN, &runs)))
        return status;
    if (!(r->energy_j > 0) || !(r->power_w > 0) || !(r->energy_span_s > 0))
        return runfile_bad(rd, "%s", "'energy' has a figure that is not a positive number");
    if (!(runs >= 1) || runs != floor(runs) || runs >= 18446744073709551616.0)
        return runfile_bad(rd, "%s", "'energy' 'runs' is not a whole number of at least 1");
    r->energy_runs = (uint64_t)runs;
    return CLMEM_OK;
}

static int get_seed(struct reader *rd, const cJSON *o, uint64_t *out)
{
    double v = NAN;
    int status = runfile_get_number(rd, o, "seed", 0, NAN, &v);
    if (status || isnan(v))
        return status;
    if (v < 0 || v >= 18446744073709551616.0 || v != floor(v))
        return runfile_bad(rd, "'%s' is not a whole number", "seed");
    *out = (uint64_t)v;
    return CLMEM_OK;
}

int runfile_parse_result(struct reader *rd, const cJSON *o, struct clmem_result *r)
{
    char status_text[16] = "";
    int status;
    /* Beyond clmem_result_append's defaults: no figures until read. */
    r->median_ms = r->min_ms = r->max_ms = r->metric = NAN;
    if (!cJSON_IsObject(o))
        return runfile_bad(rd, "%s", "not an object");
    if ((status = runfile_require(rd, o, NULL, result_keys)))
        return status;
    if ((status = runfile_get_string(rd, o, "workload", 1, r->workload, sizeof r->workload)) ||
        (status = runfile_get_string(rd, o, "variant", 1, r->variant, sizeof r->variant)) ||
        (status = runfile_get_string(rd, o, "size", 1, r->size, sizeof r->size)) ||
        (status = runfile_get_string(rd, o, "status", 1, status_text, sizeof status_text)) ||
        (status = runfile_get_string(rd, o, "device", 0, r->device, sizeof r->device)) ||
        (status = runfile_get_string(rd, o, "params", 0, r->params, sizeof r->params)) ||
        (status = runfile_get_string(rd, o, "sweep", 0, r->sweep, sizeof r->sweep)) ||
        (status = runfile_get_count(rd, o, "sweep_value", &r->sweep_value)) ||
        (status = runfile_get_count(rd, o, "reps", &r->reps)) ||
        (status = runfile_get_count(rd, o, "warmup", &r->warmup)) ||
        (status = get_seed(rd, o, &r->seed)))
        return status;
    if (strcmp(status_text, "skipped") == 0) {
        r->skipped = 1;
        if ((status = runfile_require(rd, o, NULL, skipped_keys)))
            return status;
        return runfile_get_string(rd, o, "skip_reason", 0, r->skip_reason, sizeof r->skip_reason);
    }
    if (strcmp(status_text, "ok") != 0 && strcmp(status_text, "FAILED") != 0)
        return runfile_bad(rd, "unknown status '%s'", status_text);
    if (strcmp(status_text, "FAILED") != 0 && cJSON_GetObjectItemCaseSensitive(o, "error"))
        return runfile_bad(rd, "'error' in a result of status '%s'", status_text);
    /* FAILED by an error (kernels that did not build): no measurement. */
    if (strcmp(status_text, "FAILED") == 0 && cJSON_GetObjectItemCaseSensitive(o, "error")) {
        if ((status = runfile_get_string(rd, o, "error", 1, r->error, sizeof r->error)) ||
            (status = runfile_get_string(rd, o, "unit", 1, r->metric_unit, sizeof r->metric_unit)))
            return status;
        if (!r->error[0])
            return runfile_bad(rd, "%s", "'error' is empty");
        return CLMEM_OK;
    }
    if ((status = runfile_require(rd, o, NULL, timed_keys)))
        return status;
    const cJSON *samples = cJSON_GetObjectItemCaseSensitive(o, "samples_ms");
    if (!cJSON_IsArray(samples))
        return runfile_bad(rd, "%s", "'samples_ms' is not a list");
    size_t n = (size_t)cJSON_GetArraySize(samples);
    if (n && !(r->samples_ms = clmem_alloc_array(n, sizeof *r->samples_ms, rd->err)))
        return CLMEM_ERR_CL;
    const cJSON *s;
    cJSON_ArrayForEach(s, samples)
    {
        if (!cJSON_IsNumber(s) || !(s->valuedouble >= 0))
            return runfile_bad(rd, "%s", "a sample in 'samples_ms' is not a time");
        r->samples_ms[r->n_samples++] = s->valuedouble;
    }
    const cJSON *verified = cJSON_GetObjectItemCaseSensitive(o, "verified");
    if (!cJSON_IsBool(verified))
        return runfile_bad(rd, "%s", "'verified' is not true or false");
    r->verified = cJSON_IsTrue(verified);
    if (r->verified != (strcmp(status_text, "ok") == 0))
        return runfile_bad(rd, "'status' '%s' and 'verified' disagree", status_text);
    if ((status = runfile_get_number(rd, o, "median_ms", 1, NAN, &r->median_ms)) ||
        (status = runfile_get_number(rd, o, "min_ms", 0, NAN, &r->min_ms)) ||
        (status = runfile_get_number(rd, o, "max_ms", 0, NAN, &r->max_ms)) ||
        (status = runfile_get_number(rd, o, "metric", 1, NAN, &r->metric)) ||
        (status = runfile_get_string(rd, o, "unit", 1, r->metric_unit, sizeof r->metric_unit)) ||
        (status = runfile_get_number(rd, o, "baseline_fraction", 0, NAN, &r->baseline_fraction)) ||
        (status = runfile_get_number(rd, o, "peak_fraction", 0, NAN, &r->peak_fraction)) ||
        (status = runfile_get_number(rd, o, "looped_ms", 0, NAN, &r->looped_ms)) ||
        (status = runfile_get_number(rd, o, "max_rel_error", 0, INFINITY, &r->max_rel_error)) ||
        (status = runfile_get_string(rd, o, "note", 0, r->note, sizeof r->note)) ||
        (status = runfile_get_string(rd, o, "verify_scope", 0, r->verify_scope,
                                     sizeof r->verify_scope)) ||
        (status = runfile_get_number(rd, o, "flops_per_byte", 0, NAN, &r->flops_per_byte)) ||
        (status = get_timer(rd, o, r)) || (status = get_energy(rd, o, r)) ||
        (status = get_bound(rd, o, r)))
        return status;
    /* Figures that no measurement gives: a file edited by hand, or forged
     * to pass a gate (a metric of 0 makes no ratio, so no verdict). */
    if (r->metric <= 0)
        return runfile_bad(rd, "%s", "'metric' is 0 or below, which no measurement gives");
    if (r->min_ms > r->max_ms)
        return runfile_bad(rd, "%s", "'min_ms' is above 'max_ms'");
    return CLMEM_OK;
}
