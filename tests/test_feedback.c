/* What users read besides results: progress lines off a terminal and the
 * first-build note, each result's line as it finishes, --quiet, diff's
 * subsets and changes-only view, tune's rule and its database commands,
 * the formats of devices and list, --output's format from its extension,
 * 'clmem help CMD' and "did you mean". The runs are small; nothing is
 * timed. */
#include "harness/harness.h"
#include "io/io.h"
#include "report/model.h"

#include <cJSON.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "json_file.h"
#include "tmpdir.h"

#include "cli_run.h"

static void refused_with(const char *const args[], const char *message)
{
    static struct outcome o;
    run_clmem_within(&o, NULL, args, REFUSAL_LIMIT_S);
    if (o.code != 2 || !strstr(o.err, message) || count_lines(o.err) != 1)
        fail_msg("%s %s: exit %d, stderr '%s' (expected '%s')", args[0], args[1] ? args[1] : "",
                 o.code, o.err, message);
}

static void unknown_names_get_a_suggestion(void **state)
{
    (void)state;
    refused_with(ARGS("rnu"), "unknown command 'rnu' (did you mean 'run'?");
    refused_with(ARGS("run", "matmull"),
                 "unknown workload 'matmull' (did you mean 'matmul'? try 'clmem list')");
    refused_with(ARGS("run", "matmul", "--variant", "tiledd"),
                 "unknown variant 'tiledd' of 'matmul' (did you mean 'tiled'?");
    refused_with(ARGS("run", "matmul", "--reeps", "3"),
                 "unknown option '--reeps' (did you mean '--reps'?");
    refused_with(ARGS("list", "tranpose"),
                 "unknown workload 'tranpose' (did you mean 'transpose'?");
    refused_with(ARGS("bench", "--workloads", "dott"), "(did you mean 'dot'?");
    /* Nothing close: no guess. */
    refused_with(ARGS("frob"), "unknown command 'frob' (see 'clmem --help')");
    /* rusticl's llvmpipe, asked for without RUSTICL_ENABLE: how to list it. */
    static struct outcome o;
    const char *no_rusticl[] = {"RUSTICL_ENABLE", NULL, NULL};
    run_clmem_within(&o, no_rusticl, ARGS("run", "pi", "--device", "llvmpipe"), REFUSAL_LIMIT_S);
    if (o.code != 2 || !strstr(o.err, "with RUSTICL_ENABLE=llvmpipe in the environment") ||
        count_lines(o.err) != 1)
        fail_msg("--device llvmpipe: exit %d, stderr '%s'", o.code, o.err);
}

static void help_cmd_is_cmd_help(void **state)
{
    (void)state;
    static struct outcome a, b;
    run_clmem(&a, NULL, ARGS("help", "diff"));
    run_clmem(&b, NULL, ARGS("diff", "--help"));
    assert_int_equal(a.code, 0);
    assert_string_equal(a.out, b.out);
    assert_non_null(strstr(a.out, "usage: clmem diff"));
    refused_with(ARGS("help", "dif"), "unknown command 'dif' (did you mean 'diff'?");
}

static void list_and_devices_write_json_and_csv(void **state)
{
    (void)state;
    static struct outcome o;
    run_clmem(&o, NULL, ARGS("list", "--format", "json"));
    assert_int_equal(o.code, 0);
    cJSON *root = cJSON_Parse(o.out);
    assert_true(cJSON_IsArray(root));
    cJSON *first = cJSON_GetArrayItem(root, 0);
    assert_string_equal(cJSON_GetObjectItem(first, "workload")->valuestring, "matmul");
    assert_true(cJSON_GetArraySize(cJSON_GetObjectItem(first, "variants")) > 1);
    cJSON_Delete(root);

    run_clmem(&o, NULL, ARGS("devices", "--format", "json"));
    assert_int_equal(o.code, 0);
    root = cJSON_Parse(o.out);
    assert_true(cJSON_IsArray(root));
    first = cJSON_GetArrayItem(root, 0);
    assert_true(cJSON_IsString(cJSON_GetObjectItem(first, "name")));
    assert_true(cJSON_GetObjectItem(first, "global_memory")->valuedouble > 0);
    cJSON_Delete(root);

    run_clmem(&o, NULL, ARGS("devices", "--format", "csv"));
    assert_int_equal(o.code, 0);
    assert_true(strncmp(o.out, "index,platform,name,type,", 25) == 0);
    assert_true(count_lines(o.out) >= 2);
}

/* ---- diff ---- */

/* bench/h100.json with only `keep`'s results, and with `slow`'s (NULL:
 * none) at half their speed. */
static const char *h100_edited(const char *name, const char *keep, const char *slow)
{
    cJSON *root = test_read_json(test_bench_file("h100.json"));
    cJSON *results = cJSON_GetObjectItem(root, "results");
    assert_non_null(results);
    for (int i = cJSON_GetArraySize(results) - 1; i >= 0; i--) {
        cJSON *r = cJSON_GetArrayItem(results, i);
        const char *w = cJSON_GetObjectItem(r, "workload")->valuestring;
        if (keep && strcmp(w, keep) != 0) {
            cJSON_DeleteItemFromArray(results, i);
            continue;
        }
        if (slow && strcmp(w, slow) == 0) {
            static const char *const times[] = {"median_ms", "min_ms", "max_ms"};
            for (size_t t = 0; t < 3; t++) {
                cJSON *v = cJSON_GetObjectItem(r, times[t]);
                cJSON_SetNumberValue(v, v->valuedouble * 2);
            }
            cJSON *m = cJSON_GetObjectItem(r, "metric");
            cJSON_SetNumberValue(m, m->valuedouble / 2);
            cJSON *s;
            cJSON_ArrayForEach(s, cJSON_GetObjectItem(r, "samples_ms"))
            {
                cJSON_SetNumberValue(s, s->valuedouble * 2);
            }
        }
    }
    const char *path = test_write_json(test_in_dir(name), root);
    cJSON_Delete(root);
    return path;
}

static void diff_of_a_partial_run_says_not_run(void **state)
{
    (void)state;
    static struct outcome o;
    const char *base = test_bench_file("h100.json");
    const char *partial = h100_edited("matmul-only.json", "matmul", NULL);
    run_clmem(&o, NULL, ARGS("diff", base, partial));
    if (o.code != 0 || !strstr(o.out, "not run") || strstr(o.out, " gone"))
        fail_msg("exit %d, stdout %.2000s", o.code, o.out);
    /* The summary line first, and last. */
    const char *last = o.out + strlen(o.out) - 1;
    while (last > o.out && last[-1] != '\n')
        last--;
    assert_true(strncmp(o.out, last, strlen(last)) == 0);
    assert_non_null(strstr(last, "not run: no regression"));
}

static void diff_gates_on_workloads_and_shows_changes(void **state)
{
    (void)state;
    static struct outcome o;
    const char *base = test_bench_file("h100.json");
    const char *slow = h100_edited("transpose-slow.json", NULL, "transpose");
    run_clmem(&o, NULL, ARGS("diff", base, slow));
    assert_int_equal(o.code, 4);
    size_t all_lines = count_lines(o.out);
    run_clmem(&o, NULL, ARGS("diff", base, slow, "--workloads", "matmul,dot"));
    if (o.code != 0 || strstr(o.out, "\ntranspose ") || !strstr(o.out, "\nmatmul "))
        fail_msg("--workloads matmul,dot: exit %d, stdout %.1500s", o.code, o.out);
    run_clmem(&o, NULL, ARGS("diff", base, slow, "--changes"));
    assert_int_equal(o.code, 4);
    if (count_lines(o.out) >= all_lines || !strstr(o.out, "slower") || strstr(o.out, "  same  ") ||
        !strstr(o.out, "unchanged not shown"))
        fail_msg("--changes: %.3000s", o.out);
    /* JSON too: only the changed rows, the summary counting all. */
    run_clmem(&o, NULL, ARGS("diff", base, slow, "--changes", "--format", "json"));
    cJSON *root = cJSON_Parse(o.out), *r;
    assert_non_null(root);
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(root, "results"))
    {
        assert_string_equal(cJSON_GetObjectItem(r, "verdict")->valuestring, "slower");
    }
    assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "summary"), "same")->valuedouble > 0);
    cJSON_Delete(root);
    /* --output x.csv writes CSV without --format. */
    const char *csv = test_in_dir("diff.csv");
    run_clmem(&o, NULL, ARGS("diff", base, slow, "--output", csv));
    assert_int_equal(o.code, 4);
    char *text = test_read_file(csv);
    assert_non_null(text);
    assert_true(strncmp(text, "run,workload,variant,", 21) == 0);
    free(text);
}

/* --workloads that leave no result: refused before anything is written
 * (diff passed the gate on an empty table, compare wrote a report of the
 * peaks alone; both exit 0). */
static void workloads_that_leave_nothing_are_refused(void **state)
{
    (void)state;
    static struct outcome o;
    const char *matmul = h100_edited("matmul-alone.json", "matmul", NULL);
    const char *out = test_in_dir("nothing.json");
    refused_with(ARGS("diff", matmul, matmul, "--workloads", "transpose,dot", "--output", out),
                 "--workloads 'transpose,dot' leaves nothing to compare: neither");
    assert_int_equal(access(out, F_OK), -1);
    const char *dir = test_in_dir("nothing-report");
    refused_with(ARGS("compare", matmul, "--workloads", "transpose", "--output-dir", dir),
                 "--workloads 'transpose' leaves nothing to compare: no run file has a result");
    assert_int_equal(access(dir, F_OK), -1);
    /* One workload of the list there is enough. */
    run_clmem(&o, NULL, ARGS("diff", matmul, matmul, "--workloads", "transpose,matmul"));
    if (o.code != 0 || !strstr(o.out, "\nmatmul "))
        fail_msg("--workloads transpose,matmul: exit %d, stderr '%s'", o.code, o.err);
}

/* ---- tune ---- */

static void tune_keeps_only_a_gain_beyond_both_spreads(void **state)
{
    (void)state;
    struct clmem_tune_candidate builtin = {.metric = 100, .min_ms = 0.95, .max_ms = 1.10};
    struct clmem_tune_candidate c = {.metric = 120, .min_ms = 0.80, .max_ms = 0.90};
    assert_true(clmem_tune_beats(&c, &builtin));
    /* Faster by its median, but its slowest sample inside the built-in's range. */
    c.max_ms = 1.0;
    assert_false(clmem_tune_beats(&c, &builtin));
    /* Outside the ranges but within the threshold. */
    c = (struct clmem_tune_candidate){.metric = 103, .min_ms = 0.90, .max_ms = 0.94};
    assert_false(clmem_tune_beats(&c, &builtin));
    c.status = CLMEM_ERR_VERIFY;
    c.metric = 500;
    assert_false(clmem_tune_beats(&c, &builtin));
}

/* A tuning database in a fresh XDG_CACHE_HOME with entries for `device`
 * (matmul and transpose) and for another device. */
static const char *tuning_home(const char *device)
{
    const char *home = test_in_dir("tunehome");
    char dir[1100], text[4096];
    mkdir(home, 0700);
    snprintf(dir, sizeof dir, "%s/clmem", home);
    mkdir(dir, 0700);
    snprintf(text, sizeof text,
             "{\"clmem_tuning\": 1, \"entries\": ["
             "{\"device\": \"%s\", \"driver\": \"d\", \"workload\": \"matmul\", \"variant\": "
             "\"regblock\", \"size_class\": \"1024\", \"params\": {\"TSM\": 64}, \"metric\": 12.5, "
             "\"default_metric\": 10, \"unit\": \"GFLOP/s\", \"builtin\": false},"
             "{\"device\": \"%s\", \"driver\": \"d\", \"workload\": \"transpose\", \"variant\": "
             "\"padded\", \"size_class\": \"2048\", \"params\": {\"TILE\": 32}, \"metric\": 3, "
             "\"default_metric\": 3, \"unit\": \"GB/s\", \"builtin\": true},"
             "{\"device\": \"other device\", \"driver\": \"d\", \"workload\": \"matmul\", "
             "\"variant\": \"regblock\", \"size_class\": \"1024\", \"params\": {\"TSM\": 32}, "
             "\"metric\": 1, \"default_metric\": 1, \"unit\": \"GFLOP/s\", \"builtin\": false}]}",
             device, device);
    snprintf(dir, sizeof dir, "%s/clmem/tuning.json", home);
    test_write_file(dir, text);
    chmod(dir, 0600);
    return home;
}

static void tune_show_and_reset(void **state)
{
    (void)state;
    static struct outcome o;
    run_clmem(&o, NULL, ARGS("devices", "--format", "json"));
    cJSON *root = cJSON_Parse(o.out);
    assert_non_null(root);
    char device[256];
    snprintf(device, sizeof device, "%s",
             cJSON_GetObjectItem(cJSON_GetArrayItem(root, 0), "name")->valuestring);
    cJSON_Delete(root);
    const char *home = tuning_home(device);
    const char *env[] = {"XDG_CACHE_HOME", home, NULL};
    run_clmem(&o, env, ARGS("tune", "--show", "--device", "0:0"));
    if (o.code != 0 || !strstr(o.out, "2 entries") || !strstr(o.out, "12.500 GFLOP/s") ||
        !strstr(o.out, "TSM=64") || !strstr(o.out, "TILE=32") || strstr(o.out, "TSM=32"))
        fail_msg("--show: exit %d, stdout '%s', stderr '%s'", o.code, o.out, o.err);
    run_clmem(&o, env, ARGS("tune", "--reset", "matmul", "--device", "0:0"));
    if (o.code != 0 || !strstr(o.out, "removed 1 entry"))
        fail_msg("--reset matmul: exit %d, stdout '%s', stderr '%s'", o.code, o.out, o.err);
    run_clmem(&o, env, ARGS("tune", "--show", "--device", "0:0"));
    if (!strstr(o.out, "1 entry") || strstr(o.out, "TSM=64") || !strstr(o.out, "TILE=32"))
        fail_msg("after --reset matmul: '%s'", o.out);
    run_clmem(&o, env, ARGS("tune", "--reset", "--device", "0:0"));
    assert_non_null(strstr(o.out, "removed 1 entry"));
    /* The other device's entry stays. */
    char path[1200];
    snprintf(path, sizeof path, "%s/clmem/tuning.json", home);
    char *text = test_read_file(path);
    assert_non_null(text);
    assert_non_null(strstr(text, "other device"));
    assert_null(strstr(text, "\"TILE\""));
    free(text);
    refused_with(ARGS("tune", "--show", "matmul"), "--show lists every workload's entries");
}

/* ---- progress ---- */

/* The lines clmem prints on stderr as each result of its JSON report on
 * stdout finishes, in the report's order, each with its newline: "clmem:
 * [i/n] WORKLOAD SIZE VARIANT on DEVICE: median X ms, METRIC, verified"
 * (FAILED; "skipped: REASON"). A run's step is the variant's (i of n, the
 * report's results one each); a bench's, 0 for the peaks and 1 of 1 for
 * the one workload at its one size. Each result has NEAR lines: cJSON
 * writes a number with 15 digits where they read back within a unit in
 * the last place of it, so the report's median and metric may be a unit
 * in the last place off what clmem printed from (a median of 0.20255 ms
 * printed 0.2025, read back 0.2026): lines[i][d] is the line from the
 * report's median and metric each moved by d's unit in the last place
 * (-1, 0, +1; d = 4 none). Returns how many results; fails the test on a
 * report it cannot read. */
#define MAX_RESULT_LINES 16
#define NEAR             9
static size_t result_lines(const char *json, int bench, char lines[][NEAR][512])
{
    cJSON *root = cJSON_Parse(json);
    cJSON *results = cJSON_GetObjectItem(root, "results");
    if (!cJSON_IsArray(results))
        fail_msg("no results in the report: %.2000s", json);
    size_t n = (size_t)cJSON_GetArraySize(results);
    assert_true(n > 0 && n <= MAX_RESULT_LINES);
    for (size_t i = 0; i < n; i++) {
        const cJSON *r = cJSON_GetArrayItem(results, (int)i);
        const char *workload = cJSON_GetObjectItem(r, "workload")->valuestring;
        const char *status = cJSON_GetObjectItem(r, "status")->valuestring;
        for (int d = 0; d < NEAR; d++) {
            char outcome[400];
            if (strcmp(status, "skipped") == 0) {
                snprintf(outcome, sizeof outcome, "skipped: %s",
                         cJSON_GetObjectItem(r, "skip_reason")->valuestring);
            } else {
                char metric[64];
                double median = cJSON_GetObjectItem(r, "median_ms")->valuedouble,
                       value = cJSON_GetObjectItem(r, "metric")->valuedouble;
                if (d / 3 != 1)
                    median = nextafter(median, d / 3 ? INFINITY : -INFINITY);
                if (d % 3 != 1)
                    value = nextafter(value, d % 3 ? INFINITY : -INFINITY);
                clmem_format_metric(value, cJSON_GetObjectItem(r, "unit")->valuestring, metric,
                                    sizeof metric);
                snprintf(outcome, sizeof outcome, "median %.4f ms, %s, %s", median, metric,
                         strcmp(status, "ok") == 0 ? "verified" : status);
            }
            size_t step = bench ? strcmp(workload, "peak") != 0 : i + 1, steps = bench ? 1 : n;
            /* A peak a result of the run rose above is measured again and
             * the higher kept (its note says so): its line printed the
             * first measurement, so only what precedes the figures is
             * known (a line without its newline: result_line_at). */
            const cJSON *note = cJSON_GetObjectItem(r, "note");
            int again = cJSON_IsString(note) && strstr(note->valuestring, "measured twice");
            snprintf(lines[i][d], 512, "clmem: [%zu/%zu] %s %s %s on %s: %s%s", step, steps,
                     workload, cJSON_GetObjectItem(r, "size")->valuestring,
                     cJSON_GetObjectItem(r, "variant")->valuestring,
                     cJSON_GetObjectItem(r, "device")->valuestring, again ? "" : outcome,
                     again ? "" : "\n");
        }
    }
    cJSON_Delete(root);
    return n;
}

/* The length of the one of a result's NEAR lines that `at` starts with
 * (a line known only to its figures: up to its newline); 0 if none. */
static size_t result_line_at(const char *at, char line[NEAR][512])
{
    for (int d = 0; d < NEAR; d++) {
        size_t len = strlen(line[d]);
        if (strncmp(at, line[d], len) != 0)
            continue;
        if (len && line[d][len - 1] == '\n')
            return len;
        const char *end = strchr(at + len, '\n');
        return end ? (size_t)(end + 1 - at) : 0;
    }
    return 0;
}

/* Off a terminal stderr is the results' lines, one each in the report's
 * order, then what starts with `after` (NULL: nothing), no other result's
 * line: plain text, no escapes. */
static void stderr_is_result_lines(const struct outcome *o, int bench, const char *after)
{
    static char lines[MAX_RESULT_LINES][NEAR][512];
    size_t n = result_lines(o->out, bench, lines);
    const char *at = o->err;
    for (size_t i = 0; i < n; i++) {
        size_t len = result_line_at(at, lines[i]);
        if (!len)
            fail_msg("result %zu: expected\n%sin stderr:\n%s", i + 1, lines[i][NEAR / 2], o->err);
        at += len;
    }
    if (after ? strncmp(at, after, strlen(after)) != 0 || strstr(at, "clmem: [") : at[0] != '\0')
        fail_msg("after the %zu results' lines, expected '%s':\n%s", n, after ? after : "", o->err);
    if (strchr(o->err, '\r') || strchr(o->err, '\033'))
        fail_msg("escapes or carriage returns off a terminal:\n%s", o->err);
}

/* A copy of reduce's kernels whose interleaved variant adds 1 to the last
 * input, as test_planted's row does: its directory. */
static const char *reduce_planted(void)
{
    const char *dir = test_in_dir("reduce-planted");
    assert_int_equal(mkdir(dir, 0700), 0);
    static const char *const files[] = {"reduce.cl", "sum_coarsened.cl", "group_sum.h"};
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(files); i++) {
        char from[2048], to[2048];
        snprintf(from, sizeof from, "%s/%s", getenv("CLMEM_SOURCE_CL"), files[i]);
        snprintf(to, sizeof to, "%s/%s", dir, files[i]);
        char *text = test_read_file(from);
        if (!text)
            fail_msg("cannot read '%s'", from);
        const char *old = "partialSum[get_local_id(0)] = i < n ? X[i] : 0.0f;";
        char *kernel = strstr(text, "reduceInterleaved(");
        char *at = kernel ? strstr(kernel, old) : NULL;
        if (i == 0 && !at)
            fail_msg("no '%s' in reduceInterleaved of %s", old, from);
        FILE *f = fopen(to, "w");
        assert_non_null(f);
        if (i == 0)
            fprintf(f, "%.*s%s%s", (int)(at - text), text,
                    "partialSum[get_local_id(0)] = i < n ? X[i] + (i == n - 1 ? 1.0f : 0.0f) : "
                    "0.0f;",
                    at + strlen(old));
        else
            fputs(text, f);
        assert_int_equal(fclose(f), 0);
        free(text);
    }
    return dir;
}

/* Off a terminal (stderr a file, as in a CI log), each variant's result
 * on its own line as it finishes: verified, or FAILED for a planted
 * kernel; none with --quiet. bench's the same, the peaks' first. */
static void result_lines_off_a_terminal(void **state)
{
    (void)state;
    static struct outcome o;
    run_clmem(&o, NULL,
              ARGS("run", "reduce", "--variant", "all", "--size", "1001", "--reps", "2", "--format",
                   "json"));
    assert_int_equal(o.code, 0);
    assert_int_equal(count_lines(o.err), variant_count("reduce"));
    stderr_is_result_lines(&o, 0, NULL);

    run_clmem(&o, NULL,
              ARGS("run", "reduce", "--variant", "all", "--size", "1001", "--reps", "2", "--format",
                   "json", "--quiet"));
    if (o.code != 0 || o.err[0])
        fail_msg("--quiet: exit %d, stderr '%s'", o.code, o.err);

    const char *dir = reduce_planted();
    run_clmem(&o, NULL,
              ARGS("run", "reduce", "--variant", "all", "--size", "1001", "--reps", "1", "--format",
                   "json", "--kernel-dir", dir, "--no-cache"));
    assert_int_equal(o.code, 1);
    stderr_is_result_lines(&o, 0, "clmem: reduce interleaved: verification failed: ");
    if (!strstr(o.err, " interleaved on ") ||
        !strstr(strstr(o.err, " interleaved on "), ", FAILED\n") ||
        !strstr(o.err, " sequential on ") ||
        !strstr(strstr(o.err, " sequential on "), ", verified\n"))
        fail_msg("the planted variant's line is not FAILED, or the others' not verified:\n%s",
                 o.err);

    run_clmem(&o, NULL,
              ARGS("bench", "--workloads", "constmem", "--reps", "1", "--format", "json"));
    assert_int_equal(o.code, 0);
    stderr_is_result_lines(&o, 1, NULL);
    assert_non_null(strstr(o.err, "clmem: [0/1] peak "));
    assert_non_null(strstr(o.err, "clmem: [1/1] constmem "));
    run_clmem(
        &o, NULL,
        ARGS("bench", "--workloads", "constmem", "--reps", "1", "--format", "json", "--quiet"));
    if (o.code != 0 || o.err[0])
        fail_msg("bench --quiet: exit %d, stderr '%s'", o.code, o.err);
}

static void progress_lines_off_a_terminal_and_quiet(void **state)
{
    (void)state;
    static struct outcome o;
    const char *home = test_in_dir("coldcache");
    mkdir(home, 0700);
    const char *env[] = {"XDG_CACHE_HOME", home, NULL};
    const char *csv = test_in_dir("dot.csv");
    run_clmem(&o, env,
              ARGS("run", "dot", "--size", "1000", "--reps", "1", "--progress", "--output", csv));
    if (o.code != 0 || !strstr(o.err, "clmem: [1/") || !strstr(o.err, "elapsed") ||
        !strstr(o.err, "about ") || strchr(o.err, '\r') ||
        !strstr(o.err, "clmem: building kernels for ") ||
        !strstr(o.err, "(first time; cached afterwards)"))
        fail_msg("--progress: exit %d, stderr '%s'", o.code, o.err);
    char *text = test_read_file(csv);
    assert_non_null(text);
    assert_true(strncmp(text, "workload,", 9) == 0);
    free(text);
    /* Cached now: no build to announce. */
    run_clmem(&o, env, ARGS("run", "dot", "--size", "1000", "--reps", "1", "--progress"));
    if (o.code != 0 || !strstr(o.err, "clmem: [1/") || strstr(o.err, "building kernels"))
        fail_msg("warm --progress: exit %d, stderr '%s'", o.code, o.err);
    run_clmem(&o, env,
              ARGS("run", "dot", "--size", "1000", "--reps", "1", "--progress", "--quiet"));
    if (o.code != 0 || o.err[0])
        fail_msg("--quiet: exit %d, stderr '%s'", o.code, o.err);
    /* Off a terminal without --progress: the results alone, no steps. */
    run_clmem(
        &o, env,
        ARGS("run", "dot", "--size", "1000", "--reps", "1", "--no-cache", "--format", "json"));
    assert_int_equal(o.code, 0);
    stderr_is_result_lines(&o, 0, NULL);
    /* With --progress each step's line, then its result's. */
    run_clmem(
        &o, env,
        ARGS("run", "dot", "--size", "1000", "--reps", "1", "--progress", "--format", "json"));
    assert_int_equal(o.code, 0);
    static char lines[MAX_RESULT_LINES][NEAR][512];
    size_t n = result_lines(o.out, 0, lines);
    assert_int_equal(count_lines(o.err), 2 * n);
    const char *at = o.err;
    for (size_t i = 0; i < n; i++) {
        /* "clmem: [i/n] dot 1000 VARIANT on DEVICE" and its times, then the result. */
        const char *line = lines[i][NEAR / 2], *figures = strstr(line, ": median ");
        assert_non_null(figures);
        size_t named = (size_t)(figures - line);
        const char *next = strchr(at, '\n') + 1;
        size_t len = result_line_at(next, lines[i]);
        if (strncmp(at, line, named) != 0 || strncmp(at + named, " (", 2) != 0 || !len)
            fail_msg("step %zu: expected its line, then\n%sin:\n%s", i + 1, line, o.err);
        at = next + len;
    }
}

/* --energy where no counter can be read (an empty powercap tree, a CPU
 * device): why, in one warning line on stderr, and the run still exit 0;
 * without --energy, nothing. */
static void energy_without_a_counter_says_why(void **state)
{
    (void)state;
    static struct outcome o;
    const char *empty = test_in_dir("no-powercap");
    mkdir(empty, 0700);
    run_clmem(&o, ARGS("CLMEM_POWERCAP_DIR", empty),
              ARGS("run", "dot", "--device", "cpu", "--size", "4096", "--reps", "1", "--energy",
                   "--quiet"));
    assert_int_equal(o.code, 0);
    const char *line = strstr(o.err, "clmem: warning: --energy: no energy figures on '");
    if (!line)
        fail_msg("no warning: stderr '%s'", o.err);
    assert_null(strstr(line + 1, "clmem: warning: --energy"));
    run_clmem(&o, ARGS("CLMEM_POWERCAP_DIR", empty),
              ARGS("run", "dot", "--device", "cpu", "--size", "4096", "--reps", "1", "--quiet"));
    assert_int_equal(o.code, 0);
    assert_null(strstr(o.err, "--energy"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unknown_names_get_a_suggestion),
        cmocka_unit_test(help_cmd_is_cmd_help),
        cmocka_unit_test(list_and_devices_write_json_and_csv),
        cmocka_unit_test(diff_of_a_partial_run_says_not_run),
        cmocka_unit_test(diff_gates_on_workloads_and_shows_changes),
        cmocka_unit_test(workloads_that_leave_nothing_are_refused),
        cmocka_unit_test(tune_keeps_only_a_gain_beyond_both_spreads),
        cmocka_unit_test(tune_show_and_reset),
        cmocka_unit_test(progress_lines_off_a_terminal_and_quiet),
        cmocka_unit_test(result_lines_off_a_terminal),
        cmocka_unit_test(energy_without_a_counter_says_why),
    };
    return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
