/* clmem compare FILE...: saved run files of other machines in one report,
 * with no device needed, mixed with a live PoCL device; every bad file
 * refused before anything is written; live devices at common sizes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tmpdir.h"

#include "cli_run.h"
#include "harness/harness.h"
#include "report/report.h"
#include "pocl.h"

static char dir[] = "/tmp/clmem-compare-XXXXXX";
static char empty_vendors[1100]; /* an ICD directory with no driver: no device at all */

static const char *in_dir(const char *name)
{
    static char paths[4][1100];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, sizeof paths[0], "%s/%s", dir, name);
    return p;
}

static const char *bench_file(const char *name)
{
    static char paths[4][1024];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, sizeof paths[0], "%s/%s", getenv("CLMEM_BENCH_DIR"), name);
    return p;
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static void saved_files_need_no_device(void **state)
{
    (void)state;
    struct outcome o;
    const char *out = in_dir("saved");
    /* No OpenCL driver at all: reading files must not open one. */
    run_clmem(&o, ARGS("OCL_ICD_VENDORS", empty_vendors),
              ARGS("compare", bench_file("h100.json"), bench_file("pocl-2core.json"),
                   bench_file("h100-scale/mpi-bench.json"), "--output-dir", out));
    if (o.code != 0)
        fail_msg("exit %d: %s", o.code, o.err);
    assert_non_null(strstr(o.out, "report for 4 device(s)"));
    char report[65536];
    slurp(in_dir("saved/report.md"), report, sizeof report);
    assert_non_null(strstr(report, "NVIDIA H100 80GB HBM3"));
    assert_non_null(strstr(report, "pthread-"));
    assert_true(exists(in_dir("saved/device-3.json")));
}

static void live_devices_join_saved_files(void **state)
{
    (void)state;
    struct outcome o;
    const char *out = in_dir("mixed");
    run_clmem(&o, NULL,
              ARGS("compare", bench_file("h100.json"), "--devices", "cpu", "--workloads",
                   "transpose", "--reps", "1", "--output-dir", out));
    if (o.code != 0)
        fail_msg("exit %d: %s", o.code, o.err);
    assert_non_null(strstr(o.out, "report for 2 device(s)"));
    /* The live device's JSON: the CPU sizes of transpose. */
    char json[262144];
    slurp(in_dir("mixed/device-1.json"), json, sizeof json);
    assert_non_null(strstr(json, "\"transpose\""));
    assert_non_null(strstr(json, "\"2048\""));
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
        {"cut.json", "{\"clmem_version\": \"0.1.0\", \"results\": [", "truncated"},
        {"newer.json", "{\"schema_version\": 99, \"clmem_version\": \"9.0\"}", "newer than"},
        {"none.json",
         "{\"clmem_version\": \"0.1.0\", \"device\": {\"name\": \"d\"}, \"results\": []}",
         "holds no results"},
    };
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(cases); i++) {
        const char *path = in_dir(cases[i].name);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(cases[i].text, f);
        fclose(f);
        const char *out = in_dir("never");
        struct outcome o;
        /* The good file first: a bad one after it still stops everything. */
        run_clmem(&o, NULL,
                  ARGS("compare", bench_file("h100.json"), path, "--devices", "cpu", "--output-dir",
                       out));
        assert_int_equal(o.code, 2);
        if (!strstr(o.err, path) || !strstr(o.err, cases[i].reason))
            fail_msg("%s: expected '%s' in: %s", cases[i].name, cases[i].reason, o.err);
        assert_int_equal(count_lines(o.err), 1);
        assert_false(exists(out));
    }
    struct outcome o;
    run_clmem(&o, NULL, ARGS("compare", dir, "--output-dir", in_dir("never")));
    assert_int_equal(o.code, 2);
    assert_non_null(strstr(o.err, "Is a directory"));
    assert_false(exists(in_dir("never")));
    run_clmem(&o, NULL, ARGS("compare", bench_file("h100.json"), "--sizes", "huge"));
    assert_int_equal(o.code, 2);
    assert_non_null(strstr(o.err, "unknown --sizes 'huge'"));
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

static int setup(void **state)
{
    (void)state;
    if (test_tmpdir_make(dir))
        return -1;
    snprintf(empty_vendors, sizeof empty_vendors, "%s/no-drivers", dir);
    return mkdir(empty_vendors, 0700);
}

static int teardown(void **state)
{
    (void)state;
    return test_remove_tree(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(saved_files_need_no_device),
        cmocka_unit_test(bad_files_write_nothing),
        cmocka_unit_test(live_devices_join_saved_files),
        cmocka_unit_test_setup_teardown(bench_takes_the_sizes_it_is_given, test_setup_device,
                                        test_teardown_device),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
