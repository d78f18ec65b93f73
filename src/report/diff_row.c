/* A row of clmem diff as its writers show it (diff_internal.h): whether
 * it is shown, its runs' labels, its unit, each side's metric and the
 * result it describes. */
#include "report/diff_internal.h"

#include <math.h>

/* Whether the writers show the row. */
int diff_shown(const struct clmem_diff *diff, const struct clmem_diff_row *row)
{
    return !diff->changes_only || clmem_diff_changed(row->verdict);
}

/* "rank 0 on vm: NVIDIA H100 80GB HBM3", "vm: NAME", or the name alone
 * when the file did not record its host; "-" for no run. */
void diff_run_label(const struct clmem_compare_device *run, char *out, size_t size)
{
    if (!run)
        clmem_text_format(out, size, "-");
    else if (run->rank >= 0)
        clmem_text_format(out, size, "rank %d on %s: %s", run->rank, run->host[0] ? run->host : "?",
                          run->device.name);
    else if (run->host[0])
        clmem_text_format(out, size, "%s: %s", run->host, run->device.name);
    else
        clmem_text_format(out, size, "%s", run->device.name);
}

const char *diff_row_unit(const struct clmem_diff_row *row)
{
    return row->newer && row->newer->metric_unit[0] ? row->newer->metric_unit
           : row->base                              ? row->base->metric_unit
                                                    : "";
}

/* A side's metric when it has one (a failed result was still timed). */
double diff_side_metric(const struct clmem_result *r)
{
    return r && !r->skipped ? r->metric : NAN;
}

/* The result a row describes, for its workload, variant, size and sweep. */
const struct clmem_result *diff_row_result(const struct clmem_diff_row *row)
{
    return row->base ? row->base : row->newer;
}
