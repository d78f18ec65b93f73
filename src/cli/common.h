/* What every command shares: its messages on stderr, each once for all
 * the ranks of an MPI job, and whether mpirun started it (common.c). */
#ifndef CLMEM_CLI_COMMON_H
#define CLMEM_CLI_COMMON_H

#include "harness/harness.h"

/* Set on the ranks other than 0 under mpirun: they print no errors, rank 0
 * says each once for all (the errors below are the same on every rank, or
 * gathered). */
extern int cli_silent;
/* Prints "clmem: MESSAGE" (and a build log, if any) to stderr and returns
 * the status as the exit code. */
int cli_report_error(const struct clmem_error *err);
/* A usage error in one line, exit code 2. */
int cli_usage_error(const char *command, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Prints the program cache's and the tuning database's warnings, if any. */
void cli_report_warnings(const struct clmem_ctx *ctx);

/* Whether mpirun/mpiexec started this process (Open MPI's, MPICH's Hydra's
 * or a PMIx launcher's environment), MPI built in or not. */
int cli_launched_by_mpirun(void);
/* This process's rank as the launcher's environment gives it; -1 when
 * mpirun did not start it. */
int cli_mpirun_rank(void);

#endif
