/* How clmem stops (docs/reliability.md, Signals): one rule for the stop
 * signals (a first INT, TERM or HUP lets the current variant finish,
 * anything else stops at once with the pending outputs removed), crashes
 * and the driver's own exit() told apart from clmem's, and the exit code
 * after a stop. */
#define _XOPEN_SOURCE 700 /* SA_RESTART, SIGSYS, SIGXCPU, ... */
#include "stopping.h"

#include "common.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A handler can only talk through statics: the one piece of mutable
 * global state. */
static volatile sig_atomic_t interrupt_signal; /* the first stop asked for, or 0 */
static volatile sig_atomic_t graceful;         /* INT, TERM, HUP: stop after the variant */
static volatile sig_atomic_t stopping;         /* a stop at once is on its way */
static int interrupt_tell;                     /* stderr is a terminal: say what happens */
static unsigned ignored_at_start;      /* bit i: clmem_stop_signals[i] was SIG_IGN (nohup) */
static struct sigaction usr1_at_start; /* SIGUSR1's action: kept (default: terminate) */
static struct sigaction usr1_action;   /* what SIGUSR1 gets: usr1_at_start, or on_fatal */
static struct sigaction stop_action;
static struct sigaction fatal_action;
static unsigned fatal_ours; /* bit i: fatal_signals[i] has clmem's handler */

/* Signals whose default action ends the process, other than the stop
 * signals: a crash (a kernel writing far out of bounds on a CPU device
 * faults inside the driver's threads), abort, a timer. Each removes the
 * pending outputs' temporary files, then takes its default action, so
 * the exit status is the signal's. */
static const struct {
    int sig;
    const char *said; /* one line on stderr, or NULL */
} fatal_signals[] = {
    {SIGSEGV, "\nclmem: the OpenCL device or its driver crashed (SIGSEGV: e.g. a kernel that "
              "writes out of bounds on a CPU device); nothing was reported\n"},
    {SIGBUS, "\nclmem: the OpenCL device or its driver crashed (SIGBUS: e.g. a kernel that "
             "writes out of bounds on a CPU device); nothing was reported\n"},
    {SIGFPE, NULL},
    {SIGILL, NULL},
    {SIGABRT, NULL},
    {SIGTRAP, NULL},
    {SIGSYS, NULL},
    {SIGUSR2, NULL},
    {SIGALRM, NULL},
    {SIGVTALRM, NULL},
    {SIGPROF, NULL},
    {SIGXCPU, NULL},
    {SIGXFSZ, NULL},
};

/* Gives `sig` its default action back (async-signal-safe: sigaction
 * alone), for a handler that then raises it. */
static void default_action(int sig)
{
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
}

/* Async-signal-safe only: unlink (clmem_output_remove_pending), write,
 * sigaction, raise, pause. A kernel out of bounds faults on every driver
 * thread at once: the first one cleans up and says it, the others wait
 * for it to end the process (were they to take the default action
 * meanwhile, the process would end before the temporaries are gone). */
static void on_fatal(int sig)
{
    static atomic_flag taken = ATOMIC_FLAG_INIT;
    if (atomic_flag_test_and_set(&taken))
        for (;;)
            pause();
    stopping = 1;
    clmem_output_remove_pending();
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(fatal_signals); i++)
        if (fatal_signals[i].sig == sig && fatal_signals[i].said && !cli_silent) {
            ssize_t ignored =
                write(STDERR_FILENO, fatal_signals[i].said, strlen(fatal_signals[i].said));
            (void)ignored;
        }
    default_action(sig);
    /* Blocked while the handler runs: delivered on return, with the
     * default action (a fault also comes again as the instruction
     * restarts). */
    raise(sig);
}

static void stop_now(int sig)
{
    /* Async-signal-safe only: unlink, sigaction, raise. */
    stopping = 1;
    clmem_output_remove_pending();
    default_action(sig);
    /* Blocked while the handler runs: delivered, by default, on return. */
    raise(sig);
}

static void on_signal(int sig)
{
    static const char first[] = "\nclmem: stopping after the current variant (again to stop now)\n";
    int may_wait = sig == SIGINT || sig == SIGTERM || sig == SIGHUP;
    if (!graceful || !may_wait || interrupt_signal) {
        stop_now(sig);
        return;
    }
    interrupt_signal = sig;
    if (interrupt_tell) {
        ssize_t ignored = write(STDERR_FILENO, first, sizeof first - 1);
        (void)ignored;
    }
}

void cli_signals_init(void)
{
    memset(&stop_action, 0, sizeof stop_action);
    stop_action.sa_handler = on_signal;
    sigfillset(&stop_action.sa_mask); /* one handler at a time */
    /* A handler that returns (the first INT, TERM or HUP while variants
     * run) must not fail what the driver is doing: PoCL waits for the
     * linker it runs (wait4) on the main thread. */
    stop_action.sa_flags = SA_RESTART;
    for (size_t i = 0; i < CLMEM_N_STOP_SIGNALS; i++) {
        struct sigaction old;
        sigaction(clmem_stop_signals[i], NULL, &old);
        /* Ignored when clmem started (nohup, a background job): stays so. */
        if (old.sa_handler == SIG_IGN)
            ignored_at_start |= 1u << i;
        else
            sigaction(clmem_stop_signals[i], &stop_action, NULL);
    }
    struct sigaction *fatal = &fatal_action;
    memset(fatal, 0, sizeof *fatal);
    fatal->sa_handler = on_fatal;
    sigfillset(&fatal->sa_mask);
    /* A fault inside the handler itself takes the default action: the
     * signal is blocked there, and the kernel then does so. */
    fatal->sa_flags = 0;
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(fatal_signals); i++) {
        struct sigaction old;
        if (sigaction(fatal_signals[i].sig, NULL, &old) == 0 && old.sa_handler == SIG_DFL &&
            sigaction(fatal_signals[i].sig, fatal, NULL) == 0)
            fatal_ours |= 1u << i;
    }
    /* SIGUSR1 terminates as by default (138), its temporaries removed
     * first; ignored at the start, it stays ignored. */
    sigaction(SIGUSR1, NULL, &usr1_at_start);
    usr1_action = usr1_at_start;
    if (usr1_at_start.sa_handler == SIG_DFL) {
        usr1_action = *fatal;
        sigaction(SIGUSR1, &usr1_action, NULL);
    }
    interrupt_tell = isatty(STDERR_FILENO);
}

void cli_signals_reclaim(void)
{
    if (stopping)
        return;
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    for (size_t i = 0; i < CLMEM_N_STOP_SIGNALS; i++) {
        /* Ignored at the start (nohup): ignored again, not LLVM's. */
        const struct sigaction *ours = ignored_at_start & (1u << i) ? &ignore : &stop_action;
        struct sigaction now;
        if (sigaction(clmem_stop_signals[i], NULL, &now) == 0 && now.sa_handler != ours->sa_handler)
            sigaction(clmem_stop_signals[i], ours, NULL);
    }
    struct sigaction usr1;
    if (sigaction(SIGUSR1, NULL, &usr1) == 0 && usr1.sa_handler != usr1_action.sa_handler)
        sigaction(SIGUSR1, &usr1_action, NULL);
    /* The faults too: PoCL's LLVM puts its own crash handler on SIGSEGV and
     * SIGBUS as it loads, with SA_RESETHAND. A kernel out of bounds faults
     * on several driver threads at once: the first ran LLVM's handler, the
     * second then met the default action and ended the process before
     * clmem's handler could remove the temporaries or say why. */
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(fatal_signals); i++) {
        struct sigaction now;
        if ((fatal_ours & (1u << i)) && sigaction(fatal_signals[i].sig, NULL, &now) == 0 &&
            now.sa_handler != on_fatal)
            sigaction(fatal_signals[i].sig, &fatal_action, NULL);
    }
}

void cli_catch_interrupts(void)
{
    cli_signals_reclaim();
    graceful = 1;
}

int cli_interrupted(void *user)
{
    (void)user;
    cli_signals_reclaim();
    return interrupt_signal != 0;
}

int cli_stop_status(int status)
{
    return interrupt_signal ? CLMEM_ERR_INTERRUPTED : status;
}

/* Set once clmem itself exits (main returns): any earlier exit() is the
 * driver's own (LLVM's report_fatal_error calls exit(1), e.g. when
 * PoCL's kernel cache is on a full disk), which would pass for a failed
 * verification. */
static volatile sig_atomic_t exit_expected;
static pid_t guarded_pid; /* a child the driver forks (its linker) exits as it likes */

static void on_foreign_exit(void)
{
    if (exit_expected || getpid() != guarded_pid)
        return;
    clmem_output_remove_pending();
    if (!cli_silent) {
        static const char said[] =
            "clmem: the OpenCL driver ended the process by itself (its message is above: e.g. "
            "'LLVM ERROR: IO failure' when its kernel cache cannot be written); nothing was "
            "reported\n";
        ssize_t ignored = write(STDERR_FILENO, said, sizeof said - 1);
        (void)ignored;
    }
    /* The driver failed: 3, not the 1 of a failed check; at once, as the
     * driver's other threads may still be running. */
    _exit(CLMEM_ERR_CL);
}

void cli_exit_guard(void)
{
    guarded_pid = getpid();
    atexit(on_foreign_exit);
}

int cli_exit(int code)
{
    exit_expected = 1;
    if (!interrupt_signal)
        return code;
    /* A build abandoned on its thread may still run inside the driver:
     * exit without the driver's exit-time destructors racing it. */
    fflush(stdout);
    fflush(stderr);
    _exit(128 + interrupt_signal);
}

int cli_report_interrupted_keeping(const char *kept)
{
    if (!cli_silent)
        fprintf(stderr, "clmem: interrupted: %s\n", kept);
    return 128 + (interrupt_signal ? interrupt_signal : SIGINT);
}

int cli_report_interrupted(size_t n, const char *output)
{
    char kept[4096 + 128]; /* a path of up to PATH_MAX */
    snprintf(kept, sizeof kept, "reported the %zu result%s that finished%s%s%s", n,
             n == 1 ? "" : "s", output ? " (in '" : "", output ? output : "", output ? "')" : "");
    return cli_report_interrupted_keeping(kept);
}

int cli_report_end(int status, size_t n, const char *output, const struct clmem_error *err)
{
    if (status == CLMEM_ERR_INTERRUPTED)
        return cli_report_interrupted(n, output);
    if (status && status != CLMEM_ERR_VERIFY && err->message[0])
        cli_report_error(err);
    /* A stop asked for after the last look (writing the report): its code. */
    return interrupt_signal ? 128 + interrupt_signal : status;
}

/* The stop signals and SIGUSR1, held while a driver loads: what comes
 * then is handled once clmem's handlers are back, and the driver's own
 * threads, started meanwhile, keep them held (signals go to clmem's). */
void cli_signals_hold(sigset_t *old)
{
    sigset_t held;
    clmem_stop_set(&held);
    sigaddset(&held, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &held, old);
}

void cli_signals_release(const sigset_t *old)
{
    cli_signals_reclaim();
    pthread_sigmask(SIG_SETMASK, old, NULL);
}
