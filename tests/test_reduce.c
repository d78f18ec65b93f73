/* reduce: every variant against the Kahan sum in double on PoCL, at sizes
 * below, at and past the work-group and past its square (several passes);
 * the GB/s formula; refused sizes; the shared sum helpers. */
#include "pocl.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

/* 1000003: a prime above 256^2, so the textbook kernels take three passes.
 * 5001: the coarsened kernel runs ceil(5001 / (4 * 256)) = 5 groups (on any
 * device of 1 compute unit or more), so its last pass has a scalar tail. */
static const char *const sizes[] = {"1",   "2",   "7",    "33",      "255",
                                    "256", "257", "5001", "1000003", NULL};

static void interleaved_verifies_any_size(void **state)
{
    test_expect_verified_sizes(*state, "reduce", "interleaved", sizes);
}

static void sequential_verifies_any_size(void **state)
{
    test_expect_verified_sizes(*state, "reduce", "sequential", sizes);
}

static void coarsened_verifies_any_size(void **state)
{
    test_expect_verified_sizes(*state, "reduce", "coarsened", sizes);
}

/* One launch: at 5001 and 1000003 several groups, the last one summing
 * their partials; each size twice in a run (warm-up and timed), so the
 * count of finished groups must come back to 0 by itself. */
static void one_pass_verifies_any_size(void **state)
{
    test_expect_verified_sizes(*state, "reduce", "one_pass", sizes);
}

/* 4 * N bytes over the median time; the note gives the sum and reference. */
static void gbs_formula_and_note(void **state)
{
    static const char *const names[] = {"interleaved", "sequential", "coarsened", "one_pass", NULL};
    size_t n;
    struct clmem_result *r = test_run_all(*state, "reduce", "4099", 2, names, &n);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(r[i].metric_unit, "GB/s");
        test_expect_metric(&r[i], 4099.0 * 4);
        double sum, ref;
        if (sscanf(r[i].note, "sum %lf (reference %lf)", &sum, &ref) != 2)
            fail_msg("note '%s' is not 'sum X (reference Y)'", r[i].note);
        /* 4099 values, each 1 or 2: about 6150, a whole number, summed
         * exactly (verification then wants equality). */
        assert_true(ref > 5800 && ref < 6500 && ref == floor(ref));
        assert_true(sum == ref);
        assert_true(r[i].max_rel_error == 0.0);
        /* PoCL allows 256 work-items, the largest asked for. */
        assert_string_equal(r[i].params, "-DWG_SIZE=256 -DSUM_WG_SIZE=256 -DGROUPS_PER_UNIT=8");
    }
    clmem_results_free(r, n);
}

static void bad_sizes_refused(void **state)
{
    test_expect_refused(*state, "reduce", "all", "0", "zero");
    test_expect_refused(*state, "reduce", "all", "3x4", "must be one number");
    test_expect_refused(*state, "reduce", "all", "3x4x5", "must be one number");
}

/* Kahan keeps what a plain double sum drops: 2^53 + 1 rounds to 2^53. */
static void kahan_keeps_small_terms(void **state)
{
    (void)state;
    float x[1001];
    x[0] = 9007199254740992.0f; /* 2^53 */
    for (size_t i = 1; i < 1001; i++)
        x[i] = 1.0f;
    assert_true(clmem_sum_kahan(x, 1001) == 9007199254741992.0);
    assert_true(clmem_sum_kahan(x, 0) == 0.0);
}

/* The passes: 1000003 -> 3907 -> 16 -> 1 in groups of 256; the coarsened
 * shape: 16 groups, then one. */
static void pass_shapes(void **state)
{
    (void)state;
    size_t counts[2];
    struct clmem_sum textbook = {.n = 1000003, .group = 256};
    clmem_sum_scratch(&textbook, counts);
    assert_int_equal(counts[0], 3907);
    assert_int_equal(counts[1], 16);
    assert_int_equal(clmem_sum_depth(&textbook), 3 * 8);
    struct clmem_sum one = {.n = 1, .group = 256};
    clmem_sum_scratch(&one, counts);
    assert_int_equal(counts[0], 1);
    assert_int_equal(counts[1], 1);
    assert_int_equal(clmem_sum_depth(&one), 8);
    struct clmem_sum coarsened = {.n = 1000003, .group = 256, .first_groups = 16};
    clmem_sum_scratch(&coarsened, counts);
    assert_int_equal(counts[0], 16);
    assert_int_equal(counts[1], 1);
    /* 1000003 / (4 * 4096) -> 62 float4s per lane, then 16 / (4 * 256) -> 1. */
    assert_int_equal(clmem_sum_depth(&coarsened), (62 + 5 + 8) + (1 + 5 + 8));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(interleaved_verifies_any_size),
        cmocka_unit_test(sequential_verifies_any_size),
        cmocka_unit_test(coarsened_verifies_any_size),
        cmocka_unit_test(one_pass_verifies_any_size),
        cmocka_unit_test(gbs_formula_and_note),
        cmocka_unit_test(bad_sizes_refused),
        cmocka_unit_test(kahan_keeps_small_terms),
        cmocka_unit_test(pass_shapes),
    };
    return cmocka_run_group_tests(tests, test_setup_device, test_teardown_device);
}
