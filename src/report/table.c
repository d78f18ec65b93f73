/* The human-readable table: values for people (clmem_format_metric). */
#include "harness/traffic.h"
#include "report/model.h"

#include <math.h>
#include <string.h>

/* Text from the results (a device's name, a note: live, or from a run
 * file) escaped for the terminal, in buf. */
static const char *shown(const char *text, char *buf, size_t size)
{
    clmem_text_escape(text, buf, size);
    return buf;
}

static void verified_text(const struct clmem_result *r, char *out, size_t size)
{
    if (r->skipped)
        snprintf(out, size, "skipped: %s", r->skip_reason);
    else if (r->error[0])
        snprintf(out, size, "FAILED: %s", r->error);
    else if (!r->verified)
        snprintf(out, size, "FAILED");
    else if (r->verify_scope[0])
        snprintf(out, size, "yes (%s)", r->verify_scope);
    else
        snprintf(out, size, "yes");
}

/* Optional columns appear only when some result in the group has them. */
struct columns {
    int peak, bound, baseline, looped, timer, energy;
    const char *baseline_name;
};

static void header(FILE *out, const struct clmem_result *r, const struct columns *c)
{
    char device[1024], params[1024];
    fprintf(out, "device: %s\nparameters: %s\n", shown(r->device, device, sizeof device),
            shown(r->params[0] ? r->params : "(none)", params, sizeof params));
    fprintf(out, "%-12s %-24s %-14s %11s %11s %11s %16s", "workload", "variant", "size",
            "median ms", "min ms", "max ms", "value");
    if (c->timer)
        fprintf(out, " %-13s", "clock x runs");
    if (c->peak)
        fprintf(out, " %8s", "of peak");
    if (c->bound)
        fprintf(out, " %-14s", "bound");
    if (c->looped)
        fprintf(out, " %12s", "loop-in ms");
    if (c->baseline)
        fprintf(out, " %8s", "vs base");
    if (c->energy)
        fprintf(out, " %10s %8s %14s", "J/run", "W", "per J");
    fprintf(out, " %11s  %s\n", "max rel err", "verified");
}

/* The level that bounds the result and predicted / measured time
 * ("global 0.83"); "!" after a model error, which the note explains. */
static void bound_cell(FILE *out, const struct clmem_result *r)
{
    char cell[32] = "-";
    const struct clmem_bound *b = &r->bound;
    if (b->binding && isfinite(b->ratio))
        snprintf(cell, sizeof cell, "%s %.2f%s", clmem_bound_level_name(b->binding - 1), b->ratio,
                 b->model_error ? "!" : "");
    fprintf(out, " %-14s", cell);
}

static int energy_measured(const struct clmem_result *r)
{
    return r->energy_source[0] && !r->energy_na[0];
}

/* Energy per run, average power and work per joule; "-" where not measured. */
static void energy_cells(FILE *out, const struct clmem_result *r)
{
    if (!energy_measured(r)) {
        fprintf(out, " %10s %8s %14s", "-", "-", "-");
        return;
    }
    char unit[24], per_joule[48] = "-";
    clmem_unit_per_joule(r->metric_unit, unit, sizeof unit);
    if (unit[0] && !isnan(r->energy_efficiency))
        clmem_format_metric(r->energy_efficiency, unit, per_joule, sizeof per_joule);
    fprintf(out, " %10.4g %8.4g %14s", r->energy_j, r->power_w, per_joule);
}

/* Where a group's device has an energy counter but results have no
 * figures (runs too short for it), one line says why. */
static void energy_footnote(FILE *out, const struct clmem_result *results, size_t first, size_t end)
{
    const struct clmem_result *why = NULL;
    size_t n = 0;
    for (size_t i = first; i < end; i++)
        if (results[i].energy_source[0] && results[i].energy_na[0] && n++ == 0)
            why = &results[i];
    if (!why)
        return;
    char text[512];
    fprintf(out, "energy (%s): n/a for %zu result%s: %s\n", why->energy_source, n,
            n == 1 ? "" : "s", shown(why->energy_na, text, sizeof text));
}

static int same_group(const struct clmem_result *a, const struct clmem_result *b)
{
    return strcmp(a->device, b->device) == 0 && strcmp(a->params, b->params) == 0 &&
           strcmp(a->workload, b->workload) == 0;
}

int clmem_report_table(FILE *out, const struct clmem_result *results, size_t n)
{
    struct columns c = {0};
    size_t group = 0, group_end = 0;
    for (size_t i = 0; i < n; i++) {
        const struct clmem_result *r = &results[i];
        if (i == 0 || !same_group(r, &results[i - 1])) {
            memset(&c, 0, sizeof c);
            group = i;
            for (group_end = i; group_end < n && same_group(&results[group_end], r); group_end++)
                c.energy |= energy_measured(&results[group_end]);
            for (size_t j = i; j < n && same_group(&results[j], r); j++) {
                c.looped |= !isnan(results[j].looped_ms);
                c.timer |= results[j].timer[0] != '\0';
                c.peak |= !isnan(results[j].peak_fraction);
                c.bound |= results[j].bound.binding != 0;
                c.baseline |= !isnan(results[j].baseline_fraction);
            }
            if (i)
                fputc('\n', out);
            header(out, r, &c);
        }
        char variant[48], verified[320], workload[160], variant_shown[160], size[160],
            shown_verified[1024];
        if (r->sweep[0])
            snprintf(variant, sizeof variant, "%s %s=%u", r->variant, r->sweep, r->sweep_value);
        else
            snprintf(variant, sizeof variant, "%s", r->variant);
        verified_text(r, verified, sizeof verified);
        fprintf(out, "%-12s %-24s %-14s ", shown(r->workload, workload, sizeof workload),
                shown(variant, variant_shown, sizeof variant_shown),
                shown(r->size, size, sizeof size));
        /* The value for people, its unit's prefix scaled ("48.7 TFLOP/s");
         * CSV and JSON keep full precision. */
        char value[48];
        clmem_format_metric(r->metric, r->metric_unit, value, sizeof value);
        int unmeasured = r->skipped || r->error[0];
        if (unmeasured)
            fprintf(out, "%11s %11s %11s %16s", "-", "-", "-", "-");
        else
            fprintf(out, "%11.4f %11.4f %11.4f %16s", r->median_ms, r->min_ms, r->max_ms, value);
        if (c.timer) {
            /* Which clock timed each sample, and how many runs it held. */
            char timer[32] = "-";
            if (r->timer[0])
                snprintf(timer, sizeof timer, "%s x%u", r->timer, r->runs_per_sample);
            fprintf(out, " %-13s", timer);
        }
        if (c.peak) {
            if (isnan(r->peak_fraction))
                fprintf(out, " %8s", "-");
            else
                fprintf(out, " %8.3f", r->peak_fraction);
        }
        if (c.bound)
            bound_cell(out, r);
        if (c.looped) {
            if (isnan(r->looped_ms))
                fprintf(out, " %12s", "-");
            else
                fprintf(out, " %12.4f", r->looped_ms);
        }
        if (c.baseline) {
            if (isnan(r->baseline_fraction))
                fprintf(out, " %8s", "-");
            else
                fprintf(out, " %8.3f", r->baseline_fraction);
        }
        if (c.energy)
            energy_cells(out, r);
        shown(verified, shown_verified, sizeof shown_verified);
        if (unmeasured) {
            fprintf(out, " %11s  %s\n", "-", shown_verified);
        } else {
            fprintf(out, " %11.2e  %s", r->max_rel_error, shown_verified);
            if (clmem_result_noisy(r))
                fprintf(out, "; noisy: max/min %.2fx", clmem_result_spread(r));
            fputs(r->note[0] ? "; " : "", out);
            clmem_fputs_escaped(r->note, out);
            fputc('\n', out);
        }
        if (i + 1 == group_end)
            energy_footnote(out, results, group, group_end);
    }
    return CLMEM_OK;
}
