/* The comparison report's rooflines: one per entry with its measured
 * peaks (copy bandwidth, FMA throughput), each workload's best verified
 * result placed on it at its arithmetic intensity (the flops_per_byte
 * the result carries; plots.c draws the other pictures and runs gnuplot). */
#include "compare/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The roof a result is bound by: its memory roof (the read roof for a
 * result whose roof is "read", where measured; else the copy roof) up to
 * the FMA peak. *name: which. */
static double roof_at(const struct clmem_compare_device *dev, const struct clmem_result *r,
                      double x, const char **name)
{
    int read = strcmp(r->roof, "read") == 0 && dev->peak.read_bandwidth > 0;
    double bw = read ? dev->peak.read_bandwidth : dev->peak.bandwidth;
    *name = x * bw < dev->peak.flops ? (read ? "read" : "copy") : "FMA";
    return fmin(x * bw, dev->peak.flops);
}

static double pow2_floor(double v)
{
    return exp2(floor(log2(v)));
}

/* One entry's roofline: its measured copy (and read, where measured)
 * bandwidth and FP32 peaks as the roofs; each workload's best verified
 * result (per unit) on it: GFLOP/s at its arithmetic intensity, GB/s on
 * the slope at its own (y = GB/s x intensity), data movement at the left
 * edge at its bandwidth. The x range fits the points and the roofs' ridge;
 * a point above its roof is marked and said under the picture, with the
 * result's own note where it has one. The peak workload's results are the
 * roofs themselves, not points. */
int compare_roofline(FILE *gp, struct compare_plots *p, const char *dir,
                     const struct clmem_compare_device *dev, const char *label, size_t index,
                     struct clmem_error *err)
{
    char dat[64], svg[64], name[COMPARE_LABEL_MAX * 2], off[2048] = "", above[2048] = "", bw[64],
                                                        rbw[64], fl[64];
    snprintf(dat, sizeof dat, "roofline-%zu.dat", index);
    snprintf(svg, sizeof svg, "roofline-%zu.svg", index);
    struct point *pts = calloc(dev->n_results ? dev->n_results : 1, sizeof *pts);
    int *over = calloc(dev->n_results ? dev->n_results : 1, sizeof *over);
    if (!pts || !over) {
        free(pts);
        free(over);
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    }
    size_t n = 0;
    /* The ridge: where the copy roof meets the FMA peak. */
    double ridge = dev->peak.flops / dev->peak.bandwidth;
    double lo = ridge, hi = ridge;
    int edge = 0; /* points of data movement (no flops) at the left edge */
    const struct clmem_result **bests = calloc(dev->n_results ? dev->n_results : 1, sizeof *bests);
    if (!bests) {
        free(pts);
        free(over);
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    }
    size_t n_bests = 0;
    for (size_t i = 0; i < dev->n_results; i++) {
        const struct clmem_result *r = &dev->results[i], *best = NULL;
        int first = strcmp(r->workload, "peak") != 0;
        for (size_t j = 0; j < i && first; j++)
            first = strcmp(dev->results[j].workload, r->workload) != 0 ||
                    strcmp(dev->results[j].metric_unit, r->metric_unit) != 0;
        if (!first)
            continue;
        for (size_t j = i; j < dev->n_results; j++) {
            const struct clmem_result *c = &dev->results[j];
            if (strcmp(c->workload, r->workload) == 0 &&
                strcmp(c->metric_unit, r->metric_unit) == 0 && plot_usable(c) &&
                !c->demonstrates_failure && (!best || c->metric > best->metric))
                best = c;
        }
        if (!best)
            continue;
        double fpb = best->flops_per_byte;
        int flops = strcmp(best->metric_unit, "GFLOP/s") == 0;
        int bytes = strcmp(best->metric_unit, "GB/s") == 0;
        char value[64];
        clmem_format_metric(best->metric, best->metric_unit, value, sizeof value);
        if (!((flops || bytes) && fpb >= 0 && !(flops && fpb == 0) && isfinite(fpb))) {
            size_t len = strlen(off);
            snprintf(off + len, sizeof off - len, "%s%s %s @%s %s", len ? "; " : "", best->workload,
                     best->variant, best->size, value);
            continue;
        }
        if (fpb > 0) {
            lo = fmin(lo, fpb);
            hi = fmax(hi, fpb);
        } else {
            edge = 1;
        }
        bests[n_bests++] = best;
    }
    /* Powers of two around the points and the ridge; data movement a step
     * left of the lowest intensity. */
    double x_min = pow2_floor(lo) / (edge ? 4 : 2), x_max = pow2_floor(hi) * 4;
    double y_low = INFINITY;
    for (size_t b = 0; b < n_bests; b++) {
        const struct clmem_result *best = bests[b];
        double fpb = best->flops_per_byte;
        int flops = strcmp(best->metric_unit, "GFLOP/s") == 0;
        struct point *pt = &pts[n];
        char value[64];
        clmem_format_metric(best->metric, best->metric_unit, value, sizeof value);
        pt->x = fpb > 0 ? fpb : x_min;
        pt->y = flops ? best->metric : best->metric * pt->x;
        if (fpb > 0)
            snprintf(pt->label, sizeof pt->label, "%s %s %s", best->workload, best->variant, value);
        else
            snprintf(pt->label, sizeof pt->label, "%s %s %s (no flops: at its bandwidth)",
                     best->workload, best->variant, value);
        const char *roof;
        double limit = roof_at(dev, best, pt->x, &roof);
        if (pt->y > limit * 1.01) {
            over[n] = 1;
            size_t len = strlen(pt->label);
            snprintf(pt->label + len, sizeof pt->label - len, " (above its roof)");
            const char *why = strstr(best->note, "above its roof");
            len = strlen(above);
            snprintf(above + len, sizeof above - len, "%s%s %s: %.2fx the %s roof (%s)",
                     len ? "; " : "", best->workload, best->variant, pt->y / limit, roof,
                     why ? best->note
                     : strcmp(roof, "copy") == 0 && !(dev->peak.read_bandwidth > 0)
                         ? "no note in the run file: the peak was measured at another size, "
                           "and the read roof, which bounds reads alone, was not measured"
                         : "no note in the run file: the peak was measured at another size");
        }
        y_low = fmin(y_low, pt->y);
        n++;
    }
    free(bests);
    if (isinf(y_low))
        y_low = dev->peak.bandwidth * x_min;
    y_low = fmin(y_low, dev->peak.bandwidth * x_min);
    /* Powers of two around what is drawn, room above the roof for labels. */
    double y_min = exp2(floor(log2(y_low)) - 1), y_max = exp2(ceil(log2(dev->peak.flops)) + 2);
    /* Axis ranges gnuplot can read: a figure near the largest double (a
     * hand-made file's 1e308) would make them inf. */
    x_min = plot_axis(x_min);
    x_max = plot_axis(x_max);
    y_min = plot_axis(y_min);
    y_max = plot_axis(y_max);
    if (x_max <= x_min)
        x_max = plot_axis(x_min * 16);
    if (y_max <= y_min)
        y_max = plot_axis(y_min * 16);
    place_labels(pts, n, x_min, x_max, y_min, y_max);
    struct clmem_output out;
    int status = plot_open(&out, dir, dat, err);
    if (status) {
        free(pts);
        free(over);
        return status;
    }
    size_t counts[2] = {0, 0};
    fprintf(out.file,
            "# roofline of %s: x flops per byte, y GFLOP/s, the label's y, label, above its "
            "roof (1)\n",
            label);
    for (int side = 0; side < 2; side++) {
        fprintf(out.file, "# index %d: labels %s their points\n", side,
                side ? "left of" : "right of");
        for (size_t i = 0; i < n; i++) {
            if (pts[i].right != side)
                continue;
            fprintf(out.file, "%.17g %.17g %.17g ", pts[i].x, pts[i].y, pts[i].label_y);
            plot_data_string(out.file, pts[i].label);
            fprintf(out.file, " %d\n", over[i]);
            counts[side]++;
        }
        fprintf(out.file, "\n\n");
    }
    free(pts);
    free(over);
    if ((status = clmem_output_commit(&out, err)))
        return status;
    clmem_format_metric(dev->peak.bandwidth, "GB/s", bw, sizeof bw);
    clmem_format_metric(dev->peak.flops, "GFLOP/s", fl, sizeof fl);
    fprintf(gp,
            "set output '%s'\nset title 'roofline: %s'\nset xlabel 'flops per byte (log scale)'\n"
            "set ylabel 'GFLOP/s (log scale)'\nset logscale x 2\nset logscale y 10\nset xrange "
            "[%g:%g]\n"
            "set yrange [%g:%g]\nset samples 400\nset format y '%%.0s %%cFLOP/s'\n"
            "plot (x * %.17g < %.17g ? x * %.17g : %.17g) * 1e9 with lines linewidth 2 "
            "linecolor rgb '#000000' title 'copy roof %s, FMA %s'",
            svg, plot_quoted(label, name, sizeof name), x_min, x_max, plot_axis(y_min * 1e9),
            plot_axis(y_max * 1e9), dev->peak.bandwidth, dev->peak.flops, dev->peak.bandwidth,
            dev->peak.flops, bw, fl);
    if (dev->peak.read_bandwidth > 0) {
        clmem_format_metric(dev->peak.read_bandwidth, "GB/s", rbw, sizeof rbw);
        fprintf(gp,
                ", \\\n  (x * %.17g < %.17g ? x * %.17g : %.17g) * 1e9 with lines linewidth 2 "
                "dashtype 2 linecolor rgb '#555555' title 'read roof %s'",
                dev->peak.read_bandwidth, dev->peak.flops, dev->peak.read_bandwidth,
                dev->peak.flops, rbw);
    }
    for (int side = 0; side < 2; side++) {
        if (!counts[side])
            continue;
        fprintf(gp,
                ", \\\n  '%s' index %d using 1:($2*1e9) with points pointtype 7 linecolor rgb "
                "'#D55E00' %s, \\\n  '' index %d using 1:($5 > 0 ? $2*1e9 : NaN) with points "
                "pointtype 6 pointsize 2.5 linecolor rgb '#000000' %s, \\\n  '' index %d using "
                "1:($3*1e9):4 with labels %s offset character %d,0 font ',10' notitle",
                dat, side,
                side == 0 || !counts[0] ? "title 'best verified result per workload'" : "notitle",
                side, above[0] && (side == 0 || !counts[0]) ? "title 'above its roof'" : "notitle",
                side, side ? "right" : "left", side ? -1 : 1);
    }
    fprintf(gp, "\nunset logscale xy\nset autoscale xy\nset format xy\n");
    char text[2048] = "";
    size_t len = 0;
    if (above[0])
        len = (size_t)snprintf(text, sizeof text, "Above its roof on %s (circled): %s.", label,
                               above);
    if (off[0] && len < sizeof text)
        snprintf(text + len, sizeof text - len,
                 "%sNot on the roofline of %s (neither flops nor bytes): %s.", len ? " " : "",
                 label, off);
    return plot_add_picture(p, svg, text, err);
}
