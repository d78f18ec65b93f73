/* The report's pictures of bars (plots.c chooses them): a workload's
 * variants against a baseline (WORKLOAD.svg), and each device against the
 * baseline device (glance.svg, under the summary). */
#include "compare/plots_bars.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- against a baseline: the variants as bars ---- */

/* Whether some result of `group` was measured against a baseline variant. */
int plots_has_baseline(const struct plotter *pl, const struct clmem_result *group)
{
    for (size_t d = 0; d < pl->n_devs; d++)
        for (size_t i = 0; i < pl->devs[d].n_results; i++) {
            const struct clmem_result *r = &pl->devs[d].results[i];
            if (plots_ran(r) && plots_in_group(r, group) && !isnan(r->baseline_fraction))
                return 1;
        }
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
            if (plots_drawn(r) && plots_in_group(r, group))
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
            if (!plots_drawn(r) || !plots_in_group(r, group))
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

/* One entry's best result of a variant of `group` (at `size`, unless
 * NULL); NULL for none. */
static const struct clmem_result *bar_result(const struct plotter *pl, size_t d,
                                             const struct clmem_result *group, const char *variant,
                                             const char *size)
{
    const struct clmem_result *best = NULL;
    const struct clmem_compare_device *dev = &pl->devs[d];
    for (size_t i = 0; i < dev->n_results; i++) {
        const struct clmem_result *r = &dev->results[i];
        if (plots_drawn(r) && plots_in_group(r, group) && strcmp(r->variant, variant) == 0 &&
            (!size || strcmp(r->size, size) == 0) && (!best || r->metric > best->metric))
            best = r;
    }
    return best;
}

/* The variants of `group` as bars (WORKLOAD.svg): a cluster per variant, a
 * bar per entry with its spread as an error bar, the entries named in the
 * key (their labels are too long to sit side by side under the clusters).
 * Boxes at places of their own, not gnuplot's histograms, so that the
 * error bars and the noisy marks stand on their bars. */
int plots_bars(struct plotter *pl, const struct clmem_result *group)
{
    char svg[64], dat[64], title[512], t[1024], name[COMPARE_LABEL_MAX * 2];
    struct clmem_output out;
    int status;
    if ((status = plots_file_name(pl, group->workload, NULL, "dat", dat)) ||
        (status = plots_file_name(pl, group->workload, NULL, "svg", svg)) ||
        (status = plot_open(&out, pl->dir, dat, pl->err)))
        return status;
    plots_pick(pl, group, &pl->variants);
    const char *size = common_size(pl, group), *baseline = NULL;
    double low = 0;
    /* Per entry: 1 it has a bar, then what its bars hold (PLOTS_SPREAD,
     * PLOTS_NOISY) shifted by one. */
    int *has = calloc(pl->n_devs ? pl->n_devs : 1, sizeof *has), holds = 0;
    if (!has) {
        clmem_output_abort(&out);
        return clmem_fail(pl->err, CLMEM_ERR_CL, "out of host memory");
    }
    fprintf(out.file,
            "# variant, then for each entry in order %s, at its slowest and fastest sample, "
            "noisy (1) (NaN: none)\n",
            group->metric_unit);
    for (size_t v = 0; v < pl->variants.n; v++) {
        const struct clmem_result *first = pl->variants.r[v];
        if (!baseline && first->baseline_fraction == 1)
            baseline = first->variant;
        plot_data_string(out.file, first->variant);
        for (size_t d = 0; d < pl->n_devs; d++) {
            const struct clmem_result *r = bar_result(pl, d, group, first->variant, size);
            if (!r) {
                fprintf(out.file, " NaN NaN NaN 0");
                continue;
            }
            struct xy p = plots_point(r, 0);
            if (low == 0 || p.lo < low)
                low = p.lo;
            int h = (p.hi > p.lo ? PLOTS_SPREAD : 0) | (p.noisy ? PLOTS_NOISY : 0);
            has[d] |= 1 | h << 1;
            holds |= h;
            fprintf(out.file, " %.17g %.17g %.17g %d", p.y, p.lo, p.hi, p.noisy);
        }
        fprintf(out.file, "\n");
    }
    if ((status = clmem_output_commit(&out, pl->err)) || low == 0) {
        if (!status)
            plots_note(pl->p->missing, sizeof pl->p->missing, svg);
        free(has);
        return status;
    }
    char where[96] = ", each variant at its best size", against[128] = "", note[512];
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
    plots_spread_note(note, sizeof note, holds);
    /* Wide enough for a bar of each entry in each cluster, the variants'
     * names slanted under them. */
    size_t drawn_entries = 0;
    for (size_t d = 0; d < pl->n_devs; d++)
        drawn_entries += has[d] != 0;
    size_t width = 120 + pl->variants.n * (drawn_entries + 1) * 10;
    width = width < 720 ? 720 : width > 1400 ? 1400 : width;
    plot_begin(pl->gp, svg, width, drawn_entries + !!(holds & PLOTS_NOISY), pl->longest);
    /* Log scale: the bars rise from the power of ten below the lowest
     * figure drawn (a bar's slowest sample included). */
    double bottom = plot_axis(pow(10, floor(log10(low * pl->scale))));
    fprintf(pl->gp, "set title '%s'\nset xlabel ''\n", plot_quoted(title, t, sizeof t));
    plots_y_axis(pl, group->metric_unit);
    fprintf(pl->gp,
            "set yrange [%g:*]\nset xrange [-0.6:%zu.6]\nset style fill solid 0.8\n"
            "set xtics rotate by -35 left\nset datafile missing 'NaN'\nplot ",
            bottom, pl->variants.n - 1);
    /* The variants' names under the first entry's bars; an entry whose
     * colour repeats an earlier one's is hatched. Bar k of a cluster of
     * drawn_entries at x = the variant's row + its offset. */
    size_t clauses = 0;
    double width_of = 0.8 / (double)drawn_entries;
    for (size_t d = 0, k = 0; d < pl->n_devs; d++) {
        if (!has[d])
            continue;
        char fill[48] = "";
        if (d >= PLOT_COLOURS)
            snprintf(fill, sizeof fill, " fillstyle pattern %zu", d / PLOT_COLOURS + 3);
        double at = ((double)k++ - (double)(drawn_entries - 1) / 2) * width_of;
        size_t col = 2 + 4 * d; /* the entry's figure; its spread and noise after it */
        /* x, y, x from, x to, y from, y to: a box from the axis to the figure. */
        fprintf(pl->gp,
                "%s'%s' using ($0%+.4f):($%zu*%g):($0%+.4f):($0%+.4f):(%g):($%zu*%g)%s with "
                "boxxyerror linecolor %zu%s title '%s'",
                clauses ? ", \\\n  " : "", dat, at, col, pl->scale, at - width_of / 2,
                at + width_of / 2, bottom, col, pl->scale, clauses ? "" : ":xtic(1)", d + 1, fill,
                plot_quoted(pl->labels[d], name, sizeof name));
        if (has[d] & PLOTS_SPREAD << 1)
            fprintf(
                pl->gp,
                ", \\\n  '' using ($0%+.4f):($%zu*%g):(0):(($%zu-$%zu)*%g) with " PLOTS_ERROR_BAR
                " linecolor rgb '#000000' notitle",
                at, col + 1, pl->scale, col + 2, col + 1, pl->scale);
        if (has[d] & PLOTS_NOISY << 1)
            fprintf(pl->gp,
                    ", \\\n  '' using ($0%+.4f):($%zu > 0 ? $%zu*%g : NaN) with "
                    "points " PLOTS_NOISY_MARK " notitle",
                    at, col + 3, col + 2, pl->scale);
        clauses++;
    }
    if (holds & PLOTS_NOISY)
        plots_noisy_key(pl->gp);
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
int plots_glance(struct plotter *pl, const struct picks *groups)
{
    char dat[64], svg[64], t[1024], name[COMPARE_LABEL_MAX * 2];
    struct clmem_output out;
    int status;
    const struct clmem_compare_device *base = &pl->devs[pl->baseline];
    if (pl->n_devs < 2)
        return CLMEM_OK;
    if ((status = plots_file_name(pl, "glance", NULL, "dat", dat)) ||
        (status = plots_file_name(pl, "glance", NULL, "svg", svg)) ||
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
        fputs(
            "set ytics (0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, 1, 1.1, 1.2, 1.3, 1.5, 1.7, 2, 3, 5, 7,"
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
