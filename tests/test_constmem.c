/* constmem: the __global and __constant filter variants and the coarsened
 * one against the CPU convolution (same summation order, 1e-5 of the
 * input's range) at odd sizes on PoCL, coarsened at every strip shape it
 * may be built with, the GB/s formula, bad sizes refused. */
#include "pocl.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static const char *const sizes[] = {"1",     "7x3", "33x65", "100x37", "129x31",
                                    "131x7", "3x1", "2x5",   "5x2",    NULL};

static void global_filter_verifies_any_size(void **state)
{
    test_expect_verified_sizes(*state, "constmem", "global_filter", sizes);
}

static void constant_filter_verifies_any_size(void **state)
{
    test_expect_verified_sizes(*state, "constmem", "constant_filter", sizes);
}

static void coarsened_verifies_any_size(void **state)
{
    test_expect_verified_sizes(*state, "constmem", "coarsened", sizes);
}

/* coarsened as every device may build it (VEC x ROWS x STRIP_LOAD, the
 * GPUs' 4 x 6 x 2 among them; each vector width once with each way of
 * loading a row), at sizes whose strips are cut by every edge: widths not
 * a multiple of VEC, rows past the last strip's, images narrower than a
 * strip and its filter's reach; and rows of whole vectors (64 wide: an
 * aligned load a row with STRIP_LOAD 2, every row of a strip loaded first,
 * those outside the image as zeros; 64x40: strips whose rows are all
 * inside). */
static void coarsened_every_strip_shape(void **state)
{
    static const int shapes[][3] = {{1, 3, 1}, {2, 8, 1}, {4, 1, 1}, {8, 4, 1}, {16, 5, 1},
                                    {2, 8, 2}, {4, 1, 2}, {4, 6, 2}, {8, 4, 2}, {16, 5, 2}};
    static const char *const images[] = {"1", "7x3", "37x11", "70x9", "64x6", "64x40"};
    for (size_t k = 0; k < sizeof shapes / sizeof *shapes; k++)
        for (size_t i = 0; i < sizeof images / sizeof *images; i++) {
            struct clmem_run_options options = {.size = images[i],
                                                .variant = "coarsened",
                                                .reps = 1,
                                                .warmup = 0,
                                                .seed = 42,
                                                .tune_values = shapes[k]};
            struct clmem_error err = {0};
            struct clmem_result *r = NULL;
            size_t n = 0;
            int status = clmem_run(*state, clmem_workload_find("constmem"), &options, &r, &n, &err);
            if (status != CLMEM_OK || n != 1 || !r[0].verified)
                fail_msg("coarsened VEC %d ROWS %d STRIP_LOAD %d at %s: status %d: %s %s",
                         shapes[k][0], shapes[k][1], shapes[k][2], images[i], status, err.message,
                         n ? r[0].verify_detail : "");
            char params[80];
            snprintf(params, sizeof params, "-DVEC=%d -DROWS=%d -DSTRIP_LOAD=%d", shapes[k][0],
                     shapes[k][1], shapes[k][2]);
            assert_non_null(strstr(r[0].params, params));
            clmem_results_free(r, n);
        }
}

/* The aligned path (STRIP_LOAD 2, a GPU's; PoCL's built-in row takes the
 * other, so test_planted does not reach it) with a bug planted in it: the
 * right halo's first float taken from the second, rows above and below
 * the image read as ones instead of zeros, the strip's last row stored one
 * too large; and in the filter's coefficients, read four a load
 * by every strip inside the image: the last of each four taken from the
 * third, the filter's last one from the one before. Each must fail the
 * check, the kernel without it verify. */
static void aligned_path_bugs_are_caught(void **state)
{
    static const int shape[] = {4, 2, 2};
    static const char *const bugs[][2] = {
        {"e[i][FILTER_RADIUS + VEC + k] = right.x;", "e[i][FILTER_RADIUS + VEC + k] = right.y;"},
        {"                e[i][k] = 0.0f;", "                e[i][k] = 1.0f;"},
        {"*(__global FLOATV *)(out + (row0 + r) * w + x) = sum[r];",
         "*(__global FLOATV *)(out + (row0 + r) * w + x) = sum[r] + (r == ROWS - 1);"},
        {"f[4 * k + 3] = c.w;", "f[4 * k + 3] = c.z;"},
        {"        f[k] = filter[k];\n    FLOATV", "        f[k] = filter[k - 1];\n    FLOATV"},
    };
    for (size_t i = 0; i < sizeof bugs / sizeof *bugs; i++)
        test_expect_planted_caught(*state, "constmem", "coarsened", "24x9", NULL, shape,
                                   "-DVEC=4 -DROWS=2 -DSTRIP_LOAD=2 -DALIGNED=1", "constmem.cl",
                                   bugs[i][0], bugs[i][1]);
}

static void all_timed_and_metric_is_bytes(void **state)
{
    static const char *const names[] = {"global_filter", "constant_filter", "coarsened", NULL};
    size_t n;
    struct clmem_result *r = test_run_all(*state, "constmem", "100x37", 3, names, &n);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(r[i].n_samples, 3);
        assert_true(r[i].max_rel_error <= 1e-5);
        assert_string_equal(r[i].metric_unit, "GB/s");
        /* PoCL's row: strips of 16 floats by 8 rows. */
        assert_string_equal(r[i].params,
                            "-DFILTER_RADIUS=2 -DVEC=16 -DROWS=8 -DSTRIP_LOAD=1 -DALIGNED=0");
        assert_string_equal(r[i].note, "5x5 filter, zero outside the image");
        test_expect_metric(&r[i], 2.0 * 100 * 37 * 4);
    }
    clmem_results_free(r, n);
}

static void bad_sizes_refused(void **state)
{
    test_expect_refused(*state, "constmem", "all", "4x5x6", "N or WxH");
    test_expect_refused(*state, "constmem", "all", "65536x65536", "int indices");
    /* 46340^2 fits an int, the padded grid not. */
    test_expect_refused(*state, "constmem", "all", "46340", "int indices");
    test_expect_refused(*state, "constmem", "all", "2147483647x1", "int indices");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(global_filter_verifies_any_size),
        cmocka_unit_test(constant_filter_verifies_any_size),
        cmocka_unit_test(coarsened_verifies_any_size),
        cmocka_unit_test(coarsened_every_strip_shape),
        cmocka_unit_test(aligned_path_bugs_are_caught),
        cmocka_unit_test(all_timed_and_metric_is_bytes),
        cmocka_unit_test(bad_sizes_refused),
    };
    return cmocka_run_group_tests(tests, test_setup_device, test_teardown_device);
}
