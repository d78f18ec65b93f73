/* The shipped parameter database's files (data/params/ (*.json)), read
 * whole and checked for shape: every file of the directory, in name
 * order, each a level and a match and its rows, each row a workload's
 * table, a device type, named numbers and where they came from. Which
 * columns a table has is the workload's knowledge: the harness checks the
 * names (harness/params.c). */
#include "io/io.h"

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A file is a few kilobytes: a megabyte is a mistake. */
#define PDB_FILE_MAX ((size_t)1 << 20)

static const char *const level_names[] = {"device", "family", "vendor", "any"};
static const char *const type_names[] = {"gpu", "cpu", "accelerator", "any"};
static const char *const provenance_keys[] = {"device", "driver", "date", "command"};

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int one_of(const char *s, const char *const names[], size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, names[i]) == 0)
            return (int)i;
    return -1;
}

/* A string member of `obj` that is required, or NULL with err set. */
static const char *string_of(const cJSON *obj, const char *key, const char *where,
                             struct clmem_error *err)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsString(item) || !item->valuestring[0]) {
        clmem_fail(err, CLMEM_ERR_USAGE, "%s: \"%s\" %s", where, key,
                   item ? "must be a non-empty string" : "is missing");
        return NULL;
    }
    return item->valuestring;
}

static int copy_name(char *dst, size_t size, const char *src, const char *what, const char *where,
                     struct clmem_error *err)
{
    if (strlen(src) >= size)
        return clmem_fail(err, CLMEM_ERR_USAGE, "%s: %s '%s' is too long", where, what, src);
    memcpy(dst, src, strlen(src) + 1);
    return CLMEM_OK;
}

static int check_provenance(const cJSON *row, struct clmem_pdb_row *r, const char *where,
                            struct clmem_error *err)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(row, "provenance");
    if (!cJSON_IsObject(p))
        return clmem_fail(err, CLMEM_ERR_USAGE, "%s: \"provenance\" %s", where,
                          p ? "must be an object"
                            : "is missing (every row says where it came from)");
    char at[1400];
    snprintf(at, sizeof at, "%s, its provenance", where);
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(provenance_keys); i++)
        if (!string_of(p, provenance_keys[i], at, err))
            return err->status;
    const cJSON *item;
    cJSON_ArrayForEach(item, p)
    {
        if (one_of(item->string, provenance_keys, CLMEM_ARRAY_SIZE(provenance_keys)) < 0 &&
            strcmp(item->string, "note") != 0)
            return clmem_fail(err, CLMEM_ERR_USAGE, "%s: unknown key \"%s\"", at, item->string);
        if (!cJSON_IsString(item))
            return clmem_fail(err, CLMEM_ERR_USAGE, "%s: \"%s\" must be a string", at,
                              item->string);
    }
    char *const kept[] = {r->provenance.device, r->provenance.driver, r->provenance.date,
                          r->provenance.command};
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(provenance_keys); i++)
        snprintf(kept[i], sizeof r->provenance.command, "%s",
                 cJSON_GetObjectItemCaseSensitive(p, provenance_keys[i])->valuestring);
    const cJSON *note = cJSON_GetObjectItemCaseSensitive(p, "note");
    if (note)
        snprintf(r->provenance.note, sizeof r->provenance.note, "%s", note->valuestring);
    return CLMEM_OK;
}

static int parse_row(const cJSON *row, struct clmem_pdb_row *r, const char *where,
                     struct clmem_error *err)
{
    static const char *const keys[] = {"workload", "table", "type", "values", "provenance"};
    if (!cJSON_IsObject(row))
        return clmem_fail(err, CLMEM_ERR_USAGE, "%s: not an object", where);
    const cJSON *item;
    cJSON_ArrayForEach(item, row)
    {
        if (one_of(item->string, keys, CLMEM_ARRAY_SIZE(keys)) < 0)
            return clmem_fail(err, CLMEM_ERR_USAGE, "%s: unknown key \"%s\"", where, item->string);
    }
    const char *workload = string_of(row, "workload", where, err),
               *table = workload ? string_of(row, "table", where, err) : NULL,
               *type = table ? string_of(row, "type", where, err) : NULL;
    if (!type)
        return err->status;
    if (one_of(type, type_names, CLMEM_ARRAY_SIZE(type_names)) < 0)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "%s: \"type\" is '%s', not one of gpu, cpu, accelerator, any", where,
                          type);
    int status;
    if ((status = copy_name(r->workload, sizeof r->workload, workload, "workload", where, err)) ||
        (status = copy_name(r->table, sizeof r->table, table, "table", where, err)) ||
        (status = copy_name(r->type, sizeof r->type, type, "type", where, err)))
        return status;
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(row, "values");
    if (!cJSON_IsObject(values))
        return clmem_fail(err, CLMEM_ERR_USAGE, "%s: \"values\" %s", where,
                          values ? "must be an object of named numbers" : "is missing");
    cJSON_ArrayForEach(item, values)
    {
        if (r->n_values == CLMEM_PDB_MAX_VALUES)
            return clmem_fail(err, CLMEM_ERR_USAGE, "%s: more than %d values", where,
                              CLMEM_PDB_MAX_VALUES);
        if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble))
            return clmem_fail(err, CLMEM_ERR_USAGE, "%s: value \"%s\" must be a number", where,
                              item->string);
        for (size_t i = 0; i < r->n_values; i++)
            if (strcmp(r->names[i], item->string) == 0)
                return clmem_fail(err, CLMEM_ERR_USAGE, "%s: value \"%s\" given twice", where,
                                  item->string);
        if ((status = copy_name(r->names[r->n_values], sizeof r->names[0], item->string,
                                "value name", where, err)))
            return status;
        r->values[r->n_values++] = item->valuedouble;
    }
    return check_provenance(row, r, where, err);
}

int clmem_pdb_parse(const char *path, const char *text, size_t len, struct clmem_pdb *db,
                      struct clmem_error *err)
{
    struct clmem_json_check check = {.what = ""};
    if (clmem_json_check(text, len, 1, 100000, &check) != 0)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "parameter database file '%s' is not valid JSON (%s at byte %zu)", path,
                          check.what && check.what[0] ? check.what : "syntax", check.at);
    cJSON *doc = cJSON_ParseWithLength(text, len);
    if (!doc)
        return clmem_fail(err, CLMEM_ERR_USAGE, "parameter database file '%s' is not valid JSON",
                          path);
    char where[1200];
    snprintf(where, sizeof where, "parameter database file '%s'", path);
    int status = CLMEM_OK;
    const cJSON *format = cJSON_GetObjectItemCaseSensitive(doc, "format"),
                *rows = cJSON_GetObjectItemCaseSensitive(doc, "rows"),
                *match = cJSON_GetObjectItemCaseSensitive(doc, "match");
    const char *level = NULL;
    int lvl = -1;
    if (!cJSON_IsObject(doc))
        status = clmem_fail(err, CLMEM_ERR_USAGE, "%s: not a JSON object", where);
    else if (!cJSON_IsNumber(format) || format->valuedouble != 1)
        status = clmem_fail(err, CLMEM_ERR_USAGE, "%s: \"format\" must be 1 (this clmem's)", where);
    else if (!(level = string_of(doc, "level", where, err)))
        status = err->status;
    else if ((lvl = one_of(level, level_names, CLMEM_ARRAY_SIZE(level_names))) < 0)
        status = clmem_fail(err, CLMEM_ERR_USAGE,
                            "%s: \"level\" is '%s', not one of device, family, vendor, any", where,
                            level);
    else if (lvl == 3 && match)
        status = clmem_fail(err, CLMEM_ERR_USAGE, "%s: the level any has no \"match\"", where);
    else if (lvl != 3 && (!cJSON_IsString(match) || !match->valuestring[0]))
        status = clmem_fail(err, CLMEM_ERR_USAGE,
                            "%s: \"match\" must name the %s (a non-empty string)", where, level);
    else if (!cJSON_IsArray(rows))
        status = clmem_fail(err, CLMEM_ERR_USAGE, "%s: \"rows\" must be an array", where);
    const cJSON *item;
    if (!status)
        cJSON_ArrayForEach(item, doc)
        {
            if (strcmp(item->string, "format") && strcmp(item->string, "level") &&
                strcmp(item->string, "match") && strcmp(item->string, "rows") &&
                strcmp(item->string, "comment")) {
                status =
                    clmem_fail(err, CLMEM_ERR_USAGE, "%s: unknown key \"%s\"", where, item->string);
                break;
            }
        }
    size_t n = status ? 0 : (size_t)cJSON_GetArraySize(rows);
    if (n) {
        struct clmem_pdb_row *grown = realloc(db->rows, (db->n_rows + n) * sizeof *grown);
        if (!grown)
            status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory reading '%s'", path);
        else
            db->rows = grown;
    }
    size_t index = 0;
    if (n && !status)
        cJSON_ArrayForEach(item, rows)
        {
            struct clmem_pdb_row *r = &db->rows[db->n_rows];
            memset(r, 0, sizeof *r);
            r->index = ++index;
            r->level = lvl;
            snprintf(r->file, sizeof r->file, "%s", path);
            if (lvl != 3)
                status =
                    copy_name(r->match, sizeof r->match, match->valuestring, "match", where, err);
            char at[1300];
            snprintf(at, sizeof at, "%s, row %zu", where, index);
            if (status || (status = parse_row(item, r, at, err)))
                break;
            db->n_rows++;
        }
    cJSON_Delete(doc);
    return status;
}

static int read_path(const char *path, char **text, size_t *len, struct clmem_error *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot read parameter database file '%s': %s",
                          path, strerror(errno));
    int failed = clmem_read_fd(fd, PDB_FILE_MAX, 0, text, len);
    int saved = errno;
    close(fd);
    if (failed)
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot read parameter database file '%s': %s",
                          path, saved == EFBIG ? "larger than 1 MiB" : strerror(saved));
    return CLMEM_OK;
}

int clmem_pdb_load(const char *dir, struct clmem_pdb *db, struct clmem_error *err)
{
    memset(db, 0, sizeof *db);
    DIR *d = opendir(dir);
    if (!d)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "cannot read the parameter database '%s': %s (set CLMEM_DATA_DIR to the "
                          "folder that holds params/)",
                          dir, strerror(errno));
    char **names = NULL;
    size_t n = 0;
    int status = CLMEM_OK;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || len < 6 || strcmp(e->d_name + len - 5, ".json"))
            continue;
        char **grown = realloc(names, (n + 1) * sizeof *names);
        if (!grown || !(grown[n] = strdup(e->d_name))) {
            names = grown ? grown : names;
            status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
            break;
        }
        names = grown;
        n++;
    }
    closedir(d);
    if (!status && n == 0)
        status =
            clmem_fail(err, CLMEM_ERR_USAGE,
                       "the parameter database '%s' holds no .json files (any.json at least)", dir);
    if (!status)
        qsort(names, n, sizeof *names, name_cmp);
    for (size_t i = 0; i < n && !status; i++) {
        char path[1024], *text = NULL;
        size_t len = 0;
        if (snprintf(path, sizeof path, "%s/%s", dir, names[i]) >= (int)sizeof path)
            status =
                clmem_fail(err, CLMEM_ERR_USAGE, "parameter database path too long: '%s'", dir);
        else if (!(status = read_path(path, &text, &len, err)))
            status = clmem_pdb_parse(path, text, len, db, err);
        free(text);
        db->n_files++;
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    if (status)
        clmem_pdb_free(db);
    return status;
}

void clmem_pdb_free(struct clmem_pdb *db)
{
    free(db->rows);
    memset(db, 0, sizeof *db);
}
