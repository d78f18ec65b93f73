/* A whole device fitted within a time budget (clmem tune with no
 * workload): its peaks, every tunable variant searched, each workload's
 * model fitted with the tiles just found; what each step finds kept at
 * once as the device's fitted rows (the parameter database's format), so
 * that an interrupted fit resumes where it stopped and a new GPU's rows
 * can be exported as they are. */
#include "harness/harness.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* How much of the budget a step takes against the others: matmul's
 * searches are the largest spaces and the slowest candidates; a model
 * measures a dozen shapes, each of them checked whole. */
#define FIT_WEIGHT_PEAKS    1.0
#define FIT_WEIGHT_TUNABLE  1.0
#define FIT_WEIGHT_MATMUL   3.0
#define FIT_WEIGHT_MODEL    4.0
#define FIT_MAX_STEPS       64
#define FIT_MAX_CANDIDATES  100000 /* the deadline, not a count, ends a search */

struct step {
    const struct clmem_workload *w;
    const struct clmem_tunable *t; /* NULL with w: w's model; neither: the peaks */
    double weight;
    char what[128];
    char size[64];
};

int clmem_fit_path(const struct clmem_device *device, char *path, size_t size,
                   struct clmem_error *err)
{
    char dir[1024], slug[160];
    const char *why;
    if (clmem_params_fitted_dir(dir, sizeof dir, &why) != 0)
        return clmem_fail(err, CLMEM_ERR_USAGE, "no place for fitted parameters: %s", why);
    size_t n = 0;
    for (const char *c = device->name; *c && n + 1 < sizeof slug; c++) {
        if (isalnum((unsigned char)*c))
            slug[n++] = (char)tolower((unsigned char)*c);
        else if (n && slug[n - 1] != '-')
            slug[n++] = '-';
    }
    while (n && slug[n - 1] == '-')
        n--;
    slug[n] = '\0';
    if (snprintf(path, size, "%s/device-%s.json", dir, n ? slug : "unnamed") >= (int)size)
        return clmem_fail(err, CLMEM_ERR_USAGE, "fitted parameters' path in '%s' is too long",
                          dir);
    return CLMEM_OK;
}

int clmem_fit_rows(const struct clmem_device *device, struct clmem_pdb *rows,
                   struct clmem_error *err)
{
    char path[1024], dir[1024], skipped[1200];
    const char *why;
    memset(rows, 0, sizeof *rows);
    int status = clmem_fit_path(device, path, sizeof path, err);
    if (status || clmem_params_fitted_dir(dir, sizeof dir, &why) != 0)
        return status;
    if ((status = clmem_pdb_load_fitted(dir, rows, skipped, sizeof skipped, err)))
        return status;
    size_t kept = 0;
    for (size_t i = 0; i < rows->n_rows; i++)
        if (strcmp(rows->rows[i].file, path) == 0)
            rows->rows[kept++] = rows->rows[i];
    rows->n_rows = kept;
    return CLMEM_OK;
}

int clmem_fit_export(const struct clmem_device *device, const char *path, size_t *n_rows,
                     struct clmem_error *err)
{
    struct clmem_pdb rows;
    int status = clmem_fit_rows(device, &rows, err);
    *n_rows = rows.n_rows;
    if (status == CLMEM_OK && rows.n_rows == 0)
        status = clmem_fail(err, CLMEM_ERR_USAGE,
                            "nothing fitted on '%s' to export: run 'clmem tune' on it first",
                            device->name);
    if (status == CLMEM_OK)
        status = clmem_pdb_write(path, 0, "device", device->name,
                                 "fitted by clmem tune: each row's provenance says where and how",
                                 rows.rows, rows.n_rows, err);
    clmem_pdb_free(&rows);
    return status;
}

/* ---- the rows a step adds ---- */

static const char *type_name(cl_device_type type)
{
    return type & CL_DEVICE_TYPE_GPU           ? "gpu"
           : type & CL_DEVICE_TYPE_CPU         ? "cpu"
           : type & CL_DEVICE_TYPE_ACCELERATOR ? "accelerator"
                                               : "any";
}

/* Room for one more row in fit->rows: the new row, zeroed, or NULL. */
static struct clmem_pdb_row *new_row(struct clmem_fit *fit, struct clmem_error *err)
{
    if (fit->n_rows == fit->cap) {
        size_t cap = fit->cap ? 2 * fit->cap : 8;
        struct clmem_pdb_row *grown = realloc(fit->rows, cap * sizeof *grown);
        if (!grown) {
            clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
            return NULL;
        }
        fit->rows = grown;
        fit->cap = cap;
    }
    struct clmem_pdb_row *r = &fit->rows[fit->n_rows++];
    memset(r, 0, sizeof *r);
    return r;
}

static int add_row(struct clmem_fit *fit, const struct clmem_device *device,
                   const struct clmem_param_table *t, const double values[], const char *note,
                   struct clmem_error *err)
{
    struct clmem_pdb_row *r = new_row(fit, err);
    if (!r)
        return err->status;
    r->fitted = 1;
    snprintf(r->workload, sizeof r->workload, "%s", t->workload);
    snprintf(r->table, sizeof r->table, "%s", t->name);
    snprintf(r->type, sizeof r->type, "%s", type_name(device->type));
    for (size_t c = 0; c < t->n_columns && c < CLMEM_PDB_MAX_VALUES; c++) {
        snprintf(r->names[c], sizeof r->names[c], "%s", t->columns[c]);
        r->values[c] = values[c];
    }
    r->n_values = t->n_columns;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(r->provenance.date, sizeof r->provenance.date, "%Y-%m-%d", &tm);
    snprintf(r->provenance.device, sizeof r->provenance.device, "%s", device->name);
    snprintf(r->provenance.driver, sizeof r->provenance.driver, "%s", device->driver);
    snprintf(r->provenance.command, sizeof r->provenance.command, "%s",
             fit->command ? fit->command : "clmem tune");
    snprintf(r->provenance.note, sizeof r->provenance.note, "%s", note);
    return CLMEM_OK;
}

int clmem_fit_add(struct clmem_fit *fit, const struct clmem_device *device,
                  const struct clmem_param_table *t, const double values[], const char *note,
                  struct clmem_error *err)
{
    return add_row(fit, device, t, values, note, err);
}

int clmem_fit_adopt(struct clmem_fit *fit, const struct clmem_device *device,
                    const struct clmem_param_table *t, size_t *adopted, struct clmem_error *err)
{
    struct clmem_pdb rows;
    *adopted = 0;
    int status = clmem_fit_rows(device, &rows, err);
    for (size_t i = 0; i < rows.n_rows && status == CLMEM_OK; i++) {
        if (strcmp(rows.rows[i].workload, t->workload) || strcmp(rows.rows[i].table, t->name))
            continue;
        struct clmem_pdb_row *r = new_row(fit, err);
        if (!r) {
            status = err->status;
            break;
        }
        *r = rows.rows[i];
        ++*adopted;
    }
    clmem_pdb_free(&rows);
    return status;
}

int clmem_fit_measure(struct clmem_ctx *ctx, struct clmem_fit *fit, const char *variant,
                      const char *size, const int *tune_values, double *metric, double *median_ms,
                      struct clmem_error *err)
{
    if (fit->cancelled && fit->cancelled(fit->cancelled_user))
        return clmem_fail(err, CLMEM_ERR_INTERRUPTED, "interrupted");
    if (fit->deadline_ms > 0 && clmem_now_ms() > fit->deadline_ms)
        return clmem_fail(err, CLMEM_ERR_INTERRUPTED, "past the step's share of the budget");
    struct clmem_run_options options = {.size = size,
                                        .variant = variant,
                                        .reps = fit->reps,
                                        .warmup = CLMEM_DEFAULT_WARMUP,
                                        .seed = fit->seed,
                                        .tune_values = tune_values,
                                        .cancelled = fit->cancelled,
                                        .cancelled_user = fit->cancelled_user};
    struct clmem_result *results = NULL;
    size_t n = 0;
    int status = clmem_run(ctx, fit->workload, &options, &results, &n, err);
    if (status == CLMEM_OK && (n != 1 || !results[0].verified))
        status = clmem_fail(err, CLMEM_ERR_VERIFY, "%s %s at %s did not verify",
                            fit->workload->name, variant, size);
    if (status == CLMEM_OK) {
        *metric = results[0].metric;
        *median_ms = results[0].median_ms;
    }
    clmem_results_free(results, n);
    return status;
}

/* A tunable's best as a row of the workload's table that holds all its
 * parameters (NULL where none does): each column the search's value, else
 * the -D value the run used, else the device's own last row's. */
static const struct clmem_param_table *tunable_table(const struct clmem_workload *w,
                                                     const struct clmem_tunable *t)
{
    for (size_t i = 0; i < w->n_param_tables; i++) {
        const struct clmem_param_table *table = w->param_tables[i];
        size_t found = 0;
        for (size_t p = 0; p < t->n_params; p++)
            for (size_t c = 0; c < table->n_columns; c++)
                found += strcmp(t->params[p].name, table->columns[c]) == 0;
        if (!table->real && found == t->n_params)
            return table;
    }
    return NULL;
}

/* The tuned rows of a tunable's table: its best first, then the device's
 * shipped rows that differ from it (the smaller candidates a workload
 * falls back to where the best leaves units idle). A column the search
 * does not set takes the -D value the run used, else the value of the
 * shipped row the built-in parameters came from (the first otherwise). */
static int tunable_rows(struct clmem_fit *fit, const struct clmem_device *device,
                        const struct clmem_tunable *t, const struct clmem_param_table *table,
                        const struct clmem_tune_result *r, const char *note,
                        struct clmem_error *err)
{
    const struct clmem_param_row *shipped[16];
    enum clmem_param_level level;
    size_t n =
        clmem_param_lookup_shipped(table, device, shipped, CLMEM_ARRAY_SIZE(shipped), &level);
    size_t column[CLMEM_MAX_PARAMS], from = 0;
    for (size_t p = 0; p < t->n_params; p++)
        for (column[p] = 0; column[p] < table->n_columns; column[p]++)
            if (!strcmp(t->params[p].name, table->columns[column[p]]))
                break;
    for (size_t i = 0; i < n; i++) {
        int same = 1;
        for (size_t p = 0; p < t->n_params; p++)
            same = same && shipped[i]->values[column[p]] == r->builtin.values[p];
        if (same) {
            from = i;
            break;
        }
    }
    double best[CLMEM_MAX_PARAMS] = {0};
    for (size_t c = 0; c < table->n_columns; c++) {
        size_t p = 0;
        while (p < t->n_params && column[p] != c)
            p++;
        char key[64];
        snprintf(key, sizeof key, "-D%s=", table->columns[c]);
        const char *at = strstr(r->best.params, key);
        if (p < t->n_params)
            best[c] = r->best.values[p];
        else if (at)
            best[c] = atoi(at + strlen(key));
        else if (n)
            best[c] = shipped[from]->values[c];
    }
    int status = add_row(fit, device, table, best, note, err);
    for (size_t i = 0; i < n && !status; i++) {
        double v[CLMEM_MAX_PARAMS];
        int same = 1;
        for (size_t c = 0; c < table->n_columns; c++) {
            v[c] = shipped[i]->values[c];
            same = same && v[c] == best[c];
        }
        if (!same)
            status = add_row(fit, device, table, v,
                             "the shipped row the device took before the fit, kept after the "
                             "fitted one for the sizes that row suits",
                             err);
    }
    return status;
}

/* ---- the plan ---- */

/* The size a workload is tuned at: its largest bench size for the
 * device's type, else its default. */
static void tune_size(const struct clmem_workload *w, const struct clmem_device *device,
                      char *out, size_t size)
{
    const char *const *sizes =
        (device->type & CL_DEVICE_TYPE_CPU) && !(device->type & CL_DEVICE_TYPE_GPU)
            ? w->bench_sizes_cpu
            : w->bench_sizes;
    const char *chosen = w->default_size;
    for (size_t i = 0; sizes && sizes[i]; i++)
        chosen = sizes[i];
    snprintf(out, size, "%s", chosen);
}

static size_t plan(const struct clmem_workload *const *workloads, size_t n,
                   const struct clmem_device *device, struct step *steps)
{
    size_t k = 0;
    steps[k++] = (struct step){.weight = FIT_WEIGHT_PEAKS, .what = "the device's peaks"};
    for (size_t i = 0; i < n && k < FIT_MAX_STEPS; i++) {
        const struct clmem_workload *w = workloads[i];
        char size[64];
        tune_size(w, device, size, sizeof size);
        int matmul = w->fit != NULL;
        for (size_t j = 0; j < w->n_tunables && k < FIT_MAX_STEPS; j++) {
            const struct clmem_tunable *t = &w->tunables[j];
            if ((t->designed_for && !(t->designed_for & device->type)) ||
                (t->rows_from_model && w->fit))
                continue;
            struct step *s = &steps[k++];
            *s = (struct step){.w = w, .t = &w->tunables[j],
                               .weight = matmul ? FIT_WEIGHT_MATMUL : FIT_WEIGHT_TUNABLE};
            snprintf(s->size, sizeof s->size, "%s", size);
            snprintf(s->what, sizeof s->what, "%s %s at %s", w->name, w->tunables[j].variant, size);
        }
        if (w->fit && k < FIT_MAX_STEPS) {
            struct step *s = &steps[k++];
            *s = (struct step){.w = w, .weight = FIT_WEIGHT_MODEL};
            snprintf(s->what, sizeof s->what, "%s's model (its planners' rates and thresholds)",
                     w->name);
        }
    }
    return k;
}

/* Whether a step was fitted on this device and driver before: a search's
 * entry in the tuning database at its size class, a model's rows. */
static int fitted_before(const struct clmem_ctx *ctx, const struct step *s,
                         const struct clmem_pdb *rows, const struct clmem_tuning_entry *entries,
                         size_t n_entries)
{
    if (!s->w)
        return 0; /* the peaks: a few seconds, and every step weighs them */
    /* A model's rows, or the rows of a search's table: a search of one
     * workload (clmem tune WORKLOAD) leaves an entry but no rows. */
    const struct clmem_param_table *table = s->t ? tunable_table(s->w, s->t) : NULL;
    int has_rows = 0;
    for (size_t i = 0; i < rows->n_rows && !has_rows; i++) {
        const struct clmem_pdb_row *r = &rows->rows[i];
        for (size_t k = 0; k < s->w->n_param_tables && !has_rows; k++) {
            const struct clmem_param_table *t = s->w->param_tables[k];
            has_rows = !strcmp(r->workload, s->w->name) && !strcmp(r->table, t->name) &&
                       !strcmp(r->provenance.driver, ctx->device.driver) &&
                       (s->t ? t == table : t->real);
        }
    }
    if (!s->t || (table && !has_rows))
        return has_rows;
    struct clmem_size size;
    char size_class[64];
    struct clmem_error err = {0};
    if (clmem_size_parse(s->size, &size, &err))
        return 0;
    clmem_size_class(&size, size_class, sizeof size_class);
    for (size_t i = 0; i < n_entries; i++) {
        const struct clmem_tuning_entry *e = &entries[i];
        if (!strcmp(e->driver, ctx->device.driver) && !strcmp(e->workload, s->w->name) &&
            !strcmp(e->variant, s->t->variant) && !strcmp(e->size_class, size_class))
            return 1;
    }
    return 0;
}

static int keep_locked(struct clmem_ctx *ctx, const struct clmem_fit *fit, const char *path,
                       struct clmem_error *err);

/* The device's fitted rows with those of fit's tables replaced by fit's,
 * written whole, and read again by every later lookup; under the tuning
 * database's lock, as another tune may keep rows of this device at once. */
int clmem_fit_keep(struct clmem_ctx *ctx, const struct clmem_fit *fit, struct clmem_error *err)
{
    char path[1024];
    int status, lock = -1;
    if ((status = clmem_fit_path(&ctx->device, path, sizeof path, err)) ||
        (status = clmem_tuning_lock(&lock, err)))
        return status;
    status = keep_locked(ctx, fit, path, err);
    close(lock); /* after the rename: the next tune reads these rows */
    return status;
}

/* clmem_fit_keep's read, merge and write, under the lock. */
static int keep_locked(struct clmem_ctx *ctx, const struct clmem_fit *fit, const char *path,
                       struct clmem_error *err)
{
    char dir[1024], why[256];
    const char *none;
    struct clmem_pdb old;
    int status;
    if ((status = clmem_fit_rows(&ctx->device, &old, err)))
        return status;
    if (clmem_params_fitted_dir(dir, sizeof dir, &none) != 0 || clmem_state_mkdir(dir) != 0 ||
        clmem_state_dir_check(dir, why, sizeof why) != 0) {
        clmem_pdb_free(&old);
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "cannot keep fitted parameters in '%s': runs would not read them "
                          "(set XDG_CACHE_HOME to a folder of yours)",
                          dir);
    }
    struct clmem_pdb_row *all = malloc((old.n_rows + fit->n_rows + 1) * sizeof *all);
    size_t n = 0;
    if (!all) {
        clmem_pdb_free(&old);
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    }
    for (size_t i = 0; i < old.n_rows; i++) {
        int replaced = 0;
        for (size_t j = 0; j < fit->n_rows && !replaced; j++)
            replaced = !strcmp(old.rows[i].workload, fit->rows[j].workload) &&
                       !strcmp(old.rows[i].table, fit->rows[j].table);
        if (!replaced)
            all[n++] = old.rows[i];
    }
    memcpy(all + n, fit->rows, fit->n_rows * sizeof *all);
    n += fit->n_rows;
    status = clmem_pdb_write(path, 1, "device", ctx->device.name,
                             "clmem tune's fitted rows for this device (clmem tune --export "
                             "writes them for data/params/)",
                             all, n, err);
    if (status == CLMEM_OK)
        status = clmem_params_reload(NULL, err);
    free(all);
    clmem_pdb_free(&old);
    return status;
}

/* One search; its rows in fit. The outcome said in `outcome`. */
static int run_search(struct clmem_ctx *ctx, const struct step *s,
                      const struct clmem_fit_options *o, double deadline, struct clmem_fit *fit,
                      char *outcome, size_t size, struct clmem_error *err)
{
    struct clmem_tune_options options = {.size = s->size,
                                         .reps = o->reps,
                                         .max_candidates = FIT_MAX_CANDIDATES,
                                         .seed = o->seed,
                                         .measured = o->measured,
                                         .user = o->user,
                                         .cancelled = o->cancelled,
                                         .cancelled_user = o->cancelled_user,
                                         .deadline_ms = deadline};
    struct clmem_tune_result r;
    int status = clmem_tune(ctx, s->w, s->t, &options, &r, err);
    if (status)
        return status;
    char note[256];
    snprintf(note, sizeof note,
             "%s %s at %s: best of the built-in and %zu of %zu candidates, %.3f %s, %.2fx the "
             "built-in's",
             s->w->name, s->t->variant, s->size, r.tried, r.candidates, r.best.metric,
             s->w->metric_unit, r.builtin.metric > 0 ? r.best.metric / r.builtin.metric : 0);
    /* "TSM=64 TSN=128 ...: best of ..." */
    size_t used = 0;
    outcome[0] = '\0';
    for (size_t p = 0; p < s->t->n_params && used < size; p++)
        used += (size_t)snprintf(outcome + used, size - used, "%s%s=%d", p ? " " : "",
                                 s->t->params[p].name, r.best.values[p]);
    if (used < size)
        snprintf(outcome + used, size - used, ": %s%s", strchr(note, ':') + 2,
                 tunable_table(s->w, s->t) ? "" : " (tuning database only: no table of rows)");
    const struct clmem_param_table *table = tunable_table(s->w, s->t);
    return table ? tunable_rows(fit, &ctx->device, s->t, table, &r, note, err) : CLMEM_OK;
}

int clmem_fit_device(struct clmem_ctx *ctx, const struct clmem_workload *const *workloads,
                     size_t n_workloads, const struct clmem_workload *peak_workload,
                     const struct clmem_fit_options *o, struct clmem_fit_result *result,
                     struct clmem_error *err)
{
    struct step steps[FIT_MAX_STEPS];
    size_t n = plan(workloads, n_workloads, &ctx->device, steps);
    double start = clmem_now_ms(), end = start + 1000.0 * o->budget_s;
    struct clmem_pdb before = {0};
    struct clmem_tuning_entry *entries = NULL;
    size_t n_entries = 0;
    struct clmem_peak peak = {0};
    memset(result, 0, sizeof *result);
    result->steps = n;
    int status = clmem_fit_path(&ctx->device, result->path, sizeof result->path, err);
    if (!status && !o->fresh && !(status = clmem_fit_rows(&ctx->device, &before, err)))
        status = clmem_tuning_db_entries(ctx->device.name, &entries, &n_entries, err);
    double weights = 0;
    for (size_t i = 0; i < n; i++)
        weights += steps[i].weight;
    for (size_t i = 0; i < n && status == CLMEM_OK; i++) {
        const struct step *s = &steps[i];
        double now = clmem_now_ms(), left = (end - now) / 1000.0,
               share = left > 0 ? left * s->weight / weights : 0;
        weights -= s->weight;
        char outcome[2200] = "";
        if (!o->fresh && fitted_before(ctx, s, &before, entries, n_entries)) {
            result->skipped++;
            if (o->done)
                o->done(o->user, i, n, s->what,
                        "fitted before on this device and driver: kept (--fresh fits it again)");
            continue;
        }
        if (left <= 0) {
            result->failed++;
            if (o->done)
                o->done(o->user, i, n, s->what, "not fitted: the budget is spent");
            continue;
        }
        if (o->step)
            o->step(o->user, i, n, s->what, share, left);
        struct clmem_fit fit = {.workload = s->w,
                                .peak = peak,
                                .reps = o->reps,
                                .seed = o->seed,
                                .deadline_ms = now + 1000.0 * share,
                                .cancelled = o->cancelled,
                                .cancelled_user = o->cancelled_user,
                                .command = o->command};
        int step_status;
        if (!s->w) {
            struct clmem_result *results = NULL;
            size_t n_results = 0;
            step_status =
                clmem_peak_run(ctx, peak_workload, o->reps, &peak, &results, &n_results, err);
            clmem_results_free(results, n_results);
            if (!step_status)
                snprintf(outcome, sizeof outcome, "copy %.1f GB/s, FMA %.1f GFLOP/s, launch %.2f us",
                         peak.bandwidth, peak.flops, peak.launch_us);
        } else if (s->t) {
            step_status = run_search(ctx, s, o, fit.deadline_ms, &fit, outcome, sizeof outcome, err);
        } else {
            step_status = s->w->fit(ctx, &fit, err);
            /* Out of its share, a model keeps the rows it finished. */
            if (step_status == CLMEM_ERR_INTERRUPTED &&
                !(o->cancelled && o->cancelled(o->cancelled_user)) && fit.n_rows)
                step_status = CLMEM_OK;
            if (!step_status)
                snprintf(outcome, sizeof outcome, "%zu row%s fitted", fit.n_rows,
                         fit.n_rows == 1 ? "" : "s");
        }
        if (step_status == CLMEM_OK && fit.n_rows)
            step_status = clmem_fit_keep(ctx, &fit, err);
        free(fit.rows);
        if (step_status == CLMEM_ERR_INTERRUPTED && o->cancelled &&
            o->cancelled(o->cancelled_user)) {
            status = step_status;
            break;
        }
        if (step_status) {
            /* A step that fails (a variant the device cannot build or run
             * at this size) is said and passed over: the others still fit. */
            result->failed++;
            snprintf(outcome, sizeof outcome, "not fitted: %s", err->message);
            clmem_error_clear(err);
        } else {
            result->fitted++;
        }
        if (o->done)
            o->done(o->user, i, n, s->what, outcome);
    }
    result->seconds = (clmem_now_ms() - start) / 1000.0;
    struct clmem_pdb now = {0};
    struct clmem_error ignored = {0};
    if (clmem_fit_rows(&ctx->device, &now, &ignored) == CLMEM_OK)
        result->rows = now.n_rows;
    clmem_pdb_free(&now);
    clmem_pdb_free(&before);
    free(entries);
    return status;
}
