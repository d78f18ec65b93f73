/* The one table of workloads. Adding a workload adds one line here. */
#include "clmem/clmem.h"

#include <string.h>

extern const struct clmem_workload clmem_workload_matmul;
extern const struct clmem_workload clmem_workload_peak;
extern const struct clmem_workload clmem_workload_transpose;
extern const struct clmem_workload clmem_workload_pi;
extern const struct clmem_workload clmem_workload_atomics;
extern const struct clmem_workload clmem_workload_reduce;
extern const struct clmem_workload clmem_workload_dot;
extern const struct clmem_workload clmem_workload_blur;
extern const struct clmem_workload clmem_workload_constmem;
extern const struct clmem_workload clmem_workload_coalescing;
extern const struct clmem_workload clmem_workload_pitched;

/* clang-format off: one workload per line */
static const struct clmem_workload *const workloads[] = {
    &clmem_workload_matmul,
    &clmem_workload_transpose,
    &clmem_workload_pi,
    &clmem_workload_atomics,
    &clmem_workload_reduce,
    &clmem_workload_dot,
    &clmem_workload_blur,
    &clmem_workload_constmem,
    &clmem_workload_coalescing,
    &clmem_workload_pitched,
    &clmem_workload_peak,
};
/* clang-format on */

const struct clmem_workload *const *clmem_workloads(size_t *count)
{
    *count = CLMEM_ARRAY_SIZE(workloads);
    return workloads;
}

const struct clmem_workload *clmem_workload_find(const char *name)
{
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(workloads); i++)
        if (strcmp(workloads[i]->name, name) == 0)
            return workloads[i];
    return NULL;
}

const struct clmem_variant *clmem_variant_find(const struct clmem_workload *w, const char *name)
{
    for (size_t i = 0; i < w->n_variants; i++)
        if (strcmp(w->variants[i].name, name) == 0)
            return &w->variants[i];
    return NULL;
}
