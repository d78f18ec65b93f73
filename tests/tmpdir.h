/* Temporary directories of tests, made and removed without a shell. */
#ifndef CLMEM_TEST_TMPDIR_H
#define CLMEM_TEST_TMPDIR_H

/* mkdtemp of `templ` ("/tmp/clmem-NAME-XXXXXX"); 0 when made, else -1. */
int test_tmpdir_make(char *templ);
/* Removes `path` and everything below it (not following links); 0 when gone. */
int test_remove_tree(const char *path);

#endif
