/* The list of workloads (registry.c): what clmem.h's look-ups find, and
 * each workload and variant described for the CLI's lists and help. */
#ifndef CLMEM_WORKLOADS_REGISTRY_H
#define CLMEM_WORKLOADS_REGISTRY_H

#include "clmem/clmem.h"

#include <stddef.h>

struct clmem_workload_info {
    const char *name, *summary, *default_size, *size_help, *metric_unit;
    size_t n_variants;
};
void clmem_workload_describe(const struct clmem_workload *w, struct clmem_workload_info *info);
struct clmem_variant_info {
    const char *name, *summary;
    const char *library; /* a vendor library's routine ("clblast"), else NULL */
};
/* Variant i (< n_variants) of the workload; all NULL past them. */
void clmem_variant_describe(const struct clmem_workload *w, size_t i,
                            struct clmem_variant_info *info);

#endif
