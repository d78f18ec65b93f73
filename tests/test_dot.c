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
static const char *const sizes[] = {"1",   "2",   "7",    "33",      "255",
                                    "256", "257", "5001", "1000003", NULL};

static void local_sums_verifies_any_size(void **state)
{
    test_expect_verified_sizes(*state, "dot", "local_sums", sizes);
}

static void coarsened_verifies_any_size(void **state)
{
    test_expect_verified_sizes(*state, "dot", "coarsened", sizes);
}

/* One launch: at 5001 and 1000003 several groups, the last one summing
 * their partials; each size twice in a run (warm-up and timed), so the
 * count of finished groups must come back to 0 by itself. */
static void one_pass_verifies_any_size(void **state)
{
    test_expect_verified_sizes(*state, "dot", "one_pass", sizes);
}

/* 2 * 4 * N bytes over the median time; the note gives the sum and reference. */
static void gbs_formula_and_note(void **state)
{
    static const char *const names[] = {"local_sums", "coarsened", "one_pass", NULL};
    size_t n;
    struct clmem_result *r = test_run_all(*state, "dot", "4099", 2, names, &n);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(r[i].metric_unit, "GB/s");
        test_expect_metric(&r[i], 2.0 * 4099 * 4);
        double sum, ref;
        if (sscanf(r[i].note, "sum %lf (reference %lf)", &sum, &ref) != 2)
            fail_msg("note '%s' is not 'sum X (reference Y)'", r[i].note);
        /* 4099 products of independent 1s and 2s: about 9220, a whole
         * number, summed exactly. */
        assert_true(ref > 8700 && ref < 9700 && ref == floor(ref));
        assert_true(sum == ref);
        assert_true(r[i].max_rel_error == 0.0);
        assert_string_equal(r[i].params, "-DWG_SIZE=256 -DSUM_WG_SIZE=256 -DGROUPS_PER_UNIT=8");
    }
    clmem_results_free(r, n);
}

static void bad_sizes_refused(void **state)
{
    test_expect_refused(*state, "dot", "all", "0", "zero");
    test_expect_refused(*state, "dot", "all", "3x4", "must be one number");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(local_sums_verifies_any_size),
        cmocka_unit_test(coarsened_verifies_any_size),
        cmocka_unit_test(one_pass_verifies_any_size),
        cmocka_unit_test(gbs_formula_and_note),
        cmocka_unit_test(bad_sizes_refused),
    };
    return cmocka_run_group_tests(tests, test_setup_device, test_teardown_device);
}
