/* Performance portability, the field's measure (Pennycook, Sewall and
 * Lee, "Implications of a metric for performance portability", 2017; as
 * Intel's p3-analysis-library computes it): for an application on each
 * entry its efficiency, and PP over the entries the harmonic mean of
 * them, 0 where an entry did not run it. Two efficiencies:
 * - architectural: the result over the entry's own measured roof at the
 *   result's intensity (copy or read bandwidth, up to the FMA peak);
 * - application: the result over the best result of its workload on that
 *   entry at the same size, every variant and vendor library included.
 * An application is a workload's variant, or a workload's best on each
 * entry (whose application efficiency is 1 by definition). Each entry is
 * read at the largest size at which it ran the variant. */
#include "compare/model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double compare_pp_mean(const double *e, size_t n)
{
    double inverse = 0;
    int zero = 0;
    for (size_t i = 0; i < n; i++) {
        if (isnan(e[i]))
            return NAN;
        if (!(e[i] > 0))
            zero = 1;
        else
            inverse += 1 / e[i];
    }
    return zero || !n ? 0 : (double)n / inverse;
}

/* The entry's roof for result r, in r's unit: bandwidth for bytes (the
 * read roof where the result names it and it was measured), the lower of
 * the FMA peak and bandwidth x intensity for flops; NAN for other units
 * or peaks not measured. */
static double roof_of(const struct clmem_compare_device *dev, const struct clmem_result *r)
{
    const struct clmem_peak *p = &dev->peak;
    const char *rest;
    double scale = pow(1000, clmem_unit_prefix(r->metric_unit, &rest)) / 1e9; /* to G... */
    int read = strcmp(r->roof, "read") == 0 && p->read_bandwidth > 0;
    double bw = read ? p->read_bandwidth : p->bandwidth;
    if (strcmp(rest, "B/s") == 0)
        return bw > 0 ? bw / scale : NAN;
    if (strcmp(rest, "FLOP/s") == 0) {
        if (!(p->flops > 0))
            return NAN;
        double fpb = r->flops_per_byte, roof = p->flops;
        if (fpb > 0 && isfinite(fpb) && bw > 0)
            roof = fmin(roof, fpb * bw);
        return roof / scale;
    }
    return NAN;
}

static int of_group(const struct clmem_result *r, const char *workload, const char *unit)
{
    return strcmp(r->workload, workload) == 0 && strcmp(r->metric_unit, unit) == 0;
}

/* The result of `variant` that stands for it on `dev`: its best usable
 * result (over a sweep's points) at the largest size it has one; NULL
 * when none. *ran: whether it ran at all (not skipped). */
static const struct clmem_result *variant_result(const struct clmem_compare_device *dev,
                                                 const char *workload, const char *unit,
                                                 const char *variant, int *ran)
{
    const struct clmem_result *best = NULL;
    double best_size = -1;
    *ran = 0;
    for (size_t i = 0; i < dev->n_results; i++) {
        const struct clmem_result *r = &dev->results[i];
        if (!of_group(r, workload, unit) || strcmp(r->variant, variant) != 0)
            continue;
        *ran |= !r->skipped;
        if (!compare_usable(r))
            continue;
        double size = compare_linear_size(r->size);
        size = isnan(size) ? 0 : size;
        if (!best || size > best_size || (size == best_size && r->metric > best->metric)) {
            best = r;
            best_size = size;
        }
    }
    return best;
}

/* The best usable result of the workload on dev at r's size. */
static double best_at(const struct clmem_compare_device *dev, const struct clmem_result *r)
{
    double best = 0;
    for (size_t i = 0; i < dev->n_results; i++) {
        const struct clmem_result *c = &dev->results[i];
        if (of_group(c, r->workload, r->metric_unit) && strcmp(c->size, r->size) == 0 &&
            compare_usable(c) && c->metric > best)
            best = c->metric;
    }
    return best;
}

static int add_app(struct pp_table *t, const struct clmem_compare_device *devs,
                   const char *workload, const char *unit, const char *variant)
{
    struct pp_app *more = realloc(t->apps, (t->n + 1) * sizeof *more);
    if (!more)
        return -1;
    t->apps = more;
    struct pp_app *a = &t->apps[t->n];
    memset(a, 0, sizeof *a);
    a->workload = workload;
    a->unit = unit;
    a->variant = variant;
    a->arch = calloc(t->n_devs + 1, sizeof *a->arch);
    a->app = calloc(t->n_devs + 1, sizeof *a->app);
    a->on = calloc(t->n_devs + 1, sizeof *a->on);
    t->n++;
    if (!a->arch || !a->app || !a->on)
        return -1;
    for (size_t d = 0; d < t->n_devs; d++) {
        const struct clmem_result *r;
        if (variant) {
            int ran;
            r = variant_result(&devs[d], workload, unit, variant, &ran);
        } else {
            size_t ran;
            r = compare_best_of(&devs[d], workload, unit, &ran);
            if (r && !compare_usable(r))
                r = NULL;
        }
        a->on[d] = r;
        if (!r)
            continue; /* not run, or failed: 0 */
        a->ran++;
        a->arch[d] = r->metric / roof_of(&devs[d], r);
        double best = best_at(&devs[d], r);
        a->app[d] = variant ? (best > 0 ? r->metric / best : 0) : 1;
    }
    a->pp_arch = compare_pp_mean(a->arch, t->n_devs);
    a->pp_app = compare_pp_mean(a->app, t->n_devs);
    return 0;
}

/* Whether a variant of the group computes its answer somewhere (not a
 * variant that shows a failure by design). */
static int measures(const struct clmem_compare_device *devs, size_t n, const char *workload,
                    const char *unit, const char *variant)
{
    for (size_t d = 0; d < n; d++)
        for (size_t i = 0; i < devs[d].n_results; i++) {
            const struct clmem_result *r = &devs[d].results[i];
            if (of_group(r, workload, unit) && strcmp(r->variant, variant) == 0 &&
                !r->demonstrates_failure)
                return 1;
        }
    return 0;
}

int compare_pp_build(struct pp_table *t, const struct clmem_compare_device *devs, size_t n_devs)
{
    memset(t, 0, sizeof *t);
    t->n_devs = n_devs;
    for (size_t d = 0; d < n_devs; d++)
        for (size_t i = 0; i < devs[d].n_results; i++) {
            const struct clmem_result *r = &devs[d].results[i];
            /* A skipped result has no unit: it counts in its workload's
             * unit as not run (variant_result). */
            if (compare_is_peak(r->workload) || compare_is_probe(r->workload) ||
                !r->metric_unit[0])
                continue;
            /* The group's rows once, where it first appears. */
            int seen = 0;
            for (size_t k = 0; k < t->n && !seen; k++)
                seen = of_group(r, t->apps[k].workload, t->apps[k].unit);
            if (seen)
                continue;
            if (add_app(t, devs, r->workload, r->metric_unit, NULL) != 0)
                return -1;
            /* Its variants, in the order they first appear. */
            for (size_t e = 0; e < n_devs; e++)
                for (size_t j = 0; j < devs[e].n_results; j++) {
                    const struct clmem_result *v = &devs[e].results[j];
                    if (!of_group(v, r->workload, r->metric_unit))
                        continue;
                    int listed = 0;
                    for (size_t k = 0; k < t->n && !listed; k++)
                        listed = t->apps[k].variant &&
                                 of_group(v, t->apps[k].workload, t->apps[k].unit) &&
                                 strcmp(t->apps[k].variant, v->variant) == 0;
                    if (!listed &&
                        measures(devs, n_devs, v->workload, v->metric_unit, v->variant) &&
                        add_app(t, devs, v->workload, v->metric_unit, v->variant) != 0)
                        return -1;
                }
        }
    return 0;
}

void compare_pp_free(struct pp_table *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->apps[i].arch);
        free(t->apps[i].app);
        free((void *)t->apps[i].on);
    }
    free(t->apps);
    memset(t, 0, sizeof *t);
}

/* An efficiency or PP for people: two decimals, two significant digits
 * below 0.1 (0.0021), never "0.00" for what is not 0. */
static void efficiency_text(double e, char *out, size_t size)
{
    if (isnan(e))
        snprintf(out, size, "n/a");
    else if (e == 0)
        snprintf(out, size, "0");
    else if (e >= 0.095)
        snprintf(out, size, "%.2f", e);
    else
        snprintf(out, size, "%.2g", e);
}

void compare_pp_section(struct doc *d, const struct compare_view *v)
{
    const struct pp_table *t = v->pp;
    if (!t || !t->n)
        return;
    doc_heading(d, 2, "Performance portability");
    doc_text(d,
             "PP (Pennycook, Sewall and Lee, 2017) of each workload and variant over the %zu "
             "devices: the harmonic mean of its efficiency on each, 0 where a device did not "
             "run it or it failed there. Architectural efficiency: the result over the "
             "device's own measured roof (copy or read bandwidth, up to the FMA peak at the "
             "result's flops per byte); n/a where a device's peaks were not measured or the "
             "unit has no roof (samples, updates). Application efficiency: the result over "
             "the best result of the workload on that device at the same size, vendor "
             "libraries included (1 for a workload's best). Each device is read at the "
             "largest size it ran the variant at. Cells: architectural / application.",
             t->n_devs);
    doc_table(d, 4 + t->n_devs);
    doc_cell(d, NAN, "workload: variant");
    doc_cell(d, NAN, "PP, architectural");
    doc_cell(d, NAN, "PP, application");
    doc_cell(d, NAN, "ran on");
    for (size_t i = 0; i < t->n_devs; i++)
        doc_cell(d, NAN, "%s", v->labels[i]);
    for (size_t k = 0; k < t->n; k++) {
        const struct pp_app *a = &t->apps[k];
        char arch[32], app[32];
        if (a->variant)
            doc_cell(d, NAN, "%s: %s", a->workload, a->variant);
        else
            doc_cell(d, NAN, "%s (%s): best on each", a->workload, a->unit);
        efficiency_text(a->pp_arch, arch, sizeof arch);
        efficiency_text(a->pp_app, app, sizeof app);
        doc_cell(d, isnan(a->pp_arch) ? NAN : a->pp_arch, "%s", arch);
        doc_cell(d, a->pp_app, "%s", app);
        doc_cell(d, (double)a->ran, "%zu of %zu", a->ran, t->n_devs);
        if (a->ran < t->n_devs)
            doc_mark(d, MARK_WORSE);
        for (size_t i = 0; i < t->n_devs; i++) {
            if (!a->on[i]) {
                int ran = 0, skipped = 0;
                for (size_t j = 0; j < v->devs[i].n_results; j++) {
                    const struct clmem_result *r = &v->devs[i].results[j];
                    if (strcmp(r->workload, a->workload) != 0 ||
                        (a->variant && strcmp(r->variant, a->variant) != 0))
                        continue;
                    skipped |= r->skipped;
                    ran |= !r->skipped && strcmp(r->metric_unit, a->unit) == 0;
                }
                doc_cell(d, NAN, "%s",
                         ran       ? "FAILED (0)"
                         : skipped ? "skipped (0)"
                                   : "not run (0)");
                if (ran)
                    doc_mark(d, MARK_FAILED);
                continue;
            }
            efficiency_text(a->arch[i], arch, sizeof arch);
            efficiency_text(a->app[i], app, sizeof app);
            doc_cell(d, a->app[i], "%s / %s", arch, app);
        }
    }
    const struct compare_plots *p = v->plots;
    for (size_t i = 0; v->plotted && i < p->n; i++)
        if (p->pictures[i].portability)
            doc_picture(d, p->pictures[i].file, p->pictures[i].note);
}
