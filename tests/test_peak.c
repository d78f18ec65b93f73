/* peak: the copy, read, FMA and launch probes verify (copy and read at any
 * size, their float4 tails included) and count their work as documented;
 * the typed throughputs (fp64, fp16, int32) verify, count theirs, are
 * skipped where the device lacks the type and stay out of --peak;
 * reductions are measured against the read roof. */
#include "pocl.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static void copy_and_read_verify_any_size(void **state)
{
    /* 1000003: work-items past the last float4 (read's 16 per item do not
     * divide it) and a tail of 3 floats. */
    static const char *const sizes[] = {"1", "3", "4", "7", "33", "1000003"};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        test_expect_verified(*state, "peak", "copy", sizes[i]);
        test_expect_verified(*state, "peak", "read", sizes[i]);
    }
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
        /* copy, read, fma, fp64, fp16, int32, launch: fp16 skipped where the
         * device has no cl_khr_fp16. */
        assert_int_equal(n, 7);
        const struct clmem_result *copy = test_find_result(results, n, "copy");
        const struct clmem_result *read = test_find_result(results, n, "read");
        const struct clmem_result *fma = test_find_result(results, n, "fma");
        const struct clmem_result *launch = test_find_result(results, n, "launch");
        assert_true(copy->verified && read->verified && fma->verified && launch->verified);
        test_expect_metric(copy, 2.0 * (double)sizes[k] * 4);
        size_t group = ctx->device.max_work_group >= 256 ? 256 : ctx->device.max_work_group;
        /* read: N floats read, one written per work-item, 16 float4s each. */
        size_t read_items = ((sizes[k] / 4 + 15) / 16 + group - 1) / group * group;
        test_expect_metric(read, (double)(sizes[k] + read_items) * 4);
        assert_string_equal(read->roof, "read");
        /* launch: 100 launches a run, in Glaunch/s. */
        assert_string_equal(launch->metric_unit, "Glaunch/s");
        test_expect_metric(launch, 100);
        /* The chains' width, as the parameters say: 4, or the CPU's 8 or 16;
         * 16384 * 4 / width work-items per unit, 8 chains x width x 4 flops. */
        int width = 0;
        const char *w = strstr(fma->params, "-DFMA_WIDTH=");
        assert_non_null(w);
        assert_int_equal(sscanf(w, "-DFMA_WIDTH=%d", &width), 1);
        assert_true(width == 4 || width == 8 || width == 16);
        size_t items = 16384 * 4 / (size_t)width * (size_t)ctx->device.compute_units;
        size_t asked = (sizes[k] + group - 1) / group * group;
        if (asked < items)
            items = asked;
        assert_string_equal(fma->metric_unit, "GFLOP/s");
        test_expect_metric(fma, (double)items * 512 * 8 * width * 4);
        /* The typed chains: as many work-items; fp64 at half the float
         * lanes (4 at least), fp16 and int32 at the float's. */
        const struct clmem_result *fp64 = test_find_result(results, n, "fp64");
        const struct clmem_result *fp16 = test_find_result(results, n, "fp16");
        const struct clmem_result *int32 = test_find_result(results, n, "int32");
        int width64 = width >= 8 ? width / 2 : 4;
        if (clmem_device_has_extension(&ctx->device, "cl_khr_fp64"))
            test_expect_metric(fp64, (double)items * 512 * 8 * width64 * 4);
        else
            assert_true(fp64->skipped);
        if (clmem_device_has_extension(&ctx->device, "cl_khr_fp16"))
            test_expect_metric(fp16, (double)items * 512 * 8 * width * 4);
        else
            assert_true(fp16->skipped && strstr(fp16->skip_reason, "cl_khr_fp16"));
        assert_string_equal(int32->metric_unit, "GIOP/s");
        test_expect_metric(int32, (double)items * 512 * 8 * width * 4);
        clmem_results_free(results, n);
    }
}

/* The typed chains verify at sizes that are not a multiple of the
 * work-group (their work-items: the size rounded up to one), the host
 * repeating every step; a device without the type skips its variant. */
static void typed_chains_verify_any_size(void **state)
{
    struct clmem_ctx *ctx = *state;
    static const char *const sizes[] = {"1", "7", "33", "1001"};
    static const struct {
        const char *variant, *extension;
    } typed[] = {{"fp64", "cl_khr_fp64"}, {"fp16", "cl_khr_fp16"}, {"int32", NULL}};
    for (size_t t = 0; t < sizeof typed / sizeof *typed; t++)
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
            if (!typed[t].extension ||
                clmem_device_has_extension(&ctx->device, typed[t].extension)) {
                test_expect_verified(ctx, "peak", typed[t].variant, sizes[i]);
                continue;
            }
            struct clmem_error err = {0};
            struct clmem_result *results = NULL;
            size_t n = 0;
            /* Named alone it is refused; under "all" it is skipped (above). */
            assert_int_equal(
                clmem_run_workload(ctx, "peak", typed[t].variant, sizes[i], 1, &results, &n, &err),
                CLMEM_ERR_USAGE);
            assert_non_null(strstr(err.message, typed[t].extension));
            clmem_results_free(results, n);
        }
}

static void peak_measure_fills_every_peak(void **state)
{
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    struct clmem_peak peak;
    assert_int_equal(clmem_peak_measure(*state, 1, &peak, &results, &n, &err), CLMEM_OK);
    assert_true(peak.bandwidth == test_find_result(results, n, "copy")->metric);
    assert_true(peak.read_bandwidth == test_find_result(results, n, "read")->metric);
    assert_true(peak.flops == test_find_result(results, n, "fma")->metric);
    /* Glaunch/s is launches per ns: its inverse in us is 1e-3 over it. */
    double per_ns = test_find_result(results, n, "launch")->metric;
    assert_true(peak.launch_us > 0.999e-3 / per_ns && peak.launch_us < 1.001e-3 / per_ns);
    /* The typed throughputs are no roof: --peak leaves them out. */
    assert_int_equal(n, 4);
    for (size_t i = 0; i < n; i++)
        assert_true(strcmp(results[i].variant, "int32") != 0 &&
                    strcmp(results[i].variant, "fp64") != 0);
    clmem_results_free(results, n);
}

/* reduce and dot only read: their fraction is of the read peak; transpose
 * reads and writes: of the copy peak; GFLOP/s of the FMA peak. Without a
 * read peak (an older run file), the copy's. */
static void reductions_are_held_to_the_read_roof(void **state)
{
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    /* matmul's naive variant for a GFLOP/s result: every variant would
     * build regblock's file (minutes on 2 cores, 218 s of this test). */
    static const char *const runs[][3] = {{"reduce", "all", "64"},
                                          {"dot", "all", "64"},
                                          {"transpose", "all", "64"},
                                          {"matmul", "naive", "33"}};
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++)
        assert_int_equal(
            clmem_run_workload(*state, runs[i][0], runs[i][1], runs[i][2], 1, &results, &n, &err),
            CLMEM_OK);
    struct clmem_peak peak = {.bandwidth = 100, .flops = 1000, .read_bandwidth = 50};
    clmem_results_apply_peak(results, n, &peak);
    for (size_t i = 0; i < n; i++) {
        const struct clmem_result *r = &results[i];
        if (r->skipped)
            continue;
        int reads = strcmp(r->workload, "reduce") == 0 || strcmp(r->workload, "dot") == 0;
        double roof = strcmp(r->metric_unit, "GFLOP/s") == 0 ? 1000 : reads ? 50 : 100;
        if (!(fabs(r->peak_fraction - r->metric / roof) <= 1e-9 * r->peak_fraction))
            fail_msg("%s %s: %g of peak, expected %g / %g", r->workload, r->variant,
                     r->peak_fraction, r->metric, roof);
    }
    peak.read_bandwidth = 0;
    clmem_results_apply_peak(results, n, &peak);
    const struct clmem_result *coarsened = test_find_result(results, n, "coarsened");
    assert_string_equal(coarsened->workload, "reduce");
    assert_true(fabs(coarsened->peak_fraction - coarsened->metric / 100) <=
                1e-9 * coarsened->peak_fraction);
    clmem_results_free(results, n);
}

/* A roof below a result of its own run is measured again and the higher
 * of the two kept, each peak result saying so; a result still above it is
 * flagged in its note, once however often the peaks are applied. */
static void a_roof_below_its_results_is_measured_again(void **state)
{
    struct clmem_error err = {0};
    struct clmem_result *peaks = NULL, *results = NULL;
    size_t n_peaks = 0, n = 0;
    struct clmem_peak peak;
    assert_int_equal(clmem_peak_measure(*state, 1, &peak, &peaks, &n_peaks, &err), CLMEM_OK);
    /* The first copy and FMA as if read at a busy moment: far too low. */
    struct clmem_result *copy = (struct clmem_result *)test_find_result(peaks, n_peaks, "copy");
    struct clmem_result *fma = (struct clmem_result *)test_find_result(peaks, n_peaks, "fma");
    copy->metric = peak.bandwidth = 1e-6;
    fma->metric = peak.flops = 1e-6;
    assert_int_equal(clmem_run_workload(*state, "transpose", "copy", "64", 1, &results, &n, &err),
                     CLMEM_OK);
    clmem_results_apply_peak(results, n, &peak);
    assert_true(clmem_results_above_roof(results, n));
    assert_non_null(strstr(results[0].note, "above its roof"));
    const struct clmem_workload *w = clmem_workload_find("peak");
    assert_non_null(w);
    assert_int_equal(clmem_peak_again(*state, w, 1, &peak, peaks, n_peaks, &err), CLMEM_OK);
    copy = (struct clmem_result *)test_find_result(peaks, n_peaks, "copy");
    assert_true(copy->metric > 1e-6 && peak.bandwidth == copy->metric);
    assert_true(peak.flops > 1e-6);
    assert_non_null(strstr(
        copy->note, "measured twice, a result of the run being above the first: 1e-06, then "));
    clmem_results_apply_peak(results, n, &peak);
    /* Applied twice, a note says "above its roof" at most once. */
    clmem_results_apply_peak(results, n, &peak);
    const char *above = strstr(results[0].note, "above its roof");
    assert_true(!above || !strstr(above + 1, "above its roof"));
    clmem_results_free(results, n);
    clmem_results_free(peaks, n_peaks);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(copy_and_read_verify_any_size),
        cmocka_unit_test(work_is_counted_as_documented),
        cmocka_unit_test(typed_chains_verify_any_size),
        cmocka_unit_test(peak_measure_fills_every_peak),
        cmocka_unit_test(reductions_are_held_to_the_read_roof),
        cmocka_unit_test(a_roof_below_its_results_is_measured_again),
    };
    return cmocka_run_group_tests(tests, test_setup_device, test_teardown_device);
}
