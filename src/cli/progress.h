/* Progress and result lines on stderr (progress.c). */
#ifndef CLMEM_CLI_PROGRESS_H
#define CLMEM_CLI_PROGRESS_H

#include "harness/harness.h"

/* Feedback on stderr. cli_parse sets it from --progress and --quiet:
 * progress (steps, and a first build of the kernels) is on with --progress
 * or on a terminal, never with --quiet or on the silent ranks; a line per
 * result wherever stderr goes (a CI log, a file), but with --quiet or on
 * the silent ranks. */
void cli_feedback_set(int progress, int quiet);
int cli_quiet(void);
int cli_progress_on(void);
/* "clmem: [3/41] matmul 1024 regblock (12 s elapsed, about 2 min 10 s left)":
 * the time left from the steps completed since step 1. */
void cli_progress_step(size_t step, size_t steps, const char *what);
/* A finished result of step `step`: "clmem: [3/41] matmul 1024 regblock on
 * DEVICE: median 12.3456 ms, 174 GFLOP/s, verified" (FAILED; "skipped:
 * REASON" in place of the figures). Silent as cli_quiet. */
void cli_progress_result(size_t step, size_t steps, const struct clmem_result *r);

#endif
