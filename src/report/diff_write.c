/* clmem diff's report for machines (diff_internal.h): CSV with one fixed
 * header and JSON, at full precision; and clmem_diff_write, which writes
 * the report in the format asked for, the table (diff_table.c) included. */
#include "report/diff_internal.h"

#include "report/csv.h"
#include "report/json.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef CLMEM_VERSION
#define CLMEM_VERSION "unknown"
#endif

/* ---- CSV ---- */

/* The header never moves: tools downstream read columns by position. */
static const char csv_header[] =
    "run,workload,variant,size,sweep,sweep_value,base_device,new_device,unit,base,new,ratio,"
    "verdict,base_median_ms,base_min_ms,base_max_ms,new_median_ms,new_min_ms,new_max_ms";

/* Full precision: the shortest of %.15g and %.17g that reads back as the
 * same double (cJSON's rule); an empty cell for "none". */
static void exact(FILE *out, double value)
{
    char text[40];
    if (!isnan(value)) {
        snprintf(text, sizeof text, "%.15g", value);
        if (strtod(text, NULL) != value)
            snprintf(text, sizeof text, "%.17g", value);
        fputs(text, out);
    }
}

static void csv_times(FILE *out, const struct clmem_result *r)
{
    int timed = r && !r->skipped;
    const double times[] = {timed ? r->median_ms : NAN, timed ? r->min_ms : NAN,
                            timed ? r->max_ms : NAN};
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(times); i++) {
        fputc(',', out);
        exact(out, times[i]);
    }
}

int clmem_diff_csv(FILE *out, const struct clmem_diff *diff)
{
    char base_label[512], new_label[512];
    fprintf(out, "%s\n", csv_header);
    for (size_t i = 0; i < diff->n_rows; i++) {
        const struct clmem_diff_row *row = &diff->rows[i];
        const struct clmem_result *r = diff_row_result(row);
        if (!diff_shown(diff, row))
            continue;
        diff_run_label(row->base ? diff->pairs[row->pair].base : NULL, base_label,
                       sizeof base_label);
        diff_run_label(row->newer ? diff->pairs[row->pair].newer : NULL, new_label,
                       sizeof new_label);
        fprintf(out, "%zu,", row->pair + 1);
        const char *texts[] = {r->workload, r->variant, r->size, r->sweep};
        for (size_t t = 0; t < CLMEM_ARRAY_SIZE(texts); t++) {
            clmem_csv_field(out, texts[t]);
            fputc(',', out);
        }
        if (r->sweep[0])
            fprintf(out, "%u", r->sweep_value);
        const char *labels[] = {row->base ? base_label : "", row->newer ? new_label : "",
                                diff_row_unit(row)};
        for (size_t t = 0; t < CLMEM_ARRAY_SIZE(labels); t++) {
            fputc(',', out);
            clmem_csv_field(out, labels[t]);
        }
        const double numbers[] = {diff_side_metric(row->base), diff_side_metric(row->newer),
                                  row->ratio};
        for (size_t t = 0; t < CLMEM_ARRAY_SIZE(numbers); t++) {
            fputc(',', out);
            exact(out, numbers[t]);
        }
        fprintf(out, ",%s", clmem_verdict_name(row->verdict));
        csv_times(out, row->base);
        csv_times(out, row->newer);
        fputc('\n', out);
    }
    return CLMEM_OK;
}

/* ---- JSON ---- */

/* A number, or null where there is none (JSON has no NaN). */
static void add_number(cJSON *o, const char *key, double value)
{
    if (isfinite(value))
        cJSON_AddNumberToObject(o, key, value);
    else
        cJSON_AddNullToObject(o, key);
}

static cJSON *json_run(const struct clmem_compare_device *run)
{
    if (!run)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", run->origin);
    cJSON_AddStringToObject(o, "host", run->host);
    if (run->rank >= 0)
        cJSON_AddNumberToObject(o, "rank", run->rank);
    else
        cJSON_AddNullToObject(o, "rank");
    cJSON_AddStringToObject(o, "device", run->device.name);
    cJSON_AddStringToObject(o, "platform", run->device.platform_name);
    cJSON_AddStringToObject(o, "driver", run->device.driver);
    cJSON_AddStringToObject(o, "clmem_version", run->clmem_version);
    cJSON_AddStringToObject(o, "clmem_git", run->clmem_git);
    cJSON_AddStringToObject(o, "created", run->created);
    cJSON_AddBoolToObject(o, "interrupted", run->interrupted);
    return o;
}

/* One side of a row: "base_status", "base_median_ms", ... */
static void json_side(cJSON *o, const char *side, const struct clmem_result *r)
{
    static const char *const keys[] = {"status", "median_ms", "min_ms", "max_ms"};
    char key[4][32];
    for (size_t k = 0; k < CLMEM_ARRAY_SIZE(keys); k++)
        snprintf(key[k], sizeof key[k], "%s_%s", side, keys[k]);
    if (r)
        cJSON_AddStringToObject(o, key[0], clmem_result_status(r));
    else
        cJSON_AddNullToObject(o, key[0]);
    int timed = r && !r->skipped;
    add_number(o, key[1], timed ? r->median_ms : NAN);
    add_number(o, key[2], timed ? r->min_ms : NAN);
    add_number(o, key[3], timed ? r->max_ms : NAN);
}

int clmem_diff_json(FILE *out, const struct clmem_diff *diff, struct clmem_error *err)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    cJSON_AddStringToObject(root, "clmem_version", CLMEM_VERSION);
    cJSON_AddNumberToObject(root, "threshold_pct", diff->threshold);
    cJSON *pairs = cJSON_AddArrayToObject(root, "runs");
    for (size_t p = 0; p < diff->n_pairs; p++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "paired_by", diff->pairs[p].paired_by);
        cJSON_AddItemToObject(o, "base", json_run(diff->pairs[p].base));
        cJSON_AddItemToObject(o, "new", json_run(diff->pairs[p].newer));
        cJSON_AddItemToArray(pairs, o);
    }
    cJSON *list = cJSON_AddArrayToObject(root, "results");
    for (size_t i = 0; i < diff->n_rows; i++) {
        const struct clmem_diff_row *row = &diff->rows[i];
        const struct clmem_result *r = diff_row_result(row);
        if (!diff_shown(diff, row))
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "run", (double)row->pair + 1); /* as the table's #N */
        cJSON_AddStringToObject(o, "workload", r->workload);
        cJSON_AddStringToObject(o, "variant", r->variant);
        cJSON_AddStringToObject(o, "size", r->size);
        if (r->sweep[0]) {
            cJSON_AddStringToObject(o, "sweep", r->sweep);
            cJSON_AddNumberToObject(o, "sweep_value", r->sweep_value);
        }
        cJSON_AddStringToObject(o, "unit", diff_row_unit(row));
        add_number(o, "base", diff_side_metric(row->base));
        add_number(o, "new", diff_side_metric(row->newer));
        add_number(o, "ratio", row->ratio);
        cJSON_AddStringToObject(o, "verdict", clmem_verdict_name(row->verdict));
        json_side(o, "base", row->base);
        json_side(o, "new", row->newer);
        cJSON_AddItemToArray(list, o);
    }
    cJSON *summary = cJSON_AddObjectToObject(root, "summary");
    for (size_t v = 0; v < CLMEM_N_VERDICTS; v++)
        cJSON_AddNumberToObject(
            summary,
            v == CLMEM_VERDICT_NOT_RUN ? "not_run" : clmem_verdict_name((enum clmem_verdict)v),
            (double)diff->counts[v]);
    cJSON_AddBoolToObject(summary, "regression", diff_verdict_regressed(diff));
    cJSON_AddNumberToObject(summary, "interrupted_runs", (double)diff->interrupted);
    cJSON_AddBoolToObject(summary, "gate_fails", clmem_diff_regressed(diff));
    return clmem_json_print(out, root, err);
}

int clmem_diff_write(FILE *out, enum clmem_format format, const struct clmem_diff *diff,
                     struct clmem_error *err)
{
    int status = CLMEM_OK;
    errno = 0;
    switch (format) {
    case CLMEM_FORMAT_TABLE:
        if ((status = clmem_diff_table(out, diff)))
            clmem_fail(err, status, "out of host memory");
        break;
    case CLMEM_FORMAT_CSV: status = clmem_diff_csv(out, diff); break;
    case CLMEM_FORMAT_JSON: status = clmem_diff_json(out, diff, err); break;
    }
    return clmem_report_flush(out, status, err);
}
