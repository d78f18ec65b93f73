/* What the files of the report layer share: the run files' schema
 * version, numbers for people (units.c) and the results' writers (table.c,
 * csv.c, json.c), each naming a result's status by clmem_result_status
 * (status.c), and the end every report goes through (commit.c). report.c
 * chooses between the writers; it includes report.h,
 * which none of them does. Not libclmem's interface. */
#ifndef CLMEM_REPORT_MODEL_H
#define CLMEM_REPORT_MODEL_H

#include "harness/harness.h"

#include <stdio.h>

/* The run files' format, written as "schema_version" (schema/run.schema.json):
 * raised when a field changes meaning or goes; new optional fields keep it. */
#define CLMEM_SCHEMA_VERSION 1

/* ---- numbers for people (units.c) ---- */
/* "48.7 TFLOP/s", "2.74 TB/s", "355 Gsamples/s": three significant digits,
 * the unit's SI prefix rescaled (a unit starting k, M, G, T or P). "-" for NaN. */
void clmem_format_metric(double value, const char *unit, char *out, size_t size);
/* The power of 1000 of a unit's SI prefix (GB/s: 3), *rest what follows it. */
int clmem_unit_prefix(const char *unit, const char **rest);
/* The power of 1000 clmem_format_metric would write `value` (in `unit`) with. */
int clmem_unit_choose(double value, const char *unit);
/* `value` (in `unit`) written with the prefix of power `exponent`. */
void clmem_format_at(double value, const char *unit, int exponent, char *out, size_t size);
/* The unit of a metric's work per joule ("GFLOP/s" -> "GFLOP/J"; a
 * result's energy_efficiency); "" for a unit that is not a rate per second. */
void clmem_unit_per_joule(const char *metric_unit, char *out, size_t size);
/* "64 Mi" for 67108864; sizes that are not a whole number of Mi or Gi as
 * they are (8192, 8191x8191). */
void clmem_human_size(const char *size, char *out, size_t n);

/* A result's spread: its slowest sample over its fastest (max/min; NAN
 * where it has no samples). Past CLMEM_NOISY_SPREAD a result is flagged
 * as noisy wherever it is shown (status.c): its median may move that much
 * on a rerun, so a ratio drawn from it may not hold. */
#define CLMEM_NOISY_SPREAD 1.5
double clmem_result_spread(const struct clmem_result *r);
int clmem_result_noisy(const struct clmem_result *r);

/* The build that writes run files: `git describe --always --dirty` of its
 * source ("8484219-dirty"; json.c), "" outside a git checkout. */
const char *clmem_build_git(void);

/* ---- the end of every report (commit.c) ---- */
/* After a writer wrote into `out` (errno set to 0 before it): its status,
 * or, where the stream failed (a full disk, a closed pipe), "cannot write
 * the report[ to stdout]: REASON" (CLMEM_ERR_USAGE, errno kept for
 * clmem_output_end). */
int clmem_report_flush(FILE *out, int status, struct clmem_error *err);
/* Ends an output file a report was written into, given the writer's
 * status (clmem_report_flush's): committed whole after CLMEM_OK, else
 * removed; a failed write is "cannot write 'PATH': REASON". */
int clmem_output_end(struct clmem_output *out, int status, struct clmem_error *err);

/* ---- the results' formats: the writers behind clmem_report_write ---- */
int clmem_report_table(FILE *out, const struct clmem_result *results, size_t n);
int clmem_report_csv(FILE *out, const struct clmem_result *results, size_t n);
int clmem_report_json(FILE *out, const struct clmem_result *results, size_t n,
                      const struct clmem_report_meta *meta, struct clmem_error *err);

#endif
