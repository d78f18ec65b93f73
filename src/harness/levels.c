/* A result's rate and a chase's latency at its fastest sample
 * (levels.h), which the level detection and the report both read. */
#include "harness/levels.h"

#include <math.h>

double clmem_result_best_rate(const struct clmem_result *r)
{
    if (!(r->metric > 0) || !(r->min_ms > 0) || !(r->median_ms > 0))
        return NAN;
    return r->metric * r->median_ms / r->min_ms;
}

double clmem_chase_latency_ns(const struct clmem_result *r)
{
    return 1.0 / clmem_result_best_rate(r);
}
