/* Running the clmem binary from a test (cli_run.h). */
#define _DEFAULT_SOURCE /* wait4 */
#include "cli_run.h"

#include "harness/workload.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "clmem/clmem.h"

void stop_signals_default(void)
{
    /* SIGQUIT's default action dumps core: not in the test's directory. */
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        signal(sigs[i], SIG_DFL);
}

void slurp(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, size - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
}

void start_program(struct child *c, const char *const env[], const char *path,
                   const char *const argv[])
{
    start_program_to(c, env, path, argv, NULL);
}

void start_program_to(struct child *c, const char *const env[], const char *path,
                      const char *const argv[], const char *stdout_path)
{
    strcpy(c->out_path, "/tmp/clmem-test-out-XXXXXX");
    strcpy(c->err_path, "/tmp/clmem-test-err-XXXXXX");
    int out_fd = mkstemp(c->out_path), err_fd = mkstemp(c->err_path);
    assert_true(out_fd >= 0 && err_fd >= 0);
    c->pid = fork();
    assert_true(c->pid >= 0);
    if (c->pid == 0) {
        if (stdout_path && (out_fd = open(stdout_path, O_WRONLY)) < 0)
            _exit(126);
        dup2(out_fd, 1);
        dup2(err_fd, 2);
        for (size_t i = 0; env && env[i]; i += 2)
            if (env[i + 1])
                setenv(env[i], env[i + 1], 1);
            else
                unsetenv(env[i]);
#ifdef __SANITIZE_ADDRESS__
        /* LeakSanitizer cannot stop the threads of a clmem started here at
         * its error exits ("does not work under ptrace", exit 1) since the
         * clock check and the driver-exit guard came in; not understood
         * yet. Its ASan and UBSan checks stay on, and the in-process tests
         * (workloads, runtime, longrun, timing) still check leaks. */
        /* Added after what the test gave (verify_asan_link_order=0 where it
         * preloads a shim): the later of two settings wins. */
        const char *given = getenv("ASAN_OPTIONS");
        const char *extra = getenv("CLMEM_TEST_ASAN_OPTIONS");
        char options[2048];
        snprintf(options, sizeof options, "%s%s%s", given ? given : "", given && *given ? ":" : "",
                 extra ? extra : "detect_leaks=0:halt_on_error=1");
        setenv("ASAN_OPTIONS", options, 1);
#endif
        execv(path, (char *const *)argv);
        _exit(127);
    }
    close(out_fd);
    close(err_fd);
}

/* Starts $CLMEM_BIN with args (NULL-terminated), stdout and stderr to
 * files; env: NAME, VALUE, ..., NULL. */
void start_clmem(struct child *c, const char *const env[], const char *const args[])
{
    start_clmem_to(c, env, args, NULL);
}

void start_clmem_to(struct child *c, const char *const env[], const char *const args[],
                    const char *stdout_path)
{
    const char *bin = getenv("CLMEM_BIN");
    assert_non_null(bin);
    const char *argv[32] = {"clmem"};
    size_t n = 1;
    for (; args[n - 1] && n < 31; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    start_program_to(c, env, bin, argv, stdout_path);
}

void start_clmem_under_ulimit(struct child *c, const char *limit, const char *const env[],
                              const char *const args[])
{
    const char *bin = getenv("CLMEM_BIN");
    assert_non_null(bin);
    char script[128];
    snprintf(script, sizeof script, "ulimit %s && exec \"$@\"", limit);
    const char *argv[32] = {"sh", "-c", script, "sh", bin};
    size_t n = 5;
    for (size_t i = 0; args[i] && n < 31; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    start_program(c, env, "/bin/sh", argv);
}

void finish_clmem(struct child *c, struct outcome *o)
{
    finish_clmem_measuring(c, o);
}

long finish_clmem_measuring(struct child *c, struct outcome *o)
{
    int wstatus;
    struct rusage usage;
    assert_int_equal(wait4(c->pid, &wstatus, 0, &usage), c->pid);
    o->code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
    slurp(c->out_path, o->out, sizeof o->out);
    slurp(c->err_path, o->err, sizeof o->err);
    unlink(c->out_path);
    unlink(c->err_path);
    return usage.ru_maxrss;
}

void run_clmem_within(struct outcome *o, const char *const env[], const char *const args[],
                      unsigned limit_s)
{
    run_clmem_to_within(o, env, args, NULL, limit_s);
}

void run_clmem_to_within(struct outcome *o, const char *const env[], const char *const args[],
                         const char *stdout_path, unsigned limit_s)
{
    struct child c;
    start_clmem_to(&c, env, args, stdout_path);
    finish_clmem_within(&c, o, limit_s);
}

int child_ended(const struct child *c)
{
    /* WNOWAIT: still there for finish_clmem to reap. */
    siginfo_t info = {0};
    return waitid(P_PID, (id_t)c->pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid;
}

int child_ended_within(const struct child *c, unsigned timeout_s)
{
    const struct timespec tick = {0, 20 * 1000000L};
    for (unsigned long waited_ms = 0; waited_ms < timeout_s * 1000UL; waited_ms += 20) {
        if (child_ended(c))
            return 1;
        nanosleep(&tick, NULL);
    }
    return child_ended(c);
}

void finish_clmem_within(struct child *c, struct outcome *o, unsigned limit_s)
{
    int killed = !child_ended_within(c, limit_s);
    if (killed)
        kill(c->pid, SIGKILL);
    finish_clmem(c, o);
    if (killed) {
        size_t len = strlen(o->err);
        snprintf(o->err + len, sizeof o->err - len, "[killed: still running after %u s]\n",
                 limit_s);
    }
}

void run_clmem(struct outcome *o, const char *const env[], const char *const args[])
{
    struct child c;
    start_clmem(&c, env, args);
    finish_clmem(&c, o);
}

unsigned long long device_bytes(const char *devices, const char *label)
{
    const char *p = strstr(devices, label);
    if (!p || !(p = strchr(p, '(')))
        fail_msg("no '%s (N bytes)' in 'clmem devices': %.300s", label, devices);
    return strtoull(p + 1, NULL, 10);
}

void matmul_size_beyond_alloc(const char *const env[], char *size, size_t len)
{
    static struct outcome o;
    run_clmem_within(&o, env, (const char *const[]){"devices", NULL}, REFUSAL_LIMIT_S);
    assert_int_equal(o.code, 0);
    unsigned long long max_alloc = device_bytes(o.out, "max allocation");
    const unsigned long long cols = 46000;
    unsigned long long rows = max_alloc / 4 / cols + 1;
    /* The kernels index P with int: past that it is refused as too large. */
    if (rows * cols > 0x7fffffffULL)
        fail_msg("the device allocates %llu bytes at once: no matmul size is beyond it", max_alloc);
    snprintf(size, len, "%llux%llux1", rows, cols);
}

size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* Whether the line at `line` (up to its newline) is a finished result's:
 * "clmem: [i/n] WHAT on DEVICE: median X ms, METRIC, verified" (FAILED),
 * or "...: skipped: REASON", or "...: FAILED: ERROR" (an OpenCL error). */
static int is_result_line(const char *line, size_t len)
{
    char text[4096];
    snprintf(text, sizeof text, "%.*s", (int)len, line);
    if (strncmp(text, "clmem: [", 8) != 0 || !strstr(text, "] ") || !strstr(text, " on "))
        return 0;
    if (strstr(text, ": skipped: ") || strstr(text, ": FAILED: "))
        return 1;
    size_t n = strlen(text);
    int ends_ok = (n > 10 && strcmp(text + n - 10, ", verified") == 0) ||
                  (n > 8 && strcmp(text + n - 8, ", FAILED") == 0);
    return strstr(text, ": median ") && strstr(text, " ms, ") && ends_ok;
}

const char *other_lines(const char *err, size_t *results)
{
    static char rest[sizeof((struct outcome *)0)->err];
    size_t kept = 0;
    *results = 0;
    for (const char *line = err; *line;) {
        size_t len = strcspn(line, "\n");
        size_t whole = len + (line[len] == '\n');
        if (is_result_line(line, len)) {
            ++*results;
        } else if (kept + whole < sizeof rest) {
            memcpy(rest + kept, line, whole);
            kept += whole;
        }
        line += whole;
    }
    rest[kept] = '\0';
    return rest;
}

int wait_for_stderr(const struct child *c, const char *text, unsigned timeout_s)
{
    static char err[1 << 20];
    const struct timespec tick = {0, 20 * 1000000L};
    for (unsigned long waited_ms = 0; waited_ms < timeout_s * 1000UL; waited_ms += 20) {
        slurp(c->err_path, err, sizeof err);
        if (strstr(err, text))
            return 1;
        if (child_ended(c))
            return 0;
        nanosleep(&tick, NULL);
    }
    return 0;
}

size_t device_peak_count(void)
{
    const struct clmem_workload *w = clmem_workload_find("peak");
    assert_non_null(w);
    size_t n = 0;
    for (size_t i = 0; i < w->n_variants; i++)
        n += w->variants[i].peak != CLMEM_PEAK_NONE;
    return n;
}

size_t variant_count(const char *workload)
{
    const struct clmem_workload *w = clmem_workload_find(workload);
    assert_non_null(w);
    return clmem_workload_variants(w);
}
