/* The comparison report's pictures: plot data files, one gnuplot script
 * (plots.gp) and running gnuplot on it. Every entry is named by its label
 * (compare_labels) in titles and legends. Pictures: coalescing curves,
 * transpose bars, matmul against size, and a roofline per entry with each
 * workload's best verified result placed on it. */
#include "report/compare.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- small helpers ---- */

static int open_in(struct clmem_output *out, const char *dir, const char *name,
                   struct clmem_error *err)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return clmem_output_open(out, path, err);
}

/* Text inside a gnuplot '...' string: ' doubled, as gnuplot reads it
 * (nothing else is special there, @ and backquotes included). */
static const char *quoted(const char *text, char *out, size_t size)
{
    size_t n = 0;
    for (; *text && n + 2 < size; text++) {
        if (*text == '\'')
            out[n++] = '\'';
        out[n++] = *text;
    }
    out[n] = '\0';
    return out;
}

/* A string column of a data file, in "...": a " inside would end it. */
static void data_string(FILE *f, const char *text)
{
    fputc('"', f);
    for (; *text; text++)
        fputc(*text == '"' ? '\'' : *text, f);
    fputc('"', f);
}

static void note(char *list, size_t size, const char *name)
{
    size_t len = strlen(list);
    if (len < size)
        snprintf(list + len, size - len, "%s%s", len ? ", " : "", name);
}

static int usable(const struct clmem_result *r)
{
    return !r->skipped && r->verified && !isnan(r->metric);
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

/* ---- curves and bars ---- */

/* Writes NAME.dat: one block per entry (gnuplot's index), two columns. */
static int write_series(const char *dir, const char *name, const struct clmem_compare_device *devs,
                        size_t n_devs, const compare_label *labels, const char *workload,
                        const char *variant, int by_size, size_t *points, struct clmem_error *err)
{
    struct clmem_output out;
    int status = open_in(&out, dir, name, err);
    if (status)
        return status;
    *points = 0;
    for (size_t d = 0; d < n_devs; d++) {
        fprintf(out.file, "# %s\n", labels[d]);
        for (size_t i = 0; i < devs[d].n_results; i++) {
            const struct clmem_result *r = &devs[d].results[i];
            if (strcmp(r->workload, workload) != 0 || strcmp(r->variant, variant) != 0 ||
                !usable(r))
                continue;
            double x = by_size ? strtod(r->size, NULL) : (double)r->sweep_value;
            fprintf(out.file, "%.17g %.17g\n", x, r->metric);
            (*points)++;
        }
        fprintf(out.file, "\n\n");
    }
    return clmem_output_commit(&out, err);
}

static int series_plot(FILE *gp, struct compare_plots *p, const char *dir,
                       const struct clmem_compare_device *devs, size_t n_devs,
                       const compare_label *labels, const char *svg, const char *workload,
                       const char *variant, int by_size, const char *title, const char *xlabel,
                       const char *ylabel, int logx, struct clmem_error *err)
{
    char dat[256], name[COMPARE_LABEL_MAX * 2];
    size_t points;
    snprintf(dat, sizeof dat, "%s-%s.dat", workload, variant);
    int status =
        write_series(dir, dat, devs, n_devs, labels, workload, variant, by_size, &points, err);
    if (status)
        return status;
    if (!points) {
        note(p->missing, sizeof p->missing, svg);
        return CLMEM_OK;
    }
    /* Devices differ by orders of magnitude: a log scale keeps every
     * device's curve readable. */
    fprintf(gp, "set output '%s'\nset title '%s'\nset xlabel '%s'\nset ylabel '%s (log scale)'\n%s",
            svg, title, xlabel, ylabel, logx ? "set logscale xy 2\n" : "set logscale y 2\n");
    fprintf(gp, "plot ");
    for (size_t d = 0; d < n_devs; d++)
        fprintf(gp, "%s'%s' index %zu using 1:2 with linespoints title '%s'", d ? ", \\\n  " : "",
                dat, d, quoted(labels[d], name, sizeof name));
    fprintf(gp, "\nunset logscale xy\n");
    return add_picture(p, svg, NULL, err);
}

/* Transpose variants as bars (GB/s at each entry's bench size): a cluster
 * per variant, a bar per entry, the entries named in the key (their labels
 * are too long to sit side by side under the clusters). */
static int transpose_bars(FILE *gp, struct compare_plots *p, const char *dir,
                          const struct clmem_compare_device *devs, size_t n_devs,
                          const compare_label *labels, struct clmem_error *err)
{
    static const char *const variants[] = {"copy", "naive", "coalesced", "padded"};
    struct clmem_output out;
    char name[COMPARE_LABEL_MAX * 2];
    double low = 0;
    int status = open_in(&out, dir, "transpose.dat", err);
    if (status)
        return status;
    fprintf(out.file, "# variant, then GB/s of each entry in order (0: none)\n");
    for (size_t v = 0; v < CLMEM_ARRAY_SIZE(variants); v++) {
        fprintf(out.file, "%s", variants[v]);
        for (size_t d = 0; d < n_devs; d++) {
            double value = 0;
            for (size_t i = 0; i < devs[d].n_results; i++) {
                const struct clmem_result *r = &devs[d].results[i];
                if (strcmp(r->workload, "transpose") == 0 && strcmp(r->variant, variants[v]) == 0 &&
                    usable(r) && r->metric > value)
                    value = r->metric;
            }
            if (value > 0 && (low == 0 || value < low))
                low = value;
            fprintf(out.file, " %.17g", value);
        }
        fprintf(out.file, "\n");
    }
    if ((status = clmem_output_commit(&out, err)))
        return status;
    if (low == 0) {
        note(p->missing, sizeof p->missing, "transpose.svg");
        return CLMEM_OK;
    }
    /* Log scale: the bars start a power of two below the lowest. */
    fprintf(gp,
            "set output 'transpose.svg'\nset title 'transpose variants (GB/s, best size each)'\n"
            "set xlabel ''\nset ylabel 'GB/s (log scale)'\nset logscale y 2\n"
            "set yrange [%g:*]\nset style data histograms\nset style histogram clustered\n"
            "set style fill solid 0.8\nplot ",
            exp2(floor(log2(low)) - 1));
    for (size_t d = 0; d < n_devs; d++)
        fprintf(gp, "%s'transpose.dat' using %zu%s title '%s'", d ? ", \\\n  " : "", d + 2,
                d ? "" : ":xtic(1)", quoted(labels[d], name, sizeof name));
    fprintf(gp, "\nunset logscale xy\nset autoscale xy\nset style data linespoints\n");
    return add_picture(p, "transpose.svg", NULL, err);
}

/* ---- rooflines ---- */

/* Flops per byte of each workload's results, for the files of clmem 0.1.0,
 * which did not record it (later results carry flops_per_byte, from the
 * workload's own intensity hook): result_intensity uses this table only
 * for results without it. The bytes are those the workload's
 * work() counts for its GB/s. 0: the workload moves data and does no
 * arithmetic; NAN: its unit counts neither flops nor bytes (not on a
 * roofline). matmul's depends on its size (result_intensity). */
static const struct {
    const char *workload, *variant; /* variant NULL: all of them */
    double flops_per_byte;
} intensities[] = {
    /* one add per float read (4 bytes) */
    {"reduce", NULL, 0.25},
    /* a multiply and an add per pair of floats read (8 bytes) */
    {"dot", NULL, 0.25},
    /* 5x5 filter: 25 multiply-adds, 50 flops, per output float over the
     * 4 bytes read and 4 written */
    {"constmem", NULL, 6.25},
    /* BLUR_SIZE 1: a 3x3 box, 9 adds per output byte over the byte read
     * and the byte written (integer adds, counted as flops) */
    {"blur", NULL, 4.5},
    /* data movement */
    {"transpose", NULL, 0},
    {"coalescing", NULL, 0},
    {"pitched", NULL, 0},
    {"peak", "copy", 0},
    /* FMA_ITERATIONS 512 x 128 flops per work-item over the 4 bytes it writes */
    {"peak", "fma", 16384},
    /* samples and updates per second */
    {"pi", NULL, NAN},
    {"atomics", NULL, NAN},
};

static double table_intensity(const struct clmem_result *r)
{
    if (strcmp(r->workload, "matmul") == 0) {
        /* 2MNK flops over the 4(MK + KN + MN) bytes each matrix needs at
         * least once. */
        size_t m = 0, n = 0, k = 0;
        int parts = sscanf(r->size, "%zux%zux%zu", &m, &n, &k);
        if (parts == 1)
            n = k = m;
        else if (parts != 3)
            return NAN;
        double mm = (double)m, nn = (double)n, kk = (double)k;
        double bytes = 4.0 * (mm * kk + kk * nn + mm * nn);
        return bytes > 0 ? 2.0 * mm * nn * kk / bytes : NAN;
    }
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(intensities); i++)
        if (strcmp(r->workload, intensities[i].workload) == 0 &&
            (!intensities[i].variant || strcmp(r->variant, intensities[i].variant) == 0))
            return intensities[i].flops_per_byte;
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
    struct clmem_output gp;
    int status = open_in(&gp, dir, "plots.gp", err);
    if (status)
        return status;
    FILE *f = gp.file;
    /* noenhanced: names are text, not gnuplot's markup (tiled_bounds). No
     * 'mouse' or 'jsdir': the SVGs refer to no script outside. */
    fprintf(f, "set terminal svg size 900,600 dynamic noenhanced\nset grid\nset key below\n");
    if ((status = series_plot(f, p, dir, devs, n_devs, labels, "coalescing-offset.svg",
                              "coalescing", "offset_float", 0, "bandwidth against offset (float)",
                              "offset", "GB/s", 0, err)) ||
        (status = series_plot(f, p, dir, devs, n_devs, labels, "coalescing-stride.svg",
                              "coalescing", "stride_float", 0, "bandwidth against stride (float)",
                              "stride", "GB/s", 0, err)) ||
        (status = transpose_bars(f, p, dir, devs, n_devs, labels, err)) ||
        (status = series_plot(f, p, dir, devs, n_devs, labels, "matmul-tiled.svg", "matmul",
                              "tiled_bounds", 1, "matmul tiled_bounds (Fig 4.20)", "N", "GFLOP/s",
                              1, err)) ||
        (status = series_plot(f, p, dir, devs, n_devs, labels, "matmul-regblock.svg", "matmul",
                              "regblock", 1, "matmul regblock", "N", "GFLOP/s", 1, err)))
        goto fail;
    for (size_t d = 0; d < n_devs; d++) {
        if (devs[d].peak.bandwidth <= 0 || devs[d].peak.flops <= 0) {
            note(p->no_roofline, sizeof p->no_roofline, labels[d]);
            continue;
        }
        if ((status = roofline(f, p, dir, &devs[d], labels[d], d, err)))
            goto fail;
    }
    if ((status = clmem_output_commit(&gp, err)))
        goto fail;
    return CLMEM_OK;
fail:
    clmem_output_abort(&gp);
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
