/* The traffic model's bound: each level's predicted time is the amount
 * the variant moves there over the level's rate, the binding level the
 * slowest, and a result is placed as predicted / measured time (the
 * fraction of its bound, as peak_fraction is of the copy roof). */
#include "harness/traffic.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *clmem_bound_level_name(int level)
{
    static const char *const names[CLMEM_BOUND_LEVELS] = {
        [CLMEM_BOUND_GLOBAL] = "global",
        [CLMEM_BOUND_LOCAL] = "local",
        [CLMEM_BOUND_CONSTANT] = "constant",
        [CLMEM_BOUND_COMPUTE] = "compute",
    };
    return level >= 0 && level < CLMEM_BOUND_LEVELS ? names[level] : "";
}

void clmem_bound_declare(const struct clmem_run *run, const struct clmem_variant *v,
                         struct clmem_bound *b)
{
    memset(b, 0, sizeof *b);
    b->ratio = NAN;
    if (!run->workload->traffic)
        return;
    struct clmem_traffic t = {0};
    run->workload->traffic(run, v, &t);
    b->amount[CLMEM_BOUND_GLOBAL] = t.global_bytes;
    b->amount[CLMEM_BOUND_LOCAL] = t.local_bytes;
    b->amount[CLMEM_BOUND_CONSTANT] = t.constant_bytes;
    b->amount[CLMEM_BOUND_COMPUTE] = t.flops;
    if (t.unmodelled)
        snprintf(b->unmodelled, sizeof b->unmodelled, "%s", t.unmodelled);
}

/* The note's bound clause, written anew each time the bound is applied:
 * "model error: RATIOx its LEVEL bound" or "RATIO of its LEVEL bound",
 * either followed by ": not counted: " and the variant's phrase. Clauses
 * are split at "; ". */
static const char model_error_clause[] = "model error: ", far_clause[] = " of its ",
                  unmodelled_clause[] = ": not counted: ", clause_sep[] = "; ";

static int is_bound_clause(const char *clause)
{
    if (strncmp(clause, model_error_clause, sizeof model_error_clause - 1) == 0)
        return 1;
    char *end;
    (void)strtod(clause, &end);
    return end > clause && strncmp(end, far_clause, sizeof far_clause - 1) == 0;
}

/* Takes an earlier application's clause out of the note, and the
 * separator before it (or after it, where it came first). */
static void drop_clause(char *note)
{
    const size_t sep = sizeof clause_sep - 1;
    for (char *clause = note; *clause;) {
        char *end = strstr(clause, clause_sep);
        if (!is_bound_clause(clause)) {
            if (!end)
                return;
            clause = end + sep;
            continue;
        }
        char *from = clause > note ? clause - sep : clause;
        const char *rest = !end ? "" : clause > note ? end : end + sep;
        memmove(from, rest, strlen(rest) + 1);
        clause = from;
    }
}

static void add_clause(struct clmem_result *r)
{
    const struct clmem_bound *b = &r->bound;
    const char *level = clmem_bound_level_name(b->binding - 1);
    size_t len = strlen(r->note);
    const char *sep = len ? clause_sep : "";
    int n;
    if (b->model_error)
        n = snprintf(r->note + len, sizeof r->note - len, "%s%s%.2fx its %s bound", sep,
                     model_error_clause, b->ratio, level);
    else if (b->ratio < CLMEM_BOUND_FAR && b->unmodelled[0])
        n = snprintf(r->note + len, sizeof r->note - len, "%s%.2f%s%s bound", sep, b->ratio,
                     far_clause, level);
    else
        return;
    len += n > 0 ? (size_t)n : 0;
    if (b->unmodelled[0] && len < sizeof r->note)
        snprintf(r->note + len, sizeof r->note - len, "%s%s", unmodelled_clause, b->unmodelled);
}

void clmem_result_bound(struct clmem_result *r, const struct clmem_level_rates *rates)
{
    struct clmem_bound *b = &r->bound;
    drop_clause(r->note);
    b->binding = 0;
    b->ratio = NAN;
    b->model_error = 0;
    for (int l = 0; l < CLMEM_BOUND_LEVELS; l++)
        b->predicted_ms[l] = NAN;
    /* Global traffic of a variant whose roof is the read bandwidth (a
     * reduction reads and writes next to nothing) goes at that rate. */
    double global =
        strcmp(r->roof, "read") == 0 && rates->read_gbs > 0 ? rates->read_gbs : rates->copy_gbs;
    const double rate[CLMEM_BOUND_LEVELS] = {
        [CLMEM_BOUND_GLOBAL] = global,
        [CLMEM_BOUND_LOCAL] = rates->local_gbs,
        [CLMEM_BOUND_CONSTANT] = rates->constant_gbs,
        [CLMEM_BOUND_COMPUTE] = rates->gflops,
    };
    double slowest = 0;
    for (int l = 0; l < CLMEM_BOUND_LEVELS; l++) {
        if (!(b->amount[l] > 0) || !(rate[l] > 0))
            continue;
        /* bytes / (GB/s) -> ns; flops / (GFLOP/s) -> ns; then ms. */
        b->predicted_ms[l] = b->amount[l] / rate[l] * 1e-6;
        if (b->predicted_ms[l] > slowest) {
            slowest = b->predicted_ms[l];
            b->binding = l + 1;
        }
    }
    if (!b->binding || r->skipped || r->error[0] || !r->n_samples || !(r->median_ms > 0))
        return;
    b->ratio = slowest / r->median_ms;
    /* Faster than the bound by more than the samples' spread (at least
     * 5%, the rule a result above its roof meets) is no measurement
     * noise: the model counts traffic the device did not make, or a
     * level's rate reads below what the variant reaches. */
    double spread = (r->max_ms - r->min_ms) / r->median_ms;
    b->model_error = b->ratio > 1 + (spread > 0.05 ? spread : 0.05);
    add_clause(r);
}

int clmem_results_apply_bounds(struct clmem_result *results, size_t n,
                               const struct clmem_level_rates *rates)
{
    if ((!results && n) || !rates)
        return CLMEM_ERR_USAGE;
    for (size_t i = 0; i < n; i++)
        clmem_result_bound(&results[i], rates);
    return CLMEM_OK;
}

int clmem_bound_point(const struct clmem_result *r, int level, double *intensity, double *gflops)
{
    if (level < 0 || level >= CLMEM_BOUND_COMPUTE)
        return 0;
    double flops = r->bound.amount[CLMEM_BOUND_COMPUTE], bytes = r->bound.amount[level];
    if (!(flops > 0) || !(bytes > 0) || !(r->median_ms > 0))
        return 0;
    *intensity = flops / bytes;
    /* flops / ms -> flops per ns / 1e6 -> GFLOP/s. */
    *gflops = flops / r->median_ms * 1e-6;
    return 1;
}

double clmem_bound_rate(const struct clmem_bound *b, int level)
{
    if (level < 0 || level >= CLMEM_BOUND_LEVELS)
        return 0;
    double amount = b->amount[level], ms = b->predicted_ms[level];
    return amount > 0 && ms > 0 ? amount / ms * 1e-6 : 0;
}
