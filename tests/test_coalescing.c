/* coalescing: every sweep point of every variant verified on PoCL (touched
 * elements exactly a + 1, the others still poison), the sweep values in
 * order, the metric, the buffers planned and the sizes refused. */
#include "pocl.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

/* Not multiples of the work-group (256 on PoCL): 1, 7, 33, primes. */
static const char *const sizes[] = {"1", "7", "33", "257", "4099"};

/* Runs VARIANT at SIZE and checks its sweep: one verified result per value
 * first..last, in order, with the metric 2 * N * elem / median. */
static void expect_sweep(struct clmem_ctx *ctx, const char *variant, const char *size,
                         const char *sweep, unsigned first, unsigned last, size_t elem)
{
    struct clmem_error err = {0};
    struct clmem_result *r = NULL;
    size_t n = 0, points = last - first + 1, work_items = 0;
    sscanf(size, "%zu", &work_items);
    int status = clmem_run_workload(ctx, "coalescing", variant, size, 2, &r, &n, &err);
    for (size_t i = 0; status != CLMEM_OK && i < n; i++)
        if (!r[i].skipped && !r[i].verified)
            fail_msg("coalescing %s at %s, %s %u: %s", variant, size, sweep, r[i].sweep_value,
                     r[i].verify_detail);
    if (status != CLMEM_OK)
        fail_msg("coalescing %s at %s: status %d: %s", variant, size, status, err.message);
    assert_int_equal(n, points);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(r[i].variant, variant);
        assert_false(r[i].skipped);
        if (!r[i].verified)
            fail_msg("%s at %s, %s %u: %s", variant, size, sweep, r[i].sweep_value,
                     r[i].verify_detail);
        assert_string_equal(r[i].sweep, sweep);
        assert_int_equal(r[i].sweep_value, first + i);
        assert_int_equal(r[i].n_samples, 2);
        assert_string_equal(r[i].metric_unit, "GB/s");
        test_expect_metric(&r[i], 2.0 * (double)work_items * (double)elem);
    }
    clmem_results_free(r, n);
}

static void offset_float_sweeps_0_to_32(void **state)
{
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        expect_sweep(*state, "offset_float", sizes[i], "offset", 0, 32, 4);
}

static void stride_float_sweeps_1_to_32(void **state)
{
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        expect_sweep(*state, "stride_float", sizes[i], "stride", 1, 32, 4);
}

/* Where the device has fp64 (PoCL does) the double variants sweep like the
 * float ones; elsewhere each is one skipped result naming the extension. */
static void double_variants_run_or_skip_per_device(void **state)
{
    struct clmem_ctx *ctx = *state;
    if (clmem_device_has_extension(&ctx->device, "cl_khr_fp64")) {
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
            expect_sweep(ctx, "offset_double", sizes[i], "offset", 0, 32, 8);
            expect_sweep(ctx, "stride_double", sizes[i], "stride", 1, 32, 8);
        }
        return;
    }
    /* Named alone, such a variant is refused before any work. */
    static const char *const doubles[] = {"offset_double", "stride_double"};
    for (size_t v = 0; v < 2; v++)
        test_expect_refused(ctx, "coalescing", doubles[v], "7", "cl_khr_fp64");
}

/* "all" at 7: the four sweeps one after the other, notes naming what was
 * written (the touched elements and the work-group). */
static void all_variants_in_table_order_with_notes(void **state)
{
    struct clmem_ctx *ctx = *state;
    struct clmem_error err = {0};
    struct clmem_result *r = NULL;
    size_t n = 0;
    assert_int_equal(clmem_run_workload(ctx, "coalescing", "all", "7", 1, &r, &n, &err), CLMEM_OK);
    int fp64 = clmem_device_has_extension(&ctx->device, "cl_khr_fp64");
    assert_int_equal(n, fp64 ? 33 + 32 + 33 + 32 : 33 + 32 + 1 + 1);
    assert_string_equal(r[0].variant, "offset_float");
    assert_string_equal(r[33].variant, "stride_float");
    assert_string_equal(r[65].variant, "offset_double");
    assert_string_equal(r[n - 1].variant, "stride_double");
    /* offset 3 writes b[3..9] of the N+32 = 39; stride 5 writes 0, 5, ..., 30 of 7*32. */
    assert_int_equal(r[3].sweep_value, 3);
    assert_non_null(strstr(r[3].note, "b[3..9] written of 39; work-group "));
    assert_string_equal(r[3].verify_scope, "");
    assert_int_equal(r[33 + 4].sweep_value, 5);
    assert_non_null(strstr(r[33 + 4].note, "b[k * 5] for k < 7 written of 224; work-group "));
    /* Checked: the 35 elements up to 32 past the last written, of 224. */
    assert_string_equal(r[33 + 4].verify_scope, "elements 0..66 of 224");
    assert_string_equal(r[33 + 31].verify_scope, ""); /* stride 32: the whole buffer */
    clmem_results_free(r, n);
}

/* The CSV writer gives one row per sweep point, its value in the sweep columns. */
static void csv_has_one_row_per_offset(void **state)
{
    struct clmem_error err = {0};
    struct clmem_result *r = NULL;
    size_t n = 0;
    assert_int_equal(
        clmem_run_workload(*state, "coalescing", "offset_float", "33", 1, &r, &n, &err), CLMEM_OK);
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(clmem_report_csv(f, r, n), 0);
    rewind(f);
    char line[4096];
    size_t rows = 0;
    assert_non_null(fgets(line, sizeof line, f)); /* header */
    assert_non_null(strstr(line, ",sweep,sweep_value,"));
    while (fgets(line, sizeof line, f)) {
        char expected[64];
        snprintf(expected, sizeof expected, "coalescing,offset_float,");
        assert_true(strncmp(line, expected, strlen(expected)) == 0);
        snprintf(expected, sizeof expected, ",33,offset,%zu,", rows);
        if (!strstr(line, expected))
            fail_msg("row %zu lacks '%s': %s", rows, expected, line);
        assert_non_null(strstr(line, ",ok,"));
        rows++;
    }
    assert_int_equal(rows, 33);
    fclose(f);
    clmem_results_free(r, n);
}

/* Plans VARIANT at SIZE without running it; returns the status. */
static int plan(struct clmem_ctx *ctx, const char *variant, const char *size, struct clmem_run *run,
                struct clmem_error *err)
{
    struct clmem_run_options options = {.size = size, .variant = variant, .reps = 1, .seed = 42};
    return clmem_run_plan(run, clmem_workload_find("coalescing"), ctx, &options, err);
}

/* Inputs of N*32 floats and doubles and the output sized for the largest. */
static void buffers_hold_n_plus_32_or_n_times_32(void **state)
{
    struct clmem_ctx *ctx = *state;
    struct clmem_error err = {0};
    struct clmem_run run;
    int fp64 = clmem_device_has_extension(&ctx->device, "cl_khr_fp64");
    assert_int_equal(plan(ctx, "all", "1000", &run, &err), CLMEM_OK);
    assert_int_equal(run.n_buffers, 3);
    assert_int_equal(run.buffer_bytes[0], 1000 * 32 * 4);
    assert_int_equal(run.buffer_bytes[1], fp64 ? 1000 * 32 * 8 : 0);
    assert_int_equal(run.buffer_bytes[2], 1000 * 32 * (fp64 ? 8 : 4));
    clmem_run_release(&run);
    assert_int_equal(plan(ctx, "offset_float", "1000", &run, &err), CLMEM_OK);
    assert_int_equal(run.buffer_bytes[0], (1000 + 32) * 4);
    assert_int_equal(run.buffer_bytes[1], 0);
    assert_int_equal(run.buffer_bytes[2], (1000 + 32) * 4);
    clmem_run_release(&run);
}

static void expect_refused(struct clmem_ctx *ctx, const char *variant, const char *size,
                           const char *message)
{
    struct clmem_error err = {0};
    struct clmem_result *r = NULL;
    size_t n = 0;
    int status = clmem_run_workload(ctx, "coalescing", variant, size, 1, &r, &n, &err);
    assert_int_equal(status, CLMEM_ERR_USAGE);
    assert_int_equal(n, 0);
    if (!strstr(err.message, message))
        fail_msg("%s at '%s': message '%s' lacks '%s'", variant, size, err.message, message);
    clmem_results_free(r, n);
}

static void sizes_too_big_refused(void **state)
{
    struct clmem_ctx *ctx = *state;
    expect_refused(ctx, "all", "64x64", "must be one number");
    /* 2^26 * 32 strided elements pass INT_MAX; offsets alone stay below. */
    expect_refused(ctx, "stride_float", "67108864", "int indices");
    expect_refused(ctx, "all", "2147483647", "int indices");
    struct clmem_error err = {0};
    struct clmem_run run;
    assert_int_equal(plan(ctx, "offset_float", "67108864", &run, &err), CLMEM_OK);
    clmem_run_release(&run);
    /* One element more than the device can allocate as N*32 floats. */
    size_t n = (size_t)(ctx->device.max_alloc / (32 * 4)) + 1;
    if (clmem_round_up(n, 256) * 32 <= INT_MAX) {
        char size[32];
        snprintf(size, sizeof size, "%zu", n);
        expect_refused(ctx, "stride_float", size, "can allocate at once");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(offset_float_sweeps_0_to_32),
        cmocka_unit_test(stride_float_sweeps_1_to_32),
        cmocka_unit_test(double_variants_run_or_skip_per_device),
        cmocka_unit_test(all_variants_in_table_order_with_notes),
        cmocka_unit_test(csv_has_one_row_per_offset),
        cmocka_unit_test(buffers_hold_n_plus_32_or_n_times_32),
        cmocka_unit_test(sizes_too_big_refused),
    };
    return cmocka_run_group_tests(tests, test_setup_device, test_teardown_device);
}
