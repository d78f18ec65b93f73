/* The tuning database: what `clmem tune` found best, per device, driver,
 * workload, variant and size class, kept as JSON (cJSON) and written whole
 * or not at all. It is read only from a file and a directory that this
 * user alone can write (io.h, state files): the parameters it holds
 * choose the kernels that run. harness/tuning_entries.c asks it for a run. */
#define _DEFAULT_SOURCE /* flock */
#include "io/io.h"

#include <cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

int clmem_tuning_path(char *path, size_t size)
{
    char dir[1024];
    const char *why;
    if (clmem_state_dir(NULL, dir, sizeof dir, &why) != 0)
        return -1;
    int n = snprintf(path, size, "%s/tuning.json", dir);
    return n > 0 && (size_t)n < size ? 0 : -1;
}

/* The whole database, or NULL: missing (`problem` left empty) or not to
 * be used (`problem` says why: unreadable, not valid, or not trusted). */
static cJSON *load(const char *path, char *problem, size_t problem_size)
{
    FILE *f;
    char why[512];
    problem[0] = '\0';
    switch (clmem_state_open(path, &f, why, sizeof why)) {
    case CLMEM_STATE_OPENED: break;
    case CLMEM_STATE_MISSING: return NULL;
    case CLMEM_STATE_BAD_FILE:
    case CLMEM_STATE_BAD_DIR:
        snprintf(problem, problem_size, "tuning database '%s' %s", path, why);
        return NULL;
    }
    char *text = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 16384;
            char *grown = realloc(text, cap);
            if (!grown)
                break;
            text = grown;
        }
        got = fread(text + len, 1, 4096, f);
        len += got;
    } while (got == 4096);
    fclose(f);
    cJSON *db = NULL;
    struct clmem_json_check check = {.what = ""};
    if (text) {
        text[len] = '\0';
        /* Exactly JSON, UTF-8: what cJSON would read past (text after the
         * document, "02", bytes that are not UTF-8) is a hand edit gone
         * wrong, not a database. */
        if (clmem_json_check(text, len, 1, (size_t)1 << 20, &check) == 0)
            db = cJSON_ParseWithLength(text, len);
        free(text);
    }
    cJSON *entries = db ? cJSON_GetObjectItem(db, "entries") : NULL;
    if (!cJSON_IsArray(entries)) {
        if (check.fault != CLMEM_JSON_OK)
            snprintf(problem, problem_size,
                     "tuning database '%s' (%s%sat byte %zu) is not valid JSON of clmem's", path,
                     check.fault == CLMEM_JSON_EARLY_END ? "cut short " : check.what,
                     check.what[0] && check.fault != CLMEM_JSON_EARLY_END ? " " : "", check.at);
        else
            snprintf(problem, problem_size, "tuning database '%s' is not valid JSON of clmem's",
                     path);
        cJSON_Delete(db);
        return NULL;
    }
    return db;
}

static int text_is(const cJSON *o, const char *key, const char *value)
{
    const cJSON *item = cJSON_GetObjectItem(o, key);
    return cJSON_IsString(item) && strcmp(item->valuestring, value) == 0;
}

static int matches(const cJSON *e, const struct clmem_tuning_key *key)
{
    return text_is(e, "device", key->device) && text_is(e, "driver", key->driver) &&
           text_is(e, "workload", key->workload) && text_is(e, "variant", key->variant) &&
           text_is(e, "size_class", key->size_class);
}

void clmem_tuning_warn(char *warning, size_t size, const char *text)
{
    size_t len = strlen(warning);
    if (!size || strstr(warning, text))
        return;
    snprintf(warning + len, size - len, "%s%s", len ? "; " : "", text);
}

/* Whether v is a value a parameter can take: a whole number from 1 to
 * INT_MAX (the kernels' -D values are ints, each a count or a size). */
static int param_value(const cJSON *v, int *value)
{
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 1 && v->valuedouble <= INT_MAX) ||
        v->valuedouble != (double)(int)v->valuedouble)
        return 0;
    *value = (int)v->valuedouble;
    return 1;
}

/* 1 and values[] from the entry's parameters; 0 at the first that is
 * missing or not a value it can take, `why` saying which. */
static int entry_values(const cJSON *params, const char *const names[], size_t n, int values[],
                        char *why, size_t why_size)
{
    for (size_t i = 0; i < n; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(params, names[i]);
        if (param_value(v, &values[i]))
            continue;
        char *text = v ? cJSON_PrintUnformatted(v) : NULL;
        if (!v)
            snprintf(why, why_size, "has no %s", names[i]);
        else
            snprintf(why, why_size, "has %s %.40s%s, which is not a whole number from 1 to %d",
                     names[i], text ? text : "(?)", text && strlen(text) > 40 ? "..." : "",
                     INT_MAX);
        free(text);
        return 0;
    }
    return 1;
}

int clmem_tuning_db_lookup(const struct clmem_tuning_key *key, const char *const names[], size_t n,
                           int values[], char *warning, size_t warning_size)
{
    char path[1024];
    if (clmem_tuning_path(path, sizeof path) != 0)
        return 0;
    char problem[1024];
    cJSON *db = load(path, problem, sizeof problem), *e;
    if (problem[0]) {
        char text[1100];
        snprintf(text, sizeof text, "%s: ignored", problem);
        clmem_tuning_warn(warning, warning_size, text);
    }
    cJSON *entries = db ? cJSON_GetObjectItem(db, "entries") : NULL;
    int found = 0;
    cJSON_ArrayForEach(e, entries)
    {
        if (!matches(e, key))
            continue;
        /* The built-in parameters won: nothing to apply. */
        if (cJSON_IsTrue(cJSON_GetObjectItem(e, "builtin")))
            break;
        /* A value no parameter takes (0, -8, 8.5, "8"): a hand edit gone
         * wrong, said rather than built, or taken as 8 in silence. */
        char why[160];
        found = entry_values(cJSON_GetObjectItem(e, "params"), names, n, values, why, sizeof why);
        if (!found) {
            char text[1500];
            snprintf(text, sizeof text,
                     "tuning database '%s': the entry for %s %s on '%s' (%s) %s: ignored, the "
                     "built-in parameters used",
                     path, key->workload, key->variant, key->device, key->size_class, why);
            clmem_tuning_warn(warning, warning_size, text);
        }
        break;
    }
    cJSON_Delete(db);
    return found;
}

/* Where the database goes, checked before any search and again before
 * the write: the directory made (0700) and this user's alone, the file
 * absent or a regular file. */
static int tuning_place(char *path, size_t size, struct clmem_error *err)
{
    char dir[1024], why[256];
    const char *none;
    struct stat st;
    if (clmem_state_dir(NULL, dir, sizeof dir, &none) != 0)
        return clmem_fail(err, CLMEM_ERR_USAGE, "no place for the tuning database: %s", none);
    if (clmem_state_mkdir(dir) != 0)
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot make the tuning directory '%s': %s", dir,
                          strerror(errno));
    if (clmem_state_dir_check(dir, why, sizeof why) != 0)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "tuning directory '%s' %s: runs would ignore what tune keeps there "
                          "(chmod 700 it, or set XDG_CACHE_HOME)",
                          dir, why);
    if (snprintf(path, size, "%s/tuning.json", dir) >= (int)size)
        return clmem_fail(err, CLMEM_ERR_USAGE, "tuning database path '%s/tuning.json' is too long",
                          dir);
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "tuning database '%s' is %s, not a regular file (remove it)", path,
                          clmem_state_kind(st.st_mode));
    if (access(dir, W_OK) != 0)
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write the tuning database in '%s': %s", dir,
                          strerror(errno));
    return CLMEM_OK;
}

static int open_lock(const char *path, int *fd, struct clmem_error *err);

/* A database that is there but cannot be used is left as it is: its
 * other entries may be worth more than a new one (a hand edit gone wrong),
 * and whoever made it decides. */
static int usable(const char *path, cJSON **db, struct clmem_error *err)
{
    char problem[1024];
    *db = load(path, problem, sizeof problem);
    if (problem[0])
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "%s: tune would replace it, losing what it holds (fix or remove it)",
                          problem);
    return CLMEM_OK;
}

int clmem_tuning_prepare(struct clmem_error *err)
{
    char path[1024];
    cJSON *db = NULL;
    int status = tuning_place(path, sizeof path, err), lock = -1;
    if (status == CLMEM_OK)
        status = usable(path, &db, err);
    /* The lock the store will take, looked at now (a link, a directory,
     * another user's file): found after the search, the search is lost. */
    if (status == CLMEM_OK && (status = open_lock(path, &lock, err)) == CLMEM_OK)
        close(lock);
    cJSON_Delete(db);
    return status;
}

/* Two tunes at once each read the database, add their entry and rename
 * their file over it: one entry would be lost. An exclusive lock on
 * tuning.json.lock beside it (0600, this user's, never a link), held from
 * the read to the rename, makes the second read what the first wrote. The
 * lock file stays: removing it would let a third process lock a new file
 * while the second still holds the old one. open_lock opens it (checked:
 * a regular file of this user's, 0600), lock_db locks it; the descriptor
 * in *fd. */
static int open_lock(const char *path, int *fd, struct clmem_error *err)
{
    char lock[1100];
    struct stat st;
    snprintf(lock, sizeof lock, "%s.lock", path);
    *fd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
    if (*fd < 0 && (errno == ELOOP || errno == EISDIR))
        return clmem_fail(
            err, CLMEM_ERR_USAGE,
            "cannot lock the tuning database: '%s' is %s, not a private file of yours "
            "(remove it)",
            lock, errno == ELOOP ? "a symbolic link" : "a directory");
    if (*fd < 0)
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot lock the tuning database ('%s'): %s", lock,
                          strerror(errno));
    if (fstat(*fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
        (st.st_mode & 077)) {
        close(*fd);
        *fd = -1;
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "cannot lock the tuning database: '%s' is not a private file of yours "
                          "(remove it)",
                          lock);
    }
    return CLMEM_OK;
}

static int lock_db(const char *path, int *fd, struct clmem_error *err)
{
    int status = open_lock(path, fd, err), rc;
    while (!status && (rc = flock(*fd, LOCK_EX)) != 0)
        if (errno != EINTR)
            status = clmem_fail(err, CLMEM_ERR_USAGE, "cannot lock the tuning database: %s",
                                strerror(errno));
    if (status && *fd >= 0) {
        close(*fd);
        *fd = -1;
    }
    return status;
}

int clmem_tuning_lock(int *fd, struct clmem_error *err)
{
    char path[1024];
    int status = tuning_place(path, sizeof path, err);
    return status ? status : lock_db(path, fd, err);
}

static int store_locked(const char *path, const struct clmem_tuning_key *key,
                        const char *const names[], const int values[], size_t n,
                        const struct clmem_tuning_outcome *outcome, struct clmem_error *err);
static int write_db(const char *path, cJSON *db, struct clmem_error *err);

int clmem_tuning_db_store(const struct clmem_tuning_key *key, const char *const names[],
                          const int values[], size_t n, const struct clmem_tuning_outcome *outcome,
                          struct clmem_error *err)
{
    char path[1024];
    int status = tuning_place(path, sizeof path, err);
    if (status)
        return status;
    int lock;
    if ((status = lock_db(path, &lock, err)))
        return status;
    status = store_locked(path, key, names, values, n, outcome, err);
    close(lock); /* releases the lock, after the rename */
    return status;
}

/* Read, merge and replace, under the lock: what another tune kept is read
 * here, after it renamed its file. */
static int store_locked(const char *path, const struct clmem_tuning_key *key,
                        const char *const names[], const int values[], size_t n,
                        const struct clmem_tuning_outcome *outcome, struct clmem_error *err)
{
    int status;
    cJSON *db = NULL;
    if ((status = usable(path, &db, err)))
        return status;
    if (!db) {
        db = cJSON_CreateObject();
        cJSON_AddNumberToObject(db, "clmem_tuning", 1);
        cJSON_AddArrayToObject(db, "entries");
    }
    cJSON *entries = cJSON_GetObjectItem(db, "entries");
    for (int i = cJSON_GetArraySize(entries) - 1; i >= 0; i--)
        if (matches(cJSON_GetArrayItem(entries, i), key))
            cJSON_DeleteItemFromArray(entries, i);
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "device", key->device);
    cJSON_AddStringToObject(e, "driver", key->driver);
    cJSON_AddStringToObject(e, "workload", key->workload);
    cJSON_AddStringToObject(e, "variant", key->variant);
    cJSON_AddStringToObject(e, "size_class", key->size_class);
    cJSON *params = cJSON_AddObjectToObject(e, "params");
    for (size_t i = 0; i < n; i++)
        cJSON_AddNumberToObject(params, names[i], values[i]);
    cJSON_AddNumberToObject(e, "metric", outcome->metric);
    cJSON_AddNumberToObject(e, "default_metric", outcome->default_metric);
    cJSON_AddStringToObject(e, "unit", outcome->unit);
    cJSON_AddBoolToObject(e, "builtin", outcome->builtin);
    if (outcome->shape)
        cJSON_AddStringToObject(e, "shape", outcome->shape);
    cJSON_AddItemToArray(entries, e);
    status = write_db(path, db, err);
    cJSON_Delete(db);
    return status;
}

static void copy_text(const cJSON *e, const char *key, char *out, size_t size)
{
    const cJSON *item = cJSON_GetObjectItem(e, key);
    clmem_text_copy(out, size, cJSON_IsString(item) ? item->valuestring : "");
}

static double number_of(const cJSON *e, const char *key)
{
    const cJSON *item = cJSON_GetObjectItem(e, key);
    return cJSON_IsNumber(item) ? item->valuedouble : 0;
}

int clmem_tuning_db_entries(const char *device, struct clmem_tuning_entry **entries, size_t *n,
                            struct clmem_error *err)
{
    char path[1024], problem[1024];
    *entries = NULL;
    *n = 0;
    if (clmem_tuning_path(path, sizeof path) != 0)
        return CLMEM_OK;
    cJSON *db = load(path, problem, sizeof problem), *e;
    if (problem[0])
        return clmem_fail(err, CLMEM_ERR_USAGE, "%s", problem);
    cJSON *list = db ? cJSON_GetObjectItem(db, "entries") : NULL;
    int size = cJSON_GetArraySize(list);
    if (size > 0 && !(*entries = calloc((size_t)size, sizeof **entries))) {
        cJSON_Delete(db);
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    }
    cJSON_ArrayForEach(e, list)
    {
        if (device && !text_is(e, "device", device))
            continue;
        struct clmem_tuning_entry *t = &(*entries)[(*n)++];
        copy_text(e, "device", t->device, sizeof t->device);
        copy_text(e, "driver", t->driver, sizeof t->driver);
        copy_text(e, "workload", t->workload, sizeof t->workload);
        copy_text(e, "variant", t->variant, sizeof t->variant);
        copy_text(e, "size_class", t->size_class, sizeof t->size_class);
        copy_text(e, "unit", t->unit, sizeof t->unit);
        copy_text(e, "shape", t->shape, sizeof t->shape);
        t->metric = number_of(e, "metric");
        t->default_metric = number_of(e, "default_metric");
        t->builtin = cJSON_IsTrue(cJSON_GetObjectItem(e, "builtin"));
        const cJSON *p;
        size_t used = 0;
        cJSON_ArrayForEach(p, cJSON_GetObjectItem(e, "params"))
        {
            if (!cJSON_IsNumber(p) || !p->string || used >= sizeof t->params)
                continue;
            int k = snprintf(t->params + used, sizeof t->params - used, "%s%s=%d", used ? " " : "",
                             p->string, p->valueint);
            used += k > 0 ? (size_t)k : 0;
        }
    }
    cJSON_Delete(db);
    return CLMEM_OK;
}

/* The database written whole (0600), under the caller's lock. */
static int write_db(const char *path, cJSON *db, struct clmem_error *err)
{
    char *text = cJSON_Print(db);
    if (!text)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    struct clmem_output out;
    /* 0600: read back only when no one else can write it. */
    int status = clmem_output_open_private(&out, path, err);
    if (status == CLMEM_OK) {
        fprintf(out.file, "%s\n", text);
        status = clmem_output_commit(&out, err);
    }
    free(text);
    return status;
}

int clmem_tuning_db_remove(const char *device, const char *workload, size_t *removed,
                           struct clmem_error *err)
{
    char path[1024];
    *removed = 0;
    int status = tuning_place(path, sizeof path, err), lock;
    if (status || (status = lock_db(path, &lock, err)))
        return status;
    cJSON *db = NULL;
    /* Read under the lock: what a tune kept just before is read here. */
    if ((status = usable(path, &db, err)) == CLMEM_OK && db) {
        cJSON *entries = cJSON_GetObjectItem(db, "entries");
        for (int i = cJSON_GetArraySize(entries) - 1; i >= 0; i--) {
            const cJSON *e = cJSON_GetArrayItem(entries, i);
            if ((!device || text_is(e, "device", device)) &&
                (!workload || text_is(e, "workload", workload))) {
                cJSON_DeleteItemFromArray(entries, i);
                (*removed)++;
            }
        }
        if (*removed)
            status = write_db(path, db, err);
    }
    cJSON_Delete(db);
    close(lock); /* releases the lock, after the rename */
    return status;
}
