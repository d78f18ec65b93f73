/* The user's fitted parameter rows: what `clmem tune` measured on a
 * device, one file per device in the shipped database's format (so that
 * exporting one is copying it), read as state files (this user's alone,
 * never through a link) and written whole or not at all. */
#include "io/io.h"

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A fitted file is a few kilobytes, as a shipped one. */
#define FITTED_FILE_MAX ((size_t)1 << 20)

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* `dir`'s *.json names, sorted (malloc'd); -1 with errno. A missing
 * directory has none. */
static int json_names(const char *dir, char ***names, size_t *n)
{
    *names = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return errno == ENOENT ? 0 : -1;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || len < 6 || strcmp(e->d_name + len - 5, ".json"))
            continue;
        char **grown = realloc(*names, (*n + 1) * sizeof **names);
        if (!grown) {
            closedir(d);
            errno = ENOMEM;
            return -1;
        }
        *names = grown;
        if (!((*names)[*n] = strdup(e->d_name))) {
            closedir(d);
            errno = ENOMEM;
            return -1;
        }
        (*n)++;
    }
    closedir(d);
    if (*n > 1) /* no names: no array (qsort wants one even for none) */
        qsort(*names, *n, sizeof **names, name_cmp);
    return 0;
}

int clmem_pdb_load_fitted(const char *dir, struct clmem_pdb *db, char *skipped,
                          size_t skipped_size, struct clmem_error *err)
{
    char **names;
    size_t n;
    skipped[0] = '\0';
    if (json_names(dir, &names, &n) != 0) {
        snprintf(skipped, skipped_size, "cannot read the fitted parameters' folder '%s': %s", dir,
                 strerror(errno));
        return CLMEM_OK;
    }
    int status = CLMEM_OK;
    for (size_t i = 0; i < n && !status; i++) {
        char path[1024], why[512];
        FILE *f = NULL;
        if (snprintf(path, sizeof path, "%s/%s", dir, names[i]) >= (int)sizeof path)
            continue;
        switch (clmem_state_open(path, &f, why, sizeof why)) {
        case CLMEM_STATE_OPENED: break;
        case CLMEM_STATE_MISSING: continue;
        case CLMEM_STATE_BAD_FILE:
        case CLMEM_STATE_BAD_DIR:
            /* Rows choose the kernels that run: only this user's. */
            if (!skipped[0])
                snprintf(skipped, skipped_size, "fitted parameters '%s' %s: not used", path, why);
            continue;
        }
        char *text = NULL;
        size_t len = 0, first = db->n_rows;
        if (clmem_read_fd(fileno(f), FITTED_FILE_MAX, 0, &text, &len) != 0)
            status = clmem_fail(err, CLMEM_ERR_USAGE, "cannot read fitted parameters '%s': %s",
                                path, errno == EFBIG ? "larger than 1 MiB" : strerror(errno));
        else if (!(status = clmem_pdb_parse(path, text, len, db, err)))
            for (size_t r = first; r < db->n_rows; r++)
                db->rows[r].fitted = 1;
        fclose(f);
        free(text);
        db->n_files++;
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return status;
}

static cJSON *row_json(const struct clmem_pdb_row *r)
{
    cJSON *row = cJSON_CreateObject(), *values = cJSON_CreateObject(),
          *provenance = cJSON_CreateObject();
    cJSON_AddStringToObject(row, "workload", r->workload);
    cJSON_AddStringToObject(row, "table", r->table);
    cJSON_AddStringToObject(row, "type", r->type);
    for (size_t i = 0; i < r->n_values; i++)
        cJSON_AddNumberToObject(values, r->names[i], r->values[i]);
    cJSON_AddItemToObject(row, "values", values);
    cJSON_AddStringToObject(provenance, "device", r->provenance.device);
    cJSON_AddStringToObject(provenance, "driver", r->provenance.driver);
    cJSON_AddStringToObject(provenance, "date", r->provenance.date);
    cJSON_AddStringToObject(provenance, "command", r->provenance.command);
    if (r->provenance.note[0])
        cJSON_AddStringToObject(provenance, "note", r->provenance.note);
    cJSON_AddItemToObject(row, "provenance", provenance);
    return row;
}

int clmem_pdb_write(const char *path, int private_file, const char *level, const char *match,
                    const char *comment, const struct clmem_pdb_row *rows, size_t n,
                    struct clmem_error *err)
{
    cJSON *doc = cJSON_CreateObject(), *list = cJSON_CreateArray();
    cJSON_AddNumberToObject(doc, "format", 1);
    cJSON_AddStringToObject(doc, "level", level);
    if (match)
        cJSON_AddStringToObject(doc, "match", match);
    if (comment)
        cJSON_AddStringToObject(doc, "comment", comment);
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(list, row_json(&rows[i]));
    cJSON_AddItemToObject(doc, "rows", list);
    char *text = cJSON_Print(doc);
    cJSON_Delete(doc);
    if (!text)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    struct clmem_output out;
    int status = private_file ? clmem_output_open_private(&out, path, err)
                              : clmem_output_open(&out, path, err);
    if (status == CLMEM_OK) {
        fprintf(out.file, "%s\n", text);
        status = clmem_output_commit(&out, err);
    }
    free(text);
    return status;
}
