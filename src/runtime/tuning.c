/* The tuning database: what `clmem tune` found best, per device, driver,
 * workload, variant and size class, kept as JSON (cJSON) and written whole
 * or not at all. `run` and `bench` read it through clmem_tuning_lookup,
 * only from a file and a directory that this user alone can write
 * (state.h): the parameters it holds choose the kernels that run. */
#include "clmem/clmem.h"
#include "state.h"

#include <cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
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

void clmem_size_class(const struct clmem_size *size, char *out, size_t out_size)
{
    size_t largest = size->dim[0], c = 1;
    for (int i = 1; i < 3; i++)
        if (size->dim[i] > largest)
            largest = size->dim[i];
    while (c < largest && c < ((size_t)1 << 62))
        c *= 2;
    snprintf(out, out_size, "N<=%zu", c);
}

/* The whole database, or NULL: missing (no warning) or unreadable. */
static cJSON *load(struct clmem_ctx *ctx, const char *path)
{
    FILE *f;
    char why[512];
    switch (clmem_state_open(path, &f, why, sizeof why)) {
    case CLMEM_STATE_OPENED: break;
    case CLMEM_STATE_MISSING: return NULL;
    case CLMEM_STATE_BAD_FILE:
    case CLMEM_STATE_BAD_DIR:
        snprintf(ctx->tuning_warning, sizeof ctx->tuning_warning,
                 "tuning database '%s' %s: ignored", path, why);
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
    if (text) {
        text[len] = '\0';
        db = cJSON_Parse(text);
        free(text);
    }
    cJSON *entries = db ? cJSON_GetObjectItem(db, "entries") : NULL;
    if (!cJSON_IsArray(entries)) {
        snprintf(ctx->tuning_warning, sizeof ctx->tuning_warning,
                 "tuning database '%s' is not valid JSON of clmem's: ignored", path);
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

static int matches(const cJSON *e, const struct clmem_ctx *ctx, const struct clmem_workload *w,
                   const char *size_class)
{
    return text_is(e, "device", ctx->device.name) && text_is(e, "driver", ctx->device.driver) &&
           text_is(e, "workload", w->name) && text_is(e, "variant", w->tunable->variant) &&
           text_is(e, "size_class", size_class);
}

int clmem_tuning_lookup(struct clmem_ctx *ctx, const struct clmem_workload *w,
                        const struct clmem_size *size, int values[])
{
    char path[1024], size_class[64];
    if (!w->tunable || clmem_tuning_path(path, sizeof path) != 0)
        return 0;
    clmem_size_class(size, size_class, sizeof size_class);
    cJSON *db = load(ctx, path), *e;
    cJSON *entries = db ? cJSON_GetObjectItem(db, "entries") : NULL;
    int found = 0;
    cJSON_ArrayForEach(e, entries)
    {
        if (!matches(e, ctx, w, size_class))
            continue;
        /* The built-in parameters won: nothing to apply. */
        if (cJSON_IsTrue(cJSON_GetObjectItem(e, "builtin")))
            break;
        const cJSON *params = cJSON_GetObjectItem(e, "params");
        found = 1;
        for (size_t i = 0; i < w->tunable->n_params && found; i++) {
            const cJSON *v = cJSON_GetObjectItem(params, w->tunable->params[i].name);
            found = cJSON_IsNumber(v) && v->valueint > 0;
            if (found)
                values[i] = v->valueint;
        }
        /* An entry the device cannot run is as good as none. */
        found = found && w->tunable->valid(&ctx->device, values);
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

int clmem_tuning_prepare(struct clmem_error *err)
{
    char path[1024];
    return tuning_place(path, sizeof path, err);
}

int clmem_tuning_store(struct clmem_ctx *ctx, const struct clmem_workload *w,
                       const struct clmem_size *size, const int values[], double metric,
                       double default_metric, const char *unit, int builtin,
                       struct clmem_error *err)
{
    char path[1024], size_class[64];
    if (!w->tunable)
        return clmem_fail(err, CLMEM_ERR_USAGE, "workload '%s' has nothing to tune", w->name);
    int status = tuning_place(path, sizeof path, err);
    if (status)
        return status;
    clmem_size_class(size, size_class, sizeof size_class);
    cJSON *db = load(ctx, path);
    if (!db) {
        db = cJSON_CreateObject();
        cJSON_AddNumberToObject(db, "clmem_tuning", 1);
        cJSON_AddArrayToObject(db, "entries");
    }
    cJSON *entries = cJSON_GetObjectItem(db, "entries");
    for (int i = cJSON_GetArraySize(entries) - 1; i >= 0; i--)
        if (matches(cJSON_GetArrayItem(entries, i), ctx, w, size_class))
            cJSON_DeleteItemFromArray(entries, i);
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "device", ctx->device.name);
    cJSON_AddStringToObject(e, "driver", ctx->device.driver);
    cJSON_AddStringToObject(e, "workload", w->name);
    cJSON_AddStringToObject(e, "variant", w->tunable->variant);
    cJSON_AddStringToObject(e, "size_class", size_class);
    cJSON *params = cJSON_AddObjectToObject(e, "params");
    for (size_t i = 0; i < w->tunable->n_params; i++)
        cJSON_AddNumberToObject(params, w->tunable->params[i].name, values[i]);
    cJSON_AddNumberToObject(e, "metric", metric);
    cJSON_AddNumberToObject(e, "default_metric", default_metric);
    cJSON_AddStringToObject(e, "unit", unit);
    cJSON_AddBoolToObject(e, "builtin", builtin);
    cJSON_AddItemToArray(entries, e);
    char *text = cJSON_Print(db);
    cJSON_Delete(db);
    if (!text)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    struct clmem_output out;
    status = clmem_output_open(&out, path, err);
    if (status == CLMEM_OK) {
        fchmod(fileno(out.file), 0600); /* read back only when no one else can write it */
        fprintf(out.file, "%s\n", text);
        status = clmem_output_commit(&out, err);
    }
    free(text);
    return status;
}
