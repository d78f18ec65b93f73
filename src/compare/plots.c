/* The comparison report's pictures: which to draw, their data files and
 * one gnuplot script (plots.gp) that draws them all (gnuplot.c runs it;
 * what the pictures share lives there too), and how they read the results
 * (plotter.c; plots_lines.c, plots_bars.c and plots_pp.c draw them). Every entry is named by its
 * label (compare_labels) in titles and legends, and keeps its colour in every picture. The pictures
 * follow from what the results carry, never from the workloads' names:
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
 * - a roofline per entry (roofline.c), and a hierarchical one (bounds.c). */
#include "compare/plots_bars.h"
#include "compare/plots_lines.h"
#include "compare/plots_pp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
        if (!(status = plots_file_name(&pl, levels_names[i], NULL, "dat", file)))
            status = plots_file_name(&pl, levels_names[i], NULL, "svg", file);
    }
    for (size_t d = 0; d <= n_devs && !status; d++) {
        char name[64], file[64];
        if (d < n_devs)
            snprintf(name, sizeof name, "roofline-%zu", d);
        else
            snprintf(name, sizeof name, "roofline-all");
        if (!(status = plots_file_name(&pl, name, NULL, "dat", file)))
            status = plots_file_name(&pl, name, NULL, "svg", file);
        snprintf(name, sizeof name, "hroofline-%zu", d);
        if (d < n_devs && !status && !(status = plots_file_name(&pl, name, NULL, "dat", file)))
            status = plots_file_name(&pl, name, NULL, "svg", file);
    }
    if (status)
        goto done;
    /* noenhanced: names are text, not gnuplot's markup (tiled_bounds). No
     * 'mouse' or 'jsdir': the SVGs refer to no script outside. */
    plot_script_start(pl.gp, n_devs);
    plots_pick(&pl, NULL, &groups);
    status = plots_glance(&pl, &groups);
    /* Sweeps, then bars, then sizes, each in the order the results come. */
    for (size_t g = 0; g < groups.n && !status; g++)
        if (groups.r[g]->sweep[0])
            status = plots_sweep(&pl, groups.r[g]);
    for (size_t g = 0; g < groups.n && !status; g++)
        if (!groups.r[g]->sweep[0] && plots_has_baseline(&pl, groups.r[g]))
            status = plots_bars(&pl, groups.r[g]);
    for (size_t g = 0; g < groups.n && !status; g++)
        if (!groups.r[g]->sweep[0])
            status = plots_size(&pl, groups.r[g]);
    size_t roofs = 0;
    for (size_t d = 0; d < n_devs && !status; d++) {
        if (devs[d].peak.bandwidth <= 0 || devs[d].peak.flops <= 0)
            plots_note(p->no_roofline, sizeof p->no_roofline, labels[d]);
        else
            status = compare_roofline(pl.gp, p, dir, &devs[d], labels[d], d, err);
        roofs += devs[d].peak.bandwidth > 0 && devs[d].peak.flops > 0;
    }
    for (size_t d = 0; d < n_devs && !status; d++)
        status = compare_bounds_plot(pl.gp, p, dir, &devs[d], labels[d], d, err);
    if (!status && roofs >= 2)
        status = compare_roofline_all(pl.gp, p, dir, devs, labels, n_devs, err);
    if (!status && pp)
        status = plots_cascades(&pl, pp);
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
