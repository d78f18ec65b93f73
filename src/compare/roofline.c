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
    /* About 600 by 300 pixels of plot (plot_begin's 720 wide, less the
     * axes' labels); 6.5 pixels a character of the labels' font, 14 a
     * line. */
    double oct_per_char = log2(x_max / x_min) * 6.5 / 600;
    double line = log2(y_max / y_min) * 14 / 300;
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
                const struct point *q = &pts[j];
                /* Another point under the label's text moves it up too. */
                double pdy = log2(p->label_y) - log2(q->y);
                double px = log2(q->x);
                if (j != low && px > left + oct_per_char && px < right && fabs(pdy) < line * 0.55) {
                    p->label_y = q->y * exp2(line * 0.6);
                    moved = 1;
                }
                if (!placed[j])
                    continue;
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

/* The entry's best verified result per workload and unit that has a
 * place on a roofline (GFLOP/s at a positive intensity, GB/s at any),
 * in the order the workloads come, into bests; the others said in `off`
 * (NULL: not said).
 * lo, hi: widened to their intensities; *edge: some move data alone. */
static size_t roof_bests(const struct clmem_compare_device *dev, const struct clmem_result **bests,
                         char *off, size_t off_size, double *lo, double *hi, int *edge)
{
    size_t n_bests = 0;
    for (size_t i = 0; i < dev->n_results; i++) {
        const struct clmem_result *r = &dev->results[i], *best = NULL;
        int first = !compare_is_peak(r->workload);
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
            size_t len = off ? strlen(off) : 0;
            if (off && off_size)
                snprintf(off + len, off_size - len, "%s%s %s @%s %s", len ? "; " : "",
                         best->workload, best->variant, best->size, value);
            continue;
        }
        if (fpb > 0) {
            *lo = fmin(*lo, fpb);
            *hi = fmax(*hi, fpb);
        } else {
            *edge = 1;
        }
        bests[n_bests++] = best;
    }
    return n_bests;
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
    size_t n_bests = roof_bests(dev, bests, off, sizeof off, &lo, &hi, &edge);
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
            snprintf(pt->label, sizeof pt->label, "%s %s %s (no flops)", best->workload,
                     best->variant, value);
        const char *roof;
        double limit = roof_at(dev, best, pt->x, &roof);
        if (pt->y > limit * compare_above_threshold(best)) {
            over[n] = 1;
            size_t len = strlen(pt->label);
            snprintf(pt->label + len, sizeof pt->label - len, " (above its roof)");
            /* Why, in the words the tables use (compare_above_roof). */
            char why[256];
            if (!compare_above_roof(dev, best, why, sizeof why))
                snprintf(why, sizeof why, "%s",
                         strcmp(roof, "FMA") == 0
                             ? "above the FMA roof at its flops per byte: the FMA peak reads "
                               "below what this device computes"
                         : strcmp(roof, "copy") == 0 && !(dev->peak.read_bandwidth > 0)
                             ? "above the bandwidth roof at its intensity: the read roof, which "
                               "bounds reads alone, was not measured"
                             : "above the bandwidth roof at its intensity: its roof was measured "
                               "at another size");
            len = strlen(above);
            snprintf(above + len, sizeof above - len, "%s%s %s: %.2fx the %s roof (%s)",
                     len ? "; " : "", best->workload, best->variant, pt->y / limit, roof, why);
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
    plot_begin(gp, svg, 720, 3, 48);
    fprintf(gp,
            "set title 'roofline: %s'\nset xlabel 'flops per byte (log scale)'\n"
            "set ylabel 'GFLOP/s (log scale)'\nset logscale x 2\nset logscale y 10\nset xrange "
            "[%g:%g]\n"
            "set yrange [%g:%g]\nset samples 400\nset format y '%%.0s %%cFLOP/s'\n"
            "plot (x * %.17g < %.17g ? x * %.17g : %.17g) * 1e9 with lines linewidth 2 "
            "linecolor rgb '#000000' title 'copy roof %s, FMA %s'",
            plot_quoted(label, name, sizeof name), x_min, x_max, plot_axis(y_min * 1e9),
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
    if (edge)
        len = (size_t)snprintf(text, sizeof text,
                               "At the left edge (no flops): results that move data and do no "
                               "arithmetic, on the slope at their bandwidth.");
    if (above[0] && len < sizeof text)
        len +=
            (size_t)snprintf(text + len, sizeof text - len, "%sAbove its roof on %s (circled): %s.",
                             len ? " " : "", label, above);
    if (off[0] && len < sizeof text)
        snprintf(text + len, sizeof text - len,
                 "%sNot on the roofline of %s (neither flops nor bytes): %s.", len ? " " : "",
                 label, off);
    return plot_add_picture(p, svg, text, err);
}

/* ---- every entry on one roofline ---- */

int compare_roofline_all(FILE *gp, struct compare_plots *p, const char *dir,
                         const struct clmem_compare_device *devs, const compare_label *labels,
                         size_t n, struct clmem_error *err)
{
    /* Shapes that read apart, one a workload. */
    static const int shapes[] = {7, 5, 9, 11, 13, 6, 4, 8, 10, 12, 1, 2, 3, 14, 15};
    const char *names[CLMEM_ARRAY_SIZE(shapes)];
    size_t n_names = 0, total = 0;
    for (size_t d = 0; d < n; d++)
        total += devs[d].n_results;
    const struct clmem_result **bests = calloc(total + 1, sizeof *bests);
    size_t *count = calloc(n + 1, sizeof *count);
    if (!bests || !count) {
        free(bests);
        free(count);
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    }
    double lo = INFINITY, hi = 0, y_low = INFINITY, y_high = 0;
    int edge = 0;
    size_t at = 0;
    for (size_t d = 0; d < n; d++) {
        const struct clmem_peak *pk = &devs[d].peak;
        if (!(pk->bandwidth > 0 && pk->flops > 0))
            continue;
        double ridge = pk->flops / pk->bandwidth;
        lo = fmin(lo, ridge);
        hi = fmax(hi, ridge);
        y_high = fmax(y_high, pk->flops);
        count[d] = roof_bests(&devs[d], bests + at, NULL, 0, &lo, &hi, &edge);
        at += count[d];
    }
    double x_min = pow2_floor(lo) / (edge ? 4 : 2), x_max = pow2_floor(hi) * 4;
    char dat[64] = "roofline-all.dat", svg[64] = "roofline-all.svg";
    struct clmem_output out;
    int status = plot_open(&out, dir, dat, err);
    if (status) {
        free(bests);
        free(count);
        return status;
    }
    fprintf(out.file, "# every entry's roofline: an index per entry, x flops per byte, "
                      "y GFLOP/s, the workload's point type\n");
    at = 0;
    for (size_t d = 0; d < n; d++) {
        fputs("# ", out.file);
        plot_data_string(out.file, labels[d]);
        fputc('\n', out.file);
        for (size_t b = 0; b < count[d]; b++) {
            const struct clmem_result *r = bests[at + b];
            double x = r->flops_per_byte > 0 ? r->flops_per_byte : x_min;
            double y = strcmp(r->metric_unit, "GFLOP/s") == 0 ? r->metric : r->metric * x;
            size_t k = 0;
            while (k < n_names && strcmp(names[k], r->workload) != 0)
                k++;
            if (k == n_names && n_names < CLMEM_ARRAY_SIZE(shapes))
                names[n_names++] = r->workload;
            y_low = fmin(y_low, y);
            fprintf(out.file, "%.17g %.17g %d\n", x, y,
                    shapes[k < n_names ? k : CLMEM_ARRAY_SIZE(shapes) - 1]);
        }
        /* An empty entry still takes its index: gnuplot counts them. */
        fputs(count[d] ? "\n\n" : "NaN NaN 7\n\n\n", out.file);
        at += count[d];
    }
    free(bests);
    if ((status = clmem_output_commit(&out, err))) {
        free(count);
        return status;
    }
    for (size_t d = 0; d < n; d++)
        if (devs[d].peak.bandwidth > 0)
            y_low = fmin(y_low, devs[d].peak.bandwidth * x_min);
    double y_min = exp2(floor(log2(isinf(y_low) ? 1 : y_low)) - 1),
           y_max = exp2(ceil(log2(y_high > 0 ? y_high : 1)) + 1);
    char name[COMPARE_LABEL_MAX * 2];
    size_t longest = 0;
    for (size_t d = 0; d < n; d++)
        longest = strlen(labels[d]) > longest ? strlen(labels[d]) : longest;
    size_t roofs = 0;
    for (size_t d = 0; d < n; d++)
        roofs += devs[d].peak.bandwidth > 0 && devs[d].peak.flops > 0;
    plot_begin(gp, svg, 720, roofs + n_names, longest);
    fprintf(gp,
            "set title 'every device''s roofline'\n"
            "set xlabel 'flops per byte (log scale)'\nset ylabel 'GFLOP/s (log scale)'\n"
            "set logscale x 2\nset logscale y 10\nset xrange [%g:%g]\nset yrange [%g:%g]\n"
            "set samples 400\nset format y '%%.0s %%cFLOP/s'\n",
            plot_axis(x_min), plot_axis(x_max), plot_axis(y_min * 1e9), plot_axis(y_max * 1e9));
    fputs("plot ", gp);
    size_t clauses = 0;
    for (size_t d = 0; d < n; d++) {
        const struct clmem_peak *pk = &devs[d].peak;
        if (!(pk->bandwidth > 0 && pk->flops > 0))
            continue;
        fprintf(gp,
                "%s(x * %.17g < %.17g ? x * %.17g : %.17g) * 1e9 with lines linetype %zu "
                "linewidth 2 title '%s'",
                clauses++ ? ", \\\n  " : "", pk->bandwidth, pk->flops, pk->bandwidth, pk->flops,
                d + 1, plot_quoted(labels[d], name, sizeof name));
        if (count[d])
            fprintf(gp,
                    ", \\\n  '%s' index %zu using 1:($2*1e9):3 with points linecolor %zu "
                    "pointtype variable pointsize 1.2 notitle",
                    dat, d, d + 1);
    }
    for (size_t k = 0; k < n_names; k++)
        fprintf(gp, ", \\\n  NaN with points linecolor rgb '#555555' pointtype %d title '%s'",
                shapes[k], plot_quoted(names[k], name, sizeof name));
    fprintf(gp, "\nunset logscale xy\nset autoscale xy\nset format xy\n");
    free(count);
    return plot_add_picture(p, svg,
                            "Every device's copy roof (up to its FMA peak) in its colour and "
                            "dashes, and each workload's best verified result on it, the "
                            "workload told by the point's shape.",
                            err);
}
