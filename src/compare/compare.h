/* The comparison report (clmem compare): several devices' results, live
 * or read back from run files, side by side in one directory: report.md,
 * report.html, results.csv, a run file per entry and gnuplot pictures.
 * clmem_compare_report writes it; compare.c, whose header this is, puts
 * it together from the files of src/compare/ (model.h). Above the report
 * layer, whose writers and units it uses. The clmem command's alone: not
 * part of libclmem (docs/development.md, "Layout"). */
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

/* Which entry `spec` (--baseline) names: a run file (its path as given, or
 * its file name), else a live device, else a saved one, as --device names
 * devices (a type, or part of the name, platform, vendor, version or
 * host), else a run file whose name holds it; the first that matches.
 * NULL: the first live device, else the first file. A usage error when it
 * names none. */
int clmem_compare_baseline(const char *spec, const struct clmem_compare_device *devs, size_t n,
                           size_t *index, struct clmem_error *err);
/* The comparison report of n_devs runs into `dir` (report.md, report.html,
 * results.csv, device-N.json, plots), whole or not at all; plots_note says
 * why pictures are missing ("" when drawn). The baseline is the default
 * one (clmem_compare_baseline with no spec). */
int clmem_compare_report(const char *dir, const struct clmem_compare_device *devs, size_t n_devs,
                         char *plots_note, size_t note_size, struct clmem_error *err);
/* The report (as clmem_compare_report, whose baseline is the default)
 * with entry `baseline` as the one the others are measured against. The
 * report shows the baseline first, then the live devices, then the saved
 * runs (device-N.json in that order). */
int clmem_compare_report_at(const char *dir, const struct clmem_compare_device *devs, size_t n_devs,
                            size_t baseline, char *plots_note, size_t note_size,
                            struct clmem_error *err);

#endif
