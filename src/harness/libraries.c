/* Which workloads run a vendor library's routine beside their kernels. */
#include "harness/workload.h"

#include <string.h>

int clmem_workload_has_library(const struct clmem_workload *w, const char *library)
{
    for (size_t i = 0; i < w->n_variants; i++)
        if (w->variants[i].library && strcmp(w->variants[i].library, library) == 0)
            return 1;
    return 0;
}

int clmem_compare_check(const struct clmem_workload *w, const char *library,
                        struct clmem_error *err)
{
    int status = clmem_library_check(library, err);
    if (status == CLMEM_OK && library && w && !clmem_workload_has_library(w, library))
        return clmem_fail(err, CLMEM_ERR_USAGE, "workload '%s' has nothing to compare with '%s'",
                          w->name, library);
    return status;
}
