/* peak: the copy and FMA probes verify (copy at any size, its float4 tail
 * included) and count their work as documented. */
#include "pocl.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static void copy_verifies_any_size(void **state)
{
    static const char *const sizes[] = {"1", "3", "4", "7", "33", "1000003"};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        test_expect_verified(*state, "peak", "copy", sizes[i]);
}

/* copy counts N floats read and written; fma 16384 work-items per compute
 * unit, but at most N rounded up to the work-group (256, or the device's
 * largest), 512 iterations of 8 chains of float4 x 2 fused multiply-adds
 * (2 flops each). */
static void work_is_counted_as_documented(void **state)
{
    struct clmem_ctx *ctx = *state;
    static const size_t sizes[] = {1001, 1000003};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        struct clmem_error err = {0};
        struct clmem_result *results = NULL;
        size_t n = 0;
        char size[32];
        snprintf(size, sizeof size, "%zu", sizes[k]);
        assert_int_equal(clmem_run_workload(ctx, "peak", "all", size, 2, &results, &n, &err),
                         CLMEM_OK);
        assert_int_equal(n, 2);
        const struct clmem_result *copy = test_find_result(results, n, "copy");
        const struct clmem_result *fma = test_find_result(results, n, "fma");
        assert_true(copy->verified && fma->verified);
        test_expect_metric(copy, 2.0 * (double)sizes[k] * 4);
        size_t group = ctx->device.max_work_group >= 256 ? 256 : ctx->device.max_work_group;
        size_t items = 16384 * (size_t)ctx->device.compute_units;
        size_t asked = (sizes[k] + group - 1) / group * group;
        if (asked < items)
            items = asked;
        assert_string_equal(fma->metric_unit, "GFLOP/s");
        test_expect_metric(fma, (double)items * 512 * 128);
        clmem_results_free(results, n);
    }
}

static void peak_measure_fills_both(void **state)
{
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    struct clmem_peak peak;
    assert_int_equal(clmem_peak_measure(*state, 1, &peak, &results, &n, &err), CLMEM_OK);
    assert_true(peak.bandwidth == test_find_result(results, n, "copy")->metric);
    assert_true(peak.flops == test_find_result(results, n, "fma")->metric);
    clmem_results_free(results, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(copy_verifies_any_size),
        cmocka_unit_test(work_is_counted_as_documented),
        cmocka_unit_test(peak_measure_fills_both),
    };
    return cmocka_run_group_tests(tests, test_setup_device, test_teardown_device);
}
