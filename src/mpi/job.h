/* The one seam between clmem and MPI: a process's part in an MPI job
 * (mpirun -n R clmem ...). meson.build builds it with MPI (mpi.c, summa.c)
 * or without (no_mpi.c, where no job ever starts), so that nothing above
 * needs to know which: no #ifdef. Nothing here includes <mpi.h>. The
 * collectives (marked so) must be reached by every rank at the same point. */
#ifndef CLMEM_MPI_JOB_H
#define CLMEM_MPI_JOB_H

#include "harness/harness.h"
#include "report/report.h"

/* A started job as this rank holds it (its communicators: ranks.h). */
struct clmem_mpi;

/* Whether this clmem was built with MPI (-Dmpi=enabled). */
int clmem_mpi_built(void);
/* MPI started (only the main thread calls MPI) and the job in *job, or an
 * error (a usage error in a build without MPI). */
int clmem_mpi_start(int *argc, char ***argv, struct clmem_mpi **job, struct clmem_error *err);
/* MPI ended and the job freed. */
void clmem_mpi_stop(struct clmem_mpi *job);

/* Where this rank is: its rank of the job's `size`, its rank among the
 * ranks of its host, and the host's name as MPI gives it. */
int clmem_mpi_rank(const struct clmem_mpi *m);
int clmem_mpi_size(const struct clmem_mpi *m);
int clmem_mpi_local_rank(const struct clmem_mpi *m);
const char *clmem_mpi_host(const struct clmem_mpi *m);

/* Collective: the worst of every rank's status (clmem_status_worst).
 * Where it is worse than the caller's own, err is set to the first such
 * rank's message, as "rank R on HOST: MESSAGE", so that rank 0 can print
 * one line for all. */
int clmem_mpi_agree(const struct clmem_mpi *m, int status, struct clmem_error *err);
/* Collective: how many ranks have `mine` set, *first the lowest of them
 * (the job's size when none has). */
int clmem_mpi_count(const struct clmem_mpi *m, int mine, int *first);
/* Collective: `bytes` at `data` from rank `root` to every rank. */
void clmem_mpi_broadcast(const struct clmem_mpi *m, void *data, size_t bytes, int root);

/* What one rank ran: its host (clmem_host_describe on that rank), device,
 * peaks (has_peak) and results. */
struct clmem_rank_report {
    int rank;
    struct clmem_host host;
    struct clmem_device device; /* its OpenCL handles mean nothing off its rank */
    int has_peak;
    struct clmem_peak peak;
    int status;                                           /* what the rank's run returned */
    char error[sizeof((struct clmem_error *)0)->message]; /* and its message, when an error */
    struct clmem_result *results;
    size_t n_results;
};
/* Collective: every rank's report to rank 0, where *all gets the job's
 * size of reports in rank order (free with clmem_rank_reports_free); NULL
 * elsewhere. The ranks run the same build of clmem (the bytes of a result
 * travel as they are). */
int clmem_mpi_gather(const struct clmem_mpi *m, const struct clmem_rank_report *mine,
                     struct clmem_rank_report **all, struct clmem_error *err);
void clmem_rank_reports_free(struct clmem_rank_report *all, size_t n);
/* Several ranks' reports as one JSON document (schema/run.schema.json):
 * {"schema_version", "clmem_version", "clmem_git", "created", "ranks":
 * [{"rank", "host": {...}, "device", "peak", "status", "results"}, ...]}
 * and "interrupted": true when the run was stopped early. */
int clmem_report_json_ranks(FILE *out, const struct clmem_rank_report *ranks, size_t n,
                            int interrupted, struct clmem_error *err);

/* ---- SUMMA (van de Geijn & Watts 1997): P = M x N over a 2D grid ----
 * The grid_rows x grid_cols ranks each own a block of M, N and P (rows
 * and columns split as clmem_split_rows splits them). For each panel of
 * the inner dimension, the rank owning M's panel broadcasts it along its
 * grid row and the one owning N's along its grid column; every rank
 * multiplies the two with a matmul kernel on its device and adds the
 * product into its block of P there. */
struct clmem_summa_options {
    const char *variant;      /* a matmul kernel variant, not a library's */
    const char *size;         /* NULL: matmul's default */
    int grid_rows, grid_cols; /* 0, 0: the squarest grid of every rank */
    size_t panel;             /* a panel's width (inner dimension); 0: chosen */
    int no_overlap;           /* each broadcast, copy and kernel waits for the one before */
    unsigned reps, warmup;    /* as clmem_run_options */
    uint64_t seed;
};
/* Collective over the job, each rank on its open context: usage errors
 * (size, variant, grid, panel) come before any work, on every rank alike.
 * Rank 0 makes M and N from the seed, scatters the blocks, times `reps`
 * multiplications (host wall time from a barrier to the last rank's end,
 * the slowest rank's), gathers P and checks it against the CPU reference
 * as a single-device run does. On rank 0 one result is appended to
 * *results (device "SUMMA RxC grid, N ranks"; the note gives the grid,
 * the panel and the share of time spent communicating); elsewhere none. */
int clmem_summa(const struct clmem_mpi *m, struct clmem_ctx *ctx,
                const struct clmem_summa_options *options, struct clmem_result **results,
                size_t *n_results, struct clmem_error *err);

#endif
