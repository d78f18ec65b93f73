/* transpose: every variant exactly against the CPU transpose (copy: the
 * input) on PoCL, square and rectangular, tile multiples and not; both
 * timings and the fractions of copy's bandwidth. */
#include "pocl.h"

#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

static const char *const sizes[] = {"1", "7x3", "33x65", "100x37", "64", "129x31", NULL};
static const char *const names[] = {"copy", "naive", "coalesced", "padded", "vec4", NULL};

static void copy_verifies_any_size(void **state)
{
    test_expect_verified_sizes(*state, "transpose", "copy", sizes);
}

static void naive_verifies_any_size(void **state)
{
    test_expect_verified_sizes(*state, "transpose", "naive", sizes);
}

static void coalesced_verifies_any_size(void **state)
{
    test_expect_verified_sizes(*state, "transpose", "coalesced", sizes);
}

static void padded_verifies_any_size(void **state)
{
    test_expect_verified_sizes(*state, "transpose", "padded", sizes);
}

/* Beyond the lecture: 4x4 blocks through registers, at sizes that cut
 * the blocks (1, 7x3, 33x65, 129x31), whole ones (64) and rows that are
 * not float4-aligned (100x37: 37 rows of the output, each 100 floats). */
static void vec4_verifies_any_size(void **state)
{
    test_expect_verified_sizes(*state, "transpose", "vec4", sizes);
}

/* A 100-wide, 37-high input: copy keeps it, the transposes are 37 wide and
 * 100 high (verified element by element against the CPU transpose, so
 * width and height swapped anywhere fails too). */
static void rectangular_output_is_transposed(void **state)
{
    size_t n;
    struct clmem_result *r = test_run_all(*state, "transpose", "100x37", 2, names, &n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(r[i].note, i == 0 ? "output 100x37 (WxH)" : "output 37x100 (WxH)");
    clmem_results_free(r, n);
}

static void both_timings_and_fractions_of_copy(void **state)
{
    size_t n;
    struct clmem_result *r = test_run_all(*state, "transpose", "129x31", 2, names, &n);
    for (size_t i = 0; i < n; i++) {
        assert_false(isnan(r[i].looped_ms));
        assert_true(r[i].looped_ms > 0.0);
        assert_false(isnan(r[i].baseline_fraction));
        assert_true(r[i].baseline_fraction > 0.0);
    }
    assert_string_equal(r[0].variant, "copy");
    assert_true(r[0].baseline_fraction == 1.0);
    /* 2 * W * H * sizeof(float) bytes over the median time. */
    for (size_t i = 0; i < n; i++)
        test_expect_metric(&r[i], 2.0 * 129 * 31 * 4);
    clmem_results_free(r, n);
}

static void params_name_the_lecture_tile(void **state)
{
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    assert_int_equal(
        clmem_run_workload(*state, "transpose", "padded", "7x3", 1, &results, &n, &err), CLMEM_OK);
    /* PoCL allows a 32x8 work-group and a 32x33 tile: the lecture's setting
     * (vec4's own tile follows it in the same options). */
    assert_true(strncmp(results[0].params, "-DTILE_DIM=32 -DBLOCK_ROWS=8 ", 29) == 0);
    assert_string_equal(results[0].size, "7x3");
    clmem_results_free(results, n);
}

static void sizes_past_int_indices_refused(void **state)
{
    /* 46340^2 fits an int, but the tiles past the edges reach 46368^2. */
    test_expect_refused(*state, "transpose", "all", "46340", "int indices");
    test_expect_refused(*state, "transpose", "all", "2147483647x1", "int indices");
    test_expect_refused(*state, "transpose", "all", "65536x65536", "too large");
    test_expect_refused(*state, "transpose", "all", "4x5x6", "N or WxH");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(copy_verifies_any_size),
        cmocka_unit_test(naive_verifies_any_size),
        cmocka_unit_test(coalesced_verifies_any_size),
        cmocka_unit_test(padded_verifies_any_size),
        cmocka_unit_test(vec4_verifies_any_size),
        cmocka_unit_test(rectangular_output_is_transposed),
        cmocka_unit_test(both_timings_and_fractions_of_copy),
        cmocka_unit_test(params_name_the_lecture_tile),
        cmocka_unit_test(sizes_past_int_indices_refused),
    };
    return cmocka_run_group_tests(tests, test_setup_device, test_teardown_device);
}
