/* constmem: the __global and __constant filter variants against the CPU
 * convolution (same summation order, 1e-5 of the input's range) at odd
 * sizes on PoCL, the GB/s formula, bad sizes refused. */
#include "pocl.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

static const char *const sizes[] = {"1", "7x3", "33x65", "100x37", "129x31", "3x1", "2x5"};

static void global_filter_verifies_any_size(void **state)
{
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        test_expect_verified(*state, "constmem", "global_filter", sizes[i]);
}

static void constant_filter_verifies_any_size(void **state)
{
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        test_expect_verified(*state, "constmem", "constant_filter", sizes[i]);
}

static void both_timed_and_metric_is_bytes(void **state)
{
    struct clmem_error err = {0};
    struct clmem_result *r = NULL;
    size_t n = 0;
    assert_int_equal(clmem_run_workload(*state, "constmem", "all", "100x37", 3, &r, &n, &err),
                     CLMEM_OK);
    assert_int_equal(n, 2);
    assert_string_equal(r[0].variant, "global_filter");
    assert_string_equal(r[1].variant, "constant_filter");
    for (size_t i = 0; i < n; i++) {
        assert_true(r[i].verified);
        assert_int_equal(r[i].n_samples, 3);
        assert_true(r[i].max_rel_error <= 1e-5);
        assert_string_equal(r[i].metric_unit, "GB/s");
        assert_string_equal(r[i].params, "-DFILTER_RADIUS=2");
        assert_string_equal(r[i].note, "5x5 filter, zero outside the image");
        double expected = 2.0 * 100 * 37 * 4 / (r[i].median_ms * 1e-3) / 1e9;
        assert_true(r[i].metric > 0.999 * expected && r[i].metric < 1.001 * expected);
    }
    clmem_results_free(r, n);
}

static void expect_refused(struct clmem_ctx *ctx, const char *size, const char *message)
{
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    int status = clmem_run_workload(ctx, "constmem", "all", size, 1, &results, &n, &err);
    assert_int_equal(status, CLMEM_ERR_USAGE);
    assert_int_equal(n, 0);
    if (!strstr(err.message, message))
        fail_msg("size '%s': message '%s' lacks '%s'", size, err.message, message);
    clmem_results_free(results, n);
}

static void bad_sizes_refused(void **state)
{
    expect_refused(*state, "4x5x6", "N or WxH");
    expect_refused(*state, "65536x65536", "int indices");
    expect_refused(*state, "46340", "int indices"); /* 46340^2 fits an int, the padded grid not */
    expect_refused(*state, "2147483647x1", "int indices");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(global_filter_verifies_any_size),
        cmocka_unit_test(constant_filter_verifies_any_size),
        cmocka_unit_test(both_timed_and_metric_is_bytes),
        cmocka_unit_test(bad_sizes_refused),
    };
    return cmocka_run_group_tests(tests, test_setup_device, test_teardown_device);
}
