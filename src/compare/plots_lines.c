/* The report's pictures of lines (plots.c chooses them): a workload's
 * metric against a parameter its variants sweep (WORKLOAD-SWEEP.svg), and
 * against the size (WORKLOAD-size.svg), a line per entry and variant. */
#include "compare/plots_lines.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Variants drawn against size in one picture: one line each per entry, so
 * that the picture stays readable; the others are in the tables. */
#define SIZE_LINES 3

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
    if (pl->noisy_drawn)
        plots_noisy_key(pl->gp);
}

/* "set output" to the "plot" of a picture of lines, y on a log scale:
 * devices differ by orders of magnitude, and it keeps every curve readable.
 * logx 2: sizes, ticks at powers of two as 64 Mi. */
static void lines_head(struct plotter *pl, const char *svg, const char *title, const char *xlabel,
                       const char *unit, int logx, size_t key_entries)
{
    char t[512], x[256];
    plots_key_reset(pl);
    plot_begin(pl->gp, svg, 720, key_entries, pl->longest);
    fprintf(pl->gp, "set title '%s'\nset xlabel '%s'\n", plot_quoted(title, t, sizeof t),
            plot_quoted(xlabel, x, sizeof x));
    plots_y_axis(pl, unit);
    if (logx)
        fprintf(pl->gp, "set logscale x 2\n%s", logx == 2 ? "set format x '%.0b %B'\n" : "");
    fprintf(pl->gp, "plot ");
}

/* One line of a picture: the block `index` of `dat`, in the entry's
 * colour and points, the style's dashes; named in the key by them. Each
 * point's spread (`holds` PLOTS_SPREAD) as an error bar in the entry's colour,
 * the noisy ones (PLOTS_NOISY) marked at its top. */
static void line(struct plotter *pl, size_t clause, const char *dat, size_t index, size_t entry,
                 size_t style, int holds)
{
    pl->entry_drawn[entry] = 1;
    fprintf(pl->gp,
            "%s'%s' index %zu using 1:($2*%g) with linespoints linetype %zu dashtype %zu "
            "notitle",
            clause ? ", \\\n  " : "", dat, index, pl->scale, entry + 1, style + 1);
    if (holds & PLOTS_SPREAD)
        fprintf(pl->gp,
                ", \\\n  '%s' index %zu using 1:($3*%g):(0):(($4-$3)*%g) with " PLOTS_ERROR_BAR
                " linetype %zu dashtype 1 notitle",
                dat, index, pl->scale, pl->scale, entry + 1);
    if (holds & PLOTS_NOISY) {
        pl->noisy_drawn = 1;
        fprintf(
            pl->gp,
            ", \\\n  '%s' index %zu using 1:($5 > 0 ? $4*%g : NaN) with points " PLOTS_NOISY_MARK
            " notitle",
            dat, index, pl->scale);
    }
}

/* A block of a data file (gnuplot's index): a comment naming it, then a
 * line a point: x, y, y at the slowest and at the fastest sample, noisy
 * (1) or not. What it holds besides the points (PLOTS_SPREAD, PLOTS_NOISY). */
static int block(FILE *f, const char *legend, const struct xy *pts, size_t n)
{
    int holds = 0;
    fputs("# ", f);
    plot_data_string(f, legend);
    fputc('\n', f);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%.17g %.17g %.17g %.17g %d\n", pts[i].x, pts[i].y, pts[i].lo, pts[i].hi,
                pts[i].noisy);
        holds |= (pts[i].hi > pts[i].lo ? PLOTS_SPREAD : 0) | (pts[i].noisy ? PLOTS_NOISY : 0);
    }
    fprintf(f, "\n\n");
    return holds;
}

/* ---- a parameter swept: the metric against it ---- */

/* The variants of `group` (results with `sweep`) in one picture: a line
 * per entry and variant (and size, where an entry ran the sweep at
 * several), each variant's points in WORKLOAD-VARIANT.dat. */
int plots_sweep(struct plotter *pl, const struct clmem_result *group)
{
    char svg[64], dat[64], title[256], legend[COMPARE_LABEL_MAX + 160];
    int status = plots_file_name(pl, group->workload, group->sweep, "svg", svg);
    if (status)
        return status;
    plots_pick(pl, group, &pl->variants);
    double lo = INFINITY, hi = 0;
    for (size_t d = 0; d < pl->n_devs; d++)
        for (size_t i = 0; i < pl->devs[d].n_results; i++) {
            const struct clmem_result *r = &pl->devs[d].results[i];
            if (plots_drawn(r) && plots_in_group(r, group)) {
                lo = fmin(lo, r->sweep_value);
                hi = fmax(hi, r->sweep_value);
            }
        }
    if (isinf(lo)) {
        plots_note(pl->p->missing, sizeof pl->p->missing, svg);
        return CLMEM_OK;
    }
    snprintf(title, sizeof title, "%s: %s against %s", group->workload, group->metric_unit,
             group->sweep);
    /* Values over orders of magnitude (1, 2, 4, ... 1024) read best on a
     * log scale, a few steps from 0 on a plain one. */
    lines_head(pl, svg, title, group->sweep, group->metric_unit, lo > 0 && hi / lo >= 64,
               pl->n_devs + pl->variants.n + plots_any_noisy(pl, group));
    size_t n_drawn = 0;
    for (size_t v = 0; v < pl->variants.n; v++)
        for (size_t d = 0; d < pl->n_devs; d++)
            n_drawn += plots_sizes_of(pl, d, group, pl->variants.r[v]->variant) > 0;
    size_t clauses = 0, drawn_variants = 0;
    int holds = 0;
    for (size_t v = 0; v < pl->variants.n; v++) {
        const char *variant = pl->variants.r[v]->variant;
        struct clmem_output out;
        size_t blocks = 0, any = 0;
        for (size_t d = 0; d < pl->n_devs; d++)
            any += plots_sizes_of(pl, d, group, variant);
        if (!any)
            continue; /* it ran, but nothing verified */
        drawn_variants++;
        if ((status = plots_file_name(pl, group->workload, variant, "dat", dat)) ||
            (status = plot_open(&out, pl->dir, dat, pl->err)))
            return status;
        for (size_t d = 0; d < pl->n_devs; d++) {
            size_t n_sizes = plots_sizes_of(pl, d, group, variant);
            for (size_t s = 0; s < n_sizes; s++) {
                const char *size = pl->sizes[s];
                size_t n = plots_points_of(pl, d, group, variant, size, 0, plots_drawn);
                char style[128], human[64];
                clmem_human_size(size, human, sizeof human);
                snprintf(legend, sizeof legend, "%s%s%s%s%s", pl->labels[d],
                         pl->variants.n > 1 ? ", " : "", pl->variants.n > 1 ? variant : "",
                         n_sizes > 1 ? " @" : "", n_sizes > 1 ? size : "");
                snprintf(style, sizeof style, "%s%s%s", variant, n_sizes > 1 ? " @" : "",
                         n_sizes > 1 ? human : "");
                int h = block(out.file, legend, pl->points, n);
                line(pl, clauses++, dat, blocks++, d, style_of(pl, style), h);
                holds |= h;
            }
        }
        if ((status = clmem_output_commit(&out, pl->err)))
            return status;
    }
    (void)n_drawn;
    key_clauses(pl, clauses);
    fprintf(pl->gp, "\nunset logscale xy\nset format xy\n");
    char note[256] = "";
    plots_spread_note(note, sizeof note, holds);
    return plot_add_picture(pl->p, svg, note, pl->err);
}

/* ---- several sizes: the metric against the size ---- */

/* Whether some entry ran a variant of `group` at two sizes or more. */
static int several_sizes(struct plotter *pl, const struct clmem_result *group)
{
    for (size_t v = 0; v < pl->variants.n; v++)
        for (size_t d = 0; d < pl->n_devs; d++)
            if (plots_points_of(pl, d, group, pl->variants.r[v]->variant, NULL, 1, plots_ran) >= 2)
                return 1;
    return 0;
}

/* The highest metric of a line (0: the entry has no line of the variant:
 * fewer than two sizes). */
static double line_best(struct plotter *pl, size_t d, const struct clmem_result *group,
                        const char *variant)
{
    size_t n = plots_points_of(pl, d, group, variant, NULL, 1, plots_drawn);
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
            plots_appendf(text, size, "%s%s",
                          left++ ? ", " : "Also run at several sizes, in the tables: ",
                          pl->variants.r[v]->variant);
    if (left)
        plots_appendf(text, size, ".");
    for (size_t d = 0; d < pl->n_devs; d++)
        if (plots_has_size(pl, d, group, NULL) && best[d] == 0)
            plots_appendf(text, size, "%s%s",
                          alone++ ? ", "
                          : left  ? " At one size only (no line): "
                                  : "At one size only (no line): ",
                          pl->labels[d]);
    if (alone)
        plots_appendf(text, size, ".");
}

/* `group` against the size (WORKLOAD-size.svg): a line per (entry,
 * variant) with two sizes or more, for the variants choose_lines picks. */
int plots_size(struct plotter *pl, const struct clmem_result *group)
{
    plots_pick(pl, group, &pl->variants);
    if (!several_sizes(pl, group))
        return CLMEM_OK;
    char svg[64], dat[64], title[256], legend[COMPARE_LABEL_MAX + 160], text[2048] = "";
    struct clmem_output out;
    int status, dims = 0;
    if ((status = plots_file_name(pl, group->workload, "size", "dat", dat)) ||
        (status = plots_file_name(pl, group->workload, "size", "svg", svg)))
        return status;
    double *best = calloc(pl->n_devs, sizeof *best);
    struct ranked *rank = calloc(pl->variants.n, sizeof *rank);
    if (!best || !rank) {
        status = clmem_fail(pl->err, CLMEM_ERR_CL, "out of host memory");
        goto done;
    }
    if (!choose_lines(pl, group, best, rank)) {
        plots_note(pl->p->missing, sizeof pl->p->missing, svg);
        goto done;
    }
    if ((status = plot_open(&out, pl->dir, dat, pl->err)))
        goto done;
    for (size_t d = 0; d < pl->n_devs; d++)
        for (size_t i = 0; i < pl->devs[d].n_results; i++)
            dims |= plots_in_group(&pl->devs[d].results[i], group) &&
                    strchr(pl->devs[d].results[i].size, 'x');
    snprintf(title, sizeof title, "%s: %s against size", group->workload, group->metric_unit);
    /* Sizes on powers of two as 64 Mi (not 6.71089e+07 or 67108864). */
    fprintf(pl->gp, "set rmargin 4\n");
    lines_head(pl, svg, title, dims ? "size (geometric mean of the dimensions)" : "size",
               group->metric_unit, 2, pl->n_devs + SIZE_LINES + plots_any_noisy(pl, group));
    fprintf(out.file, "# x the size, y %s\n", group->metric_unit);
    size_t clauses = 0, drawn_variants = 0;
    int holds = 0;
    for (size_t v = 0; v < pl->variants.n; v++) {
        if (!rank[v].chosen)
            continue;
        const char *variant = pl->variants.r[v]->variant;
        drawn_variants++;
        for (size_t d = 0; d < pl->n_devs; d++) {
            size_t n = plots_points_of(pl, d, group, variant, NULL, 1, plots_drawn);
            if (n < 2)
                continue;
            snprintf(legend, sizeof legend, "%s, %s", pl->labels[d], variant);
            int h = block(out.file, legend, pl->points, n);
            line(pl, clauses, dat, clauses, d, style_of(pl, variant), h);
            holds |= h;
            clauses++;
        }
    }
    (void)drawn_variants;
    key_clauses(pl, clauses);
    fprintf(pl->gp, "\nunset logscale xy\nset format xy\nset rmargin -1\n");
    if ((status = clmem_output_commit(&out, pl->err)))
        goto done;
    size_note(pl, group, best, rank, text, sizeof text);
    plots_spread_note(text, sizeof text, holds);
    status = plot_add_picture(pl->p, svg, text, pl->err);
done:
    free(rank);
    free(best);
    return status;
}
