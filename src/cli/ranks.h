/* The ranks of an MPI job as the commands' flow sees them (ranks.c). */
#ifndef CLMEM_CLI_RANKS_H
#define CLMEM_CLI_RANKS_H

#include "devices.h"
#include "mpi/job.h"
#include "options.h"
#include "report/report.h"

/* Every rank's run, on rank 0 once gathered (empty elsewhere and alone). */
struct cli_rank_runs {
    struct clmem_rank_report *all;
    size_t n;
};
/* Alone (or in a build without MPI) each is what one process does. The
 * collectives among them (marked so) are called by the flow only: every
 * rank must reach each of them at the same point. */

/* Under mpirun, starts MPI (main.c): the command's ranks then work as one
 * job. Returns an exit code (3: MPI would not start; 2 in a build without
 * MPI, saying how to build with it). */
int cli_mpi_start(const char *command, int *argc, char ***argv);
void cli_mpi_stop(void);
/* Whether this process is a rank of an MPI job (MPI started). */
int ranks_joined(void);
/* Whether this process reports (prints results, writes files): alone, or
 * rank 0 of the job. */
int ranks_is_reporter(void);
/* Collective: under mpirun, the worst status of every rank, with the
 * message of the rank that had it (clmem_mpi_agree), so that all stop
 * together even where one rank's arguments or files differ; alone, status. */
int ranks_agree_status(int status, struct clmem_error *err);
/* Collective: opens this process's device: alone, the one `d` names
 * (cli_open_device); under mpirun, this rank's, chosen by its rank on its
 * host from `d` (a device, a list, all; not given: the host's GPUs), every
 * rank getting the worst status. Where the host's GPUs were asked for and
 * a rank found none, rank 0 warns once: the likely cause (the OpenCL
 * variables cut by mpirun) and the fix. */
int ranks_open_device(const struct cli_devices *d, const struct cli_open *how,
                      struct clmem_ctx *ctx, struct clmem_error *err);
/* Collective: under mpirun, this rank's run (device, peaks unless NULL,
 * status with err's message, results) to rank 0, which says every rank's
 * failed checks and errors ("rank R on HOST: ...") and keeps every rank's
 * run in *g; returns there the worst status of the ranks, elsewhere the
 * gather's. err then keeps only a failure of the gather. Alone: returns
 * status, err and *g (empty) untouched. */
int ranks_gather_runs(const struct clmem_device *device, const struct clmem_peak *peak, int status,
                      const struct clmem_result *results, size_t n_results, struct cli_rank_runs *g,
                      struct clmem_error *err);
/* Collective: under mpirun, rank 0's `status`, which has seen every
 * rank's, for all to exit with (mpirun then exits with it too); alone,
 * status. */
int ranks_exit_status(int status);
/* Collective: run --summa, matmul over the ranks with SUMMA; rank 0 gets
 * the one result and says a failed check; every rank the worst status.
 * Alone, a usage error. */
int ranks_summa(const struct cli_opts *o, struct clmem_ctx *ctx, struct clmem_result **results,
                size_t *n_results, struct clmem_error *err);

/* With every rank's run gathered (rank 0; otherwise nothing): *results
 * (freed) becomes every rank's results, each device named "rank R on
 * HOST: DEVICE", then with `totals` the sums over the ranks when there are
 * 2 to CLI_MPI_MAX_TOTALS ranks. */
#define CLI_MPI_MAX_TOTALS 1024
int cli_rank_runs_results(const struct cli_rank_runs *g, int totals, struct clmem_result **results,
                          size_t *n_results, struct clmem_error *err);
/* With ranks gathered: the report of a rank per section (bench's): JSON to
 * output's file (committed) and, in `format`, to stdout (JSON: a section
 * per rank; table and CSV: each result's rank, a line of peaks per rank). */
int cli_rank_runs_write(const struct cli_rank_runs *g, enum clmem_format format,
                        struct clmem_output *output, int interrupted, struct clmem_error *err);
/* With ranks gathered: a compared device per rank (compare's columns),
 * their results borrowed from *g (free *runs alone). */
int cli_rank_runs_devices(const struct cli_rank_runs *g, struct clmem_compare_device **runs,
                          size_t *n_runs, struct clmem_error *err);
void cli_rank_runs_free(struct cli_rank_runs *g);

#endif
