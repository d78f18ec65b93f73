#include "pocl.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

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
