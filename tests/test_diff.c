/* clmem diff (src/report/diff.c, src/cli/cmd_diff.c): verdicts, the noise
 * rule, pairing of runs, the three formats, and the exit codes a CI job
 * reads. Fixtures are bench/'s real run files and copies of them with one
 * result edited, or small files written here. Needs no device. */
#include "harness/harness.h"
#include "report/report.h"

#include <cJSON.h>
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "json_file.h"
#include "tmpdir.h"

#include "cli_run.h"

static const char *write_text(const char *name, const char *text)
{
    return test_write_file(test_in_dir(name), text);
}

/* The whole of a file (the JSON of 182 results outgrows struct outcome's
 * buffer), malloc'd. */
static char *read_all(const char *path)
{
    char *text = test_read_file(path);
    if (!text)
        fail_msg("cannot read '%s'", path);
    return text;
}

/* clmem `args` must exit `code`, stdout holding each of `says` (NULL or
 * NULL-terminated), stderr nothing. */
static void diff_says(const char *const args[], int code, const char *const says[])
{
    static struct outcome o;
    run_clmem(&o, NULL, args);
    if (o.code != code || o.err[0])
        fail_msg("%s: exit %d (expected %d), stderr '%s'", args[0], o.code, code, o.err);
    for (size_t i = 0; says && says[i]; i++)
        if (!strstr(o.out, says[i]))
            fail_msg("no '%s' in: %s", says[i], o.out);
}

static cJSON *find_json_result(cJSON *root, const char *workload, const char *variant,
                               const char *size)
{
    cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(root, "results"))
    {
        if (strcmp(cJSON_GetObjectItem(r, "workload")->valuestring, workload) == 0 &&
            strcmp(cJSON_GetObjectItem(r, "variant")->valuestring, variant) == 0 &&
            strcmp(cJSON_GetObjectItem(r, "size")->valuestring, size) == 0)
            return r;
    }
    fail_msg("no %s %s %s in the fixture", workload, variant, size);
    return NULL;
}

static void scale_number(cJSON *o, const char *key, double factor)
{
    cJSON *v = cJSON_GetObjectItem(o, key);
    assert_non_null(v);
    cJSON_SetNumberValue(v, v->valuedouble * factor);
}

/* bench/h100.json with matmul regblock 8192 running at `speed` times its
 * speed: every time divided by it, the metric multiplied. */
static const char *h100_with_regblock_at(const char *name, double speed)
{
    cJSON *root = test_read_json(test_bench_file("h100.json"));
    cJSON *r = find_json_result(root, "matmul", "regblock", "8192");
    cJSON *s;
    cJSON_ArrayForEach(s, cJSON_GetObjectItem(r, "samples_ms"))
    {
        cJSON_SetNumberValue(s, s->valuedouble / speed);
    }
    scale_number(r, "median_ms", 1 / speed);
    scale_number(r, "min_ms", 1 / speed);
    scale_number(r, "max_ms", 1 / speed);
    scale_number(r, "metric", speed);
    const char *path = test_write_json(test_in_dir(name), root);
    cJSON_Delete(root);
    return path;
}

struct loaded {
    struct clmem_compare_device *base, *newer;
    size_t n_base, n_newer;
    struct clmem_diff diff;
};

static void diff_files(struct loaded *l, const char *base, const char *newer, double threshold)
{
    struct clmem_error err = {0};
    memset(l, 0, sizeof *l);
    if (clmem_runfile_load(base, &l->base, &l->n_base, &err) ||
        clmem_runfile_load(newer, &l->newer, &l->n_newer, &err) ||
        clmem_diff_runs(l->base, l->n_base, l->newer, l->n_newer, threshold, &l->diff, &err))
        fail_msg("%s", err.message);
}

static void loaded_free(struct loaded *l)
{
    clmem_diff_free(&l->diff);
    clmem_compare_devices_free(l->base, l->n_base);
    clmem_compare_devices_free(l->newer, l->n_newer);
}

static const struct clmem_diff_row *find_row(const struct clmem_diff *diff, const char *workload,
                                             const char *variant, const char *size)
{
    for (size_t i = 0; i < diff->n_rows; i++) {
        const struct clmem_result *r =
            diff->rows[i].base ? diff->rows[i].base : diff->rows[i].newer;
        if (strcmp(r->workload, workload) == 0 && strcmp(r->variant, variant) == 0 &&
            strcmp(r->size, size) == 0)
            return &diff->rows[i];
    }
    fail_msg("no row %s %s %s", workload, variant, size);
    return NULL;
}

static size_t total(const struct clmem_diff *diff)
{
    size_t n = 0;
    for (size_t v = 0; v < CLMEM_N_VERDICTS; v++)
        n += diff->counts[v];
    return n;
}

static void a_run_against_itself_is_all_same(void **state)
{
    (void)state;
    struct loaded l;
    const char *h100 = test_bench_file("h100.json");
    diff_files(&l, h100, h100, CLMEM_DIFF_DEFAULT_THRESHOLD);
    assert_int_equal(l.diff.n_pairs, 1);
    assert_string_equal(l.diff.pairs[0].paired_by, "one run in each file");
    assert_int_equal(l.diff.n_rows, l.base[0].n_results);
    assert_int_equal(l.diff.counts[CLMEM_VERDICT_SAME], l.diff.n_rows);
    for (size_t i = 0; i < l.diff.n_rows; i++)
        assert_true(l.diff.rows[i].ratio == 1.0);
    assert_false(clmem_diff_regressed(&l.diff));
    char summary[128];
    clmem_diff_summary(&l.diff, summary, sizeof summary);
    assert_string_equal(summary, "182 same");
    /* At threshold 0 too: identical ranges overlap. */
    clmem_diff_free(&l.diff);
    struct clmem_error err = {0};
    assert_int_equal(clmem_diff_runs(l.base, 1, l.newer, 1, 0, &l.diff, &err), CLMEM_OK);
    assert_int_equal(l.diff.counts[CLMEM_VERDICT_SAME], l.diff.n_rows);
    loaded_free(&l);
    diff_says(ARGS("diff", h100, h100), 0,
              ARGS("182 same: no regression", "matmul      regblock", "48.7 TFLOP/s"));
}

static void a_planted_slowdown_is_slower_and_exits_4(void **state)
{
    (void)state;
    const char *h100 = test_bench_file("h100.json");
    const char *slow = h100_with_regblock_at("slow.json", 0.8);
    struct loaded l;
    diff_files(&l, h100, slow, CLMEM_DIFF_DEFAULT_THRESHOLD);
    const struct clmem_diff_row *row = find_row(&l.diff, "matmul", "regblock", "8192");
    assert_int_equal(row->verdict, CLMEM_VERDICT_SLOWER);
    assert_true(fabs(row->ratio - 0.8) < 1e-9);
    assert_int_equal(l.diff.counts[CLMEM_VERDICT_SLOWER], 1);
    assert_int_equal(l.diff.counts[CLMEM_VERDICT_SAME], l.diff.n_rows - 1);
    assert_true(clmem_diff_regressed(&l.diff));
    loaded_free(&l);
    diff_says(ARGS("diff", h100, slow), CLMEM_DIFF_REGRESSION,
              ARGS("0.80x  slower", "181 same, 1 slower: a regression"));
    /* The other way round it is faster, and no regression. */
    diff_says(ARGS("diff", slow, h100), 0,
              ARGS("1.25x  faster", "181 same, 1 faster: no regression"));
}

static void a_3_percent_change_is_within_the_default_threshold(void **state)
{
    (void)state;
    const char *h100 = test_bench_file("h100.json");
    const char *slight = h100_with_regblock_at("slight.json", 0.97);
    diff_says(ARGS("diff", h100, slight), 0, ARGS("0.97x  same"));
    /* The samples do not overlap (regblock 8192 spreads 0.06%): only the
     * threshold kept it same, and a lower one lets it count. */
    diff_says(ARGS("diff", "--threshold", "2.5", h100, slight), CLMEM_DIFF_REGRESSION,
              ARGS("0.97x  slower", "beyond 2.5%"));
    diff_says(ARGS("diff", h100, slight, "--threshold", "3.5"), 0, NULL);
}

/* What a run file of schema 1 holds before its results: the header, the
 * host and the device named `device` (a string literal). */
// clang-format off
#define FILE_HEAD(device) \
    "{\"schema_version\": 1, \"clmem_version\": \"0.2.0\", \"created\": \"2026-11-26T10:00:00Z\", " \
    "\"host\": {\"name\": \"box\", \"os\": \"\", \"kernel\": \"\", \"cpu\": \"\", \"cores\": 1, " \
    "\"memory_bytes\": 0}, \"device\": {\"name\": \"" device "\", \"platform\": \"p\", " \
    "\"vendor\": \"v\", \"type\": \"gpu\", \"version\": \"OpenCL 3.0\", \"driver\": \"1\", " \
    "\"compute_units\": 1, \"clock_mhz\": 1, \"global_mem_bytes\": 1, \"local_mem_bytes\": 1, " \
    "\"max_work_group\": 1, \"opencl_c_version\": \"OpenCL C 1.2\", \"max_alloc_bytes\": 1, " \
    "\"base_addr_align_bits\": 8, \"fp64\": false}, \"results\": ["
#define FILE_TAIL "]}"
// clang-format on

/* A run file of one dot result with these samples (ms) and metric. */
static const char *one_dot(const char *name, const char *samples, double median, double metric)
{
    double lo = INFINITY, hi = -INFINITY;
    char text[2048], *end;
    for (const char *p = samples; *p; p = end + strspn(end, ", ")) {
        double v = strtod(p, &end);
        assert_true(end > p);
        lo = fmin(lo, v);
        hi = fmax(hi, v);
    }
    snprintf(text, sizeof text,
             FILE_HEAD("dev") "{\"workload\": \"dot\", \"variant\": \"coarsened\", \"device\": "
                              "\"dev\", \"size\": \"1000\", \"params\": \"\", \"status\": \"ok\", "
                              "\"samples_ms\": [%s], \"median_ms\": %g, \"min_ms\": %g, "
                              "\"max_ms\": %g, \"metric\": %g, \"unit\": \"GB/s\", "
                              "\"max_rel_error\": 0, \"verified\": true, \"verify_scope\": \"\", "
                              "\"reps\": 3, \"warmup\": 1, \"seed\": 42}" FILE_TAIL,
             samples, median, lo, hi, metric);
    return write_text(name, text);
}

static enum clmem_verdict verdict_of(const char *base, const char *newer, double threshold)
{
    struct loaded l;
    diff_files(&l, base, newer, threshold);
    assert_int_equal(l.diff.n_rows, 1);
    enum clmem_verdict v = l.diff.rows[0].verdict;
    loaded_free(&l);
    return v;
}

static void a_change_inside_the_runs_spread_is_same(void **state)
{
    (void)state;
    const char *base = one_dot("base.json", "1.0, 1.0, 1.1", 1.0, 100);
    /* 20% slower by the median, but NEW's fastest sample (1.05 ms) is
     * faster than BASE's slowest (1.1 ms): noise cannot be ruled out. */
    const char *overlap = one_dot("overlap.json", "1.05, 1.25, 1.3", 1.25, 80);
    assert_int_equal(verdict_of(base, overlap, 5), CLMEM_VERDICT_SAME);
    assert_int_equal(verdict_of(overlap, base, 5), CLMEM_VERDICT_SAME);
    /* The same medians, the ranges apart: slower, and faster back. */
    const char *apart = one_dot("apart.json", "1.2, 1.25, 1.3", 1.25, 80);
    assert_int_equal(verdict_of(base, apart, 5), CLMEM_VERDICT_SLOWER);
    assert_int_equal(verdict_of(apart, base, 5), CLMEM_VERDICT_FASTER);
    /* Ranges apart but the change under the threshold: same. */
    assert_int_equal(verdict_of(base, apart, 25), CLMEM_VERDICT_SAME);
    /* One sample each: the spread is that sample. */
    const char *one = one_dot("one.json", "1.0", 1.0, 100);
    const char *one_slow = one_dot("one-slow.json", "1.25", 1.25, 80);
    assert_int_equal(verdict_of(one, one_slow, 5), CLMEM_VERDICT_SLOWER);
    assert_int_equal(verdict_of(one, one, 5), CLMEM_VERDICT_SAME);

    /* spread: -0 and +10% of BASE's median, -16 and +4% of NEW's. */
    diff_says(ARGS("diff", base, overlap), 0, ARGS("0.80x  same", "-0.0..+10.0% / -16.0..+4.0%"));
}

/* Small run files, one result a line. */
// clang-format off
#define RESULT(workload, variant, extra, status) \
    "{\"workload\": \"" workload "\", \"variant\": \"" variant "\", \"device\": \"\", " \
    "\"size\": \"100\", \"params\": \"\", " extra "\"status\": \"" status "\", \"reps\": 3, " \
    "\"warmup\": 1, \"seed\": 42"
#define TIMED(verified) \
    ", \"samples_ms\": [1, 1, 1], \"median_ms\": 1, \"min_ms\": 1, \"max_ms\": 1, " \
    "\"metric\": 50, \"unit\": \"GB/s\", \"max_rel_error\": 0, \"verified\": " verified ", " \
    "\"verify_scope\": \"\"}"
#define OK(workload, variant, extra) RESULT(workload, variant, extra, "ok") TIMED("true")
#define FAILED(workload, variant)    RESULT(workload, variant, "", "FAILED") TIMED("false")
#define SKIPPED(workload, variant)   RESULT(workload, variant, "", "skipped") ", \"skip_reason\": \"r\"}"
#define SWEEP(n)                     "\"sweep\": \"offset\", \"sweep_value\": " #n ", "
// clang-format on

/* A run file naming a workload this clmem does not know is refused with
 * one line naming the file and the workload, exit 2, before any output
 * (the report layer never reads the workloads' list: diff's command
 * checks). */
static void unknown_workloads_are_refused(void **state)
{
    (void)state;
    // clang-format off
    const char *good = write_text("known.json", FILE_HEAD("gpu") OK("dot", "coarsened", "") FILE_TAIL);
    const char *unknown = write_text("unknown.json",
        FILE_HEAD("gpu") OK("dot", "coarsened", "") "," OK("nosuch", "v", "") FILE_TAIL);
    const char *typo = write_text("typo.json", FILE_HEAD("gpu") OK("matmull", "naive", "") FILE_TAIL);
    // clang-format on
    const char *out = test_in_dir("unknown-report.json");
    char says[3][600];
    snprintf(says[0], sizeof says[0], "clmem: '%s': unknown workload 'nosuch' (try 'clmem list')",
             unknown);
    snprintf(says[1], sizeof says[1], "clmem: '%s': unknown workload 'nosuch'", unknown);
    snprintf(says[2], sizeof says[2], "clmem: '%s': unknown workload 'matmull' (did you mean",
             typo);
    const struct {
        const char *const *args;
        const char *message;
    } cases[] = {
        {ARGS("diff", good, unknown), says[0]},
        {ARGS("diff", unknown, good, "--output", out), says[1]},
        {ARGS("diff", good, typo, "--workloads", "dot"), says[2]},
    };
    static struct outcome o;
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(cases); i++) {
        run_clmem(&o, NULL, cases[i].args);
        if (o.code != 2 || count_lines(o.err) != 1 ||
            strncmp(o.err, cases[i].message, strlen(cases[i].message)) != 0 || o.out[0])
            fail_msg("case %zu: exit %d, stderr '%s', stdout '%.80s'", i, o.code, o.err, o.out);
    }
    struct stat st;
    assert_int_not_equal(stat(out, &st), 0);
    /* Every workload this clmem knows is diffed as before. */
    diff_says(ARGS("diff", good, good), 0, ARGS("1 same"));
}

static void every_verdict_where_it_belongs(void **state)
{
    (void)state;
    // clang-format off
    const char *base = write_text("verdicts-base.json",
        FILE_HEAD("gpu")
        OK("dot", "same", "") ","
        OK("dot", "gone", "") ","
        OK("dot", "skipped_now", "") ","
        SKIPPED("dot", "skipped_both") ","
        OK("dot", "fails", "") ","
        FAILED("dot", "fixed") ","
        SKIPPED("dot", "runs_now") ","
        SKIPPED("dot", "skip_gone") ","
        OK("coalescing", "offset_float", SWEEP(1)) ","
        OK("coalescing", "offset_float", SWEEP(2))
        FILE_TAIL);
    const char *newer = write_text("verdicts-new.json",
        FILE_HEAD("another gpu")
        OK("dot", "same", "") ","
        SKIPPED("dot", "skipped_now") ","
        SKIPPED("dot", "skipped_both") ","
        FAILED("dot", "fails") ","
        OK("dot", "fixed", "") ","
        OK("dot", "runs_now", "") ","
        OK("dot", "brand_new", "") ","
        FAILED("dot", "new_and_wrong") ","
        OK("coalescing", "offset_float", SWEEP(2)) ","
        OK("coalescing", "offset_float", SWEEP(3))
        FILE_TAIL);
    // clang-format on
    static const struct {
        const char *variant;
        unsigned sweep_value;
        enum clmem_verdict verdict;
    } expected[] = {
        {"same", 0, CLMEM_VERDICT_SAME},
        {"gone", 0, CLMEM_VERDICT_GONE},        /* only in BASE */
        {"skipped_now", 0, CLMEM_VERDICT_GONE}, /* ok, then skipped */
        {"skipped_both", 0, CLMEM_VERDICT_SKIPPED},
        {"fails", 0, CLMEM_VERDICT_FAILED},
        {"fixed", 0, CLMEM_VERDICT_NEW},    /* BASE had no verified value */
        {"runs_now", 0, CLMEM_VERDICT_NEW}, /* skipped, then ok */
        {"skip_gone", 0, CLMEM_VERDICT_GONE},
        {"offset_float", 1, CLMEM_VERDICT_GONE}, /* sweep points match by value */
        {"offset_float", 2, CLMEM_VERDICT_SAME},
        {"brand_new", 0, CLMEM_VERDICT_NEW},
        {"new_and_wrong", 0, CLMEM_VERDICT_FAILED}, /* new, but wrong: fails */
        {"offset_float", 3, CLMEM_VERDICT_NEW},
    };
    struct loaded l;
    diff_files(&l, base, newer, CLMEM_DIFF_DEFAULT_THRESHOLD);
    /* One run each: paired although the devices differ. */
    assert_int_equal(l.diff.n_pairs, 1);
    assert_int_equal(l.diff.n_rows, CLMEM_ARRAY_SIZE(expected));
    for (size_t i = 0; i < l.diff.n_rows; i++) {
        const struct clmem_diff_row *row = &l.diff.rows[i];
        const struct clmem_result *r = row->base ? row->base : row->newer;
        if (strcmp(r->variant, expected[i].variant) != 0 ||
            (r->sweep[0] && r->sweep_value != expected[i].sweep_value) ||
            row->verdict != expected[i].verdict)
            fail_msg("row %zu: %s %u is %s, expected %s %u %s", i, r->variant, r->sweep_value,
                     clmem_verdict_name(row->verdict), expected[i].variant, expected[i].sweep_value,
                     clmem_verdict_name(expected[i].verdict));
        /* Only results verified on both sides have a ratio. */
        assert_true(isnan(row->ratio) == (row->verdict != CLMEM_VERDICT_SAME));
    }
    assert_int_equal(total(&l.diff), l.diff.n_rows);
    char summary[160];
    clmem_diff_summary(&l.diff, summary, sizeof summary);
    assert_string_equal(summary, "2 same, 4 new, 4 gone, 2 failed, 1 skipped");
    loaded_free(&l);
    diff_says(ARGS("diff", base, newer), CLMEM_DIFF_REGRESSION, ARGS("100 offset=3"));
    /* New, skipped and same alone are no regression. */
    // clang-format off
    const char *grown = write_text("grown.json",
        FILE_HEAD("gpu")
        OK("dot", "same", "") ","
        SKIPPED("dot", "skipped_both") ","
        OK("dot", "brand_new", "")
        FILE_TAIL);
    const char *small = write_text("small.json",
        FILE_HEAD("gpu")
        OK("dot", "same", "") ","
        SKIPPED("dot", "skipped_both")
        FILE_TAIL);
    // clang-format on
    diff_says(ARGS("diff", small, grown), 0, ARGS("1 same, 1 new, 1 skipped: no regression"));
    diff_says(ARGS("diff", grown, small), CLMEM_DIFF_REGRESSION,
              ARGS("1 same, 1 gone, 1 skipped: a regression"));
}

static void mpi_files_pair_by_rank_then_device(void **state)
{
    (void)state;
    const char *mpi = test_bench_file("h100-scale/mpi-bench.json");
    struct loaded l;
    diff_files(&l, mpi, mpi, CLMEM_DIFF_DEFAULT_THRESHOLD);
    assert_int_equal(l.diff.n_pairs, 2);
    for (size_t p = 0; p < 2; p++) {
        assert_string_equal(l.diff.pairs[p].paired_by, "rank");
        assert_int_equal(l.diff.pairs[p].base->rank, (int)p);
        assert_int_equal(l.diff.pairs[p].newer->rank, (int)p);
    }
    assert_int_equal(l.diff.counts[CLMEM_VERDICT_SAME], l.diff.n_rows);
    assert_int_equal(l.diff.n_rows, l.base[0].n_results + l.base[1].n_results);
    loaded_free(&l);

    /* The ranks written in the other order still pair rank with rank. */
    cJSON *root = test_read_json(mpi);
    cJSON *ranks = cJSON_GetObjectItem(root, "ranks");
    cJSON *first = cJSON_DetachItemFromArray(ranks, 0);
    cJSON_AddItemToArray(ranks, first);
    const char *swapped = test_write_json(test_in_dir("swapped.json"), root);
    cJSON_Delete(root);
    diff_files(&l, mpi, swapped, CLMEM_DIFF_DEFAULT_THRESHOLD);
    assert_int_equal(l.diff.n_pairs, 2);
    for (size_t p = 0; p < 2; p++)
        assert_int_equal(l.diff.pairs[p].newer->rank, l.diff.pairs[p].base->rank);
    assert_int_equal(l.diff.counts[CLMEM_VERDICT_SAME], l.diff.n_rows);
    loaded_free(&l);

    /* A one-device file against an MPI file: the H100 run pairs with rank
     * 0's H100 by its name; rank 1 has no partner, its results are new. */
    diff_files(&l, test_bench_file("h100.json"), mpi, CLMEM_DIFF_DEFAULT_THRESHOLD);
    assert_int_equal(l.diff.n_pairs, 2);
    assert_string_equal(l.diff.pairs[0].paired_by, "device name");
    assert_int_equal(l.diff.pairs[0].newer->rank, 0);
    assert_null(l.diff.pairs[1].base);
    assert_int_equal(l.diff.pairs[1].newer->rank, 1);
    for (size_t i = 0; i < l.diff.n_rows; i++)
        if (l.diff.rows[i].pair == 1)
            assert_int_equal(l.diff.rows[i].verdict, CLMEM_VERDICT_NEW);
    loaded_free(&l);
    diff_says(ARGS("diff", mpi, mpi), 0,
              ARGS("run #2, paired by rank:", "rank 1 on vm: cpu-skylake-avx512", "\n#2   "));
}

static void one_run_each_pairs_whatever_the_devices(void **state)
{
    (void)state;
    struct loaded l;
    diff_files(&l, test_bench_file("h100.json"), test_bench_file("pocl-2core.json"),
               CLMEM_DIFF_DEFAULT_THRESHOLD);
    assert_int_equal(l.diff.n_pairs, 1);
    assert_string_equal(l.diff.pairs[0].paired_by, "one run in each file");
    /* The CPU is slower at the sizes both ran. */
    assert_int_equal(find_row(&l.diff, "peak", "copy", "16777216")->verdict, CLMEM_VERDICT_SLOWER);
    loaded_free(&l);
}

/* No file at `path`, and no temporary file left in the test directory. */
static void assert_no_output(const char *path)
{
    struct stat st;
    assert_int_not_equal(stat(path, &st), 0);
    DIR *d = opendir(test_dir());
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)))
        if (strstr(e->d_name, ".tmp."))
            fail_msg("temporary file '%s' left behind", e->d_name);
    closedir(d);
}

/* The first byte of `text` that would drive a terminal: a C0 control
 * other than the line feed, DEL, a C1 control (U+0080..U+009F, UTF-8's
 * C2 80..9F), or a byte outside a UTF-8 sequence (a raw C1 among them);
 * NULL when none. Characters of two to four bytes (the report's ≈, ▲) are
 * stepped over whole. */
static const char *terminal_control(const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    while (*p) {
        size_t len = *p < 0x80                  ? 1
                     : *p >= 0xc2 && *p <= 0xdf ? 2
                     : *p >= 0xe0 && *p <= 0xef ? 3
                     : *p >= 0xf0 && *p <= 0xf4 ? 4
                                                : 0;
        if (!len || (len == 1 && ((*p < 0x20 && *p != '\n') || *p == 0x7f)) ||
            (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
            return (const char *)p;
        for (size_t i = 1; i < len; i++)
            if ((p[i] & 0xc0) != 0x80)
                return (const char *)p;
        p += len;
    }
    return NULL;
}

/* Names that forge lines on a terminal: a run file's device name, driver
 * and a variant with ESC sequences, CR LF, a C1 CSI and DEL. */
#define FORGED                                                                                     \
    "\x1b[2J\r\n181 same: no regression\x1b]0;title\x07\xc2\x9b"                                   \
    "31m\x7f"

/* diff's table and a run's table show such names escaped (\x1b, \x0d,
 * \u009b), every line its own: nothing reaches the terminal raw. */
static void control_characters_are_escaped_in_tables(void **state)
{
    (void)state;
    cJSON *root = test_read_json(test_bench_file("pocl-2core.json"));
    cJSON *device = cJSON_GetObjectItem(root, "device");
    cJSON_SetValuestring(cJSON_GetObjectItem(device, "name"), "cpu" FORGED);
    cJSON_SetValuestring(cJSON_GetObjectItem(device, "driver"), "3.1" FORGED);
    cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(root, "results"))
    {
        cJSON_SetValuestring(cJSON_GetObjectItem(r, "device"), "cpu" FORGED);
    }
    cJSON_SetValuestring(
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "results"), 0), "variant"),
        "co" FORGED);
    const char *forged = test_write_json(test_in_dir("forged.json"), root);
    cJSON_Delete(root);
    static struct outcome o, plain;
    run_clmem(&plain, NULL,
              ARGS("diff", test_bench_file("pocl-2core.json"), test_bench_file("pocl-2core.json")));
    run_clmem(&o, NULL, ARGS("diff", forged, forged));
    assert_int_equal(o.code, 0);
    const char *raw = terminal_control(o.out);
    if (raw)
        fail_msg("a control character (0x%02x) reaches the terminal: '%.120s'", (unsigned char)*raw,
                 raw > o.out + 40 ? raw - 40 : o.out);
    assert_int_equal(count_lines(o.out), count_lines(plain.out));
    assert_non_null(strstr(o.out, "cpu\\x1b[2J\\x0d\\x0a181 same"));
    assert_non_null(strstr(o.out, "\\u009b31m\\x7f"));

    /* compare's report.md, from the same file. */
    const char *report = test_in_dir("forged-report");
    run_clmem(&o, NULL, ARGS("compare", forged, "--output-dir", report));
    if (o.code != 0)
        fail_msg("compare: exit %d, stderr '%s'", o.code, o.err);
    char md_path[600];
    snprintf(md_path, sizeof md_path, "%s/report.md", report);
    char *md = read_all(md_path);
    raw = terminal_control(md);
    if (raw)
        fail_msg("report.md lets 0x%02x through: '%.120s'", (unsigned char)*raw,
                 raw > md + 40 ? raw - 40 : md);
    /* Its bracket escaped too: no Markdown link can start there. */
    assert_non_null(strstr(md, "\\x1b\\[2J"));
    free(md);
    test_remove_tree(report);

    /* run's table (clmem_report_table), as for results read back. */
    struct clmem_result result;
    memset(&result, 0, sizeof result);
    snprintf(result.workload, sizeof result.workload, "pi");
    snprintf(result.variant, sizeof result.variant, "v\x1b[1m");
    snprintf(result.device, sizeof result.device, "cpu" FORGED);
    snprintf(result.size, sizeof result.size, "64\r");
    snprintf(result.note, sizeof result.note, "note\n" FORGED);
    result.verified = 1;
    result.looped_ms = result.peak_fraction = result.baseline_fraction = NAN;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(clmem_report_table(f, &result, 1), CLMEM_OK);
    fclose(f);
    raw = terminal_control(text);
    if (raw)
        fail_msg("the table lets 0x%02x through: '%s'", (unsigned char)*raw, text);
    assert_int_equal(count_lines(text), 4);
    assert_non_null(strstr(text, "device: cpu\\x1b[2J\\x0d\\x0a181"));
    free(text);
}

static void bad_files_exit_2_and_write_nothing(void **state)
{
    (void)state;
    const char *subdir = test_in_dir("a-directory");
    mkdir(subdir, 0755);
    const struct {
        const char *path, *reason;
    } bad[] = {
        {write_text("empty.json", ""), "is empty"},
        {write_text("text.json", "hello, not json"), "not JSON"},
        {subdir, "Is a directory"},
        {write_text("newer.json", "{\"schema_version\": 99, \"clmem_version\": \"9.0\"}"),
         "newer than this clmem reads"},
        {test_in_dir("missing.json"), "No such file"},
    };
    const char *good = test_bench_file("h100.json");
    const char *report = test_in_dir("report.txt");
    static struct outcome o;
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(bad); i++)
        for (int side = 0; side < 2; side++) {
            const char *base = side ? good : bad[i].path, *newer = side ? bad[i].path : good;
            run_clmem(&o, NULL, ARGS("diff", base, newer, "--output", report));
            if (o.code != 2 || count_lines(o.err) != 1 || strncmp(o.err, "clmem: ", 7) != 0 ||
                !strstr(o.err, bad[i].path) || !strstr(o.err, bad[i].reason) || o.out[0])
                fail_msg("%s as %s: exit %d, stderr '%s', stdout '%.80s'", bad[i].path,
                         side ? "NEW" : "BASE", o.code, o.err, o.out);
            assert_no_output(report);
        }
    rmdir(subdir);
}

static void usage_errors_exit_2_with_one_line(void **state)
{
    (void)state;
    const char *h100 = test_bench_file("h100.json");
    /* A baseline the report must not replace. */
    char *text = read_all(h100);
    const char *copy = write_text("baseline.json", text);
    free(text);
    const struct {
        const char *const *args;
        const char *message;
    } cases[] = {
        {ARGS("diff"), "diff needs two run files"},
        {ARGS("diff", h100), "diff needs two run files"},
        {ARGS("diff", h100, h100, h100), "unexpected argument"},
        {ARGS("diff", h100, h100, "--frobnicate"), "unknown option '--frobnicate'"},
        {ARGS("diff", h100, h100, "-x"), "unknown option '-x'"},
        {ARGS("diff", h100, h100, "--threshold"), "needs a value"},
        {ARGS("diff", h100, h100, "--threshold", "abc"), "--threshold 'abc' is not a number"},
        {ARGS("diff", h100, h100, "--threshold", ""), "--threshold '' is not a number"},
        {ARGS("diff", h100, h100, "--threshold", "-1"), "--threshold '-1' is negative"},
        {ARGS("diff", h100, h100, "--threshold", "1000.5"), "'1000.5' is out of range"},
        {ARGS("diff", h100, h100, "--threshold", "nan"), "'nan' is not a number"},
        {ARGS("diff", h100, h100, "--threshold", "1e2"), "'1e2' is not a number"},
        {ARGS("diff", h100, h100, "--threshold", "0x10"), "'0x10' is not a number"},
        {ARGS("diff", h100, h100, "--threshold", "5%"), "'5%' is not a number"},
        {ARGS("diff", h100, h100, "--threshold", "1.2.3"), "'1.2.3' is not a number"},
        {ARGS("diff", h100, h100, "--format", "xml"), "unknown format 'xml'"},
        {ARGS("diff", h100, copy, "--output", copy), "would replace it"},
    };
    static struct outcome o;
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(cases); i++) {
        run_clmem(&o, NULL, cases[i].args);
        if (o.code != 2 || count_lines(o.err) != 1 || strncmp(o.err, "clmem: ", 7) != 0 ||
            !strstr(o.err, cases[i].message) || o.out[0])
            fail_msg("case %zu: exit %d, stderr '%s', stdout '%.80s'", i, o.code, o.err, o.out);
    }
    /* The baseline is still a run file. */
    diff_says(ARGS("diff", copy, h100, "--threshold", "0"), 0, NULL);
    diff_says(ARGS("diff", "--help"), 0,
              ARGS("usage: clmem diff BASE.json NEW.json", "4 a regression"));
}

/* The fields of one CSV line (commas inside quotes do not count). */
static size_t csv_fields(const char *line, size_t len)
{
    size_t n = 1;
    int quoted = 0;
    for (size_t i = 0; i < len; i++) {
        quoted ^= line[i] == '"';
        n += !quoted && line[i] == ',';
    }
    return n;
}

static void csv_and_json_read_back(void **state)
{
    (void)state;
    static const char header[] =
        "run,workload,variant,size,sweep,sweep_value,base_device,new_device,unit,base,new,ratio,"
        "verdict,base_median_ms,base_min_ms,base_max_ms,new_median_ms,new_min_ms,new_max_ms";
    const char *h100 = test_bench_file("h100.json");
    const char *slow = h100_with_regblock_at("slow-csv.json", 0.8);
    static struct outcome o;
    run_clmem(&o, NULL, ARGS("diff", h100, slow, "--format", "csv"));
    assert_int_equal(o.code, CLMEM_DIFF_REGRESSION);
    assert_memory_equal(o.out, header, strlen(header));
    assert_int_equal(count_lines(o.out), 1 + 182);
    size_t slower = 0;
    for (const char *line = o.out; *line;) {
        const char *end = strchr(line, '\n');
        assert_non_null(end);
        char text[1024];
        snprintf(text, sizeof text, "%.*s", (int)(end - line), line);
        assert_int_equal(csv_fields(text, strlen(text)), 19);
        if (strstr(text, ",slower,")) {
            slower++;
            /* Full precision: the metric as the file has it. */
            assert_non_null(strstr(text, "1,matmul,regblock,8192,,,NVIDIA H100 80GB HBM3,"
                                         "NVIDIA H100 80GB HBM3,GFLOP/s,48729.130581165962,"));
        }
        line = end + 1;
    }
    assert_int_equal(slower, 1);

    /* JSON, through --output: stdout keeps the summary line. */
    const char *report = test_in_dir("diff.json");
    run_clmem(&o, NULL, ARGS("diff", h100, slow, "--format", "json", "--output", report));
    assert_int_equal(o.code, CLMEM_DIFF_REGRESSION);
    assert_non_null(strstr(o.out, "181 same, 1 slower: a regression"));
    assert_int_equal(count_lines(o.out), 1);
    cJSON *root = test_read_json(report);
    assert_true(cJSON_GetObjectItem(root, "threshold_pct")->valuedouble == 5);
    cJSON *runs = cJSON_GetObjectItem(root, "runs");
    assert_int_equal(cJSON_GetArraySize(runs), 1);
    cJSON *base_run = cJSON_GetObjectItem(cJSON_GetArrayItem(runs, 0), "base");
    assert_string_equal(cJSON_GetObjectItem(base_run, "device")->valuestring,
                        "NVIDIA H100 80GB HBM3");
    assert_string_equal(cJSON_GetObjectItem(base_run, "file")->valuestring, h100);
    cJSON *results = cJSON_GetObjectItem(root, "results");
    assert_int_equal(cJSON_GetArraySize(results), 182);
    cJSON *summary = cJSON_GetObjectItem(root, "summary");
    assert_int_equal(cJSON_GetObjectItem(summary, "same")->valueint, 181);
    assert_int_equal(cJSON_GetObjectItem(summary, "slower")->valueint, 1);
    assert_int_equal(cJSON_GetObjectItem(summary, "gone")->valueint, 0);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(summary, "regression")));
    cJSON *r, *found = NULL;
    cJSON_ArrayForEach(r, results)
    {
        if (strcmp(cJSON_GetObjectItem(r, "verdict")->valuestring, "slower") == 0)
            found = r;
    }
    assert_non_null(found);
    assert_string_equal(cJSON_GetObjectItem(found, "variant")->valuestring, "regblock");
    assert_int_equal(cJSON_GetObjectItem(found, "run")->valueint, 1);
    assert_true(fabs(cJSON_GetObjectItem(found, "ratio")->valuedouble - 0.8) < 1e-9);
    assert_true(cJSON_GetObjectItem(found, "new_min_ms")->valuedouble >
                cJSON_GetObjectItem(found, "base_max_ms")->valuedouble);
    cJSON_Delete(root);
    unlink(report);
}

/* A run a signal stopped early ("interrupted": true) holds only what
 * finished: as BASE or NEW it fails the gate (exit 4), said as
 * incomplete; compare keeps the flag in its device-N.json. */
static void an_interrupted_run_fails_the_gate(void **state)
{
    (void)state;
    const char *good = test_bench_file("pocl-2core.json");
    cJSON *root = test_read_json(good);
    cJSON_AddTrueToObject(root, "interrupted");
    const char *stopped = test_write_json(test_in_dir("interrupted.json"), root);
    cJSON_Delete(root);
    const char *const sides[][2] = {{good, stopped}, {stopped, good}};
    for (size_t i = 0; i < 2; i++)
        diff_says(ARGS("diff", sides[i][0], sides[i][1]), CLMEM_DIFF_REGRESSION,
                  ARGS("167 same: incomplete: a run was interrupted", "run was interrupted"));
    const char *report = test_in_dir("interrupted-diff.json");
    diff_says(ARGS("diff", good, stopped, "--format", "json", "--output", report),
              CLMEM_DIFF_REGRESSION, ARGS("incomplete"));
    cJSON *diff = test_read_json(report);
    cJSON *summary = cJSON_GetObjectItem(diff, "summary");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(summary, "gate_fails")));
    assert_int_equal(cJSON_GetObjectItem(summary, "interrupted_runs")->valueint, 1);
    cJSON_Delete(diff);
    unlink(report);
    /* compare reads the flag and writes it back. */
    const char *dir = test_in_dir("interrupted-report");
    static struct outcome o;
    run_clmem(&o, NULL, ARGS("compare", stopped, "--output-dir", dir));
    if (o.code != 0)
        fail_msg("compare: exit %d, stderr '%s'", o.code, o.err);
    char path[600];
    snprintf(path, sizeof path, "%s/device-0.json", dir);
    cJSON *device = test_read_json(path);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(device, "interrupted")));
    cJSON_Delete(device);
    test_remove_tree(dir);
}

/* A result whose kernels did not build is FAILED with its error and no
 * measurement: the gate fails on it, whatever the threshold, and with
 * --workloads naming its workload alone. */
static void a_kernel_that_stops_building_fails_the_gate(void **state)
{
    (void)state;
    const char *good = test_bench_file("pocl-2core.json");
    cJSON *root = test_read_json(good);
    cJSON *r = find_json_result(root, "dot", "coarsened", "16777216");
    static const char *const measured[] = {"samples_ms", "median_ms", "min_ms",       "max_ms",
                                           "metric",     "verified",  "max_rel_error", "verify_scope",
                                           "timer",      "runs_per_sample", "peak_fraction",
                                           "baseline_fraction", "note", "energy"};
    for (size_t k = 0; k < CLMEM_ARRAY_SIZE(measured); k++)
        cJSON_DeleteItemFromObjectCaseSensitive(r, measured[k]);
    cJSON_ReplaceItemInObjectCaseSensitive(r, "status", cJSON_CreateString("FAILED"));
    cJSON_AddStringToObject(r, "error", "building 'dot.cl' failed with CL_BUILD_PROGRAM_FAILURE");
    const char *broken = test_write_json(test_in_dir("unbuilt.json"), root);
    cJSON_Delete(root);
    diff_says(ARGS("diff", good, broken, "--threshold", "1000"), CLMEM_DIFF_REGRESSION,
              ARGS("1 failed: a regression"));
    diff_says(ARGS("diff", good, broken, "--workloads", "dot"), CLMEM_DIFF_REGRESSION,
              ARGS("1 failed: a regression"));
}

/* The header says each run's build and driver, and that they differ
 * where they do: a change may then be clmem's or the driver's. */
static void builds_and_drivers_are_said(void **state)
{
    (void)state;
    const char *good = test_bench_file("pocl-2core.json");
    cJSON *root = test_read_json(good);
    cJSON_DeleteItemFromObjectCaseSensitive(root, "clmem_git");
    cJSON_AddStringToObject(root, "clmem_git", "abc1234-dirty");
    const char *rebuilt = test_write_json(test_in_dir("rebuilt.json"), root);
    cJSON *device = cJSON_GetObjectItem(root, "device");
    cJSON_ReplaceItemInObjectCaseSensitive(device, "driver", cJSON_CreateString("9.9"));
    const char *updated = test_write_json(test_in_dir("updated.json"), root);
    cJSON_Delete(root);
    diff_says(ARGS("diff", rebuilt, rebuilt), 0, ARGS("clmem 0.1.0 abc1234-dirty"));
    static struct outcome o;
    run_clmem(&o, NULL, ARGS("diff", rebuilt, rebuilt));
    assert_null(strstr(o.out, "differ"));
    diff_says(ARGS("diff", good, rebuilt), 0, ARGS("the builds differ"));
    diff_says(ARGS("diff", rebuilt, updated), 0, ARGS("the drivers differ"));
}

/* Whether the file at `path` is UTF-8 throughout. */
static void expect_utf8_file(const char *path)
{
    char *text = read_all(path);
    size_t bad_at;
    if (!clmem_utf8_valid(text, strlen(text), &bad_at))
        fail_msg("'%s' is not UTF-8 at byte %zu: '%.40s'", path, bad_at,
                 text + (bad_at > 20 ? bad_at - 20 : 0));
    free(text);
}

/* A name longer than clmem keeps (a device's 127 bytes) is cut between
 * characters, never inside one: diff's JSON and compare's device-N.json,
 * results.csv and report.html stay UTF-8. */
static void names_cut_short_stay_utf8(void **state)
{
    (void)state;
    char name[300];
    /* 126 bytes, then a euro sign (3 bytes) across the 127-byte limit. */
    memset(name, 'a', 126);
    snprintf(name + 126, sizeof name - 126, "\xe2\x82\xac and more");
    cJSON *root = test_read_json(test_bench_file("pocl-2core.json"));
    cJSON_SetValuestring(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "device"), "name"), name);
    cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(root, "results"))
    {
        cJSON_SetValuestring(cJSON_GetObjectItem(r, "device"), name);
    }
    const char *file = test_write_json(test_in_dir("long-name.json"), root);
    cJSON_Delete(root);
    const char *report = test_in_dir("long-name-diff.json");
    diff_says(ARGS("diff", file, file, "--format", "json", "--output", report), 0, NULL);
    expect_utf8_file(report);
    unlink(report);
    const char *dir = test_in_dir("long-name-report");
    static struct outcome o;
    run_clmem(&o, NULL, ARGS("compare", file, "--output-dir", dir));
    if (o.code != 0)
        fail_msg("compare: exit %d, stderr '%s'", o.code, o.err);
    const char *const files[] = {"device-0.json", "results.csv", "report.html", "report.md"};
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(files); i++) {
        char path[600];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        expect_utf8_file(path);
    }
    test_remove_tree(dir);
    /* The helper itself: a cut lands before the character it would split. */
    char out[8];
    assert_int_equal(clmem_text_copy(out, 5, "abc\xe2\x82\xac"), 3);
    assert_string_equal(out, "abc");
    assert_int_equal(clmem_text_copy(out, 7, "abc\xe2\x82\xac"), 6);
    assert_int_equal(clmem_text_format(out, 6, "%s", "ab\xf0\x9f\x98\x80"), 6);
    assert_string_equal(out, "ab");
}

/* 40,000 results against the same in reverse order: matched by sorting,
 * within a second or two of CPU (a scan of every pair took 30 s of CPU,
 * 73 s on a loaded machine), every pair found. */
static void matching_many_results_is_not_quadratic(void **state)
{
    (void)state;
    const size_t n = 40000;
    struct clmem_compare_device base = {.rank = -1}, newer = {.rank = -1};
    base.results = calloc(n, sizeof *base.results);
    newer.results = calloc(n, sizeof *newer.results);
    assert_non_null(base.results);
    assert_non_null(newer.results);
    static const char *const workloads[] = {"matmul", "transpose", "reduce", "dot"};
    for (size_t i = 0; i < n; i++) {
        struct clmem_result *r = &base.results[i];
        snprintf(r->workload, sizeof r->workload, "%s", workloads[i % 4]);
        snprintf(r->variant, sizeof r->variant, "v%zu", i % 50);
        snprintf(r->size, sizeof r->size, "%zu", 1000 + i);
        r->verified = 1;
        r->metric = 10;
        r->median_ms = r->min_ms = r->max_ms = 1;
        newer.results[n - 1 - i] = *r;
    }
    base.n_results = newer.n_results = n;
    struct clmem_diff diff;
    struct clmem_error err = {0};
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    assert_int_equal(clmem_diff_runs(&base, 1, &newer, 1, 5, &diff, &err), CLMEM_OK);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double cpu_s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    print_message("%zu results matched in %.3f s of CPU\n", n, cpu_s);
    assert_int_equal(diff.n_rows, n);
    assert_int_equal(diff.counts[CLMEM_VERDICT_SAME], n);
    /* Linear: ~0.1 s of CPU here, 2 s under AddressSanitizer; quadratic
     * matching took minutes. The bound leaves a sanitizer build 5x room. */
#if defined(__SANITIZE_ADDRESS__)
    assert_true(cpu_s < 10.0);
#else
    assert_true(cpu_s < 2.0);
#endif
    clmem_diff_free(&diff);
    free(base.results);
    free(newer.results);
}

static double cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* 80,000 workloads of one result each, half of them in both runs: BASE's
 * others not run in NEW, NEW's others new; then --workloads naming 40,000
 * of them. Each within MANY_WORKLOADS_CPU_S of CPU (a scan of the names
 * for each result took 89 s for the diff, a scan of the list for each row
 * as long), every verdict where it belongs. */
#define MANY_WORKLOADS       80000
#define MANY_WORKLOADS_CPU_S 5.0
static void many_workloads_are_not_quadratic(void **state)
{
    (void)state;
    const size_t n = MANY_WORKLOADS, half = n / 2;
    struct clmem_compare_device base = {.rank = -1}, newer = {.rank = -1};
    base.results = calloc(n, sizeof *base.results);
    newer.results = calloc(n, sizeof *newer.results);
    assert_non_null(base.results);
    assert_non_null(newer.results);
    for (size_t i = 0; i < n; i++) {
        struct clmem_result *r = &base.results[i];
        snprintf(r->workload, sizeof r->workload, "w%06zu", i);
        snprintf(r->variant, sizeof r->variant, "v");
        snprintf(r->size, sizeof r->size, "7");
        r->verified = 1;
        r->metric = 10;
        r->median_ms = r->min_ms = r->max_ms = 1;
        /* NEW: workloads half..half+n, in reverse order. */
        newer.results[n - 1 - i] = *r;
        snprintf(newer.results[n - 1 - i].workload, sizeof r->workload, "w%06zu", half + i);
    }
    base.n_results = newer.n_results = n;
    struct clmem_diff diff;
    struct clmem_error err = {0};
    double t0 = cpu_s();
    assert_int_equal(clmem_diff_runs(&base, 1, &newer, 1, 5, &diff, &err), CLMEM_OK);
    double diffed = cpu_s() - t0;
    assert_int_equal(diff.n_rows, n + half);
    assert_int_equal(diff.counts[CLMEM_VERDICT_SAME], half);
    assert_int_equal(diff.counts[CLMEM_VERDICT_NOT_RUN], half);
    assert_int_equal(diff.counts[CLMEM_VERDICT_NEW], half);
    /* --workloads: every other one of BASE's, some twice. */
    size_t size = half * 8 + 64, used = 0;
    char *list = malloc(size);
    assert_non_null(list);
    for (size_t i = 0; i < n; i += 2)
        used += (size_t)snprintf(list + used, size - used, "%sw%06zu", i ? "," : "", i);
    snprintf(list + used, size - used, ",w000000,w000002");
    t0 = cpu_s();
    assert_int_equal(clmem_diff_only(&diff, list, &err), CLMEM_OK);
    double filtered = cpu_s() - t0;
    print_message("%zu workloads diffed in %.3f s of CPU, kept by a list of %zu in %.3f s\n", n,
                  diffed, half, filtered);
    assert_int_equal(diff.n_rows, half);
    assert_int_equal(diff.counts[CLMEM_VERDICT_SAME], half / 2);
    assert_int_equal(diff.counts[CLMEM_VERDICT_NOT_RUN], half / 2);
    assert_int_equal(diff.counts[CLMEM_VERDICT_NEW], 0);
    if (diffed > MANY_WORKLOADS_CPU_S || filtered > MANY_WORKLOADS_CPU_S)
        fail_msg("%zu workloads: diffed in %.1f s, filtered in %.1f s of CPU, over %.0f s", n,
                 diffed, filtered, MANY_WORKLOADS_CPU_S);
    free(list);
    clmem_diff_free(&diff);
    free(base.results);
    free(newer.results);
}

/* A name that is a Markdown link ([text](url), ![img](url)) reaches
 * report.md as text, its brackets escaped. */
static void markdown_links_in_names_are_escaped(void **state)
{
    (void)state;
    cJSON *root = test_read_json(test_bench_file("pocl-2core.json"));
    const char *name = "[click me](http://evil.example/) ![x](http://evil.example/x.png)";
    cJSON_SetValuestring(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "device"), "name"), name);
    const char *file = test_write_json(test_in_dir("link-name.json"), root);
    cJSON_Delete(root);
    const char *dir = test_in_dir("link-report");
    static struct outcome o;
    run_clmem(&o, NULL, ARGS("compare", file, "--output-dir", dir));
    if (o.code != 0)
        fail_msg("compare: exit %d, stderr '%s'", o.code, o.err);
    char path[600];
    snprintf(path, sizeof path, "%s/report.md", dir);
    char *md = read_all(path);
    const char *live = strstr(md, "](http://evil");
    if (live && (live == md || live[-1] != '\\'))
        fail_msg("a link reaches report.md: '%.60s'", live > md + 20 ? live - 20 : md);
    assert_non_null(strstr(md, "\\[click me\\](http://evil.example/)"));
    free(md);
    test_remove_tree(dir);
}

int main(int argc, char **argv)
{
    /* One test by name (or a pattern): test_NAME TEST. */
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_run_against_itself_is_all_same),
        cmocka_unit_test(a_planted_slowdown_is_slower_and_exits_4),
        cmocka_unit_test(a_3_percent_change_is_within_the_default_threshold),
        cmocka_unit_test(a_change_inside_the_runs_spread_is_same),
        cmocka_unit_test(every_verdict_where_it_belongs),
        cmocka_unit_test(mpi_files_pair_by_rank_then_device),
        cmocka_unit_test(one_run_each_pairs_whatever_the_devices),
        cmocka_unit_test(bad_files_exit_2_and_write_nothing),
        cmocka_unit_test(control_characters_are_escaped_in_tables),
        cmocka_unit_test(usage_errors_exit_2_with_one_line),
        cmocka_unit_test(unknown_workloads_are_refused),
        cmocka_unit_test(csv_and_json_read_back),
        cmocka_unit_test(an_interrupted_run_fails_the_gate),
        cmocka_unit_test(a_kernel_that_stops_building_fails_the_gate),
        cmocka_unit_test(builds_and_drivers_are_said),
        cmocka_unit_test(names_cut_short_stay_utf8),
        cmocka_unit_test(matching_many_results_is_not_quadratic),
        cmocka_unit_test(many_workloads_are_not_quadratic),
        cmocka_unit_test(markdown_links_in_names_are_escaped),
    };
    return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
