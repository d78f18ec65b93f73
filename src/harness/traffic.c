/* The traffic model's bound: each level's predicted time is the amount
 * the variant moves there over the level's rate, the binding level the
 * slowest, and a result is placed as predicted / measured time (the
 * fraction of its bound, as peak_fraction is of the copy roof). */
#include "harness/traffic.h"

#include <math.h>
#include <stdio.h>
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
}

/* The note's clause, written anew each time the bound is applied. */
static const char model_error_clause[] = "model error: ";

static void drop_clause(char *note)
{
    char *earlier = strstr(note, model_error_clause);
    if (!earlier)
        return;
    char *end = strchr(earlier, ';');
    char *from = earlier > note + 1 && earlier[-2] == ';' ? earlier - 2 : earlier;
    if (end)
        memmove(from, end + (from == earlier ? 2 : 0), strlen(end + (from == earlier ? 2 : 0)) + 1);
    else
        *from = '\0';
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
    if (b->ratio <= 1 + (spread > 0.05 ? spread : 0.05))
        return;
    b->model_error = 1;
    size_t len = strlen(r->note);
    snprintf(r->note + len, sizeof r->note - len, "%s%s%.2fx its %s bound", len ? "; " : "",
             model_error_clause, b->ratio, clmem_bound_level_name(b->binding - 1));
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
