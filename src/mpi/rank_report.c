/* What the ranks ran, once gathered: the JSON report of a run under
 * mpirun, one section per rank, each with its host, device, peaks and
 * results (schema/run.schema.json; docs/usage.md, "Many hosts: MPI"), and
 * freeing the reports. Written and checked as every report is (the report
 * layer's clmem_report_flush; a file ended by clmem_output_end). No MPI
 * here: built with and without it. */
#include "mpi/job.h"

#include "report/json.h"

#include <errno.h>
#include <stdlib.h>

void clmem_rank_reports_free(struct clmem_rank_report *all, size_t n)
{
    if (!all)
        return;
    for (size_t i = 0; i < n; i++)
        clmem_results_free(all[i].results, all[i].n_results);
    free(all);
}

int clmem_report_json_ranks(FILE *out, const struct clmem_rank_report *ranks, size_t n,
                            int interrupted, struct clmem_error *err)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    clmem_json_add_header(root, NULL);
    if (interrupted)
        cJSON_AddTrueToObject(root, "interrupted");
    cJSON *list = cJSON_AddArrayToObject(root, "ranks");
    for (size_t i = 0; i < n; i++) {
        const struct clmem_rank_report *r = &ranks[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "rank", r->rank);
        cJSON_AddItemToObject(o, "host", clmem_json_host(&r->host));
        cJSON_AddItemToObject(o, "device", clmem_json_device(&r->device));
        if (r->has_peak)
            cJSON_AddItemToObject(o, "peak", clmem_json_peak(&r->peak));
        cJSON_AddNumberToObject(o, "status", r->status);
        cJSON *results = cJSON_AddArrayToObject(o, "results");
        for (size_t j = 0; j < r->n_results; j++)
            cJSON_AddItemToArray(results, clmem_json_result(&r->results[j]));
        cJSON_AddItemToArray(list, o);
    }
    errno = 0;
    return clmem_report_flush(out, clmem_json_print(out, root, err), err);
}
