/* The one table of workloads, made from meson.build's list `workloads`
 * (workload_list.h, generated: CLMEM_WORKLOADS(X) names each one, in the
 * order `clmem list` shows them). Workload NAME is clmem_workload_NAME,
 * defined in src/workloads/NAME.c. */
#include "workloads/registry.h"
#include "harness/workload.h"
#include "workload_list.h"

#include <string.h>

#define DECLARE(name) extern const struct clmem_workload clmem_workload_##name;
CLMEM_WORKLOADS(DECLARE)
#define ENTRY(name) &clmem_workload_##name,
static const struct clmem_workload *const workloads[] = {CLMEM_WORKLOADS(ENTRY)};

const struct clmem_workload *const *clmem_workloads(size_t *count)
{
    if (!count)
        return NULL;
    *count = CLMEM_ARRAY_SIZE(workloads);
    return workloads;
}

const struct clmem_workload *clmem_workload_find(const char *name)
{
    for (size_t i = 0; name && i < CLMEM_ARRAY_SIZE(workloads); i++)
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
    const struct clmem_variant *v = i < w->n_variants ? &w->variants[i] : NULL;
    *info = v ? (struct clmem_variant_info){v->name, v->summary, v->library}
              : (struct clmem_variant_info){0};
}

/* Their fields as clmem.h reads them, by name. */
static const struct clmem_member workload_members[] = {
    CLMEM_MEMBER(clmem_workload, name, "name"),
    CLMEM_MEMBER(clmem_workload, summary, "summary"),
    CLMEM_MEMBER(clmem_workload, default_size, "default_size"),
    CLMEM_MEMBER(clmem_workload, size_help, "size_help"),
    CLMEM_MEMBER(clmem_workload, metric_unit, "unit"),
};
static const struct clmem_member variant_members[] = {
    CLMEM_MEMBER(clmem_variant, name, "name"),
    CLMEM_MEMBER(clmem_variant, summary, "summary"),
    CLMEM_MEMBER(clmem_variant, library, "library"),
};

const char *clmem_workload_text(const struct clmem_workload *w, const char *field)
{
    return clmem_member_text(w, workload_members, CLMEM_ARRAY_SIZE(workload_members), field);
}

size_t clmem_workload_variants(const struct clmem_workload *w)
{
    return w ? w->n_variants : 0;
}

const char *clmem_variant_text(const struct clmem_workload *w, size_t i, const char *field)
{
    const struct clmem_variant *v = w && i < w->n_variants ? &w->variants[i] : NULL;
    return clmem_member_text(v, variant_members, CLMEM_ARRAY_SIZE(variant_members), field);
}
