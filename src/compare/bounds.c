/* Which level bounds each result, in the comparison report: the traffic
 * model's bound that each result carries (harness/traffic.h: the bytes its
 * design moves at global, __local and __constant memory, its flops, each
 * level's predicted time) drawn as a hierarchical roofline per entry, a
 * ceiling per level and a point per result and level, and said in a table
 * of the binding level and measured / predicted. Each level's rate is
 * derived from the run file itself (amount / predicted time): clmem
 * compare measures nothing of its own. */
#include "compare/model.h"
#include "harness/traffic.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The memory levels a point stands at, each with its ceiling's colour
 * (Okabe and Ito's, as the entries' colours). */
#define MEMORY_LEVELS CLMEM_BOUND_COMPUTE
static const char *const level_colours[MEMORY_LEVELS] = {"#0072B2", "#D55E00", "#009E73"};

static void appendf(char *text, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void appendf(char *text, size_t size, const char *fmt, ...)
{
    size_t len = strlen(text);
    if (len + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text + len, size - len, fmt, ap);
    va_end(ap);
}

/* A result the model bounds: it ran, a workload (not the peaks or the
 * hierarchy's probes), with a binding level and a ratio. */
static int bounded(const struct clmem_result *r)
{
    return !r->skipped && r->median_ms > 0 && !compare_is_peak(r->workload) &&
           !compare_is_probe(r->workload) && r->bound.binding > 0 && isfinite(r->bound.ratio);
}

/* A result the table could hold, bound or not. */
static int could_be_bounded(const struct clmem_result *r)
{
    return !r->skipped && r->median_ms > 0 && !compare_is_peak(r->workload) &&
           !compare_is_probe(r->workload);
}

/* A bounded result on the plot: verified, with flops and bytes at some
 * memory level (an intensity). */
static int plotted(const struct clmem_result *r)
{
    int placed = 0;
    double x, y;
    for (int l = 0; l < MEMORY_LEVELS; l++)
        placed |= clmem_bound_point(r, l, &x, &y);
    return bounded(r) && plot_usable(r) && placed;
}

/* The entry's rate at each level: the highest its results imply (a
 * variant bound by reads alone uses the read roof at global memory; runs
 * at other times measured other rates). */
static void entry_rates(const struct clmem_compare_device *dev, double rates[CLMEM_BOUND_LEVELS])
{
    for (int l = 0; l < CLMEM_BOUND_LEVELS; l++)
        rates[l] = 0;
    for (size_t i = 0; i < dev->n_results; i++)
        if (bounded(&dev->results[i]))
            for (int l = 0; l < CLMEM_BOUND_LEVELS; l++)
                rates[l] = fmax(rates[l], clmem_bound_rate(&dev->results[i].bound, l));
}

/* "matmul tiled 512", "coalescing offset_float offset=32 1048576". */
static void result_name(const struct clmem_result *r, char *out, size_t size)
{
    if (r->sweep[0])
        snprintf(out, size, "%s %s %s=%u %s", r->workload, r->variant, r->sweep, r->sweep_value,
                 r->size);
    else
        snprintf(out, size, "%s %s %s", r->workload, r->variant, r->size);
}

int compare_bounds_plot(FILE *gp, struct compare_plots *p, const char *dir,
                        const struct clmem_compare_device *dev, const char *label, size_t index,
                        struct clmem_error *err)
{
    size_t n = 0;
    for (size_t i = 0; i < dev->n_results; i++)
        n += plotted(&dev->results[i]);
    if (!n)
        return CLMEM_OK;
    double rates[CLMEM_BOUND_LEVELS];
    entry_rates(dev, rates);
    char dat[64], svg[64], name[COMPARE_LABEL_MAX * 2], note[2048] = "", off[1024] = "";
    snprintf(dat, sizeof dat, "hroofline-%zu.dat", index);
    snprintf(svg, sizeof svg, "hroofline-%zu.svg", index);
    struct clmem_output out;
    int status = plot_open(&out, dir, dat, err);
    if (status)
        return status;
    fprintf(out.file,
            "# hierarchical roofline of %s: a block per result, a line per level it moves data "
            "at: x flops per byte of that level, y GFLOP/s measured, the level, its colour, "
            "the result's number, its label (at its rightmost point)\n",
            label);
    double x_lo = INFINITY, x_hi = 0, y_lo = INFINITY, y_hi = rates[CLMEM_BOUND_COMPUTE];
    size_t number = 0;
    for (size_t i = 0; i < dev->n_results; i++) {
        const struct clmem_result *r = &dev->results[i];
        char what[160];
        result_name(r, what, sizeof what);
        if (!plotted(r)) {
            if (bounded(r) && plot_usable(r))
                appendf(off, sizeof off, "%s%s", off[0] ? ", " : "", what);
            continue;
        }
        const struct clmem_bound *b = &r->bound;
        double y = 0;
        /* The label at the rightmost point, where the least is drawn. */
        int last = -1;
        for (int l = 0; l < MEMORY_LEVELS; l++)
            if (b->amount[l] > 0 && (last < 0 || b->amount[l] < b->amount[last]))
                last = l;
        number++;
        for (int l = 0; l < MEMORY_LEVELS; l++) {
            double x;
            if (!clmem_bound_point(r, l, &x, &y))
                continue;
            x_lo = fmin(x_lo, x);
            x_hi = fmax(x_hi, x);
            char num[16];
            snprintf(num, sizeof num, "(%zu)", number);
            fprintf(out.file, "%.17g %.17g %d %ld %zu ", x, y, l,
                    strtol(level_colours[l] + 1, NULL, 16), number);
            plot_data_string(out.file, l == last ? num : "");
            fputc('\n', out.file);
        }
        fputc('\n', out.file);
        y_lo = fmin(y_lo, y);
        y_hi = fmax(y_hi, y);
        appendf(note, sizeof note, "%s(%zu) %s", number > 1 ? "; " : "", number, what);
    }
    if ((status = clmem_output_commit(&out, err)))
        return status;
    /* The ridges (where a ceiling meets the compute roof) in the x range;
     * powers of two around what is drawn. */
    for (int l = 0; l < MEMORY_LEVELS; l++)
        if (rates[l] > 0 && rates[CLMEM_BOUND_COMPUTE] > 0)
            x_hi = fmax(x_hi, rates[CLMEM_BOUND_COMPUTE] / rates[l]);
    double x_min = plot_axis(exp2(floor(log2(x_lo)) - 1));
    double x_max = plot_axis(exp2(ceil(log2(x_hi)) + 1));
    for (int l = 0; l < MEMORY_LEVELS; l++)
        if (rates[l] > 0)
            y_lo = fmin(y_lo, rates[l] * x_min);
    double y_min = plot_axis(exp2(floor(log2(y_lo)) - 1) * 1e9);
    double y_max = plot_axis(exp2(ceil(log2(y_hi)) + 2) * 1e9);
    size_t keys = 0;
    for (int l = 0; l < CLMEM_BOUND_LEVELS; l++)
        keys += rates[l] > 0;
    plot_begin(gp, svg, 720, keys, 40);
    fprintf(gp,
            "set title 'hierarchical roofline: %s'\nset xlabel 'flops per byte of the level "
            "(log scale)'\nset ylabel 'GFLOP/s (log scale)'\nset logscale x 2\nset logscale y "
            "10\nset xrange [%g:%g]\nset yrange [%g:%g]\nset samples 400\n"
            "set format y '%%.0s %%cFLOP/s'\nplot ",
            plot_quoted(label, name, sizeof name), x_min, x_max, y_min, y_max);
    double peak = rates[CLMEM_BOUND_COMPUTE];
    for (int l = 0; l < MEMORY_LEVELS; l++) {
        if (!(rates[l] > 0))
            continue;
        char bw[64];
        clmem_format_metric(rates[l], "GB/s", bw, sizeof bw);
        if (peak > 0)
            fprintf(gp, "(x * %.17g < %.17g ? x * %.17g : %.17g) * 1e9", rates[l], peak, rates[l],
                    peak);
        else
            fprintf(gp, "x * %.17g * 1e9", rates[l]);
        fprintf(gp, " with lines linewidth 2 linecolor rgb '%s' title '%s %s', \\\n  ",
                level_colours[l], clmem_bound_level_name(l), bw);
    }
    if (peak > 0) {
        char fl[64];
        clmem_format_metric(peak, "GFLOP/s", fl, sizeof fl);
        fprintf(gp,
                "%.17g * 1e9 with lines linewidth 2 dashtype 2 linecolor rgb '#000000' "
                "title 'compute %s', \\\n  ",
                peak, fl);
    }
    fprintf(gp,
            "'%s' using 1:($2*1e9) with lines dashtype 1 linecolor rgb '#AAAAAA' linewidth 0.75 "
            "notitle, "
            "\\\n  '' using 1:($2*1e9):4 with points pointtype 7 pointsize 1.1 linecolor rgb "
            "variable notitle, \\\n  '' using 1:($2*1e9):6 with labels left offset 0.8,0 font "
            "',10' notitle\n",
            dat);
    fputs("unset logscale xy\nset autoscale xy\nset format xy\n", gp);
    char text[2048];
    snprintf(text, sizeof text,
             "Each result at its arithmetic intensity at each level it moves data at (its "
             "flops over that level's bytes), at its measured GFLOP/s, in the level's colour; "
             "a grey line joins one result's points. Each ceiling is the level's rate as the "
             "run file's bound implies it (bytes / predicted ms, the highest of the entry's "
             "results). %s.%s%s%s",
             note, off[0] ? " Not drawn (no intensity to place): " : "", off, off[0] ? "." : "");
    if ((status = plot_add_picture(p, svg, text, err)))
        return status;
    p->pictures[p->n - 1].bounds = 1;
    return CLMEM_OK;
}

/* ---- the section ---- */

void compare_bounds_section(struct doc *d, const struct compare_view *v)
{
    size_t candidates = 0, with = 0;
    char left_out[2048] = "";
    for (size_t i = 0; i < v->n_devs; i++) {
        size_t none = 0, some = 0;
        for (size_t k = 0; k < v->devs[i].n_results; k++) {
            const struct clmem_result *r = &v->devs[i].results[k];
            if (!could_be_bounded(r))
                continue;
            candidates++;
            some += bounded(r);
            none += !bounded(r);
        }
        with += some;
        if (none)
            appendf(left_out, sizeof left_out, "%s%s (%zu of %zu)", left_out[0] ? "; " : "",
                    v->labels[i], none, none + some);
    }
    if (!candidates)
        return;
    doc_heading(d, 2, "Which level bounds each result");
    doc_text(d, "The traffic model (clmem run --peak): the bytes each variant's design moves at "
                "global, __local and __constant memory and its flops, each over the device's "
                "rate there; the slowest level binds, and measured / predicted is 1 at the "
                "bound, below 1 short of it. Above 1 beyond the samples' spread is a model "
                "error: the model counts traffic the device did not make.");
    for (size_t i = 0; i < v->n_devs && with; i++) {
        const struct clmem_compare_device *dev = &v->devs[i];
        size_t mine = 0;
        for (size_t k = 0; k < dev->n_results; k++)
            mine += bounded(&dev->results[k]);
        if (!mine)
            continue;
        doc_heading(d, 3, "%s", v->labels[i]);
        char svg[64];
        snprintf(svg, sizeof svg, "hroofline-%zu.svg", i);
        for (size_t k = 0; k < v->plots->n; k++)
            if (v->plots->pictures[k].bounds && strcmp(v->plots->pictures[k].file, svg) == 0) {
                if (v->plotted)
                    doc_picture(d, svg, v->plots->pictures[k].note);
                else
                    doc_text(d, "Note: %s.", v->plots_note);
            }
        doc_table(d, 6);
        doc_cell(d, NAN, "workload");
        doc_cell(d, NAN, "variant");
        doc_cell(d, NAN, "size");
        doc_cell(d, NAN, "binding level");
        doc_cell(d, NAN, "measured / predicted");
        doc_cell(d, NAN, "model error");
        for (size_t k = 0; k < dev->n_results; k++) {
            const struct clmem_result *r = &dev->results[k];
            if (!bounded(r))
                continue;
            const struct clmem_bound *b = &r->bound;
            doc_cell(d, NAN, "%s", r->workload);
            if (r->sweep[0])
                doc_cell(d, NAN, "%s %s=%u", r->variant, r->sweep, r->sweep_value);
            else
                doc_cell(d, NAN, "%s", r->variant);
            doc_cell(d, compare_linear_size(r->size), "%s", r->size);
            doc_cell(d, NAN, "%s", clmem_bound_level_name(b->binding - 1));
            doc_cell(d, b->ratio, "%.2f%s", b->ratio, r->verified ? "" : " (not verified)");
            if (b->model_error)
                doc_mark(d, MARK_FAILED);
            doc_cell(d, NAN, "%s", b->model_error ? "model error" : "");
        }
    }
    if (left_out[0])
        doc_text(d,
                 "Left out: results without a bound (run files written before the traffic "
                 "model, runs without --peak, variants it does not model): %s.",
                 left_out);
}
