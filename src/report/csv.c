/* CSV: one fixed header, one row per result (RFC 4180 quoting). */
#include "report/csv.h"

#include "harness/traffic.h"
#include "report/model.h"

#include <math.h>
#include <string.h>

/* The header never moves: tools downstream read columns by position. */
static const char header[] =
    "workload,variant,device,size,sweep,sweep_value,params,status,samples,median_ms,min_ms,"
    "max_ms,metric,unit,peak_fraction,baseline_fraction,looped_ms,max_rel_error,verify_scope,note,"
    "skip_reason,timer,runs_per_sample,energy_j,power_w,efficiency,efficiency_unit,energy_source,"
    "energy_na,error,bound_level,bound_ratio,model_error";

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

/* The energy's columns: its figures where measured (empty where not), the
 * counter, and why there are no figures. */
static void write_energy(FILE *out, const struct clmem_result *r)
{
    int measured = r->energy_source[0] && !r->energy_na[0];
    char unit[24] = "";
    if (measured && !isnan(r->energy_efficiency))
        clmem_unit_per_joule(r->metric_unit, unit, sizeof unit);
    optional_number(out, measured ? r->energy_j : NAN, "%.9g");
    optional_number(out, measured ? r->power_w : NAN, "%.6g");
    optional_number(out, unit[0] ? r->energy_efficiency : NAN, "%.9g");
    clmem_csv_field(out, unit);
    fputc(',', out);
    clmem_csv_field(out, r->energy_source);
    fputc(',', out);
    clmem_csv_field(out, r->energy_na);
}

/* The binding level, predicted / measured and the model-error flag;
 * empty where the variant declares no traffic or nothing bounds it. */
static void write_bound(FILE *out, const struct clmem_result *r)
{
    const struct clmem_bound *b = &r->bound;
    int known = b->binding && isfinite(b->ratio);
    fputs(b->binding ? clmem_bound_level_name(b->binding - 1) : "", out);
    fputc(',', out);
    optional_number(out, known ? b->ratio : NAN, "%.4f");
    if (known)
        fputc(b->model_error ? '1' : '0', out);
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
        if (r->skipped || r->error[0])
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
        fputc(',', out);
        write_energy(out, r);
        fputc(',', out);
        clmem_csv_field(out, r->error);
        fputc(',', out);
        write_bound(out, r);
        fputc('\n', out);
    }
    return CLMEM_OK;
}
