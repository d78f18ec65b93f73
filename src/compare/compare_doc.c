/* What the comparison report says, built once for report.md and
 * report.html (the document: doc.c): the contents, the summary and the
 * ratios to the baseline (summary.c), the devices, each workload's best at
 * a glance, performance portability (portability.c), the lessons, the
 * pictures, a table per workload of the rows every device ran, and at the
 * end the rows only some devices ran, each group with only the devices
 * that have it (never a grid of dashes). Numbers for people; results.csv
 * keeps them at full precision. */
#include "compare/lessons.h"
#include "compare/model.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- labels ---- */

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static void base_label(const struct clmem_compare_device *dev, char *out, size_t size)
{
    if (dev->rank >= 0)
        snprintf(out, size, "rank %d on %s: %s", dev->rank, dev->host[0] ? dev->host : "?",
                 dev->device.name);
    else if (dev->host[0])
        snprintf(out, size, "%s on %s", dev->device.name, dev->host);
    else
        snprintf(out, size, "%s", dev->device.name);
}

/* Whether entries i and j would share a label told apart by `what`
 * (0: nothing, 1: the file name, 2: the creation time). */
static int same_by(const struct clmem_compare_device *devs, const compare_label *base, size_t i,
                   size_t j, int what)
{
    if (strcmp(base[i], base[j]) != 0)
        return 0;
    if (what >= 1 && strcmp(base_name(devs[i].origin), base_name(devs[j].origin)) != 0)
        return 0;
    if (what >= 2 && strcmp(devs[i].created, devs[j].created) != 0)
        return 0;
    return 1;
}

void compare_labels(const struct clmem_compare_device *devs, size_t n, compare_label *labels)
{
    for (size_t i = 0; i < n; i++)
        base_label(&devs[i], labels[i], sizeof labels[i]);
    /* Tell apart from the base labels, kept aside while the labels change. */
    compare_label *base = malloc((n ? n : 1) * sizeof *base);
    if (base)
        memcpy(base, labels, n * sizeof *base);
    for (size_t i = 0; base && i < n; i++) {
        int clash = 0, file_clash = 0, time_clash = 0;
        for (size_t j = 0; j < n; j++) {
            if (j == i)
                continue;
            clash |= same_by(devs, base, i, j, 0);
            file_clash |= same_by(devs, base, i, j, 1);
            time_clash |= same_by(devs, base, i, j, 2);
        }
        if (!clash)
            continue;
        size_t len = strlen(labels[i]);
        char *end = labels[i] + len;
        size_t room = sizeof labels[i] - len;
        const char *file = base_name(devs[i].origin);
        if (!file_clash)
            snprintf(end, room, " (%s)", file[0] ? file : "this run");
        else if (!time_clash)
            snprintf(end, room, " (%s%s%s)", file[0] ? file : "", file[0] ? ", " : "",
                     devs[i].created[0] ? devs[i].created : "no time");
        else
            snprintf(end, room, " (#%zu)", i + 1);
    }
    free(base);
    /* One line each: they go into tables, titles and gnuplot strings. */
    for (size_t i = 0; i < n; i++)
        for (char *c = labels[i]; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = ' ';
}

/* ---- rows: (workload, variant, size, sweep point) across devices ---- */

struct row {
    const struct clmem_result *key; /* the first device's result of it */
    const struct clmem_result **on; /* each device's result, or NULL */
    size_t count;                   /* how many devices have it */
    int done;                       /* already in a table */
};

static int same_row(const struct clmem_result *a, const struct clmem_result *b)
{
    return strcmp(a->workload, b->workload) == 0 && strcmp(a->variant, b->variant) == 0 &&
           strcmp(a->size, b->size) == 0 && strcmp(a->sweep, b->sweep) == 0 &&
           (!a->sweep[0] || a->sweep_value == b->sweep_value);
}

static uint64_t hash_text(uint64_t h, const char *text)
{
    for (; *text; text++)
        h = (h ^ (unsigned char)*text) * 0x100000001b3ull;
    return (h ^ 0xff) * 0x100000001b3ull;
}

/* What same_row compares, hashed. */
static uint64_t row_hash(const struct clmem_result *r)
{
    uint64_t h = 0xcbf29ce484222325ull;
    h = hash_text(hash_text(hash_text(hash_text(h, r->workload), r->variant), r->size), r->sweep);
    return r->sweep[0] ? (h ^ r->sweep_value) * 0x100000001b3ull : h;
}

/* Every row in the order it first appears on a device; each result finds
 * its row through a hash table (open addressing), so that the rows of
 * 100k results take no longer to find than those of 10k, ten times over. */
static struct row *collect_rows(const struct compare_view *v, size_t *n_rows)
{
    size_t total = 0;
    for (size_t d = 0; d < v->n_devs; d++)
        total += v->devs[d].n_results;
    size_t cap = 16;
    while (cap < 2 * total)
        cap *= 2;
    struct row *rows = calloc(total ? total : 1, sizeof *rows);
    const struct clmem_result **on = calloc(total * v->n_devs + 1, sizeof *on);
    size_t *table = malloc(cap * sizeof *table);
    if (!rows || !on || !table) {
        free(rows);
        free(on);
        free(table);
        return NULL;
    }
    for (size_t i = 0; i < cap; i++)
        table[i] = SIZE_MAX;
    size_t n = 0;
    rows[0].on = on; /* where rows_free finds the block, even with no row */
    for (size_t d = 0; d < v->n_devs; d++) {
        for (size_t i = 0; i < v->devs[d].n_results; i++) {
            const struct clmem_result *r = &v->devs[d].results[i];
            size_t at = (size_t)row_hash(r) & (cap - 1);
            while (table[at] != SIZE_MAX && !same_row(rows[table[at]].key, r))
                at = (at + 1) & (cap - 1);
            size_t k = table[at];
            if (k == SIZE_MAX) {
                k = table[at] = n;
                rows[n].key = r;
                rows[n].on = on + n * v->n_devs;
                n++;
            }
            if (!rows[k].on[d]) {
                rows[k].on[d] = r;
                rows[k].count++;
            }
        }
    }
    free(table);
    *n_rows = n;
    return rows;
}

static void rows_free(struct row *rows)
{
    if (rows)
        free((void *)rows[0].on);
    free(rows);
}

/* A result's row label inside its workload: variant, sweep point, size. */
static void row_label(const struct clmem_result *r, char *out, size_t size)
{
    char human[64];
    clmem_human_size(r->size, human, sizeof human);
    if (r->sweep[0])
        snprintf(out, size, "%s %s=%u @ %s", r->variant, r->sweep, r->sweep_value, human);
    else
        snprintf(out, size, "%s @ %s", r->variant, human);
}

/* " (0.76 of peak)"; two significant digits below 0.1 (0.0016), never
 * "0.00"; nothing where no peak was measured. */
static void fraction_text(const struct clmem_result *r, char *out, size_t size)
{
    double f = r->peak_fraction;
    if (isnan(f) || f < 0)
        out[0] = '\0';
    else if (f >= 0.095 || f == 0)
        snprintf(out, size, " (%.2f of peak)", f);
    else if (f >= 0.0001)
        snprintf(out, size, " (%.2g of peak)", f);
    else
        snprintf(out, size, " (under 0.0001 of peak)");
}

/* A result on its entry; one above its roof says why (compare_above_roof,
 * the words the roofline uses). */
static void result_cell(struct doc *d, const struct clmem_compare_device *dev,
                        const struct clmem_result *r)
{
    char fraction[48], why[256];
    if (r->skipped) {
        doc_cell(d, NAN, "skipped");
    } else if (!r->verified) {
        doc_cell(d, NAN, "FAILED");
    } else {
        fraction_text(r, fraction, sizeof fraction);
        if (compare_above_roof(dev, r, why, sizeof why))
            doc_metric(d, r->metric, r->metric, r->metric_unit, "%s; %s", fraction, why);
        else
            doc_metric(d, r->metric, r->metric, r->metric_unit, "%s", fraction);
    }
}

/* The workloads, in the order they first appear. */
static size_t workloads(const struct row *rows, size_t n_rows, const char **names, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < n_rows; i++) {
        size_t k = 0;
        while (k < n && strcmp(names[k], rows[i].key->workload) != 0)
            k++;
        if (k == n && n < max)
            names[n++] = rows[i].key->workload;
    }
    return n;
}

/* ---- the sections ---- */

/* A peak's cell: the figure, or "not measured" (0: an older file, or no
 * peak run). */
static void peak_cell(struct doc *d, double value, const char *unit)
{
    if (value > 0)
        doc_metric(d, value, value, unit, "%s", "");
    else
        doc_cell(d, NAN, "not measured");
}

static void devices_section(struct doc *d, const struct compare_view *v)
{
    doc_heading(d, 2, "Devices");
    doc_table(d, 11);
    doc_units_by_row(d);
    static const char *const head[] = {"device",      "platform",  "driver",    "build",
                                       "host",        "created",   "source file", "peak copy",
                                       "peak read",   "peak FP32", "launch"};
    for (size_t c = 0; c < CLMEM_ARRAY_SIZE(head); c++)
        doc_cell(d, NAN, "%s", head[c]);
    for (size_t i = 0; i < v->n_devs; i++) {
        const struct clmem_compare_device *dev = &v->devs[i];
        doc_cell(d, NAN, "%s%s", v->labels[i], i == v->baseline ? " (baseline)" : "");
        doc_cell(d, NAN, "%s", dev->device.platform_name);
        doc_cell(d, NAN, "%s", dev->device.driver);
        char build[160];
        compare_build_text(dev, build, sizeof build);
        doc_cell(d, NAN, "%s", build);
        doc_cell(d, NAN, "%s", dev->host[0] ? dev->host : "unknown");
        doc_cell(d, NAN, "%s", dev->created[0] ? dev->created : "unknown");
        doc_cell(d, NAN, "%s", dev->origin[0] ? dev->origin : "this run");
        peak_cell(d, dev->peak.bandwidth, "GB/s");
        peak_cell(d, dev->peak.read_bandwidth, "GB/s");
        peak_cell(d, dev->peak.flops, "GFLOP/s");
        /* The time of one launch: lower is better. */
        if (dev->peak.launch_us > 0)
            doc_metric(d, dev->peak.launch_us, dev->peak.launch_us, "\u00b5s", "%s", "");
        else
            doc_cell(d, NAN, "not measured");
    }
}

static void unit_label(const char *workload, const char *unit, int several, char *out, size_t size)
{
    const char *rest;
    clmem_unit_prefix(unit, &rest);
    if (!several)
        snprintf(out, size, "%s", workload);
    else if (strcmp(rest, "launch/s") == 0)
        snprintf(out, size, "%s (launch, \u00b5s)", workload);
    else
        snprintf(out, size, "%s (%s)", workload, unit);
}

static void glance_section(struct doc *d, const struct compare_view *v)
{
    doc_heading(d, 2, "At a glance");
    doc_text(d, "Each workload's best verified result on each device, at whatever size that "
                "device ran it (a CPU's at its CPU sizes, a GPU's at its GPU sizes: for ratios "
                "at the same size see the summary and the ratios to the baseline), with the "
                "variant and size that gave it.");
    doc_table(d, 1 + v->n_devs);
    doc_units_by_row(d);
    doc_cell(d, NAN, "workload");
    for (size_t i = 0; i < v->n_devs; i++)
        doc_cell(d, NAN, "%s", v->labels[i]);
    /* One row per workload, one per (workload, unit) where a workload
     * measures in several units (peak: GB/s and GFLOP/s). */
    size_t total = 0;
    for (size_t i = 0; i < v->n_devs; i++)
        total += v->devs[i].n_results;
    struct compare_group *groups = malloc((total + 1) * sizeof *groups);
    if (!groups) {
        d->failed = 1;
        return;
    }
    size_t n_groups = compare_groups(v->devs, v->n_devs, groups, total + 1);
    for (size_t g = 0; g < n_groups; g++) {
        char label[96];
        if (compare_is_probe(groups[g].workload))
            continue; /* no best across probes of different kinds */
        unit_label(groups[g].workload, groups[g].unit, groups[g].several, label, sizeof label);
        doc_cell(d, NAN, "%s", label);
        for (size_t dv = 0; dv < v->n_devs; dv++) {
            size_t ran;
            const struct clmem_result *b =
                compare_best_of(&v->devs[dv], groups[g].workload, groups[g].unit, &ran);
            if (!b) {
                const char *none =
                    compare_none_text(&v->devs[dv], groups[g].workload, groups[g].unit);
                doc_cell(d, NAN, "%s", none);
                if (strcmp(none, "none verified") == 0)
                    doc_mark(d, MARK_FAILED);
                continue;
            }
            char human[64], fraction[48], sweep[48] = "";
            clmem_human_size(b->size, human, sizeof human);
            fraction_text(b, fraction, sizeof fraction);
            if (b->sweep[0])
                snprintf(sweep, sizeof sweep, " %s=%u", b->sweep, b->sweep_value);
            /* The figure on its line, how it was reached under it. */
            doc_metric(d, b->metric, b->metric, b->metric_unit, "\n%s%s @%s%s", b->variant, sweep,
                       human, fraction);
        }
    }
    free(groups);
}

/* Beside a lesson's ratio on a device: the ratio of the memory level its
 * design relies on, as that device's hierarchy probes measured it
 * ("; level: __local / __global 4.95x"); "" where it has none. */
static void level_text(const struct clmem_lesson *lesson, const struct clmem_compare_device *dev,
                       char *out, size_t size)
{
    struct clmem_lesson_gain g;
    const struct clmem_lesson *level = lesson->level;
    out[0] = '\0';
    if (!level || !clmem_lesson_measure(level, dev->results, dev->n_results, &g))
        return;
    char ratio[32];
    clmem_lesson_ratio(g.ratio, ratio, sizeof ratio);
    if (level->sweep && level->versus_value == CLMEM_LESSON_WORST)
        snprintf(out, size, "; level: %s %s (%s %u)", level->reads, ratio, level->sweep,
                 g.versus_value);
    else
        snprintf(out, size, "; level: %s %s", level->reads, ratio);
}

/* Each lesson the seeds teach, as the ratio of its two variants measured
 * on each device (at the largest size the device ran both): whether the
 * design paid off there, by mark and colour. */
static void lessons_section(struct doc *d, const struct compare_view *v)
{
    doc_heading(d, 2, "Lessons");
    doc_text(d, "What each design the course material teaches gains on each device: the first "
                "variant's result over the second's at the largest size the device ran both. "
                "\u2713 the design pays off there (above 1.05x), \u2717 it costs there (below "
                "0.95x), \u2248 no gain either way (within 5%%, the noise of a run). Sources: Kirk "
                "and Hwu, Programming Massively Parallel Processors, chapters 4 and 5 (figures); "
                "a CUDA course's day 2 slides (GPU Programming in CUDA, Giorno 2, by slide "
                "title). Where a device's results also hold the probes of clmem hierarchy, the "
                "ratio of the memory level the design relies on follows (level: ...), measured "
                "on that device: tiling against __local over __global reads, padding against "
                "__local reads at stride 1 over the slowest stride (bank conflicts), constant "
                "memory against the constant cache's broadcast over __global's.");
    /* A column for each device that holds some lesson; the others (a
     * hierarchy-only file, say) named in one line, not a column of
     * "not run". */
    size_t shown = 0;
    char none[1024] = "";
    char *holds = calloc(v->n_devs + 1, 1);
    if (!holds) {
        d->failed = 1;
        return;
    }
    for (size_t i = 0; i < v->n_devs; i++) {
        struct clmem_lesson_gain g;
        for (size_t l = 0; l < clmem_n_lessons && !holds[i]; l++)
            holds[i] = (char)clmem_lesson_measure(&clmem_lessons[l], v->devs[i].results,
                                                  v->devs[i].n_results, &g);
        shown += holds[i] != 0;
        size_t len = strlen(none);
        if (!holds[i] && len < sizeof none)
            snprintf(none + len, sizeof none - len, "%s%s", len ? ", " : "", v->labels[i]);
    }
    if (none[0])
        doc_text(d, "No lesson in the results of %s.", none);
    if (!shown) {
        free(holds);
        return;
    }
    doc_table(d, 3 + shown);
    doc_cell(d, NAN, "lesson");
    doc_cell(d, NAN, "source");
    doc_cell(d, NAN, "ratio");
    for (size_t i = 0; i < v->n_devs; i++)
        if (holds[i])
            doc_cell(d, NAN, "%s", v->labels[i]);
    for (size_t l = 0; l < clmem_n_lessons; l++) {
        const struct clmem_lesson *lesson = &clmem_lessons[l];
        doc_cell(d, NAN, "%s", lesson->title);
        doc_cell(d, NAN, "%s", lesson->figure);
        doc_cell(d, NAN, "%s %s", lesson->workload, lesson->reads);
        for (size_t i = 0; i < v->n_devs; i++) {
            struct clmem_lesson_gain g;
            char human[64];
            if (!holds[i])
                continue;
            if (!clmem_lesson_measure(lesson, v->devs[i].results, v->devs[i].n_results, &g)) {
                doc_cell(d, NAN, "not run");
                continue;
            }
            char ratio[32];
            /* Within the noise of a run (5%): neither. */
            int pays = g.ratio > 1.05, costs = g.ratio < 0.95;
            const char *mark = pays ? "\u2713 " : costs ? "\u2717 " : "\u2248 ";
            clmem_human_size(g.size, human, sizeof human);
            clmem_lesson_ratio(g.ratio, ratio, sizeof ratio);
            char level[200] = "";
            level_text(lesson, &v->devs[i], level, sizeof level);
            /* A ratio from a noisy result is said to be one. */
            if (g.noisy) {
                size_t len = strlen(level);
                snprintf(level + len, sizeof level - len, " (noisy: may not hold)");
            }
            if (lesson->sweep && lesson->versus_value == CLMEM_LESSON_WORST)
                doc_cell(d, g.ratio, "%s%s (%s %u) @%s%s", mark, ratio, lesson->sweep,
                         g.versus_value, human, level);
            else
                doc_cell(d, g.ratio, "%s%s @%s%s", mark, ratio, human, level);
            doc_mark(d, pays ? MARK_BETTER : costs ? MARK_WORSE : MARK_NONE);
        }
    }
    free(holds);
}

static void plots_section(struct doc *d, const struct compare_view *v)
{
    const struct compare_plots *p = v->plots;
    doc_heading(d, 2, "Plots");
    if (v->plotted) {
        for (size_t i = 0; i < p->n; i++)
            if (!p->pictures[i].glance && !p->pictures[i].portability &&
                !p->pictures[i].hierarchy && !p->pictures[i].bounds)
                doc_picture(d, p->pictures[i].file, p->pictures[i].note);
    } else {
        doc_text(d, "Note: %s.", v->plots_note);
    }
    if (p->missing[0])
        doc_text(d, "Not plotted (no results): %s.", p->missing);
    if (p->no_roofline[0])
        doc_text(d, "No roofline (peaks not measured): %s.", p->no_roofline);
}

static void table_head(struct doc *d, const struct compare_view *v, const struct row *pattern)
{
    size_t cols = 1;
    for (size_t i = 0; i < v->n_devs; i++)
        cols += !pattern || pattern->on[i] != NULL;
    doc_table(d, cols);
    doc_cell(d, NAN, "variant @ size");
    for (size_t i = 0; i < v->n_devs; i++)
        if (!pattern || pattern->on[i])
            doc_cell(d, NAN, "%s", v->labels[i]);
}

static void row_cells(struct doc *d, const struct compare_view *v, const struct row *r)
{
    char label[160];
    row_label(r->key, label, sizeof label);
    doc_cell(d, NAN, "%s", label);
    for (size_t i = 0; i < v->n_devs; i++)
        if (r->on[i])
            result_cell(d, &v->devs[i], r->on[i]);
}

static int same_devices(const struct compare_view *v, const struct row *a, const struct row *b)
{
    for (size_t i = 0; i < v->n_devs; i++)
        if (!a->on[i] != !b->on[i])
            return 0;
    return 1;
}

/* The rows of a workload that only some devices have, grouped by which. */
static void partial_groups(struct doc *d, const struct compare_view *v, struct row *rows,
                           size_t n_rows, const char *workload)
{
    for (size_t i = 0; i < n_rows; i++) {
        struct row *first = &rows[i];
        if (first->done || first->count == v->n_devs || strcmp(first->key->workload, workload))
            continue;
        if (first->count == 1) {
            size_t only = 0;
            while (!first->on[only])
                only++;
            doc_heading(d, 3, "%s: %s alone", workload, v->labels[only]);
        } else {
            size_t len = 0;
            char names[4096] = "";
            for (size_t k = 0; k < v->n_devs; k++)
                if (first->on[k] && len < sizeof names)
                    len += (size_t)snprintf(names + len, sizeof names - len, "%s%s",
                                            len ? ", " : "", v->labels[k]);
            doc_heading(d, 3, "%s: only %s", workload, names);
        }
        table_head(d, v, first);
        for (size_t j = i; j < n_rows; j++) {
            if (rows[j].done || strcmp(rows[j].key->workload, workload) != 0 ||
                !same_devices(v, first, &rows[j]))
                continue;
            row_cells(d, v, &rows[j]);
            rows[j].done = 1;
        }
    }
}

void compare_doc_build(struct doc *d, const struct compare_view *v)
{
    size_t n_rows = 0;
    struct row *rows = collect_rows(v, &n_rows);
    if (!rows) {
        d->failed = 1;
        return;
    }
    const char *names[256];
    size_t n_names = workloads(rows, n_rows, names, CLMEM_ARRAY_SIZE(names));

    doc_heading(d, 1, "clmem comparison");
    for (size_t i = 0; i < v->n_devs; i++)
        if (v->devs[i].interrupted)
            doc_text(d,
                     "Interrupted: a signal stopped the run of %s early; its results are those "
                     "that finished.",
                     v->labels[i]);
    doc_contents(d);
    compare_summary_section(d, v);
    devices_section(d, v);
    glance_section(d, v);
    /* The levels before the long tables of ratios, which they explain. */
    compare_levels_section(d, v);
    compare_bounds_section(d, v);
    compare_ratios_section(d, v);
    compare_pp_section(d, v);
    lessons_section(d, v);
    plots_section(d, v);

    /* A table per workload: the rows every device has. */
    size_t partial = 0;
    for (size_t w = 0; w < n_names; w++) {
        int any = 0;
        for (size_t i = 0; i < n_rows; i++) {
            if (strcmp(rows[i].key->workload, names[w]) != 0)
                continue;
            if (rows[i].count < v->n_devs) {
                partial++;
                continue;
            }
            if (!any) {
                doc_heading(d, 2, "%s", names[w]);
                table_head(d, v, NULL);
                any = 1;
            }
            row_cells(d, v, &rows[i]);
            rows[i].done = 1;
        }
    }
    if (partial) {
        doc_heading(d, 2, "Results only some devices have");
        doc_text(d, "Rows (variant, size, sweep point) that not every device ran: bench "
                    "chooses sizes by device type. Each table holds only the devices that "
                    "have its rows.");
        for (size_t w = 0; w < n_names; w++)
            partial_groups(d, v, rows, n_rows, names[w]);
    }
    rows_free(rows);
    doc_units(d);
}
