/* pitched: every variant exactly against the CPU reference on PoCL at odd
 * widths and heights (vec4: rows ending in 0 to 3 floats after their last
 * whole float4), the pitch a multiple of the alignment and no smaller than
 * a row, the padding never written, the metric, the refusals. */
#include "pocl.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static const size_t widths[] = {1, 2, 7, 33, 513, 1000, 1003};
static const size_t heights[] = {1, 3, 65};

/* Runs every variant at WxH; the caller frees. */
static struct clmem_result *run_all(struct clmem_ctx *ctx, size_t width, size_t height, size_t *n)
{
    struct clmem_error err = {0};
    struct clmem_result *r = NULL;
    char size[64];
    snprintf(size, sizeof size, "%zux%zu", width, height);
    *n = 0;
    int status = clmem_run_workload(ctx, "pitched", "all", size, 2, &r, n, &err);
    if (status != CLMEM_OK)
        fail_msg("pitched at %s: status %d: %s %s %s", size, status, err.message,
                 *n ? r[0].verify_detail : "", *n > 1 ? r[1].verify_detail : "");
    assert_int_equal(*n, 3);
    assert_string_equal(r[0].variant, "unpadded");
    assert_string_equal(r[1].variant, "pitched");
    assert_string_equal(r[2].variant, "vec4");
    return r;
}

static void all_verify_at_odd_widths_and_heights(void **state)
{
    for (size_t w = 0; w < sizeof widths / sizeof *widths; w++)
        for (size_t h = 0; h < sizeof heights / sizeof *heights; h++) {
            size_t n;
            struct clmem_result *r = run_all(*state, widths[w], heights[h], &n);
            for (size_t i = 0; i < n; i++) {
                assert_false(r[i].skipped);
                assert_true(r[i].verified);
                assert_int_equal(r[i].n_samples, 2);
            }
            clmem_results_free(r, n);
        }
}

/* The note names the pitch: a multiple of the device's alignment, at least
 * a row, less than a row plus the alignment (cudaMallocPitch's choice);
 * vec4 runs on the same pitched rows. */
static void pitch_is_the_row_rounded_up_to_the_alignment(void **state)
{
    struct clmem_ctx *ctx = *state;
    size_t device_align = ctx->device.base_addr_align_bits / 8;
    for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
        size_t n, pitch, width, row, align;
        struct clmem_result *r = run_all(ctx, widths[w], 3, &n);
        char expected[64];
        snprintf(expected, sizeof expected, "rows of %zu B, packed", widths[w] * 4);
        assert_string_equal(r[0].note, expected);
        if (sscanf(r[1].note, "pitch %zu B for width %zu (rows of %zu B, alignment %zu B)", &pitch,
                   &width, &row, &align) != 4)
            fail_msg("note '%s' does not name the pitch", r[1].note);
        assert_int_equal(width, widths[w]);
        assert_int_equal(row, widths[w] * 4);
        /* A multiple of 16 bytes too: vec4's float4s stay aligned. */
        assert_true(align % 16 == 0 && align % device_align == 0 && align >= device_align);
        assert_int_equal(pitch % align, 0);
        assert_true(pitch >= row && pitch < row + align);
        assert_string_equal(r[2].note, r[1].note); /* vec4: the same pitched rows */
        clmem_results_free(r, n);
    }
}

static void metric_counts_one_read_one_write_per_element(void **state)
{
    size_t n;
    struct clmem_result *r = run_all(*state, 513, 65, &n);
    for (size_t i = 0; i < n; i++) {
        test_expect_metric(&r[i], 2.0 * 513 * 65 * 4);
        assert_string_equal(r[i].metric_unit, "GB/s");
        assert_string_equal(r[i].size, "513x65");
    }
    clmem_results_free(r, n);
}

static void expect_refused(struct clmem_ctx *ctx, const char *size, const char *message)
{
    struct clmem_error err = {0};
    struct clmem_result *r = NULL;
    size_t n = 0;
    int status = clmem_run_workload(ctx, "pitched", "all", size, 1, &r, &n, &err);
    assert_int_equal(status, CLMEM_ERR_USAGE);
    assert_int_equal(n, 0);
    if (!strstr(err.message, message))
        fail_msg("size '%s': message '%s' lacks '%s'", size, err.message, message);
    clmem_results_free(r, n);
}

static void bad_sizes_refused(void **state)
{
    struct clmem_ctx *ctx = *state;
    expect_refused(ctx, "4x5x6", "N or WxH");
    expect_refused(ctx, "2147483647x2", "int indices");
    expect_refused(ctx, "65536", "int indices");
    /* 2^29 floats: int indices hold them, PoCL's 1 GiB allocation does not. */
    if (ctx->device.max_alloc < 32768ull * 16384 * 4)
        expect_refused(ctx, "32768x16384", "can allocate at once");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(all_verify_at_odd_widths_and_heights),
        cmocka_unit_test(pitch_is_the_row_rounded_up_to_the_alignment),
        cmocka_unit_test(metric_counts_one_read_one_write_per_element),
        cmocka_unit_test(bad_sizes_refused),
    };
    return cmocka_run_group_tests(tests, test_setup_device, test_teardown_device);
}
