/* What the CLI's commands share. Only src/cli/ prints errors and exits. */
#ifndef CLMEM_CLI_H
#define CLMEM_CLI_H

#include "harness/harness.h"
#include "mpi/job.h"
#include "options.h"
#include "report/report.h"

#include <signal.h>

/* A row of main.c's command table, the one list of the commands: 'clmem
 * COMMAND' runs it, 'clmem --help', the man page and the completions list
 * it (docgen.c). */
struct cli_command {
    const struct cli_spec *spec; /* its name, options and help (cmd_NAME.c) */
    int (*run)(int argc, char **argv);
    const char *summary; /* its line in 'clmem --help' */
    int mpi;             /* runs as one job under mpirun (a device per rank, one report) */
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
/* clmem hierarchy (cmd_hierarchy.c) and its options. */
int cmd_hierarchy(int argc, char **argv);
extern const struct cli_spec cli_hierarchy_spec;
/* run's steps (cmd_run.c) with `spec`'s options, for `workload` (NULL: the
 * workload named on the command line); peak is run's under its own name. */
int cli_run_command(const struct cli_spec *spec, const char *workload, int argc, char **argv);

/* ---- messages on stderr (common.c) ---- */

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

/* ---- progress (progress.c) ----
 * Feedback on stderr. cli_parse sets it from --progress and --quiet:
 * progress (steps, and a first build of the kernels) is on with --progress
 * or on a terminal, never with --quiet or on the silent ranks; a line per
 * result wherever stderr goes (a CI log, a file), but with --quiet or on
 * the silent ranks. */
void cli_feedback_set(const struct cli_opts *o);
int cli_quiet(void);
int cli_progress_on(void);
/* "clmem: [3/41] matmul 1024 regblock (12 s elapsed, about 2 min 10 s left)":
 * the time left from the steps completed since step 1. */
void cli_progress_step(size_t step, size_t steps, const char *what);
/* A finished result of step `step`: "clmem: [3/41] matmul 1024 regblock on
 * DEVICE: median 12.3456 ms, 174 GFLOP/s, verified" (FAILED; "skipped:
 * REASON" in place of the figures). Silent as cli_quiet. */
void cli_progress_result(size_t step, size_t steps, const struct clmem_result *r);

/* ---- did you mean (suggest.c) ----
 * "did you mean 'X'? " for a name close to one of the candidates (edit
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

/* ---- what the OpenCL driver needs before it loads (limits.c, pocl_cache.c) ----
 * The address space (ulimit -v, RLIMIT_AS) the driver needs, in MiB: a
 * smaller limit is refused before the driver loads, where it would crash.
 * Each is PoCL's measured need with room to spare (docs/reliability.md,
 * "Memory", has the figures). */
#define CLI_LIST_ADDRESS_SPACE_MIB   512  /* listing the devices */
#define CLI_DRIVER_ADDRESS_SPACE_MIB 2048 /* building and running kernels */
/* Open files (ulimit -n) the driver needs: PoCL's compiler failed below 16
 * with caches cold (`run reduce`); four times that is asked. */
#define CLI_DRIVER_FILE_DESCRIPTORS 64
/* The address-space and open-file limits checked against the driver's
 * needs (need_mib: one of the above; exit code 3 when below), the soft
 * open-file limit raised where it may be. */
int cli_limits_check(unsigned need_mib, struct clmem_error *err);
/* PoCL's kernel cache: where PoCL's own place cannot be made (it would
 * list no device), a private temporary one (POCL_CACHE_DIR), removed by
 * cli_pocl_cache_remove at exit; a POCL_CACHE_DIR of the user's that
 * cannot be made is a usage error. Checked once, before the driver loads. */
int cli_pocl_cache_check(struct clmem_error *err);
void cli_pocl_cache_remove(void);

/* ---- devices: listing, choosing, opening (devices.c) ---- */

/* clmem_devices_list, first refusing what the driver would crash on
 * (cli_limits_check, cli_pocl_cache_check), and keeping clmem's signal
 * handlers over those the driver installs as it loads (LLVM's). */
int cli_devices_list(struct clmem_device **devices, size_t *count, unsigned need_mib,
                     struct clmem_error *err);
/* How cli_devices_choose takes --device. Without a flag, --device not
 * given is the first GPU, else the first device. */
enum {
    CLI_CHOOSE_ONCE = 1 << 0, /* a device named twice is taken once */
    CLI_CHOOSE_ALL = 1 << 1,  /* --device not given: every device */
    CLI_CHOOSE_GPUS = 1 << 2, /* --device not given: every GPU, else every device */
};
/* The one selection of devices from --device (as cli_parse parsed it):
 * the indexes in devices[0..count) of the devices `d` names, in its order
 * (each spec as clmem_devices_select takes it; all: every device), at
 * most `capacity` of them, into chosen[0..*n_chosen). */
int cli_devices_choose(const struct cli_devices *d, unsigned flags,
                       const struct clmem_device *devices, size_t count, size_t *chosen,
                       size_t capacity, size_t *n_chosen, struct clmem_error *err);
/* clmem_ctx_open, clmem's signal handlers kept; its builds are abandoned
 * when a stop is asked for (ctx->cancelled = cli_interrupted). */
int cli_ctx_open(struct clmem_ctx *ctx, const struct clmem_device *device, const char *kernel_dir,
                 struct clmem_error *err);
/* Lists devices and opens the one `d` names (exit code 3 when none). */
int cli_open_device(const struct cli_devices *d, const char *kernel_dir, struct clmem_ctx *ctx,
                    struct clmem_error *err);

/* ---- signals and the process's end (stopping.c) ---- */

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
/* The stop signals and SIGUSR1 held while a driver loads (*old: the mask
 * before), then released with clmem's handlers put back: what came
 * meanwhile is handled by them, and the driver's threads started meanwhile
 * keep them held (signals go to clmem's). */
void cli_signals_hold(sigset_t *old);
void cli_signals_release(const sigset_t *old);
/* For clmem_run_options.cancelled and clmem_ctx.cancelled: whether a stop
 * was asked for (user unused); also reclaims the handlers. */
int cli_interrupted(void *user);
/* A run's status once it returned: CLMEM_ERR_INTERRUPTED when a stop was
 * asked for (what failed after it is its consequence), else status. */
int cli_stop_status(int status);
/* Says what an interrupted command kept (n results, written to `output`
 * or stdout) and returns its exit code: 128 + the signal (130: SIGINT). */
int cli_report_interrupted(size_t n, const char *output);
/* The same for a command whose results are not a report: `kept` says what
 * it kept ("clmem: interrupted: KEPT"). */
int cli_report_interrupted_keeping(const char *kept);
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

/* ---- one flow for the commands that run workloads (flow.c) ----
 * run (and peak), bench and compare each hand the flow their steps, which
 * it takes in this order, the same alone and under mpirun:
 *
 *   parse the options -> check -> open the output -> [alone: `alone`]
 *   -> open this process's device -> plan -> run (or SUMMA) -> gather
 *   -> report -> end
 *
 * Under mpirun every rank takes every step. After each step that may fail
 * on one rank (its arguments, files, device or plan) the ranks agree on the
 * worst status, so that all stop at the same point with one message from
 * rank 0; after the run rank 0 gathers every rank's; at the end all exit
 * with rank 0's status. Those collectives (the ranks_ calls below) are the
 * flow's alone: a step only returns its status, and an early return in a
 * step cannot leave the other ranks waiting. */
/* Every rank's run, on rank 0 once gathered (empty elsewhere and alone). */
struct cli_rank_runs {
    struct clmem_rank_report *all;
    size_t n;
};
struct cli_flow;
struct cli_steps {
    const struct cli_spec *spec; /* the options the command takes */
    /* A failed check says its result's size ("W V at SIZE: verification
     * failed"): the command runs several sizes (bench). */
    int failures_name_size;
    /* Under mpirun, the ranks' results become one list on rank 0 (each
     * device named "rank R on HOST: DEVICE") with their totals (run's
     * report); otherwise the report reads every rank's run in f->ranks. */
    int merge_ranks;
    /* The checks that need no device, once the options are parsed: usage
     * errors. May change f->output_path and set f->summa. NULL: none. */
    int (*check)(struct cli_flow *f, struct clmem_error *err);
    /* On the reporter, before any work: where the report goes. NULL: the
     * file f->output_path (if any) opened into f->output. */
    int (*open_output)(struct cli_flow *f, struct clmem_error *err);
    /* Alone: what the command does instead of one device's steps (several
     * devices, saved files), or CLI_FLOW_ONE_DEVICE to take them; it sets
     * f->kept. NULL: none. */
    int (*alone)(struct cli_flow *f, struct clmem_error *err);
    /* With f->ctx open: what the run needs checked against the device,
     * before any work (usage errors). */
    int (*plan)(struct cli_flow *f, struct clmem_error *err);
    /* The work, into f->results (and f->peak with f->has_peak). From its
     * start, the first INT, TERM or HUP stops after the current variant. */
    int (*run)(struct cli_flow *f, struct clmem_error *err);
    /* On the reporter once the run returned `status` (under mpirun: every
     * rank's worst, their runs in f->ranks, their failed checks said):
     * writes the report, where there is one to write. Returns the status to
     * end with. */
    int (*report)(struct cli_flow *f, int status, struct clmem_error *err);
    /* At the end, on every process: what the command's steps hold. */
    void (*release)(struct cli_flow *f);
};
#define CLI_FLOW_ONE_DEVICE (-1)
/* What the steps share: the flow fills it as it goes. */
struct cli_flow {
    const struct cli_steps *steps;
    void *self;                 /* the command's own state */
    struct cli_opts o;          /* as steps->spec parsed them */
    int joined;                 /* a rank of an MPI job (started by mpirun) */
    const char *output_path;    /* the report's file: --output unless check changes it */
    struct clmem_output output; /* open on the reporter from before any work */
    struct clmem_ctx ctx;       /* this process's device */
    int summa;                  /* the ranks multiply together (SUMMA) instead of `run` */
    struct clmem_result *results;
    size_t n_results;
    struct clmem_peak peak;
    int has_peak;
    struct cli_rank_runs ranks; /* rank 0 under mpirun: every rank's run */
    size_t kept;                /* the results kept, as an interruption says */
};
/* Takes the steps with `self` as the command's state; returns the exit code. */
int cli_flow_run(const struct cli_steps *steps, void *self, int argc, char **argv);
/* Says each failed check among results on stderr ("clmem: W V: verification
 * failed: ..."), with "at SIZE" after the variant when with_size. */
void cli_say_failures(const struct clmem_result *results, size_t n, int with_size);

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

/* ---- the ranks of an MPI job (ranks.c, through src/mpi/job.h) ----
 * Alone (or in a build without MPI) each is what one process does. The
 * collectives among them (marked so) are called by the flow only: every
 * rank must reach each of them at the same point. */

/* Whether mpirun/mpiexec started this process (Open MPI's, MPICH's Hydra's
 * or a PMIx launcher's environment), MPI built in or not. */
int cli_launched_by_mpirun(void);
/* This process's rank as the launcher's environment gives it; -1 when
 * mpirun did not start it. */
int cli_mpirun_rank(void);

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
int ranks_open_device(const struct cli_devices *d, const char *kernel_dir, struct clmem_ctx *ctx,
                      struct clmem_error *err);
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

#endif
