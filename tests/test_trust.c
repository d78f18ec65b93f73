/* What clmem trusts on disk (src/io/state.c): the compiled-program cache
 * and the tuning database are read only from files that this user alone
 * can write, in directories that this user alone can write. Group write is
 * as bad as others' write: entries of mode 0660 and 0620, directories of
 * 0770 and 0775 (others can only read; a check of S_IWOTH alone passes
 * them) are not loaded: one warning, the program built again, the built-in
 * parameters used; tune refuses to keep its database there. Runs
 * $CLMEM_BIN on PoCL, each in a cache directory of its own (PoCL's kernel
 * cache stays in the test's, $XDG_CACHE_HOME/pocl, so that builds are
 * warm from the second run of the test on). */
#include <cJSON.h>
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_run.h"
#include "tmpdir.h"

/* The modes that group (and not others) can write, and one of each. */
static const mode_t file_modes[] = {0660, 0620};
static const mode_t dir_modes[] = {0770, 0775};

static size_t count_of(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, what)) != NULL; p++)
        n++;
    return n;
}

/* The one entry of `dir` (not . or ..). */
static void only_file(const char *dir, char *path, size_t size)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    path[0] = '\0';
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            snprintf(path, size, "%s/%s", dir, e->d_name);
            n++;
        }
    closedir(d);
    if (n != 1)
        fail_msg("'%s' holds %zu entries, not 1", dir, n);
}

/* A cache directory of the test's own under /tmp, and the environment
 * that points clmem at it (PoCL's kernel cache kept in the test's). */
struct place {
    char dir[64], pocl[1024], clmem[128];
    const char *env[9];
};

static void place_make(struct place *p)
{
    snprintf(p->dir, sizeof p->dir, "/tmp/clmem-trust-XXXXXX");
    assert_non_null(mkdtemp(p->dir));
    const char *cache = getenv("XDG_CACHE_HOME");
    snprintf(p->pocl, sizeof p->pocl, "%s/pocl", cache && cache[0] ? cache : p->dir);
    snprintf(p->clmem, sizeof p->clmem, "%s/clmem", p->dir);
    const char *env[] = {
        "XDG_CACHE_HOME", p->dir, "POCL_CACHE_DIR", p->pocl, "CLMEM_DEBUG", "1", NULL};
    memcpy(p->env, env, sizeof env);
}

static void place_remove(struct place *p)
{
    chmod(p->clmem, 0700);
    assert_int_equal(test_remove_tree(p->dir), 0);
}

/* ---- the compiled-program cache ---- */

/* A small run that builds one program (atomics.cl), tracing builds. */
#define CACHE_RUN                                                                                  \
    ARGS("run", "atomics", "--variant", "atomic_global", "--size", "1000", "--reps", "1",          \
         "--warmup", "0", "--device", "cpu")

/* Runs CACHE_RUN: exit 0, the program from the cache or not (`hit`), and
 * with `warning` one warning that holds it and "writable by group or
 * others", else none. */
static void cache_run(const struct place *p, int hit, const char *warning)
{
    static struct outcome o;
    run_clmem(&o, p->env, CACHE_RUN);
    int loaded = strstr(o.err, "from the cache") != NULL;
    size_t warnings = count_of(o.err, "clmem: warning:");
    if (o.code != 0 || loaded != hit || warnings != (warning ? 1u : 0u) ||
        (warning && (!strstr(o.err, warning) || !strstr(o.err, "writable by group or others"))))
        fail_msg("expected exit 0, %s the cache, %s '%s'; got exit %d, stderr '%s'",
                 hit ? "loaded from" : "not loaded from", warning ? "a warning with" : "no warning",
                 warning ? warning : "", o.code, o.err);
}

static void group_writable_cache_is_not_loaded(void **state)
{
    (void)state;
    struct place p;
    place_make(&p);
    char programs[160], entry[512], mode[32];
    snprintf(programs, sizeof programs, "%s/programs", p.clmem);
    cache_run(&p, 0, NULL);
    cache_run(&p, 1, NULL);
    for (size_t i = 0; i < sizeof file_modes / sizeof *file_modes; i++) {
        /* The entry: not loaded, replaced by one of the user's alone,
         * which the next run loads. */
        only_file(programs, entry, sizeof entry);
        assert_int_equal(chmod(entry, file_modes[i]), 0);
        snprintf(mode, sizeof mode, "(mode %04o)", (unsigned)file_modes[i]);
        cache_run(&p, 0, mode);
        cache_run(&p, 1, NULL);
    }
    for (size_t i = 0; i < sizeof dir_modes / sizeof *dir_modes; i++) {
        /* The directory of entries: nothing in it loaded until it is the
         * user's alone again. */
        assert_int_equal(chmod(programs, dir_modes[i]), 0);
        snprintf(mode, sizeof mode, "(mode %04o)", (unsigned)dir_modes[i]);
        cache_run(&p, 0, mode);
        cache_run(&p, 0, mode);
        assert_int_equal(chmod(programs, 0700), 0);
        cache_run(&p, 1, NULL);
    }
    place_remove(&p);
}

/* ---- the tuning database ---- */

/* regblock at 33 with the tuning database's parameters: WPTM 8 where the
 * built-in one is 16. */
#define TUNED_RUN                                                                                  \
    ARGS("run", "matmul", "--variant", "regblock", "--size", "33", "--reps", "1", "--warmup", "0", \
         "--device", "cpu")
#define TUNED_PARAM "-DWPTM=8 "
#define TUNE                                                                                       \
    ARGS("tune", "matmul", "--variant", "regblock", "--device", "cpu", "--size", "33",             \
         "--max-candidates", "1")

/* Writes a tuning database (0600) holding one entry for regblock at 33 on
 * this device, named as `clmem run --format json` names it. */
static void write_database(const struct place *p, const char *path)
{
    static struct outcome o;
    run_clmem(&o, p->env,
              ARGS("run", "matmul", "--variant", "regblock", "--size", "33", "--reps", "1",
                   "--warmup", "0", "--device", "cpu", "--format", "json"));
    assert_int_equal(o.code, 0);
    cJSON *run = cJSON_Parse(o.out);
    const cJSON *device = cJSON_GetObjectItemCaseSensitive(run, "device");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(device, "name"),
                *driver = cJSON_GetObjectItemCaseSensitive(device, "driver");
    if (!cJSON_IsString(name) || !cJSON_IsString(driver))
        fail_msg("no device name and driver in: %s", o.out);
    cJSON *db = cJSON_Parse(
        "{\"clmem_tuning\": 1, \"entries\": [{\"workload\": \"matmul\", \"variant\": "
        "\"regblock\", \"size_class\": \"N<=64\", \"params\": {\"TSM\": 16, \"TSN\": 64, "
        "\"TSK\": 8, \"WPTM\": 8, \"WPTN\": 32}, \"metric\": 2, \"default_metric\": 1, "
        "\"unit\": \"GFLOP/s\", \"builtin\": false}]}");
    assert_non_null(db);
    cJSON *entry = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(db, "entries"), 0);
    cJSON_AddStringToObject(entry, "device", name->valuestring);
    cJSON_AddStringToObject(entry, "driver", driver->valuestring);
    char *text = cJSON_Print(db);
    test_write_file(path, text);
    assert_int_equal(chmod(path, 0600), 0);
    free(text);
    cJSON_Delete(db);
    cJSON_Delete(run);
}

/* Runs TUNED_RUN: exit 0 and the database's parameters used; or, with
 * `warning`, a warning about the database that holds it, and the built-in
 * parameters. */
static void tuned_run(const struct place *p, const char *warning)
{
    static struct outcome o;
    run_clmem(&o, p->env, TUNED_RUN);
    char all[sizeof o.out + sizeof o.err];
    snprintf(all, sizeof all, "%s%s", o.out, o.err);
    int tuned = strstr(all, TUNED_PARAM) != NULL && strstr(all, "tuned parameters") != NULL;
    int warned = strstr(o.err, "clmem: warning: tuning database") != NULL;
    if (o.code != 0 || tuned != !warning || warned != !!warning ||
        (warning && (!strstr(o.err, warning) || !strstr(o.err, "writable by group or others"))))
        fail_msg("expected exit 0, %s, %s '%s'; got exit %d, stdout '%s', stderr '%s'",
                 warning ? "the built-in parameters"
                         : "the database's parameters (" TUNED_PARAM ")",
                 warning ? "a warning with" : "no warning", warning ? warning : "", o.code, o.out,
                 o.err);
}

/* tune refuses a database it does not trust, before any search. */
static void tune_refuses(const struct place *p, const char *why)
{
    static struct outcome o;
    run_clmem_within(&o, p->env, TUNE, REFUSAL_LIMIT_S);
    if (o.code != 2 || !strstr(o.err, why) || !strstr(o.err, "writable by group or others") ||
        o.out[0])
        fail_msg("tune: expected exit 2 with '%s' and no output; got exit %d, stdout '%s', "
                 "stderr '%s'",
                 why, o.code, o.out, o.err);
}

static void group_writable_tuning_database_is_ignored(void **state)
{
    (void)state;
    struct place p;
    place_make(&p);
    char path[160], mode[32];
    snprintf(path, sizeof path, "%s/tuning.json", p.clmem);
    write_database(&p, path);
    tuned_run(&p, NULL);
    for (size_t i = 0; i < sizeof file_modes / sizeof *file_modes; i++) {
        assert_int_equal(chmod(path, file_modes[i]), 0);
        snprintf(mode, sizeof mode, "(mode %04o)", (unsigned)file_modes[i]);
        tuned_run(&p, mode);
        tune_refuses(&p, mode);
        assert_int_equal(chmod(path, 0600), 0);
        tuned_run(&p, NULL);
    }
    for (size_t i = 0; i < sizeof dir_modes / sizeof *dir_modes; i++) {
        assert_int_equal(chmod(p.clmem, dir_modes[i]), 0);
        snprintf(mode, sizeof mode, "(mode %04o)", (unsigned)dir_modes[i]);
        tuned_run(&p, mode);
        tune_refuses(&p, mode);
        assert_int_equal(chmod(p.clmem, 0700), 0);
        tuned_run(&p, NULL);
    }
    place_remove(&p);
}

int main(int argc, char **argv)
{
    /* One test by name (or a pattern): test_NAME TEST. */
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(group_writable_cache_is_not_loaded),
        cmocka_unit_test(group_writable_tuning_database_is_ignored),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
