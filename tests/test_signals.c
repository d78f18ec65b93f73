/* Issue 17, clmem run as a user runs it ($CLMEM_BIN, on PoCL's CPU
 * device):
 * - signals, each sent on a progress event the run prints (CLMEM_DEBUG
 *   lines on stderr), never at a fixed time;
 * - numbers that wrap, empty values;
 * - an address-space limit (ulimit -v);
 * - messages that point at the command.
 *
 * The rule (docs/reliability.md, Signals): INT, TERM and HUP, once the variants
 * run, stop after the current variant (a program build is abandoned), the
 * results that finished are reported, --output written whole with
 * "interrupted": true, exit 128 + N. Before the variants run, a second
 * signal, and QUIT or PIPE at any time stop at once: no temporary file,
 * nothing reported, exit 128 + N. USR1 keeps its default action. */
#define _XOPEN_SOURCE 700 /* mkdtemp, mkfifo, kill */

#include <cJSON.h>
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
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_run.h"
#include "harness/harness.h"
#include "report/report.h"
#include "tmpdir.h"

/* How long a step may take on a loaded 2-core machine (cold PoCL builds). */
#define PROGRESS_TIMEOUT_S 300

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A scratch directory holding cache/ (a fresh XDG_CACHE_HOME: PoCL's and
 * clmem's caches cold) and the outputs. */
struct scratch {
    char dir[64], cache[96], out[96];
};

static void scratch_make(struct scratch *s, const char *output_name)
{
    strcpy(s->dir, "/tmp/clmem-signals-XXXXXX");
    assert_non_null(mkdtemp(s->dir));
    snprintf(s->cache, sizeof s->cache, "%s/cache", s->dir);
    assert_int_equal(mkdir(s->cache, 0700), 0);
    snprintf(s->out, sizeof s->out, "%s/%s", s->dir, output_name);
}

/* Temporary files left behind in `dir`, which is there: an output's hidden
 * .NAME.XXXXXX (src/io/output.c) or a report directory's NAME.tmp.XXXXXX.
 * (Looking for ".tmp." alone, as this once did, could never see an
 * output's.) */
static size_t temp_files(const char *dir)
{
    assert_int_equal(access(dir, F_OK), 0);
    return test_temp_files(dir, "left behind");
}

/* The JSON report at `path`: its number of results; "interrupted" as
 * expected, no result of `absent`, every result whole. */
static size_t check_report(const char *path, int interrupted, const char *absent)
{
    static char json[1 << 20];
    slurp(path, json, sizeof json);
    cJSON *root = cJSON_Parse(json);
    if (!root)
        fail_msg("'%s' is not JSON: '%.200s'", path, json);
    assert_int_equal(cJSON_IsTrue(cJSON_GetObjectItem(root, "interrupted")), interrupted);
    cJSON *results = cJSON_GetObjectItem(root, "results");
    assert_non_null(results);
    size_t n = (size_t)cJSON_GetArraySize(results);
    for (cJSON *r = results->child; r; r = r->next) {
        const char *workload = cJSON_GetStringValue(cJSON_GetObjectItem(r, "workload"));
        assert_non_null(workload);
        if (absent && strcmp(workload, absent) == 0)
            fail_msg("'%s' ran: the signal did not stop the run", absent);
        assert_non_null(cJSON_GetObjectItem(r, "status"));
    }
    cJSON_Delete(root);
    return n;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* `command` (NULL-terminated, at most 19 words) into argv[20], each "OUT"
 * replaced by `out`. */
static void with_output(const char *argv[20], const char *const command[], const char *out)
{
    size_t n = 0;
    for (; command[n] && n < 19; n++)
        argv[n] = strcmp(command[n], "OUT") == 0 ? out : command[n];
    argv[n] = NULL;
}

/* Waits for `progress` on c's stderr (a CLMEM_DEBUG line), sends `sig`
 * then, and collects the outcome in *o. Returns the seconds from the
 * signal to the exit; fails when the line never came. */
static double signal_at(struct child *c, const char *progress, int sig, struct outcome *o)
{
    int seen = wait_for_stderr(c, progress, PROGRESS_TIMEOUT_S);
    double sent = now_s();
    kill(c->pid, sig);
    finish_clmem(c, o);
    if (!seen)
        fail_msg("no '%s' seen: exit %d, stderr '%.300s'", progress, o->code, o->err);
    return now_s() - sent;
}

/* bench of transpose and reduce on a cold cache in a new scratch s,
 * --output s->out, `sig` sent at its first kernel launch (the peaks,
 * before transpose). Returns the seconds from the signal to the exit. */
static double signal_bench_at_first_launch(struct scratch *s, int sig, struct outcome *o)
{
    struct child c;
    scratch_make(s, "b.json");
    const char *env[] = {"XDG_CACHE_HOME", s->cache, "CLMEM_DEBUG", "2", NULL};
    start_clmem(&c, env,
                ARGS("bench", "--device", "cpu", "--workloads", "transpose,reduce", "--reps", "1",
                     "--output", s->out));
    return signal_at(&c, "clmem: launch ", sig, o);
}

/* A signal sent during a bench, and how it must stop it. */
struct bench_signal {
    int sig;
    int graceful; /* INT, TERM, HUP: after the variant; QUIT, PIPE: at once */
};

/* Exit 128 + sig, no temporary file; graceful: the results that finished
 * in --output ("interrupted": true), reduce never started; else nothing. */
static void signal_during_bench(void **state)
{
    const struct bench_signal *b = *state;
    static struct outcome o;
    struct scratch s;
    double took = signal_bench_at_first_launch(&s, b->sig, &o);
    print_message("%s: exit %d %.1f s after the signal\n", strsignal(b->sig), o.code, took);
    if (o.code != 128 + b->sig)
        fail_msg("%s: expected exit %d, got %d; stderr tail '%s'", strsignal(b->sig), 128 + b->sig,
                 o.code, o.err + (strlen(o.err) > 300 ? strlen(o.err) - 300 : 0));
    assert_int_equal(temp_files(s.dir), 0);
    if (b->graceful) {
        assert_true(exists(s.out));
        size_t n = check_report(s.out, 1, "reduce");
        assert_true(n >= 1); /* the peak whose launch was seen finished */
        assert_non_null(strstr(o.err, "clmem: interrupted: reported the "));
    } else {
        assert_false(exists(s.out));
        assert_string_equal(o.out, "");
        assert_null(strstr(o.err, "clmem: interrupted"));
    }
    test_remove_tree(s.dir);
}

/* signal_during_bench under the test's own name. */
#define SIGNAL_DURING_BENCH(test, sig, graceful)                                                   \
    {                                                                                              \
        .name = #test, .test_func = signal_during_bench,                                           \
        .initial_state = &(struct bench_signal){sig, graceful},                                    \
    }

/* SIGUSR1 keeps its default action (terminate) once the driver is loaded;
 * LLVM's handler used to swallow it and the run went on. */
static void sigusr1_is_not_swallowed(void **state)
{
    (void)state;
    static struct outcome o;
    struct scratch s;
    signal_bench_at_first_launch(&s, SIGUSR1, &o);
    assert_int_equal(o.code, 128 + SIGUSR1);
    test_remove_tree(s.dir);
}

/* SIGUSR1, SIGUSR2 and SIGALRM keep their exit status (128 + N) and remove
 * the --output's temporary file first (it was left behind). */
static void fatal_signals_remove_temporaries(void **state)
{
    (void)state;
    static struct outcome o;
    const int sigs[] = {SIGUSR1, SIGUSR2, SIGALRM};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct scratch s;
        signal_bench_at_first_launch(&s, sigs[i], &o);
        if (o.code != 128 + sigs[i])
            fail_msg("%s: exit %d, stderr '%.300s'", strsignal(sigs[i]), o.code, o.err);
        if (test_hidden_files(s.dir) != 0)
            fail_msg("%s left the output's temporary file", strsignal(sigs[i]));
        assert_false(exists(s.out));
        test_remove_tree(s.dir);
    }
}

/* Started with SIGHUP ignored (nohup): still ignored once the driver has
 * loaded (LLVM's handler was left in its place), and the run goes on. */
static void sighup_ignored_at_start_stays_ignored(void **state)
{
    (void)state;
    static struct outcome o;
    static char status[4096];
    struct scratch s;
    struct child c;
    scratch_make(&s, "b.json");
    const char *env[] = {"XDG_CACHE_HOME", s.cache, "CLMEM_DEBUG", "2", NULL};
    signal(SIGHUP, SIG_IGN); /* the child inherits it, as from nohup */
    start_clmem(
        &c, env,
        ARGS("bench", "--device", "cpu", "--workloads", "pi", "--reps", "1", "--output", s.out));
    signal(SIGHUP, SIG_DFL);
    int started = wait_for_stderr(&c, "clmem: launch ", PROGRESS_TIMEOUT_S);
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/status", (int)c.pid);
    slurp(path, status, sizeof status);
    kill(c.pid, SIGHUP);
    finish_clmem(&c, &o);
    assert_true(started);
    const char *ignored = strstr(status, "SigIgn:");
    assert_non_null(ignored);
    unsigned long long mask = strtoull(ignored + strlen("SigIgn:"), NULL, 16);
    if (!(mask & (1ULL << (SIGHUP - 1))))
        fail_msg("SIGHUP no longer ignored once the driver loaded (SigIgn %llx)", mask);
    assert_int_equal(o.code, 0);
    check_report(s.out, 0, NULL);
    test_remove_tree(s.dir);
}

/* A signal during a long program build (a cold cache, --no-cache, and a
 * clBuildProgram that takes 60 s more, as PoCL's can on a loaded machine:
 * tests/slow_build.c, preloaded) stops the run within seconds, the
 * build abandoned: exit 128 + N, --output written "interrupted". */
static void signal_during_cold_build_stops_within_10_s(void **state)
{
    (void)state;
    static struct outcome o;
    struct scratch s;
    struct child c;
    const char *shim = getenv("CLMEM_TEST_SLOW_BUILD");
    assert_non_null(shim);
    /* ASan must come first among the preloaded libraries; here it cannot. */
    char asan[512];
    snprintf(asan, sizeof asan, "%s:verify_asan_link_order=0",
             getenv("ASAN_OPTIONS") ? getenv("ASAN_OPTIONS") : "");
    const int sigs[] = {SIGINT, SIGTERM};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        scratch_make(&s, "r.json");
        const char *env[] = {
            "XDG_CACHE_HOME",         s.cache, "CLMEM_DEBUG",  "1",  "LD_PRELOAD", shim,
            "CLMEM_TEST_BUILD_DELAY", "60",    "ASAN_OPTIONS", asan, NULL};
        start_clmem(&c, env,
                    ARGS("run", "matmul", "--variant", "naive", "--size", "16", "--device", "cpu",
                         "--no-cache", "--format", "json", "--output", s.out));
        double took = signal_at(&c, "clmem: building ", sigs[i], &o);
        print_message("%s during a build: exit %d after %.1f s\n", strsignal(sigs[i]), o.code,
                      took);
        if (took >= 10.0)
            fail_msg("%s during a build: exit %.1f s after the signal", strsignal(sigs[i]), took);
        assert_int_equal(o.code, 128 + sigs[i]);
        assert_int_equal(temp_files(s.dir), 0);
        check_report(s.out, 1, NULL);
        test_remove_tree(s.dir);
    }
}

/* Whether `pid` sits in openat (blocked opening a FIFO with no writer). */
static int in_openat(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/syscall", (int)pid);
    slurp(path, line, sizeof line);
    return line[0] && atol(line) == SYS_openat;
}

/* SIGTERM while `run blur --input FIFO` waits for a writer: 143, not a
 * usage error ("Interrupted system call"), and nothing left behind. */
static void sigterm_blocked_on_fifo_input_exits_143(void **state)
{
    (void)state;
    static struct outcome o;
    struct scratch s;
    struct child c;
    char fifo[128];
    scratch_make(&s, "r.json");
    snprintf(fifo, sizeof fifo, "%s/in.pgm", s.dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    start_clmem(&c, NULL,
                ARGS("run", "blur", "--input", fifo, "--device", "cpu", "--format", "json",
                     "--output", s.out));
    /* Blocked: in openat over several looks, 50 ms apart. */
    int seen = 0;
    for (int i = 0; i < PROGRESS_TIMEOUT_S * 20 && seen < 5; i++) {
        seen = in_openat(c.pid) ? seen + 1 : 0;
        struct timespec tick = {0, 50 * 1000000L};
        nanosleep(&tick, NULL);
    }
    kill(c.pid, SIGTERM);
    finish_clmem(&c, &o);
    assert_int_equal(seen, 5);
    if (o.code != 143)
        fail_msg("expected exit 143, got %d: '%s'", o.code, o.err);
    assert_int_equal(temp_files(s.dir), 0);
    assert_false(exists(s.out));
    test_remove_tree(s.dir);
}

/* stdout a pipe nobody reads (`clmem ... | head -1` once head is gone):
 * exit 141, quietly (stderr holds the results' lines, said as each
 * finished, and nothing else), no temporary file; bench's --output,
 * written before stdout, stays whole. */
static void closed_stdout_pipe_exits_141_quietly(void **state)
{
    (void)state;
    static char err[16384];
    struct scratch s;
    scratch_make(&s, "b.json");
    const char *bin = getenv("CLMEM_BIN");
    assert_non_null(bin);
    const char *const *const commands[] = {
        ARGS("clmem", "run", "matmul", "--variant", "naive", "--size", "16", "--device", "cpu"),
        ARGS("clmem", "bench", "--device", "cpu", "--workloads", "pi", "--reps", "1", "--output",
             "OUT"),
    };
    /* matmul naive's; the peaks' and pi's. */
    const size_t results[] = {1, device_peak_count() + variant_count("pi")};
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        const char *argv[20];
        with_output(argv, commands[i], s.out);
        char err_path[] = "/tmp/clmem-signals-err-XXXXXX";
        int err_fd = mkstemp(err_path), fds[2];
        assert_true(err_fd >= 0);
        assert_int_equal(pipe(fds), 0);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            dup2(fds[1], 1);
            dup2(err_fd, 2);
            close(fds[0]);
            close(fds[1]);
            execv(bin, (char *const *)argv);
            _exit(127);
        }
        close(fds[0]); /* the reader is gone */
        close(fds[1]);
        close(err_fd);
        int wstatus;
        assert_int_equal(waitpid(pid, &wstatus, 0), pid);
        int code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
        slurp(err_path, err, sizeof err);
        unlink(err_path);
        size_t said;
        if (code != 128 + SIGPIPE || other_lines(err, &said)[0] || said != results[i])
            fail_msg("%s: exit %d, stderr '%s' (expected %zu results' lines alone)", argv[1], code,
                     err, results[i]);
        assert_int_equal(temp_files(s.dir), 0);
    }
    check_report(s.out, 0, NULL);
    test_remove_tree(s.dir);
}

/* ---- numbers that wrap, empty values (issue 17 item 7) ---- */

static const struct {
    const char *const *args;
    const char *message;
} refused[] = {
    {ARGS("run", "matmul", "--variant", "tiled", "--summa=-4294967295x-4294967295"),
     "--summa rows '-4294967295' is negative"},
    {ARGS("run", "matmul", "--variant", "tiled", "--summa=4294967297x1"),
     "--summa rows '4294967297' is out of range"},
    {ARGS("run", "matmul", "--variant", "tiled", "--summa=2x4294967297"),
     "--summa columns '4294967297' is out of range"},
    {ARGS("run", "matmul", "--variant", "tiled", "--summa=2x2x2"), "bad --summa grid '2x2x2'"},
    {ARGS("run", "matmul", "--variant", "tiled", "--summa=x2"), "bad --summa grid 'x2'"},
    {ARGS("run", "matmul", "--variant", "tiled", "--summa= 2x2"), "--summa rows ' 2' is not"},
    {ARGS("run", "matmul", "--kernel-dir", ""), "--kernel-dir needs a directory"},
    {ARGS("bench", "--kernel-dir", ""), "--kernel-dir needs a directory"},
    {ARGS("tune", "matmul", "--kernel-dir", ""), "--kernel-dir needs a directory"},
    {ARGS("compare", "--kernel-dir", ""), "--kernel-dir needs a directory"},
    {ARGS("run", "matmul", "--reps", " 5"), "--reps ' 5' is not a number"},
    {ARGS("run", "matmul", "--reps", "5 "), "--reps '5 ' is not a number"},
    {ARGS("run", "matmul", "--reps", "\t5"), "is not a number"},
    {ARGS("run", "matmul", "--reps", "+5"), "--reps '+5' is not a number"},
    {ARGS("bench", "--reps", " 5"), "--reps ' 5' is not a number"},
    {ARGS("run", "matmul", "--seed", " 1"), "--seed ' 1' is not a number"},
    {ARGS("run", "matmul", "--size", " 64"), "size ' 64' is not a number"},
    {ARGS("run", "matmul", "--size", "64 "), "size '64 ' is not a number"},
    {ARGS("tune", "matmul", "--max-candidates", " 3"), "--max-candidates ' 3' is not a number"},
    {ARGS("run", "matmul", "--device", "cpu,cpu", "--variant", "naive", "--size", "8",
          "--split= 1,1"),
     "bad --split weights ' 1,1'"},
    {ARGS("run", "matmul", "--device", "cpu,cpu", "--variant", "naive", "--size", "8",
          "--split=1, 1"),
     "bad --split weights '1, 1'"},
};

static void wrapping_and_spaced_numbers_are_refused(void **state)
{
    (void)state;
    static struct outcome o;
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        run_clmem(&o, NULL, refused[i].args);
        if (o.code != 2 || !strstr(o.err, refused[i].message) || count_lines(o.err) != 1 ||
            o.out[0])
            fail_msg("case %zu: expected exit 2 and '%s'; got exit %d, stderr '%s'", i,
                     refused[i].message, o.code, o.err);
    }
}

/* Weights whose sum overflows a double: shared as their ratio says. */
static void split_weights_near_the_largest_double(void **state)
{
    (void)state;
    struct clmem_error err = {0};
    size_t first[3], count[3];
    assert_int_equal(clmem_split_rows(10, 2, (const double[]){1e308, 1e308}, first, count, &err),
                     CLMEM_OK);
    assert_int_equal(count[0], 5);
    assert_int_equal(count[1], 5);
    assert_int_equal(
        clmem_split_rows(12, 3, (const double[]){1.7e308, 1.7e308, 1.7e308}, first, count, &err),
        CLMEM_OK);
    for (int i = 0; i < 3; i++)
        assert_int_equal(count[i], 4);
    assert_int_equal(clmem_split_rows(10, 2, (const double[]){1e308, 1.5e308}, first, count, &err),
                     CLMEM_OK);
    assert_int_equal(count[0], 4);
    assert_int_equal(count[1], 6);
    /* Tiny weights, as small as doubles go, are shares too. */
    assert_int_equal(clmem_split_rows(10, 2, (const double[]){5e-324, 5e-324}, first, count, &err),
                     CLMEM_OK);
    assert_int_equal(count[0], 5);
    clmem_error_clear(&err);
}

/* ---- memory pressure (issue 17 item 6) ---- */

/* clmem under `ulimit LIMIT` (e.g. "-v 400000"), through sh. */
static void run_under_ulimit(struct outcome *o, const char *limit, const char *const env[],
                             const char *const args[])
{
    struct child c;
    start_clmem_under_ulimit(&c, limit, env, args);
    finish_clmem(&c, o);
}

/* clmem under `ulimit -v KB`. */
static void run_limited(struct outcome *o, const char *kb, const char *const env[],
                        const char *const args[])
{
    char limit[48];
    snprintf(limit, sizeof limit, "-v %s", kb);
    run_under_ulimit(o, limit, env, args);
}

/* An address-space limit below what the driver needs: exit 3 and one line
 * before the driver loads (it crashed: SIGSEGV at exit, LLVM's abort
 * building), for every command that opens a device; a limit above it runs. */
static void address_space_limit_exits_3(void **state)
{
    (void)state;
#if defined(__SANITIZE_ADDRESS__)
    print_message("skipped: ASan reserves terabytes of address space\n");
    return;
#endif
    static struct outcome o;
    struct scratch s;
    char need[32] = "";
    scratch_make(&s, "r.json");
    const char *env[] = {"XDG_CACHE_HOME", s.cache, NULL};
    const char *const *const commands[] = {
        ARGS("run", "matmul", "--size", "16", "--variant", "naive", "--device", "cpu"),
        ARGS("run", "matmul", "--size", "16", "--variant", "naive", "--device", "cpu", "--no-cache",
             "--output", "OUT"),
        ARGS("bench", "--device", "cpu", "--workloads", "pi", "--output", "OUT"),
    };
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        const char *args[20];
        with_output(args, commands[i], s.out);
        run_limited(&o, "400000", env, args);
        const char *at = strstr(o.err, "is below the ");
        if (at)
            snprintf(need, sizeof need, "%s", at + strlen("is below the "));
        if (o.code != 3 || count_lines(o.err) != 1 ||
            !strstr(o.err, "clmem: the address-space limit (ulimit -v) of 390 MiB is below the "))
            fail_msg("%s: exit %d, stderr '%s'", args[0], o.code, o.err);
        assert_false(exists(s.out));
        assert_int_equal(temp_files(s.dir), 0);
    }
    /* Listing the devices needs less (PoCL aborted at 250 MB). */
    run_limited(&o, "250000", env, ARGS("devices"));
    if (o.code != 3 || count_lines(o.err) != 1 ||
        !strstr(o.err, "clmem: the address-space limit (ulimit -v) of 244 MiB is below the 512 "))
        fail_msg("devices: exit %d, stderr '%s'", o.code, o.err);
    run_limited(&o, "524288", env, ARGS("devices"));
    if (o.code != 0)
        fail_msg("devices at 512 MiB: exit %d, stderr '%s'", o.code, o.err);
    /* The need stated is enough: a small run, caches cold, at that limit. */
    char kb[32];
    snprintf(kb, sizeof kb, "%ld", atol(need) * 1024);
    run_limited(&o, kb, env,
                ARGS("run", "matmul", "--size", "16", "--variant", "naive", "--device", "cpu"));
    if (o.code != 0)
        fail_msg("at the limit said to be enough (%s KiB): exit %d, '%s'", kb, o.code, o.err);
    test_remove_tree(s.dir);
}

/* Too few open files: PoCL's compiler aborted the whole process building
 * a kernel ("Too many open files" from its linker, SIGABRT). A soft limit
 * is raised and the run works, caches cold; a hard one is refused with
 * exit 3 and one line before the driver loads. */
static void open_file_limit_is_raised_or_refused(void **state)
{
    (void)state;
    static struct outcome o;
    struct scratch s;
    scratch_make(&s, "r.json");
    const char *env[] = {"XDG_CACHE_HOME", s.cache, NULL};
    const char *args[20];
    with_output(args,
                ARGS("run", "reduce", "--size", "1000", "--variant", "one_pass", "--device", "cpu",
                     "--output", "OUT"),
                s.out);
    run_under_ulimit(&o, "-n 8", env, args);
    if (o.code != 3 || count_lines(o.err) != 1 ||
        !strstr(o.err, "clmem: the open-file limit (ulimit -n) of 8 is below the "))
        fail_msg("hard limit 8: exit %d, stderr '%s'", o.code, o.err);
    assert_false(exists(s.out));
    run_under_ulimit(&o, "-Sn 8", env, args);
    if (o.code != 0)
        fail_msg("soft limit 8: exit %d, stderr '%s'", o.code, o.err);
    assert_true(exists(s.out));
    test_remove_tree(s.dir);
}

/* run_limited, killed (code 137) when still running after limit_s. */
static void run_limited_within(struct outcome *o, const char *kb, const char *const args[],
                               unsigned limit_s)
{
    char limit[48];
    snprintf(limit, sizeof limit, "-v %s", kb);
    struct child c;
    start_clmem_under_ulimit(&c, limit, NULL, args);
    finish_clmem_within(&c, o, limit_s);
}

/* A small address-space limit never turns into a hang: a library's
 * threads started as clmem loads (OpenBLAS's, when it was linked) got
 * stuck allocating and every command waited for them at exit. Each
 * command ends at once with its own code. */
static void small_address_space_never_hangs(void **state)
{
    (void)state;
#if defined(__SANITIZE_ADDRESS__)
    print_message("skipped: ASan reserves terabytes of address space\n");
    return;
#endif
    static struct outcome o;
    const struct {
        const char *const *args;
        int code;
    } commands[] = {
        {ARGS("--version"), 0},
        {ARGS("--help"), 0},
        {ARGS("list"), 0},
        {ARGS("devices"), 3},
        {ARGS("run", "matmul", "--size", "16", "--device", "cpu"), 3},
        {ARGS("diff", "/nonexistent/a.json", "/nonexistent/b.json"), 2},
    };
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        run_limited_within(&o, "150000", commands[i].args, REFUSAL_LIMIT_S);
        if (o.code != commands[i].code)
            fail_msg("'%s' under ulimit -v 150000: exit %d (expected %d), stderr '%.300s'",
                     commands[i].args[0], o.code, commands[i].code, o.err);
    }
}

/* ---- messages (issue 17 item 8) ---- */

static void messages_point_at_the_command(void **state)
{
    (void)state;
    static struct outcome o;
    run_clmem(&o, NULL, ARGS("peak", "--bad"));
    assert_int_equal(o.code, 2);
    if (!strstr(o.err, "unknown option '--bad' (see 'clmem peak --help')"))
        fail_msg("peak --bad: '%s'", o.err);
    run_clmem(&o, NULL, ARGS("run", "blur", "--input", "/tmp", "--device", "cpu"));
    assert_int_equal(o.code, 2);
    if (!strstr(o.err, "is a directory") || count_lines(o.err) != 1)
        fail_msg("--input a directory: '%s'", o.err);
}

int main(int argc, char **argv)
{
    stop_signals_default();
    /* test_signals PATTERN: only the tests whose name matches (cmocka's *). */
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wrapping_and_spaced_numbers_are_refused),
        cmocka_unit_test(split_weights_near_the_largest_double),
        cmocka_unit_test(messages_point_at_the_command),
        cmocka_unit_test(address_space_limit_exits_3),
        cmocka_unit_test(small_address_space_never_hangs),
        cmocka_unit_test(open_file_limit_is_raised_or_refused),
        SIGNAL_DURING_BENCH(sigint_stops_after_the_variant, SIGINT, 1),
        SIGNAL_DURING_BENCH(sigterm_stops_after_the_variant, SIGTERM, 1),
        SIGNAL_DURING_BENCH(sighup_stops_after_the_variant, SIGHUP, 1),
        SIGNAL_DURING_BENCH(sigquit_stops_at_once, SIGQUIT, 0),
        SIGNAL_DURING_BENCH(sigpipe_stops_at_once, SIGPIPE, 0),
        cmocka_unit_test(sigusr1_is_not_swallowed),
        cmocka_unit_test(fatal_signals_remove_temporaries),
        cmocka_unit_test(sighup_ignored_at_start_stays_ignored),
        cmocka_unit_test(signal_during_cold_build_stops_within_10_s),
        cmocka_unit_test(sigterm_blocked_on_fifo_input_exits_143),
        cmocka_unit_test(closed_stdout_pipe_exits_141_quietly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
