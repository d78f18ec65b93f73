/* constmem: the __global and __constant filter variants against the CPU
 * convolution (same summation order, 1e-5 of the input's range) at odd
 * sizes on PoCL, the GB/s formula, bad sizes refused. */
#include "pocl.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

static const char *const sizes[] = {"1", "7x3", "33x65", "100x37", "129x31", "3x1", "2x5", NULL};

static void global_filter_verifies_any_size(void **state)
{
    test_expect_verified_sizes(*state, "constmem", "global_filter", sizes);
}

static void constant_filter_verifies_any_size(void **state)
{
    test_expect_verified_sizes(*state, "constmem", "constant_filter", sizes);
}

static void both_timed_and_metric_is_bytes(void **state)
{
    static const char *const names[] = {"global_filter", "constant_filter", NULL};
    size_t n;
    struct clmem_result *r = test_run_all(*state, "constmem", "100x37", 3, names, &n);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(r[i].n_samples, 3);
        assert_true(r[i].max_rel_error <= 1e-5);
        assert_string_equal(r[i].metric_unit, "GB/s");
        assert_string_equal(r[i].params, "-DFILTER_RADIUS=2");
        assert_string_equal(r[i].note, "5x5 filter, zero outside the image");
        test_expect_metric(&r[i], 2.0 * 100 * 37 * 4);
    }
    clmem_results_free(r, n);
}

static void bad_sizes_refused(void **state)
{
    test_expect_refused(*state, "constmem", "all", "4x5x6", "N or WxH");
    test_expect_refused(*state, "constmem", "all", "65536x65536", "int indices");
    /* 46340^2 fits an int, the padded grid not. */
    test_expect_refused(*state, "constmem", "all", "46340", "int indices");
    test_expect_refused(*state, "constmem", "all", "2147483647x1", "int indices");
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
