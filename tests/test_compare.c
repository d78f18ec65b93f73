/* clmem compare FILE...: saved run files of other machines in one report,
 * with no device needed, mixed with a live PoCL device; every bad file
 * refused before anything is written; live devices at common sizes. */
#define _DEFAULT_SOURCE /* usleep, scandir */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tmpdir.h"

#include "cli_run.h"
#include "harness/harness.h"
#include "pocl.h"
#include "report/report.h"

static char empty_vendors[1100]; /* an ICD directory with no driver: no device at all */

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* compare with `args` (env as run_clmem's), its --output-dir `out`: it
 * must succeed for `devices` devices; returns out/FILE's text (malloc'd). */
static char *compared(const char *const env[], const char *const args[], const char *out,
                      int devices, const char *file)
{
    static struct outcome o;
    char said[64], path[1300];
    run_clmem(&o, env, args);
    if (o.code != 0)
        fail_msg("exit %d: %s", o.code, o.err);
    snprintf(said, sizeof said, "report for %d device(s)", devices);
    assert_non_null(strstr(o.out, said));
    snprintf(path, sizeof path, "%s/%s", out, file);
    char *text = test_read_file(path);
    if (!text)
        fail_msg("cannot read '%s'", path);
    return text;
}

static void saved_files_need_no_device(void **state)
{
    (void)state;
    const char *out = test_in_dir("saved");
    /* No OpenCL driver at all: reading files must not open one. */
    char *report =
        compared(ARGS("OCL_ICD_VENDORS", empty_vendors),
                 ARGS("compare", test_bench_file("h100.json"), test_bench_file("pocl-2core.json"),
                      test_bench_file("h100-scale/mpi-bench.json"), "--output-dir", out),
                 out, 4, "report.md");
    assert_non_null(strstr(report, "NVIDIA H100 80GB HBM3"));
    assert_non_null(strstr(report, "pthread-"));
    assert_true(exists(test_in_dir("saved/device-3.json")));
    free(report);
}

static void live_devices_join_saved_files(void **state)
{
    (void)state;
    const char *out = test_in_dir("mixed");
    /* The live device's JSON, first (live devices before saved runs):
     * the CPU sizes of transpose. */
    char *json = compared(NULL,
                          ARGS("compare", test_bench_file("h100.json"), "--devices", "cpu",
                               "--workloads", "transpose", "--reps", "1", "--output-dir", out),
                          out, 2, "device-0.json");
    assert_non_null(strstr(json, "\"transpose\""));
    assert_non_null(strstr(json, "\"2048\""));
    free(json);
}

/* Each bad file: exit 2 naming it and why, before any device or directory. */
static void bad_files_write_nothing(void **state)
{
    (void)state;
    static const struct {
        const char *name, *text, *reason;
    } cases[] = {
        {"empty.json", "", "is empty"},
        {"text.json", "not json at all", "not JSON"},
        {"cut.json", "{\"schema_version\": 1, \"results\": [", "truncated"},
        {"newer.json", "{\"schema_version\": 99, \"clmem_version\": \"9.0\"}", "newer than"},
        {"none.json",
         "{\"schema_version\": 1, \"clmem_version\": \"0.3.0\", \"created\": "
         "\"2026-11-26T10:00:00Z\", \"ranks\": [{\"rank\": 0, \"host\": {}, \"device\": {}, "
         "\"status\": 3, \"results\": []}]}",
         "holds no results"},
        /* clmem 0.1.0's form, before run files had a schema_version. */
        {"old.json",
         "{\"clmem_version\": \"0.1.0\", \"device\": {\"name\": \"d\"}, \"results\": []}",
         "no 'schema_version' (written by a clmem before run files had one)"},
    };
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(cases); i++) {
        const char *path = test_write_file(test_in_dir(cases[i].name), cases[i].text);
        const char *out = test_in_dir("never");
        struct outcome o;
        /* The good file first: a bad one after it still stops everything. */
        run_clmem(&o, NULL,
                  ARGS("compare", test_bench_file("h100.json"), path, "--devices", "cpu",
                       "--output-dir", out));
        assert_int_equal(o.code, 2);
        if (!strstr(o.err, path) || !strstr(o.err, cases[i].reason))
            fail_msg("%s: expected '%s' in: %s", cases[i].name, cases[i].reason, o.err);
        assert_int_equal(count_lines(o.err), 1);
        assert_false(exists(out));
    }
    struct outcome o;
    run_clmem(&o, NULL, ARGS("compare", test_dir(), "--output-dir", test_in_dir("never")));
    assert_int_equal(o.code, 2);
    assert_non_null(strstr(o.err, "Is a directory"));
    assert_false(exists(test_in_dir("never")));
    run_clmem(&o, NULL, ARGS("compare", test_bench_file("h100.json"), "--sizes", "huge"));
    assert_int_equal(o.code, 2);
    assert_non_null(strstr(o.err, "unknown --sizes 'huge'"));
}

/* An input that is one of the files the report writes into its directory
 * (given there, through a hard link): refused before any work, the file
 * as it was. */
static void an_input_in_the_report_dir_is_refused(void **state)
{
    (void)state;
    const char *out = test_in_dir("own-input");
    struct outcome o;
    run_clmem(&o, NULL, ARGS("compare", test_bench_file("h100.json"), "--output-dir", out));
    assert_int_equal(o.code, 0);
    char input[1300], link_path[1300];
    snprintf(input, sizeof input, "%s/device-0.json", out);
    char *before = test_read_file(input);
    assert_non_null(before);
    snprintf(link_path, sizeof link_path, "%s", test_in_dir("hard-link.json"));
    unlink(link_path);
    assert_int_equal(link(input, link_path), 0);
    const char *const inputs[] = {input, link_path};
    for (size_t i = 0; i < 2; i++) {
        run_clmem_within(
            &o, NULL,
            ARGS("compare", test_bench_file("pocl-2core.json"), inputs[i], "--output-dir", out),
            REFUSAL_LIMIT_S);
        assert_int_equal(o.code, 2);
        assert_int_equal(count_lines(o.err), 1);
        if (!strstr(o.err, "which the report replaces"))
            fail_msg("%s: %s", inputs[i], o.err);
        char *after = test_read_file(input);
        assert_string_equal(after, before);
        free(after);
    }
    free(before);
}

/* The names in `dir`, sorted, one a line, into buf. */
static void names_of(const char *dir, char *buf, size_t size)
{
    struct dirent **list;
    int n = scandir(dir, &list, NULL, alphasort);
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (list[i]->d_name[0] != '.')
            snprintf(buf + strlen(buf), size - strlen(buf), "%s\n", list[i]->d_name);
        free(list[i]);
    }
    if (n >= 0)
        free(list);
}

/* Whether anything named PREFIX.tmp.* lies in `dir`. */
static int temporaries_beside(const char *dir, const char *prefix)
{
    char names[65536], pattern[300];
    names_of(dir, names, sizeof names);
    snprintf(pattern, sizeof pattern, "%s.tmp.", prefix);
    return strstr(names, pattern) != NULL;
}

/* A report replaces the one before it whole: the old report's files that
 * the new one does not write go (a 4-entry report's device-3.json under a
 * 1-entry one), the user's own files and directories stay. */
static void a_new_report_replaces_the_old_one_whole(void **state)
{
    (void)state;
    const char *out = test_in_dir("whole");
    char path[1300];
    struct outcome o;
    run_clmem(&o, NULL,
              ARGS("compare", test_bench_file("h100.json"), test_bench_file("pocl-2core.json"),
                   test_bench_file("h100-scale/mpi-bench.json"), "--output-dir", out));
    assert_int_equal(o.code, 0);
    snprintf(path, sizeof path, "%s/device-3.json", out);
    assert_true(exists(path));
    snprintf(path, sizeof path, "%s/notes.txt", out);
    test_write_file(path, "mine\n");
    snprintf(path, sizeof path, "%s/mine", out);
    assert_int_equal(mkdir(path, 0700), 0);
    run_clmem(&o, NULL, ARGS("compare", test_bench_file("pocl-2core.json"), "--output-dir", out));
    assert_int_equal(o.code, 0);
    snprintf(path, sizeof path, "%s/device-3.json", out);
    assert_false(exists(path));
    snprintf(path, sizeof path, "%s/device-1.json", out);
    assert_false(exists(path));
    snprintf(path, sizeof path, "%s/notes.txt", out);
    char *notes = test_read_file(path);
    assert_non_null(notes);
    assert_string_equal(notes, "mine\n");
    free(notes);
    snprintf(path, sizeof path, "%s/mine", out);
    assert_true(exists(path));
    assert_false(temporaries_beside(test_dir(), "whole"));
}

/* A file that cannot be written (here: beyond the file-size limit, which
 * holds for root too) fails the report: the directory stays exactly as it
 * was, and no temporary directory is left. */
static void a_failed_report_leaves_the_dir_as_it_was(void **state)
{
    (void)state;
    const char *out = test_in_dir("kept");
    struct outcome o;
    run_clmem(&o, NULL, ARGS("compare", test_bench_file("h100.json"), "--output-dir", out));
    assert_int_equal(o.code, 0);
    char before[65536], after[65536], path[1300];
    names_of(out, before, sizeof before);
    snprintf(path, sizeof path, "%s/report.md", out);
    char *md = test_read_file(path);
    /* A larger report (two entries) past a limit that the files of the
     * first fit in, with SIGXFSZ ignored so that the write fails. */
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit limit = {200000, 200000};
        signal(SIGXFSZ, SIG_IGN);
        setrlimit(RLIMIT_FSIZE, &limit);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execl(getenv("CLMEM_BIN"), "clmem", "compare", test_bench_file("h100.json"),
              test_bench_file("h100-scale/mpi-bench.json"), "--output-dir", out, (char *)NULL);
        _exit(127);
    }
    int rc;
    assert_int_equal(waitpid(pid, &rc, 0), pid);
    assert_true(WIFEXITED(rc));
    assert_int_equal(WEXITSTATUS(rc), 2);
    names_of(out, after, sizeof after);
    assert_string_equal(after, before);
    char *md_after = test_read_file(path);
    assert_string_equal(md_after, md);
    free(md);
    free(md_after);
    assert_false(temporaries_beside(test_dir(), "kept"));
}

/* A fake gnuplot that says its pid in $FAKE_GNUPLOT_MARK, then waits for
 * ever: a picture being drawn when a signal comes. */
static const char *fake_gnuplot(void)
{
    static char dir[1300];
    char path[1400];
    snprintf(dir, sizeof dir, "%s", test_in_dir("fake-bin"));
    mkdir(dir, 0700);
    snprintf(path, sizeof path, "%s/gnuplot", dir);
    test_write_file(path, "#!/bin/sh\necho $$ > \"$FAKE_GNUPLOT_MARK.tmp\"\n"
                          "mv \"$FAKE_GNUPLOT_MARK.tmp\" \"$FAKE_GNUPLOT_MARK\"\nexec sleep 600\n");
    chmod(path, 0755);
    return dir;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* compare of files, no device: each stop signal sent while gnuplot draws
 * (on its first line of work) stops it at once: 128 + N, gnuplot killed,
 * no report directory and no DIR.tmp.XXXXXX left. */
static void signals_stop_a_report_of_files_at_once(void **state)
{
    (void)state;
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
    char path_env[4096], mark[1300];
    snprintf(path_env, sizeof path_env, "%s:%s", fake_gnuplot(), getenv("PATH"));
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(sigs); i++) {
        char name[32];
        snprintf(name, sizeof name, "stopped-%zu", i);
        const char *out = test_in_dir(name);
        snprintf(mark, sizeof mark, "%s", test_in_dir("gnuplot-pid"));
        unlink(mark);
        struct child c;
        start_clmem(&c, ARGS("PATH", path_env, "FAKE_GNUPLOT_MARK", mark),
                    ARGS("compare", test_bench_file("h100.json"), "--output-dir", out));
        char *pid_text = NULL;
        for (double t0 = now_s(); !(pid_text = test_read_file(mark)) && now_s() - t0 < 120;)
            usleep(20000);
        if (!pid_text) {
            kill(c.pid, SIGKILL);
            fail_msg("signal %d: gnuplot never started", sigs[i]);
        }
        pid_t gnuplot = (pid_t)atoi(pid_text);
        free(pid_text);
        kill(c.pid, sigs[i]);
        /* At once: well before the fake gnuplot's 600 s. */
        int rc = 0;
        pid_t got = 0;
        for (double t0 = now_s(); (got = waitpid(c.pid, &rc, WNOHANG)) == 0 && now_s() - t0 < 60;)
            usleep(20000);
        if (got == 0) {
            kill(c.pid, SIGKILL);
            kill(gnuplot, SIGKILL);
            finish_clmem(&c, &(struct outcome){0});
            fail_msg("signal %d: compare still running 60 s later", sigs[i]);
        }
        int code = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + WTERMSIG(rc);
        int alive = kill(gnuplot, 0) == 0;
        if (alive)
            kill(gnuplot, SIGKILL);
        if (code != 128 + sigs[i])
            fail_msg("signal %d: exit %d", sigs[i], code);
        if (alive)
            fail_msg("signal %d: gnuplot (pid %d) still running", sigs[i], (int)gnuplot);
        assert_false(exists(out));
        if (temporaries_beside(test_dir(), name))
            fail_msg("signal %d: '%s.tmp.XXXXXX' left", sigs[i], name);
        unlink(c.out_path);
        unlink(c.err_path);
    }
}

/* compare FILE --workloads: checked as bench checks it, and applied. */
static void workloads_are_checked_and_applied(void **state)
{
    (void)state;
    static const char *const bad[] = {"", "abc", "x,y,", "dot,"};
    struct outcome o;
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(bad); i++) {
        run_clmem_within(&o, NULL,
                         ARGS("compare", test_bench_file("h100.json"), "--workloads", bad[i],
                              "--output-dir", test_in_dir("never")),
                         REFUSAL_LIMIT_S);
        if (o.code != 2 || count_lines(o.err) != 1)
            fail_msg("--workloads '%s': exit %d, %s", bad[i], o.code, o.err);
        assert_false(exists(test_in_dir("never")));
    }
    const char *out = test_in_dir("only-dot");
    char *md = compared(
        NULL,
        ARGS("compare", test_bench_file("h100.json"), "--workloads", "dot", "--output-dir", out),
        out, 1, "report.md");
    assert_non_null(strstr(md, "## dot"));
    assert_null(strstr(md, "## reduce"));
    assert_null(strstr(md, "## matmul"));
    free(md);
    /* An abbreviation is no option: --output is not --output-dir. */
    run_clmem_within(&o, NULL,
                     ARGS("compare", test_bench_file("h100.json"), "--output", test_in_dir("x")),
                     REFUSAL_LIMIT_S);
    assert_int_equal(o.code, 2);
    assert_non_null(strstr(o.err, "unknown option '--output'"));
    assert_false(exists(test_in_dir("x")));
}

/* Peaks near the largest double: plots.gp's ranges stay finite, gnuplot
 * draws; a gnuplot that fails is said in a warning line. */
static void huge_figures_still_plot_and_failures_are_said(void **state)
{
    (void)state;
    char *json = test_read_file(test_bench_file("h100.json"));
    assert_non_null(json);
    const char *peak = strstr(json, "\"peak\"");
    assert_non_null(peak);
    const char *end = strchr(peak, '}');
    char *huge = malloc(strlen(json) + 200);
    snprintf(huge, strlen(json) + 200,
             "%.*s\"peak\": {\"bandwidth_gbs\": 1e308, "
             "\"fp32_gflops\": 1e308%s",
             (int)(peak - json), json, end);
    const char *file = test_write_file(test_in_dir("huge.json"), huge);
    free(huge);
    free(json);
    const char *out = test_in_dir("huge");
    char *gp = compared(NULL, ARGS("compare", file, "--output-dir", out), out, 1, "plots.gp");
    assert_null(strstr(gp, "inf"));
    assert_null(strstr(gp, "nan"));
    free(gp);
    /* A gnuplot that fails: a warning, exit 0, the tables kept. */
    char dir[1300], path[1400], path_env[4096];
    snprintf(dir, sizeof dir, "%s", test_in_dir("failing-bin"));
    mkdir(dir, 0700);
    snprintf(path, sizeof path, "%s/gnuplot", dir);
    test_write_file(path, "#!/bin/sh\necho 'plots.gp line 1: no' >&2\nexit 1\n");
    chmod(path, 0755);
    snprintf(path_env, sizeof path_env, "%s:%s", dir, getenv("PATH"));
    struct outcome o;
    run_clmem(&o, ARGS("PATH", path_env),
              ARGS("compare", file, "--output-dir", test_in_dir("failed-plots")));
    assert_int_equal(o.code, 0);
    assert_non_null(strstr(o.err, "clmem: warning: gnuplot failed"));
}

/* A live compare stopped by Ctrl-C after some results: exit 130, and the
 * report says the run was interrupted (JSON and report.md). */
static void an_interrupted_live_compare_says_so(void **state)
{
    (void)state;
    const char *out = test_in_dir("interrupted");
    struct child c;
    struct outcome o;
    start_clmem(&c, ARGS("CLMEM_DEBUG", "2"),
                ARGS("compare", "--devices", "cpu", "--workloads", "pi", "--reps", "1",
                     "--output-dir", out));
    int seen = wait_for_stderr(&c, "clmem: launch ", 280);
    kill(c.pid, SIGINT);
    finish_clmem(&c, &o);
    if (!seen)
        fail_msg("no launch seen: exit %d, %.300s", o.code, o.err);
    assert_int_equal(o.code, 130);
    char path[1300];
    snprintf(path, sizeof path, "%s/device-0.json", out);
    char *json = test_read_file(path);
    assert_non_null(json);
    assert_non_null(strstr(json, "\"interrupted\""));
    free(json);
    snprintf(path, sizeof path, "%s/report.md", out);
    char *md = test_read_file(path);
    assert_non_null(md);
    assert_non_null(strstr(md, "Interrupted"));
    free(md);
}

/* bench at another type's sizes: matmul has 4 GPU sizes and 2 CPU sizes,
 * so the plan's steps (the peaks, then one per size) tell which were taken. */
static void bench_takes_the_sizes_it_is_given(void **state)
{
    struct clmem_ctx *ctx = *state;
    struct clmem_error err = {0};
    size_t own = 0, gpu = 0, cpu = 0;
    struct clmem_bench_options options = {.reps = 1, .only = "matmul"};
    assert_int_equal(clmem_bench_plan(ctx, &options, &own, &err), CLMEM_OK);
    options.sizes = CL_DEVICE_TYPE_GPU;
    assert_int_equal(clmem_bench_plan(ctx, &options, &gpu, &err), CLMEM_OK);
    options.sizes = CL_DEVICE_TYPE_CPU;
    assert_int_equal(clmem_bench_plan(ctx, &options, &cpu, &err), CLMEM_OK);
    assert_int_equal(own, cpu); /* PoCL is a CPU */
    assert_int_equal(gpu, cpu + 2);
}

/* ---- the summary, the baseline, units and performance portability ---- */

/* A result of a made-up run file: status ok, FAILED or skipped; timer ""
 * for none; fraction NAN for none. */
struct made {
    const char *workload, *variant, *size;
    double metric;
    const char *unit, *status, *timer;
    double fraction;
};

/* A made-up result with the traffic model's "bound" (its JSON object). */
struct made_bound {
    struct made made;
    const char *bound;
};

/* A run file's opening of one GPU named `device` (its peaks where `bw` >
 * 0), up to its results. */
static FILE *made_head(const char *path, const char *device, double bw, double flops)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "{\"schema_version\": 1, \"clmem_version\": \"0.3.0\", \"created\": "
            "\"2026-11-27T10:00:00Z\", \"host\": {\"name\": \"\", \"os\": \"\", \"kernel\": \"\", "
            "\"cpu\": \"\", \"cores\": 1, \"memory_bytes\": 0}, \"device\": {\"name\": \"%s\", "
            "\"platform\": \"p\", \"vendor\": \"v\", \"type\": \"gpu\", \"version\": \"OpenCL "
            "3.0\", \"driver\": \"1\", \"compute_units\": 1, \"clock_mhz\": 1, "
            "\"global_mem_bytes\": 1, \"local_mem_bytes\": 1, \"max_work_group\": 1, "
            "\"opencl_c_version\": \"OpenCL C 1.2\", \"max_alloc_bytes\": 1, "
            "\"base_addr_align_bits\": 8, \"fp64\": false}, ",
            device);
    if (bw > 0)
        fprintf(f, "\"peak\": {\"bandwidth_gbs\": %g, \"fp32_gflops\": %g}, ", bw, flops);
    fprintf(f, "\"results\": [\n");
    return f;
}

/* Result r (the i-th) of a run file, with its "bound" where not NULL. */
static void made_result(FILE *f, const struct made *r, size_t i, const char *bound)
{
    fprintf(f,
            "%s{\"workload\": \"%s\", \"variant\": \"%s\", \"size\": \"%s\", \"device\": \"\", "
            "\"params\": \"\", \"status\": \"%s\", \"reps\": 1, \"warmup\": 0, \"seed\": 42",
            i ? ",\n" : "", r->workload, r->variant, r->size, r->status);
    if (strcmp(r->status, "skipped") == 0) {
        fprintf(f, ", \"skip_reason\": \"too big\"}");
        return;
    }
    fprintf(f,
            ", \"samples_ms\": [1], \"median_ms\": 1, \"min_ms\": 1, \"max_ms\": 1, "
            "\"metric\": %.17g, \"unit\": \"%s\", \"max_rel_error\": 0, \"verified\": %s, "
            "\"verify_scope\": \"\"",
            r->metric, r->unit, strcmp(r->status, "ok") == 0 ? "true" : "false");
    if (r->timer[0])
        fprintf(f, ", \"timer\": \"%s\", \"runs_per_sample\": 1", r->timer);
    if (!isnan(r->fraction))
        fprintf(f, ", \"peak_fraction\": %.17g", r->fraction);
    if (bound)
        fprintf(f, ", \"bound\": %s", bound);
    fputc('}', f);
}

static void made_tail(FILE *f)
{
    fprintf(f, "\n]}\n");
    assert_int_equal(fclose(f), 0);
}

/* A run file of one GPU named `device` (its peaks where `bw` > 0)
 * holding these results; its path. */
static const char *made_file(const char *name, const char *device, double bw, double flops,
                             const struct made *r, size_t n)
{
    const char *path = test_in_dir(name);
    FILE *f = made_head(path, device, bw, flops);
    for (size_t i = 0; i < n; i++)
        made_result(f, &r[i], i, NULL);
    made_tail(f);
    return path;
}

/* The same with results that carry a bound (or NULL), without peaks. */
static const char *bound_file(const char *name, const char *device, const struct made_bound *r,
                              size_t n)
{
    const char *path = test_in_dir(name);
    FILE *f = made_head(path, device, 0, 0);
    for (size_t i = 0; i < n; i++)
        made_result(f, &r[i].made, i, r[i].bound);
    made_tail(f);
    return path;
}

/* The two devices of the summary's test: A the baseline, B faster at w
 * (3x and 1x at the same sizes: 1.73x), at x only at another size (its
 * best over A's: 0.50x*), with a failure, a skip and two clocks. */
static const char *summary_files(const char **b_path)
{
    // clang-format off
    static const struct made a[] = {
        {"w", "v1", "64", 10, "GB/s", "ok", "events", NAN},
        {"w", "v2", "64", 20, "GB/s", "ok", "events", NAN},
        {"x", "big", "1024", 100, "GB/s", "ok", "events", 0.0016},
        {"peak", "copy", "16777216", 500, "GB/s", "ok", "events", 1},
        {"peak", "launch", "16777216", 0.0002, "Glaunch/s", "ok", "host", NAN},
    };
    static const struct made b[] = {
        {"w", "v1", "64", 30, "GB/s", "ok", "events", NAN},
        {"w", "v2", "64", 20, "GB/s", "ok", "host", NAN},
        {"w", "v3", "64", 5, "GB/s", "FAILED", "events", NAN},
        {"w", "v4", "64", 0, "GB/s", "skipped", "", NAN},
        {"x", "big", "512", 50, "GB/s", "ok", "events", 0.2},
    };
    // clang-format on
    *b_path = made_file("b.json", "dev B", 0, 0, b, CLMEM_ARRAY_SIZE(b));
    return made_file("a.json", "dev A", 0, 0, a, CLMEM_ARRAY_SIZE(a));
}

/* The first section answers who is faster at what, by how much and with
 * how many failures: ratios at the same variant and size (never a best at
 * one size over a best at another, unless no size is shared, and then
 * marked), failures counted and named, the clock that timed each device. */
static void the_summary_leads(void **state)
{
    (void)state;
    const char *b, *a = summary_files(&b), *out = test_in_dir("summary");
    char *md = compared(ARGS("OCL_ICD_VENDORS", empty_vendors),
                        ARGS("compare", a, b, "--output-dir", out), out, 2, "report.md");
    /* The summary before the devices, after the contents. */
    const char *contents = strstr(md, "Contents: [Summary](#summary)");
    const char *summary = strstr(md, "## Summary"), *devices = strstr(md, "## Devices");
    assert_non_null(contents);
    assert_true(contents < summary && summary && summary < devices);
    assert_non_null(strstr(summary, "2 devices. Baseline: dev A (its column"));
    assert_non_null(strstr(summary, "| device | dev A (baseline) | dev B |"));
    assert_non_null(strstr(summary, "| results | 5 ok | 3 ok, 1 FAILED, 1 skipped |"));
    assert_non_null(strstr(summary, "| timed by | events 4, host 1 | events 3, host 1 |"));
    assert_non_null(strstr(summary, "| w | 20.0 GB/s | 1.73x |"));
    assert_non_null(strstr(summary, "| x | 100 GB/s | 0.50x* |"));
    /* Like with like: x shares no size, so it is shown (marked) but left out. */
    assert_non_null(strstr(summary, "| all workloads at the same sizes (how many) | 1x (baseline) | 1.73x (1) |"));
    assert_non_null(strstr(summary, "FAILED on dev B: w v3 @64."));
    /* Every row the baseline shares, as ratios. */
    char *ratios = strstr(md, "## Ratios to the baseline");
    assert_non_null(ratios);
    assert_non_null(strstr(ratios, "| w: v1 @ 64 | 10.0 GB/s | 3.00x |"));
    assert_non_null(strstr(ratios, "| w: v2 @ 64 | 20.0 GB/s | 1.00x |"));
    /* Units: a launch as its time, no fraction of peak as 0.00. */
    assert_non_null(strstr(md, "| peak (launch, \u00b5s) | 5.00 \u00b5s launch @16 Mi |"));
    assert_null(strstr(md, "launch/s"));
    assert_non_null(strstr(md, "(0.0016 of peak)"));
    assert_null(strstr(md, "0.00 of peak"));
    free(md);
    /* The page colours what the figures say. */
    char path[1300];
    snprintf(path, sizeof path, "%s/report.html", out);
    char *html = test_read_file(path);
    assert_non_null(html);
    assert_non_null(
        strstr(html, "<td class=\"failed\" data-v=\"1\">3 ok, 1 FAILED, 1 skipped</td>"));
    assert_non_null(strstr(html, "<td class=\"better\" data-v=\"3.0000000000000004\">3.00x</td>"));
    assert_non_null(strstr(html, "<td class=\"worse\" data-v=\"0.5\">0.50x*</td>"));
    assert_non_null(strstr(html, "<h2 id=\"summary\">Summary</h2>"));
    assert_non_null(strstr(html, "<a href=\"#summary\">Summary</a>"));
    /* A picture scrolls in its box rather than shrink its labels below
     * 10 px (13-point text on at most 900 px: 44em). */
    assert_non_null(strstr(html, "svg{max-width:100%;min-width:44em;"));
    free(html);
    /* glance's bars rise or fall from 1x, on an axis fitted to the ratios
     * (0.50x to 1.73x), not from the axis's end of a decade. */
    snprintf(path, sizeof path, "%s/plots.gp", out);
    char *gp = test_read_file(path);
    if (gp) { /* gnuplot's script is written with or without gnuplot */
        char *glance = strstr(gp, "set output 'glance.svg'");
        assert_non_null(glance);
        assert_non_null(strstr(glance, "set yrange [0.4:2.16"));
        assert_non_null(strstr(glance, "with boxxyerror"));
        free(gp);
    }
}

/* --baseline names a file or a device; the baseline comes first
 * (device-0.json); a name that matches nothing is refused before anything
 * is written. */
static void the_baseline_is_chosen(void **state)
{
    (void)state;
    const char *b, *a = summary_files(&b), *out = test_in_dir("baseline");
    static const char *const specs[] = {"b.json", "dev B", "DEV b"};
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(specs); i++) {
        char *json = compared(ARGS("OCL_ICD_VENDORS", empty_vendors),
                              ARGS("compare", a, b, "--baseline", specs[i], "--output-dir", out),
                              out, 2, "device-0.json");
        assert_non_null(strstr(json, "\"dev B\""));
        free(json);
        char path[1300];
        snprintf(path, sizeof path, "%s/report.md", out);
        char *md = test_read_file(path);
        assert_non_null(md);
        assert_non_null(strstr(md, "Baseline: dev B (its column"));
        /* A's figures over B's now: 1/3 and 1. */
        assert_non_null(strstr(md, "| w: v1 @ 64 | 30.0 GB/s | 0.33x |"));
        free(md);
    }
    struct outcome o;
    const char *never = test_in_dir("never-baseline");
    run_clmem(&o, ARGS("OCL_ICD_VENDORS", empty_vendors),
              ARGS("compare", a, b, "--baseline", "cpu", "--output-dir", never));
    assert_int_equal(o.code, 2);
    assert_non_null(strstr(o.err, "--baseline 'cpu' names no run file or device"));
    assert_int_equal(count_lines(o.err), 1);
    assert_false(exists(never));
}

/* clmem hierarchy's probes are not workloads: no summary row, no best
 * across them at a glance, no "all workloads" share, no PP. */
static void probes_are_not_ranked(void **state)
{
    (void)state;
    // clang-format off
    static const struct made a[] = {
        {"w", "v1", "64", 10, "GB/s", "ok", "events", NAN},
        {"hierarchy", "read_ws", "4096", 40, "GB/s", "ok", "events", NAN},
        {"hierarchy", "map", "4096", 7000, "GB/s", "ok", "events", NAN},
    };
    static const struct made b[] = {
        {"w", "v1", "64", 20, "GB/s", "ok", "events", NAN},
        {"hierarchy", "read_ws", "4096", 80, "GB/s", "ok", "events", NAN},
    };
    // clang-format on
    const char *pb = made_file("probes-b.json", "dev B", 0, 0, b, CLMEM_ARRAY_SIZE(b));
    const char *pa = made_file("probes-a.json", "dev A", 0, 0, a, CLMEM_ARRAY_SIZE(a));
    const char *out = test_in_dir("probes");
    char *md = compared(ARGS("OCL_ICD_VENDORS", empty_vendors),
                        ARGS("compare", pa, pb, "--output-dir", out), out, 2, "report.md");
    char *summary = strstr(md, "## Summary"), *glance = strstr(md, "## At a glance");
    assert_non_null(summary);
    assert_non_null(glance);
    char *after_glance = strstr(glance + 1, "\n## ");
    assert_non_null(after_glance);
    /* Only w's ratio: 2x, the probes' 2x and 7 TB/s nowhere in it. */
    assert_non_null(strstr(summary, "| all workloads at the same sizes (how many) | 1x (baseline) | 2.00x (1) |"));
    assert_non_null(strstr(summary, "clmem hierarchy's probes are not workloads"));
    *glance = '\0';
    assert_null(strstr(summary, "| hierarchy"));
    *glance = '#';
    *after_glance = '\0';
    assert_null(strstr(glance, "| hierarchy"));
    assert_null(strstr(glance, "7.00 TB/s"));
    *after_glance = '\n';
    char *pp = strstr(md, "## Performance portability");
    assert_non_null(pp);
    char *after_pp = strstr(pp + 1, "\n## ");
    if (after_pp)
        *after_pp = '\0';
    assert_null(strstr(pp, "hierarchy"));
    free(md);
    char path[1300];
    snprintf(path, sizeof path, "%s/hierarchy-pp.svg", out);
    assert_false(exists(path));
}

/* Each column says the build (version, git describe) and driver that
 * made it; two entries of one device from different builds are marked
 * and said to mix them. */
static void builds_are_said(void **state)
{
    (void)state;
    static const struct made r[] = {{"w", "v1", "64", 10, "GB/s", "ok", "events", NAN}};
    const char *s1 = made_file("build-1.json", "dev S", 0, 0, r, 1);
    const char *s2 = made_file("build-2.json", "dev S", 0, 0, r, 1);
    const char *t = made_file("build-3.json", "dev T", 0, 0, r, 1);
    char *text = test_read_file(s1), *at = strstr(text, "\"created\"");
    assert_non_null(at);
    char *edited = malloc(strlen(text) + 64);
    assert_non_null(edited);
    sprintf(edited, "%.*s\"clmem_git\": \"abc1234-dirty\", %s", (int)(at - text), text, at);
    test_write_file(s1, edited);
    free(edited);
    free(text);
    const char *out = test_in_dir("builds");
    char *md = compared(ARGS("OCL_ICD_VENDORS", empty_vendors),
                        ARGS("compare", s1, s2, t, "--output-dir", out), out, 3, "report.md");
    assert_non_null(strstr(md, "| build, driver | 0.3.0 abc1234-dirty, 1 \u2260 | 0.3.0, build not "
                               "recorded, 1 \u2260 | 0.3.0, build not recorded, 1 |"));
    assert_non_null(strstr(md, "\u2260 Another entry of the same device came from another build"));
    assert_non_null(strstr(md, "| platform | driver | build | host |"));
    /* Files that hold no lesson: one line, not a grid of "not run". */
    assert_non_null(strstr(md, "No lesson in the results of dev S"));
    assert_null(strstr(md, "| lesson | source |"));
    free(md);
    md = compared(ARGS("OCL_ICD_VENDORS", empty_vendors),
                  ARGS("compare", s2, t, "--output-dir", out), out, 2, "report.md");
    assert_null(strstr(md, "\u2260"));
    free(md);
}

/* A result whose samples spread past 1.5x (max/min) is counted on the
 * first screen, and a lesson drawn from it says it may not hold. */
static void noise_is_said(void **state)
{
    (void)state;
    static const struct made r[] = {
        {"transpose", "naive", "1024", 10, "GB/s", "ok", "events", NAN},
        {"transpose", "coalesced", "1024", 30, "GB/s", "ok", "events", NAN},
    };
    const char *calm = made_file("calm.json", "dev C", 0, 0, r, 2);
    const char *noisy = made_file("noisy.json", "dev N", 0, 0, r, 2);
    char *text = test_read_file(noisy), *at = strstr(text, "\"max_ms\": 1,");
    assert_non_null(at);
    at[10] = '7'; /* naive's slowest sample 7x its fastest */
    test_write_file(noisy, text);
    free(text);
    const char *out = test_in_dir("noise");
    char *md = compared(ARGS("OCL_ICD_VENDORS", empty_vendors),
                        ARGS("compare", calm, noisy, "--output-dir", out), out, 2, "report.md");
    assert_non_null(strstr(md, "| noisy (max/min past 1.5x) | none of 2 | 1 of 2 |"));
    char *lessons = strstr(md, "## Lessons");
    assert_non_null(lessons);
    char *row = strstr(lessons, "| coalesced writes beat strided ones");
    assert_non_null(row);
    *strchr(row, '\n') = '\0';
    assert_non_null(strstr(row, "| \u2713 3.00x @1024 | \u2713 3.00x @1024 (noisy: may not hold) |"));
    free(md);
}

/* --baseline takes a path first, as given (relative or absolute: one
 * file however named), before a file name that another directory's file
 * shares; a name several entries match is refused with them listed. */
static void the_baseline_path_comes_first(void **state)
{
    (void)state;
    const char *b, *a = summary_files(&b);
    char dir[1200], here[1200], copy[1300];
    snprintf(dir, sizeof dir, "%s", a);
    *strrchr(dir, '/') = '\0';
    snprintf(copy, sizeof copy, "%s/sub", dir);
    mkdir(copy, 0700);
    /* sub/a.json holds dev B's run: a name shared with ./a.json (dev A). */
    snprintf(copy, sizeof copy, "%s/sub/a.json", dir);
    char *text = test_read_file(b);
    assert_non_null(text);
    test_write_file(copy, text);
    free(text);
    assert_non_null(getcwd(here, sizeof here));
    assert_int_equal(chdir(dir), 0);
    static const struct {
        const char *spec, *baseline;
    } cases[] = {{"a.json", "dev A"}, {"./a.json", "dev A"}, {"sub/a.json", "dev B"},
                 {"./b.json", "dev B"}};
    const char *out = test_in_dir("baseline-path");
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(cases); i++) {
        char *md = compared(ARGS("OCL_ICD_VENDORS", empty_vendors),
                            ARGS("compare", "sub/a.json", "a.json", "b.json", "--baseline",
                                 cases[i].spec, "--output-dir", out),
                            out, 3, "report.md");
        char said[64];
        snprintf(said, sizeof said, "Baseline: %s (", cases[i].baseline);
        if (!strstr(md, said))
            fail_msg("--baseline '%s': expected %s", cases[i].spec, cases[i].baseline);
        free(md);
    }
    char *md = compared(ARGS("OCL_ICD_VENDORS", empty_vendors),
                        ARGS("compare", "sub/a.json", "a.json", "--baseline", a, "--output-dir",
                             out),
                        out, 2, "report.md");
    assert_non_null(strstr(md, "Baseline: dev A ("));
    free(md);
    struct outcome o;
    const char *never = test_in_dir("never-ambiguous");
    run_clmem(&o, ARGS("OCL_ICD_VENDORS", empty_vendors),
              ARGS("compare", "sub/a.json", "a.json", "b.json", "--baseline", "dev",
                   "--output-dir", never));
    assert_int_equal(chdir(here), 0);
    assert_int_equal(o.code, 2);
    assert_non_null(strstr(o.err, "--baseline 'dev' is ambiguous: it names 3 entries"));
    assert_non_null(strstr(o.err, "'sub/a.json'"));
    assert_int_equal(count_lines(o.err), 1);
    assert_false(exists(never));
}

/* Performance portability: each variant's architectural efficiency (its
 * result over the device's own roof), application efficiency (over the
 * workload's best on that device at that size) and PP, their harmonic
 * mean over the devices, 0 where one did not run it. */
static void performance_portability(void **state)
{
    (void)state;
    static const struct made p1[] = {
        {"pp", "a", "64", 50, "GB/s", "ok", "events", NAN},
        {"pp", "b", "64", 100, "GB/s", "ok", "events", NAN},
    };
    static const struct made p2[] = {
        {"pp", "a", "64", 100, "GB/s", "ok", "events", NAN},
        {"pp", "b", "64", 50, "GB/s", "ok", "events", NAN},
    };
    static const struct made p3[] = {{"pp", "a", "64", 25, "GB/s", "ok", "events", NAN}};
    const char *f1 = made_file("p1.json", "dev 1", 100, 1000, p1, 2);
    const char *f2 = made_file("p2.json", "dev 2", 200, 2000, p2, 2);
    const char *out = test_in_dir("pp");
    char *md = compared(ARGS("OCL_ICD_VENDORS", empty_vendors),
                        ARGS("compare", f1, f2, "--output-dir", out), out, 2, "report.md");
    char *pp = strstr(md, "## Performance portability");
    assert_non_null(pp);
    /* a: arch 0.5 and 0.5; app 0.5 and 1: PP 2 / (2 + 1). */
    assert_non_null(strstr(pp, "| pp: a | 0.50 | 0.67 | 2 of 2 | 0.50 / 0.50 | 0.50 / 1.00 |"));
    /* b: arch 1 and 0.25: PP 2 / (1 + 4). */
    assert_non_null(strstr(pp, "| pp: b | 0.40 | 0.67 | 2 of 2 | 1.00 / 1.00 | 0.25 / 0.50 |"));
    assert_non_null(strstr(pp, "| pp (GB/s): best on each | 0.67 | 1.00 | 2 of 2 |"));
    assert_null(strstr(pp, "0 of 2"));
    free(md);
    /* A third device that ran a alone: b's PP is 0. */
    const char *f3 = made_file("p3.json", "dev 3", 100, 1000, p3, 1);
    md = compared(ARGS("OCL_ICD_VENDORS", empty_vendors),
                  ARGS("compare", f1, f2, f3, "--output-dir", out), out, 3, "report.md");
    pp = strstr(md, "## Performance portability");
    assert_non_null(pp);
    assert_non_null(strstr(pp, "| pp: a | 0.38 | 0.75 | 3 of 3 |"));
    assert_non_null(strstr(pp, "| pp: b | 0 | 0 | 2 of 3 | 1.00 / 1.00 | 0.25 / 0.50 | "
                               "not run (0) |"));
    free(md);
    if (system("command -v gnuplot >/dev/null 2>&1") == 0) {
        char path[1300];
        snprintf(path, sizeof path, "%s/pp-pp.svg", out);
        assert_true(exists(path));
        snprintf(path, sizeof path, "%s/roofline-all.svg", out);
        assert_true(exists(path));
    }
}

/* `text` in `section` (up to its next heading), else a failure that shows
 * the section. */
static void expect_in(const char *section, const char *text)
{
    const char *end = strstr(section + 1, "\n## ");
    size_t len = end ? (size_t)(end - section) : strlen(section);
    const char *at = strstr(section, text);
    if (!at || at >= section + len)
        fail_msg("'%s' not in:\n%.*s", text, (int)len, section);
}

/* A FAILED or skipped result stands for nothing: in PP it is 0 on its
 * device (never a figure over that device's best: an application
 * efficiency above 1), in the ratios its row says FAILED or skipped on
 * either side, and the workload's ratio and "all workloads" hold only the
 * rows both sides verified. Each failed metric is the largest of its
 * device, so that counting it would show. */
static void failures_and_skips_are_not_compared(void **state)
{
    (void)state;
    // clang-format off
    static const struct made d1[] = {
        {"pp", "a", "64", 50, "GB/s", "ok", "events", NAN},
        {"pp", "b", "64", 200, "GB/s", "FAILED", "events", NAN},
        {"pp", "c", "64", 40, "GB/s", "ok", "events", NAN},
        {"pp", "d", "64", 0, "GB/s", "skipped", "", NAN},
        {"pp", "e", "64", 10, "GB/s", "ok", "events", NAN},
        {"pp", "f", "64", 0, "GB/s", "skipped", "", NAN},
    };
    static const struct made d2[] = {
        {"pp", "a", "64", 100, "GB/s", "ok", "events", NAN},
        {"pp", "b", "64", 50, "GB/s", "ok", "events", NAN},
        {"pp", "c", "64", 400, "GB/s", "FAILED", "events", NAN},
        {"pp", "d", "64", 30, "GB/s", "ok", "events", NAN},
        {"pp", "e", "64", 0, "GB/s", "skipped", "", NAN},
        {"pp", "f", "64", 0, "GB/s", "skipped", "", NAN},
    };
    // clang-format on
    const char *f1 = made_file("f1.json", "dev 1", 100, 1000, d1, CLMEM_ARRAY_SIZE(d1));
    const char *f2 = made_file("f2.json", "dev 2", 200, 2000, d2, CLMEM_ARRAY_SIZE(d2));
    const char *out = test_in_dir("not-compared");
    char *md = compared(ARGS("OCL_ICD_VENDORS", empty_vendors),
                        ARGS("compare", f1, f2, "--output-dir", out), out, 2, "report.md");
    char *pp = strstr(md, "## Performance portability");
    assert_non_null(pp);
    /* a: arch 0.5 on both, app 1 on both (c's and b's failures are
     * nobody's best). */
    expect_in(pp, "| pp: a | 0.50 | 1.00 | 2 of 2 | 0.50 / 1.00 | 0.50 / 1.00 |");
    /* b FAILED on dev 1 (at 4x a's figure there), c on dev 2: 0. */
    expect_in(pp, "| pp: b | 0 | 0 | 1 of 2 | FAILED (0) | 0.25 / 0.50 |");
    expect_in(pp, "| pp: c | 0 | 0 | 1 of 2 | 0.40 / 0.80 | FAILED (0) |");
    expect_in(pp, "| pp: d | 0 | 0 | 1 of 2 | skipped (0) | 0.15 / 0.30 |");
    expect_in(pp, "| pp: e | 0 | 0 | 1 of 2 | 0.10 / 0.20 | skipped (0) |");
    expect_in(pp, "| pp (GB/s): best on each | 0.50 | 1.00 | 2 of 2 |");
    /* No efficiency above 1 anywhere in the section. */
    for (const char *at = strstr(pp, " / "); at; at = strstr(at + 3, " / ")) {
        double app = strtod(at + 3, NULL);
        if (app > 1.0)
            fail_msg("an application efficiency of %g: '%.60s'", app, at - 8);
    }
    /* The ratios: a row that FAILED on either side has no ratio; one
     * skipped on both says so; one skipped on one side alone is not
     * shared (a skip has no unit), so has no row. */
    char *ratios = strstr(md, "## Ratios to the baseline");
    assert_non_null(ratios);
    expect_in(ratios, "| pp: a @ 64 | 50.0 GB/s | 2.00x |");
    expect_in(ratios, "| pp: b @ 64 | FAILED | baseline has none |");
    expect_in(ratios, "| pp: c @ 64 | 40.0 GB/s | FAILED |");
    expect_in(ratios, "| pp: f @ 64 | skipped | skipped |");
    assert_null(strstr(ratios, "| pp: d @"));
    assert_null(strstr(ratios, "| pp: e @"));
    /* The summary: the workload's ratio from a alone; the baseline's best
     * a verified one. */
    char *summary = strstr(md, "## Summary");
    assert_non_null(summary);
    expect_in(summary, "| pp | 50.0 GB/s | 2.00x |");
    expect_in(summary, "| all workloads at the same sizes (how many) | 1x (baseline) | 2.00x (1) |");
    free(md);
}

/* The peaks are the devices' roofs, not workloads: with peaks in both
 * files their ratio has its row, but "all workloads" holds w's alone. */
static void peaks_stay_out_of_all_workloads(void **state)
{
    (void)state;
    // clang-format off
    static const struct made a[] = {
        {"w", "v1", "64", 10, "GB/s", "ok", "events", NAN},
        {"peak", "copy", "16777216", 500, "GB/s", "ok", "events", 1},
    };
    static const struct made b[] = {
        {"w", "v1", "64", 30, "GB/s", "ok", "events", NAN},
        {"peak", "copy", "16777216", 250, "GB/s", "ok", "events", 1},
    };
    // clang-format on
    const char *fa = made_file("pa.json", "dev A", 500, 1000, a, CLMEM_ARRAY_SIZE(a));
    const char *fb = made_file("pb.json", "dev B", 250, 1000, b, CLMEM_ARRAY_SIZE(b));
    const char *out = test_in_dir("peaks-apart");
    char *md = compared(ARGS("OCL_ICD_VENDORS", empty_vendors),
                        ARGS("compare", fa, fb, "--output-dir", out), out, 2, "report.md");
    char *summary = strstr(md, "## Summary");
    assert_non_null(summary);
    expect_in(summary, "| w | 10.0 GB/s | 3.00x |");
    expect_in(summary, "| 500 GB/s | 0.50x |");
    expect_in(summary, "| all workloads at the same sizes (how many) | 1x (baseline) | 3.00x (1) |");
    free(md);
}

/* ---- which level bounds each result ---- */

/* A "bound" object: its levels (JSON members) and the rest. */
#define BOUND(levels, rest) "{\"levels\": {" levels "}, " rest "}"
#define AT(level, what, amount, ms)                                                                \
    "\"" level "\": {\"" what "\": " #amount ", \"predicted_ms\": " #ms "}"

/* How often `what` is in text. */
static size_t count_in(const char *text, const char *what)
{
    size_t n = 0;
    for (const char *at = text; (at = strstr(at, what)); at += strlen(what))
        n++;
    return n;
}

/* The text of md from `from` to the next heading of level 2 or 3. */
static char *part_of(const char *md, const char *from)
{
    const char *at = strstr(md, from);
    if (!at)
        fail_msg("no '%s' in:\n%s", from, md);
    const char *end = strstr(at + strlen(from), "\n#");
    size_t len = end ? (size_t)(end - at) : strlen(at);
    char *out = malloc(len + 1);
    assert_non_null(out);
    memcpy(out, at, len);
    out[len] = '\0';
    return out;
}

/* The data lines (not comments, not blank) of a plot's data file. */
static size_t data_lines(const char *text)
{
    size_t n = 0;
    for (const char *line = text; line && *line;) {
        n += *line != '#' && *line != '\n';
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    return n;
}

/* Two run files whose results carry the traffic model's bound: a table
 * per entry of the binding level, measured / predicted and the model
 * error flag; a hierarchical roofline per entry with a point per result
 * and level it moves data at (transpose has no flops: no point); a
 * result without a bound left out, and said. */
static void the_bounding_level_is_said(void **state)
{
    (void)state;
    // clang-format off
    static const struct made_bound a[] = {
        {{"matmul", "naive", "512", 10, "GFLOP/s", "ok", "events", NAN},
         BOUND(AT("global", "bytes", 8e7, 0.8) ", " AT("compute", "flops", 1e7, 0.05),
               "\"binding\": \"global\", \"ratio\": 0.8, \"model_error\": false")},
        {{"matmul", "tiled", "512", 10, "GFLOP/s", "ok", "events", NAN},
         BOUND(AT("global", "bytes", 1e6, 0.1) ", " AT("local", "bytes", 4e7, 0.5) ", "
               AT("compute", "flops", 1e7, 0.05),
               "\"binding\": \"local\", \"ratio\": 0.5, \"model_error\": false")},
        {{"transpose", "copy", "2048", 9, "GB/s", "ok", "events", NAN},
         BOUND(AT("global", "bytes", 8e6, 0.9), "\"binding\": \"global\", \"ratio\": 0.9, "
               "\"model_error\": false")},
        {{"constmem", "coarsened", "2048", 2, "GFLOP/s", "ok", "events", NAN},
         BOUND(AT("global", "bytes", 1.4e7, 1.72) ", " AT("constant", "bytes", 3e5, 0.02) ", "
               AT("compute", "flops", 2e6, 0.02),
               "\"binding\": \"global\", \"ratio\": 1.72, \"model_error\": true")},
        {{"w", "v1", "64", 10, "GB/s", "ok", "events", NAN}, NULL},
    };
    static const struct made_bound b[] = {
        {{"matmul", "tiled", "512", 190, "GFLOP/s", "ok", "events", NAN},
         BOUND(AT("global", "bytes", 1e6, 0.01) ", " AT("local", "bytes", 4e7, 0.02) ", "
               AT("compute", "flops", 1e7, 0.05),
               "\"binding\": \"compute\", \"ratio\": 0.95, \"model_error\": false")},
    };
    // clang-format on
    const char *fa = bound_file("bound-a.json", "dev A", a, CLMEM_ARRAY_SIZE(a));
    const char *fb = bound_file("bound-b.json", "dev B", b, CLMEM_ARRAY_SIZE(b));
    const char *out = test_in_dir("bounds");
    char *md = compared(ARGS("OCL_ICD_VENDORS", empty_vendors),
                        ARGS("compare", fa, fb, "--output-dir", out), out, 2, "report.md");
    char *head = part_of(md, "## Which level bounds each result");
    char *dev_a = part_of(md, "### dev A"), *dev_b = part_of(md, "### dev B");
    static const char *const rows_a[] = {
        "| matmul | naive | 512 | global | 0.80 |  |",
        "| matmul | tiled | 512 | local | 0.50 |  |",
        "| transpose | copy | 2048 | global | 0.90 |  |",
        "| constmem | coarsened | 2048 | global | 1.72 | model error |",
    };
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(rows_a); i++)
        if (!strstr(dev_a, rows_a[i]))
            fail_msg("'%s' not in:\n%s", rows_a[i], dev_a);
    assert_null(strstr(dev_a, "| w |"));
    if (!strstr(dev_b, "| matmul | tiled | 512 | compute | 0.95 |  |"))
        fail_msg("dev B's row not in:\n%s", dev_b);
    /* The result without a bound, said once, after the tables. */
    char *after = part_of(dev_b, "### dev B");
    if (!strstr(after, "Left out: results without a bound") || !strstr(after, "dev A (1 of 5)"))
        fail_msg("the left-out note not in:\n%s", after);
    assert_int_equal(count_in(md, "Left out: results without a bound"), 1);
    /* A point per result and level: naive 1, tiled 2, coarsened 2 on A;
     * tiled 2 on B; each picture drawn from its file. */
    char path[1300];
    snprintf(path, sizeof path, "%s/hroofline-0.dat", out);
    char *dat = test_read_file(path);
    assert_non_null(dat);
    assert_int_equal(data_lines(dat), 5);
    /* tiled at its local intensity, 1e7 / 4e7 flops a byte, 10 GFLOP/s. */
    assert_non_null(strstr(dat, "\n0.25 10 1 "));
    free(dat);
    snprintf(path, sizeof path, "%s/hroofline-1.dat", out);
    dat = test_read_file(path);
    assert_non_null(dat);
    assert_int_equal(data_lines(dat), 2);
    free(dat);
    snprintf(path, sizeof path, "%s/plots.gp", out);
    char *gp = test_read_file(path);
    assert_non_null(strstr(gp, "set output 'hroofline-0.svg'"));
    assert_non_null(strstr(gp, "'hroofline-1.dat' using 1:($2*1e9)"));
    /* The ceilings at the rates the bounds imply: A's global 8e7 bytes
     * in 0.8 ms, 100 GB/s; its compute 1e7 flops in 0.05 ms, 200 GFLOP/s. */
    assert_non_null(strstr(gp, "title 'global 100 GB/s'"));
    assert_non_null(strstr(gp, "title 'compute 200 GFLOP/s'"));
    free(gp);
    free(after);
    free(head);
    free(dev_a);
    free(dev_b);
    free(md);
}

/* Run files written before the traffic model: the report is made, the
 * section says its results are left out, and no hierarchical roofline. */
static void results_without_a_bound_are_left_out(void **state)
{
    (void)state;
    static const struct made r[] = {{"w", "v1", "64", 10, "GB/s", "ok", "events", NAN}};
    const char *f = made_file("unbound.json", "dev U", 0, 0, r, 1);
    const char *out = test_in_dir("unbound");
    char *md = compared(ARGS("OCL_ICD_VENDORS", empty_vendors),
                        ARGS("compare", f, "--output-dir", out), out, 1, "report.md");
    char *part = part_of(md, "## Which level bounds each result");
    if (!strstr(part, "Left out: results without a bound (run files written before the traffic "
                      "model, runs without --peak, variants it does not model): dev U (1 of 1)."))
        fail_msg("no left-out note in:\n%s", part);
    assert_null(strstr(part, "| workload |"));
    char path[1300];
    snprintf(path, sizeof path, "%s/hroofline-0.dat", out);
    assert_false(exists(path));
    free(part);
    free(md);
}

/* A copy of text with every `from` replaced by `to` (malloc'd). */
static char *replaced(const char *text, const char *from, const char *to)
{
    size_t n = count_in(text, from), lf = strlen(from), lt = strlen(to);
    char *out = malloc(strlen(text) + n * (lt > lf ? lt - lf : 0) + 1), *o = out;
    assert_non_null(out);
    for (const char *at; (at = strstr(text, from)); text = at + lf) {
        memcpy(o, text, (size_t)(at - text));
        o += at - text;
        memcpy(o, to, lt);
        o += lt;
    }
    strcpy(o, text);
    return out;
}

/* The hierarchy's newer names: a step inside a cache the device reports
 * ("unnamed, inside a cache") is no cache and no memory, never the
 * last-level cache; an L2 split in two ("L2 (near)", "L2 (far)") is one
 * L2, both parts said by name. From the PoCL run file, renamed. */
static void levels_by_their_new_names(void **state)
{
    (void)state;
    char *text = test_read_file(test_bench_file("hierarchy/pocl-2core/hierarchy.json"));
    assert_non_null(text);
    char *inside = replaced(text, "\"name\":\t\"device memory\",\n\t\t\t\t\"memory\":\ttrue",
                            "\"name\":\t\"unnamed, inside a cache\",\n\t\t\t\t\"memory\":\tfalse");
    char *t = replaced(inside, "\"L3 (last-level cache)\"", "\"L3\"");
    free(inside);
    inside = replaced(t, "pthread-skylake-avx512-AMD EPYC", "dev inside");
    free(t);
    t = replaced(text, "\"L2\"", "\"L2 (near)\"");
    char *split = replaced(t, "\"L3 (last-level cache)\"", "\"L2 (far)\"");
    free(t);
    t = replaced(split, "pthread-skylake-avx512-AMD EPYC", "dev split");
    free(split);
    split = t;
    assert_int_equal(count_in(inside, "unnamed, inside a cache"), 1);
    assert_int_equal(count_in(split, "L2 (far)"), 1);
    const char *fi = test_write_file(test_in_dir("inside.json"), inside);
    const char *fs = test_write_file(test_in_dir("split.json"), split);
    const char *out = test_in_dir("new-names");
    char *md = compared(ARGS("OCL_ICD_VENDORS", empty_vendors),
                        ARGS("compare", fi, fs, "--output-dir", out), out, 2, "report.md");
    char *levels = part_of(md, "## Memory hierarchy");
    /* The columns: dev inside, dev split. The inside step is neither the
     * last-level cache nor memory; L3 is the last level. */
    static const char *const want[] = {
        "| last-level cache | L3: 25.8 MiB",
        "| device memory | none found |",
        "| L2 | 873 KiB, ",
        "| L2 near: 873 KiB, ",
        "; L2 far: 25.8 MiB, ",
        " | L2 far: 25.8 MiB, ",
    };
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(want); i++)
        if (!strstr(levels, want[i]))
            fail_msg("'%s' not in:\n%s", want[i], levels);
    assert_null(strstr(levels, "unnamed"));
    free(levels);
    free(md);
    free(inside);
    free(split);
    free(text);
}

/* Past the palette's colours, devices still differ: eight devices have
 * eight colours, and no two have the same colour, dashes and point. */
static void every_device_its_own_style(void **state)
{
    (void)state;
    static const struct made r[] = {{"w", "v1", "64", 10, "GB/s", "ok", "events", NAN}};
    const char *args[20] = {"compare"};
    size_t n = 1;
    char names[14][32];
    for (size_t d = 0; d < 14; d++) {
        char device[32];
        snprintf(names[d], sizeof names[d], "s%zu.json", d);
        snprintf(device, sizeof device, "dev %zu", d);
        args[n++] = strdup(made_file(names[d], device, 0, 0, r, 1));
    }
    const char *out = test_in_dir("styles");
    args[n++] = "--output-dir";
    args[n++] = out;
    args[n] = NULL;
    char *gp = compared(ARGS("OCL_ICD_VENDORS", empty_vendors), (const char *const *)args, out, 14,
                        "plots.gp");
    char seen[14][128];
    for (size_t d = 0; d < 14; d++) {
        char head[32];
        snprintf(head, sizeof head, "set linetype %zu linecolor", d + 1);
        const char *at = strstr(gp, head);
        assert_non_null(at);
        const char *end = strchr(at, '\n');
        assert_non_null(end);
        snprintf(seen[d], sizeof seen[d], "%.*s", (int)(end - at - strlen(head)),
                 at + strlen(head));
        for (size_t e = 0; e < d; e++)
            if (strcmp(seen[e], seen[d]) == 0)
                fail_msg("devices %zu and %zu drawn alike:%s", e + 1, d + 1, seen[d]);
        /* The first eight each a colour of their own. */
        for (size_t e = 0; d < 8 && e < d; e++)
            if (strncmp(seen[e], seen[d], 17) == 0)
                fail_msg("devices %zu and %zu share a colour:%s", e + 1, d + 1, seen[d]);
    }
    free(gp);
    for (size_t i = 1; i < 15; i++)
        free((void *)args[i]);
}

static int setup(void **state)
{
    if (test_dir_setup(state))
        return -1;
    snprintf(empty_vendors, sizeof empty_vendors, "%s", test_in_dir("no-drivers"));
    return mkdir(empty_vendors, 0700);
}

int main(void)
{
    stop_signals_default(); /* the runs here are sent signals */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(saved_files_need_no_device),
        cmocka_unit_test(bad_files_write_nothing),
        cmocka_unit_test(live_devices_join_saved_files),
        cmocka_unit_test(an_input_in_the_report_dir_is_refused),
        cmocka_unit_test(a_new_report_replaces_the_old_one_whole),
        cmocka_unit_test(a_failed_report_leaves_the_dir_as_it_was),
        cmocka_unit_test(signals_stop_a_report_of_files_at_once),
        cmocka_unit_test(workloads_are_checked_and_applied),
        cmocka_unit_test(huge_figures_still_plot_and_failures_are_said),
        cmocka_unit_test(an_interrupted_live_compare_says_so),
        cmocka_unit_test(the_summary_leads),
        cmocka_unit_test(the_baseline_is_chosen),
        cmocka_unit_test(the_baseline_path_comes_first),
        cmocka_unit_test(probes_are_not_ranked),
        cmocka_unit_test(builds_are_said),
        cmocka_unit_test(noise_is_said),
        cmocka_unit_test(performance_portability),
        cmocka_unit_test(failures_and_skips_are_not_compared),
        cmocka_unit_test(peaks_stay_out_of_all_workloads),
        cmocka_unit_test(every_device_its_own_style),
        cmocka_unit_test(the_bounding_level_is_said),
        cmocka_unit_test(results_without_a_bound_are_left_out),
        cmocka_unit_test(levels_by_their_new_names),
        cmocka_unit_test_setup_teardown(bench_takes_the_sizes_it_is_given, test_setup_device,
                                        test_teardown_device),
    };
    return cmocka_run_group_tests(tests, setup, test_dir_teardown);
}
