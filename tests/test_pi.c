/* pi: the host Philox against Random123's known answers, every variant's
 * exact hit count at odd sizes on PoCL, and what the note reports. */
#include "pocl.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static const char *const variants[] = {"host_rng_global", "local_reduce", "device_rng"};
/* 65537 and 4099 (a prime) are not multiples of any power-of-two work-group. */
static const char *const sizes[] = {"1", "7", "1000", "65537", "4099"};

static void philox_matches_random123_known_answers(void **state)
{
    (void)state;
    /* Random123's kat_vectors, the three philox4x32 10 lines: ctr, key, result. */
    static const struct {
        uint32_t ctr[4], key[2], out[4];
    } kat[] = {
        {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
        {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
         {0xffffffff, 0xffffffff},
         {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
        {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
         {0xa4093822, 0x299f31d0},
         {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
    };
    for (size_t i = 0; i < sizeof kat / sizeof *kat; i++) {
        uint32_t out[4];
        clmem_philox4x32_10(kat[i].ctr, kat[i].key, out);
        for (int w = 0; w < 4; w++)
            assert_int_equal(out[w], kat[i].out[w]);
    }
}

static void every_variant_counts_exactly_at_odd_sizes(void **state)
{
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++)
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
            test_expect_verified(*state, "pi", variants[v], sizes[i]);
}

/* Runs every variant at `size` with `seed`; asserts all verified. */
static void run_all(struct clmem_ctx *ctx, const char *size, uint64_t seed,
                    struct clmem_result **results, size_t *n)
{
    struct clmem_error err = {0};
    struct clmem_run run;
    struct clmem_run_options options = {.size = size, .reps = 2, .warmup = 1, .seed = seed};
    *results = NULL;
    *n = 0;
    int status = clmem_run_plan(&run, clmem_workload_find("pi"), ctx, &options, &err);
    if (status == CLMEM_OK)
        status = clmem_run_execute(&run, &options, results, n, &err);
    clmem_run_release(&run);
    if (status != CLMEM_OK)
        fail_msg("pi at %s: status %d: %s%s", size, status, err.message,
                 status == CLMEM_ERR_VERIFY ? "a variant did not verify" : "");
    assert_int_equal(*n, 3);
    for (size_t i = 0; i < *n; i++)
        assert_true((*results)[i].verified);
}

static void note_reports_estimate_and_errors(void **state)
{
    struct clmem_result *results;
    size_t n;
    const double points = 99991; /* a prime */
    run_all(*state, "99991", 42, &results, &n);
    for (size_t i = 0; i < n; i++) {
        double estimate, error, expected_error;
        assert_int_equal(sscanf(results[i].note, "pi %lf, error %lf, expected error %lf", &estimate,
                                &error, &expected_error),
                         3);
        /* 4 * hits / N: a whole number of hits (to the note's 6 decimals). */
        double hits = estimate * points / 4.0;
        assert_true(fabs(hits - round(hits)) < 0.2);
        /* The note rounds the errors to 2 digits. */
        assert_true(fabs(error - fabs(estimate - CL_M_PI)) <= 0.05 * error + 1e-7);
        double p = CL_M_PI / 4;
        double expected = 4 * sqrt(p * (1 - p) / points);
        assert_true(fabs(expected_error - expected) <= 0.05 * expected);
        assert_true(error < 6 * expected_error);
        /* N points over the median time. */
        test_expect_metric(&results[i], points);
        assert_string_equal(results[i].metric_unit, "Gsamples/s");
        assert_non_null(strstr(results[i].params, "-DWG_SIZE="));
    }
    /* The two host-RNG variants count the same points. */
    assert_string_equal(test_find_result(results, n, "host_rng_global")->note,
                        test_find_result(results, n, "local_reduce")->note);
    clmem_results_free(results, n);
}

static void device_rng_follows_the_seed(void **state)
{
    struct clmem_result *a, *b, *c;
    size_t na, nb, nc;
    run_all(*state, "65537", 42, &a, &na);
    run_all(*state, "65537", 42, &b, &nb);
    run_all(*state, "65537", 43, &c, &nc);
    assert_string_equal(a[2].note, b[2].note);
    assert_string_not_equal(a[2].note, c[2].note);
    /* The host points follow the seed too. */
    assert_string_not_equal(a[0].note, c[0].note);
    clmem_results_free(a, na);
    clmem_results_free(b, nb);
    clmem_results_free(c, nc);
}

static void refuses_a_matrix_size(void **state)
{
    test_expect_refused(*state, "pi", "all", "100x100", "must be one number");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(philox_matches_random123_known_answers),
        cmocka_unit_test(every_variant_counts_exactly_at_odd_sizes),
        cmocka_unit_test(note_reports_estimate_and_errors),
        cmocka_unit_test(device_rng_follows_the_seed),
        cmocka_unit_test(refuses_a_matrix_size),
    };
    return cmocka_run_group_tests(tests, test_setup_device, test_teardown_device);
}
