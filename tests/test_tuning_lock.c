/* Two tunes at once on one tuning.json (clmem_tuning_db_store from several
 * processes, each keeping its own entries): every entry is there at the
 * end, none lost to another process's read-modify-write. No device. */
#define _DEFAULT_SOURCE
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

#include "io/io.h"
#include "tmpdir.h"

#define WRITERS 6
#define STORES  25

static void concurrent_stores_lose_no_entry(void **state)
{
    (void)state;
    setenv("XDG_CACHE_HOME", test_dir(), 1);
    pid_t pids[WRITERS];
    for (int w = 0; w < WRITERS; w++) {
        pids[w] = fork();
        assert_true(pids[w] >= 0);
        if (pids[w] == 0) {
            static const char *const names[] = {"TILE"};
            for (int i = 0; i < STORES; i++) {
                char workload[32], size_class[32];
                snprintf(workload, sizeof workload, "w%d", w);
                snprintf(size_class, sizeof size_class, "s%d", i);
                struct clmem_tuning_key key = {"dev", "drv", workload, "v", size_class};
                struct clmem_tuning_outcome outcome = {2, 1, "GB/s", 0};
                int values[] = {16};
                struct clmem_error err = {0};
                if (clmem_tuning_db_store(&key, names, values, 1, &outcome, &err) != CLMEM_OK) {
                    fprintf(stderr, "store: %s\n", err.message);
                    _exit(1);
                }
            }
            _exit(0);
        }
    }
    for (int w = 0; w < WRITERS; w++) {
        int rc;
        assert_int_equal(waitpid(pids[w], &rc, 0), pids[w]);
        assert_true(WIFEXITED(rc) && WEXITSTATUS(rc) == 0);
    }
    char path[1100];
    assert_int_equal(clmem_tuning_path(path, sizeof path), 0);
    char *db = test_read_file(path);
    assert_non_null(db);
    size_t lost = 0;
    for (int w = 0; w < WRITERS; w++)
        for (int i = 0; i < STORES; i++) {
            char both[128];
            /* cJSON_Print: one field a line, workload then variant then size_class. */
            snprintf(both, sizeof both,
                     "\"w%d\",\n\t\t\t\"variant\":\t\"v\",\n\t\t\t\"size_class\":\t\"s%d\"", w, i);
            lost += strstr(db, both) == NULL;
        }
    free(db);
    if (lost)
        fail_msg("%zu of %d entries lost", lost, WRITERS * STORES);
    /* The lock file: private, as the database. */
    struct stat st;
    char lock[1200];
    snprintf(lock, sizeof lock, "%s.lock", path);
    assert_int_equal(stat(lock, &st), 0);
    assert_int_equal(st.st_mode & 077, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(concurrent_stores_lose_no_entry),
    };
    return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
