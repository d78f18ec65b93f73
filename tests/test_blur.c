/* blur: both variants exactly against the CPU blur at odd sizes on PoCL,
 * the GB/s formula, grey and RGB images read with --input and the blurred
 * image written (checked against this file's own blur of Fig 4.1), and
 * bad sizes and files refused before any device work, leaving no file. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include "pocl.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

static const char *const sizes[] = {"1", "7x3", "33x65", "100x37", "129x31", "17", NULL};

struct fixture {
    struct clmem_ctx ctx;
    char dir[64];
    char in[128], out[128];
};

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    strcpy(f->dir, "/tmp/clmem_blur_XXXXXX");
    if (!mkdtemp(f->dir))
        return -1;
    test_open_device(&f->ctx);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    unlink(f->in);
    unlink(f->out);
    rmdir(f->dir);
    clmem_ctx_close(&f->ctx);
    free(f);
    return 0;
}

static void naive_verifies_any_size(void **state)
{
    struct fixture *f = *state;
    test_expect_verified_sizes(&f->ctx, "blur", "naive", sizes);
}

static void tiled_verifies_any_size(void **state)
{
    struct fixture *f = *state;
    test_expect_verified_sizes(&f->ctx, "blur", "tiled", sizes);
}

static void metric_is_bytes_read_and_written(void **state)
{
    struct fixture *f = *state;
    static const char *const names[] = {"naive", "tiled", NULL};
    size_t n;
    struct clmem_result *r = test_run_all(&f->ctx, "blur", "33x65", 3, names, &n);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(r[i].metric_unit, "GB/s");
        assert_string_equal(r[i].note, "grey 33x65, BLUR_SIZE 1");
        assert_string_equal(r[i].params, "-DBLUR_SIZE=1 -DCHANNELS=1 -DTILE=16");
        test_expect_metric(&r[i], 2.0 * 33 * 65);
    }
    clmem_results_free(r, n);
}

/* Plans and executes like the CLI does with --input / --output. */
static int run_blur(struct fixture *f, const char *size, const char *input, const char *output,
                    struct clmem_result **results, size_t *n, struct clmem_error *err)
{
    struct clmem_run_options options = {.size = size,
                                        .variant = "all",
                                        .reps = 2,
                                        .warmup = 1,
                                        .seed = 42,
                                        .input = input,
                                        .image_output = output};
    struct clmem_run run;
    *results = NULL;
    *n = 0;
    int status = clmem_run_plan(&run, clmem_workload_find("blur"), &f->ctx, &options, err);
    if (status == CLMEM_OK)
        status = clmem_run_execute(&run, &options, results, n, err);
    clmem_run_release(&run);
    return status;
}

/* Fig 4.1 written again here, independently of the workload's reference. */
static void blur_by_hand(const struct clmem_image *in, unsigned char *out)
{
    int w = (int)in->width, h = (int)in->height, ch = (int)in->channels;
    for (int Row = 0; Row < h; Row++)
        for (int Col = 0; Col < w; Col++)
            for (int c = 0; c < ch; c++) {
                int pixVal = 0, pixels = 0;
                for (int blurRow = -1; blurRow < 2; ++blurRow)
                    for (int blurCol = -1; blurCol < 2; ++blurCol) {
                        int curRow = Row + blurRow, curCol = Col + blurCol;
                        if (curRow > -1 && curRow < h && curCol > -1 && curCol < w) {
                            pixVal += in->pixels[(curRow * w + curCol) * ch + c];
                            pixels++;
                        }
                    }
                out[(Row * w + Col) * ch + c] = (unsigned char)(pixVal / pixels);
            }
}

static void blur_file(struct fixture *f, size_t w, size_t h, unsigned channels, unsigned maxval)
{
    const char *ext = channels == 1 ? "pgm" : "ppm";
    struct clmem_error err = {0};
    struct clmem_image image, written;
    snprintf(f->in, sizeof f->in, "%s/in.%s", f->dir, ext);
    snprintf(f->out, sizeof f->out, "%s/out.%s", f->dir, ext);
    assert_int_equal(clmem_image_generate(&image, w, h, channels, 5, &err), CLMEM_OK);
    image.maxval = maxval;
    for (size_t i = 0; i < w * h * channels; i++)
        image.pixels[i] = (unsigned char)(image.pixels[i] % (maxval + 1));
    assert_int_equal(clmem_netpbm_write(f->in, &image, &err), CLMEM_OK);

    struct clmem_result *r;
    size_t n;
    int status = run_blur(f, NULL, f->in, f->out, &r, &n, &err);
    if (status != CLMEM_OK)
        fail_msg("blur --input %s: status %d: %s%s", f->in, status, err.message,
                 n ? r[0].verify_detail : "");
    assert_int_equal(n, 2);
    char size[64], note[160];
    snprintf(size, sizeof size, "%zux%zu", w, h);
    snprintf(note, sizeof note, "%s %zux%zu, BLUR_SIZE 1", channels == 1 ? "grey" : "RGB", w, h);
    for (size_t i = 0; i < n; i++) {
        assert_true(r[i].verified);
        assert_string_equal(r[i].size, size);
        assert_string_equal(r[i].note, note);
        test_expect_metric(&r[i], 2.0 * (double)(w * h * channels));
    }
    clmem_results_free(r, n);

    unsigned char *expected = malloc(w * h * channels);
    assert_non_null(expected);
    blur_by_hand(&image, expected);
    assert_int_equal(clmem_netpbm_read(f->out, &written, &err), CLMEM_OK);
    assert_int_equal(written.width, w);
    assert_int_equal(written.height, h);
    assert_int_equal(written.channels, channels);
    assert_int_equal(written.maxval, maxval);
    assert_memory_equal(written.pixels, expected, w * h * channels);
    free(expected);
    clmem_image_free(&written);
    clmem_image_free(&image);
    unlink(f->in);
    unlink(f->out);
}

static void rgb_input_blurred_to_ppm(void **state)
{
    blur_file(*state, 37, 23, 3, 255);
    blur_file(*state, 1, 1, 3, 255);
}

static void grey_input_blurred_to_pgm(void **state)
{
    blur_file(*state, 29, 31, 1, 255);
    blur_file(*state, 5, 1, 1, 200); /* a maxval below 255 is kept */
}

static void expect_refused(struct fixture *f, const char *size, const char *input,
                           const char *output, const char *message)
{
    struct clmem_error err = {0};
    struct clmem_result *r;
    size_t n;
    if (output)
        unlink(output); /* nothing left by an earlier test */
    int status = run_blur(f, size, input, output, &r, &n, &err);
    assert_int_equal(status, CLMEM_ERR_USAGE);
    assert_int_equal(n, 0);
    if (!strstr(err.message, message))
        fail_msg("message '%s' lacks '%s'", err.message, message);
    clmem_results_free(r, n);
    if (output)
        assert_int_equal(access(output, F_OK), -1);
}

static void bad_input_refused_and_no_file_written(void **state)
{
    struct fixture *f = *state;
    snprintf(f->in, sizeof f->in, "%s/bad.pgm", f->dir);
    snprintf(f->out, sizeof f->out, "%s/out.pgm", f->dir);
    FILE *file = fopen(f->in, "wb");
    assert_non_null(file);
    fputs("P5\n4 4\n255\n0123456789", file);
    fclose(file);
    expect_refused(f, NULL, f->in, f->out, "truncated pixel data: expected 16 bytes, got 10");
    expect_refused(f, NULL, f->in, f->out, f->in); /* the message names the file */
    file = fopen(f->in, "wb");
    fputs("P2\n1 1\n255\n0", file);
    fclose(file);
    expect_refused(f, NULL, f->in, f->out, "bad magic 'P2'");
    file = fopen(f->in, "wb");
    fputs("P5\n1 1\n65535\n\x01\x02", file);
    fclose(file);
    expect_refused(f, NULL, f->in, f->out, "16-bit");
    unlink(f->in);
    expect_refused(f, NULL, f->in, f->out, "cannot open image");
}

static void size_with_input_and_bad_sizes_refused(void **state)
{
    struct fixture *f = *state;
    struct clmem_error err = {0};
    struct clmem_image image;
    snprintf(f->in, sizeof f->in, "%s/ok.pgm", f->dir);
    snprintf(f->out, sizeof f->out, "%s/out.ppm", f->dir);
    assert_int_equal(clmem_image_generate(&image, 3, 3, 1, 1, &err), CLMEM_OK);
    assert_int_equal(clmem_netpbm_write(f->in, &image, &err), CLMEM_OK);
    clmem_image_free(&image);
    expect_refused(f, "3x3", f->in, NULL, "leave out --size");
    /* A grey image is written as PGM: a .ppm name is refused. */
    expect_refused(f, NULL, f->in, f->out, "must end in '.pgm'");
    expect_refused(f, "33x65", NULL, f->out, "must end in '.pgm'");
    unlink(f->in);
    expect_refused(f, "4x5x6", NULL, NULL, "N or WxH");
    expect_refused(f, "65536x65536", NULL, NULL, "int indices");
    expect_refused(f, "2147483647x1", NULL, NULL, "int indices");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(naive_verifies_any_size),
        cmocka_unit_test(tiled_verifies_any_size),
        cmocka_unit_test(metric_is_bytes_read_and_written),
        cmocka_unit_test(rgb_input_blurred_to_ppm),
        cmocka_unit_test(grey_input_blurred_to_pgm),
        cmocka_unit_test(bad_input_refused_and_no_file_written),
        cmocka_unit_test(size_with_input_and_bad_sizes_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
