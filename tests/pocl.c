#include "pocl.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

void test_open_device(struct clmem_ctx *ctx)
{
    struct clmem_error err = {0};
    struct clmem_device *devices;
    size_t count, chosen;
    const char *spec = getenv("CLMEM_TEST_DEVICE");
    if (clmem_devices_list(&devices, &count, &err) ||
        clmem_devices_select(spec ? spec : "cpu", devices, count, &chosen, &err) ||
        clmem_ctx_open(ctx, &devices[chosen], NULL, &err))
        fail_msg("no test device: %s", err.message);
    free(devices);
}

void test_expect_verified(struct clmem_ctx *ctx, const char *workload, const char *variant,
                          const char *size)
{
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    int status = clmem_run_workload(ctx, workload, variant, size, 2, &results, &n, &err);
    if (status != CLMEM_OK)
        fail_msg("%s %s at %s: status %d: %s%s%s", workload, variant, size, status, err.message,
                 n ? " " : "", n ? results[0].verify_detail : "");
    assert_int_equal(n, 1);
    assert_false(results[0].skipped);
    assert_true(results[0].verified);
    assert_true(results[0].n_samples == 2);
    assert_true(results[0].median_ms > 0.0);
    assert_true(results[0].metric > 0.0);
    clmem_results_free(results, n);
    clmem_error_clear(&err);
}

void test_expect_verified_sizes(struct clmem_ctx *ctx, const char *workload, const char *variant,
                                const char *const *sizes)
{
    for (size_t i = 0; sizes[i]; i++)
        test_expect_verified(ctx, workload, variant, sizes[i]);
}

struct clmem_result *test_run_all(struct clmem_ctx *ctx, const char *workload, const char *size,
                                  unsigned reps, const char *const *variants, size_t *n)
{
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    *n = 0;
    int status = clmem_run_workload(ctx, workload, "all", size, reps, &results, n, &err);
    if (status != CLMEM_OK)
        fail_msg("%s all at %s: status %d: %s", workload, size, status, err.message);
    size_t expected = 0;
    while (variants[expected])
        expected++;
    assert_int_equal(*n, expected);
    for (size_t i = 0; i < *n; i++) {
        assert_string_equal(results[i].variant, variants[i]);
        assert_true(results[i].verified);
    }
    clmem_error_clear(&err);
    return results;
}

void test_expect_metric(const struct clmem_result *result, double work)
{
    double expected = work / (result->median_ms * 1e-3) / 1e9;
    assert_true(result->metric > 0.999 * expected && result->metric < 1.001 * expected);
}

void test_expect_refused(struct clmem_ctx *ctx, const char *workload, const char *variant,
                         const char *size, const char *message)
{
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    int status = clmem_run_workload(ctx, workload, variant, size, 1, &results, &n, &err);
    assert_int_equal(status, CLMEM_ERR_USAGE);
    assert_int_equal(n, 0);
    if (!strstr(err.message, message))
        fail_msg("%s %s at %s: message '%s' lacks '%s'", workload, variant, size, err.message,
                 message);
    clmem_results_free(results, n);
    clmem_error_clear(&err);
}

int test_setup_device(void **state)
{
    struct clmem_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return -1;
    test_open_device(ctx);
    *state = ctx;
    return 0;
}

int test_teardown_device(void **state)
{
    clmem_ctx_close(*state);
    free(*state);
    return 0;
}
