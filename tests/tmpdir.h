/* Files of tests: the test's temporary directory, made and removed without
 * a shell, paths in it and in bench/, whole files read and written,
 * temporary files left behind (JSON files: json_file.h). */
#ifndef CLMEM_TEST_TMPDIR_H
#define CLMEM_TEST_TMPDIR_H

#include <stddef.h>

/* A cmocka group's setup and teardown for a test with one temporary
 * directory, test_dir(): /tmp/clmem-PROGRAM-XXXXXX, made at the start and
 * removed with everything in it at the end. 0 when done, else -1. */
int test_dir_setup(void **state);
int test_dir_teardown(void **state);
const char *test_dir(void);
/* Removes `path` and everything below it (not following links), going on
 * past what it cannot remove; 0 when all is gone. */
int test_remove_tree(const char *path);
/* Names in `dir` that start with '.', other than . and ..: an output's
 * temporary file (.NAME.XXXXXX) or a report's (.tmp.) left behind, each
 * printed. */
size_t test_hidden_files(const char *dir);
/* Those and the names holding ".tmp." (a report directory's
 * NAME.tmp.XXXXXX), each printed after `label`; none where `dir` is
 * missing. */
size_t test_temp_files(const char *dir, const char *label);

/* NAME in test_dir(), and in $CLMEM_BENCH_DIR (bench/, as meson test sets
 * it): each in a buffer of its own, the last 16 good at once. */
const char *test_in_dir(const char *name);
const char *test_bench_file(const char *name);

/* The whole of a file, NUL-terminated (malloc'd); NULL when it cannot be
 * read, errno saying why. */
char *test_read_file(const char *path);
/* Writes `text` as the whole of `path` (the test fails when it cannot);
 * returns `path`. */
const char *test_write_file(const char *path, const char *text);

#endif
