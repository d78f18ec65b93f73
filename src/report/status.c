/* A result's status as every writer names it (table, CSV, JSON, diff):
 * on its own, below the writers, so that none of them needs the file
 * that chooses between them. */
#include "report/model.h"

#include <math.h>

/* Not measured yet: the result a run hands its progress callback before
 * the variant runs, with no sample, no figure and no check. A measured
 * result that failed has its samples or its check's detail, one that an
 * OpenCL error stopped its error; one read from
 * a run file, or a total over devices, its metric. */
static int pending(const struct clmem_result *r)
{
    return !r->skipped && !r->verified && r->n_samples == 0 && !(r->metric > 0) &&
           !r->verify_detail[0] && !r->error[0];
}

double clmem_result_spread(const struct clmem_result *r)
{
    if (!r || r->skipped || r->error[0] || !(r->min_ms > 0) || !(r->max_ms >= r->min_ms))
        return NAN;
    return r->max_ms / r->min_ms;
}

int clmem_result_noisy(const struct clmem_result *r)
{
    return clmem_result_spread(r) > CLMEM_NOISY_SPREAD;
}

const char *clmem_result_status(const struct clmem_result *r)
{
    if (!r)
        return NULL;
    if (pending(r))
        return "pending";
    return r->skipped ? "skipped" : r->verified ? "ok" : "FAILED";
}
