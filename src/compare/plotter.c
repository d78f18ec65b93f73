/* What the report's pictures are drawn with (plotter.h): the results
 * they read, points and their spread, file names, the y axis and the key
 * they share. */
#include "compare/plotter.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Appends to a text, cut short when it is full. */
void plots_appendf(char *text, size_t size, const char *fmt, ...)
{
    size_t len = strlen(text);
    va_list ap;
    va_start(ap, fmt);
    if (len + 1 < size)
        vsnprintf(text + len, size - len, fmt, ap);
    va_end(ap);
}

/* A name added to a list "a, b". */
void plots_note(char *list, size_t size, const char *name)
{
    plots_appendf(list, size, "%s%s", list[0] ? ", " : "", name);
}

/* A verified result that a log scale can show. */
int plots_drawn(const struct clmem_result *r)
{
    return plot_usable(r) && r->metric > 0 && isfinite(r->metric);
}

int plots_ran(const struct clmem_result *r)
{
    return !r->skipped;
}

/* ---- what the pictures are made of ---- */

/* The results a picture draws: those of one workload in one unit, swept
 * over one parameter or not swept ("" like "": one group). */
int plots_in_group(const struct clmem_result *r, const struct clmem_result *like)
{
    return strcmp(r->workload, like->workload) == 0 &&
           strcmp(r->metric_unit, like->metric_unit) == 0 && strcmp(r->sweep, like->sweep) == 0;
}

/* The groups (first) or a group's variants: the first result of each, among
 * the results that ran. */
void plots_pick(const struct plotter *pl, const struct clmem_result *group, struct picks *out)
{
    out->n = 0;
    for (size_t d = 0; d < pl->n_devs; d++)
        for (size_t i = 0; i < pl->devs[d].n_results; i++) {
            const struct clmem_result *r = &pl->devs[d].results[i];
            if (!plots_ran(r) || (group && !plots_in_group(r, group)))
                continue;
            size_t k = 0;
            while (k < out->n && !(group ? strcmp(out->r[k]->variant, r->variant) == 0
                                         : plots_in_group(r, out->r[k])))
                k++;
            if (k == out->n)
                out->r[out->n++] = r;
        }
}

struct xy plots_point(const struct clmem_result *r, double x)
{
    struct xy p = {x, r->metric, r->metric, r->metric, clmem_result_noisy(r)};
    /* A rate from the median: at the slowest sample it is median/max of
     * it, at the fastest median/min. */
    if (r->median_ms > 0 && r->min_ms > 0 && r->max_ms >= r->min_ms && isfinite(r->max_ms)) {
        p.lo = r->metric * r->median_ms / r->max_ms;
        p.hi = r->metric * r->median_ms / r->min_ms;
    }
    return p;
}

void plots_spread_note(char *text, size_t size, int holds)
{
    if (!(holds & (PLOTS_SPREAD | PLOTS_NOISY)))
        return;
    plots_appendf(text, size, "%sError bars: each result at its slowest and its fastest sample",
                  text[0] ? " " : "");
    if (holds & PLOTS_NOISY)
        plots_appendf(text, size, "; * a noisy one (its slowest sample past %gx its fastest)",
                      CLMEM_NOISY_SPREAD);
    plots_appendf(text, size, ".");
}

int plots_any_noisy(const struct plotter *pl, const struct clmem_result *group)
{
    for (size_t d = 0; d < pl->n_devs; d++)
        for (size_t i = 0; i < pl->devs[d].n_results; i++)
            if (plots_drawn(&pl->devs[d].results[i]) &&
                plots_in_group(&pl->devs[d].results[i], group) &&
                clmem_result_noisy(&pl->devs[d].results[i]))
                return 1;
    return 0;
}

static int by_x(const void *a, const void *b)
{
    double x = ((const struct xy *)a)->x, y = ((const struct xy *)b)->x;
    return x < y ? -1 : x > y;
}

/* One entry's results of `variant` in `group` that `keep` accepts, at
 * `size` (NULL: any) as points: x the swept value, or the size as one
 * number (by_size); sorted by x, one point a x (the highest). */
size_t plots_points_of(struct plotter *pl, size_t d, const struct clmem_result *group,
                       const char *variant, const char *size, int by_size,
                       int (*keep)(const struct clmem_result *))
{
    const struct clmem_compare_device *dev = &pl->devs[d];
    struct xy *pts = pl->points;
    size_t n = 0;
    for (size_t i = 0; i < dev->n_results; i++) {
        const struct clmem_result *r = &dev->results[i];
        if (!keep(r) || !plots_in_group(r, group) || strcmp(r->variant, variant) != 0 ||
            (size && strcmp(r->size, size) != 0))
            continue;
        double x = by_size ? compare_linear_size(r->size) : (double)r->sweep_value;
        if (!isnan(x))
            pts[n++] = plots_point(r, x);
    }
    qsort(pts, n, sizeof *pts, by_x);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (kept && pts[kept - 1].x == pts[i].x) {
            if (pts[i].y > pts[kept - 1].y)
                pts[kept - 1] = pts[i];
        } else {
            pts[kept++] = pts[i];
        }
    }
    return kept;
}

/* The distinct sizes of one entry's drawn results of `variant` in `group`. */
size_t plots_sizes_of(struct plotter *pl, size_t d, const struct clmem_result *group,
                      const char *variant)
{
    const struct clmem_compare_device *dev = &pl->devs[d];
    size_t n = 0;
    for (size_t i = 0; i < dev->n_results; i++) {
        const struct clmem_result *r = &dev->results[i];
        if (!plots_drawn(r) || !plots_in_group(r, group) || strcmp(r->variant, variant) != 0)
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
int plots_file_name(struct plotter *pl, const char *a, const char *b, const char *ext, char out[64])
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

/* Whether entry d has a drawn result of `group` at `size` (NULL: any). */
int plots_has_size(const struct plotter *pl, size_t d, const struct clmem_result *group,
                   const char *size)
{
    const struct clmem_compare_device *dev = &pl->devs[d];
    for (size_t i = 0; i < dev->n_results; i++)
        if (plots_drawn(&dev->results[i]) && plots_in_group(&dev->results[i], group) &&
            (!size || strcmp(dev->results[i].size, size) == 0))
            return 1;
    return 0;
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
void plots_y_axis(struct plotter *pl, const char *unit)
{
    const char *rest;
    char r[64], y[64];
    pl->scale = bare_unit(unit, &rest);
    fprintf(pl->gp, "set ylabel '%s (log scale)'\nset logscale y 10\nset format y '%%.0s %%c%s'\n",
            plot_quoted(unit, y, sizeof y), plot_quoted(rest, r, sizeof r));
}

/* Starts a picture's key anew. */
void plots_key_reset(struct plotter *pl)
{
    memset(pl->entry_drawn, 0, pl->n_devs ? pl->n_devs : 1);
    pl->n_styles = 0;
    pl->noisy_drawn = 0;
}

void plots_noisy_key(FILE *gp)
{
    fprintf(gp, ", \\\n  NaN with points " PLOTS_NOISY_MARK " title 'noisy (max/min past %gx)'",
            CLMEM_NOISY_SPREAD);
}
