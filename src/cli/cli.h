/* What the CLI's commands share. Only src/cli/ prints errors and exits. */
#ifndef CLMEM_CLI_H
#define CLMEM_CLI_H

#include "harness/harness.h"
#include "report/report.h"

struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    int mpi; /* runs as one job under mpirun (a device per rank, one report) */
};

int cmd_devices(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_peak(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_diff(int argc, char **argv);

/* Set on the ranks other than 0 under mpirun: they print no errors, rank 0
 * says each once for all (the errors below are the same on every rank, or
 * gathered). */
extern int cli_silent;
/* Whether mpirun/mpiexec started this process (Open MPI's, MPICH's Hydra's
 * or a PMIx launcher's environment). */
int cli_launched_by_mpirun(void);
/* Under mpirun (an MPI build), the worst status of every rank, with the
 * message of the rank that had it (clmem_mpi_agree), so that all stop
 * together even where one rank's arguments or files differ; else status. */
int cli_agree(int status, struct clmem_error *err);
/* This process's rank as the launcher's environment gives it; -1 when
 * mpirun did not start it. */
int cli_mpirun_rank(void);
/* Prints "clmem: MESSAGE" (and a build log, if any) to stderr and returns
 * the status as the exit code. */
int cli_report_error(const struct clmem_error *err);
/* Unknown option / missing argument, in one line, exit code 2. */
int cli_usage_error(const char *command, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The usage error for getopt_long's answer `c` to `option` (optstring
 * starting with ':'): ':' a missing value, anything else an unknown option;
 * the message points at 'clmem COMMAND --help'. */
int cli_option_error(const char *command, int c, const char *option, struct clmem_error *err);
/* The option getopt_long just refused, as written: "-x" of "-xq" (written
 * to buf, at least 3 bytes), or the whole argument ("-x", "--bogus=1"). */
const char *cli_refused_option(int argc, char **argv, char *buf, size_t size);
/* Parses an unsigned decimal in [min, max], digits only (no sign, no
 * space before or after: " 5" is refused as --size refuses it); usage
 * error otherwise. */
int cli_parse_uint(const char *option, const char *text, unsigned long long min,
                   unsigned long long max, unsigned long long *value, struct clmem_error *err);
/* A directory option's value: refused when empty ("--kernel-dir needs a
 * directory"), where it would be silently ignored. */
int cli_parse_dir(const char *option, const char *text, const char **value,
                  struct clmem_error *err);
/* Prints the program cache's and the tuning database's warnings, if any. */
void cli_report_warnings(const struct clmem_ctx *ctx);
/* The address space (ulimit -v, RLIMIT_AS) the OpenCL driver needs, in
 * MiB: a smaller limit is refused before the driver loads, where it would
 * crash. Measured with PoCL 3.1 (LLVM 15) on 2 cores, caches cold (README,
 * Reliability): listing the devices works from 303 MiB (PoCL aborted at
 * 254); building and running kernels, `run matmul --size 16` from 830 MiB
 * (SIGSEGV below) and a whole bench from 1.5 GiB (peak 1.46 GiB). */
#define CLI_LIST_ADDRESS_SPACE_MIB   512
#define CLI_DRIVER_ADDRESS_SPACE_MIB 2048
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

/* Signals: one rule for INT, TERM, HUP, QUIT and PIPE (README,
 * Reliability). From cli_signals_init, at the start, each stops clmem at
 * once: the file named by cli_signals_temp removed, nothing reported, the
 * default action (exit 128 + N). From cli_catch_interrupts, when the
 * variants start running, the first INT, TERM or HUP only asks for a stop
 * (cli_interrupted): the current variant finishes, a build is abandoned,
 * what finished is reported, exit 128 + N; a second signal, QUIT and PIPE
 * still stop at once. A signal ignored at the start (nohup) stays ignored;
 * SIGUSR1 keeps the action it had (terminate). */
void cli_signals_init(void);
/* The output's temporary file, removed when a signal stops clmem at once
 * (copied; NULL or "": none). */
void cli_signals_temp(const char *temp_path);
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
/* main's exit code: after a stop was asked for, 128 + N whatever came
 * after it, through _exit (stdout and stderr flushed), as a build abandoned
 * on its thread may still be inside the driver; otherwise code. */
int cli_exit(int code);

#ifdef CLMEM_HAVE_MPI
/* ---- under mpirun (src/cli/mpi.c) ---- */
#include "mpi/ranks.h"

/* Starts MPI (under mpirun). Returns an exit code (3: MPI would not start). */
int cli_mpi_start(int *argc, char ***argv);
void cli_mpi_stop(void);
/* The MPI state under mpirun, NULL otherwise. */
const struct clmem_mpi *cli_mpi(void);
/* Opens this rank's device (clmem_mpi_pick_device by the rank on its
 * host); collective: every rank gets the worst status (clmem_mpi_agree). */
int cli_mpi_open_device(const char *spec, const char *kernel_dir, struct clmem_ctx *ctx,
                        struct clmem_error *err);
/* Collective: this rank's run (its device, peaks when has_peak, status and
 * the error's message, results) to rank 0's *all (clmem_mpi_gather). */
int cli_mpi_gather(const struct clmem_ctx *ctx, int has_peak, const struct clmem_peak *peak,
                   int status, const struct clmem_error *run_err, struct clmem_result *results,
                   size_t n_results, struct clmem_rank_report **all, struct clmem_error *err);
/* "rank R on HOST: DEVICE", a rank's name in reports. */
void cli_mpi_label(const struct clmem_rank_report *r, char *out, size_t size);
/* Every rank's results in one list (a copy), each device named "rank R on
 * HOST: DEVICE", then with `totals` the sums over the ranks
 * (clmem_results_total) when there are 2 to CLI_MPI_MAX_TOTALS ranks. */
#define CLI_MPI_MAX_TOTALS 1024
int cli_mpi_combine(const struct clmem_rank_report *all, size_t n, int totals,
                    struct clmem_result **results, size_t *n_results, struct clmem_error *err);
/* Prints each rank's failed checks and error; returns the worst status. */
int cli_mpi_report_ranks(const struct clmem_rank_report *all, size_t n);
/* Collective: rank 0's `status`, which has seen every rank's, for all to
 * exit with (mpirun then exits with it too). */
int cli_mpi_final(int status);
#endif

#endif
