/* CSV: one fixed header, one row per result (RFC 4180 quoting). */
#include "report/csv.h"

#include "report/model.h"

#include <math.h>
#include <string.h>

/* The header never moves: tools downstream read columns by position. */
static const char header[] =
    "workload,variant,device,size,sweep,sweep_value,params,status,samples,median_ms,min_ms,"
    "max_ms,metric,unit,peak_fraction,baseline_fraction,looped_ms,max_rel_error,verify_scope,note,"
    "skip_reason,timer,runs_per_sample";

void clmem_csv_field(FILE *out, const char *text)
{
    if (strpbrk(text, ",\"\n\r") == NULL) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (; *text; text++) {
        if (*text == '"')
            fputc('"', out);
        fputc(*text, out);
    }
    fputc('"', out);
}

/* An empty cell for "not measured", then the separator. */
static void optional_number(FILE *out, double value, const char *format)
{
    if (!isnan(value))
        fprintf(out, format, value);
    fputc(',', out);
}

int clmem_report_csv(FILE *out, const struct clmem_result *results, size_t n)
{
    fprintf(out, "%s\n", header);
    for (size_t i = 0; i < n; i++) {
        const struct clmem_result *r = &results[i];
        const char *texts[] = {r->workload, r->variant, r->device, r->size, r->sweep};
        for (size_t t = 0; t < CLMEM_ARRAY_SIZE(texts); t++) {
            clmem_csv_field(out, texts[t]);
            fputc(',', out);
        }
        if (r->sweep[0])
            fprintf(out, "%u", r->sweep_value);
        fputc(',', out);
        clmem_csv_field(out, r->params);
        fputc(',', out);
        clmem_csv_field(out, clmem_result_status(r));
        fputc(',', out);
        if (r->skipped)
            fprintf(out, "0,,,,,");
        else /* the metric at full precision: machines read this */
            fprintf(out, "%zu,%.6f,%.6f,%.6f,%.17g,", r->n_samples, r->median_ms, r->min_ms,
                    r->max_ms, r->metric);
        clmem_csv_field(out, r->metric_unit);
        fputc(',', out);
        optional_number(out, r->peak_fraction, "%.4f");
        optional_number(out, r->baseline_fraction, "%.4f");
        optional_number(out, r->looped_ms, "%.6f");
        optional_number(out, r->skipped ? NAN : r->max_rel_error, "%.3g");
        clmem_csv_field(out, r->verify_scope);
        fputc(',', out);
        clmem_csv_field(out, r->note);
        fputc(',', out);
        clmem_csv_field(out, r->skip_reason);
        fputc(',', out);
        clmem_csv_field(out, r->timer);
        fputc(',', out);
        if (r->timer[0])
            fprintf(out, "%u", r->runs_per_sample);
        fputc('\n', out);
    }
    return CLMEM_OK;
}
