/* stream: BabelStream's five kernels verify at sizes that are not a
 * multiple of the work-group and count its bytes (copy, mul and dot 2
 * arrays, add and triad 3); the intensity sweep runs 2^k multiply-adds per
 * element at k = 0..8, each point verified, at 2^k / 4 flops per byte;
 * planted bugs in each kind of kernel are caught. */
#include "pocl.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

/* 1000003: a prime past the dot's groups times their size, so each
 * work-item adds several products and the last stride is cut short.
 * 1024 and 65536: whole work-groups, where the kernels check nothing
 * (WHOLE_GROUPS); the others keep the check. */
static const char *const sizes[] = {"1", "7", "33", "257", "1024", "65536", "1000003", NULL};
static const char *const kernels[] = {"copy", "mul", "add", "triad", "dot"};

static void every_kernel_verifies_any_size(void **state)
{
    for (size_t k = 0; k < sizeof kernels / sizeof *kernels; k++)
        test_expect_verified_sizes(*state, "stream", kernels[k], sizes);
}

static void bytes_are_babelstreams(void **state)
{
    static const double arrays[] = {2, 2, 3, 3, 2};
    const size_t n = 1000003;
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t count = 0;
    for (size_t k = 0; k < sizeof kernels / sizeof *kernels; k++)
        assert_int_equal(
            clmem_run_workload(*state, "stream", kernels[k], "1000003", 2, &results, &count, &err),
            CLMEM_OK);
    for (size_t k = 0; k < sizeof kernels / sizeof *kernels; k++) {
        const struct clmem_result *r = test_find_result(results, count, kernels[k]);
        assert_true(r->verified);
        assert_string_equal(r->metric_unit, "GB/s");
        test_expect_metric(r, arrays[k] * (double)n * sizeof(float));
    }
    /* dot only reads: its roof is the read bandwidth. */
    assert_string_equal(test_find_result(results, count, "dot")->roof, "read");
    clmem_results_free(results, count);
}

/* One result per point, each verified: 2 * 2^k flops per element, at
 * 2^k / 4 flops per byte, from 0.25 to 64. */
static void the_sweep_spans_the_intensities(void **state)
{
    const size_t n = 1001;
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t count = 0;
    assert_int_equal(
        clmem_run_workload(*state, "stream", "intensity", "1001", 2, &results, &count, &err),
        CLMEM_OK);
    assert_int_equal(count, 9);
    for (size_t k = 0; k < count; k++) {
        const struct clmem_result *r = &results[k];
        assert_true(r->verified);
        assert_string_equal(r->sweep, "log2_steps");
        assert_int_equal(r->sweep_value, k);
        assert_string_equal(r->metric_unit, "GFLOP/s");
        test_expect_metric(r, 2.0 * (double)n * (double)(1u << k));
        assert_true(fabs(r->flops_per_byte - (double)(1u << k) / 4) < 1e-12);
    }
    assert_true(results[0].flops_per_byte == 0.25 && results[8].flops_per_byte == 64);
    clmem_results_free(results, count);
}

/* Each kind of kernel with a bug planted is caught: copy missing its last
 * element, triad without its scalar, dot's tree adding half the group,
 * (the sweep's: a_planted_bug_fails_every_sweep_point). */
static void planted_bugs_are_caught(void **state)
{
    test_expect_planted_caught(*state, "stream", "copy", "7", NULL, NULL,
                               "-DDOT_GROUP=", "stream.cl", "c[i] = a[i];",
                               "c[i] = i < n - 1 ? a[i] : 0.0f;");
    test_expect_planted_caught(*state, "stream", "triad", "33", NULL, NULL,
                               "-DDOT_GROUP=", "stream.cl", "a[i] = b[i] + scalar * c[i];",
                               "a[i] = b[i] + c[i];");
    test_expect_planted_caught(*state, "stream", "dot", "1000003", NULL, NULL,
                               "-DDOT_GROUP=", "stream.cl", "if (local_i < offset)",
                               "if (local_i < offset / 2)");
}

/* The sweep reading its elements from the wrong places (a work-item's
 * first two swapped): every point fails its check, naming an element;
 * the kernels as they are verify. (test_expect_planted_caught takes one
 * result; a sweep makes one per point.) */
static void a_planted_bug_fails_every_sweep_point(void **state)
{
    struct clmem_ctx *ctx = *state;
    char dir[] = "/tmp/clmem_planted_XXXXXX", planted[1100];
    struct clmem_error err = {0};
    test_plant_kernel("stream.cl", "in[i0] : 0.0f, i1 < n ? in[i1]",
                      "in[i1 < n ? i1 : i0] : 0.0f, i1 < n ? in[i0]", dir, planted, sizeof planted);
    for (int bug = 1; bug >= 0; bug--) {
        snprintf(ctx->kernel_dir, sizeof ctx->kernel_dir, "%s", bug ? dir : "");
        ctx->no_cache = bug;
        struct clmem_run_options options = {
            .size = "1001", .variant = "intensity", .reps = 1, .seed = 42};
        struct clmem_result *r = NULL;
        size_t n = 0;
        int status = clmem_run(ctx, clmem_workload_find("stream"), &options, &r, &n, &err);
        assert_int_equal(status, bug ? CLMEM_ERR_VERIFY : CLMEM_OK);
        assert_int_equal(n, 9);
        for (size_t k = 0; k < n; k++) {
            assert_int_equal(r[k].verified, !bug);
            if (bug)
                assert_non_null(strstr(r[k].verify_detail, "expected"));
        }
        clmem_results_free(r, n);
    }
    unlink(planted);
    rmdir(dir);
}

static void sizes_too_large_are_refused(void **state)
{
    test_expect_refused(*state, "stream", "copy", "2147483647", "too large for stream");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_kernel_verifies_any_size),
        cmocka_unit_test(bytes_are_babelstreams),
        cmocka_unit_test(the_sweep_spans_the_intensities),
        cmocka_unit_test(planted_bugs_are_caught),
        cmocka_unit_test(a_planted_bug_fails_every_sweep_point),
        cmocka_unit_test(sizes_too_large_are_refused),
    };
    return cmocka_run_group_tests(tests, test_setup_device, test_teardown_device);
}
