/* clmem diff: two saved runs side by side, each result with a verdict, so
 * that CI can fail on a performance regression. A change counts only when
 * it is larger than the threshold and than the runs' own noise (their
 * sample ranges do not overlap): one noisy sample must not fail a build. */
#include "report/diff_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* Whether a result is slower, failed or gone. */
int diff_verdict_regressed(const struct clmem_diff *diff)
{
    for (size_t v = 0; v < CLMEM_N_VERDICTS; v++)
        if (verdicts[v].regression && diff->counts[v])
            return 1;
    return 0;
}

int clmem_diff_regressed(const struct clmem_diff *diff)
{
    return diff_verdict_regressed(diff) || diff->interrupted;
}

const char *clmem_diff_outcome(const struct clmem_diff *diff)
{
    /* An interrupted run lacks the results it did not reach: its "gone"
     * and "same" say less than they seem to, so the gate does not pass. */
    if (diff->interrupted)
        return diff_verdict_regressed(diff)
                   ? "incomplete (a run was interrupted) and a regression (slower, failed or gone)"
                   : "incomplete: a run was interrupted";
    return diff_verdict_regressed(diff) ? "a regression (slower, failed or gone)" : "no regression";
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
