/* clmem hierarchy's report (hierarchy_table.c): the levels a sweep named,
 * as the table's summary below the results and as the run file's
 * "hierarchy". The levels' types are harness/levels.h's, which the
 * workload (workloads/hierarchy.h) fills. Not libclmem's interface. */
#ifndef CLMEM_REPORT_HIERARCHY_TABLE_H
#define CLMEM_REPORT_HIERARCHY_TABLE_H

#include "harness/levels.h"
#include "report/model.h"

/* The report of a sweep: the results' table with the levels, the on-chip
 * memories, images and copies below it; the results' CSV; or a run file
 * as `run --format json` writes it with "hierarchy" added. Flushed and
 * checked (clmem_report_flush): ended by clmem_output_end for a file. */
int clmem_hierarchy_write(FILE *out, enum clmem_format format, const struct clmem_result *results,
                          size_t n, const struct clmem_device *device,
                          const struct clmem_hierarchy *h, int interrupted,
                          struct clmem_error *err);

#endif
