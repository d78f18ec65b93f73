/* dot: both variants against the Kahan sum of the float products in double
 * on PoCL, at sizes below, at and past the work-group and past its square
 * (several passes); the GB/s formula; refused sizes. */
#include "pocl.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

/* 1000003: a prime above 256^2, so local_sums takes three passes.
 * 5001: the coarsened kernel runs ceil(5001 / (4 * 256)) = 5 groups (on any
 * device of 1 compute unit or more), so its last pass has a scalar tail. */
static const char *const sizes[] = {"1", "2", "7", "33", "255", "256", "257", "5001", "1000003"};

static void expect_any_size(struct clmem_ctx *ctx, const char *variant)
{
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        test_expect_verified(ctx, "dot", variant, sizes[i]);
}

static void local_sums_verifies_any_size(void **state)
{
    expect_any_size(*state, "local_sums");
}

static void coarsened_verifies_any_size(void **state)
{
    expect_any_size(*state, "coarsened");
}

/* 2 * 4 * N bytes over the median time; the note gives the sum and reference. */
static void gbs_formula_and_note(void **state)
{
    struct clmem_error err = {0};
    struct clmem_result *r = NULL;
    size_t n = 0;
    int status = clmem_run_workload(*state, "dot", "all", "4099", 2, &r, &n, &err);
    if (status != CLMEM_OK)
        fail_msg("dot all at 4099: status %d: %s", status, err.message);
    assert_int_equal(n, 2);
    static const char *const names[] = {"local_sums", "coarsened"};
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(r[i].variant, names[i]);
        assert_true(r[i].verified);
        assert_string_equal(r[i].metric_unit, "GB/s");
        double expected = 2.0 * 4099 * 4 / (r[i].median_ms * 1e-3) / 1e9;
        assert_true(r[i].metric > 0.999 * expected && r[i].metric < 1.001 * expected);
        double sum, ref;
        if (sscanf(r[i].note, "sum %lf (reference %lf)", &sum, &ref) != 2)
            fail_msg("note '%s' is not 'sum X (reference Y)'", r[i].note);
        /* 4099 products of independent values in [0, 1): about 1025. */
        assert_true(ref > 850 && ref < 1200);
        assert_true(fabs(sum - ref) <= 1e-5 * ref);
        assert_string_equal(r[i].params, "-DWG_SIZE=256");
    }
    clmem_results_free(r, n);
}

static void expect_refused(struct clmem_ctx *ctx, const char *size, const char *message)
{
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    int status = clmem_run_workload(ctx, "dot", "all", size, 1, &results, &n, &err);
    assert_int_equal(status, CLMEM_ERR_USAGE);
    assert_int_equal(n, 0);
    if (!strstr(err.message, message))
        fail_msg("size '%s': message '%s' lacks '%s'", size, err.message, message);
    clmem_results_free(results, n);
}

static void bad_sizes_refused(void **state)
{
    expect_refused(*state, "0", "zero");
    expect_refused(*state, "3x4", "must be one number");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(local_sums_verifies_any_size),
        cmocka_unit_test(coarsened_verifies_any_size),
        cmocka_unit_test(gbs_formula_and_note),
        cmocka_unit_test(bad_sizes_refused),
    };
    return cmocka_run_group_tests(tests, test_setup_device, test_teardown_device);
}
