/* The comparison report's pictures: which to draw, their data files and
 * one gnuplot script (plots.gp) that draws them all (gnuplot.c runs it;
 * what the pictures share lives there too). Every entry is named by its label
 * (compare_labels) in titles and legends, and keeps its colour in every
 * picture. The pictures follow from what the results carry, never from the
 * workloads' names:
 * - a variant that sweeps a parameter (results with `sweep`): its metric
 *   against the swept value, a line per entry; the variants of a workload
 *   that sweep the same parameter share a picture (WORKLOAD-SWEEP.svg, the
 *   data WORKLOAD-VARIANT.dat);
 * - a workload whose results carry a baseline_fraction: its variants as
 *   bars, a bar per entry, at the largest size every entry ran, else at
 *   each variant's best size (WORKLOAD.svg);
 * - a workload run at several sizes: its metric against the size, a line
 *   per (entry, variant) that has two sizes or more, for the SIZE_LINES
 *   variants nearest each entry's best (WORKLOAD-size.svg);
 * - a roofline per entry (roofline.c). */
#include "compare/model.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Variants drawn against size in one picture: one line each per entry, so
 * that the picture stays readable; the others are in the tables. */
#define SIZE_LINES 3

/* Appends to a text, cut short when it is full. */
static void appendf(char *text, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void appendf(char *text, size_t size, const char *fmt, ...)
{
    size_t len = strlen(text);
    va_list ap;
    va_start(ap, fmt);
    if (len + 1 < size)
        vsnprintf(text + len, size - len, fmt, ap);
    va_end(ap);
}

/* A name added to a list "a, b". */
static void plot_note(char *list, size_t size, const char *name)
{
    appendf(list, size, "%s%s", list[0] ? ", " : "", name);
}

/* A verified result that a log scale can show. */
static int drawn(const struct clmem_result *r)
{
    return plot_usable(r) && r->metric > 0 && isfinite(r->metric);
}

static int ran(const struct clmem_result *r)
{
    return !r->skipped;
}

/* ---- what the pictures are made of ---- */

/* The results a picture draws: those of one workload in one unit, swept
 * over one parameter or not swept ("" like "": one group). */
static int in_group(const struct clmem_result *r, const struct clmem_result *like)
{
    return strcmp(r->workload, like->workload) == 0 &&
           strcmp(r->metric_unit, like->metric_unit) == 0 && strcmp(r->sweep, like->sweep) == 0;
}

/* The first result of each group, or of each variant of a group, in the
 * order the entries and their results come. */
struct picks {
    const struct clmem_result **r;
    size_t n;
};

struct xy {
    double x, y;
};

/* Everything the pictures are written with, and scratch space. */
struct plotter {
    FILE *gp;
    struct compare_plots *p;
    const char *dir;
    const struct clmem_compare_device *devs;
    size_t n_devs;
    const compare_label *labels;
    struct clmem_error *err;
    char (*files)[64]; /* the file names given out so far */
    size_t n_files, cap_files;
    struct picks variants; /* a group's variants (room for every result) */
    struct xy *points;     /* one entry's points (room for its results) */
    const char **sizes;    /* one entry's sizes (the same) */
    /* The picture's key: the entries drawn (their colours) and the styles
     * (a variant's dashes and points) in the order given out. */
    unsigned char *entry_drawn;
    char (*styles)[128];
    size_t n_styles;
    double scale;    /* the picture's values times this: its unit without prefix */
    size_t baseline; /* the entry glance.svg measures the others against */
    size_t longest;  /* the longest label's length, for the key's columns */
};

/* The groups (first) or a group's variants: the first result of each, among
 * the results that ran. */
static void pick(const struct plotter *pl, const struct clmem_result *group, struct picks *out)
{
    out->n = 0;
    for (size_t d = 0; d < pl->n_devs; d++)
        for (size_t i = 0; i < pl->devs[d].n_results; i++) {
            const struct clmem_result *r = &pl->devs[d].results[i];
            if (!ran(r) || (group && !in_group(r, group)))
                continue;
            size_t k = 0;
            while (k < out->n &&
                   !(group ? strcmp(out->r[k]->variant, r->variant) == 0 : in_group(r, out->r[k])))
                k++;
            if (k == out->n)
                out->r[out->n++] = r;
        }
}

static int by_x(const void *a, const void *b)
{
    double x = ((const struct xy *)a)->x, y = ((const struct xy *)b)->x;
    return x < y ? -1 : x > y;
}

/* One entry's results of `variant` in `group` that `keep` accepts, at
 * `size` (NULL: any) as points: x the swept value, or the size as one
 * number (by_size); sorted by x, one point a x (the highest). */
static size_t points_of(struct plotter *pl, size_t d, const struct clmem_result *group,
                        const char *variant, const char *size, int by_size,
                        int (*keep)(const struct clmem_result *))
{
    const struct clmem_compare_device *dev = &pl->devs[d];
    struct xy *pts = pl->points;
    size_t n = 0;
    for (size_t i = 0; i < dev->n_results; i++) {
        const struct clmem_result *r = &dev->results[i];
        if (!keep(r) || !in_group(r, group) || strcmp(r->variant, variant) != 0 ||
            (size && strcmp(r->size, size) != 0))
            continue;
        double x = by_size ? compare_linear_size(r->size) : (double)r->sweep_value;
        if (!isnan(x))
            pts[n++] = (struct xy){x, r->metric};
    }
    qsort(pts, n, sizeof *pts, by_x);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (kept && pts[kept - 1].x == pts[i].x) {
            if (pts[i].y > pts[kept - 1].y)
                pts[kept - 1].y = pts[i].y;
        } else {
            pts[kept++] = pts[i];
        }
    }
    return kept;
}

/* The distinct sizes of one entry's drawn results of `variant` in `group`. */
static size_t sizes_of(struct plotter *pl, size_t d, const struct clmem_result *group,
                       const char *variant)
{
    const struct clmem_compare_device *dev = &pl->devs[d];
    size_t n = 0;
    for (size_t i = 0; i < dev->n_results; i++) {
        const struct clmem_result *r = &dev->results[i];
        if (!drawn(r) || !in_group(r, group) || strcmp(r->variant, variant) != 0)
            continue;
        size_t k = 0;
        while (k < n && strcmp(pl->sizes[k], r->size) != 0)
            k++;
        if (k == n)
            pl->sizes[n++] = r->size;
    }
    return n;
}

/* A file name made of names from the results: letters, digits, - and _
 * kept, anything else (a /, a dot, a space) _, cut short; -2, -3, ...
 * added when the report already has a file of that name. */
static int file_name(struct plotter *pl, const char *a, const char *b, const char *ext,
                     char out[64])
{
    char stem[48];
    size_t n = 0;
    for (int part = 0; part < 2; part++) {
        const char *s = part ? b : a;
        if (!s)
            continue;
        if (part && n + 1 < sizeof stem)
            stem[n++] = '-';
        if (!*s && n + 1 < sizeof stem)
            stem[n++] = '_';
        for (; *s && n + 1 < sizeof stem; s++) {
            char c = *s;
            int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '_';
            stem[n++] = keep ? c : '_';
        }
    }
    stem[n] = '\0';
    for (unsigned k = 1;; k++) {
        if (k == 1)
            snprintf(out, 64, "%s.%s", stem, ext);
        else
            snprintf(out, 64, "%s-%u.%s", stem, k, ext);
        size_t i = 0;
        while (i < pl->n_files && strcmp(pl->files[i], out) != 0)
            i++;
        if (i == pl->n_files)
            break;
    }
    if (pl->n_files == pl->cap_files) {
        size_t cap = pl->cap_files ? 2 * pl->cap_files : 64;
        char(*more)[64] = realloc(pl->files, cap * sizeof *more);
        if (!more)
            return clmem_fail(pl->err, CLMEM_ERR_CL, "out of host memory");
        pl->files = more;
        pl->cap_files = cap;
    }
    snprintf(pl->files[pl->n_files++], 64, "%s", out);
    return CLMEM_OK;
}

/* A unit's prefix taken out (GB/s: 1e9, "B/s"): pictures draw values in
 * the bare unit so that gnuplot's %c writes the prefix on each tick
 * (2 TB/s, 500 GB/s, never 262144 GFLOP/s). */
static double bare_unit(const char *unit, const char **rest)
{
    return pow(1000, clmem_unit_prefix(unit, rest));
}

/* The y axis of a picture in `unit` on a log scale, ticks at powers of
 * ten with SI prefixes. */
static void y_axis(struct plotter *pl, const char *unit)
{
    const char *rest;
    char r[64], y[64];
    pl->scale = bare_unit(unit, &rest);
    fprintf(pl->gp, "set ylabel '%s (log scale)'\nset logscale y 10\nset format y '%%.0s %%c%s'\n",
            plot_quoted(unit, y, sizeof y), plot_quoted(rest, r, sizeof r));
}

/* Starts a picture's key anew. */
static void key_reset(struct plotter *pl)
{
    memset(pl->entry_drawn, 0, pl->n_devs ? pl->n_devs : 1);
    pl->n_styles = 0;
}

/* The style of a variant (and size) in the picture: its index. */
static size_t style_of(struct plotter *pl, const char *name)
{
    for (size_t i = 0; i < pl->n_styles; i++)
        if (strcmp(pl->styles[i], name) == 0)
            return i;
    snprintf(pl->styles[pl->n_styles], sizeof pl->styles[0], "%s", name);
    return pl->n_styles++;
}

/* The key below a picture of lines: one entry per device (its colour and
 * points) and one per style (a variant's dashes, in grey), never one per
 * line. */
static void key_clauses(struct plotter *pl, size_t clauses)
{
    char name[COMPARE_LABEL_MAX * 2];
    for (size_t d = 0; d < pl->n_devs; d++)
        if (pl->entry_drawn[d])
            fprintf(pl->gp, "%sNaN with linespoints linetype %zu dashtype 1 linewidth 3 title '%s'",
                    clauses++ ? ", \\\n  " : "", d + 1,
                    plot_quoted(pl->labels[d], name, sizeof name));
    if (pl->n_styles > 1)
        for (size_t v = 0; v < pl->n_styles; v++)
            fprintf(pl->gp,
                    "%sNaN with lines linecolor rgb '#555555' dashtype %zu linewidth 2 "
                    "title '%s'",
                    clauses++ ? ", \\\n  " : "", v + 1,
                    plot_quoted(pl->styles[v], name, sizeof name));
}

/* "set output" to the "plot" of a picture of lines, y on a log scale:
 * devices differ by orders of magnitude, and it keeps every curve readable.
 * logx 2: sizes, ticks at powers of two as 64 Mi. */
static void lines_head(struct plotter *pl, const char *svg, const char *title, const char *xlabel,
                       const char *unit, int logx, size_t key_entries)
{
    char t[512], x[256];
    key_reset(pl);
    plot_begin(pl->gp, svg, 720, key_entries, pl->longest);
    fprintf(pl->gp, "set title '%s'\nset xlabel '%s'\n", plot_quoted(title, t, sizeof t),
            plot_quoted(xlabel, x, sizeof x));
    y_axis(pl, unit);
    if (logx)
        fprintf(pl->gp, "set logscale x 2\n%s", logx == 2 ? "set format x '%.0b %B'\n" : "");
    fprintf(pl->gp, "plot ");
}

/* One line of a picture: the block `index` of `dat`, in the entry's
 * colour and points, the style's dashes; named in the key by them. */
static void line(struct plotter *pl, size_t clause, const char *dat, size_t index, size_t entry,
                 size_t style)
{
    pl->entry_drawn[entry] = 1;
    fprintf(pl->gp,
            "%s'%s' index %zu using 1:($2*%g) with linespoints linetype %zu dashtype %zu "
            "notitle",
            clause ? ", \\\n  " : "", dat, index, pl->scale, entry + 1, style + 1);
}

/* A block of a data file (gnuplot's index): a comment naming it, x y a line. */
static void block(FILE *f, const char *legend, const struct xy *pts, size_t n)
{
    fputs("# ", f);
    plot_data_string(f, legend);
    fputc('\n', f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%.17g %.17g\n", pts[i].x, pts[i].y);
    fprintf(f, "\n\n");
}

/* ---- a parameter swept: the metric against it ---- */

/* The variants of `group` (results with `sweep`) in one picture: a line
 * per entry and variant (and size, where an entry ran the sweep at
 * several), each variant's points in WORKLOAD-VARIANT.dat. */
static int sweep_picture(struct plotter *pl, const struct clmem_result *group)
{
    char svg[64], dat[64], title[256], legend[COMPARE_LABEL_MAX + 160];
    int status = file_name(pl, group->workload, group->sweep, "svg", svg);
    if (status)
        return status;
    pick(pl, group, &pl->variants);
    double lo = INFINITY, hi = 0;
    for (size_t d = 0; d < pl->n_devs; d++)
        for (size_t i = 0; i < pl->devs[d].n_results; i++) {
            const struct clmem_result *r = &pl->devs[d].results[i];
            if (drawn(r) && in_group(r, group)) {
                lo = fmin(lo, r->sweep_value);
                hi = fmax(hi, r->sweep_value);
            }
        }
    if (isinf(lo)) {
        plot_note(pl->p->missing, sizeof pl->p->missing, svg);
        return CLMEM_OK;
    }
    snprintf(title, sizeof title, "%s: %s against %s", group->workload, group->metric_unit,
             group->sweep);
    /* Values over orders of magnitude (1, 2, 4, ... 1024) read best on a
     * log scale, a few steps from 0 on a plain one. */
    lines_head(pl, svg, title, group->sweep, group->metric_unit, lo > 0 && hi / lo >= 64,
               pl->n_devs + pl->variants.n);
    size_t n_drawn = 0;
    for (size_t v = 0; v < pl->variants.n; v++)
        for (size_t d = 0; d < pl->n_devs; d++)
            n_drawn += sizes_of(pl, d, group, pl->variants.r[v]->variant) > 0;
    size_t clauses = 0, drawn_variants = 0;
    for (size_t v = 0; v < pl->variants.n; v++) {
        const char *variant = pl->variants.r[v]->variant;
        struct clmem_output out;
        size_t blocks = 0, any = 0;
        for (size_t d = 0; d < pl->n_devs; d++)
            any += sizes_of(pl, d, group, variant);
        if (!any)
            continue; /* it ran, but nothing verified */
        drawn_variants++;
        if ((status = file_name(pl, group->workload, variant, "dat", dat)) ||
            (status = plot_open(&out, pl->dir, dat, pl->err)))
            return status;
        for (size_t d = 0; d < pl->n_devs; d++) {
            size_t n_sizes = sizes_of(pl, d, group, variant);
            for (size_t s = 0; s < n_sizes; s++) {
                const char *size = pl->sizes[s];
                size_t n = points_of(pl, d, group, variant, size, 0, drawn);
                char style[128], human[64];
                clmem_human_size(size, human, sizeof human);
                snprintf(legend, sizeof legend, "%s%s%s%s%s", pl->labels[d],
                         pl->variants.n > 1 ? ", " : "", pl->variants.n > 1 ? variant : "",
                         n_sizes > 1 ? " @" : "", n_sizes > 1 ? size : "");
                snprintf(style, sizeof style, "%s%s%s", variant, n_sizes > 1 ? " @" : "",
                         n_sizes > 1 ? human : "");
                block(out.file, legend, pl->points, n);
                line(pl, clauses++, dat, blocks++, d, style_of(pl, style));
            }
        }
        if ((status = clmem_output_commit(&out, pl->err)))
            return status;
    }
    (void)n_drawn;
    key_clauses(pl, clauses);
    fprintf(pl->gp, "\nunset logscale xy\nset format xy\n");
    return plot_add_picture(pl->p, svg, NULL, pl->err);
}

/* ---- against a baseline: the variants as bars ---- */

/* Whether some result of `group` was measured against a baseline variant. */
static int has_baseline(const struct plotter *pl, const struct clmem_result *group)
{
    for (size_t d = 0; d < pl->n_devs; d++)
        for (size_t i = 0; i < pl->devs[d].n_results; i++) {
            const struct clmem_result *r = &pl->devs[d].results[i];
            if (ran(r) && in_group(r, group) && !isnan(r->baseline_fraction))
                return 1;
        }
    return 0;
}

/* Whether entry d has a drawn result of `group` at `size` (NULL: any). */
static int has_size(const struct plotter *pl, size_t d, const struct clmem_result *group,
                    const char *size)
{
    const struct clmem_compare_device *dev = &pl->devs[d];
    for (size_t i = 0; i < dev->n_results; i++)
        if (drawn(&dev->results[i]) && in_group(&dev->results[i], group) &&
            (!size || strcmp(dev->results[i].size, size) == 0))
            return 1;
    return 0;
}

struct size_at {
    const char *size;
    size_t entry;
};

static int by_size_entry(const void *a, const void *b)
{
    const struct size_at *x = a, *y = b;
    int c = strcmp(x->size, y->size);
    return c ? c : (x->entry > y->entry) - (x->entry < y->entry);
}

static int by_size(const void *key, const void *item)
{
    return strcmp(*(const char *const *)key, *(const char *const *)item);
}

/* The largest size at which every entry with results of `group` has one;
 * NULL when they share none. The sizes every such entry has are found
 * once (sorted (size, entry) pairs), so that this stays near-linear in the
 * number of results. */
static const char *common_size(const struct plotter *pl, const struct clmem_result *group)
{
    size_t total = 0, n = 0, entries = 0, n_common = 0;
    for (size_t d = 0; d < pl->n_devs; d++)
        total += pl->devs[d].n_results;
    struct size_at *pairs = malloc((total ? total : 1) * sizeof *pairs);
    const char **common = malloc((total ? total : 1) * sizeof *common);
    if (!pairs || !common) {
        free(pairs);
        free(common);
        return NULL;
    }
    for (size_t d = 0; d < pl->n_devs; d++) {
        size_t before = n;
        for (size_t i = 0; i < pl->devs[d].n_results; i++) {
            const struct clmem_result *r = &pl->devs[d].results[i];
            if (drawn(r) && in_group(r, group))
                pairs[n++] = (struct size_at){r->size, d};
        }
        entries += n > before;
    }
    qsort(pairs, n, sizeof *pairs, by_size_entry);
    for (size_t i = 0; i < n;) {
        size_t j = i, distinct = 0;
        for (; j < n && strcmp(pairs[j].size, pairs[i].size) == 0; j++)
            distinct += j == i || pairs[j].entry != pairs[j - 1].entry;
        if (distinct == entries)
            common[n_common++] = pairs[i].size;
        i = j;
    }
    free(pairs);
    const char *best = NULL;
    double best_x = -INFINITY;
    for (size_t d = 0; d < pl->n_devs && n_common; d++)
        for (size_t i = 0; i < pl->devs[d].n_results; i++) {
            const struct clmem_result *r = &pl->devs[d].results[i];
            if (!drawn(r) || !in_group(r, group))
                continue;
            const char *size = r->size;
            int everywhere = bsearch(&size, common, n_common, sizeof *common, by_size) != NULL;
            double x = compare_linear_size(r->size);
            if (everywhere && (!best || (isnan(best_x) ? !isnan(x) : x > best_x))) {
                best = r->size;
                best_x = x;
            }
        }
    free(common);
    return best;
}

/* One entry's best value of a variant of `group` (at `size`, unless NULL);
 * 0 for none. */
static double bar_value(const struct plotter *pl, size_t d, const struct clmem_result *group,
                        const char *variant, const char *size)
{
    double value = 0;
    const struct clmem_compare_device *dev = &pl->devs[d];
    for (size_t i = 0; i < dev->n_results; i++) {
        const struct clmem_result *r = &dev->results[i];
        if (drawn(r) && in_group(r, group) && strcmp(r->variant, variant) == 0 &&
            (!size || strcmp(r->size, size) == 0) && r->metric > value)
            value = r->metric;
    }
    return value;
}

/* The variants of `group` as bars (WORKLOAD.svg): a cluster per variant, a
 * bar per entry, the entries named in the key (their labels are too long
 * to sit side by side under the clusters). */
static int bars_picture(struct plotter *pl, const struct clmem_result *group)
{
    char svg[64], dat[64], title[512], t[1024], name[COMPARE_LABEL_MAX * 2];
    struct clmem_output out;
    int status;
    if ((status = file_name(pl, group->workload, NULL, "dat", dat)) ||
        (status = file_name(pl, group->workload, NULL, "svg", svg)) ||
        (status = plot_open(&out, pl->dir, dat, pl->err)))
        return status;
    pick(pl, group, &pl->variants);
    const char *size = common_size(pl, group), *baseline = NULL;
    double low = 0;
    int *has = calloc(pl->n_devs ? pl->n_devs : 1, sizeof *has);
    if (!has) {
        clmem_output_abort(&out);
        return clmem_fail(pl->err, CLMEM_ERR_CL, "out of host memory");
    }
    fprintf(out.file, "# variant, then %s of each entry in order (0: none)\n", group->metric_unit);
    for (size_t v = 0; v < pl->variants.n; v++) {
        const struct clmem_result *first = pl->variants.r[v];
        if (!baseline && first->baseline_fraction == 1)
            baseline = first->variant;
        plot_data_string(out.file, first->variant);
        for (size_t d = 0; d < pl->n_devs; d++) {
            double value = bar_value(pl, d, group, first->variant, size);
            if (value > 0 && (low == 0 || value < low))
                low = value;
            has[d] |= value > 0;
            fprintf(out.file, " %.17g", value);
        }
        fprintf(out.file, "\n");
    }
    if ((status = clmem_output_commit(&out, pl->err)) || low == 0) {
        if (!status)
            plot_note(pl->p->missing, sizeof pl->p->missing, svg);
        free(has);
        return status;
    }
    char where[96] = ", each variant at its best size", against[128] = "", note[256];
    if (size) {
        char human[64];
        clmem_human_size(size, human, sizeof human);
        snprintf(where, sizeof where, " at %s", human);
    }
    if (baseline)
        snprintf(against, sizeof against, " The variants' results are measured against %s.",
                 baseline);
    snprintf(title, sizeof title, "%s variants%s (%s)", group->workload, where, group->metric_unit);
    snprintf(note, sizeof note, "%s%s", size ? "At the largest size every device ran." : "",
             against);
    /* Wide enough for a bar of each entry in each cluster, the variants'
     * names slanted under them. */
    size_t drawn_entries = 0;
    for (size_t d = 0; d < pl->n_devs; d++)
        drawn_entries += has[d] != 0;
    size_t width = 120 + pl->variants.n * (drawn_entries + 1) * 10;
    width = width < 720 ? 720 : width > 1400 ? 1400 : width;
    plot_begin(pl->gp, svg, width, drawn_entries, pl->longest);
    /* Log scale: the bars start a power of two below the lowest. */
    fprintf(pl->gp, "set title '%s'\nset xlabel ''\n", plot_quoted(title, t, sizeof t));
    y_axis(pl, group->metric_unit);
    fprintf(pl->gp,
            "set yrange [%g:*]\nset style data histograms\n"
            "set style histogram clustered gap 1\nset style fill solid 0.8\n"
            "set xtics rotate by -35 left\nplot ",
            plot_axis(pow(10, floor(log10(low * pl->scale)))));
    /* The variants' names under the first entry's bars; an entry whose
     * colour repeats an earlier one's is hatched. */
    size_t clauses = 0;
    for (size_t d = 0; d < pl->n_devs; d++) {
        if (!has[d])
            continue;
        char fill[48] = "";
        if (d >= PLOT_COLOURS)
            snprintf(fill, sizeof fill, " fillstyle pattern %zu", d / PLOT_COLOURS + 3);
        fprintf(pl->gp, "%s'%s' using ($%zu*%g)%s linecolor %zu%s title '%s'",
                clauses ? ", \\\n  " : "", dat, d + 2, pl->scale, clauses ? "" : ":xtic(1)", d + 1,
                fill, plot_quoted(pl->labels[d], name, sizeof name));
        clauses++;
    }
    fprintf(pl->gp, "\nunset logscale xy\nset autoscale xy\nset format xy\nset xtics norotate "
                    "center\nset style data linespoints\n");
    free(has);
    return plot_add_picture(pl->p, svg, note, pl->err);
}

/* ---- the summary: each device against the baseline ---- */

/* glance.svg: per workload (and unit), each entry's results over the
 * baseline's at the same variant and size (their bests where they share
 * none), as bars (ratios are what a comparison of vendors is about);
 * under the summary's table. */
static int glance_picture(struct plotter *pl, const struct picks *groups)
{
    char dat[64], svg[64], t[1024], name[COMPARE_LABEL_MAX * 2];
    struct clmem_output out;
    int status;
    const struct clmem_compare_device *base = &pl->devs[pl->baseline];
    if (pl->n_devs < 2)
        return CLMEM_OK;
    if ((status = file_name(pl, "glance", NULL, "dat", dat)) ||
        (status = file_name(pl, "glance", NULL, "svg", svg)) ||
        (status = plot_open(&out, pl->dir, dat, pl->err)))
        return status;
    fprintf(out.file, "# workload, then each entry's results over the baseline's (NaN: none)\n");
    double lo = 1, hi = 1;
    size_t rows = 0;
    for (size_t g = 0; g < groups->n; g++) {
        const struct clmem_result *key = groups->r[g];
        size_t k = 0, ran;
        while (k < g && !(strcmp(groups->r[k]->workload, key->workload) == 0 &&
                          strcmp(groups->r[k]->metric_unit, key->metric_unit) == 0))
            k++;
        if (k < g)
            continue; /* a sweep of a workload already drawn */
        if (compare_is_probe(key->workload))
            continue; /* not a workload: the hierarchy's pictures compare them */
        if (!compare_best_of(base, key->workload, key->metric_unit, &ran))
            continue;
        size_t units = 0;
        for (size_t j = 0; j < groups->n; j++)
            units += strcmp(groups->r[j]->workload, key->workload) == 0 &&
                     strcmp(groups->r[j]->metric_unit, key->metric_unit) != 0;
        char label[96];
        snprintf(label, sizeof label, "%s%s%s%s", key->workload, units ? " (" : "",
                 units ? key->metric_unit : "", units ? ")" : "");
        plot_data_string(out.file, label);
        for (size_t d = 0; d < pl->n_devs; d++) {
            size_t same;
            double ratio =
                compare_ratio_to(&pl->devs[d], base, key->workload, key->metric_unit, &same);
            if (isfinite(ratio) && ratio > 0) {
                lo = fmin(lo, ratio);
                hi = fmax(hi, ratio);
                fprintf(out.file, " %.17g", ratio);
            } else {
                fprintf(out.file, " NaN");
            }
        }
        fputc('\n', out.file);
        rows++;
    }
    if ((status = clmem_output_commit(&out, pl->err)) || !rows)
        return status;
    plot_begin(pl->gp, svg, 720, pl->n_devs - 1, pl->longest);
    /* Bars from 1x (the baseline) up or down to each ratio, the axis
     * fitted to the ratios shown: ratios near 1x stay apart, and no
     * bar rises from an axis's far end. */
    lo = fmin(lo, 1);
    hi = fmax(hi, 1);
    fprintf(pl->gp,
            "set title 'each device against %s'\nset xlabel ''\n"
            "set ylabel 'ratio to the baseline (log scale)'\nset logscale y 10\n"
            "set format y '%%gx'\nset yrange [%g:%g]\nset xrange [-0.6:%zu.6]\n"
            "set style fill solid 0.8\nset xtics rotate by -35 left\nset datafile missing 'NaN'\n",
            plot_quoted(pl->labels[pl->baseline], t, sizeof t), plot_axis(lo / 1.25),
            plot_axis(hi * 1.25), rows - 1);
    if (hi / lo < 10)
        fputs("set ytics (0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, 1, 1.1, 1.2, 1.3, 1.5, 1.7, 2, 3, 5, 7,"
              " 10)\n",
              pl->gp);
    fputs("plot ", pl->gp);
    size_t clauses = 0, others = pl->n_devs - 1;
    double width = 0.8 / (double)others;
    for (size_t d = 0, k = 0; d < pl->n_devs; d++) {
        if (d == pl->baseline)
            continue;
        char fill[48] = "";
        if (d >= PLOT_COLOURS)
            snprintf(fill, sizeof fill, " fillstyle pattern %zu", d / PLOT_COLOURS + 3);
        double offset = ((double)k - (double)(others - 1) / 2) * width;
        /* x, y, x from, x to, y from, y to: a box between 1x and the ratio. */
        fprintf(pl->gp,
                "%s'%s' using ($0%+.4f):%zu:($0%+.4f):($0%+.4f):(column(%zu) < 1 ? column(%zu) : "
                "1):(column(%zu) < 1 ? 1 : column(%zu))%s with boxxyerror linecolor %zu%s "
                "title '%s'",
                clauses ? ", \\\n  " : "", dat, offset, d + 2, offset - width / 2,
                offset + width / 2, d + 2, d + 2, d + 2, d + 2, clauses ? "" : ":xtic(1)", d + 1,
                fill, plot_quoted(pl->labels[d], name, sizeof name));
        clauses++;
        k++;
    }
    fprintf(pl->gp, ", \\\n  1 with lines linecolor rgb '#000000' dashtype 2 notitle\n"
                    "unset logscale xy\nset autoscale xy\nset format xy\nset xtics norotate "
                    "center\nset ytics autofreq\nset style data linespoints\n");
    if ((status = plot_add_picture(pl->p, svg,
                                   "Each bar: a device's results over the baseline's at the same "
                                   "variant and size (their geometric mean), or its best over the "
                                   "baseline's best where they share no size; above the dashed "
                                   "line, faster than the baseline.",
                                   pl->err)))
        return status;
    pl->p->pictures[pl->p->n - 1].glance = 1;
    return CLMEM_OK;
}

/* ---- several sizes: the metric against the size ---- */

/* Whether some entry ran a variant of `group` at two sizes or more. */
static int several_sizes(struct plotter *pl, const struct clmem_result *group)
{
    for (size_t v = 0; v < pl->variants.n; v++)
        for (size_t d = 0; d < pl->n_devs; d++)
            if (points_of(pl, d, group, pl->variants.r[v]->variant, NULL, 1, ran) >= 2)
                return 1;
    return 0;
}

/* The highest metric of a line (0: the entry has no line of the variant:
 * fewer than two sizes). */
static double line_best(struct plotter *pl, size_t d, const struct clmem_result *group,
                        const char *variant)
{
    size_t n = points_of(pl, d, group, variant, NULL, 1, drawn);
    double best = 0;
    for (size_t i = 0; n >= 2 && i < n; i++)
        best = fmax(best, pl->points[i].y);
    return best;
}

/* A variant of a picture against size: how near it comes to an entry's
 * best (its highest line over the entry's highest), and whether drawn. */
struct ranked {
    double score;
    int chosen;
};

/* Ranks the variants of `group` (pl->variants) and chooses the SIZE_LINES
 * nearest an entry's best (best[d]: entry d's highest line, 0 for none),
 * so that a slow CPU's best variants count as much as a fast GPU's; the
 * earlier variant first among equals. How many were chosen. */
static size_t choose_lines(struct plotter *pl, const struct clmem_result *group, double *best,
                           struct ranked *rank)
{
    size_t nv = pl->variants.n, n_chosen = 0;
    for (size_t v = 0; v < nv; v++)
        for (size_t d = 0; d < pl->n_devs; d++)
            best[d] = fmax(best[d], line_best(pl, d, group, pl->variants.r[v]->variant));
    for (size_t v = 0; v < nv; v++)
        for (size_t d = 0; d < pl->n_devs; d++)
            if (best[d] > 0)
                rank[v].score = fmax(rank[v].score,
                                     line_best(pl, d, group, pl->variants.r[v]->variant) / best[d]);
    for (; n_chosen < SIZE_LINES; n_chosen++) {
        size_t top = nv;
        for (size_t v = 0; v < nv; v++)
            if (!rank[v].chosen && rank[v].score > 0 &&
                (top == nv || rank[v].score > rank[top].score))
                top = v;
        if (top == nv)
            break;
        rank[top].chosen = 1;
    }
    return n_chosen;
}

/* Under the picture: the variants with lines that were left out, and the
 * entries with no line. */
static void size_note(struct plotter *pl, const struct clmem_result *group, const double *best,
                      const struct ranked *rank, char *text, size_t size)
{
    size_t left = 0, alone = 0;
    for (size_t v = 0; v < pl->variants.n; v++)
        if (!rank[v].chosen && rank[v].score > 0)
            appendf(text, size, "%s%s",
                    left++ ? ", " : "Also run at several sizes, in the tables: ",
                    pl->variants.r[v]->variant);
    if (left)
        appendf(text, size, ".");
    for (size_t d = 0; d < pl->n_devs; d++)
        if (has_size(pl, d, group, NULL) && best[d] == 0)
            appendf(text, size, "%s%s",
                    alone++ ? ", "
                    : left  ? " At one size only (no line): "
                            : "At one size only (no line): ",
                    pl->labels[d]);
    if (alone)
        appendf(text, size, ".");
}

/* `group` against the size (WORKLOAD-size.svg): a line per (entry,
 * variant) with two sizes or more, for the variants choose_lines picks. */
static int size_picture(struct plotter *pl, const struct clmem_result *group)
{
    pick(pl, group, &pl->variants);
    if (!several_sizes(pl, group))
        return CLMEM_OK;
    char svg[64], dat[64], title[256], legend[COMPARE_LABEL_MAX + 160], text[2048] = "";
    struct clmem_output out;
    int status, dims = 0;
    if ((status = file_name(pl, group->workload, "size", "dat", dat)) ||
        (status = file_name(pl, group->workload, "size", "svg", svg)))
        return status;
    double *best = calloc(pl->n_devs, sizeof *best);
    struct ranked *rank = calloc(pl->variants.n, sizeof *rank);
    if (!best || !rank) {
        status = clmem_fail(pl->err, CLMEM_ERR_CL, "out of host memory");
        goto done;
    }
    if (!choose_lines(pl, group, best, rank)) {
        plot_note(pl->p->missing, sizeof pl->p->missing, svg);
        goto done;
    }
    if ((status = plot_open(&out, pl->dir, dat, pl->err)))
        goto done;
    for (size_t d = 0; d < pl->n_devs; d++)
        for (size_t i = 0; i < pl->devs[d].n_results; i++)
            dims |= in_group(&pl->devs[d].results[i], group) &&
                    strchr(pl->devs[d].results[i].size, 'x');
    snprintf(title, sizeof title, "%s: %s against size", group->workload, group->metric_unit);
    /* Sizes on powers of two as 64 Mi (not 6.71089e+07 or 67108864). */
    fprintf(pl->gp, "set rmargin 4\n");
    lines_head(pl, svg, title, dims ? "size (geometric mean of the dimensions)" : "size",
               group->metric_unit, 2, pl->n_devs + SIZE_LINES);
    fprintf(out.file, "# x the size, y %s\n", group->metric_unit);
    size_t clauses = 0, drawn_variants = 0;
    for (size_t v = 0; v < pl->variants.n; v++) {
        if (!rank[v].chosen)
            continue;
        const char *variant = pl->variants.r[v]->variant;
        drawn_variants++;
        for (size_t d = 0; d < pl->n_devs; d++) {
            size_t n = points_of(pl, d, group, variant, NULL, 1, drawn);
            if (n < 2)
                continue;
            snprintf(legend, sizeof legend, "%s, %s", pl->labels[d], variant);
            block(out.file, legend, pl->points, n);
            line(pl, clauses, dat, clauses, d, style_of(pl, variant));
            clauses++;
        }
    }
    (void)drawn_variants;
    key_clauses(pl, clauses);
    fprintf(pl->gp, "\nunset logscale xy\nset format xy\nset rmargin -1\n");
    if ((status = clmem_output_commit(&out, pl->err)))
        goto done;
    size_note(pl, group, best, rank, text, sizeof text);
    status = plot_add_picture(pl->p, svg, text, pl->err);
done:
    free(rank);
    free(best);
    return status;
}

/* ---- performance portability: cascades ---- */

/* Up to this many variants of a workload in its cascade, those of the
 * highest PP (application); the table holds every one. */
#define CASCADE_LINES 4

static double mean_of(const double *e, size_t n)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += e[i] > 0 ? e[i] : 0;
    return n ? sum / (double)n : 0;
}

struct ranked_eff {
    double e;
    size_t entry;
};

static int by_efficiency(const void *a, const void *b)
{
    double x = ((const struct ranked_eff *)a)->e, y = ((const struct ranked_eff *)b)->e;
    return x > y ? -1 : x < y;
}

/* WORKLOAD-pp.svg for each workload of `t` of two variants or more run
 * on two entries or more:
 * for each of its variants of the highest PP, its application efficiency
 * on each entry, most efficient first (a point in the entry's colour),
 * and PP over the first k entries (its line, the variant's dashes):
 * where the line falls, the next entry costs portability. */
static int cascade_pictures(struct plotter *pl, const struct pp_table *t)
{
    int status = CLMEM_OK;
    struct ranked_eff *order = calloc(t->n_devs + 1, sizeof *order);
    size_t *chosen = calloc(t->n + 1, sizeof *chosen);
    double *prefix = calloc(t->n_devs + 1, sizeof *prefix);
    if (!order || !chosen || !prefix) {
        status = clmem_fail(pl->err, CLMEM_ERR_CL, "out of host memory");
        goto done;
    }
    for (size_t w = 0; w < t->n && !status && t->n_devs >= 2; w++) {
        if (t->apps[w].variant)
            continue;
        /* The workload's variants, the highest PP first; among equals
         * (0 where some device did not run them), the highest mean
         * efficiency. */
        size_t n_chosen = 0, n_variants = 0;
        for (size_t k = w + 1; k < t->n && t->apps[k].variant; k++)
            n_variants++;
        for (size_t pick = 0; pick < CASCADE_LINES; pick++) {
            size_t top = 0;
            for (size_t k = w + 1; k < t->n && t->apps[k].variant; k++) {
                int taken = 0;
                for (size_t c = 0; c < n_chosen; c++)
                    taken |= chosen[c] == k;
                if (!taken && t->apps[k].ran &&
                    (!top || t->apps[k].pp_app > t->apps[top].pp_app ||
                     (t->apps[k].pp_app == t->apps[top].pp_app &&
                      mean_of(t->apps[k].app, t->n_devs) > mean_of(t->apps[top].app, t->n_devs))))
                    top = k;
            }
            if (!top)
                break;
            chosen[n_chosen++] = top;
        }
        /* One variant is its workload's best everywhere: nothing to rank. */
        if (n_variants < 2 || !n_chosen)
            continue;
        char dat[64], svg[64], title[256], q[512], name[COMPARE_LABEL_MAX * 2];
        struct clmem_output out;
        if ((status = file_name(pl, t->apps[w].workload, "pp", "dat", dat)) ||
            (status = file_name(pl, t->apps[w].workload, "pp", "svg", svg)) ||
            (status = plot_open(&out, pl->dir, dat, pl->err)))
            break;
        fprintf(out.file, "# per variant: k, its application efficiency on the k-th most "
                          "efficient entry, PP over the first k, that entry's linetype\n");
        for (size_t c = 0; c < n_chosen; c++) {
            const struct pp_app *a = &t->apps[chosen[c]];
            fputs("# ", out.file);
            plot_data_string(out.file, a->variant);
            fputc('\n', out.file);
            for (size_t d = 0; d < t->n_devs; d++)
                order[d] = (struct ranked_eff){a->app[d], d};
            qsort(order, t->n_devs, sizeof *order, by_efficiency);
            for (size_t k = 0; k < t->n_devs; k++) {
                prefix[k] = order[k].e;
                fprintf(out.file, "%zu %.17g %.17g %zu\n", k + 1, order[k].e,
                        compare_pp_mean(prefix, k + 1), order[k].entry + 1);
            }
            fputs("\n\n", out.file);
        }
        if ((status = clmem_output_commit(&out, pl->err)))
            break;
        snprintf(title, sizeof title, "%s: application efficiency, most efficient device first",
                 t->apps[w].workload);
        key_reset(pl);
        size_t longest = pl->longest;
        for (size_t c = 0; c < n_chosen; c++)
            longest = strlen(t->apps[chosen[c]].variant) + 10 > longest
                          ? strlen(t->apps[chosen[c]].variant) + 10
                          : longest;
        plot_begin(pl->gp, svg, 720, pl->n_devs + n_chosen, longest);
        fprintf(pl->gp,
                "set title '%s'\nset xlabel 'devices, most efficient first'\n"
                "set ylabel 'efficiency; PP of the first k (lines)'\nset xrange [0.5:%zu.5]\n"
                "set yrange [0:1.05]\nset xtics 1\n",
                plot_quoted(title, q, sizeof q), t->n_devs);
        fputs("plot ", pl->gp);
        size_t clauses = 0;
        for (size_t c = 0; c < n_chosen; c++) {
            fprintf(pl->gp,
                    "%s'%s' index %zu using 1:3 with lines linecolor rgb '#333333' dashtype %zu "
                    "linewidth 2 notitle, \\\n  '' index %zu using 1:2:4 with points "
                    "linecolor variable pointtype 7 pointsize 1.3 notitle",
                    clauses++ ? ", \\\n  " : "", dat, c, c + 1, c);
        }
        /* The key: the entries' colours (points), the variants' dashes. */
        for (size_t d = 0; d < pl->n_devs; d++)
            fprintf(pl->gp, ", \\\n  NaN with points linecolor %zu pointtype 7 title '%s'", d + 1,
                    plot_quoted(pl->labels[d], name, sizeof name));
        for (size_t c = 0; c < n_chosen; c++) {
            char pp[32];
            const struct pp_app *a = &t->apps[chosen[c]];
            snprintf(pp, sizeof pp, isnan(a->pp_app) ? "n/a" : "%.2f", a->pp_app);
            fprintf(pl->gp,
                    ", \\\n  NaN with lines linecolor rgb '#333333' dashtype %zu linewidth 2 "
                    "title '%s (PP %s)'",
                    c + 1, plot_quoted(a->variant, name, sizeof name), pp);
        }
        fputs("\nunset xrange\nunset yrange\nset xtics autofreq\nset autoscale xy\n", pl->gp);
        char note[512] = "";
        if (n_variants > n_chosen)
            snprintf(note, sizeof note,
                     "The %zu variants of the highest PP of %zu; every one is in the table.",
                     n_chosen, n_variants);
        if ((status = plot_add_picture(pl->p, svg, note, pl->err)))
            break;
        pl->p->pictures[pl->p->n - 1].portability = 1;
    }
done:
    free(order);
    free(chosen);
    free(prefix);
    return status;
}

int compare_plots_write(const char *dir, const struct clmem_compare_device *devs, size_t n_devs,
                        const compare_label *labels, size_t baseline, const struct pp_table *pp,
                        struct compare_plots *p, struct clmem_error *err)
{
    memset(p, 0, sizeof *p);
    struct plotter pl = {.p = p,
                         .dir = dir,
                         .devs = devs,
                         .n_devs = n_devs,
                         .labels = labels,
                         .err = err,
                         .baseline = baseline};
    for (size_t d = 0; d < n_devs; d++)
        pl.longest = strlen(labels[d]) > pl.longest ? strlen(labels[d]) : pl.longest;
    struct picks groups = {0};
    size_t total = 0, most = 0;
    for (size_t d = 0; d < n_devs; d++) {
        total += devs[d].n_results;
        most = devs[d].n_results > most ? devs[d].n_results : most;
    }
    struct clmem_output gp;
    int status = plot_open(&gp, dir, "plots.gp", err);
    if (status)
        return status;
    pl.gp = gp.file;
    groups.r = calloc(total + 1, sizeof *groups.r);
    pl.variants.r = calloc(total + 1, sizeof *pl.variants.r);
    pl.points = calloc(most + 1, sizeof *pl.points);
    pl.sizes = calloc(most + 1, sizeof *pl.sizes);
    pl.entry_drawn = calloc(n_devs + 1, 1);
    pl.styles = calloc(total + 1, sizeof *pl.styles);
    if (!groups.r || !pl.variants.r || !pl.points || !pl.sizes || !pl.entry_drawn || !pl.styles) {
        status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
        goto done;
    }
    /* The rooflines' and the hierarchy's names are theirs, whatever a
     * workload is called. */
    static const char *const levels_names[] = {"hierarchy-staircase", "hierarchy-levels-latency",
                                               "hierarchy-levels-bandwidth"};
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(levels_names) && !status; i++) {
        char file[64];
        if (!(status = file_name(&pl, levels_names[i], NULL, "dat", file)))
            status = file_name(&pl, levels_names[i], NULL, "svg", file);
    }
    for (size_t d = 0; d <= n_devs && !status; d++) {
        char name[64], file[64];
        if (d < n_devs)
            snprintf(name, sizeof name, "roofline-%zu", d);
        else
            snprintf(name, sizeof name, "roofline-all");
        if (!(status = file_name(&pl, name, NULL, "dat", file)))
            status = file_name(&pl, name, NULL, "svg", file);
    }
    if (status)
        goto done;
    /* noenhanced: names are text, not gnuplot's markup (tiled_bounds). No
     * 'mouse' or 'jsdir': the SVGs refer to no script outside. */
    plot_script_start(pl.gp, n_devs);
    pick(&pl, NULL, &groups);
    status = glance_picture(&pl, &groups);
    /* Sweeps, then bars, then sizes, each in the order the results come. */
    for (size_t g = 0; g < groups.n && !status; g++)
        if (groups.r[g]->sweep[0])
            status = sweep_picture(&pl, groups.r[g]);
    for (size_t g = 0; g < groups.n && !status; g++)
        if (!groups.r[g]->sweep[0] && has_baseline(&pl, groups.r[g]))
            status = bars_picture(&pl, groups.r[g]);
    for (size_t g = 0; g < groups.n && !status; g++)
        if (!groups.r[g]->sweep[0])
            status = size_picture(&pl, groups.r[g]);
    size_t roofs = 0;
    for (size_t d = 0; d < n_devs && !status; d++) {
        if (devs[d].peak.bandwidth <= 0 || devs[d].peak.flops <= 0)
            plot_note(p->no_roofline, sizeof p->no_roofline, labels[d]);
        else
            status = compare_roofline(pl.gp, p, dir, &devs[d], labels[d], d, err);
        roofs += devs[d].peak.bandwidth > 0 && devs[d].peak.flops > 0;
    }
    if (!status && roofs >= 2)
        status = compare_roofline_all(pl.gp, p, dir, devs, labels, n_devs, err);
    if (!status && pp)
        status = cascade_pictures(&pl, pp);
    if (!status)
        status = compare_levels_plots(pl.gp, p, dir, devs, labels, n_devs, err);
    if (!status)
        status = clmem_output_commit(&gp, err);
done:
    if (status)
        clmem_output_abort(&gp);
    free(groups.r);
    free(pl.variants.r);
    free(pl.points);
    free(pl.sizes);
    free(pl.entry_drawn);
    free(pl.styles);
    free(pl.files);
    if (status)
        compare_plots_free(p);
    return status;
}
