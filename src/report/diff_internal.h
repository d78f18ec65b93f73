/* What the files of clmem diff share (not part of libclmem's interface):
 * diff.c pairs the runs and gives each result its verdict; the writers
 * show them, each row as diff_row.c says: the table (diff_table.c), CSV
 * and JSON (diff_write.c, with clmem_diff_write, which chooses). The
 * writers call diff.c and diff_row.c; diff.c calls none of them. */
#ifndef CLMEM_REPORT_DIFF_INTERNAL_H
#define CLMEM_REPORT_DIFF_INTERNAL_H

#include "report/diff.h"

/* Whether a result is slower, failed or gone (diff.c). */
int diff_verdict_regressed(const struct clmem_diff *diff);

/* ---- what the writers say about a row (diff_row.c) ---- */
/* Whether the writers show the row. */
int diff_shown(const struct clmem_diff *diff, const struct clmem_diff_row *row);
/* "rank 0 on vm: NAME", "vm: NAME", or the name alone when the file did
 * not record its host; "-" for no run. */
void diff_run_label(const struct clmem_compare_device *run, char *out, size_t size);
/* The row's unit, NEW's where it has one. */
const char *diff_row_unit(const struct clmem_diff_row *row);
/* A side's metric when it has one (a failed result was still timed). */
double diff_side_metric(const struct clmem_result *r);
/* The result a row describes, for its workload, variant, size and sweep. */
const struct clmem_result *diff_row_result(const struct clmem_diff_row *row);

#endif
