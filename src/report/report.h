/* The report layer: one run's results as tables, CSV, JSON (the run
 * files, read back by runfile.c) and diff. It reads results (clmem.h) and
 * never the workloads or their list. Above the harness; below the
 * comparison report (src/compare/) and the workloads. This header is
 * report.c's, which writes a report in the format asked for, and brings
 * the rest of the layer's (model.h: formats and units; diff.h) to the
 * layers above. */
#ifndef CLMEM_REPORT_REPORT_H
#define CLMEM_REPORT_REPORT_H

#include "report/diff.h"
#include "report/model.h"

/* Writes a report into an open output and commits it; any failure is
 * "cannot write 'PATH': REASON" (CLMEM_ERR_USAGE) and leaves no file. */
int clmem_output_report(struct clmem_output *out, enum clmem_format format,
                        const struct clmem_result *results, size_t n,
                        const struct clmem_report_meta *meta, struct clmem_error *err);

#endif
