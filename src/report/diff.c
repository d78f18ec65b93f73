/* clmem diff: two saved runs side by side, each result with a verdict, so
 * that CI can fail on a performance regression. A change counts only when
 * it is larger than the threshold and than the runs' own noise (their
 * sample ranges do not overlap): one noisy sample must not fail a build. */
#include "report/diff.h"

#include "report/csv.h"
#include "report/json.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef CLMEM_VERSION
#define CLMEM_VERSION "unknown"
#endif

/* One entry per verdict, in enum order; whether it fails the gate. */
static const struct {
    const char *name;
    int regression;
} verdicts[CLMEM_N_VERDICTS] = {
    [CLMEM_VERDICT_SAME] = {"same", 0},       [CLMEM_VERDICT_FASTER] = {"faster", 0},
    [CLMEM_VERDICT_SLOWER] = {"slower", 1},   [CLMEM_VERDICT_NEW] = {"new", 0},
    [CLMEM_VERDICT_GONE] = {"gone", 1},       [CLMEM_VERDICT_FAILED] = {"failed", 1},
    [CLMEM_VERDICT_SKIPPED] = {"skipped", 0}, [CLMEM_VERDICT_NOT_RUN] = {"not run", 0},
};

const char *clmem_verdict_name(enum clmem_verdict verdict)
{
    return (unsigned)verdict < CLMEM_N_VERDICTS ? verdicts[verdict].name : "?";
}

static int measured(const struct clmem_result *r)
{
    return r && !r->skipped && r->verified;
}

enum clmem_verdict clmem_diff_verdict(const struct clmem_result *base,
                                      const struct clmem_result *newer, double threshold,
                                      double *ratio)
{
    *ratio = NAN;
    /* A wrong answer fails the gate whatever came before it. */
    if (newer && !newer->skipped && !newer->verified)
        return CLMEM_VERDICT_FAILED;
    if (!newer)
        return CLMEM_VERDICT_GONE;
    if (!base)
        return CLMEM_VERDICT_NEW;
    if (newer->skipped)
        return measured(base) ? CLMEM_VERDICT_GONE : CLMEM_VERDICT_SKIPPED;
    /* BASE has no verified value to hold NEW's against: skipped, or wrong
     * (a wrong kernel's time says nothing). */
    if (!measured(base))
        return CLMEM_VERDICT_NEW;
    /* A metric that is not a positive number (a file edited by hand) gives
     * no ratio: nothing to judge, so nothing to fail on. */
    if (!(base->metric > 0) || !isfinite(base->metric) || !isfinite(newer->metric))
        return CLMEM_VERDICT_SAME;
    *ratio = newer->metric / base->metric;
    double limit = threshold / 100;
    /* Higher is better for every metric, and the times go the other way:
     * NEW's best sample slower than BASE's worst is a slowdown no noise in
     * either run explains. NaN times (no samples) compare false: same. */
    if (*ratio < 1 - limit && newer->min_ms > base->max_ms)
        return CLMEM_VERDICT_SLOWER;
    if (*ratio > 1 + limit && newer->max_ms < base->min_ms)
        return CLMEM_VERDICT_FASTER;
    return CLMEM_VERDICT_SAME;
}

/* Pairs base runs with new ones: newer_of[b] is the new run of base run b,
 * or SIZE_MAX; how[b] says by what. */
static void pair_runs(const struct clmem_compare_device *base, size_t n_base,
                      const struct clmem_compare_device *newer, size_t n_newer, size_t *newer_of,
                      const char **how, unsigned char *taken)
{
    for (size_t b = 0; b < n_base; b++)
        newer_of[b] = SIZE_MAX;
    /* One run each: a driver update, or another machine, is what is diffed. */
    if (n_base == 1 && n_newer == 1) {
        newer_of[0] = 0;
        how[0] = "one run in each file";
        taken[0] = 1;
        return;
    }
    /* MPI files: rank r against rank r, then whatever is left by its device. */
    for (size_t b = 0; b < n_base; b++)
        for (size_t n = 0; n < n_newer && base[b].rank >= 0; n++)
            if (!taken[n] && newer[n].rank == base[b].rank) {
                newer_of[b] = n;
                how[b] = "rank";
                taken[n] = 1;
                break;
            }
    for (size_t b = 0; b < n_base; b++)
        for (size_t n = 0; n < n_newer && newer_of[b] == SIZE_MAX; n++)
            if (!taken[n] && strcmp(newer[n].device.name, base[b].device.name) == 0) {
                newer_of[b] = n;
                how[b] = "device name";
                taken[n] = 1;
            }
}

/* The order of results by their point (workload, variant, size, sweep
 * and its value where there is one): results at one point are matched. */
static int point_order(const struct clmem_result *a, const struct clmem_result *b)
{
    int c;
    if ((c = strcmp(a->workload, b->workload)) || (c = strcmp(a->variant, b->variant)) ||
        (c = strcmp(a->size, b->size)) || (c = strcmp(a->sweep, b->sweep)) || !a->sweep[0])
        return c;
    return (a->sweep_value > b->sweep_value) - (a->sweep_value < b->sweep_value);
}

/* NEW's results sorted by point, repeats in their order: a base result
 * finds its partners by binary search, in time n log n where a scan of
 * every pair took minutes for 40,000 results. */
struct index {
    const struct clmem_result **order; /* by point, then place in the run */
    size_t *next; /* at the first of each run of equal points: the next not yet taken */
    size_t n;
};

static int by_point(const void *a, const void *b)
{
    const struct clmem_result *x = *(const struct clmem_result *const *)a,
                              *y = *(const struct clmem_result *const *)b;
    int c = point_order(x, y);
    return c ? c : (x > y) - (x < y); /* one array: its order */
}

static int index_build(struct index *x, const struct clmem_result *results, size_t n)
{
    x->n = n;
    x->order = malloc((n ? n : 1) * sizeof *x->order);
    x->next = malloc((n ? n : 1) * sizeof *x->next);
    if (!x->order || !x->next)
        return -1;
    for (size_t i = 0; i < n; i++) {
        x->order[i] = &results[i];
        x->next[i] = i;
    }
    qsort(x->order, n, sizeof *x->order, by_point);
    return 0;
}

static void index_free(struct index *x)
{
    free(x->order);
    free(x->next);
}

/* The first not yet taken of NEW's results at r's point (taking it), or
 * NULL: each new result answers one base result, a file that repeats a
 * point pairing its repeats in order. */
static const struct clmem_result *index_take(struct index *x, const struct clmem_result *r)
{
    size_t lo = 0, hi = x->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (point_order(x->order[mid], r) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == x->n || point_order(x->order[lo], r) != 0)
        return NULL;
    size_t at = x->next[lo];
    if (at == x->n || point_order(x->order[at], r) != 0)
        return NULL; /* every repeat taken */
    x->next[lo] = at + 1;
    return x->order[at];
}

/* The distinct workloads of a run, sorted, for add_row's "not run": a
 * file may name any number (a scan of the names for each result took
 * minutes for 80,000). */
struct workloads {
    const char **names;
    size_t n;
};

static int name_order(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* `names` (n of them) sorted, each once; how many are left. */
static size_t sort_unique(const char **names, size_t n)
{
    size_t kept = 0;
    qsort(names, n, sizeof *names, name_order);
    for (size_t i = 0; i < n; i++)
        if (kept == 0 || strcmp(names[kept - 1], names[i]) != 0)
            names[kept++] = names[i];
    return kept;
}

static int workloads_of(const struct clmem_compare_device *run, struct workloads *w)
{
    w->n = 0;
    w->names = NULL;
    if (!run || !run->n_results)
        return 0;
    if (!(w->names = malloc(run->n_results * sizeof *w->names)))
        return -1;
    for (size_t i = 0; i < run->n_results; i++)
        w->names[i] = run->results[i].workload;
    w->n = sort_unique(w->names, run->n_results);
    return 0;
}

/* Whether `w` holds `workload`. */
static int ran_workload(const struct workloads *w, const char *workload)
{
    return w->n && bsearch(&workload, w->names, w->n, sizeof *w->names, name_order) != NULL;
}

static void add_row(struct clmem_diff *diff, size_t pair, const struct clmem_result *base,
                    const struct clmem_result *newer, const struct workloads *ran)
{
    struct clmem_diff_row *row = &diff->rows[diff->n_rows++];
    const struct clmem_compare_device *new_run = diff->pairs[pair].newer;
    row->pair = pair;
    row->base = base;
    row->newer = newer;
    row->verdict = clmem_diff_verdict(base, newer, diff->threshold, &row->ratio);
    /* A run of some workloads (bench --workloads) says nothing of the
     * others: not run, not gone. */
    if (!newer && base && new_run && new_run->n_results && !ran_workload(ran, base->workload))
        row->verdict = CLMEM_VERDICT_NOT_RUN;
    diff->counts[row->verdict]++;
}

/* The rows of one pair: BASE's results in its order, each with its match,
 * then those only in NEW, in NEW's order. */
static int diff_pair(struct clmem_diff *diff, size_t pair, struct clmem_error *err)
{
    const struct clmem_compare_device *b = diff->pairs[pair].base, *n = diff->pairs[pair].newer;
    size_t n_new = n ? n->n_results : 0;
    struct index x = {0};
    struct workloads ran = {0};
    unsigned char *taken = calloc(n_new ? n_new : 1, 1);
    int status = CLMEM_OK;
    if (!taken || index_build(&x, n ? n->results : NULL, n_new) != 0 ||
        workloads_of(n, &ran) != 0) {
        status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
        goto done;
    }
    for (size_t i = 0; b && i < b->n_results; i++) {
        const struct clmem_result *match = index_take(&x, &b->results[i]);
        if (match)
            taken[match - n->results] = 1;
        add_row(diff, pair, &b->results[i], match, &ran);
    }
    for (size_t j = 0; j < n_new; j++)
        if (!taken[j])
            add_row(diff, pair, NULL, &n->results[j], &ran);
done:
    free(taken);
    index_free(&x);
    free(ran.names);
    return status;
}

int clmem_diff_runs(const struct clmem_compare_device *base, size_t n_base,
                    const struct clmem_compare_device *newer, size_t n_newer, double threshold,
                    struct clmem_diff *diff, struct clmem_error *err)
{
    memset(diff, 0, sizeof *diff);
    if (!(threshold >= 0 && threshold <= CLMEM_DIFF_MAX_THRESHOLD))
        return clmem_fail(err, CLMEM_ERR_USAGE, "threshold %g%% is out of range (0 to %g)",
                          threshold, CLMEM_DIFF_MAX_THRESHOLD);
    diff->threshold = threshold;
    size_t n_rows = 0;
    for (size_t i = 0; i < n_base; i++)
        n_rows += base[i].n_results;
    for (size_t i = 0; i < n_newer; i++)
        n_rows += newer[i].n_results;
    size_t *newer_of = clmem_alloc_array(n_base + 1, sizeof *newer_of, err);
    const char **how = clmem_alloc_array(n_base + 1, sizeof *how, err);
    unsigned char *taken = calloc(n_newer + 1, 1);
    diff->pairs = clmem_alloc_array(n_base + n_newer + 1, sizeof *diff->pairs, err);
    diff->rows = clmem_alloc_array(n_rows + 1, sizeof *diff->rows, err);
    int status = CLMEM_OK;
    if (!newer_of || !how || !taken || !diff->pairs || !diff->rows) {
        status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
        goto cleanup;
    }
    pair_runs(base, n_base, newer, n_newer, newer_of, how, taken);
    /* Base runs in their order, each with its partner; then the new runs
     * nothing paired, in theirs. */
    for (size_t b = 0; b < n_base; b++)
        diff->pairs[diff->n_pairs++] =
            (struct clmem_diff_pair){&base[b], newer_of[b] == SIZE_MAX ? NULL : &newer[newer_of[b]],
                                     newer_of[b] == SIZE_MAX ? "unpaired" : how[b]};
    for (size_t n = 0; n < n_newer; n++)
        if (!taken[n])
            diff->pairs[diff->n_pairs++] = (struct clmem_diff_pair){NULL, &newer[n], "unpaired"};
    for (size_t p = 0; p < diff->n_pairs && status == CLMEM_OK; p++)
        status = diff_pair(diff, p, err);
    for (size_t i = 0; i < n_base; i++)
        diff->interrupted += base[i].interrupted != 0;
    for (size_t i = 0; i < n_newer; i++)
        diff->interrupted += newer[i].interrupted != 0;

cleanup:
    free(newer_of);
    free(how);
    free(taken);
    if (status)
        clmem_diff_free(diff);
    return status;
}

void clmem_diff_free(struct clmem_diff *diff)
{
    free(diff->pairs);
    free(diff->rows);
    memset(diff, 0, sizeof *diff);
}

int clmem_diff_changed(enum clmem_verdict verdict)
{
    return verdict == CLMEM_VERDICT_FASTER || verdict == CLMEM_VERDICT_SLOWER ||
           verdict == CLMEM_VERDICT_NEW || verdict == CLMEM_VERDICT_GONE ||
           verdict == CLMEM_VERDICT_FAILED;
}

/* The names of a comma-separated list, sorted, each once, in one
 * allocation with their text (NULL: out of memory). A row is looked up in
 * log time: a scan of the list for each of 80,000 rows is quadratic. */
static struct workloads names_of_list(const char *list)
{
    struct workloads w = {NULL, 0};
    size_t n = 1, len = strlen(list);
    for (const char *p = list; (p = strchr(p, ',')); p++)
        n++;
    char *block = malloc(n * sizeof *w.names + len + 1);
    if (!block)
        return w;
    w.names = (const char **)(void *)block;
    char *text = block + n * sizeof *w.names;
    memcpy(text, list, len + 1);
    for (char *p = text; p; w.n++) {
        w.names[w.n] = p;
        if ((p = strchr(p, ',')))
            *p++ = '\0';
    }
    w.n = sort_unique(w.names, w.n);
    return w;
}

int clmem_diff_only(struct clmem_diff *diff, const char *workloads, struct clmem_error *err)
{
    size_t kept = 0;
    struct workloads only = names_of_list(workloads);
    if (!only.names)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    memset(diff->counts, 0, sizeof diff->counts);
    for (size_t i = 0; i < diff->n_rows; i++) {
        const struct clmem_diff_row *row = &diff->rows[i];
        if (!ran_workload(&only, (row->base ? row->base : row->newer)->workload))
            continue;
        diff->counts[row->verdict]++;
        diff->rows[kept++] = *row;
    }
    diff->n_rows = kept;
    free(only.names);
    return CLMEM_OK;
}

/* Whether the writers show the row. */
static int shown(const struct clmem_diff *diff, const struct clmem_diff_row *row)
{
    return !diff->changes_only || clmem_diff_changed(row->verdict);
}

/* Whether a result is slower, failed or gone. */
static int verdict_regressed(const struct clmem_diff *diff)
{
    for (size_t v = 0; v < CLMEM_N_VERDICTS; v++)
        if (verdicts[v].regression && diff->counts[v])
            return 1;
    return 0;
}

int clmem_diff_regressed(const struct clmem_diff *diff)
{
    return verdict_regressed(diff) || diff->interrupted;
}

const char *clmem_diff_outcome(const struct clmem_diff *diff)
{
    /* An interrupted run lacks the results it did not reach: its "gone"
     * and "same" say less than they seem to, so the gate does not pass. */
    if (diff->interrupted)
        return verdict_regressed(diff)
                   ? "incomplete (a run was interrupted) and a regression (slower, failed or gone)"
                   : "incomplete: a run was interrupted";
    return verdict_regressed(diff) ? "a regression (slower, failed or gone)" : "no regression";
}

void clmem_diff_summary(const struct clmem_diff *diff, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t v = 0; v < CLMEM_N_VERDICTS && used < size; v++)
        if (diff->counts[v]) {
            int n = snprintf(out + used, size - used, "%s%zu %s", used ? ", " : "", diff->counts[v],
                             verdicts[v].name);
            used += n > 0 ? (size_t)n : 0;
        }
    if (!out[0])
        snprintf(out, size, "no results");
}

/* ---- what both writers say about a row ---- */

/* "rank 0 on vm: NVIDIA H100 80GB HBM3", "vm: NAME", or the name alone
 * when the file did not record its host; "-" for no run. */
static void run_label(const struct clmem_compare_device *run, char *out, size_t size)
{
    if (!run)
        clmem_text_format(out, size, "-");
    else if (run->rank >= 0)
        clmem_text_format(out, size, "rank %d on %s: %s", run->rank, run->host[0] ? run->host : "?",
                          run->device.name);
    else if (run->host[0])
        clmem_text_format(out, size, "%s: %s", run->host, run->device.name);
    else
        clmem_text_format(out, size, "%s", run->device.name);
}

static const char *row_unit(const struct clmem_diff_row *row)
{
    return row->newer && row->newer->metric_unit[0] ? row->newer->metric_unit
           : row->base                              ? row->base->metric_unit
                                                    : "";
}

/* A side's metric when it has one (a failed result was still timed). */
static double side_metric(const struct clmem_result *r)
{
    return r && !r->skipped ? r->metric : NAN;
}

/* The result a row describes, for its workload, variant, size and sweep. */
static const struct clmem_result *row_result(const struct clmem_diff_row *row)
{
    return row->base ? row->base : row->newer;
}

/* ---- table ---- */

enum {
    COL_PAIR,
    COL_WORKLOAD,
    COL_VARIANT,
    COL_SIZE,
    COL_BASE,
    COL_NEW,
    COL_RATIO,
    COL_VERDICT,
    COL_SPREAD,
    N_COLUMNS
};
static const struct {
    const char *title;
    int right; /* numbers align right */
} columns[N_COLUMNS] = {
    [COL_PAIR] = {"run", 0},
    [COL_WORKLOAD] = {"workload", 0},
    [COL_VARIANT] = {"variant", 0},
    [COL_SIZE] = {"size", 0},
    [COL_BASE] = {"base", 1},
    [COL_NEW] = {"new", 1},
    [COL_RATIO] = {"ratio", 1},
    [COL_VERDICT] = {"verdict", 0},
    [COL_SPREAD] = {"spread base / new", 0},
};

struct table_row {
    char cell[N_COLUMNS][112];
};

/* A run's samples, fastest and slowest, as percentages off its median:
 * "-0.4..+1.2%"; "-" when it has none. */
static void spread_text(const struct clmem_result *r, char *out, size_t size)
{
    if (!r || r->skipped || !(r->median_ms > 0) || isnan(r->min_ms) || isnan(r->max_ms))
        snprintf(out, size, "-");
    else
        /* min <= median <= max: the signs are known, and fabs keeps a
         * rounded -0.0 from reading "+-0.0". */
        snprintf(out, size, "-%.1f..+%.1f%%", fabs(r->min_ms / r->median_ms - 1) * 100,
                 fabs(r->max_ms / r->median_ms - 1) * 100);
}

static void fill_row(const struct clmem_diff_row *row, struct table_row *t)
{
    const struct clmem_result *r = row_result(row);
    char base_spread[48], new_spread[48];
    snprintf(t->cell[COL_PAIR], sizeof t->cell[COL_PAIR], "#%zu", row->pair + 1);
    clmem_text_format(t->cell[COL_WORKLOAD], sizeof t->cell[COL_WORKLOAD], "%s", r->workload);
    clmem_text_format(t->cell[COL_VARIANT], sizeof t->cell[COL_VARIANT], "%s", r->variant);
    if (r->sweep[0])
        clmem_text_format(t->cell[COL_SIZE], sizeof t->cell[COL_SIZE], "%s %s=%u", r->size,
                          r->sweep, r->sweep_value);
    else
        clmem_text_format(t->cell[COL_SIZE], sizeof t->cell[COL_SIZE], "%s", r->size);
    clmem_format_metric(side_metric(row->base), row_unit(row), t->cell[COL_BASE],
                        sizeof t->cell[COL_BASE]);
    clmem_format_metric(side_metric(row->newer), row_unit(row), t->cell[COL_NEW],
                        sizeof t->cell[COL_NEW]);
    if (isnan(row->ratio))
        snprintf(t->cell[COL_RATIO], sizeof t->cell[COL_RATIO], "-");
    else
        snprintf(t->cell[COL_RATIO], sizeof t->cell[COL_RATIO], "%.2fx", row->ratio);
    snprintf(t->cell[COL_VERDICT], sizeof t->cell[COL_VERDICT], "%s",
             clmem_verdict_name(row->verdict));
    spread_text(row->base, base_spread, sizeof base_spread);
    spread_text(row->newer, new_spread, sizeof new_spread);
    snprintf(t->cell[COL_SPREAD], sizeof t->cell[COL_SPREAD], "%s / %s", base_spread, new_spread);
    /* Names from the files, shown as text: no control character reaches
     * the terminal. */
    for (size_t c = 0; c < N_COLUMNS; c++) {
        char raw[sizeof t->cell[c]];
        memcpy(raw, t->cell[c], sizeof raw);
        clmem_text_escape(raw, t->cell[c], sizeof t->cell[c]);
    }
}

/* "base bench/h100.json: NVIDIA H100 80GB HBM3 (NVIDIA CUDA, driver
 * 580.159.04, clmem 0.1.0, host not recorded)". */
static void describe_run(FILE *out, const char *side, const struct clmem_compare_device *run)
{
    char label[512];
    if (!run) {
        fprintf(out, "  %s none (no run of this file pairs with it)\n", side);
        return;
    }
    /* Every name from the file escaped: no control character reaches the
     * terminal. */
    run_label(run, label, sizeof label);
    fprintf(out, "  %s ", side);
    clmem_fputs_escaped(run->origin[0] ? run->origin : "-", out);
    fputs(": ", out);
    clmem_fputs_escaped(label, out);
    fputs(" (", out);
    if (run->device.platform_name[0]) {
        clmem_fputs_escaped(run->device.platform_name, out);
        fputs(", ", out);
    }
    fputs("driver ", out);
    clmem_fputs_escaped(run->device.driver[0] ? run->device.driver : "?", out);
    if (run->clmem_version[0]) {
        fputs(", clmem ", out);
        clmem_fputs_escaped(run->clmem_version, out);
        fputs(" ", out);
        clmem_fputs_escaped(run->clmem_git[0] ? run->clmem_git : "(build not recorded)", out);
    }
    /* A single-device file with no host name (bench/'s from clmem 0.1.0). */
    if (!run->host[0] && run->rank < 0)
        fprintf(out, ", host not recorded");
    fprintf(out, ")\n");
}

/* One line of the table from `first` on; the last column is not padded,
 * so no line ends in blanks. */
static void print_cells(FILE *out, size_t first, const size_t width[N_COLUMNS],
                        const char *const cell[N_COLUMNS])
{
    for (size_t c = first; c < N_COLUMNS; c++) {
        if (c + 1 == N_COLUMNS)
            fprintf(out, "%s\n", cell[c]);
        else if (columns[c].right)
            fprintf(out, "%*s  ", (int)width[c], cell[c]);
        else
            fprintf(out, "%-*s  ", (int)width[c], cell[c]);
    }
}

int clmem_diff_table(FILE *out, const struct clmem_diff *diff)
{
    struct table_row *rows = calloc(diff->n_rows ? diff->n_rows : 1, sizeof *rows);
    if (!rows)
        return CLMEM_ERR_CL;
    /* The run column only says something when there are several pairs. */
    size_t first = diff->n_pairs > 1 ? COL_PAIR : COL_WORKLOAD;
    size_t width[N_COLUMNS];
    const char *cell[N_COLUMNS];
    for (size_t c = 0; c < N_COLUMNS; c++) {
        width[c] = strlen(columns[c].title);
        cell[c] = columns[c].title;
    }
    for (size_t i = 0; i < diff->n_rows; i++) {
        fill_row(&diff->rows[i], &rows[i]);
        if (!shown(diff, &diff->rows[i]))
            continue;
        for (size_t c = 0; c < N_COLUMNS; c++)
            if (strlen(rows[i].cell[c]) > width[c])
                width[c] = strlen(rows[i].cell[c]);
    }
    char summary[256];
    clmem_diff_summary(diff, summary, sizeof summary);
    const char *verdict = clmem_diff_outcome(diff);
    /* The outcome first, where a glance lands, and again under the table. */
    fprintf(out, "%s: %s\n", summary, verdict);
    for (size_t p = 0; p < diff->n_pairs; p++) {
        if (diff->pairs[p].base && diff->pairs[p].newer)
            fprintf(out, "run #%zu, paired by %s:\n", p + 1, diff->pairs[p].paired_by);
        else
            fprintf(out, "run #%zu, unpaired: only in the %s file\n", p + 1,
                    diff->pairs[p].base ? "base" : "new");
        const struct clmem_compare_device *b = diff->pairs[p].base, *n = diff->pairs[p].newer;
        describe_run(out, "base", b);
        describe_run(out, "new ", n);
        /* Another build or driver is a cause beside the change itself. */
        if (b && n && strcmp(b->clmem_git, n->clmem_git) != 0)
            fprintf(out, "  the builds differ: a change may be clmem's own as well as the "
                         "device's\n");
        if (b && n && strcmp(b->device.driver, n->device.driver) != 0)
            fprintf(out, "  the drivers differ: a change may be the driver's\n");
        for (int side = 0; side < 2; side++) {
            const struct clmem_compare_device *run =
                side ? diff->pairs[p].newer : diff->pairs[p].base;
            if (run && run->interrupted)
                fprintf(out,
                        "  the %s run was interrupted (\"interrupted\": true): it holds only "
                        "the results that finished\n",
                        side ? "new" : "base");
        }
    }
    fprintf(out,
            "a change counts beyond %g%% and outside both runs' sample ranges; "
            "spread: fastest..slowest sample off the median\n",
            diff->threshold);
    if (diff->changes_only) {
        size_t hidden = 0;
        for (size_t i = 0; i < diff->n_rows; i++)
            hidden += !shown(diff, &diff->rows[i]);
        fprintf(out, "only the rows that changed: %zu unchanged not shown\n", hidden);
    }
    print_cells(out, first, width, cell);
    for (size_t i = 0; i < diff->n_rows; i++) {
        if (!shown(diff, &diff->rows[i]))
            continue;
        for (size_t c = 0; c < N_COLUMNS; c++)
            cell[c] = rows[i].cell[c];
        print_cells(out, first, width, cell);
    }
    fprintf(out, "%s: %s\n", summary, verdict);
    free(rows);
    return CLMEM_OK;
}

/* ---- CSV ---- */

/* The header never moves: tools downstream read columns by position. */
static const char csv_header[] =
    "run,workload,variant,size,sweep,sweep_value,base_device,new_device,unit,base,new,ratio,"
    "verdict,base_median_ms,base_min_ms,base_max_ms,new_median_ms,new_min_ms,new_max_ms";

/* Full precision: the shortest of %.15g and %.17g that reads back as the
 * same double (cJSON's rule); an empty cell for "none". */
static void exact(FILE *out, double value)
{
    char text[40];
    if (!isnan(value)) {
        snprintf(text, sizeof text, "%.15g", value);
        if (strtod(text, NULL) != value)
            snprintf(text, sizeof text, "%.17g", value);
        fputs(text, out);
    }
}

static void csv_times(FILE *out, const struct clmem_result *r)
{
    int timed = r && !r->skipped;
    const double times[] = {timed ? r->median_ms : NAN, timed ? r->min_ms : NAN,
                            timed ? r->max_ms : NAN};
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(times); i++) {
        fputc(',', out);
        exact(out, times[i]);
    }
}

int clmem_diff_csv(FILE *out, const struct clmem_diff *diff)
{
    char base_label[512], new_label[512];
    fprintf(out, "%s\n", csv_header);
    for (size_t i = 0; i < diff->n_rows; i++) {
        const struct clmem_diff_row *row = &diff->rows[i];
        const struct clmem_result *r = row_result(row);
        if (!shown(diff, row))
            continue;
        run_label(row->base ? diff->pairs[row->pair].base : NULL, base_label, sizeof base_label);
        run_label(row->newer ? diff->pairs[row->pair].newer : NULL, new_label, sizeof new_label);
        fprintf(out, "%zu,", row->pair + 1);
        const char *texts[] = {r->workload, r->variant, r->size, r->sweep};
        for (size_t t = 0; t < CLMEM_ARRAY_SIZE(texts); t++) {
            clmem_csv_field(out, texts[t]);
            fputc(',', out);
        }
        if (r->sweep[0])
            fprintf(out, "%u", r->sweep_value);
        const char *labels[] = {row->base ? base_label : "", row->newer ? new_label : "",
                                row_unit(row)};
        for (size_t t = 0; t < CLMEM_ARRAY_SIZE(labels); t++) {
            fputc(',', out);
            clmem_csv_field(out, labels[t]);
        }
        const double numbers[] = {side_metric(row->base), side_metric(row->newer), row->ratio};
        for (size_t t = 0; t < CLMEM_ARRAY_SIZE(numbers); t++) {
            fputc(',', out);
            exact(out, numbers[t]);
        }
        fprintf(out, ",%s", clmem_verdict_name(row->verdict));
        csv_times(out, row->base);
        csv_times(out, row->newer);
        fputc('\n', out);
    }
    return CLMEM_OK;
}

/* ---- JSON ---- */

/* A number, or null where there is none (JSON has no NaN). */
static void add_number(cJSON *o, const char *key, double value)
{
    if (isfinite(value))
        cJSON_AddNumberToObject(o, key, value);
    else
        cJSON_AddNullToObject(o, key);
}

static cJSON *json_run(const struct clmem_compare_device *run)
{
    if (!run)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", run->origin);
    cJSON_AddStringToObject(o, "host", run->host);
    if (run->rank >= 0)
        cJSON_AddNumberToObject(o, "rank", run->rank);
    else
        cJSON_AddNullToObject(o, "rank");
    cJSON_AddStringToObject(o, "device", run->device.name);
    cJSON_AddStringToObject(o, "platform", run->device.platform_name);
    cJSON_AddStringToObject(o, "driver", run->device.driver);
    cJSON_AddStringToObject(o, "clmem_version", run->clmem_version);
    cJSON_AddStringToObject(o, "clmem_git", run->clmem_git);
    cJSON_AddStringToObject(o, "created", run->created);
    cJSON_AddBoolToObject(o, "interrupted", run->interrupted);
    return o;
}

/* One side of a row: "base_status", "base_median_ms", ... */
static void json_side(cJSON *o, const char *side, const struct clmem_result *r)
{
    static const char *const keys[] = {"status", "median_ms", "min_ms", "max_ms"};
    char key[4][32];
    for (size_t k = 0; k < CLMEM_ARRAY_SIZE(keys); k++)
        snprintf(key[k], sizeof key[k], "%s_%s", side, keys[k]);
    if (r)
        cJSON_AddStringToObject(o, key[0], clmem_result_status(r));
    else
        cJSON_AddNullToObject(o, key[0]);
    int timed = r && !r->skipped;
    add_number(o, key[1], timed ? r->median_ms : NAN);
    add_number(o, key[2], timed ? r->min_ms : NAN);
    add_number(o, key[3], timed ? r->max_ms : NAN);
}

int clmem_diff_json(FILE *out, const struct clmem_diff *diff, struct clmem_error *err)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    cJSON_AddStringToObject(root, "clmem_version", CLMEM_VERSION);
    cJSON_AddNumberToObject(root, "threshold_pct", diff->threshold);
    cJSON *pairs = cJSON_AddArrayToObject(root, "runs");
    for (size_t p = 0; p < diff->n_pairs; p++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "paired_by", diff->pairs[p].paired_by);
        cJSON_AddItemToObject(o, "base", json_run(diff->pairs[p].base));
        cJSON_AddItemToObject(o, "new", json_run(diff->pairs[p].newer));
        cJSON_AddItemToArray(pairs, o);
    }
    cJSON *list = cJSON_AddArrayToObject(root, "results");
    for (size_t i = 0; i < diff->n_rows; i++) {
        const struct clmem_diff_row *row = &diff->rows[i];
        const struct clmem_result *r = row_result(row);
        if (!shown(diff, row))
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "run", (double)row->pair + 1); /* as the table's #N */
        cJSON_AddStringToObject(o, "workload", r->workload);
        cJSON_AddStringToObject(o, "variant", r->variant);
        cJSON_AddStringToObject(o, "size", r->size);
        if (r->sweep[0]) {
            cJSON_AddStringToObject(o, "sweep", r->sweep);
            cJSON_AddNumberToObject(o, "sweep_value", r->sweep_value);
        }
        cJSON_AddStringToObject(o, "unit", row_unit(row));
        add_number(o, "base", side_metric(row->base));
        add_number(o, "new", side_metric(row->newer));
        add_number(o, "ratio", row->ratio);
        cJSON_AddStringToObject(o, "verdict", clmem_verdict_name(row->verdict));
        json_side(o, "base", row->base);
        json_side(o, "new", row->newer);
        cJSON_AddItemToArray(list, o);
    }
    cJSON *summary = cJSON_AddObjectToObject(root, "summary");
    for (size_t v = 0; v < CLMEM_N_VERDICTS; v++)
        cJSON_AddNumberToObject(summary, v == CLMEM_VERDICT_NOT_RUN ? "not_run" : verdicts[v].name,
                                (double)diff->counts[v]);
    cJSON_AddBoolToObject(summary, "regression", verdict_regressed(diff));
    cJSON_AddNumberToObject(summary, "interrupted_runs", (double)diff->interrupted);
    cJSON_AddBoolToObject(summary, "gate_fails", clmem_diff_regressed(diff));
    return clmem_json_print(out, root, err);
}

int clmem_diff_write(FILE *out, enum clmem_format format, const struct clmem_diff *diff,
                     struct clmem_error *err)
{
    int status = CLMEM_OK;
    errno = 0;
    switch (format) {
    case CLMEM_FORMAT_TABLE:
        if ((status = clmem_diff_table(out, diff)))
            clmem_fail(err, status, "out of host memory");
        break;
    case CLMEM_FORMAT_CSV: status = clmem_diff_csv(out, diff); break;
    case CLMEM_FORMAT_JSON: status = clmem_diff_json(out, diff, err); break;
    }
    if (status == CLMEM_OK && (fflush(out) != 0 || ferror(out))) {
        int saved = errno ? errno : EIO;
        clmem_fail(err, CLMEM_ERR_USAGE, "cannot write the report: %s", strerror(saved));
        errno = saved; /* for the caller's message naming its file */
        return CLMEM_ERR_USAGE;
    }
    return status;
}
