/* Several devices at once (issue 7, item 1): the row split's arithmetic,
 * matmul split over PoCL twice ("cpu,cpu") at odd sizes, verified, and
 * `clmem run --device LIST` on the command line. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli_run.h"
#include "pocl.h"
#include "workloads/matmul_split.h"

/* Checks the blocks are contiguous, in order, cover every row once and
 * each is within one row of its exact share. */
static void expect_split(size_t rows, size_t n, const double *weights, const size_t *want)
{
    struct clmem_error err = {0};
    size_t first[16], count[16];
    assert_int_equal(clmem_split_rows(rows, n, weights, first, count, &err), CLMEM_OK);
    double total = 0.0;
    for (size_t i = 0; i < n; i++)
        total += weights ? weights[i] : 1.0;
    size_t next = 0;
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(first[i], next);
        double exact = (double)rows * (weights ? weights[i] : 1.0) / total;
        if (fabs((double)count[i] - exact) >= 1.0)
            fail_msg("%zu rows over %zu: block %zu has %zu rows, exact share %g", rows, n, i,
                     count[i], exact);
        if (want && count[i] != want[i])
            fail_msg("%zu rows over %zu: block %zu has %zu rows, expected %zu", rows, n, i,
                     count[i], want[i]);
        next += count[i];
    }
    assert_int_equal(next, rows);
}

static void split_rows_edge_cases(void **state)
{
    (void)state;
    expect_split(10, 3, NULL, (const size_t[]){3, 3, 4}); /* uneven */
    expect_split(12, 3, NULL, (const size_t[]){4, 4, 4}); /* even */
    expect_split(2, 3, NULL, (const size_t[]){0, 1, 1});  /* rows < devices */
    expect_split(1, 2, NULL, (const size_t[]){0, 1});     /* one row */
    expect_split(1, 1, NULL, (const size_t[]){1});        /* one device */
    expect_split(7, 1, NULL, (const size_t[]){7});
    expect_split(10, 2, (const double[]){1, 3}, (const size_t[]){3, 7});
    expect_split(10, 3, (const double[]){0, 1, 0}, (const size_t[]){0, 10, 0});
    expect_split(5, 2, (const double[]){2, 1}, (const size_t[]){3, 2});
    expect_split(0, 2, NULL, (const size_t[]){0, 0});
    /* Every count 1..40 over 1..7 devices, equal and skewed shares. */
    static const double skew[] = {1, 2, 3, 0.5, 7, 0, 1};
    for (size_t rows = 1; rows <= 40; rows++)
        for (size_t n = 1; n <= 7; n++) {
            expect_split(rows, n, NULL, NULL);
            expect_split(rows, n, skew, NULL);
        }
}

static void split_rows_refuses_bad_weights(void **state)
{
    (void)state;
    struct clmem_error err = {0};
    size_t first[4], count[4];
    assert_int_equal(clmem_split_rows(10, 2, (const double[]){0, 0}, first, count, &err),
                     CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, "sum to 0"));
    assert_int_equal(clmem_split_rows(10, 2, (const double[]){1, -1}, first, count, &err),
                     CLMEM_ERR_USAGE);
    assert_int_equal(clmem_split_rows(10, 2, (const double[]){1, NAN}, first, count, &err),
                     CLMEM_ERR_USAGE);
    assert_int_equal(clmem_split_rows(10, 0, NULL, first, count, &err), CLMEM_ERR_USAGE);
}

/* Two contexts on the test device: PoCL twice. */
struct two {
    struct clmem_ctx ctx[2];
};

static int open_two(void **state)
{
    struct two *t = calloc(1, sizeof *t);
    if (!t)
        return -1;
    test_open_device(&t->ctx[0]);
    test_open_device(&t->ctx[1]);
    *state = t;
    return 0;
}

static int close_two(void **state)
{
    struct two *t = *state;
    clmem_ctx_close(&t->ctx[0]);
    clmem_ctx_close(&t->ctx[1]);
    free(t);
    return 0;
}

/* Runs o over both contexts (2 timed runs after a warm-up, seed 42): one
 * result per device count, both verified, the second with its ratio to
 * the first and `rows` in its note. `what` names the run in a failure. */
static struct clmem_result *split_two(struct two *t, struct clmem_split_options o, const char *what,
                                      const char *rows)
{
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    o.reps = 2;
    o.warmup = 1;
    o.seed = 42;
    int status = clmem_matmul_split(t->ctx, 2, &o, &results, &n, &err);
    if (status != CLMEM_OK)
        fail_msg("%s %s at %s: status %d: %s%s", what, o.variant, o.size, status, err.message,
                 n ? results[n - 1].verify_detail : "");
    assert_int_equal(n, 2);
    for (size_t k = 0; k < 2; k++)
        assert_true(results[k].verified);
    assert_true(results[1].baseline_fraction > 0.0);
    if (!strstr(results[1].note, rows))
        fail_msg("%s %s at %s: note '%s' lacks '%s'", what, o.variant, o.size, results[1].note,
                 rows);
    clmem_error_clear(&err);
    return results;
}

/* Splits VARIANT at SIZE over both contexts: each device count timed, the
 * speedup's note end to end, with or without overlap. */
static void expect_split_run(struct two *t, const char *variant, const char *size,
                             const double *weights, int no_overlap, const char *rows)
{
    struct clmem_split_options o = {
        .variant = variant, .size = size, .weights = weights, .no_overlap = no_overlap};
    struct clmem_result *results = split_two(t, o, "split", rows);
    assert_string_equal(results[0].device, "split over 1 device");
    assert_string_equal(results[1].device, "split over 2 devices");
    for (size_t k = 0; k < 2; k++) {
        assert_false(results[k].skipped);
        assert_int_equal(results[k].n_samples, 2);
        assert_true(results[k].median_ms > 0.0 && results[k].metric > 0.0);
    }
    if (!strstr(results[1].note, "% not hidden") ||
        !strstr(results[1].note, no_overlap ? "end to end, no overlap;" : "end to end;"))
        fail_msg("split %s at %s: note '%s' lacks the end-to-end part", variant, size,
                 results[1].note);
    clmem_results_free(results, 2);
}

static void expect_split_verified(struct two *t, const char *variant, const char *size,
                                  const double *weights, const char *rows)
{
    expect_split_run(t, variant, size, weights, 0, rows);
}

/* Blocks of several tiles (300 rows: 256 + 44; 520 columns: 256 + 256 +
 * 8), whose copies overlap the kernels of other tiles or (no_overlap)
 * wait for them: every tile comes back, edges included. */
static void matmul_split_tiles_verified(void **state)
{
    struct two *t = *state;
    expect_split_run(t, "regblock", "600x520x37", NULL, 0, "rows 0-299 | 300-599");
    expect_split_run(t, "tiled_bounds", "600x520x37", (const double[]){1, 2}, 1,
                     "rows 0-199 | 200-599");
}

static void matmul_split_verified_at_odd_sizes(void **state)
{
    struct two *t = *state;
    expect_split_verified(t, "tiled_bounds", "33x17x9", NULL, "rows 0-15 | 16-32");
    expect_split_verified(t, "regblock", "100x37x65", NULL, "rows 0-49 | 50-99");
    expect_split_verified(t, "naive", "1x5x3", NULL, "rows - | 0-0"); /* rows < devices */
    expect_split_verified(t, "coarsened", "7x7x7", (const double[]){1, 3}, "rows 0-1 | 2-6");
}

/* Weak scaling (issue 19): point k multiplies k times the rows, each device
 * keeping its share; 33 rows are no multiple of any tile. */
static void expect_weak_verified(struct two *t, const char *variant, const char *size,
                                 const double *weights, const char *size2, const char *rows)
{
    struct clmem_split_options o = {
        .variant = variant, .size = size, .weights = weights, .weak = 1};
    struct clmem_result *results = split_two(t, o, "weak", rows);
    assert_string_equal(results[0].size, size);
    assert_string_equal(results[1].size, size2);
    for (size_t k = 0; k < 2; k++)
        assert_non_null(strstr(results[k].note, "weak scaling"));
    clmem_results_free(results, 2);
}

static void matmul_weak_scaling_verified(void **state)
{
    struct two *t = *state;
    expect_weak_verified(t, "regblock", "33x17x9", NULL, "66x17x9", "rows 0-32 | 33-65");
    expect_weak_verified(t, "tiled_bounds", "7x5x3", (const double[]){1, 3}, "14x5x3",
                         "rows 0-3 | 4-13");
}

static void matmul_split_refusals(void **state)
{
    struct two *t = *state;
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    /* A block of 48 rows is no multiple of the textbook tile. */
    struct clmem_split_options o = {.variant = "tiled", .size = "96x32x32", .reps = 1};
    assert_int_equal(clmem_matmul_split(t->ctx, 2, &o, &results, &n, &err), CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, "tiled_bounds"));
    o.variant = "all";
    assert_int_equal(clmem_matmul_split(t->ctx, 2, &o, &results, &n, &err), CLMEM_ERR_USAGE);
    o.variant = "naive";
    o.weights = (const double[]){0, 0};
    assert_int_equal(clmem_matmul_split(t->ctx, 2, &o, &results, &n, &err), CLMEM_ERR_USAGE);
    assert_int_equal(n, 0);
    /* The first device's weight alone is 0: one device is skipped, two run. */
    o.weights = (const double[]){0, 1};
    o.size = "9x4x3";
    assert_int_equal(clmem_matmul_split(t->ctx, 2, &o, &results, &n, &err), CLMEM_OK);
    assert_int_equal(n, 2);
    assert_true(results[0].skipped);
    assert_true(results[1].verified);
    clmem_results_free(results, n);
    clmem_error_clear(&err);
}

static void run_on_a_device_list_reports_each_and_the_total(void **state)
{
    (void)state;
    static struct outcome o;
    run_clmem(&o, NULL,
              ARGS("run", "transpose", "--device", "cpu,cpu", "--size", "37x21", "--reps", "2",
                   "--format", "csv"));
    if (o.code != 0)
        fail_msg("exit %d: %s", o.code, o.err);
    /* Header, every variant on each device, and a total for each. */
    assert_int_equal(count_lines(o.out), 1 + variant_count("transpose") * 3);
    assert_non_null(strstr(o.out, "transpose,copy,#1 "));
    assert_non_null(strstr(o.out, "transpose,padded,#2 "));
    assert_non_null(strstr(o.out, "transpose,padded,total (2 devices)"));

    run_clmem(&o, NULL,
              ARGS("run", "matmul", "--device", "cpu,cpu", "--split", "--variant", "naive",
                   "--size", "13x5x7", "--reps", "1"));
    if (o.code != 0)
        fail_msg("exit %d: %s", o.code, o.err);
    assert_non_null(strstr(o.out, "strong scaling: matmul naive 13x5x7"));
    assert_non_null(strstr(o.out, "efficiency"));

    run_clmem(&o, NULL,
              ARGS("run", "matmul", "--device", "cpu,cpu", "--split", "--weak", "--variant",
                   "regblock", "--size", "13x5x7", "--reps", "1"));
    if (o.code != 0)
        fail_msg("exit %d: %s", o.code, o.err);
    assert_non_null(strstr(o.out, "weak scaling: matmul regblock"));
    assert_non_null(strstr(o.out, "      2 26x5x7 "));
}

static void bad_device_lists_exit_2(void **state)
{
    (void)state;
    const struct {
        const char *const *args;
        const char *message;
    } bad[] = {
        {ARGS("run", "transpose", "--device", "cpu,,cpu"), "item 2 is empty"},
        {ARGS("run", "transpose", "--device", "cpu,"), "item 2 is empty"},
        {ARGS("run", "transpose", "--device", "cpu,no-such-device"), "unknown device"},
        {ARGS("run", "transpose", "--device", "cpu,9:9"), "no device '9:9'"},
        {ARGS("run", "transpose", "--device", "cpu,all"), "'all' stands alone"},
        {ARGS("run", "transpose", "--device", "cpu,cpu", "--split"), "--split is for matmul"},
        {ARGS("run", "transpose", "--no-overlap"), "--no-overlap goes with --split"},
        {ARGS("run", "matmul", "--device", "cpu", "--split", "--variant", "naive"),
         "--split needs several devices"},
        {ARGS("run", "matmul", "--device", "cpu,cpu", "--split"), "--split runs one variant"},
        {ARGS("run", "matmul", "--device", "cpu,cpu", "--split=1,2,3", "--variant", "naive"),
         "3 weights for 2 devices"},
        {ARGS("run", "matmul", "--device", "cpu,cpu", "--split=1,x", "--variant", "naive"),
         "item 2 is not a number"},
        {ARGS("run", "matmul", "--device", "cpu,cpu", "--split=0x10,1", "--variant", "naive"),
         "item 1 is not a number"},
        {ARGS("run", "matmul", "--device", "cpu,cpu", "--peak"), "--peak takes one device"},
        {ARGS("run", "matmul", "--device", "cpu", "--weak"), "--weak goes with --split"},
    };
    static struct outcome o;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        run_clmem(&o, NULL, bad[i].args);
        if (o.code != 2 || !strstr(o.err, bad[i].message) || count_lines(o.err) != 1 || o.out[0])
            fail_msg("case %zu: exit %d, stderr '%s' (expected 2 and '%s')", i, o.code, o.err,
                     bad[i].message);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(split_rows_edge_cases),
        cmocka_unit_test(split_rows_refuses_bad_weights),
        cmocka_unit_test_setup_teardown(matmul_split_verified_at_odd_sizes, open_two, close_two),
        cmocka_unit_test_setup_teardown(matmul_split_tiles_verified, open_two, close_two),
        cmocka_unit_test_setup_teardown(matmul_weak_scaling_verified, open_two, close_two),
        cmocka_unit_test_setup_teardown(matmul_split_refusals, open_two, close_two),
        cmocka_unit_test(run_on_a_device_list_reports_each_and_the_total),
        cmocka_unit_test(bad_device_lists_exit_2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
