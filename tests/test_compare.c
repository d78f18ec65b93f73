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
    /* The live device's JSON: the CPU sizes of transpose. */
    char *json = compared(NULL,
                          ARGS("compare", test_bench_file("h100.json"), "--devices", "cpu",
                               "--workloads", "transpose", "--reps", "1", "--output-dir", out),
                          out, 2, "device-1.json");
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
        {"cut.json", "{\"clmem_version\": \"0.1.0\", \"results\": [", "truncated"},
        {"newer.json", "{\"schema_version\": 99, \"clmem_version\": \"9.0\"}", "newer than"},
        {"none.json",
         "{\"clmem_version\": \"0.1.0\", \"device\": {\"name\": \"d\"}, \"results\": []}",
         "holds no results"},
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
    if (test_dir_setup(state))
        return -1;
    snprintf(empty_vendors, sizeof empty_vendors, "%s", test_in_dir("no-drivers"));
    return mkdir(empty_vendors, 0700);
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
    return cmocka_run_group_tests(tests, setup, test_dir_teardown);
}
