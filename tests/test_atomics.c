/* atomics: exact counts for the atomic variants, 1..N for the racy one, at
 * odd sizes on PoCL, and what the notes report. */
#include "pocl.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static const char *const variants[] = {"racy", "atomic_global", "atomic_local"};
/* 65537 and 4099 (a prime) are not multiples of any power-of-two work-group. */
static const char *const sizes[] = {"1", "7", "1000", "65537", "4099"};

static void every_variant_verifies_at_odd_sizes(void **state)
{
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++)
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
            test_expect_verified(*state, "atomics", variants[v], sizes[i]);
}

/* Runs every variant at `size` (3 timed runs after a warm-up, so a counter
 * that is not reset shows) and checks each count from its note. */
static void check_counts(struct clmem_ctx *ctx, const char *size, long long points)
{
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    int status = clmem_run_workload(ctx, "atomics", "all", size, 3, &results, &n, &err);
    if (status != CLMEM_OK)
        fail_msg("atomics at %s: status %d: %s", size, status, err.message);
    assert_int_equal(n, 3);
    long long value, of, lost;
    /* racy: any count 1..N, the lost updates named. */
    const struct clmem_result *racy = test_find_result(results, n, "racy");
    assert_true(racy->verified);
    assert_int_equal(
        sscanf(racy->note, "count %lld of %lld (%lld updates lost)", &value, &of, &lost), 3);
    assert_int_equal(of, points);
    assert_true(value >= 1 && value <= points);
    assert_int_equal(value + lost, points);
    /* The atomic variants: exactly N. */
    static const char *const atomic[] = {"atomic_global", "atomic_local"};
    for (size_t i = 0; i < 2; i++) {
        const struct clmem_result *r = test_find_result(results, n, atomic[i]);
        assert_true(r->verified);
        assert_int_equal(sscanf(r->note, "count %lld of %lld", &value, &of), 2);
        assert_int_equal(value, points);
        assert_int_equal(of, points);
        test_expect_metric(r, (double)points);
        assert_string_equal(r->metric_unit, "Gupdates/s");
    }
    clmem_results_free(results, n);
}

static void counts_exact_and_racy_never_above_n(void **state)
{
    check_counts(*state, "1", 1);
    check_counts(*state, "7", 7);
    check_counts(*state, "1000", 1000);
    check_counts(*state, "65537", 65537);
    check_counts(*state, "262147", 262147);
}

static void refuses_a_matrix_size(void **state)
{
    test_expect_refused(*state, "atomics", "racy", "64x64", "must be one number");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_variant_verifies_at_odd_sizes),
        cmocka_unit_test(counts_exact_and_racy_never_above_n),
        cmocka_unit_test(refuses_a_matrix_size),
    };
    return cmocka_run_group_tests(tests, test_setup_device, test_teardown_device);
}
