/* The comparison report's rooflines: one per entry with its measured
 * peaks (copy bandwidth, FMA throughput), each workload's best verified
 * result placed on it at its arithmetic intensity (the flops_per_byte
 * the result carries; plots.c draws the other pictures and runs gnuplot). */
#include "compare/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The roofline's plot area in the SVG's pixels (y down from the top),
 * fixed by its margins so that the labels are placed where gnuplot will
 * draw them: room on the left for the y tick labels (a figure, its unit), and
 * below for the x axis's and the key's (plot_begin makes the picture
 * taller by the key's rows). */
#define ROOF_WIDTH  720
#define ROOF_LEFT   160.0
#define ROOF_RIGHT  (ROOF_WIDTH - 30.0)
#define ROOF_TOP    40.0
#define ROOF_BOTTOM 340.0
/* The labels' font (',10'): about 6.5 pixels a character at most for
 * sans at 10 points (digits and capitals the widest), 13 a line. */
#define LABEL_CHAR 6.5
#define LABEL_LINE 13.0
/* A point's marker and the circle around one above its roof, as radii. */
#define MARK_R   5.0
#define CIRCLE_R 13.0

struct point {
    double x, y;   /* data */
    double px, py; /* pixels */
    double lx, ly; /* the label's left end and middle, pixels */
    double ex, ey; /* a label off the point's line: its leader's end, pixels (else NAN) */
    int over;      /* above its roof: circled */
    int shown;     /* 2 the label, 1 its number alone, 0 none */
    char label[160], number[16];
};

/* A value on a log axis from v0 to v1 drawn from pixel p0 to p1, and back. */
static double to_px(double v, double v0, double v1, double p0, double p1)
{
    return p0 + (p1 - p0) * log2(v / v0) / log2(v1 / v0);
}

static double from_px(double p, double p0, double p1, double v0, double v1)
{
    return v0 * exp2((p - p0) / (p1 - p0) * log2(v1 / v0));
}

struct box {
    double l, r, t, b;
};

static int meets(struct box a, struct box b)
{
    return a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;
}

/* A label's box: `text` starting at lx, its middle at ly. */
static struct box text_box(const char *text, double lx, double ly)
{
    return (struct box){lx, lx + (double)strlen(text) * LABEL_CHAR, ly - LABEL_LINE / 2,
                        ly + LABEL_LINE / 2};
}

/* Whether `b` sits inside the plot area, clear of the labels placed so far
 * and of every point's marker. */
static int room_for(struct box b, const struct point *pts, size_t n)
{
    if (b.l < ROOF_LEFT + 2 || b.r > ROOF_RIGHT - 2 || b.t < ROOF_TOP + 2 || b.b > ROOF_BOTTOM - 2)
        return 0;
    for (size_t j = 0; j < n; j++) {
        double r = pts[j].over ? CIRCLE_R : MARK_R;
        struct box mark = {pts[j].px - r, pts[j].px + r, pts[j].py - r, pts[j].py + r};
        if (meets(b, mark))
            return 0;
        if (pts[j].shown && meets(b, text_box(pts[j].shown == 2 ? pts[j].label : pts[j].number,
                                              pts[j].lx, pts[j].ly)))
            return 0;
    }
    return 1;
}

/* Puts `text` beside point p: right of it, else left, on its line, else a
 * line up or down at a time, the nearest place first. Whether it fit. */
static int place_text(struct point *p, const char *text, const struct point *pts, size_t n)
{
    double w = (double)strlen(text) * LABEL_CHAR, gap = MARK_R + 3;
    if (p->over)
        gap = CIRCLE_R + 3;
    for (int k = 0; k <= 12; k++)
        for (int sign = 1; sign >= (k ? -1 : 1); sign -= 2)
            for (int side = 0; side < 2; side++) {
                double lx = side ? p->px - gap - w : p->px + gap;
                double ly = p->py - sign * k * LABEL_LINE;
                if (room_for(text_box(text, lx, ly), pts, n)) {
                    p->lx = lx;
                    p->ly = ly;
                    /* A line from the point to the label's near end. */
                    p->ex = k ? (side ? lx + w + 1 : lx - 1) : NAN;
                    p->ey = ly;
                    return 1;
                }
            }
    return 0;
}

/* Places every label where it meets no other label, no point and no axis:
 * the label itself, else a number that the note under the picture
 * explains (`dropped`), else none (said there too). */
static void place_labels(struct point *pts, size_t n, char *dropped, size_t size)
{
    size_t numbered = 0;
    for (size_t i = 0; i < n; i++) {
        struct point *p = &pts[i];
        if (place_text(p, p->label, pts, n)) {
            p->shown = 2;
            continue;
        }
        snprintf(p->number, sizeof p->number, "(%zu)", ++numbered);
        p->shown = place_text(p, p->number, pts, n);
        size_t len = strlen(dropped);
        if (len < size)
            snprintf(dropped + len, size - len, "%s%s %s%s", len ? "; " : "", p->number, p->label,
                     p->shown ? "" : " (no room for its number either)");
    }
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
    /* Where gnuplot draws the points: log axes across the fixed area. */
    for (size_t i = 0; i < n; i++) {
        pts[i].over = over[i];
        pts[i].px = to_px(pts[i].x, x_min, x_max, ROOF_LEFT, ROOF_RIGHT);
        pts[i].py = to_px(pts[i].y, y_min, y_max, ROOF_BOTTOM, ROOF_TOP);
    }
    char dropped[2048] = "";
    place_labels(pts, n, dropped, sizeof dropped);
    struct clmem_output out;
    int status = plot_open(&out, dir, dat, err);
    if (status) {
        free(pts);
        free(over);
        return status;
    }
    fprintf(out.file,
            "# roofline of %s: x flops per byte, y GFLOP/s, the label's left end and middle "
            "(x, y), label, above its roof (1), its leader's end (x, y; NaN: none)\n",
            label);
    for (size_t i = 0; i < n; i++) {
        const struct point *p = &pts[i];
        double lx = from_px(p->lx, ROOF_LEFT, ROOF_RIGHT, x_min, x_max);
        double ly = from_px(p->ly, ROOF_BOTTOM, ROOF_TOP, y_min, y_max);
        double ex = from_px(p->ex, ROOF_LEFT, ROOF_RIGHT, x_min, x_max);
        fprintf(out.file, "%.17g %.17g %.17g %.17g ", p->x, p->y, p->shown ? lx : NAN,
                p->shown ? ly : NAN);
        plot_data_string(out.file, p->shown == 2 ? p->label : p->shown ? p->number : "");
        fprintf(out.file, " %d %.17g %.17g\n", over[i], p->shown ? ex : NAN, p->shown ? ly : NAN);
    }
    free(pts);
    free(over);
    if ((status = clmem_output_commit(&out, err)))
        return status;
    clmem_format_metric(dev->peak.bandwidth, "GB/s", bw, sizeof bw);
    clmem_format_metric(dev->peak.flops, "GFLOP/s", fl, sizeof fl);
    double height = (double)plot_begin(gp, svg, ROOF_WIDTH, 3, 48);
    fprintf(gp,
            "set lmargin at screen %.6f\nset rmargin at screen %.6f\n"
            "set tmargin at screen %.6f\nset bmargin at screen %.6f\n",
            ROOF_LEFT / ROOF_WIDTH, ROOF_RIGHT / ROOF_WIDTH, 1 - ROOF_TOP / height,
            1 - ROOF_BOTTOM / height);
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
    if (n)
        fprintf(gp,
                ", \\\n  '%s' using 1:($2*1e9):($7-$1):(($8-$2)*1e9) with vectors nohead "
                "linecolor rgb '#888888' linewidth 0.75 notitle, \\\n  '' using 1:($2*1e9) with "
                "points pointtype 7 linecolor rgb '#D55E00' "
                "title 'best verified result per workload'%s, \\\n  '' using 3:($4*1e9):5 with "
                "labels left font ',10' notitle",
                dat,
                above[0] ? ", \\\n  '' using 1:($6 > 0 ? $2*1e9 : NaN) with points pointtype 6 "
                           "pointsize 2.5 linecolor rgb '#000000' title 'above its roof'"
                         : "");
    fprintf(gp, "\nunset logscale xy\nset autoscale xy\nset format xy\nset lmargin -1\n"
                "set rmargin -1\nset tmargin -1\nset bmargin -1\n");
    char text[4096] = "";
    size_t len = 0;
    if (edge)
        len = (size_t)snprintf(text, sizeof text,
                               "At the left edge (no flops): results that move data and do no "
                               "arithmetic, on the slope at their bandwidth.");
    if (above[0] && len < sizeof text)
        len +=
            (size_t)snprintf(text + len, sizeof text - len, "%sAbove its roof on %s (circled): %s.",
                             len ? " " : "", label, above);
    if (dropped[0] && len < sizeof text)
        len += (size_t)snprintf(text + len, sizeof text - len,
                                "%sNumbered for want of room beside their points: %s.",
                                len ? " " : "", dropped);
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
