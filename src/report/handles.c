/* clmem.h's handles for reports that need nothing but their structs: a
 * report's meta made and released, a run file's results. */
#include "report/model.h"

#include <stdlib.h>

/* ---- a report's meta: copies of what it names ---- */
struct held_meta {
    struct clmem_report_meta meta; /* first: the handle is its address */
    struct clmem_device device;
    struct clmem_peak peak;
};

int clmem_report_meta_create(const struct clmem_device *device, const struct clmem_peak *peak,
                             struct clmem_report_meta **meta, struct clmem_error *err)
{
    CLMEM_REFUSE_NULL(err, err);
    CLMEM_REFUSE_NULL(meta, err);
    struct held_meta *held = calloc(1, sizeof *held);
    *meta = held ? &held->meta : NULL;
    if (!held)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    if (device) {
        held->device = *device;
        held->meta.device = &held->device;
    }
    if (peak) {
        held->peak = *peak;
        held->meta.peak = &held->peak;
    }
    return CLMEM_OK;
}

void clmem_report_meta_release(struct clmem_report_meta *meta)
{
    free(meta); /* the held_meta it starts */
}

/* ---- run files ---- */
const struct clmem_result *clmem_runfile_results(const struct clmem_compare_device *runs,
                                                 size_t n_runs, size_t i, size_t *n_results)
{
    if (n_results)
        *n_results = 0;
    if (!runs || i >= n_runs || !n_results)
        return NULL;
    *n_results = runs[i].n_results;
    return runs[i].results;
}
