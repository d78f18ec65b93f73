/* Two tunes at once on one tuning.json (clmem_tuning_db_store from several
 * processes, each keeping its own entries): every entry is there at the
 * end, none lost to another process's read-modify-write; the same for one
 * device's fitted rows (clmem_fit_keep). An entry with a value no
 * parameter takes: ignored, and said. No device. */
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

#include "harness/harness.h"
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
                struct clmem_tuning_outcome outcome = {2, 1, "GB/s", 0, NULL};
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

/* Several whole-device fits of one device at once, each keeping rows of
 * tables of its own (clmem_fit_keep reads the device's fitted file, merges
 * and renames over it): every row is there at the end. */
#define FITTERS 4
#define KEEPS   8
static void concurrent_fits_lose_no_row(void **state)
{
    (void)state;
    setenv("XDG_CACHE_HOME", test_dir(), 1);
    struct clmem_ctx ctx = {0};
    snprintf(ctx.device.name, sizeof ctx.device.name, "fitted-lock-test");
    snprintf(ctx.device.driver, sizeof ctx.device.driver, "drv");
    ctx.device.type = CL_DEVICE_TYPE_GPU;
    pid_t pids[FITTERS];
    for (int w = 0; w < FITTERS; w++) {
        pids[w] = fork();
        assert_true(pids[w] >= 0);
        if (pids[w] == 0) {
            for (int i = 0; i < KEEPS; i++) {
                struct clmem_pdb_row row = {.level = 0, .n_values = 1, .values = {w * 100 + i}};
                snprintf(row.match, sizeof row.match, "%s", ctx.device.name);
                snprintf(row.workload, sizeof row.workload, "matmul");
                snprintf(row.table, sizeof row.table, "t%d_%d", w, i);
                snprintf(row.type, sizeof row.type, "gpu");
                snprintf(row.names[0], sizeof row.names[0], "V");
                snprintf(row.provenance.device, sizeof row.provenance.device, "%s",
                         ctx.device.name);
                snprintf(row.provenance.driver, sizeof row.provenance.driver, "drv");
                snprintf(row.provenance.date, sizeof row.provenance.date, "2026-12-07");
                snprintf(row.provenance.command, sizeof row.provenance.command, "a test");
                snprintf(row.provenance.note, sizeof row.provenance.note, "writer %d", w);
                struct clmem_fit fit = {.rows = &row, .n_rows = 1, .cap = 1};
                struct clmem_error err = {0};
                if (clmem_fit_keep(&ctx, &fit, &err) != CLMEM_OK) {
                    fprintf(stderr, "keep: %s\n", err.message);
                    _exit(1);
                }
            }
            _exit(0);
        }
    }
    for (int w = 0; w < FITTERS; w++) {
        int rc;
        assert_int_equal(waitpid(pids[w], &rc, 0), pids[w]);
        assert_true(WIFEXITED(rc) && WEXITSTATUS(rc) == 0);
    }
    struct clmem_pdb rows;
    struct clmem_error err = {0};
    assert_int_equal(clmem_fit_rows(&ctx.device, &rows, &err), CLMEM_OK);
    size_t lost = 0;
    for (int w = 0; w < FITTERS; w++)
        for (int i = 0; i < KEEPS; i++) {
            char table[32];
            int found = 0;
            snprintf(table, sizeof table, "t%d_%d", w, i);
            for (size_t r = 0; r < rows.n_rows && !found; r++)
                found = !strcmp(rows.rows[r].table, table);
            lost += !found;
        }
    clmem_pdb_free(&rows);
    if (lost)
        fail_msg("%zu of %d fitted rows lost", lost, FITTERS * KEEPS);
}

/* An entry whose parameter is no value a kernel can take (a hand edit gone
 * wrong) is ignored with a warning naming the file, the entry, the value
 * and why, never taken (8.5 as 8) nor dropped in silence; a good entry
 * still applies, without a word. */
static void invalid_values_are_said(void **state)
{
    (void)state;
    char dir[1100], path[1100];
    snprintf(dir, sizeof dir, "%s/words", test_dir());
    assert_int_equal(mkdir(dir, 0700), 0);
    setenv("XDG_CACHE_HOME", dir, 1);
    snprintf(dir, sizeof dir, "%s/words/clmem", test_dir());
    assert_int_equal(mkdir(dir, 0700), 0);
    assert_int_equal(clmem_tuning_path(path, sizeof path), 0);
    static const struct {
        const char *value, *says; /* NULL: taken */
    } cases[] = {
        {"0", "has TILE_DIM 0, which is not a whole number from 1 to 2147483647"},
        {"-8", "has TILE_DIM -8, which is not"},
        {"8.5", "has TILE_DIM 8.5, which is not"},
        {"\"8\"", "has TILE_DIM \"8\", which is not"},
        {"1e12", "has TILE_DIM 1000000000000, which is not"},
        {"true", "has TILE_DIM true, which is not"},
        {NULL, "has no TILE_DIM"},
        {"8", NULL},
    };
    static const char *const names[] = {"TILE_DIM", "BLOCK_ROWS"};
    struct clmem_tuning_key key = {"dev", "drv", "transpose", "padded", "N<=64"};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fprintf(f,
                "{\"clmem_tuning\": 1, \"entries\": [{\"device\": \"dev\", \"driver\": "
                "\"drv\", \"workload\": \"transpose\", \"variant\": \"padded\", "
                "\"size_class\": \"N<=64\", \"params\": {%s%s%s\"BLOCK_ROWS\": 2}, "
                "\"builtin\": false}]}\n",
                cases[i].value ? "\"TILE_DIM\": " : "", cases[i].value ? cases[i].value : "",
                cases[i].value ? ", " : "");
        assert_int_equal(fclose(f), 0);
        assert_int_equal(chmod(path, 0600), 0);
        int values[2] = {0, 0};
        char warning[1200] = "";
        int found = clmem_tuning_db_lookup(&key, names, 2, values, warning, sizeof warning);
        if (!cases[i].says) {
            if (!found || values[0] != 8 || values[1] != 2 || warning[0])
                fail_msg("TILE_DIM %s: found %d, values %d %d, warning '%s'", cases[i].value, found,
                         values[0], values[1], warning);
            continue;
        }
        if (found)
            fail_msg("TILE_DIM %s taken as %d", cases[i].value ? cases[i].value : "(none)",
                     values[0]);
        char entry[1300];
        snprintf(entry, sizeof entry,
                 "tuning database '%s': the entry for transpose padded on 'dev' (N<=64) ", path);
        if (strncmp(warning, entry, strlen(entry)) != 0 || !strstr(warning, cases[i].says) ||
            !strstr(warning, ": ignored, the built-in parameters used"))
            fail_msg("TILE_DIM %s: warning '%s'", cases[i].value ? cases[i].value : "(none)",
                     warning);
        /* Looked up again (the next variant), it is said once. */
        clmem_tuning_db_lookup(&key, names, 2, values, warning, sizeof warning);
        assert_null(strstr(strstr(warning, cases[i].says) + 1, cases[i].says));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(concurrent_stores_lose_no_entry),
        cmocka_unit_test(concurrent_fits_lose_no_row),
        cmocka_unit_test(invalid_values_are_said),
    };
    return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
