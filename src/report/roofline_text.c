/* The hierarchical roofline in characters, after the table of a run with
 * --peak: the report's plot (src/compare/bounds.c) for the terminal. Each
 * memory level's ceiling a sloped line at its GB/s up to the compute
 * ceiling, which is flat; each result a mark at every level it moves data
 * at, placed by clmem_bound_point as the report places it. Results without
 * flops have no intensity to place: the report leaves them off its plot,
 * and so does this one, naming them in the legend. */
#include "harness/traffic.h"
#include "report/model.h"

#include <math.h>
#include <string.h>

/* The ceilings, each with its character; global's at the read roof only
 * where a result goes at that rate (clmem_result_bound). */
enum { CEIL_COMPUTE, CEIL_GLOBAL, CEIL_READ, CEIL_LOCAL, CEIL_CONSTANT, CEILINGS };
static const struct {
    char mark;
    const char *name;
} ceilings[CEILINGS] = {
    [CEIL_COMPUTE] = {'=', "compute"},          [CEIL_GLOBAL] = {'*', "global"},
    [CEIL_READ] = {'-', "global, reads alone"}, [CEIL_LOCAL] = {'+', "__local"},
    [CEIL_CONSTANT] = {'~', "__constant"},
};

/* A result's mark: 1-9, then A-Z. */
static const char marks[] = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
#define MARKS (sizeof marks - 1)

/* A result with a bound, measured. */
static int has_bound(const struct clmem_result *r)
{
    return !r->skipped && !r->error[0] && r->median_ms > 0 && r->bound.binding > 0 &&
           isfinite(r->bound.ratio);
}

static int placed(const struct clmem_result *r)
{
    double x, y;
    for (int l = 0; l < CLMEM_BOUND_COMPUTE; l++)
        if (clmem_bound_point(r, l, &x, &y))
            return 1;
    return 0;
}

static double ceiling_rate(int c, const struct clmem_level_rates *rates,
                           const struct clmem_result *results, size_t n)
{
    switch (c) {
    case CEIL_COMPUTE: return rates->gflops;
    case CEIL_GLOBAL: return rates->copy_gbs;
    case CEIL_LOCAL: return rates->local_gbs;
    case CEIL_CONSTANT: return rates->constant_gbs;
    }
    for (size_t i = 0; i < n; i++)
        if (has_bound(&results[i]) && strcmp(results[i].roof, "read") == 0 &&
            results[i].bound.amount[CLMEM_BOUND_GLOBAL] > 0 && rates->read_gbs > 0)
            return rates->read_gbs;
    return 0;
}

static double row_y(const struct clmem_roofline_grid *g, int row)
{
    double f = (double)row / (CLMEM_ROOF_ROWS - 1);
    return exp2(log2(g->y_max) - f * (log2(g->y_max) - log2(g->y_min)));
}

static double col_x(const struct clmem_roofline_grid *g, int col)
{
    double f = (double)col / (CLMEM_ROOF_COLS - 1);
    return exp2(log2(g->x_min) + f * (log2(g->x_max) - log2(g->x_min)));
}

int clmem_roofline_cell(const struct clmem_roofline_grid *g, double x, double y, int *row, int *col)
{
    double fx = (log2(x) - log2(g->x_min)) / (log2(g->x_max) - log2(g->x_min));
    double fy = (log2(g->y_max) - log2(y)) / (log2(g->y_max) - log2(g->y_min));
    if (!(fx >= 0 && fx <= 1 && fy >= 0 && fy <= 1))
        return 0;
    *col = (int)lround(fx * (CLMEM_ROOF_COLS - 1));
    *row = (int)lround(fy * (CLMEM_ROOF_ROWS - 1));
    return 1;
}

/* Where two results' marks meet, '#' says so instead of either. */
static void put(struct clmem_roofline_grid *g, double x, double y, char mark)
{
    int row, col;
    if (!clmem_roofline_cell(g, x, y, &row, &col))
        return;
    char *cell = &g->cell[row][col];
    int is_mark = strchr(marks, mark) != NULL, held = *cell == '#' || strchr(marks, *cell);
    *cell = is_mark && held && *cell != mark ? '#' : mark;
}

/* The axes' ends: powers of two around the points and the ridges (where
 * a ceiling meets the compute one), as the report's plot chooses them. */
static void frame(struct clmem_roofline_grid *g, const double rate[CEILINGS],
                  const struct clmem_result *results, size_t n)
{
    double x_lo = INFINITY, x_hi = 0, y_lo = INFINITY, y_hi = rate[CEIL_COMPUTE];
    for (size_t i = 0; i < n; i++)
        for (int l = 0; l < CLMEM_BOUND_COMPUTE && has_bound(&results[i]); l++) {
            double x, y;
            if (!clmem_bound_point(&results[i], l, &x, &y))
                continue;
            x_lo = fmin(x_lo, x), x_hi = fmax(x_hi, x);
            y_lo = fmin(y_lo, y), y_hi = fmax(y_hi, y);
        }
    for (int c = CEIL_GLOBAL; c < CEILINGS; c++)
        if (rate[c] > 0 && rate[CEIL_COMPUTE] > 0) {
            x_lo = fmin(x_lo, rate[CEIL_COMPUTE] / rate[c]);
            x_hi = fmax(x_hi, rate[CEIL_COMPUTE] / rate[c]);
        }
    if (!(x_hi > 0))
        x_lo = x_hi = 1;
    g->x_min = exp2(floor(log2(x_lo)) - 1);
    g->x_max = exp2(ceil(log2(x_hi)) + 1);
    /* The sloped ceilings enter at the left edge. */
    for (int c = CEIL_GLOBAL; c < CEILINGS; c++)
        if (rate[c] > 0)
            y_lo = fmin(y_lo, rate[c] * g->x_min);
    if (!(y_hi > 0))
        y_hi = isfinite(y_lo) ? y_lo : 1;
    if (!isfinite(y_lo))
        y_lo = y_hi;
    g->y_min = exp2(floor(log2(y_lo)) - 1);
    g->y_max = exp2(ceil(log2(y_hi)) + 1);
}

size_t clmem_roofline_grid(const struct clmem_result *results, size_t n,
                           const struct clmem_level_rates *rates, struct clmem_roofline_grid *g)
{
    double rate[CEILINGS];
    for (int c = 0; c < CEILINGS; c++)
        rate[c] = ceiling_rate(c, rates, results, n);
    memset(g, 0, sizeof *g);
    for (int row = 0; row < CLMEM_ROOF_ROWS; row++)
        memset(g->cell[row], ' ', CLMEM_ROOF_COLS);
    frame(g, rate, results, n);
    double peak = rate[CEIL_COMPUTE];
    for (int col = 0; col < CLMEM_ROOF_COLS && peak > 0; col++)
        put(g, col_x(g, col), peak, ceilings[CEIL_COMPUTE].mark);
    /* A sloped line up to the compute ceiling, through every column and
     * every row it crosses, so that it has no gaps at either slope. */
    for (int c = CEIL_GLOBAL; c < CEILINGS; c++) {
        if (!(rate[c] > 0))
            continue;
        for (int col = 0; col < CLMEM_ROOF_COLS; col++) {
            double x = col_x(g, col), y = rate[c] * x;
            if (!(peak > 0) || y < peak)
                put(g, x, y, ceilings[c].mark);
        }
        for (int row = 0; row < CLMEM_ROOF_ROWS; row++) {
            double y = row_y(g, row);
            if (!(peak > 0) || y < peak)
                put(g, y / rate[c], y, ceilings[c].mark);
        }
    }
    size_t drawn = 0;
    for (size_t i = 0; i < n; i++) {
        if (!has_bound(&results[i]) || !placed(&results[i]))
            continue;
        if (drawn < MARKS)
            for (int l = 0; l < CLMEM_BOUND_COMPUTE; l++) {
                double x, y;
                if (clmem_bound_point(&results[i], l, &x, &y))
                    put(g, x, y, marks[drawn]);
            }
        drawn++;
    }
    return drawn;
}

/* An axis's number: four significant digits, so that 1024 is written
 * whole; from 10^4 in thousands, millions, billions (k, M, G), so that it
 * fits the axis's 8 columns (a GPU's rates in exponent form did not). */
static void axis_number(double v, char *out, size_t size)
{
    static const char *const prefix[] = {"", "k", "M", "G"};
    size_t p = 0;
    while (v >= 1e4 && p + 1 < sizeof prefix / sizeof *prefix) {
        v /= 1e3;
        p++;
    }
    snprintf(out, size, "%.4g%s", v, prefix[p]);
}

/* One legend line, cut at 80 columns. */
static void line(FILE *out, const char *text)
{
    fprintf(out, "%.80s\n", text);
}

static void result_legend(FILE *out, const struct clmem_result *r, char mark)
{
    char text[1024], raw[200], what[512], at[160] = "";
    if (r->sweep[0])
        snprintf(raw, sizeof raw, "%s %s %s=%u %s", r->workload, r->variant, r->sweep,
                 r->sweep_value, r->size);
    else
        snprintf(raw, sizeof raw, "%s %s %s", r->workload, r->variant, r->size);
    clmem_text_escape(raw, what, sizeof what);
    const struct clmem_bound *b = &r->bound;
    double x, y;
    for (int l = 0; l < CLMEM_BOUND_COMPUTE; l++)
        if (clmem_bound_point(r, l, &x, &y)) {
            size_t len = strlen(at);
            snprintf(at + len, sizeof at - len, "%s%s %.3g", at[0] ? ", " : "flop/B ",
                     clmem_bound_level_name(l), x);
        }
    snprintf(text, sizeof text, "  %c %s: bound %s %.2f%s; %s", mark, what,
             clmem_bound_level_name(b->binding - 1), b->ratio, b->model_error ? "!" : "",
             mark == ' ' ? "no flops, not drawn" : at);
    line(out, text);
}

int clmem_roofline_text(FILE *out, const struct clmem_result *results, size_t n,
                        const struct clmem_level_rates *rates, const char *levels_from)
{
    size_t bounded = 0;
    for (size_t i = 0; i < n; i++)
        bounded += has_bound(&results[i]);
    fputc('\n', out);
    if (!bounded) {
        line(out, "hierarchical roofline: none of these results has a bound");
        return CLMEM_OK;
    }
    struct clmem_roofline_grid g;
    size_t drawn = clmem_roofline_grid(results, n, rates, &g);
    line(out, "hierarchical roofline (log-log): x flops per byte at the level, y GFLOP/s");
    char number[32];
    for (int row = 0; row < CLMEM_ROOF_ROWS; row++) {
        number[0] = '\0';
        if (row % 5 == 0 || row == CLMEM_ROOF_ROWS - 1)
            axis_number(row_y(&g, row), number, sizeof number);
        fprintf(out, "%*s |%.*s\n", CLMEM_ROOF_LEFT - 2, number, CLMEM_ROOF_COLS, g.cell[row]);
    }
    fprintf(out, "%*s +", CLMEM_ROOF_LEFT - 2, "");
    for (int col = 0; col < CLMEM_ROOF_COLS; col++)
        fputc('-', out);
    fputc('\n', out);
    /* The x axis's numbers at its ends and middle. */
    char lo[32], mid[32], hi[32];
    axis_number(g.x_min, lo, sizeof lo);
    axis_number(sqrt(g.x_min * g.x_max), mid, sizeof mid);
    axis_number(g.x_max, hi, sizeof hi);
    int half = CLMEM_ROOF_COLS / 2 - (int)strlen(lo);
    fprintf(out, "%*s%s%*s%-*s%s\n", CLMEM_ROOF_LEFT, "", lo, half, "",
            CLMEM_ROOF_COLS - CLMEM_ROOF_COLS / 2 - (int)strlen(hi), mid, hi);
    for (int c = 0; c < CEILINGS; c++) {
        double rate = ceiling_rate(c, rates, results, n);
        if (!(rate > 0))
            continue;
        char value[48], text[256];
        clmem_format_metric(rate, c == CEIL_COMPUTE ? "GFLOP/s" : "GB/s", value, sizeof value);
        int from_file = levels_from && (c == CEIL_LOCAL || c == CEIL_CONSTANT);
        snprintf(text, sizeof text, "  %c %s %s%s%s%s", ceilings[c].mark, ceilings[c].name, value,
                 from_file ? " (from '" : "", from_file ? levels_from : "", from_file ? "')" : "");
        line(out, text);
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!has_bound(&results[i]))
            continue;
        int drawn_here = placed(&results[i]);
        if (drawn_here && k >= MARKS)
            continue;
        result_legend(out, &results[i], drawn_here ? marks[k++] : ' ');
    }
    int meet = 0;
    for (int row = 0; row < CLMEM_ROOF_ROWS; row++)
        meet |= strchr(g.cell[row], '#') != NULL;
    if (meet)
        line(out, "  # where marks of several results meet");
    if (drawn > MARKS) {
        fprintf(out, "  (%zu more results with a bound, past the %zu marks, not drawn)\n",
                drawn - MARKS, MARKS);
    }
    if (bounded < n)
        fprintf(out, "  (%zu result%s without a bound left out)\n", n - bounded,
                n - bounded == 1 ? "" : "s");
    return CLMEM_OK;
}
