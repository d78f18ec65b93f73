/* netpbm images: P5/P6 round trips, comments and whitespace in headers,
 * every malformed or truncated file refused with a message naming the
 * file and the fault, and a failed write leaving no file. No device. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include "pocl.h"

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

struct tmp {
    char dir[64];
    char path[128];
};

static int make_dir(void **state)
{
    struct tmp *t = calloc(1, sizeof *t);
    strcpy(t->dir, "/tmp/clmem_netpbm_XXXXXX");
    if (!t || !mkdtemp(t->dir))
        return -1;
    *state = t;
    return 0;
}

/* Removes the plain files the tests left, then the directory. */
static int remove_dir(void **state)
{
    struct tmp *t = *state;
    DIR *d = opendir(t->dir);
    struct dirent *e;
    char path[512];
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%s", t->dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    rmdir(t->dir);
    free(t);
    return 0;
}

static size_t count_files(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t n = 0;
    while (d && (e = readdir(d)))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return n;
}

static const char *file_with(struct tmp *t, const char *name, const char *bytes, size_t len)
{
    snprintf(t->path, sizeof t->path, "%s/%s", t->dir, name);
    FILE *f = fopen(t->path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
    return t->path;
}

static void round_trip(struct tmp *t, const char *name, size_t w, size_t h, unsigned channels,
                       unsigned maxval, const char *header)
{
    struct clmem_error err = {0};
    struct clmem_image image, back;
    assert_int_equal(clmem_image_generate(&image, w, h, channels, 7, &err), CLMEM_OK);
    image.maxval = maxval;
    for (size_t i = 0; i < w * h * channels; i++)
        image.pixels[i] = (unsigned char)(image.pixels[i] % (maxval + 1));
    snprintf(t->path, sizeof t->path, "%s/%s", t->dir, name);
    assert_int_equal(clmem_netpbm_write(t->path, &image, &err), CLMEM_OK);
    /* The file as the spec writes it: header, then the raster. */
    FILE *f = fopen(t->path, "rb");
    assert_non_null(f);
    char text[64] = {0};
    size_t n = strlen(header);
    assert_int_equal(fread(text, 1, n, f), n);
    assert_string_equal(text, header);
    fclose(f);
    assert_int_equal(clmem_netpbm_read(t->path, &back, &err), CLMEM_OK);
    assert_int_equal(back.width, w);
    assert_int_equal(back.height, h);
    assert_int_equal(back.channels, channels);
    assert_int_equal(back.maxval, maxval);
    assert_memory_equal(back.pixels, image.pixels, w * h * channels);
    clmem_image_free(&image);
    clmem_image_free(&back);
}

static void grey_and_rgb_round_trip(void **state)
{
    struct tmp *t = *state;
    round_trip(t, "grey.pgm", 7, 3, 1, 255, "P5\n7 3\n255\n");
    round_trip(t, "rgb.ppm", 33, 5, 3, 255, "P6\n33 5\n255\n");
    round_trip(t, "one.pgm", 1, 1, 1, 1, "P5\n1 1\n1\n");
    round_trip(t, "dim.ppm", 2, 129, 3, 100, "P6\n2 129\n100\n");
    assert_int_equal(count_files(t->dir), 4); /* no temporary files left */
}

static void read_ok(struct tmp *t, const char *bytes, size_t len, size_t w, size_t h,
                    unsigned channels, unsigned maxval, const char *pixels)
{
    struct clmem_error err = {0};
    struct clmem_image image;
    const char *path = file_with(t, "in.pnm", bytes, len);
    if (clmem_netpbm_read(path, &image, &err) != CLMEM_OK)
        fail_msg("reading %.20s...: %s", bytes, err.message);
    assert_int_equal(image.width, w);
    assert_int_equal(image.height, h);
    assert_int_equal(image.channels, channels);
    assert_int_equal(image.maxval, maxval);
    assert_memory_equal(image.pixels, pixels, w * h * channels);
    clmem_image_free(&image);
}

#define READ_OK(t, lit, w, h, ch, maxval, px) read_ok(t, lit, sizeof lit - 1, w, h, ch, maxval, px)

static void comments_and_whitespace(void **state)
{
    struct tmp *t = *state;
    /* Comments anywhere before the maxval, any whitespace between fields. */
    READ_OK(t, "P5 # a comment\n#another\n 3\t2\r\n# width 3, height 2\n255\nabcdef", 3, 2, 1, 255,
            "abcdef");
    READ_OK(t, "P5#right after the magic\n2#c\n1#c\r99\nAB", 2, 1, 1, 99, "AB");
}

static void raster_starts_after_one_whitespace(void **state)
{
    struct tmp *t = *state;
    /* A space after the maxval, then samples that look like whitespace and
     * '#': they are pixels, not header. */
    READ_OK(t, "P6 2 1 255 \n #\t\r\v", 2, 1, 3, 255, "\n #\t\r\v");
    READ_OK(t, "P5\n2\n1\n255\n\n\n", 2, 1, 1, 255, "\n\n");
    /* Data after the first image (a second image) is left alone. */
    READ_OK(t, "P5 1 1 255\n\x07P5 1 1 255\n\x08", 1, 1, 1, 255, "\x07");
}

static const struct {
    const char *bytes;
    size_t len;
    const char *message;
} malformed[] = {
#define BAD(lit, msg)                                                                              \
    {                                                                                              \
        lit, sizeof lit - 1, msg                                                                   \
    }
    BAD("", "bad magic: the file is empty"),
    BAD("P", "bad magic 'P'"),
    BAD("P2\n1 1\n255\n0", "bad magic 'P2' (expected binary P5 grey or P6 RGB)"),
    BAD("P3\n1 1\n255\n0 0 0", "bad magic 'P3'"),
    BAD("GIF89a", "bad magic 'GI'"),
    BAD("P5", "truncated header: no width"),
    BAD("P5\n", "truncated header: no width"),
    BAD("P5\n# only a comment", "truncated header: no width"),
    BAD("P51 1\n255\n\x01", "no whitespace before the width"),
    BAD("P5\n3", "truncated header after the width"),
    BAD("P5\n3 ", "truncated header: no height"),
    BAD("P5\nx 1\n255\n\x01", "bad width: expected a decimal number, got 'x'"),
    BAD("P5\n-1 1\n255\n\x01", "bad width: expected a decimal number, got '-'"),
    BAD("P5\n3x 1\n255\n\x01", "bad width: unexpected 'x' after 3"),
    BAD("P5\n1 y\n255\n\x01", "bad height: expected a decimal number"),
    /* Bytes that are no text shown escaped: a NUL once ended the message. */
    BAD("P5\n4\0 4\n255\n0123456789abcdef", "bad width: unexpected '\\x00' after 4"),
    BAD("P5\n\0"
        "4 4\n255\n0123456789abcdef",
        "bad width: expected a decimal number, got '\\x00'"),
    BAD("P5\n4 4\x1b\n255\n0123456789abcdef", "bad height: unexpected '\\x1b' after 4"),
    BAD("P\0\n4 4\n255\n", "bad magic 'P\\x00' (expected binary P5 grey or P6 RGB)"),
    BAD("\xff\xd8\xff", "bad magic '\\xff\\xd8'"),
    BAD("P5\n0 1\n255\n", "width 0"),
    BAD("P5\n1 0\n255\n", "height 0"),
    BAD("P6\n00 5\n255\n", "width 0"),
    BAD("P5\n1 1\n", "truncated header: no maxval"),
    BAD("P5\n1 1\n255", "truncated header after the maxval"),
    BAD("P5\n1 1\n0\n", "maxval 0 out of range (1..255)"),
    BAD("P5\n1 1\n65535\n\x01\x01", "16-bit samples, which are not supported"),
    BAD("P5\n1 1\n256\n\x01\x01", "maxval 256 means 16-bit samples"),
    BAD("P5\n1 1\n65536\n\x01", "maxval 65536 out of range"),
    BAD("P5\n1 1\n255#c\n\x01", "a comment after the maxval"),
    BAD("P5\n99999999999999999999999 1\n255\n", "width is too large"),
    BAD("P5\n1 99999999999999999999999\n255\n", "height is too large"),
    BAD("P5\n4294967296 4294967297\n255\n", "dimensions 4294967296x4294967297 overflow"),
    BAD("P6\n3074457345618258603 2\n255\n", "overflow"),
    BAD("P5\n4 4\n255\n0123456789", "truncated pixel data: expected 16 bytes, got 10"),
    BAD("P6\n2 2\n255\n01234", "truncated pixel data: expected 12 bytes, got 5"),
    BAD("P5\n1 1\n255\n", "truncated pixel data: expected 1 bytes, got 0"),
    BAD("P5\n100000 100000\n255\n", "truncated pixel data: expected 10000000000 bytes, got 0"),
    BAD("P5\n2 1\n100\n\x10\xc8", "sample 200 at byte 1 of the pixel data exceeds maxval 100"),
#undef BAD
};

static void every_malformed_file_refused(void **state)
{
    struct tmp *t = *state;
    for (size_t i = 0; i < sizeof malformed / sizeof *malformed; i++) {
        struct clmem_error err = {0};
        struct clmem_image image = {.pixels = NULL};
        const char *path = file_with(t, "bad.pgm", malformed[i].bytes, malformed[i].len);
        int status = clmem_netpbm_read(path, &image, &err);
        if (status != CLMEM_ERR_USAGE || !strstr(err.message, malformed[i].message) ||
            !strstr(err.message, path))
            fail_msg("case %zu: status %d, message '%s' lacks '%s' or the path", i, status,
                     err.message, malformed[i].message);
        assert_null(image.pixels);
    }
    struct clmem_error err = {0};
    struct clmem_image image;
    snprintf(t->path, sizeof t->path, "%s/missing.pgm", t->dir);
    assert_int_equal(clmem_netpbm_read(t->path, &image, &err), CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, "cannot open image"));
    assert_non_null(strstr(err.message, "missing.pgm"));
}

/* Through a pipe the size is not known in advance: the short read itself
 * is the truncation found. */
static void truncated_pipe_refused(void **state)
{
    struct tmp *t = *state;
    static const char data[] = "P5\n4 4\n255\n0123456789abcde"; /* 15 of 16 bytes */
    snprintf(t->path, sizeof t->path, "%s/fifo.pgm", t->dir);
    assert_int_equal(mkfifo(t->path, 0600), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        FILE *f = fopen(t->path, "wb");
        fwrite(data, 1, sizeof data - 1, f);
        fclose(f);
        _exit(0);
    }
    struct clmem_error err = {0};
    struct clmem_image image;
    assert_int_equal(clmem_netpbm_read(t->path, &image, &err), CLMEM_ERR_USAGE);
    waitpid(child, NULL, 0);
    unlink(t->path);
    if (!strstr(err.message, "truncated pixel data: expected 16 bytes, got 15"))
        fail_msg("message '%s'", err.message);
}

static void failed_write_leaves_no_file(void **state)
{
    struct tmp *t = *state;
    struct clmem_error err = {0};
    struct clmem_image image;
    char path[256];
    size_t before = count_files(t->dir);
    assert_int_equal(clmem_image_generate(&image, 5, 3, 1, 1, &err), CLMEM_OK);
    /* A directory that is not there: nothing written anywhere. */
    snprintf(path, sizeof path, "%s/no/such/dir/out.pgm", t->dir);
    assert_int_equal(clmem_netpbm_write(path, &image, &err), CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, "cannot write"));
    /* Images netpbm cannot hold are refused before any file is made. */
    snprintf(path, sizeof path, "%s/out.pgm", t->dir);
    image.channels = 2;
    assert_int_equal(clmem_netpbm_write(path, &image, &err), CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, "2 channels"));
    image.channels = 1;
    image.maxval = 0;
    assert_int_equal(clmem_netpbm_write(path, &image, &err), CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, "maxval 0"));
    assert_int_equal(count_files(t->dir), before);
    assert_int_equal(access(path, F_OK), -1);
    /* A path where the target is a directory: the temporary file is made,
     * the rename fails, and the temporary file is gone again. */
    snprintf(path, sizeof path, "%s/adir", t->dir);
    assert_int_equal(mkdir(path, 0700), 0);
    image.maxval = 255;
    assert_int_equal(clmem_netpbm_write(path, &image, &err), CLMEM_ERR_USAGE);
    assert_int_equal(count_files(t->dir), before + 1);
    rmdir(path);
    clmem_image_free(&image);
}

static void generated_image_is_seeded(void **state)
{
    (void)state;
    struct clmem_error err = {0};
    struct clmem_image a, b, c;
    assert_int_equal(clmem_image_generate(&a, 17, 9, 3, 42, &err), CLMEM_OK);
    assert_int_equal(clmem_image_generate(&b, 17, 9, 3, 42, &err), CLMEM_OK);
    assert_int_equal(clmem_image_generate(&c, 17, 9, 3, 43, &err), CLMEM_OK);
    assert_int_equal(a.maxval, 255);
    assert_memory_equal(a.pixels, b.pixels, 17 * 9 * 3);
    assert_memory_not_equal(a.pixels, c.pixels, 17 * 9 * 3);
    clmem_image_free(&a);
    clmem_image_free(&b);
    clmem_image_free(&c);
    /* Fig 4.1's edge check. */
    assert_true(clmem_image_inside(0, 0, 1, 1));
    assert_false(clmem_image_inside(-1, 0, 1, 1));
    assert_false(clmem_image_inside(0, -1, 1, 1));
    assert_false(clmem_image_inside(1, 0, 1, 1));
    assert_false(clmem_image_inside(0, 1, 1, 1));
    assert_true(clmem_image_inside(2, 6, 3, 7));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grey_and_rgb_round_trip),
        cmocka_unit_test(comments_and_whitespace),
        cmocka_unit_test(raster_starts_after_one_whitespace),
        cmocka_unit_test(every_malformed_file_refused),
        cmocka_unit_test(truncated_pipe_refused),
        cmocka_unit_test(failed_write_leaves_no_file),
        cmocka_unit_test(generated_image_is_seeded),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
