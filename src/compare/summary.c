/* What the comparison report says first: for each entry, how many of its
 * results verified, failed or were skipped, the clock that timed them,
 * and how it stands against the baseline entry, workload by workload: the
 * geometric mean of its results over the baseline's at the same workload,
 * variant, size and sweep point (never a CPU's best at 512 over a GPU's
 * at 8192; where two entries share no size, their bests, said to be).
 * Then every row the baseline shares with another entry, as ratios. */
#include "compare/model.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Ratios within 5% of 1x are the noise of a run (bench/README.md: the
 * same GPU run four times): neither marked better nor worse. */
#define NOISE 0.05

void compare_ratio_text(double ratio, char *out, size_t size)
{
    if (!isfinite(ratio) || ratio <= 0) {
        snprintf(out, size, "-");
    } else if (ratio >= 99.5) {
        snprintf(out, size, "%.0fx", ratio);
    } else if (ratio >= 9.95) {
        snprintf(out, size, "%.1fx", ratio);
    } else if (ratio >= 0.0995) {
        snprintf(out, size, "%.2fx", ratio);
    } else {
        /* Far below 1x: how many times slower, as 1/N (1/370, never
         * 0.0027x or 8.2e-05x), N to two significant digits, its
         * thousands apart. */
        double n = 1 / ratio, scale = pow(10, floor(log10(n)) - 1);
        unsigned long long whole = (unsigned long long)(round(n / scale) * scale);
        char digits[32], grouped[48];
        snprintf(digits, sizeof digits, "%llu", whole);
        size_t len = strlen(digits), k = 0;
        for (size_t i = 0; i < len && k + 4 < sizeof grouped; i++) {
            if (i && (len - i) % 3 == 0 && len > 4) {
                memcpy(grouped + k, "\u202f", 3);
                k += 3;
            }
            grouped[k++] = digits[i];
        }
        grouped[k] = '\0';
        snprintf(out, size, "1/%s", grouped);
    }
}

static enum doc_mark ratio_mark(double ratio)
{
    return ratio > 1 + NOISE ? MARK_BETTER : ratio < 1 - NOISE ? MARK_WORSE : MARK_NONE;
}

/* ---- the baseline's results, found by row ---- */

static uint64_t hash_text(uint64_t h, const char *text)
{
    for (; *text; text++)
        h = (h ^ (unsigned char)*text) * 0x100000001b3ull;
    return (h ^ 0xff) * 0x100000001b3ull;
}

/* A row: workload, variant, size, unit, and the sweep point unless
 * `any_point` (the sweep's name still counts). */
static uint64_t row_hash(const struct clmem_result *r, int any_point)
{
    uint64_t h = 0xcbf29ce484222325ull;
    h = hash_text(hash_text(hash_text(h, r->workload), r->variant), r->size);
    h = hash_text(hash_text(h, r->metric_unit), r->sweep);
    return r->sweep[0] && !any_point ? (h ^ r->sweep_value) * 0x100000001b3ull : h;
}

static int same_row(const struct clmem_result *a, const struct clmem_result *b, int any_point)
{
    return strcmp(a->workload, b->workload) == 0 && strcmp(a->variant, b->variant) == 0 &&
           strcmp(a->size, b->size) == 0 && strcmp(a->metric_unit, b->metric_unit) == 0 &&
           strcmp(a->sweep, b->sweep) == 0 &&
           (any_point || !a->sweep[0] || a->sweep_value == b->sweep_value);
}

/* One entry's results by row (open addressing): the first of each. */
struct index {
    const struct clmem_compare_device *dev;
    size_t *slots, cap;
};

static int index_build(struct index *x, const struct clmem_compare_device *dev)
{
    x->dev = dev;
    x->cap = 16;
    while (x->cap < 2 * dev->n_results)
        x->cap *= 2;
    x->slots = malloc(x->cap * sizeof *x->slots);
    if (!x->slots)
        return -1;
    for (size_t i = 0; i < x->cap; i++)
        x->slots[i] = SIZE_MAX;
    for (size_t i = 0; i < dev->n_results; i++) {
        const struct clmem_result *r = &dev->results[i];
        size_t at = (size_t)row_hash(r, 0) & (x->cap - 1);
        while (x->slots[at] != SIZE_MAX && !same_row(&dev->results[x->slots[at]], r, 0))
            at = (at + 1) & (x->cap - 1);
        if (x->slots[at] == SIZE_MAX)
            x->slots[at] = i;
    }
    return 0;
}

static const struct clmem_result *index_find(const struct index *x, const struct clmem_result *r)
{
    size_t at = (size_t)row_hash(r, 0) & (x->cap - 1);
    for (; x->slots[at] != SIZE_MAX; at = (at + 1) & (x->cap - 1))
        if (same_row(&x->dev->results[x->slots[at]], r, 0))
            return &x->dev->results[x->slots[at]];
    return NULL;
}

/* ---- an entry against the baseline, per workload ---- */

double compare_ratio_to(const struct clmem_compare_device *dev,
                        const struct clmem_compare_device *base, const char *workload,
                        const char *unit, size_t *rows)
{
    struct index x;
    double log_sum = 0;
    *rows = 0;
    if (index_build(&x, base) != 0)
        return NAN;
    for (size_t i = 0; i < dev->n_results; i++) {
        const struct clmem_result *r = &dev->results[i];
        if (strcmp(r->workload, workload) != 0 || strcmp(r->metric_unit, unit) != 0 ||
            !compare_usable(r))
            continue;
        const struct clmem_result *b = index_find(&x, r);
        if (!b || !compare_usable(b))
            continue;
        log_sum += log(r->metric / b->metric);
        (*rows)++;
    }
    free(x.slots);
    if (*rows)
        return exp(log_sum / (double)*rows);
    size_t ran;
    const struct clmem_result *mine = compare_best_of(dev, workload, unit, &ran);
    const struct clmem_result *theirs = compare_best_of(base, workload, unit, &ran);
    if (!mine || !theirs || !(mine->metric > 0) || !(theirs->metric > 0))
        return NAN;
    return mine->metric / theirs->metric;
}

/* A rate of launches is a cost: its row is the time of one launch. */
static int is_launch(const char *unit)
{
    const char *rest;
    clmem_unit_prefix(unit, &rest);
    return strcmp(rest, "launch/s") == 0;
}

struct counts {
    size_t ok, failed, skipped, events, host, unnamed;
};

static struct counts count_results(const struct clmem_compare_device *dev)
{
    struct counts c = {0};
    for (size_t i = 0; i < dev->n_results; i++) {
        const struct clmem_result *r = &dev->results[i];
        if (r->skipped) {
            c.skipped++;
            continue;
        }
        if (r->verified)
            c.ok++;
        else
            c.failed++;
        if (strcmp(r->timer, "events") == 0)
            c.events++;
        else if (strcmp(r->timer, "host") == 0)
            c.host++;
        else
            c.unnamed++;
    }
    return c;
}

static void results_cell(struct doc *d, const struct counts *c)
{
    char text[128];
    size_t len = (size_t)snprintf(text, sizeof text, "%zu ok", c->ok);
    if (c->failed)
        len += (size_t)snprintf(text + len, sizeof text - len, ", %zu FAILED", c->failed);
    if (c->skipped && len < sizeof text)
        snprintf(text + len, sizeof text - len, ", %zu skipped", c->skipped);
    doc_cell(d, (double)c->failed, "%s", text);
    if (c->failed)
        doc_mark(d, MARK_FAILED);
}

/* The clock that timed an entry's results: events, host, or both with
 * how many each; "not recorded" for files written before clocks were
 * named. */
static void clock_cell(struct doc *d, const struct counts *c)
{
    const struct {
        const char *name;
        size_t n;
    } clocks[] = {{"events", c->events}, {"host", c->host}, {"not recorded", c->unnamed}};
    char text[128] = "";
    size_t len = 0, kinds = 0;
    for (size_t k = 0; k < CLMEM_ARRAY_SIZE(clocks); k++)
        kinds += clocks[k].n > 0;
    for (size_t k = 0; k < CLMEM_ARRAY_SIZE(clocks) && len < sizeof text; k++) {
        if (!clocks[k].n)
            continue;
        if (kinds > 1)
            len += (size_t)snprintf(text + len, sizeof text - len, "%s%s %zu", len ? ", " : "",
                                    clocks[k].name, clocks[k].n);
        else
            len += (size_t)snprintf(text + len, sizeof text - len, "%s", clocks[k].name);
    }
    doc_cell(d, NAN, "%s", kinds ? text : "none ran");
}

/* A result's work per joule (GFLOP/J, GB/J) where the run measured the
 * energy it took; NAN where it did not. */
static double per_joule(const struct clmem_result *r)
{
    return !r->energy_na[0] && r->energy_efficiency > 0 ? r->energy_efficiency : NAN;
}

/* An entry's best work per joule in a group (GFLOP/J, GB/J); 0 where
 * none of its results measured its energy. */
static double best_per_joule(const struct clmem_compare_device *dev,
                             const struct compare_group *group)
{
    double best = 0;
    for (size_t k = 0; k < dev->n_results; k++) {
        const struct clmem_result *r = &dev->results[k];
        double e = per_joule(r);
        if (compare_usable(r) && strcmp(r->workload, group->workload) == 0 &&
            strcmp(r->metric_unit, group->unit) == 0 && e > best)
            best = e;
    }
    return best;
}

/* Where runs measured the energy their results took: a table of the
 * entries that did (never a grid of "not measured" for those that did
 * not, which a line names), a row per group: each one's best work per
 * joule. */
static void energy_table(struct doc *d, const struct compare_view *v,
                         const struct compare_group *groups, size_t n_groups)
{
    size_t *with = calloc(v->n_devs + 1, sizeof *with), n_with = 0;
    if (!with) {
        d->failed = 1;
        return;
    }
    for (size_t i = 0; i < v->n_devs; i++)
        for (size_t g = 0; g < n_groups; g++)
            if (!compare_is_probe(groups[g].workload) && best_per_joule(&v->devs[i], &groups[g])) {
                with[n_with++] = i;
                break;
            }
    if (n_with) {
        char names[2048] = "";
        size_t len = 0;
        for (size_t k = 0; k < n_with && len < sizeof names; k++)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", k ? ", " : "",
                                    v->labels[with[k]]);
        doc_text(d, "Work per joule, each workload's best: measured by %s%s.", names,
                 n_with < v->n_devs ? " (the other runs read no energy counter)" : "");
        doc_table(d, 1 + n_with);
        doc_units_by_row(d);
        doc_cell(d, NAN, "workload");
        for (size_t k = 0; k < n_with; k++)
            doc_cell(d, NAN, "%s", v->labels[with[k]]);
        for (size_t g = 0; g < n_groups; g++) {
            size_t len = strlen(groups[g].unit);
            if (compare_is_probe(groups[g].workload) || len < 3 ||
                strcmp(groups[g].unit + len - 2, "/s") != 0)
                continue;
            int any = 0;
            for (size_t k = 0; k < n_with && !any; k++)
                any = best_per_joule(&v->devs[with[k]], &groups[g]) > 0;
            if (!any)
                continue;
            char unit[24];
            snprintf(unit, sizeof unit, "%.*s/J", (int)(len - 2), groups[g].unit);
            doc_cell(d, NAN, "%s (%s)", groups[g].workload, unit);
            for (size_t k = 0; k < n_with; k++) {
                double best = best_per_joule(&v->devs[with[k]], &groups[g]);
                if (best > 0)
                    doc_metric(d, best, best, unit, "%s", "");
                else
                    doc_cell(d, NAN, "not measured");
            }
        }
    }
    free(with);
}

/* The results that failed on entry d, named (at most `max`) in a
 * paragraph under the summary. */
static void failures_text(struct doc *doc, const struct compare_view *v, size_t d, size_t max)
{
    const struct clmem_compare_device *dev = &v->devs[d];
    char text[2048] = "";
    size_t len = 0, n = 0;
    for (size_t i = 0; i < dev->n_results; i++) {
        const struct clmem_result *r = &dev->results[i];
        if (r->skipped || r->verified)
            continue;
        if (n++ < max && len < sizeof text) {
            char human[64], sweep[48] = "";
            clmem_human_size(r->size, human, sizeof human);
            if (r->sweep[0])
                snprintf(sweep, sizeof sweep, " %s=%u", r->sweep, r->sweep_value);
            len += (size_t)snprintf(text + len, sizeof text - len, "%s%s %s%s @%s", len ? ", " : "",
                                    r->workload, r->variant, sweep, human);
        }
    }
    if (n > max)
        doc_text(doc, "FAILED on %s: %s and %zu more (in the tables below).", v->labels[d], text,
                 n - max);
    else if (n)
        doc_text(doc, "FAILED on %s: %s.", v->labels[d], text);
}

void compare_summary_section(struct doc *d, const struct compare_view *v)
{
    size_t n_groups = 0, cap = 0;
    for (size_t i = 0; i < v->n_devs; i++)
        cap += v->devs[i].n_results;
    struct compare_group *groups = malloc((cap + 1) * sizeof *groups);
    double *overall = calloc(v->n_devs + 1, sizeof *overall);
    size_t *overall_n = calloc(v->n_devs + 1, sizeof *overall_n);
    if (!groups || !overall || !overall_n) {
        d->failed = 1;
        goto done;
    }
    n_groups = compare_groups(v->devs, v->n_devs, groups, cap + 1);

    doc_heading(d, 2, "Summary");
    doc_text(d,
             "%zu devices. Baseline: %s (its column: its best result of each workload). Other "
             "cells: a device's results over the baseline's at the same workload, variant and "
             "size, their geometric mean: above 1x faster, 1/370 = 370 times slower (a launch: "
             "more launches a second).",
             v->n_devs, v->labels[v->baseline]);
    doc_table(d, 1 + v->n_devs);
    doc_units_by_row(d);
    doc_cell(d, NAN, "device");
    for (size_t i = 0; i < v->n_devs; i++)
        doc_cell(d, NAN, "%s%s", v->labels[i], i == v->baseline ? " (baseline)" : "");

    doc_cell(d, NAN, "source");
    for (size_t i = 0; i < v->n_devs; i++) {
        const char *origin = v->devs[i].origin, *slash = strrchr(origin, '/');
        doc_cell(d, NAN, "%s", origin[0] ? (slash ? slash + 1 : origin) : "live, this run");
    }
    /* The build and driver, marked where another entry of the same device
     * had others (said under the table). */
    int mixed = 0;
    doc_cell(d, NAN, "build, driver");
    for (size_t i = 0; i < v->n_devs; i++) {
        char build[160];
        int differs = 0;
        compare_build_text(&v->devs[i], build, sizeof build);
        for (size_t j = 0; j < v->n_devs; j++)
            differs |= j != i && compare_builds_differ(&v->devs[i], &v->devs[j]);
        doc_cell(d, NAN, "%s, %s%s", build, v->devs[i].device.driver, differs ? " \u2260" : "");
        if (differs)
            doc_mark(d, MARK_WORSE);
        mixed |= differs;
    }
    doc_cell(d, NAN, "results");
    for (size_t i = 0; i < v->n_devs; i++) {
        struct counts c = count_results(&v->devs[i]);
        results_cell(d, &c);
    }
    /* How many results' samples spread past CLMEM_NOISY_SPREAD: figures
     * (and ratios) that a rerun may move by that much. */
    doc_cell(d, NAN, "noisy (max/min past %.1fx)", CLMEM_NOISY_SPREAD);
    for (size_t i = 0; i < v->n_devs; i++) {
        size_t timed = 0, noisy = 0;
        for (size_t k = 0; k < v->devs[i].n_results; k++) {
            const struct clmem_result *r = &v->devs[i].results[k];
            timed += !isnan(clmem_result_spread(r));
            noisy += clmem_result_noisy(r);
        }
        if (noisy) {
            doc_cell(d, (double)noisy, "%zu of %zu", noisy, timed);
            doc_mark(d, MARK_WORSE);
        } else {
            doc_cell(d, 0, "none of %zu", timed);
        }
    }
    doc_cell(d, NAN, "timed by");
    for (size_t i = 0; i < v->n_devs; i++) {
        struct counts c = count_results(&v->devs[i]);
        clock_cell(d, &c);
    }

    /* Every workload's ratio, and the geometric mean of those taken at
     * the same sizes on both sides (like with like: a best over a best at
     * other sizes is shown in its row, marked, never averaged in; the
     * peaks are the devices' roofs, not workloads: outside it too). */
    size_t first_row = d->n ? d->blocks[d->n - 1].n_cells : 0;
    doc_cell(d, NAN, "all workloads at the same sizes (how many)");
    for (size_t i = 0; i < v->n_devs; i++)
        doc_cell(d, NAN, "%s", ""); /* filled once every workload is measured */
    int best_vs_best = 0, probes = 0;
    for (size_t g = 0; g < n_groups; g++) {
        char label[96];
        const struct compare_group *grp = &groups[g];
        if (compare_is_probe(grp->workload)) {
            probes = 1;
            continue;
        }
        if (grp->several && is_launch(grp->unit))
            snprintf(label, sizeof label, "%s (launch)", grp->workload);
        else if (grp->several)
            snprintf(label, sizeof label, "%s (%s)", grp->workload, grp->unit);
        else
            snprintf(label, sizeof label, "%s", grp->workload);
        doc_cell(d, NAN, "%s", label);
        int peak = compare_is_peak(grp->workload);
        for (size_t i = 0; i < v->n_devs; i++) {
            if (i == v->baseline) {
                size_t ran;
                const struct clmem_result *b =
                    compare_best_of(&v->devs[i], grp->workload, grp->unit, &ran);
                const char *none = compare_none_text(&v->devs[i], grp->workload, grp->unit);
                if (b)
                    doc_metric(d, b->metric, b->metric, b->metric_unit, "%s", "");
                else
                    doc_cell(d, NAN, "%s", none);
                doc_mark(d, b                                    ? MARK_BASE
                            : strcmp(none, "none verified") == 0 ? MARK_FAILED
                                                                 : MARK_NONE);
                continue;
            }
            size_t rows;
            double ratio = compare_ratio_to(&v->devs[i], &v->devs[v->baseline], grp->workload,
                                            grp->unit, &rows);
            size_t ran;
            if (isnan(ratio)) {
                const char *none = compare_none_text(&v->devs[i], grp->workload, grp->unit);
                if (compare_best_of(&v->devs[i], grp->workload, grp->unit, &ran))
                    none = "baseline has none";
                doc_cell(d, NAN, "%s", none);
                if (strcmp(none, "none verified") == 0)
                    doc_mark(d, MARK_FAILED);
                continue;
            }
            char text[48];
            compare_ratio_text(ratio, text, sizeof text);
            if (rows)
                doc_cell(d, ratio, "%s", text);
            else
                doc_cell(d, ratio, "%s*", text);
            best_vs_best |= !rows;
            doc_mark(d, ratio_mark(ratio));
            if (!peak && rows) {
                overall[i] += log(ratio);
                overall_n[i]++;
            }
        }
    }
    /* The row of all workloads, now that each is measured. */
    struct doc_block *t = &d->blocks[d->n - 1];
    for (size_t i = 0; !d->failed && i < v->n_devs; i++) {
        struct doc_cell *c = &t->cells[first_row + 1 + i];
        char text[96];
        if (i == v->baseline) {
            snprintf(text, sizeof text, "1x (baseline)");
            c->mark = MARK_BASE;
        } else if (overall_n[i]) {
            double ratio = exp(overall[i] / (double)overall_n[i]);
            char r[48];
            compare_ratio_text(ratio, r, sizeof r);
            snprintf(text, sizeof text, "%s (%zu)", r, overall_n[i]);
            c->key = ratio;
            c->mark = ratio_mark(ratio);
        } else {
            snprintf(text, sizeof text, "none at the same sizes");
        }
        char *copy = strdup(text);
        if (!copy) {
            d->failed = 1;
            break;
        }
        free(c->text);
        c->text = copy;
    }
    if (mixed)
        doc_text(d, "\u2260 Another entry of the same device came from another build or driver: "
                    "ratios between them mix changes of clmem or the driver with the runs' "
                    "noise.");
    if (best_vs_best)
        doc_text(d, "* No size in common with the baseline: that device's best over the "
                    "baseline's best, each at its own size (At a glance says which), left out "
                    "of all workloads.");
    int levels = 0;
    for (size_t i = 0; i < v->n_devs; i++)
        levels |= compare_has_levels(&v->devs[i]);
    if (probes)
        doc_text(d, "clmem hierarchy's probes are not workloads: each measures one level in a "
                    "way of its own (a latency, a bank conflict, a zero-copy map), so none is "
                    "ranked or averaged here; %s",
                 levels ? "Memory hierarchy compares them level by level."
                        : "their figures are in the tables below.");
    energy_table(d, v, groups, n_groups);
    for (size_t i = 0; i < v->n_devs; i++)
        failures_text(d, v, i, 12);
    const struct compare_plots *p = v->plots;
    for (size_t i = 0; v->plotted && i < p->n; i++)
        if (p->pictures[i].glance)
            doc_picture(d, p->pictures[i].file, p->pictures[i].note);
done:
    free(groups);
    free(overall);
    free(overall_n);
}

/* ---- the ratios, row by row ---- */

/* The baseline's rows: a result, or a sweep's points chained in order. */
struct chains {
    size_t *next; /* the next point of the same sweep, or SIZE_MAX */
    char *head;   /* the first result of its row */
    size_t *points;
};

static int chains_build(struct chains *c, const struct clmem_compare_device *base)
{
    size_t n = base->n_results, cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    size_t *slots = malloc(cap * sizeof *slots);
    c->next = malloc((n + 1) * sizeof *c->next);
    c->head = calloc(n + 1, 1);
    c->points = calloc(n + 1, sizeof *c->points);
    if (!slots || !c->next || !c->head || !c->points) {
        free(slots);
        return -1;
    }
    for (size_t i = 0; i < cap; i++)
        slots[i] = SIZE_MAX; /* the last point seen of a row, by its first */
    size_t *last = malloc((n + 1) * sizeof *last);
    if (!last) {
        free(slots);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const struct clmem_result *r = &base->results[i];
        c->next[i] = SIZE_MAX;
        if (!r->sweep[0]) {
            c->head[i] = 1;
            c->points[i] = 1;
            continue;
        }
        size_t at = (size_t)row_hash(r, 1) & (cap - 1);
        while (slots[at] != SIZE_MAX && !same_row(&base->results[slots[at]], r, 1))
            at = (at + 1) & (cap - 1);
        if (slots[at] == SIZE_MAX) {
            slots[at] = i;
            c->head[i] = 1;
            c->points[i] = 1;
            last[i] = i;
        } else {
            size_t h = slots[at];
            c->next[last[h]] = i;
            last[h] = i;
            c->points[h]++;
        }
    }
    free(last);
    free(slots);
    return 0;
}

static void chains_free(struct chains *c)
{
    free(c->next);
    free(c->head);
    free(c->points);
}

/* Entry d's cell of the baseline's row starting at result k (a sweep:
 * every point of it both ran, as one geometric mean). */
static void ratio_cell(struct doc *d, const struct compare_view *v, const struct index *mine,
                       const struct chains *c, size_t k)
{
    const struct clmem_compare_device *base = &v->devs[v->baseline];
    double log_sum = 0;
    size_t n = 0, present = 0, failed = 0, skipped = 0;
    for (size_t i = k; i != SIZE_MAX; i = c->next[i]) {
        const struct clmem_result *p = &base->results[i];
        const struct clmem_result *r = index_find(mine, p);
        if (!r)
            continue;
        present++;
        failed += !r->skipped && !r->verified;
        skipped += r->skipped;
        if (compare_usable(r) && compare_usable(p)) {
            log_sum += log(r->metric / p->metric);
            n++;
        }
    }
    if (n) {
        char text[48];
        double ratio = exp(log_sum / (double)n);
        compare_ratio_text(ratio, text, sizeof text);
        doc_cell(d, ratio, "%s", text);
        doc_mark(d, ratio_mark(ratio));
    } else if (failed) {
        doc_cell(d, NAN, "FAILED");
        doc_mark(d, MARK_FAILED);
    } else if (skipped) {
        doc_cell(d, NAN, "skipped");
    } else {
        doc_cell(d, NAN, "%s", present ? "baseline has none" : "not run");
    }
}

/* The baseline's value of the row starting at result k: the result, or a
 * sweep's geometric mean. */
static void base_cell(struct doc *d, const struct compare_view *v, const struct chains *c, size_t k)
{
    const struct clmem_compare_device *base = &v->devs[v->baseline];
    const struct clmem_result *b = &base->results[k];
    double log_sum = 0;
    size_t n = 0, failed = 0;
    for (size_t i = k; i != SIZE_MAX; i = c->next[i]) {
        const struct clmem_result *p = &base->results[i];
        failed += !p->skipped && !p->verified;
        if (compare_usable(p)) {
            log_sum += log(p->metric);
            n++;
        }
    }
    if (n) {
        double mean = exp(log_sum / (double)n);
        if (c->points[k] > 1)
            doc_metric(d, mean, mean, b->metric_unit, " (mean of %zu)", n);
        else
            doc_metric(d, mean, mean, b->metric_unit, "%s", "");
        doc_mark(d, MARK_BASE);
    } else {
        doc_cell(d, NAN, "%s", failed ? "FAILED" : b->skipped ? "skipped" : "none verified");
        doc_mark(d, failed ? MARK_FAILED : MARK_NONE);
    }
}

/* Whether another entry than the baseline has some point of row k. */
static int row_shared(const struct compare_view *v, const struct index *idx, const struct chains *c,
                      size_t k)
{
    const struct clmem_compare_device *base = &v->devs[v->baseline];
    for (size_t d = 0; d < v->n_devs; d++)
        for (size_t i = k; d != v->baseline && i != SIZE_MAX; i = c->next[i])
            if (index_find(&idx[d], &base->results[i]))
                return 1;
    return 0;
}

void compare_ratios_section(struct doc *d, const struct compare_view *v)
{
    if (v->n_devs < 2)
        return;
    const struct clmem_compare_device *base = &v->devs[v->baseline];
    struct index *idx = calloc(v->n_devs, sizeof *idx);
    struct chains c = {0};
    int failed = !idx || chains_build(&c, base) != 0;
    for (size_t i = 0; !failed && i < v->n_devs; i++)
        failed = index_build(&idx[i], &v->devs[i]) != 0;
    if (failed) {
        d->failed = 1;
        goto done;
    }
    size_t shown = 0, alone = 0;
    for (size_t k = 0; k < base->n_results; k++)
        if (c.head[k] && !base->results[k].demonstrates_failure) {
            int shared = row_shared(v, idx, &c, k);
            shown += shared;
            alone += !shared;
        }
    doc_heading(d, 2, "Ratios to the baseline");
    if (!shown) {
        doc_text(d,
                 "No other device ran any result of the baseline, %s, at the same workload, "
                 "variant and size: the summary compares their bests.",
                 v->labels[v->baseline]);
        goto done;
    }
    doc_text(d,
             "Every result of the baseline, %s, that another device also has, at the same "
             "workload, variant and size: the baseline's figure, then each device's result over "
             "it (above 1x: faster). A swept parameter (coalescing's offset and stride) is one "
             "row, the geometric mean over the points both ran.",
             v->labels[v->baseline]);
    doc_table(d, 1 + v->n_devs);
    doc_units_by_row(d);
    doc_cell(d, NAN, "workload: variant @ size");
    doc_cell(d, NAN, "%s (baseline)", v->labels[v->baseline]);
    for (size_t i = 0; i < v->n_devs; i++)
        if (i != v->baseline)
            doc_cell(d, NAN, "%s", v->labels[i]);
    for (size_t k = 0; k < base->n_results; k++) {
        if (!c.head[k] || base->results[k].demonstrates_failure || !row_shared(v, idx, &c, k))
            continue;
        const struct clmem_result *b = &base->results[k];
        char human[64];
        clmem_human_size(b->size, human, sizeof human);
        if (b->sweep[0])
            doc_cell(d, NAN, "%s: %s @ %s, %s (%zu points)", b->workload, b->variant, human,
                     b->sweep, c.points[k]);
        else
            doc_cell(d, NAN, "%s: %s @ %s", b->workload, b->variant, human);
        base_cell(d, v, &c, k);
        for (size_t i = 0; i < v->n_devs; i++)
            if (i != v->baseline)
                ratio_cell(d, v, &idx[i], &c, k);
    }
    if (alone)
        doc_text(d,
                 "%zu more of the baseline's rows no other device ran at the same size (the "
                 "tables per workload hold them).",
                 alone);
done:
    for (size_t i = 0; idx && i < v->n_devs; i++)
        free(idx[i].slots);
    free(idx);
    chains_free(&c);
}
