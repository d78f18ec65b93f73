/* blur: every variant exactly against the CPU blur at odd sizes on PoCL,
 * coarsened at every strip shape it may be built with (grey and RGB), the
 * GB/s formula, grey and RGB images read with --input and the blurred
 * image written (checked against this file's own blur of Fig 4.1), and
 * bad sizes and files refused before any device work, leaving no file;
 * and the built-in strip chosen by the width of the image's rows. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include "pocl.h"
#include "workloads/strips.h"

#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

static const char *const sizes[] = {"1", "7x3", "33x65", "100x37", "129x31", "131x7", "17", NULL};

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

static void coarsened_verifies_any_size(void **state)
{
    struct fixture *f = *state;
    test_expect_verified_sizes(&f->ctx, "blur", "coarsened", sizes);
}

static void metric_is_bytes_read_and_written(void **state)
{
    struct fixture *f = *state;
    static const char *const names[] = {"naive", "tiled", "coarsened", NULL};
    size_t n;
    struct clmem_result *r = test_run_all(&f->ctx, "blur", "33x65", 3, names, &n);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(r[i].metric_unit, "GB/s");
        assert_string_equal(r[i].note, "grey 33x65, BLUR_SIZE 1");
        /* The CPU rows: strips of 16 bytes by 8 rows, read by vectors on
         * PoCL, by one aligned load on llvmpipe (where rows hold whole
         * vectors: 33 bytes a row do not, so it takes the other path). */
        char params[128];
        snprintf(params, sizeof params,
                 "-DBLUR_SIZE=1 -DCHANNELS=1 -DTILE=16 -DVEC=16 -DROWS=8 -DSTRIP_LOAD=%d "
                 "-DALIGNED=0",
                 strstr(f->ctx.device.name, "llvmpipe") ? 2 : 1);
        assert_string_equal(r[i].params, params);
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

static void expect_refused(struct fixture *f, const char *size, const char *input,
                           const char *output, const char *message);

/* How a test hands blur its --input: a file, a FIFO a child writes, a
 * pipe's read end as /dev/fd/N (the shell's `<(...)`). */
enum feed { AS_FILE, AS_FIFO, AS_PIPE };

struct feeder {
    pid_t pid;
    int fd;
    char path[160];
};

/* Serves `size` bytes of `data` once, as `how` says; `file` names where
 * the FIFO goes. */
static void feed_start(struct feeder *feeder, enum feed how, const char *file, const void *data,
                       size_t size)
{
    feeder->pid = -1;
    feeder->fd = -1;
    if (how == AS_PIPE) {
        int p[2];
        assert_int_equal(pipe(p), 0);
        assert_true(size < 65536); /* within the pipe's buffer: no writer needed */
        assert_int_equal(write(p[1], data, size), (ssize_t)size);
        close(p[1]);
        feeder->fd = p[0];
        snprintf(feeder->path, sizeof feeder->path, "/dev/fd/%d", p[0]);
        return;
    }
    snprintf(feeder->path, sizeof feeder->path, "%s.fifo", file);
    unlink(feeder->path);
    assert_int_equal(mkfifo(feeder->path, 0600), 0);
    feeder->pid = fork();
    assert_true(feeder->pid >= 0);
    if (feeder->pid == 0) {
        int fd = open(feeder->path, O_WRONLY);
        const char *p = data;
        for (ssize_t n; fd >= 0 && size > 0 && (n = write(fd, p, size)) > 0; p += n)
            size -= (size_t)n;
        _exit(0);
    }
}

static void feed_end(struct feeder *feeder)
{
    if (feeder->pid > 0) {
        kill(feeder->pid, SIGKILL);
        waitpid(feeder->pid, NULL, 0);
        unlink(feeder->path);
    }
    if (feeder->fd >= 0)
        close(feeder->fd);
}

static void blur_file(struct fixture *f, size_t w, size_t h, unsigned channels, unsigned maxval,
                      enum feed how)
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
    struct feeder feeder = {0};
    const char *input = f->in;
    if (how != AS_FILE) {
        /* The same bytes, readable once: alarm() ends a run that blocks
         * on a second reading of the FIFO. */
        static char bytes[65536];
        FILE *file = fopen(f->in, "rb");
        assert_non_null(file);
        size_t size = fread(bytes, 1, sizeof bytes, file);
        fclose(file);
        feed_start(&feeder, how, f->in, bytes, size);
        input = feeder.path;
        alarm(120);
    }
    int status = run_blur(f, NULL, input, f->out, &r, &n, &err);
    alarm(0);
    feed_end(&feeder);
    if (status != CLMEM_OK)
        fail_msg("blur --input %s: status %d: %s%s", input, status, err.message,
                 n ? r[0].verify_detail : "");
    assert_int_equal(n, 3);
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
    blur_file(*state, 37, 23, 3, 255, AS_FILE);
    blur_file(*state, 1, 1, 3, 255, AS_FILE);
}

static void grey_input_blurred_to_pgm(void **state)
{
    blur_file(*state, 29, 31, 1, 255, AS_FILE);
    blur_file(*state, 5, 1, 1, 200, AS_FILE); /* a maxval below 255 is kept */
}

/* coarsened as every device may build it (VEC x ROWS x STRIP_LOAD, the
 * GPUs' 4 x 4 x 2 and the H100's 8 x 4 x 2 among them; each vector width
 * once with each way of loading a row), grey and RGB, at sizes whose strips
 * are cut by every edge of the image: widths not a multiple of VEC, rows
 * past the last strip's, images narrower than a strip and its halo; and
 * rows of whole vectors (ALIGNED). */
static void coarsened_every_strip_shape(void **state)
{
    struct fixture *f = *state;
    static const int shapes[][3] = {{1, 3, 1}, {2, 8, 1}, {4, 2, 1},  {8, 1, 1},  {16, 3, 1},
                                    {4, 4, 2}, {8, 4, 2}, {16, 3, 2}, {16, 12, 2}};
    static const struct {
        size_t w, h;
    } images[] = {{1, 1},  {7, 3}, {37, 11}, {70, 9}, {48, 5}, /* 48: rows of whole vectors */
                  {48, 40}}; /* tall: strips of 12 rows inside the image, one cut short */
    struct clmem_error err = {0};
    for (unsigned channels = 1; channels <= 3; channels += 2) {
        const char *ext = channels == 1 ? "pgm" : "ppm";
        for (size_t i = 0; i < sizeof images / sizeof *images; i++) {
            struct clmem_image image;
            snprintf(f->in, sizeof f->in, "%s/in.%s", f->dir, ext);
            assert_int_equal(
                clmem_image_generate(&image, images[i].w, images[i].h, channels, 9, &err),
                CLMEM_OK);
            assert_int_equal(clmem_netpbm_write(f->in, &image, &err), CLMEM_OK);
            clmem_image_free(&image);
            for (size_t k = 0; k < sizeof shapes / sizeof *shapes; k++) {
                struct clmem_run_options options = {.variant = "coarsened",
                                                    .reps = 1,
                                                    .warmup = 0,
                                                    .seed = 42,
                                                    .input = f->in,
                                                    .tune_values = shapes[k]};
                struct clmem_result *r = NULL;
                size_t n = 0;
                int status =
                    clmem_run(&f->ctx, clmem_workload_find("blur"), &options, &r, &n, &err);
                if (status != CLMEM_OK || n != 1 || !r[0].verified)
                    fail_msg("coarsened VEC %d ROWS %d STRIP_LOAD %d, %zux%zu with %u channels: "
                             "status %d: %s %s",
                             shapes[k][0], shapes[k][1], shapes[k][2], images[i].w, images[i].h,
                             channels, status, err.message, n ? r[0].verify_detail : "");
                char params[80];
                snprintf(params, sizeof params, "-DVEC=%d -DROWS=%d -DSTRIP_LOAD=%d", shapes[k][0],
                         shapes[k][1], shapes[k][2]);
                assert_non_null(strstr(r[0].params, params));
                clmem_results_free(r, n);
            }
            unlink(f->in);
        }
    }
}

/* The aligned path (STRIP_LOAD 2, a GPU's; PoCL's built-in row takes the
 * other, so test_planted does not reach it) with a bug planted in it, in
 * each of its two ways to sum (grey: two sums to a word; RGB: one): an
 * output byte of each stored word one too large, the right halo read one
 * byte to the left. At 48 bytes by 9 rows by 4 x 2 strips, both the strips
 * inside the image and those its top and bottom cut take it; each bug must
 * fail the check, the kernel without it verify. */
static void aligned_path_bugs_are_caught(void **state)
{
    struct fixture *f = *state;
    static const int shape[] = {4, 2, 2};
    static const char *const params = "-DVEC=4 -DROWS=2 -DSTRIP_LOAD=2 -DALIGNED=1";
    /* A grey image: the packed sums (an output byte one too large, the
     * right halo read one byte off). */
    static const char *const grey_bugs[][2] = {
        {"mul_hi(vo & 0xffff0000u, 7282u) << 24;", "(mul_hi(vo & 0xffff0000u, 7282u) + 1) << 24;"},
        {"uint before = p[-1], after = p[VEC];", "uint before = p[-1], after = p[VEC - 1];"},
    };
    for (size_t i = 0; i < sizeof grey_bugs / sizeof *grey_bugs; i++)
        test_expect_planted_caught(&f->ctx, "blur", "coarsened", "48x9", NULL, shape, params,
                                   "blur.cl", grey_bugs[i][0], grey_bugs[i][1]);
    /* An RGB image 16 pixels wide (48 bytes a row, aligned): a sum a word. */
    static const char *const rgb_bugs[][2] = {
        {"word |= (pixVal / (BOX * BOX)) << (8 * n);",
         "word |= (pixVal / (BOX * BOX) + (n == 3)) << (8 * n);"},
        {"e[HALO + VEC + k] = p[VEC + k];", "e[HALO + VEC + k] = p[VEC + k - 1];"},
    };
    struct clmem_error err = {0};
    struct clmem_image image;
    snprintf(f->in, sizeof f->in, "%s/in.ppm", f->dir);
    assert_int_equal(clmem_image_generate(&image, 16, 9, 3, 9, &err), CLMEM_OK);
    assert_int_equal(clmem_netpbm_write(f->in, &image, &err), CLMEM_OK);
    clmem_image_free(&image);
    for (size_t i = 0; i < sizeof rgb_bugs / sizeof *rgb_bugs; i++)
        test_expect_planted_caught(&f->ctx, "blur", "coarsened", NULL, f->in, shape, params,
                                   "blur.cl", rgb_bugs[i][0], rgb_bugs[i][1]);
    unlink(f->in);
}

/* An input that can be read only once (issue 17, item 2): a FIFO, a pipe
 * as /dev/fd/N. Before, plan read it and setup read it again: from the
 * FIFO, the run blocked. */
static void input_from_a_pipe_read_once(void **state)
{
    blur_file(*state, 33, 17, 1, 255, AS_FIFO);
    blur_file(*state, 7, 3, 3, 255, AS_PIPE);
}

/* What a pipe or a directory gives: a truncated image whose header claims
 * more than memory holds is refused naming the file (before: out of host
 * memory, exit 3); a directory is said to be one (before: "the file is
 * empty"). */
static void truncated_pipe_and_directory_inputs_refused(void **state)
{
    struct fixture *f = *state;
    snprintf(f->out, sizeof f->out, "%s/out.pgm", f->dir);
    static const char truncated[] = "P5\n4000000000 4000000000\n255\n0123456789";
    struct feeder feeder;
    feed_start(&feeder, AS_PIPE, NULL, truncated, sizeof truncated - 1);
    expect_refused(f, NULL, feeder.path, f->out,
                   "truncated pixel data: expected 16000000000000000000 bytes, got 10");
    feed_end(&feeder);
    feed_start(&feeder, AS_PIPE, NULL, truncated, sizeof truncated - 1);
    expect_refused(f, NULL, feeder.path, f->out, feeder.path);
    feed_end(&feeder);
    expect_refused(f, NULL, f->dir, f->out, "Is a directory");
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

/* A device as the strip's rows read it: its name and type. */
static struct clmem_device named_device(const char *name, cl_device_type type)
{
    struct clmem_device d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "%s", name);
    d.type = type;
    return d;
}

/* The built-in strip: of the device's rows at its most specific level, the
 * first with as many strips across the row as its fourth value asks (blur's
 * table holds such rows for the H100: 8 x 4 where a row has 16 KiB or
 * more, 4 x 4 below); rows without it are taken at any width, the rows for
 * a type before the row for any device. */
static void builtin_strip_follows_the_row_width(void **state)
{
    (void)state;
    static const struct clmem_param_row rows[] = {
        {CLMEM_PARAM_DEVICE, "H100", CL_DEVICE_TYPE_GPU, {8, 4, 2, 2048}},
        {CLMEM_PARAM_DEVICE, "H100", CL_DEVICE_TYPE_GPU, {4, 4, 2}},
        {CLMEM_PARAM_ANY, NULL, CL_DEVICE_TYPE_GPU, {4, 6, 2}},
        {CLMEM_PARAM_ANY, NULL, CL_DEVICE_TYPE_CPU, {16, 8, 1}},
        {CLMEM_PARAM_ANY, NULL, 0, {4, 4, 1}},
    };
    const size_t n = sizeof rows / sizeof *rows;
    struct clmem_device h100 = named_device("NVIDIA H100 80GB HBM3", CL_DEVICE_TYPE_GPU),
                        h200 = named_device("NVIDIA H200", CL_DEVICE_TYPE_GPU),
                        cpu = named_device("cpu-haswell", CL_DEVICE_TYPE_CPU);
    assert_int_equal(strips_builtin(rows, n, &h100, 16384)[STRIP_VEC], 8);
    assert_int_equal(strips_builtin(rows, n, &h100, 23168)[STRIP_VEC], 8);
    assert_int_equal(strips_builtin(rows, n, &h100, 16383)[STRIP_VEC], 4);
    assert_int_equal(strips_builtin(rows, n, &h100, 7680)[STRIP_VEC], 4);
    assert_int_equal(strips_builtin(rows, n, &h100, 1)[STRIP_VEC], 4);
    /* Any GPU's single row, narrow or wide. */
    assert_int_equal(strips_builtin(rows, n, &h200, 16384)[STRIP_ROWS], 6);
    assert_int_equal(strips_builtin(rows, n, &h200, 7)[STRIP_ROWS], 6);
    assert_int_equal(strips_builtin(rows, n, &cpu, 16384)[STRIP_VEC], 16);
    assert_int_equal(strips_builtin(rows, n, &cpu, 3)[STRIP_VEC], 16);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(naive_verifies_any_size),
        cmocka_unit_test(tiled_verifies_any_size),
        cmocka_unit_test(coarsened_verifies_any_size),
        cmocka_unit_test(coarsened_every_strip_shape),
        cmocka_unit_test(aligned_path_bugs_are_caught),
        cmocka_unit_test(metric_is_bytes_read_and_written),
        cmocka_unit_test(rgb_input_blurred_to_ppm),
        cmocka_unit_test(grey_input_blurred_to_pgm),
        cmocka_unit_test(input_from_a_pipe_read_once),
        cmocka_unit_test(truncated_pipe_and_directory_inputs_refused),
        cmocka_unit_test(bad_input_refused_and_no_file_written),
        cmocka_unit_test(size_with_input_and_bad_sizes_refused),
        cmocka_unit_test(builtin_strip_follows_the_row_width),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
