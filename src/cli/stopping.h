/* Signals and the process's end (stopping.c). */
#ifndef CLMEM_CLI_STOPPING_H
#define CLMEM_CLI_STOPPING_H

#include "clmem/clmem.h"

#include <signal.h>
#include <stddef.h>

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

#endif
