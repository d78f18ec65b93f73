/* The one table of workloads, made from meson.build's list `workloads`
 * (workload_list.h, generated: CLMEM_WORKLOADS(X) names each one, in the
 * order `clmem list` shows them). Workload NAME is clmem_workload_NAME,
 * defined in src/workloads/NAME.c. */
#include "harness/workload.h"
#include "workload_list.h"

#include <string.h>

#define DECLARE(name) extern const struct clmem_workload clmem_workload_##name;
CLMEM_WORKLOADS(DECLARE)
#define ENTRY(name) &clmem_workload_##name,
static const struct clmem_workload *const workloads[] = {CLMEM_WORKLOADS(ENTRY)};

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

void clmem_workload_describe(const struct clmem_workload *w, struct clmem_workload_info *info)
{
    *info = (struct clmem_workload_info){w->name,      w->summary,     w->default_size,
                                         w->size_help, w->metric_unit, w->n_variants};
}

void clmem_variant_describe(const struct clmem_workload *w, size_t i,
                            struct clmem_variant_info *info)
{
    const struct clmem_variant *v = &w->variants[i];
    *info = (struct clmem_variant_info){v->name, v->summary, v->library};
}
