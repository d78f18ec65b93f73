/* What the CLI's commands share. Only src/cli/ prints errors and exits. */
#ifndef CLMEM_CLI_H
#define CLMEM_CLI_H

#include "harness/harness.h"
#include "options.h"
#include "report/report.h"

struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    int mpi; /* runs as one job under mpirun (a device per rank, one report) */
};

/* The man page and the bash or zsh completion from the command and option
 * tables (docgen.c; main.c's hidden --man and --completion SHELL). */
int cli_write_man(FILE *out, const struct cli_command *commands, size_t n);
int cli_write_completion(FILE *out, const char *shell, const struct cli_command *commands,
                         size_t n);

int cmd_devices(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_peak(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_diff(int argc, char **argv);
/* run's flow (cmd_run.c) as `spec` parses it, for `workload` (NULL: the
 * workload named on the command line); peak is run's under its own name. */
int cli_run_command(const struct cli_spec *spec, const char *workload, int argc, char **argv);
/* The start and end of run's, peak's and bench's flows (cmd_run.c), on
 * every rank under mpirun. cli_start: the options parsed as `spec` says,
 * every rank agreeing (cli_agree); 0 to go on, o->help set once the help
 * is printed (not on the silent ranks); otherwise the error said, its
 * exit code. */
int cli_start(const struct cli_spec *spec, int argc, char **argv, struct cli_opts *o,
              struct clmem_error *err);
/* --output at `path` (none: NULL) opened on the reporter, before any work,
 * every rank agreeing; a signal that stops clmem at once removes its
 * temporary file (clmem_output_remove_pending). */
int cli_output_open(struct clmem_output *output, const char *path, struct clmem_error *err);
struct cli_gathered;
/* Rank 0's status for every rank (cli_final), the warnings, the last word
 * (cli_report_end: n_results kept, in output_path or on stdout), then all
 * the command held released. Returns the exit code. */
int cli_end(int status, const char *output_path, struct clmem_output *output, struct clmem_ctx *ctx,
            struct cli_gathered *ranks, struct clmem_result *results, size_t n_results,
            struct clmem_error *err);

/* Set on the ranks other than 0 under mpirun: they print no errors, rank 0
 * says each once for all (the errors below are the same on every rank, or
 * gathered). */
extern int cli_silent;
/* Whether mpirun/mpiexec started this process (Open MPI's, MPICH's Hydra's
 * or a PMIx launcher's environment). */
int cli_launched_by_mpirun(void);
/* This process's rank as the launcher's environment gives it; -1 when
 * mpirun did not start it. */
int cli_mpirun_rank(void);
/* Feedback on stderr. cli_parse sets it from --progress and --quiet:
 * progress (steps, and a first build of the kernels) is on with --progress
 * or on a terminal, never with --quiet or on the silent ranks. */
void cli_feedback_set(const struct cli_opts *o);
int cli_quiet(void);
int cli_progress_on(void);
/* "clmem: [3/41] matmul 1024 regblock (12 s elapsed, about 2 min 10 s left)":
 * the time left from the steps completed since step 1. */
void cli_progress_step(size_t step, size_t steps, const char *what);
/* "did you mean 'X'? " for a name close to one of the candidates (edit
 * distance), or nothing. */
struct cli_suggest {
    const char *word, *best;
    size_t distance;
};
void cli_suggest_start(struct cli_suggest *s, const char *word);
void cli_suggest_try(struct cli_suggest *s, const char *candidate);
/* The hint ("did you mean 'matmul'? " or "") for an unknown workload, or
 * an unknown variant of w. */
void cli_suggest_workload(const char *name, char *hint, size_t size);
void cli_suggest_variant(const struct clmem_workload *w, const char *name, char *hint, size_t size);

/* Prints "clmem: MESSAGE" (and a build log, if any) to stderr and returns
 * the status as the exit code. */
int cli_report_error(const struct clmem_error *err);
/* A usage error in one line, exit code 2. */
int cli_usage_error(const char *command, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Prints the program cache's and the tuning database's warnings, if any. */
void cli_report_warnings(const struct clmem_ctx *ctx);
/* The address space (ulimit -v, RLIMIT_AS) the OpenCL driver needs, in
 * MiB: a smaller limit is refused before the driver loads, where it would
 * crash. Measured with PoCL 3.1 (LLVM 15) on 2 cores, caches cold (docs/reliability.md,
 * Memory): listing the devices works from 303 MiB (PoCL aborted at
 * 254); building and running kernels, `run matmul --size 16` from 830 MiB
 * (SIGSEGV below) and a whole bench from 1.5 GiB (peak 1.46 GiB). */
#define CLI_LIST_ADDRESS_SPACE_MIB   512
#define CLI_DRIVER_ADDRESS_SPACE_MIB 2048
/* Open files (ulimit -n) the driver needs: PoCL's compiler failed below 16
 * with caches cold (`run reduce`); four times that is asked. */
#define CLI_DRIVER_FILE_DESCRIPTORS 64
/* clmem_devices_list, first refusing an address-space limit below
 * need_mib (one of the above; exit code 3), and keeping clmem's signal
 * handlers over those the driver installs as it loads (LLVM's). */
int cli_devices_list(struct clmem_device **devices, size_t *count, unsigned need_mib,
                     struct clmem_error *err);
/* clmem_ctx_open, clmem's signal handlers kept; its builds are abandoned
 * when a stop is asked for (ctx->cancelled = cli_interrupted). */
int cli_ctx_open(struct clmem_ctx *ctx, const struct clmem_device *device, const char *kernel_dir,
                 struct clmem_error *err);
/* Lists devices and opens the one `spec` names (exit code 3 when none). */
int cli_open_device(const char *spec, const char *kernel_dir, struct clmem_ctx *ctx,
                    struct clmem_error *err);

/* Signals: one rule for INT, TERM, HUP, QUIT and PIPE (docs/reliability.md,
 * Signals). From cli_signals_init, at the start, each stops clmem at
 * once: every output's temporary file removed (reports, images, cache
 * entries: clmem_output_remove_pending), nothing reported, the
 * default action (exit 128 + N). From cli_catch_interrupts, when the
 * variants start running, the first INT, TERM or HUP only asks for a stop
 * (cli_interrupted): the current variant finishes, a build is abandoned,
 * what finished is reported, exit 128 + N; a second signal, QUIT and PIPE
 * still stop at once. A signal ignored at the start (nohup) stays ignored;
 * SIGUSR1 keeps the action it had (terminate). */
void cli_signals_init(void);
void cli_catch_interrupts(void);
/* Puts clmem's handlers back where a driver replaced them (LLVM's, which
 * swallowed SIGQUIT and SIGUSR1); SIGUSR1 gets its first action back. */
void cli_signals_reclaim(void);
/* For clmem_run_options.cancelled and clmem_ctx.cancelled: whether a stop
 * was asked for (user unused); also reclaims the handlers. */
int cli_interrupted(void *user);
/* A run's status once it returned: CLMEM_ERR_INTERRUPTED when a stop was
 * asked for (what failed after it is its consequence), else status. */
int cli_stop_status(int status);
/* Says what an interrupted command kept (n results, written to `output`
 * or stdout) and returns its exit code: 128 + the signal (130: SIGINT). */
int cli_report_interrupted(size_t n, const char *output);
/* A command's last word: interrupted, what it kept (cli_report_interrupted);
 * an error other than a failed check (said where it happened), its message.
 * Returns the exit code: 128 + N whenever a stop was asked for. */
int cli_report_end(int status, size_t n, const char *output, const struct clmem_error *err);
/* From the start: an exit() that does not come from main (the driver's
 * own: LLVM's fatal errors call exit(1)) removes the pending outputs,
 * says so in one line and exits 3, never 1 (a failed check). */
void cli_exit_guard(void);
/* main's exit code (the end of cli_exit_guard's watch): after a stop was asked for, 128 + N
 * whatever came after it, through _exit (stdout and stderr flushed), as a build abandoned on its
 * thread may still be inside the driver; otherwise code. */
int cli_exit(int code);

/* ---- under mpirun (src/cli/mpi.c) ----
 * The steps in which the ranks of one job work together: each command has
 * one flow and calls these where its ranks must meet. Run alone (or in a
 * build without MPI), each is what the command does in one process. */

/* Under mpirun, starts MPI: the command's ranks then work as one job.
 * Returns an exit code (3: MPI would not start; 2 in a build without MPI,
 * saying how to build with it). */
int cli_mpi_start(const char *command, int *argc, char ***argv);
void cli_mpi_stop(void);
/* Whether this process is a rank of an MPI job (MPI started). */
int cli_under_mpi(void);
/* Whether this process reports (prints results, writes files): alone, or
 * rank 0 of the job. */
int cli_reporter(void);
/* Under mpirun, the worst status of every rank, with the message of the
 * rank that had it (clmem_mpi_agree), so that all stop together even where
 * one rank's arguments or files differ; alone, status. */
int cli_agree(int status, struct clmem_error *err);
/* Opens this process's device: alone, the one `spec` names
 * (cli_open_device); under mpirun, this rank's, chosen by its rank on its
 * host from `spec` (a device, a list, all; NULL: the host's GPUs), every
 * rank getting the worst status (collective). */
int cli_open(const char *spec, const char *kernel_dir, struct clmem_ctx *ctx,
             struct clmem_error *err);
/* What every rank ran, on rank 0 after cli_gather (empty elsewhere and
 * alone). */
struct clmem_rank_report;
struct cli_gathered {
    struct clmem_rank_report *all;
    size_t n;
};
/* Under mpirun, collective: this rank's run (device, peaks unless NULL,
 * status with err's message, results) to rank 0, which says every rank's
 * failed checks and errors ("rank R on HOST: ...") and keeps every rank's
 * run in *g; returns there the worst status of the ranks, elsewhere the
 * gather's. err then keeps only a failure of the gather. Alone: returns
 * status, err and *g (empty) untouched. */
int cli_gather(const struct clmem_device *device, const struct clmem_peak *peak, int status,
               const struct clmem_result *results, size_t n_results, struct cli_gathered *g,
               struct clmem_error *err);
/* With ranks gathered (rank 0): *results (freed) becomes every rank's
 * results, each device named "rank R on HOST: DEVICE", then with `totals`
 * the sums over the ranks when there are 2 to CLI_MPI_MAX_TOTALS ranks.
 * Otherwise nothing. */
#define CLI_MPI_MAX_TOTALS 1024
int cli_gathered_results(const struct cli_gathered *g, int totals, struct clmem_result **results,
                         size_t *n_results, struct clmem_error *err);
/* With ranks gathered: the report of a rank per section (bench's): JSON to
 * output's file (committed) and, in `format`, to stdout (JSON: a section
 * per rank; table and CSV: each result's rank, a line of peaks per rank). */
int cli_gathered_write(const struct cli_gathered *g, enum clmem_format format,
                       struct clmem_output *output, int interrupted, struct clmem_error *err);
/* With ranks gathered: a compared device per rank (compare's columns),
 * their results borrowed from *g (free *runs alone). */
int cli_gathered_runs(const struct cli_gathered *g, struct clmem_compare_device **runs,
                      size_t *n_runs, struct clmem_error *err);
void cli_gathered_free(struct cli_gathered *g);
/* Under mpirun, collective: rank 0's `status`, which has seen every rank's,
 * for all to exit with (mpirun then exits with it too); alone, status. */
int cli_final(int status);
/* run --summa: matmul over the ranks with SUMMA (collective; rank 0 gets
 * the one result and says a failed check); a usage error alone. */
int cli_summa(const struct cli_opts *o, struct clmem_ctx *ctx, struct clmem_result **results,
              size_t *n_results, struct clmem_error *err);

#endif
