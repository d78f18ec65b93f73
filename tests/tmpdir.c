/* Files of tests (tmpdir.h). */
#define _GNU_SOURCE /* nftw, program_invocation_short_name */
#include "tmpdir.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

static char dir[256];

int test_dir_setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/clmem-%s-XXXXXX", program_invocation_short_name);
    return mkdtemp(dir) ? 0 : -1;
}

/* Whether test_remove_tree's walk failed to remove something (nftw's
 * callback has no argument of its own). */
static int remove_failed;

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    if (remove(path) != 0)
        remove_failed = 1;
    return 0; /* on to the rest: a test's leftovers go as far as they can */
}

int test_remove_tree(const char *path)
{
    remove_failed = 0;
    return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS) == 0 && !remove_failed ? 0 : -1;
}

/* The names in `dir` that start with '.' (other than . and ..), and with
 * tmp_too those holding ".tmp.", each printed after `label`; a `dir` that
 * cannot be read holds none, or fails the test where it must_exist. */
static size_t left_behind(const char *dir, int tmp_too, const char *label, int must_exist)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    if (must_exist)
        assert_non_null(d);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        if ((e->d_name[0] == '.' && strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) ||
            (tmp_too && strstr(e->d_name, ".tmp."))) {
            print_message("%s: %s/%s\n", label, dir, e->d_name);
            n++;
        }
    if (d)
        closedir(d);
    return n;
}

size_t test_hidden_files(const char *dir)
{
    return left_behind(dir, 0, "left behind", 1);
}

size_t test_temp_files(const char *dir, const char *label)
{
    return left_behind(dir, 1, label, 0);
}

int test_dir_teardown(void **state)
{
    (void)state;
    return test_remove_tree(dir);
}

const char *test_dir(void)
{
    return dir;
}

/* `name` in `base`, in the next of a few buffers. */
static const char *path_in(const char *base, const char *name)
{
    static char paths[16][1200];
    static unsigned next;
    char *path = paths[next++ % 16];
    snprintf(path, sizeof paths[0], "%s/%s", base, name);
    return path;
}

const char *test_in_dir(const char *name)
{
    return path_in(dir, name);
}

const char *test_bench_file(const char *name)
{
    const char *bench = getenv("CLMEM_BENCH_DIR");
    if (!bench)
        fail_msg("set CLMEM_BENCH_DIR (meson test does)");
    return path_in(bench, name);
}

char *test_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    /* To the end, whatever its size says (a pipe, a file of /proc). */
    size_t cap = 1 << 16, n = 0, got;
    char *text = malloc(cap);
    assert_non_null(text);
    while ((got = fread(text + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            text = realloc(text, cap *= 2);
            assert_non_null(text);
        }
    }
    int failed = ferror(f), saved = errno;
    fclose(f);
    if (failed) {
        free(text);
        errno = saved;
        return NULL;
    }
    text[n] = '\0';
    return text;
}

const char *test_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        fail_msg("cannot write '%s': %s", path, strerror(errno));
    assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    assert_int_equal(fclose(f), 0);
    return path;
}
