/* A stop at once leaves no temporary file, whatever output is pending
 * (src/cli/stopping.c: the stop's handler removes them before the process
 * ends). Each kind of output clmem writes through a temporary file renamed
 * over it (src/io/output.c): a report's --output, blur's image --output, a
 * compiled-program cache entry, the tuning database; each stopped at once
 * by a second INT while it is written, QUIT, or TERM before the variants
 * run. Runs $CLMEM_BIN on PoCL.
 *
 * Every signal is sent on an event, never at a fixed time: a CLMEM_DEBUG
 * line (a kernel launch), the FIFO given as --input opened for reading, or
 * an output's temporary file synced before its rename, which the preloaded
 * tests/hold_fsync.c holds ($CLMEM_TEST_HOLD_FSYNC: the output's temporary
 * name) and tells on stderr, and tells again once a signal was handled.
 * Before the signal the temporary file must be there while the output is
 * written, and not yet before (it is made only then); after it, gone. */
#define _XOPEN_SOURCE 700 /* mkdtemp, mkfifo, kill */

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_run.h"
#include "tmpdir.h"

/* How long an event may take to come on a loaded 2-core machine (cold
 * builds), and a stop at once to end the process. */
#define EVENT_TIMEOUT_S 300
#define STOP_TIMEOUT_S  60

#define HELD    "clmem-test: fsync of '"
#define HANDLED "clmem-test: a signal was handled"

enum when {
    AT_HOLD,     /* the output's temporary file held in fsync, before its rename */
    AT_LAUNCH,   /* a kernel launch (CLMEM_DEBUG 2): the variants run */
    AT_FIFO_OPEN /* --input, a FIFO, opened: before the variants run */
};

struct stop {
    const char *name;
    const char *const *args; /* "OUT": the output's path; "IN": the input's */
    const char *output;      /* the output's name in the scratch directory, or NULL */
    const char *hold;        /* AT_HOLD: what the temporary file's path holds */
    const char *dir;         /* where its temporary file is, in the scratch directory */
    enum when when;
    int first, second; /* the signals: second 0, or sent once the first was handled */
    /* The output there before the run (its text), which a stop must leave
     * as it was; NULL: none. Such rows are the fatal signals' (clmem's
     * on_fatal handler, not a stop's), run by `test_stops fatal` too. */
    const char *before;
};

#define RUN_JSON(...)                                                                              \
    ARGS("run", __VA_ARGS__, "--device", "cpu", "--reps", "1", "--warmup", "0", "--format",        \
         "json", "--output", "OUT")
#define BLUR_IMAGE                                                                                 \
    ARGS("run", "blur", "--variant", "naive", "--input", "IN", "--device", "cpu", "--reps", "1",   \
         "--warmup", "0", "--output", "OUT")
#define CACHE_RUN                                                                                  \
    ARGS("run", "atomics", "--variant", "atomic_global", "--size", "1000", "--device", "cpu",      \
         "--reps", "1", "--warmup", "0")
#define TUNE                                                                                       \
    ARGS("tune", "matmul", "--variant", "regblock", "--size", "33", "--device", "cpu",             \
         "--max-candidates", "1")

#define BEFORE "{\"an earlier run's report\": true}\n"

static const struct stop stops[] = {
    {"report: a second INT while it is written", RUN_JSON("transpose", "--size", "33x17"), "r.json",
     ".r.json.", ".", AT_HOLD, SIGINT, SIGINT, NULL},
    /* Long enough (100000 launches, about 20 s) to be running still
     * when the first launch has been seen. */
    {"report: QUIT while the variants run",
     ARGS("run", "transpose", "--variant", "naive", "--size", "33x17", "--device", "cpu", "--reps",
          "100000", "--warmup", "0", "--format", "json", "--output", "OUT"),
     "r.json", NULL, ".", AT_LAUNCH, SIGQUIT, 0, NULL},
    {"report: TERM before the variants run (reading a FIFO --input)",
     RUN_JSON("blur", "--input", "IN"), "r.json", NULL, ".", AT_FIFO_OPEN, SIGTERM, 0, NULL},
    {"image: a second INT while it is written", BLUR_IMAGE, "out.pgm", ".out.pgm.", ".", AT_HOLD,
     SIGINT, SIGINT, NULL},
    {"image: QUIT while it is written", BLUR_IMAGE, "out.pgm", ".out.pgm.", ".", AT_HOLD, SIGQUIT,
     0, NULL},
    {"cache entry: a second INT while it is written", CACHE_RUN, NULL, ".bin.",
     "cache/clmem/programs", AT_HOLD, SIGINT, SIGINT, NULL},
    {"cache entry: QUIT while it is written", CACHE_RUN, NULL, ".bin.", "cache/clmem/programs",
     AT_HOLD, SIGQUIT, 0, NULL},
    {"tuning database: a second INT while it is written", TUNE, NULL, ".tuning.json.",
     "cache/clmem", AT_HOLD, SIGINT, SIGINT, NULL},
    {"tuning database: QUIT while it is written", TUNE, NULL, ".tuning.json.", "cache/clmem",
     AT_HOLD, SIGQUIT, 0, NULL},
    /* The signals that end the process by default and that clmem handles
     * only to remove its pending outputs first (src/cli/stopping.c,
     * fatal_signals and SIGUSR1): each at the hold, over an output that
     * was there before. */
    {"report: USR1 while it is written",
     RUN_JSON("transpose", "--variant", "naive", "--size", "33x17"), "r.json", ".r.json.", ".",
     AT_HOLD, SIGUSR1, 0, BEFORE},
    {"report: USR2 while it is written",
     RUN_JSON("transpose", "--variant", "naive", "--size", "33x17"), "r.json", ".r.json.", ".",
     AT_HOLD, SIGUSR2, 0, BEFORE},
    {"report: ALRM while it is written",
     RUN_JSON("transpose", "--variant", "naive", "--size", "33x17"), "r.json", ".r.json.", ".",
     AT_HOLD, SIGALRM, 0, BEFORE},
    {"report: ABRT while it is written",
     RUN_JSON("transpose", "--variant", "naive", "--size", "33x17"), "r.json", ".r.json.", ".",
     AT_HOLD, SIGABRT, 0, BEFORE},
};

/* Opens the FIFO for writing once the child opened it for reading: 1 then
 * (the descriptor in *fd), 0 when the child ended first or timeout_s passed. */
static int fifo_opened(const struct child *c, const char *fifo, unsigned timeout_s, int *fd)
{
    const struct timespec tick = {0, 20 * 1000000L};
    for (unsigned long waited_ms = 0; waited_ms < timeout_s * 1000UL; waited_ms += 20) {
        /* ENXIO until a reader has it open. */
        if ((*fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)) >= 0)
            return 1;
        assert_int_equal(errno, ENXIO);
        if (child_ended(c))
            return 0;
        nanosleep(&tick, NULL);
    }
    return 0;
}

static void write_image(const char *path)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fprintf(f, "P5\n33 9\n255\n");
    for (int i = 0; i < 33 * 9; i++)
        fputc((i * 37) & 0xff, f);
    assert_int_equal(fclose(f), 0);
}

static void stop_at_once_leaves_no_temporary_file(void **state)
{
    const struct stop *s = *state;
    static struct outcome o;
    char dir[] = "/tmp/clmem-stops-XXXXXX", cache[64], out[96], in[96], temps[128], pocl[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(cache, sizeof cache, "%s/cache", dir);
    assert_int_equal(mkdir(cache, 0700), 0);
    snprintf(out, sizeof out, "%s/%s", dir, s->output ? s->output : "none");
    snprintf(in, sizeof in, "%s/in.pgm", dir);
    snprintf(temps, sizeof temps, "%s/%s", dir, s->dir);
    if (s->before) {
        FILE *f = fopen(out, "w");
        assert_non_null(f);
        fputs(s->before, f);
        assert_int_equal(fclose(f), 0);
    }
    if (s->when == AT_FIFO_OPEN)
        assert_int_equal(mkfifo(in, 0600), 0);
    else
        write_image(in);
    /* clmem's caches cold (a cache entry is written), PoCL's the test's. */
    const char *test_cache = getenv("XDG_CACHE_HOME");
    snprintf(pocl, sizeof pocl, "%s/pocl", test_cache && test_cache[0] ? test_cache : cache);
    const char *shim = getenv("CLMEM_TEST_HOLD_FSYNC_LIB");
    assert_non_null(shim);
    /* ASan must come first among the preloaded libraries; here it cannot. */
    char asan[512];
    snprintf(asan, sizeof asan, "%s:verify_asan_link_order=0",
             getenv("ASAN_OPTIONS") ? getenv("ASAN_OPTIONS") : "");
    const char *env[] = {"XDG_CACHE_HOME",
                         cache,
                         "POCL_CACHE_DIR",
                         pocl,
                         "CLMEM_DEBUG",
                         "3",
                         "LD_PRELOAD",
                         shim,
                         "CLMEM_TEST_HOLD_FSYNC",
                         s->hold ? s->hold : "",
                         "ASAN_OPTIONS",
                         asan,
                         NULL};
    const char *argv[32];
    size_t n = 0;
    for (; s->args[n] && n < 31; n++)
        argv[n] = strcmp(s->args[n], "OUT") == 0  ? out
                  : strcmp(s->args[n], "IN") == 0 ? in
                                                  : s->args[n];
    argv[n] = NULL;

    struct child c;
    int fifo = -1, seen = 0;
    start_clmem(&c, env, argv);
    if (s->when == AT_HOLD)
        seen = wait_for_stderr(&c, HELD, EVENT_TIMEOUT_S);
    else if (s->when == AT_LAUNCH)
        seen = wait_for_stderr(&c, "clmem: launch ", EVENT_TIMEOUT_S);
    else
        seen = fifo_opened(&c, in, EVENT_TIMEOUT_S, &fifo);
    /* An output being written (held in its fsync): its temporary file is
     * there. Before (a launch, the FIFO opened) there is none yet: it is
     * made only when the output is written. */
    size_t pending = seen ? test_temp_files(temps, "pending") : 0;
    int expected = s->when == AT_HOLD, ready = seen && (pending != 0) == expected;
    if (ready) {
        kill(c.pid, s->first);
        if (s->second) {
            /* Not merged with the first: sent once that one was handled. */
            seen = wait_for_stderr(&c, HANDLED, EVENT_TIMEOUT_S);
            if (seen)
                kill(c.pid, s->second);
        }
    }
    int ended = child_ended_within(&c, STOP_TIMEOUT_S);
    if (!ended)
        kill(c.pid, SIGKILL);
    finish_clmem(&c, &o);
    if (fifo >= 0)
        close(fifo);
    /* What went wrong, if anything; said once the scratch directory is gone. */
    char wrong[256] = "";
    int sig = s->second ? s->second : s->first;
    size_t left = ready && ended ? test_temp_files(temps, "left behind") : 0;
    if (!ready)
        snprintf(wrong, sizeof wrong, "%s",
                 !seen      ? "the event never came"
                 : expected ? "no temporary file pending at the event"
                            : "a temporary file made before the output is written");
    else if (!ended)
        snprintf(wrong, sizeof wrong, "still running %d s after the signal (killed)",
                 STOP_TIMEOUT_S);
    else if (o.code != 128 + sig)
        snprintf(wrong, sizeof wrong, "expected exit %d", 128 + sig);
    else if (left)
        snprintf(wrong, sizeof wrong, "%zu temporary file%s left behind in '%s'", left,
                 left == 1 ? "" : "s", s->dir);
    else if (s->output && !s->before && access(out, F_OK) == 0)
        snprintf(wrong, sizeof wrong, "'%s' written by a run stopped at once", s->output);
    else if (s->before) {
        char now[256] = "";
        FILE *f = fopen(out, "r");
        size_t got = f ? fread(now, 1, sizeof now - 1, f) : 0;
        now[got] = '\0';
        if (f)
            fclose(f);
        if (strcmp(now, s->before) != 0)
            snprintf(wrong, sizeof wrong, "'%s' changed by a run stopped at once: now '%.100s'",
                     s->output, now);
    }
    test_remove_tree(dir);
    if (wrong[0])
        fail_msg("%s: %s; exit %d, stderr '%s'", s->name, wrong, o.code, o.err);
    print_message("%s: exit %d, no temporary file\n", s->name, o.code);
}

/* usage: test_stops [fatal]: every stop, or only the fatal signals' (a
 * minute: meson test stops_fatal, in the default suite). */
int main(int argc, char **argv)
{
    enum { N = sizeof stops / sizeof *stops };
    static struct CMUnitTest tests[N];
    int fatal_only = argc > 1 && strcmp(argv[1], "fatal") == 0;
    size_t n = 0;
    stop_signals_default(); /* the runs here are sent signals */
    for (size_t i = 0; i < N; i++)
        if (!fatal_only || stops[i].before)
            tests[n++] = (struct CMUnitTest){.name = stops[i].name,
                                             .test_func = stop_at_once_leaves_no_temporary_file,
                                             .initial_state = (void *)&stops[i]};
    return _cmocka_run_group_tests(fatal_only ? "stops, fatal signals" : "stops", tests, n, NULL,
                                   NULL);
}
