/* The hierarchical roofline of run --peak in characters (roofline_text.c)
 * and the point it shares with the report's plot (clmem_bound_point): made-up
 * results with bounds at rates given here, each ceiling and point at the
 * row and column worked out by hand, the legend, results without a bound
 * or without flops left off, nothing past 80 columns. No device. */
#include "harness/traffic.h"
#include "report/model.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

enum {
    G = CLMEM_BOUND_GLOBAL,
    L = CLMEM_BOUND_LOCAL,
    C = CLMEM_BOUND_CONSTANT,
    F = CLMEM_BOUND_COMPUTE
};

/* copy 10 GB/s, __local 40, __constant 5, compute 80 GFLOP/s: ridges at
 * 8, 2 and 16 flops per byte. */
static const struct clmem_level_rates rates = {
    .copy_gbs = 10, .read_gbs = 12, .local_gbs = 40, .constant_gbs = 5, .gflops = 80};

static struct clmem_result made_up(const char *variant, double global, double local, double flops,
                                   double median_ms)
{
    struct clmem_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.workload, sizeof r.workload, "w");
    snprintf(r.variant, sizeof r.variant, "%s", variant);
    snprintf(r.size, sizeof r.size, "7");
    snprintf(r.roof, sizeof r.roof, "copy");
    r.verified = 1;
    r.n_samples = 1;
    r.median_ms = r.min_ms = r.max_ms = median_ms;
    r.bound.amount[G] = global;
    r.bound.amount[L] = local;
    r.bound.amount[F] = flops;
    clmem_result_bound(&r, &rates);
    return r;
}

/* Hand arithmetic: 2000 flops over 1000 bytes of global memory and 2000 of
 * __local in 1 us: 2 and 1 flops per byte, 2 GFLOP/s; 1000 bytes
 * predicted in 0.0001 ms is 10 GB/s. */
static void point_by_hand(void **state)
{
    (void)state;
    struct clmem_result r = made_up("a", 1000, 2000, 2000, 0.001);
    double x = 0, y = 0;
    assert_true(clmem_bound_point(&r, G, &x, &y));
    assert_true(fabs(x - 2) < 1e-12 && fabs(y - 2) < 1e-12);
    assert_true(clmem_bound_point(&r, L, &x, &y));
    assert_true(fabs(x - 1) < 1e-12 && fabs(y - 2) < 1e-12);
    /* No bytes at the level, no level, no flops: no place. */
    assert_false(clmem_bound_point(&r, C, &x, &y));
    assert_false(clmem_bound_point(&r, F, &x, &y));
    struct clmem_result copy = made_up("copy", 1000, 0, 0, 0.001);
    assert_false(clmem_bound_point(&copy, G, &x, &y));
    /* The rate the bound implies: 1000 B / 0.0001 ms = 10 GB/s. */
    assert_true(fabs(clmem_bound_rate(&r.bound, G) - 10) < 1e-9);
    assert_true(fabs(clmem_bound_rate(&r.bound, F) - 80) < 1e-9);
    assert_true(clmem_bound_rate(&r.bound, C) == 0);
}

/* The plot's lines, split at newlines (at most 64 of them), text cut
 * into them. */
static size_t split(char *text, char *lines[64])
{
    size_t n = 0;
    for (char *p = strtok(text, "\n"); p && n < 64; p = strtok(NULL, "\n"))
        lines[n++] = p;
    return n;
}

/* Where the hand arithmetic puts a point: x from 0.25 to 32 (ridges 2 to
 * 16 and the points 0.5 and 2, a power of two more each side: 7 octaves over
 * 64 columns, 9 a column), y from 0.5 to 256 GFLOP/s (the constant ceiling
 * at 1.25 at the left edge and the compute one at 80: 9 octaves over 16
 * rows). */
static int col_of(double x)
{
    return (int)lround(log2(x / 0.25) * 63 / 7);
}
static int row_of(double y)
{
    return (int)lround(log2(256 / y) * 15 / 9);
}

static char *plot(const struct clmem_result *results, size_t n, const char *from)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    assert_int_equal(clmem_roofline_text(out, results, n, &rates, from), CLMEM_OK);
    fclose(out);
    return text;
}

static void ceilings_and_points_in_place(void **state)
{
    (void)state;
    struct clmem_result results[3] = {
        made_up("tiled", 1000, 4000, 2000, 0.001), /* global binds, 0.10 of it */
        made_up("copy", 1000, 0, 0, 0.001),        /* no flops: no place */
        made_up("unmodelled", 0, 0, 0, 0.001),     /* no bound */
    };
    assert_int_equal(results[0].bound.binding, G + 1);
    struct clmem_roofline_grid g;
    assert_int_equal(clmem_roofline_grid(results, 3, &rates, &g), 1);
    assert_true(g.x_min == 0.25 && g.x_max == 32 && g.y_min == 0.5 && g.y_max == 256);
    char *text = plot(results, 3, NULL);
    char *lines[64], *copy = strdup(text);
    assert_non_null(copy);
    size_t n = split(copy, lines);
    size_t first = 0;
    while (first < n && !strstr(lines[first], "hierarchical roofline"))
        first++;
    assert_true(first + 1 + CLMEM_ROOF_ROWS < n);
    first++;
    for (size_t i = 0; i < n; i++)
        if (strlen(lines[i]) > 80)
            fail_msg("line %zu is %zu columns: '%s'", i, strlen(lines[i]), lines[i]);
#define AT(row, col) lines[first + (row)][CLMEM_ROOF_LEFT + (col)]
    /* The result's mark at both levels it moves data at, at 2 GFLOP/s. */
    assert_int_equal(AT(row_of(2), col_of(2)), '1');
    assert_int_equal(AT(row_of(2), col_of(0.5)), '1');
    /* The compute ceiling, flat past every ridge; each memory ceiling at
     * its GB/s times x, at the left edge (x 0.25). */
    assert_int_equal(AT(row_of(80), CLMEM_ROOF_COLS - 1), '=');
    assert_int_equal(AT(row_of(2.5), 0), '*');
    assert_int_equal(AT(row_of(10), 0), '+');
    assert_int_equal(AT(row_of(1.25), 0), '~');
    /* The global ceiling meets the compute one at its ridge (x 8, y 80),
     * and one octave before it stands at 40 GFLOP/s. */
    assert_int_equal(AT(row_of(40), col_of(4)), '*');
#undef AT
    free(copy);
    /* The legend: each ceiling, the result with its mark and binding level,
     * the one without flops named, the one without a bound counted. */
    assert_non_null(strstr(text, "= compute 80.0 GFLOP/s"));
    assert_non_null(strstr(text, "* global 10.0 GB/s"));
    assert_non_null(strstr(text, "+ __local 40.0 GB/s"));
    assert_non_null(strstr(text, "~ __constant 5.00 GB/s"));
    assert_non_null(strstr(text, "1 w tiled 7: bound global 0.10; flop/B global 2, local 0.5"));
    assert_non_null(strstr(text, "w copy 7: bound global 0.10; no flops, not drawn"));
    assert_null(strstr(text, "unmodelled"));
    assert_non_null(strstr(text, "(1 result without a bound left out)"));
    /* No global read ceiling: no result goes at the read roof. */
    assert_null(strstr(text, "reads alone"));
    free(text);
    /* The rates a file gave say so. */
    text = plot(results, 3, "h.json");
    assert_non_null(strstr(text, "+ __local 40.0 GB/s (from 'h.json')"));
    assert_non_null(strstr(text, "~ __constant 5.00 GB/s (from 'h.json')"));
    assert_null(strstr(text, "global 10.0 GB/s (from"));
    free(text);
}

/* Results none of which has a bound: one line, no plot. */
static void no_bound_one_line(void **state)
{
    (void)state;
    struct clmem_result results[2] = {made_up("a", 0, 0, 0, 0.001), made_up("b", 0, 0, 0, 1)};
    char *text = plot(results, 2, NULL);
    assert_string_equal(text, "\nhierarchical roofline: none of these results has a bound\n");
    free(text);
}

/* Three results at one cell: '#' there (a third keeps it), and the legend
 * says what it means. */
static void meeting_marks(void **state)
{
    (void)state;
    struct clmem_result results[3] = {made_up("a", 1000, 0, 2000, 0.001),
                                      made_up("b", 1000, 0, 2000, 0.001),
                                      made_up("c", 1000, 0, 2000, 0.001)};
    struct clmem_roofline_grid g;
    assert_int_equal(clmem_roofline_grid(results, 3, &rates, &g), 3);
    int row, col;
    assert_true(clmem_roofline_cell(&g, 2, 2, &row, &col));
    assert_int_equal(g.cell[row][col], '#');
    char *text = plot(results, 3, NULL);
    assert_non_null(strstr(text, "# where marks of several results meet"));
    free(text);
}

/* A GPU's rates (64 TFLOP/s, 3 TB/s): the y axis's numbers reach 10^5
 * GFLOP/s and are written in thousands, every plot line's axis in the
 * same column (1.311e+05 pushed its line one column right). */
static void large_numbers_keep_the_axis_straight(void **state)
{
    (void)state;
    const struct clmem_level_rates gpu = {
        .copy_gbs = 3000, .read_gbs = 3100, .local_gbs = 18000, .constant_gbs = 14000,
        .gflops = 64000};
    struct clmem_result r = made_up("regblock", 1e6, 1e7, 1e9, 0.03);
    clmem_result_bound(&r, &gpu);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    assert_int_equal(clmem_roofline_text(out, &r, 1, &gpu, NULL), CLMEM_OK);
    fclose(out);
    char *lines[64];
    size_t n = split(text, lines), rows = 0, thousands = 0;
    for (size_t i = 0; i < n; i++) {
        const char *bar = strchr(lines[i], '|');
        if (!bar || strstr(lines[i], "roofline"))
            continue;
        rows++;
        if ((int)(bar - lines[i]) != CLMEM_ROOF_LEFT - 1)
            fail_msg("the axis at column %d: '%s'", (int)(bar - lines[i]), lines[i]);
        thousands += strchr(lines[i], 'k') && strchr(lines[i], 'k') < bar;
    }
    assert_int_equal(rows, CLMEM_ROOF_ROWS);
    assert_true(thousands > 0);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(point_by_hand),
        cmocka_unit_test(ceilings_and_points_in_place),
        cmocka_unit_test(no_bound_one_line),
        cmocka_unit_test(meeting_marks),
        cmocka_unit_test(large_numbers_keep_the_axis_straight),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
