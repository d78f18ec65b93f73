/* The comparison report (clmem compare): several devices' results, live
 * or read back from run files, side by side in one directory: report.md,
 * report.html, results.csv, a run file per entry and gnuplot pictures.
 * clmem_compare_report (clmem.h) writes it; compare.c, whose header this
 * is, puts it together from the files of src/compare/ (model.h). Above
 * the report layer, whose writers and units it uses. */
#ifndef CLMEM_COMPARE_COMPARE_H
#define CLMEM_COMPARE_COMPARE_H

#include "report/report.h"

/* Checks, before any device runs, that the report directory can be
 * written: `dir` absent with a writable parent directory, or an existing
 * writable directory; a usage error otherwise. Creates nothing. */
int clmem_compare_dir(const char *dir, struct clmem_error *err);
/* A usage error when one of the n run files is a file of `dir` that the
 * report replaces (through hard links, and symbolic links to it). */
int clmem_compare_inputs_check(const char *dir, const char *const files[], size_t n,
                               struct clmem_error *err);

#endif
