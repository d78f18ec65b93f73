/* Kernel parameters as data, looked up as CLBlast looks up its database:
 * the device by name, else its family, else its vendor, else any device
 * of its type; a table may hold several rows at one level, candidates the
 * workload chooses among (by size). The rows are the shipped database's
 * (data/params/, read once per process by io's clmem_pdb_load), each
 * table's checked against its schema (the workload's columns) and turned
 * into clmem_param_rows on first use. */
#include "harness/workload.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- the lookup ---- */

static int row_matches(const struct clmem_param_row *r, const struct clmem_device *device)
{
    if (r->type && !(r->type & device->type))
        return 0;
    switch (r->level) {
    case CLMEM_PARAM_FITTED: return strcmp(device->name, r->match) == 0;
    case CLMEM_PARAM_DEVICE: return clmem_contains_nocase(device->name, r->match);
    case CLMEM_PARAM_FAMILY: return device->family[0] && strcasecmp(device->family, r->match) == 0;
    case CLMEM_PARAM_VENDOR:
        return clmem_contains_nocase(device->vendor, r->match) ||
               clmem_contains_nocase(device->platform_name, r->match);
    case CLMEM_PARAM_ANY: return 1;
    }
    return 0;
}

int clmem_params_generic(void)
{
    const char *env = getenv("CLMEM_PARAMS_GENERIC");
    return env && env[0] && strcmp(env, "0") != 0;
}

/* CLMEM_DEBUG: which rows a database table gave a device, said once per
 * table, device and level (the planners look rows up many times a run). */
static pthread_mutex_t said_lock = PTHREAD_MUTEX_INITIALIZER;
static void say_rows(const struct clmem_param_row *first, size_t k,
                     const struct clmem_device *device)
{
    static struct {
        const struct clmem_param_row *row;
        char device[128];
    } said[64];
    static size_t n_said;
    pthread_mutex_lock(&said_lock);
    int fresh = 1;
    for (size_t i = 0; i < n_said && fresh; i++)
        fresh = !(said[i].row == first && strcmp(said[i].device, device->name) == 0);
    if (fresh && n_said < CLMEM_ARRAY_SIZE(said)) {
        said[n_said].row = first;
        snprintf(said[n_said].device, sizeof said[n_said].device, "%s", device->name);
        n_said++;
    }
    pthread_mutex_unlock(&said_lock);
    const char *file, *table;
    size_t index;
    if (fresh && clmem_param_origin(first, &file, &index, &table))
        fprintf(
            stderr, "clmem: %s for '%s': %zu row%s of %s%s%s%s from %s%s\n", table, device->name, k,
            k == 1 ? "" : "s", clmem_param_level_name(first->level), first->match ? " '" : "",
            first->match ? first->match : "", first->match ? "'" : "", file,
            clmem_params_generic() ? " (CLMEM_PARAMS_GENERIC: shipped rows below any device ignored)" : "");
}

/* clmem_param_rows from level `first` down. */
static size_t rows_from(const struct clmem_param_row *rows, size_t n,
                        const struct clmem_device *device, const struct clmem_param_row **out,
                        size_t max, enum clmem_param_level *level, enum clmem_param_level first)
{
    for (int l = (int)first; l <= CLMEM_PARAM_ANY; l++) {
        size_t k = 0;
        for (size_t i = 0; i < n && k < max; i++)
            if ((int)rows[i].level == l && row_matches(&rows[i], device))
                out[k++] = &rows[i];
        if (k) {
            *level = (enum clmem_param_level)l;
            if (clmem_debug_enabled(CLMEM_DEBUG_BUILD))
                say_rows(out[0], k, device);
            return k;
        }
    }
    return 0;
}

size_t clmem_param_rows(const struct clmem_param_row *rows, size_t n,
                        const struct clmem_device *device, const struct clmem_param_row **out,
                        size_t max, enum clmem_param_level *level)
{
    return rows_from(rows, n, device, out, max, level, CLMEM_PARAM_FITTED);
}

const char *clmem_param_level_name(enum clmem_param_level level)
{
    static const char *const names[] = {"fitted", "device", "family", "vendor", "any device"};
    return level <= CLMEM_PARAM_ANY ? names[level] : "?";
}

/* ---- the database ---- */

/* What was read, once per process (or again by clmem_params_reload), and
 * each table's rows as made on first use. */
struct row_info {
    const char *file;
    size_t index;
    double rates[CLMEM_MAX_PARAMS];
};
struct table_rows {
    const struct clmem_param_table *table;
    /* its rows; those CLMEM_PARAMS_GENERIC keeps (any device's, fitted) */
    struct clmem_param_row *all, *any;
    struct row_info *all_info, *any_info; /* beside each */
    size_t n_all, n_any;
    char table_name[80];
    int status; /* CLMEM_OK, else why it cannot be used */
    char message[sizeof(((struct clmem_error *)0)->message)];
};
static struct {
    pthread_mutex_t lock;
    pthread_once_t once;
    struct clmem_pdb db;
    char dir[1024];
    int status;
    char message[sizeof(((struct clmem_error *)0)->message)];
    struct table_rows *tables;
    size_t n_tables;
} pdb = {.lock = PTHREAD_MUTEX_INITIALIZER, .once = PTHREAD_ONCE_INIT};

static void pdb_read(const char *dir)
{
    struct clmem_error err = {0};
    clmem_pdb_free(&pdb.db);
    for (size_t i = 0; i < pdb.n_tables; i++) {
        free(pdb.tables[i].all);
        free(pdb.tables[i].any);
        free(pdb.tables[i].all_info);
        free(pdb.tables[i].any_info);
    }
    free(pdb.tables);
    pdb.tables = NULL;
    pdb.n_tables = 0;
    pdb.status = CLMEM_OK;
    pdb.message[0] = '\0';
    if (dir)
        snprintf(pdb.dir, sizeof pdb.dir, "%s", dir);
    else if ((pdb.status = clmem_params_dir_find(pdb.dir, sizeof pdb.dir, &err))) {
        snprintf(pdb.message, sizeof pdb.message, "%s", err.message);
        return;
    }
    if ((pdb.status = clmem_pdb_load(pdb.dir, &pdb.db, &err))) {
        snprintf(pdb.message, sizeof pdb.message, "%s", err.message);
        return;
    }
    /* Then what `clmem tune` fitted on this user's devices, if anything. */
    char fitted[1024], skipped[1200];
    const char *none;
    if (clmem_params_fitted_dir(fitted, sizeof fitted, &none) != 0)
        return;
    if ((pdb.status = clmem_pdb_load_fitted(fitted, &pdb.db, skipped, sizeof skipped, &err)))
        snprintf(pdb.message, sizeof pdb.message, "%s", err.message);
    else if (skipped[0])
        fprintf(stderr, "clmem: warning: %s\n", skipped);
}

int clmem_params_fitted_dir(char *dir, size_t size, const char **why)
{
    return clmem_state_dir("params", dir, size, why);
}

static void pdb_read_shipped(void)
{
    pdb_read(NULL);
}

int clmem_params_reload(const char *dir, struct clmem_error *err)
{
    pthread_once(&pdb.once, pdb_read_shipped);
    pthread_mutex_lock(&pdb.lock);
    pdb_read(dir);
    int status = pdb.status;
    if (status)
        clmem_fail(err, status, "%s", pdb.message);
    pthread_mutex_unlock(&pdb.lock);
    return status;
}

static cl_device_type type_of(const char *type)
{
    return !strcmp(type, "gpu")           ? CL_DEVICE_TYPE_GPU
           : !strcmp(type, "cpu")         ? CL_DEVICE_TYPE_CPU
           : !strcmp(type, "accelerator") ? CL_DEVICE_TYPE_ACCELERATOR
                                          : 0;
}

/* A database row as a row of table t, or why not. */
static int make_row(const struct clmem_param_table *t, const struct clmem_pdb_row *p,
                    struct clmem_param_row *r, struct row_info *info, const char *table_name,
                    struct clmem_error *err)
{
    memset(r, 0, sizeof *r);
    memset(info, 0, sizeof *info);
    /* A fitted row is for the one device its file matches by name. */
    r->level = p->fitted ? CLMEM_PARAM_FITTED : (enum clmem_param_level)(p->level + 1);
    r->match = r->level == CLMEM_PARAM_ANY ? NULL : p->match;
    r->type = type_of(p->type);
    info->file = p->file;
    info->index = p->index;
    char columns[400] = "";
    for (size_t c = 0; c < t->n_columns; c++)
        snprintf(columns + strlen(columns), sizeof columns - strlen(columns), "%s%s", c ? ", " : "",
                 t->columns[c]);
    for (size_t i = 0; i < p->n_values; i++) {
        size_t c = 0;
        while (c < t->n_columns && strcmp(t->columns[c], p->names[i]))
            c++;
        if (c == t->n_columns)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "parameter database file '%s', row %zu (%s): unknown column '%s' "
                              "(the table's columns: %s)",
                              p->file, p->index, table_name, p->names[i], columns);
    }
    for (size_t c = 0; c < t->n_columns; c++) {
        size_t i = 0;
        while (i < p->n_values && strcmp(t->columns[c], p->names[i]))
            i++;
        if (i == p->n_values)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "parameter database file '%s', row %zu (%s): no value for column "
                              "'%s' (the table's columns: %s)",
                              p->file, p->index, table_name, t->columns[c], columns);
        double v = p->values[i];
        if (v < 0 || (!t->real && (v != floor(v) || v > 1e9)))
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "parameter database file '%s', row %zu (%s): '%s' is %g, not %s",
                              p->file, p->index, table_name, t->columns[c], v,
                              t->real ? "a number >= 0" : "a whole number from 0 to 1e9");
        if (t->real)
            info->rates[c] = v;
        else
            r->values[c] = (int)v;
    }
    return CLMEM_OK;
}

/* Table t's rows made from the database (pdb.lock held). */
static void table_make(struct table_rows *tr)
{
    const struct clmem_param_table *t = tr->table;
    struct clmem_error err = {0};
    snprintf(tr->table_name, sizeof tr->table_name, "%s/%s", t->workload, t->name);
    size_t n = 0;
    for (size_t i = 0; i < pdb.db.n_rows; i++)
        n +=
            !strcmp(pdb.db.rows[i].workload, t->workload) && !strcmp(pdb.db.rows[i].table, t->name);
    tr->all = calloc(n ? n : 1, sizeof *tr->all);
    tr->any = calloc(n ? n : 1, sizeof *tr->any);
    tr->all_info = calloc(n ? n : 1, sizeof *tr->all_info);
    tr->any_info = calloc(n ? n : 1, sizeof *tr->any_info);
    if (!tr->all || !tr->any || !tr->all_info || !tr->any_info) {
        tr->status = clmem_fail(&err, CLMEM_ERR_CL, "out of host memory");
        snprintf(tr->message, sizeof tr->message, "%s", err.message);
        return;
    }
    for (size_t i = 0; i < pdb.db.n_rows; i++) {
        const struct clmem_pdb_row *p = &pdb.db.rows[i];
        if (strcmp(p->workload, t->workload) || strcmp(p->table, t->name))
            continue;
        struct clmem_param_row *r = &tr->all[tr->n_all];
        struct row_info *info = &tr->all_info[tr->n_all++];
        if ((tr->status = make_row(t, p, r, info, tr->table_name, &err))) {
            snprintf(tr->message, sizeof tr->message, "%s", err.message);
            return;
        }
        if (r->level == CLMEM_PARAM_ANY || r->level == CLMEM_PARAM_FITTED) {
            tr->any_info[tr->n_any] = *info;
            tr->any[tr->n_any++] = *r;
        }
    }
    /* A row at the level any for each type served: every device finds one. */
    static const struct {
        cl_device_type bit;
        const char *name;
    } types[] = {{CL_DEVICE_TYPE_GPU, "gpu"},
                 {CL_DEVICE_TYPE_CPU, "cpu"},
                 {CL_DEVICE_TYPE_ACCELERATOR, "accelerator"},
                 {CLMEM_PARAM_UNTYPED, "any"}};
    for (size_t k = 0; k < CLMEM_ARRAY_SIZE(types); k++) {
        if (!(t->serves & types[k].bit))
            continue;
        cl_device_type want = types[k].bit == CLMEM_PARAM_UNTYPED ? 0 : types[k].bit;
        int found = 0;
        for (size_t i = 0; i < tr->n_any && !found; i++)
            found = tr->any[i].level == CLMEM_PARAM_ANY && tr->any[i].type == want;
        if (!found) {
            tr->status =
                clmem_fail(&err, CLMEM_ERR_USAGE,
                           "parameter database '%s/any.json': table %s has no row of "
                           "type %s at the level any (every %s device needs one)",
                           pdb.dir, tr->table_name, types[k].name, want ? types[k].name : "other");
            snprintf(tr->message, sizeof tr->message, "%s", err.message);
            return;
        }
    }
}

int clmem_param_table_get(const struct clmem_param_table *t, const struct clmem_param_row **rows,
                          size_t *n, struct clmem_error *err)
{
    pthread_once(&pdb.once, pdb_read_shipped);
    pthread_mutex_lock(&pdb.lock);
    int status = pdb.status;
    const struct table_rows *found = NULL;
    if (status)
        clmem_fail(err, status, "%s", pdb.message);
    for (size_t i = 0; !status && i < pdb.n_tables && !found; i++)
        if (pdb.tables[i].table == t)
            found = &pdb.tables[i];
    if (!status && !found) {
        struct table_rows *grown = realloc(pdb.tables, (pdb.n_tables + 1) * sizeof *grown);
        if (!grown) {
            status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
        } else {
            pdb.tables = grown;
            memset(&grown[pdb.n_tables], 0, sizeof *grown);
            grown[pdb.n_tables].table = t;
            table_make(&grown[pdb.n_tables]);
            found = &grown[pdb.n_tables++];
        }
    }
    if (found && (status = found->status))
        clmem_fail(err, status, "%s", found->message);
    if (found && !status) {
        int generic = clmem_params_generic();
        *rows = generic ? found->any : found->all;
        *n = generic ? found->n_any : found->n_all;
    }
    pthread_mutex_unlock(&pdb.lock);
    return status;
}

const struct clmem_param_row *clmem_param_table_rows(const struct clmem_param_table *t, size_t *n)
{
    struct clmem_error err = {0};
    const struct clmem_param_row *rows = NULL;
    if (clmem_param_table_get(t, &rows, n, &err)) {
        fprintf(stderr, "clmem: %s\n", err.message);
        exit(CLMEM_ERR_USAGE);
    }
    return rows;
}

/* The row's info, where it is one of the database's (pdb.lock held). */
static const struct row_info *info_of(const struct clmem_param_row *row, const char **table)
{
    for (size_t i = 0; i < pdb.n_tables; i++) {
        const struct table_rows *tr = &pdb.tables[i];
        *table = tr->table_name;
        if (tr->n_all && row >= tr->all && row < tr->all + tr->n_all)
            return &tr->all_info[row - tr->all];
        if (tr->n_any && row >= tr->any && row < tr->any + tr->n_any)
            return &tr->any_info[row - tr->any];
    }
    return NULL;
}

const double *clmem_param_rates(const struct clmem_param_row *row)
{
    const char *table;
    pthread_mutex_lock(&pdb.lock);
    const struct row_info *info = info_of(row, &table);
    pthread_mutex_unlock(&pdb.lock);
    return info ? info->rates : NULL;
}

int clmem_param_origin(const struct clmem_param_row *row, const char **file, size_t *index,
                       const char **table)
{
    pthread_mutex_lock(&pdb.lock);
    const struct row_info *info = info_of(row, table);
    pthread_mutex_unlock(&pdb.lock);
    if (!info)
        return 0;
    *file = info->file;
    *index = info->index;
    return 1;
}

size_t clmem_param_lookup(const struct clmem_param_table *t, const struct clmem_device *device,
                          const struct clmem_param_row **out, size_t max,
                          enum clmem_param_level *level)
{
    size_t n;
    const struct clmem_param_row *rows = clmem_param_table_rows(t, &n);
    return clmem_param_rows(rows, n, device, out, max, level);
}

size_t clmem_param_lookup_shipped(const struct clmem_param_table *t,
                                  const struct clmem_device *device,
                                  const struct clmem_param_row **out, size_t max,
                                  enum clmem_param_level *level)
{
    size_t n;
    const struct clmem_param_row *rows = clmem_param_table_rows(t, &n);
    return rows_from(rows, n, device, out, max, level, CLMEM_PARAM_DEVICE);
}

int clmem_params_check(const struct clmem_workload *w, struct clmem_error *err)
{
    int status;
    for (size_t i = 0; i < w->n_param_tables; i++) {
        const struct clmem_param_row *rows;
        size_t n;
        if ((status = clmem_param_table_get(w->param_tables[i], &rows, &n, err)))
            return status;
    }
    pthread_mutex_lock(&pdb.lock);
    status = pdb.status;
    if (status)
        clmem_fail(err, status, "%s", pdb.message);
    for (size_t i = 0; !status && i < pdb.db.n_rows; i++) {
        const struct clmem_pdb_row *p = &pdb.db.rows[i];
        int known = strcmp(p->workload, w->name) != 0;
        for (size_t k = 0; k < w->n_param_tables && !known; k++)
            known = !strcmp(p->table, w->param_tables[k]->name);
        if (!known)
            status = clmem_fail(err, CLMEM_ERR_USAGE,
                                "parameter database file '%s', row %zu: workload '%s' has no "
                                "table '%s'",
                                p->file, p->index, p->workload, p->table);
    }
    pthread_mutex_unlock(&pdb.lock);
    return status;
}

int clmem_params_check_all(const struct clmem_workload *const *all, size_t n,
                           struct clmem_error *err)
{
    pthread_once(&pdb.once, pdb_read_shipped);
    pthread_mutex_lock(&pdb.lock);
    int status = pdb.status;
    if (status)
        clmem_fail(err, status, "%s", pdb.message);
    for (size_t r = 0; !status && r < pdb.db.n_rows; r++) {
        const struct clmem_pdb_row *p = &pdb.db.rows[r];
        int known = 0;
        for (size_t i = 0; i < n && !known; i++)
            known = !strcmp(p->workload, all[i]->name);
        if (!known)
            status = clmem_fail(err, CLMEM_ERR_USAGE,
                                "parameter database file '%s', row %zu: no workload '%s'", p->file,
                                p->index, p->workload);
    }
    pthread_mutex_unlock(&pdb.lock);
    for (size_t i = 0; i < n && !status; i++)
        status = clmem_params_check(all[i], err);
    return status;
}
