/* The comparison report's pictures: plot data files, one gnuplot script
 * (plots.gp) and running gnuplot on it. Every entry is named by its label
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
 * - a roofline per entry with its measured peaks, each workload's best
 *   verified result placed on it (roofline-N.svg). */
#include "report/compare.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Variants drawn against size in one picture: one line each per entry, so
 * that the picture stays readable; the others are in the tables. */
#define SIZE_LINES 3

/* ---- small helpers ---- */

static int open_in(struct clmem_output *out, const char *dir, const char *name,
                   struct clmem_error *err)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return clmem_output_open(out, path, err);
}

/* Text inside a gnuplot '...' string: ' doubled, as gnuplot reads it
 * (nothing else is special there, @ and backquotes included); a control
 * character (a line break in a name from a file) becomes a space. */
static const char *quoted(const char *text, char *out, size_t size)
{
    size_t n = 0;
    for (; *text && n + 2 < size; text++) {
        unsigned char c = (unsigned char)*text;
        if (c == '\'')
            out[n++] = '\'';
        out[n++] = c < 0x20 || c == 0x7f ? ' ' : *text;
    }
    out[n] = '\0';
    return out;
}

/* A string column of a data file, in "...": a " inside would end it, a
 * line break the row. */
static void data_string(FILE *f, const char *text)
{
    fputc('"', f);
    for (; *text; text++) {
        unsigned char c = (unsigned char)*text;
        fputc(c == '"' ? '\'' : c < 0x20 || c == 0x7f ? ' ' : *text, f);
    }
    fputc('"', f);
}

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
static void note(char *list, size_t size, const char *name)
{
    appendf(list, size, "%s%s", list[0] ? ", " : "", name);
}

static int usable(const struct clmem_result *r)
{
    return !r->skipped && r->verified && !isnan(r->metric);
}

/* A verified result that a log scale can show. */
static int drawn(const struct clmem_result *r)
{
    return usable(r) && r->metric > 0 && isfinite(r->metric);
}

static int ran(const struct clmem_result *r)
{
    return !r->skipped;
}

static int add_picture(struct compare_plots *p, const char *file, const char *text,
                       struct clmem_error *err)
{
    struct compare_picture *more = realloc(p->pictures, (p->n + 1) * sizeof *more);
    if (!more)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    p->pictures = more;
    snprintf(more[p->n].file, sizeof more[p->n].file, "%s", file);
    snprintf(more[p->n].note, sizeof more[p->n].note, "%s", text ? text : "");
    p->n++;
    return CLMEM_OK;
}

void compare_plots_free(struct compare_plots *plots)
{
    free(plots->pictures);
    memset(plots, 0, sizeof *plots);
}

/* A size as one number: the geometric mean of its dimensions ("4096":
 * 4096, "1024x512x256": 512, "8191x8191": 8191); NAN when it is not
 * positive numbers joined by x. */
static double linear_size(const char *size)
{
    double product = 1, log_sum = 0;
    int dims = 0;
    for (const char *p = size;; p++) {
        char *end;
        double v = strtod(p, &end);
        if (end == p || !(v > 0) || !isfinite(v))
            return NAN;
        product *= v;
        log_sum += log(v);
        dims++;
        if (*end != '\0' && *end != 'x')
            return NAN;
        if (*end == '\0')
            break;
        p = end;
    }
    /* Exact for N, NxN and NxNxN (the root of an exact product). */
    if (isfinite(product) && dims <= 3)
        return dims == 1 ? product : dims == 2 ? sqrt(product) : cbrt(product);
    return exp(log_sum / dims);
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
        double x = by_size ? linear_size(r->size) : (double)r->sweep_value;
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

/* "set output" to the "plot" of a picture of lines, y on a log scale:
 * devices differ by orders of magnitude, and it keeps every curve readable. */
static void lines_head(struct plotter *pl, const char *svg, const char *title, const char *xlabel,
                       const char *unit, int logx)
{
    char t[512], x[256], y[64];
    fprintf(pl->gp,
            "set output '%s'\nset title '%s'\nset xlabel '%s'\nset ylabel '%s (log scale)'\n"
            "set logscale %s 2\nplot ",
            svg, quoted(title, t, sizeof t), quoted(xlabel, x, sizeof x), quoted(unit, y, sizeof y),
            logx ? "xy" : "y");
}

/* One line of a picture: the block `index` of `dat`, in the entry's
 * colour, the variant's dashes and points. */
static void line(struct plotter *pl, size_t clause, const char *dat, size_t index, size_t entry,
                 size_t variant, const char *legend)
{
    char name[COMPARE_LABEL_MAX * 2 + 256];
    fprintf(pl->gp,
            "%s'%s' index %zu using 1:2 with linespoints linecolor %zu dashtype %zu pointtype %zu "
            "title '%s'",
            clause ? ", \\\n  " : "", dat, index, entry + 1, variant + 1, variant + 1,
            quoted(legend, name, sizeof name));
}

/* A block of a data file (gnuplot's index): a comment naming it, x y a line. */
static void block(FILE *f, const char *legend, const struct xy *pts, size_t n)
{
    fputs("# ", f);
    data_string(f, legend);
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
        note(pl->p->missing, sizeof pl->p->missing, svg);
        return CLMEM_OK;
    }
    snprintf(title, sizeof title, "%s: %s against %s", group->workload, group->metric_unit,
             group->sweep);
    /* Values over orders of magnitude (1, 2, 4, ... 1024) read best on a
     * log scale, a few steps from 0 on a plain one. */
    lines_head(pl, svg, title, group->sweep, group->metric_unit, lo > 0 && hi / lo >= 64);
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
            (status = open_in(&out, pl->dir, dat, pl->err)))
            return status;
        for (size_t d = 0; d < pl->n_devs; d++) {
            size_t n_sizes = sizes_of(pl, d, group, variant);
            for (size_t s = 0; s < n_sizes; s++) {
                const char *size = pl->sizes[s];
                size_t n = points_of(pl, d, group, variant, size, 0, drawn);
                snprintf(legend, sizeof legend, "%s%s%s%s%s", pl->labels[d],
                         pl->variants.n > 1 ? ", " : "", pl->variants.n > 1 ? variant : "",
                         n_sizes > 1 ? " @" : "", n_sizes > 1 ? size : "");
                block(out.file, legend, pl->points, n);
                line(pl, clauses++, dat, blocks++, d, drawn_variants - 1, legend);
            }
        }
        if ((status = clmem_output_commit(&out, pl->err)))
            return status;
    }
    fprintf(pl->gp, "\nunset logscale xy\n");
    return add_picture(pl->p, svg, NULL, pl->err);
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

/* The largest size at which every entry with results of `group` has one;
 * NULL when they share none. */
static const char *common_size(const struct plotter *pl, const struct clmem_result *group)
{
    const char *best = NULL;
    double best_x = -INFINITY;
    for (size_t d = 0; d < pl->n_devs; d++)
        for (size_t i = 0; i < pl->devs[d].n_results; i++) {
            const struct clmem_result *r = &pl->devs[d].results[i];
            if (!drawn(r) || !in_group(r, group))
                continue;
            int everywhere = 1;
            for (size_t e = 0; e < pl->n_devs && everywhere; e++)
                everywhere = !has_size(pl, e, group, NULL) || has_size(pl, e, group, r->size);
            double x = linear_size(r->size);
            if (everywhere && (!best || (isnan(best_x) ? !isnan(x) : x > best_x))) {
                best = r->size;
                best_x = x;
            }
        }
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
        (status = open_in(&out, pl->dir, dat, pl->err)))
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
        data_string(out.file, first->variant);
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
            note(pl->p->missing, sizeof pl->p->missing, svg);
        free(has);
        return status;
    }
    char where[128] = ", best size each", against[64] = "";
    if (size)
        snprintf(where, sizeof where, " at %s, the largest size every entry ran", size);
    if (baseline)
        snprintf(against, sizeof against, "; baseline %s", baseline);
    snprintf(title, sizeof title, "%s variants (%s%s%s)", group->workload, group->metric_unit,
             where, against);
    /* Log scale: the bars start a power of two below the lowest. */
    fprintf(pl->gp,
            "set output '%s'\nset title '%s'\nset xlabel ''\nset ylabel '%s (log scale)'\n"
            "set logscale y 2\nset yrange [%g:*]\nset style data histograms\n"
            "set style histogram clustered\nset style fill solid 0.8\nplot ",
            svg, quoted(title, t, sizeof t), quoted(group->metric_unit, name, sizeof name),
            exp2(floor(log2(low)) - 1));
    /* The variants' names under the first entry's bars. */
    size_t clauses = 0;
    for (size_t d = 0; d < pl->n_devs; d++) {
        if (!has[d])
            continue;
        fprintf(pl->gp, "%s'%s' using %zu%s linecolor %zu title '%s'", clauses ? ", \\\n  " : "",
                dat, d + 2, clauses ? "" : ":xtic(1)", d + 1,
                quoted(pl->labels[d], name, sizeof name));
        clauses++;
    }
    fprintf(pl->gp, "\nunset logscale xy\nset autoscale xy\nset style data linespoints\n");
    free(has);
    return add_picture(pl->p, svg, NULL, pl->err);
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
        note(pl->p->missing, sizeof pl->p->missing, svg);
        goto done;
    }
    if ((status = open_in(&out, pl->dir, dat, pl->err)))
        goto done;
    for (size_t d = 0; d < pl->n_devs; d++)
        for (size_t i = 0; i < pl->devs[d].n_results; i++)
            dims |= in_group(&pl->devs[d].results[i], group) &&
                    strchr(pl->devs[d].results[i].size, 'x');
    snprintf(title, sizeof title, "%s: %s against size", group->workload, group->metric_unit);
    /* Sizes written whole, as the tables write them (not 6.71089e+07). */
    fprintf(pl->gp, "set format x '%%.0f'\nset rmargin 8\n");
    lines_head(pl, svg, title, dims ? "size (geometric mean of the dimensions)" : "size",
               group->metric_unit, 1);
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
            line(pl, clauses, dat, clauses, d, drawn_variants - 1, legend);
            clauses++;
        }
    }
    fprintf(pl->gp, "\nunset logscale xy\nset format x\nset rmargin -1\n");
    if ((status = clmem_output_commit(&out, pl->err)))
        goto done;
    size_note(pl, group, best, rank, text, sizeof text);
    status = add_picture(pl->p, svg, text, pl->err);
done:
    free(rank);
    free(best);
    return status;
}

/* ---- rooflines ---- */

/* 0.1.0's matmul, MxNxK or N: 2MNK flops over the 4(MK + KN + MN) bytes
 * each matrix needs at least once. */
static double gemm_intensity(const char *size)
{
    size_t m = 0, n = 0, k = 0;
    int parts = sscanf(size, "%zux%zux%zu", &m, &n, &k);
    if (parts == 1)
        n = k = m;
    else if (parts != 3)
        return NAN;
    double mm = (double)m, nn = (double)n, kk = (double)k;
    double bytes = 4.0 * (mm * kk + kk * nn + mm * nn);
    return bytes > 0 ? 2.0 * mm * nn * kk / bytes : NAN;
}

/* What clmem 0.1.0's files held, which carry no flops_per_byte: the
 * workloads of that version and the flops per byte of their results (later
 * results carry flops_per_byte, from the workload's own intensity hook, and
 * this table is never read for them). The bytes are those the workload's
 * work() counted for its GB/s. 0: the workload moved data and did no
 * arithmetic; NAN: its unit counted neither flops nor bytes (not on a
 * roofline). It describes those old files only, so it names their workloads
 * and nothing else here does. */
static const struct {
    const char *workload, *variant; /* variant NULL: all of them */
    double flops_per_byte;
    double (*of_size)(const char *size); /* when it depends on the size */
} intensities[] = {
    {"matmul", NULL, NAN, gemm_intensity},
    /* one add per float read (4 bytes) */
    {"reduce", NULL, 0.25, NULL},
    /* a multiply and an add per pair of floats read (8 bytes) */
    {"dot", NULL, 0.25, NULL},
    /* 5x5 filter: 25 multiply-adds, 50 flops, per output float over the
     * 4 bytes read and 4 written */
    {"constmem", NULL, 6.25, NULL},
    /* BLUR_SIZE 1: a 3x3 box, 9 adds per output byte over the byte read
     * and the byte written (integer adds, counted as flops) */
    {"blur", NULL, 4.5, NULL},
    /* data movement */
    {"transpose", NULL, 0, NULL},
    {"coalescing", NULL, 0, NULL},
    {"pitched", NULL, 0, NULL},
    {"peak", "copy", 0, NULL},
    /* FMA_ITERATIONS 512 x 128 flops per work-item over the 4 bytes it writes */
    {"peak", "fma", 16384, NULL},
    /* samples and updates per second */
    {"pi", NULL, NAN, NULL},
    {"atomics", NULL, NAN, NULL},
};

static double table_intensity(const struct clmem_result *r)
{
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(intensities); i++)
        if (strcmp(r->workload, intensities[i].workload) == 0 &&
            (!intensities[i].variant || strcmp(r->variant, intensities[i].variant) == 0))
            return intensities[i].of_size ? intensities[i].of_size(r->size)
                                          : intensities[i].flops_per_byte;
    return NAN;
}

/* A result's arithmetic intensity (flops per byte): 0 for data movement,
 * NAN where it has none or none is known. */
static double result_intensity(const struct clmem_result *r)
{
    return isnan(r->flops_per_byte) ? table_intensity(r) : r->flops_per_byte;
}

struct point {
    double x, y, label_y;
    int right; /* label on the left of the point (near the right edge) */
    char label[160];
};

/* Moves labels up until none overlaps another: each label is a box
 * of its text's estimated width beside its point, one line high. */
static void place_labels(struct point *pts, size_t n, double x_min, double x_max, double y_min,
                         double y_max)
{
    /* About 800 by 400 pixels of plot; 7 pixels a character, 15 a line. */
    double oct_per_char = log2(x_max / x_min) * 7 / 800;
    double line = log2(y_max / y_min) * 15 / 400;
    for (size_t i = 0; i < n; i++) {
        pts[i].right = log2(x_max / pts[i].x) < strlen(pts[i].label) * oct_per_char + 1;
        pts[i].label_y = pts[i].y;
    }
    /* Lowest first, each above the labels already placed that it meets. */
    int *placed = calloc(n ? n : 1, sizeof *placed);
    if (!placed)
        return;
    for (size_t round = 0; round < n; round++) {
        size_t low = n;
        for (size_t i = 0; i < n; i++)
            if (!placed[i] && (low == n || pts[i].y < pts[low].y))
                low = i;
        struct point *p = &pts[low];
        double w = (strlen(p->label) + 2) * oct_per_char;
        double left = log2(p->x) - (p->right ? w : 0), right = left + w;
        for (int moved = 1; moved;) {
            moved = 0;
            for (size_t j = 0; j < n; j++) {
                if (!placed[j])
                    continue;
                const struct point *q = &pts[j];
                double wq = (strlen(q->label) + 2) * oct_per_char;
                double ql = log2(q->x) - (q->right ? wq : 0), qr = ql + wq;
                double dy = log2(p->label_y) - log2(q->label_y);
                if (left < qr && ql < right && fabs(dy) < line * 0.99) {
                    p->label_y = q->label_y * exp2(line);
                    moved = 1;
                }
            }
        }
        placed[low] = 1;
    }
    free(placed);
}

/* One entry's roofline: its measured bandwidth and FP32 peaks as the roof;
 * each workload's best verified result (per unit) on it: GFLOP/s at its
 * arithmetic intensity, GB/s on the slope at its own (y = GB/s x
 * intensity), data movement at the left edge at its bandwidth. */
static int roofline(FILE *gp, struct compare_plots *p, const char *dir,
                    const struct clmem_compare_device *dev, const char *label, size_t index,
                    struct clmem_error *err)
{
    const double x_min = 1.0 / 16;
    char dat[64], svg[64], name[COMPARE_LABEL_MAX * 2], off[2048] = "", bw[64], fl[64];
    snprintf(dat, sizeof dat, "roofline-%zu.dat", index);
    snprintf(svg, sizeof svg, "roofline-%zu.svg", index);
    struct point *pts = calloc(dev->n_results ? dev->n_results : 1, sizeof *pts);
    if (!pts)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    size_t n = 0;
    double x_max = 1024, y_low = dev->peak.bandwidth * x_min;
    for (size_t i = 0; i < dev->n_results; i++) {
        const struct clmem_result *r = &dev->results[i], *best = NULL;
        int first = 1;
        for (size_t j = 0; j < i && first; j++)
            first = strcmp(dev->results[j].workload, r->workload) != 0 ||
                    strcmp(dev->results[j].metric_unit, r->metric_unit) != 0;
        if (!first)
            continue;
        for (size_t j = i; j < dev->n_results; j++) {
            const struct clmem_result *c = &dev->results[j];
            if (strcmp(c->workload, r->workload) == 0 &&
                strcmp(c->metric_unit, r->metric_unit) == 0 && usable(c) &&
                (!best || c->metric > best->metric))
                best = c;
        }
        if (!best)
            continue;
        double fpb = result_intensity(best);
        int flops = strcmp(best->metric_unit, "GFLOP/s") == 0;
        int bytes = strcmp(best->metric_unit, "GB/s") == 0;
        struct point *pt = &pts[n];
        char value[64];
        clmem_format_metric(best->metric, best->metric_unit, value, sizeof value);
        if ((flops && fpb > 0) || (bytes && fpb > 0)) {
            pt->x = fpb;
            pt->y = flops ? best->metric : best->metric * fpb;
            snprintf(pt->label, sizeof pt->label, "%s %s %s", best->workload, best->variant, value);
        } else if (bytes && fpb == 0) {
            pt->x = x_min;
            pt->y = best->metric * x_min;
            snprintf(pt->label, sizeof pt->label, "%s %s %s (no flops: at its bandwidth)",
                     best->workload, best->variant, value);
        } else {
            size_t len = strlen(off);
            snprintf(off + len, sizeof off - len, "%s%s %s @%s %s", len ? "; " : "", best->workload,
                     best->variant, best->size, value);
            continue;
        }
        while (pt->x * 4 > x_max)
            x_max *= 2;
        if (pt->y < y_low)
            y_low = pt->y;
        n++;
    }
    /* Powers of two around what is drawn, room above the roof for labels. */
    double y_min = exp2(floor(log2(y_low)) - 1), y_max = exp2(ceil(log2(dev->peak.flops)) + 2);
    place_labels(pts, n, x_min, x_max, y_min, y_max);
    struct clmem_output out;
    int status = open_in(&out, dir, dat, err);
    if (status) {
        free(pts);
        return status;
    }
    size_t counts[2] = {0, 0};
    fprintf(out.file, "# roofline of %s: x flops per byte, y GFLOP/s, the label's y, label\n",
            label);
    for (int side = 0; side < 2; side++) {
        fprintf(out.file, "# index %d: labels %s their points\n", side,
                side ? "left of" : "right of");
        for (size_t i = 0; i < n; i++) {
            if (pts[i].right != side)
                continue;
            fprintf(out.file, "%.17g %.17g %.17g ", pts[i].x, pts[i].y, pts[i].label_y);
            data_string(out.file, pts[i].label);
            fputc('\n', out.file);
            counts[side]++;
        }
        fprintf(out.file, "\n\n");
    }
    free(pts);
    if ((status = clmem_output_commit(&out, err)))
        return status;
    clmem_format_metric(dev->peak.bandwidth, "GB/s", bw, sizeof bw);
    clmem_format_metric(dev->peak.flops, "GFLOP/s", fl, sizeof fl);
    fprintf(gp,
            "set output '%s'\nset title 'roofline: %s'\nset xlabel 'flops per byte (log scale)'\n"
            "set ylabel 'GFLOP/s (log scale)'\nset logscale xy 2\nset xrange [%g:%g]\n"
            "set yrange [%g:%g]\nset samples 400\n"
            "plot (x * %.17g < %.17g ? x * %.17g : %.17g) with lines linewidth 2 "
            "title 'measured peaks (%s, %s)'",
            svg, quoted(label, name, sizeof name), x_min, x_max, y_min, y_max, dev->peak.bandwidth,
            dev->peak.flops, dev->peak.bandwidth, dev->peak.flops, bw, fl);
    for (int side = 0; side < 2; side++) {
        if (!counts[side])
            continue;
        fprintf(gp,
                ", \\\n  '%s' index %d using 1:2 with points pointtype 7 linecolor rgb '#c0392b' "
                "%s, \\\n  '' index %d using 1:3:4 with labels %s offset character %d,0 "
                "font ',9' notitle",
                dat, side,
                side == 0 || !counts[0] ? "title 'best verified result per workload'" : "notitle",
                side, side ? "right" : "left", side ? -1 : 1);
    }
    fprintf(gp, "\nunset logscale xy\nset autoscale xy\n");
    char text[2048] = "";
    if (off[0])
        snprintf(text, sizeof text, "Not on the roofline of %s (neither flops nor bytes): %s.",
                 label, off);
    return add_picture(p, svg, text, err);
}

int compare_plots_write(const char *dir, const struct clmem_compare_device *devs, size_t n_devs,
                        const compare_label *labels, struct compare_plots *p,
                        struct clmem_error *err)
{
    memset(p, 0, sizeof *p);
    struct plotter pl = {
        .p = p, .dir = dir, .devs = devs, .n_devs = n_devs, .labels = labels, .err = err};
    struct picks groups = {0};
    size_t total = 0, most = 0;
    for (size_t d = 0; d < n_devs; d++) {
        total += devs[d].n_results;
        most = devs[d].n_results > most ? devs[d].n_results : most;
    }
    struct clmem_output gp;
    int status = open_in(&gp, dir, "plots.gp", err);
    if (status)
        return status;
    pl.gp = gp.file;
    groups.r = calloc(total + 1, sizeof *groups.r);
    pl.variants.r = calloc(total + 1, sizeof *pl.variants.r);
    pl.points = calloc(most + 1, sizeof *pl.points);
    pl.sizes = calloc(most + 1, sizeof *pl.sizes);
    if (!groups.r || !pl.variants.r || !pl.points || !pl.sizes) {
        status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
        goto fail;
    }
    /* The rooflines' names are theirs, whatever a workload is called. */
    for (size_t d = 0; d < n_devs && !status; d++) {
        char name[64], file[64];
        snprintf(name, sizeof name, "roofline-%zu", d);
        if (!(status = file_name(&pl, name, NULL, "dat", file)))
            status = file_name(&pl, name, NULL, "svg", file);
    }
    if (status)
        goto fail;
    /* noenhanced: names are text, not gnuplot's markup (tiled_bounds). No
     * 'mouse' or 'jsdir': the SVGs refer to no script outside. */
    fprintf(pl.gp, "set terminal svg size 900,600 dynamic noenhanced\nset grid\nset key below\n");
    pick(&pl, NULL, &groups);
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
    for (size_t d = 0; d < n_devs && !status; d++) {
        if (devs[d].peak.bandwidth <= 0 || devs[d].peak.flops <= 0)
            note(p->no_roofline, sizeof p->no_roofline, labels[d]);
        else
            status = roofline(pl.gp, p, dir, &devs[d], labels[d], d, err);
    }
    if (status || (status = clmem_output_commit(&gp, err)))
        goto fail;
    free(groups.r);
    free(pl.variants.r);
    free(pl.points);
    free(pl.sizes);
    free(pl.files);
    return CLMEM_OK;
fail:
    clmem_output_abort(&gp);
    free(groups.r);
    free(pl.variants.r);
    free(pl.points);
    free(pl.sizes);
    free(pl.files);
    compare_plots_free(p);
    return status;
}

/* ---- gnuplot ---- */

int compare_gnuplot_run(const char *dir)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int log = -1;
        if (chdir(dir) == 0)
            log = open("gnuplot.log", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int null = open("/dev/null", O_WRONLY);
        if (log < 0 || null < 0)
            _exit(127);
        dup2(null, STDOUT_FILENO);
        dup2(log, STDERR_FILENO);
        execlp("gnuplot", "gnuplot", "plots.gp", (char *)NULL);
        _exit(127);
    }
    int rc;
    while (waitpid(pid, &rc, 0) != pid)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(rc) && WEXITSTATUS(rc) == 0 ? 0 : -1;
}

int compare_gnuplot_found(void)
{
    const char *path = getenv("PATH");
    char file[1100];
    for (const char *p = path ? path : ""; *p;) {
        const char *end = strchr(p, ':');
        int len = (int)(end ? (size_t)(end - p) : strlen(p));
        snprintf(file, sizeof file, "%.*s/gnuplot", len ? len : 1, len ? p : ".");
        if (access(file, X_OK) == 0)
            return 1;
        p = end ? end + 1 : p + len;
    }
    return 0;
}
