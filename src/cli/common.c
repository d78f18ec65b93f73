/* Error printing and device opening for the commands. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "cli.h"

#if defined(__has_include) && __has_include(<malloc.h>)
#include <malloc.h> /* mallopt (glibc) */
#endif
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int cli_silent;

/* ---- feedback: progress and informational lines on stderr ---- */

/* Set once the command line is parsed (cli_feedback_set); read-only after. */
static int feedback_progress = -1, feedback_quiet;
/* When the first counted step started: the ETA's origin. */
static double progress_origin, progress_start;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void cli_feedback_set(const struct cli_opts *o)
{
    feedback_quiet = o->quiet;
    feedback_progress = o->progress;
    progress_start = now_s();
    progress_origin = 0;
}

int cli_quiet(void)
{
    return feedback_quiet || cli_silent;
}

int cli_progress_on(void)
{
    if (cli_quiet())
        return 0;
    return feedback_progress > 0 || isatty(STDERR_FILENO);
}

/* "42 s", "3 min 05 s", "1 h 02 min". */
static void duration_text(double s, char *out, size_t size)
{
    unsigned long long t = s > 0 ? (unsigned long long)(s + 0.5) : 0;
    if (t < 60)
        snprintf(out, size, "%llu s", t);
    else if (t < 3600)
        snprintf(out, size, "%llu min %02llu s", t / 60, t % 60);
    else
        snprintf(out, size, "%llu h %02llu min", t / 3600, t / 60 % 60);
}

void cli_progress_step(size_t step, size_t steps, const char *what)
{
    if (!cli_progress_on())
        return;
    double now = now_s();
    /* Step 1 starts the count (a bench's peaks are step 0). */
    if (step <= 1 || progress_origin == 0)
        progress_origin = now;
    char elapsed[32], left[64] = "";
    duration_text(now - progress_start, elapsed, sizeof elapsed);
    size_t done = step > 0 ? step - 1 : 0;
    if (done > 0 && steps >= step) {
        char eta[32];
        duration_text((now - progress_origin) / (double)done * (double)(steps - done), eta,
                      sizeof eta);
        snprintf(left, sizeof left, ", about %s left", eta);
    }
    fprintf(stderr, "clmem: [%zu/%zu] %s (%s elapsed%s)\n", step, steps, what, elapsed, left);
    fflush(stderr);
}

static void say_building(void *user, const struct clmem_device *device)
{
    (void)user;
    if (cli_progress_on())
        fprintf(stderr, "clmem: building kernels for %s (first time; cached afterwards)\n",
                device->name);
}

/* ---- did you mean ---- */

/* Edit distance, a swap of two neighbours counting one (optimal string
 * alignment: "rnu" is one slip from "run"); 99 for long names. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 99;
    size_t d[65][65];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

void cli_suggest_start(struct cli_suggest *s, const char *word)
{
    s->word = word;
    s->best = NULL;
    s->distance = 0;
}

void cli_suggest_try(struct cli_suggest *s, const char *candidate)
{
    size_t len = strlen(s->word), d = edit_distance(s->word, candidate);
    /* Close enough to be a slip: a third of the word, at least 1, at most 3. */
    size_t limit = len / 3 < 1 ? 1 : len / 3 > 3 ? 3 : len / 3;
    if (d == 0 || d > limit || (s->best && d >= s->distance))
        return;
    s->best = candidate;
    s->distance = d;
}

void cli_suggest_workload(const char *name, char *hint, size_t size)
{
    struct cli_suggest s;
    size_t n;
    const struct clmem_workload *const *all = clmem_workloads(&n);
    cli_suggest_start(&s, name);
    for (size_t i = 0; i < n; i++) {
        struct clmem_workload_info info;
        clmem_workload_describe(all[i], &info);
        cli_suggest_try(&s, info.name);
    }
    hint[0] = '\0';
    if (s.best)
        snprintf(hint, size, "did you mean '%s'? ", s.best);
}

void cli_suggest_variant(const struct clmem_workload *w, const char *name, char *hint, size_t size)
{
    struct cli_suggest s;
    struct clmem_workload_info info;
    clmem_workload_describe(w, &info);
    cli_suggest_start(&s, name);
    for (size_t i = 0; i < info.n_variants; i++) {
        struct clmem_variant_info v;
        clmem_variant_describe(w, i, &v);
        cli_suggest_try(&s, v.name);
    }
    hint[0] = '\0';
    if (s.best)
        snprintf(hint, size, "did you mean '%s'? ", s.best);
}

/* The rank variables of Open MPI's mpirun, MPICH's Hydra and PMIx
 * launchers (srun). */
static const char *const rank_vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"};

int cli_launched_by_mpirun(void)
{
    return cli_mpirun_rank() >= 0;
}

int cli_mpirun_rank(void)
{
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(rank_vars); i++) {
        const char *v = getenv(rank_vars[i]);
        if (v && v[0])
            return atoi(v);
    }
    return -1;
}

int cli_report_error(const struct clmem_error *err)
{
    if (cli_silent)
        return err->status ? err->status : CLMEM_ERR_CL;
    /* A message may quote a file's contents (a run file's names): escaped,
     * one line whatever they hold. */
    fputs("clmem: ", stderr);
    clmem_fputs_escaped(err->message, stderr);
    fputc('\n', stderr);
    if (err->log && err->log[0])
        fprintf(stderr, "build log:\n%s\n", err->log);
    return err->status ? err->status : CLMEM_ERR_CL;
}

int cli_usage_error(const char *command, const char *fmt, ...)
{
    va_list ap;
    if (cli_silent)
        return CLMEM_ERR_USAGE;
    fprintf(stderr, "clmem: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (see 'clmem %s%s--help')\n", command ? command : "", command ? " " : "");
    return CLMEM_ERR_USAGE;
}

/* The stop signals and SIGUSR1, held while a driver loads: what comes
 * then is handled once clmem's handlers are back, and the driver's own
 * threads, started meanwhile, keep them held (signals go to clmem's). */
static void hold_signals(sigset_t *old)
{
    sigset_t held;
    clmem_stop_set(&held);
    sigaddset(&held, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &held, old);
}

static void release_signals(const sigset_t *old)
{
    cli_signals_reclaim();
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* Below the driver's need, PoCL crashed (SIGSEGV at exit) or LLVM aborted
 * building: refused before the driver loads. Under any limit, glibc keeps
 * one malloc arena: each thread that gets an arena of its own reserves 64
 * MiB of the limit (128 while it aligns it), and how many the driver's
 * threads get depends on how they meet: on a loaded machine PoCL then
 * failed now and then to list its devices at 512 MiB
 * (CL_OUT_OF_HOST_MEMORY), where an idle one lists them from 303 MiB. */
static int check_address_space(unsigned need_mib, struct clmem_error *err)
{
    struct rlimit limit;
    if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return CLMEM_OK;
#ifdef M_ARENA_MAX
    mallopt(M_ARENA_MAX, 1);
#endif
    if (limit.rlim_cur >= (rlim_t)need_mib << 20)
        return CLMEM_OK;
    return clmem_fail(err, CLMEM_ERR_CL,
                      "the address-space limit (ulimit -v) of %llu MiB is below the %u MiB the "
                      "OpenCL driver needs (raise it, e.g. 'ulimit -v unlimited')",
                      (unsigned long long)(limit.rlim_cur >> 20), need_mib);
}

/* PoCL's compiler opens its linker, libraries and cache files while it
 * builds: below about 16 descriptors it aborted the whole process
 * ("Too many open files" from ld, then SIGABRT). The soft limit is raised
 * toward the hard one as most programs may; a hard limit too low is
 * refused before the driver loads. */
static int check_file_descriptors(struct clmem_error *err)
{
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= CLI_DRIVER_FILE_DESCRIPTORS)
        return CLMEM_OK;
    rlim_t want = CLI_DRIVER_FILE_DESCRIPTORS * 4;
    if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < want)
        want = limit.rlim_max;
    if (want >= CLI_DRIVER_FILE_DESCRIPTORS) {
        limit.rlim_cur = want;
        if (setrlimit(RLIMIT_NOFILE, &limit) == 0)
            return CLMEM_OK;
    }
    return clmem_fail(err, CLMEM_ERR_CL,
                      "the open-file limit (ulimit -n) of %llu is below the %d the OpenCL "
                      "driver's compiler needs (raise it, e.g. 'ulimit -n 1024')",
                      (unsigned long long)limit.rlim_max, CLI_DRIVER_FILE_DESCRIPTORS);
}

/* ---- PoCL's kernel cache ----
 * PoCL keeps compiled kernels in POCL_CACHE_DIR, else
 * $XDG_CACHE_HOME/pocl, else $HOME/.cache/pocl, made with mkdir -p as it
 * loads. Where that cannot be made (HOME or XDG_CACHE_HOME a file, a
 * read-only HOME) PoCL lists no device at all, and a missing HOME
 * (HOME=/nonexistent, as root) it creates. Looked at before the driver
 * loads: PoCL then gets a private temporary cache, removed at exit. */
static char pocl_tmp_cache[64]; /* the private cache made, or "" */

/* Whether `path` exists as a directory or could be made: its deepest
 * existing ancestor a directory this user may write. If not, why in
 * `why` (naming the ancestor) and 0. */
static int dir_can_be_made(const char *path, char *why, size_t size)
{
    char at[PATH_MAX];
    struct stat st;
    if (snprintf(at, sizeof at, "%s", path) >= (int)sizeof at) {
        snprintf(why, size, "its path is too long");
        return 0;
    }
    for (;;) {
        if (stat(at, &st) == 0) {
            if (!S_ISDIR(st.st_mode)) {
                snprintf(why, size, "'%s' is not a directory", at);
                return 0;
            }
            /* PoCL writes in it, or makes what is missing below it. */
            if (access(at, W_OK | X_OK) != 0) {
                snprintf(why, size, "'%s' is not writable: %s", at, strerror(errno));
                return 0;
            }
            return 1;
        }
        /* Missing, or below a file: look further up. */
        if (errno != ENOENT && errno != ENOTDIR) {
            snprintf(why, size, "'%s': %s", at, strerror(errno));
            return 0;
        }
        char *slash = strrchr(at, '/');
        if (!slash || slash == at)
            return 1; /* down to / or a relative name: left to PoCL */
        *slash = '\0';
    }
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

static void pocl_cache_remove(void)
{
    if (!pocl_tmp_cache[0])
        return;
    /* PoCL's kernel cache: a few levels of small files, none followed
     * through a link. */
    nftw(pocl_tmp_cache, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    pocl_tmp_cache[0] = '\0';
}

/* Before the driver loads. A POCL_CACHE_DIR of the user's that cannot be
 * made: exit 2 naming why (the driver would list no device). No
 * POCL_CACHE_DIR, and PoCL's default place cannot be made or would create
 * a missing HOME: a private one. */
static int pocl_cache_check(struct clmem_error *err)
{
    static int checked;
    if (checked)
        return CLMEM_OK;
    checked = 1;
    char place[PATH_MAX], why[PATH_MAX + 64];
    const char *set = getenv("POCL_CACHE_DIR");
    /* Set but empty, PoCL stops the process (an assertion: exit 134);
     * one it cannot make, it lists no device. */
    if (set && !set[0])
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "POCL_CACHE_DIR is set but empty, which stops PoCL (unset it, or point "
                          "it at a writable directory)");
    if (set) {
        if (clmem_dir_usable(set, why, sizeof why) != 0)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "POCL_CACHE_DIR '%s' cannot be made: %s (PoCL would list no device; "
                              "point it at a writable directory)",
                              set, why);
        return CLMEM_OK;
    }
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    struct stat st;
    /* A relative XDG_CACHE_HOME is to be ignored (the XDG spec); PoCL
     * would make its cache below the current directory. */
    int xdg_relative = xdg && xdg[0] && xdg[0] != '/', missing_home = 0;
    if (xdg && xdg[0] == '/') {
        snprintf(place, sizeof place, "%s/pocl", xdg);
    } else if (home && home[0]) {
        missing_home = stat(home, &st) != 0 && errno == ENOENT;
        snprintf(place, sizeof place, "%s/.cache/pocl", home);
    } else if (!xdg_relative) {
        return CLMEM_OK; /* PoCL's own fallback */
    } else {
        snprintf(place, sizeof place, "%s/pocl", xdg);
    }
    if (missing_home)
        snprintf(why, sizeof why, "HOME '%s' does not exist", home);
    else if (xdg_relative && !(home && home[0]))
        snprintf(why, sizeof why, "XDG_CACHE_HOME '%s' is not an absolute path", xdg);
    else if (dir_can_be_made(place, why, sizeof why))
        return xdg_relative ? (setenv("POCL_CACHE_DIR", place, 1), CLMEM_OK) : CLMEM_OK;
    const char *tmp = getenv("TMPDIR");
    if (!tmp || tmp[0] != '/' || strlen(tmp) > sizeof pocl_tmp_cache - 24)
        tmp = "/tmp";
    snprintf(pocl_tmp_cache, sizeof pocl_tmp_cache, "%s/clmem-pocl-XXXXXX", tmp);
    if (!mkdtemp(pocl_tmp_cache)) {
        int saved = errno;
        pocl_tmp_cache[0] = '\0';
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "PoCL's kernel cache '%s' cannot be made (%s), nor a temporary one in "
                          "'%s': %s (set POCL_CACHE_DIR to a writable directory)",
                          place, why, tmp, strerror(saved));
    }
    setenv("POCL_CACHE_DIR", pocl_tmp_cache, 1);
    /* A daemon's missing HOME is expected: said only when asked. */
    if (missing_home ? clmem_debug_enabled(CLMEM_DEBUG_BUILD) : !cli_silent)
        fprintf(stderr,
                "clmem: %s: PoCL's kernel cache '%s' cannot be made (%s); it uses '%s', removed "
                "at exit (set POCL_CACHE_DIR to keep one)\n",
                missing_home ? "note" : "warning", place, why, pocl_tmp_cache);
    return CLMEM_OK;
}

int cli_devices_list(struct clmem_device **devices, size_t *count, unsigned need_mib,
                     struct clmem_error *err)
{
    *devices = NULL;
    *count = 0;
    int status = check_address_space(need_mib, err);
    if (status || (status = check_file_descriptors(err)) || (status = pocl_cache_check(err)))
        return status;
    sigset_t old;
    hold_signals(&old);
    status = clmem_devices_list(devices, count, err);
    release_signals(&old);
    return status;
}

int cli_ctx_open(struct clmem_ctx *ctx, const struct clmem_device *device, const char *kernel_dir,
                 struct clmem_error *err)
{
    sigset_t old;
    hold_signals(&old);
    int status = clmem_ctx_open(ctx, device, kernel_dir, err);
    release_signals(&old);
    ctx->cancelled = cli_interrupted;
    ctx->building = say_building;
    return status;
}

int cli_open_device(const char *spec, const char *kernel_dir, struct clmem_ctx *ctx,
                    struct clmem_error *err)
{
    struct clmem_device *devices;
    size_t count, chosen;
    int status = cli_devices_list(&devices, &count, CLI_DRIVER_ADDRESS_SPACE_MIB, err);
    if (status)
        return status;
    status = clmem_devices_select(spec, devices, count, &chosen, err);
    if (status == CLMEM_OK)
        status = cli_ctx_open(ctx, &devices[chosen], kernel_dir, err);
    free(devices);
    return status;
}

void cli_report_warnings(const struct clmem_ctx *ctx)
{
    if (ctx->cache_warning[0])
        fprintf(stderr, "clmem: warning: %s\n", ctx->cache_warning);
    if (ctx->tuning_warning[0])
        fprintf(stderr, "clmem: warning: %s\n", ctx->tuning_warning);
}

/* Signals (docs/reliability.md, Signals). A handler can only talk through statics:
 * the one piece of mutable global state. */
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
    pocl_cache_remove();
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
