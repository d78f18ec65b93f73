/* libclmem as a program sees it: the public header alone, linked to the
 * shared library. First every function clmem.h declares called wrongly
 * (NULL handles, out-of-range numbers, unknown names): a status function
 * answers CLMEM_ERR_USAGE with a message, a pointer one NULL, a number
 * NAN, a release of NULL nothing, and none crashes; a case per function,
 * and the list of cases checked against the header's declarations
 * ($CLMEM_HEADER), so that a function added without one fails here. Then a
 * workload run on PoCL ($CLMEM_TEST_DEVICE, else "cpu") through the
 * handles: options set by name, results read by field, the peaks applied,
 * a run file written, read back and compared. */
#include <clmem/clmem.h>

#include "tmpdir.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* A usage error whose message names `what` (the function, the argument
 * or the option); the record cleared for the next call. */
static void refused(int status, struct clmem_error *err, const char *what)
{
    assert_int_equal(status, CLMEM_ERR_USAGE);
    if (!strstr(err->message, what))
        fail_msg("message '%s' does not name '%s'", err->message, what);
    clmem_error_clear(err);
}

#define MISUSE(f) static void misuse_##f(void **state)
#define UNUSED    (void)state

MISUSE(clmem_error_clear)
{
    UNUSED;
    clmem_error_clear(NULL);
}

MISUSE(clmem_devices_list)
{
    UNUSED;
    struct clmem_error err = {0};
    struct clmem_device *devices = NULL;
    size_t count = 0;
    refused(clmem_devices_list(NULL, NULL, &err), &err, "clmem_devices_list");
    refused(clmem_devices_list(&devices, NULL, &err), &err, "count");
    assert_int_equal(clmem_devices_list(&devices, &count, NULL), CLMEM_ERR_USAGE);
}

MISUSE(clmem_devices_select)
{
    UNUSED;
    struct clmem_error err = {0};
    size_t chosen;
    refused(clmem_devices_select("cpu", NULL, 3, &chosen, &err), &err, "devices");
    refused(clmem_devices_select("cpu", NULL, 0, NULL, &err), &err, "chosen");
}

MISUSE(clmem_device_at)
{
    UNUSED;
    assert_null(clmem_device_at(NULL, 5, 0));
}

MISUSE(clmem_device_text)
{
    UNUSED;
    assert_null(clmem_device_text(NULL, "name"));
}

MISUSE(clmem_device_id)
{
    UNUSED;
    assert_null(clmem_device_id(NULL));
}

MISUSE(clmem_device_type_name)
{
    UNUSED;
    assert_string_equal(clmem_device_type_name(0), "other");
}

MISUSE(clmem_ctx_create)
{
    UNUSED;
    struct clmem_error err = {0};
    struct clmem_ctx *ctx = (struct clmem_ctx *)&err; /* not left as it was */
    refused(clmem_ctx_create(NULL, NULL, &ctx, &err), &err, "device");
    assert_null(ctx);
    refused(clmem_ctx_create(NULL, NULL, NULL, &err), &err, "clmem_ctx_create");
}

MISUSE(clmem_ctx_release)
{
    UNUSED;
    clmem_ctx_release(NULL);
}

MISUSE(clmem_workloads)
{
    UNUSED;
    assert_null(clmem_workloads(NULL));
}

MISUSE(clmem_workload_find)
{
    UNUSED;
    assert_null(clmem_workload_find(NULL));
    assert_null(clmem_workload_find("matmull"));
}

MISUSE(clmem_workload_text)
{
    UNUSED;
    assert_null(clmem_workload_text(NULL, "name"));
    assert_null(clmem_workload_text(clmem_workload_find("dot"), NULL));
    assert_null(clmem_workload_text(clmem_workload_find("dot"), "no_such_field"));
}

MISUSE(clmem_workload_variants)
{
    UNUSED;
    assert_int_equal(clmem_workload_variants(NULL), 0);
}

MISUSE(clmem_variant_text)
{
    UNUSED;
    const struct clmem_workload *w = clmem_workload_find("matmul");
    assert_null(clmem_variant_text(w, 9999, "name"));
    assert_null(clmem_variant_text(w, clmem_workload_variants(w), "name"));
    assert_null(clmem_variant_text(NULL, 0, "name"));
}

MISUSE(clmem_result_at)
{
    UNUSED;
    assert_null(clmem_result_at(NULL, 5, 0));
}

MISUSE(clmem_result_text)
{
    UNUSED;
    assert_null(clmem_result_text(NULL, "variant"));
}

MISUSE(clmem_result_number)
{
    UNUSED;
    assert_true(isnan(clmem_result_number(NULL, "metric")));
}

MISUSE(clmem_result_status)
{
    UNUSED;
    assert_null(clmem_result_status(NULL));
}

MISUSE(clmem_results_free)
{
    UNUSED;
    clmem_results_free(NULL, 5);
}

MISUSE(clmem_run_options_create)
{
    UNUSED;
    struct clmem_error err = {0};
    refused(clmem_run_options_create(NULL, &err), &err, "clmem_run_options_create");
}

/* The CLI's ranges and forms: reps 1 to 100000, warmup 0 to 100 (4e9 once
 * ran for ever), digits alone. */
MISUSE(clmem_run_options_set)
{
    UNUSED;
    struct clmem_error err = {0};
    struct clmem_run_options *o = NULL;
    refused(clmem_run_options_set(NULL, "reps", "5", &err), &err, "clmem_run_options_set");
    assert_int_equal(clmem_run_options_create(&o, &err), CLMEM_OK);
    refused(clmem_run_options_set(o, "warmup", "4000000000", &err), &err, "warmup");
    refused(clmem_run_options_set(o, "warmup", "101", &err), &err, "0 to 100");
    refused(clmem_run_options_set(o, "reps", "0", &err), &err, "1 to 100000");
    refused(clmem_run_options_set(o, "reps", "100001", &err), &err, "reps");
    refused(clmem_run_options_set(o, "reps", " 5", &err), &err, "whole number");
    refused(clmem_run_options_set(o, "reps", "-1", &err), &err, "whole number");
    refused(clmem_run_options_set(o, "seed", "18446744073709551616", &err), &err, "seed");
    refused(clmem_run_options_set(o, "reps", NULL, &err), &err, "needs a value");
    refused(clmem_run_options_set(o, "repz", "5", &err), &err, "unknown option 'repz'");
    refused(clmem_run_options_set(o, NULL, "5", &err), &err, "unknown option");
    assert_int_equal(clmem_run_options_set(o, "seed", "18446744073709551615", &err), CLMEM_OK);
    clmem_run_options_release(o);
}

MISUSE(clmem_run_options_set_callbacks)
{
    UNUSED;
    struct clmem_error err = {0};
    refused(clmem_run_options_set_callbacks(NULL, NULL, NULL, NULL, &err), &err, "options");
}

MISUSE(clmem_run_options_set_done)
{
    UNUSED;
    struct clmem_error err = {0};
    refused(clmem_run_options_set_done(NULL, NULL, NULL, &err), &err, "options");
}

MISUSE(clmem_run_options_release)
{
    UNUSED;
    clmem_run_options_release(NULL);
}

MISUSE(clmem_run)
{
    UNUSED;
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    const struct clmem_workload *w = clmem_workload_find("dot");
    refused(clmem_run(NULL, w, NULL, &results, &n, &err), &err, "'ctx' is NULL");
    assert_int_equal(clmem_run(NULL, w, NULL, &results, &n, NULL), CLMEM_ERR_USAGE);
    assert_null(results);
}

MISUSE(clmem_peak_create)
{
    UNUSED;
    struct clmem_error err = {0};
    refused(clmem_peak_create(NULL, &err), &err, "clmem_peak_create");
}

MISUSE(clmem_peak_number)
{
    UNUSED;
    struct clmem_error err = {0};
    struct clmem_peak *peak = NULL;
    assert_true(isnan(clmem_peak_number(NULL, "fp32_gflops")));
    assert_int_equal(clmem_peak_create(&peak, &err), CLMEM_OK);
    assert_true(isnan(clmem_peak_number(peak, "flops")));
    assert_true(clmem_peak_number(peak, "fp32_gflops") == 0);
    clmem_peak_release(peak);
}

MISUSE(clmem_peak_release)
{
    UNUSED;
    clmem_peak_release(NULL);
}

MISUSE(clmem_peak_measure)
{
    UNUSED;
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    refused(clmem_peak_measure(NULL, 5, NULL, &results, &n, &err), &err, "clmem_peak_measure");
}

MISUSE(clmem_results_apply_peak)
{
    UNUSED;
    struct clmem_error err = {0};
    struct clmem_peak *peak = NULL;
    assert_int_equal(clmem_peak_create(&peak, &err), CLMEM_OK);
    assert_int_equal(clmem_results_apply_peak(NULL, 5, peak), CLMEM_ERR_USAGE);
    assert_int_equal(clmem_results_apply_peak(NULL, 0, NULL), CLMEM_ERR_USAGE);
    assert_int_equal(clmem_results_apply_peak(NULL, 0, peak), CLMEM_OK);
    clmem_peak_release(peak);
}

MISUSE(clmem_bench_options_create)
{
    UNUSED;
    struct clmem_error err = {0};
    refused(clmem_bench_options_create(NULL, &err), &err, "clmem_bench_options_create");
}

MISUSE(clmem_bench_options_set)
{
    UNUSED;
    struct clmem_error err = {0};
    struct clmem_bench_options *o = NULL;
    refused(clmem_bench_options_set(NULL, "reps", "5", &err), &err, "clmem_bench_options_set");
    assert_int_equal(clmem_bench_options_create(&o, &err), CLMEM_OK);
    refused(clmem_bench_options_set(o, "sizes", "tpu", &err), &err, "gpu, cpu or accelerator");
    refused(clmem_bench_options_set(o, "reps", "100001", &err), &err, "reps");
    refused(clmem_bench_options_set(o, "warmup", "1", &err), &err, "unknown option 'warmup'");
    assert_int_equal(clmem_bench_options_set(o, "sizes", NULL, &err), CLMEM_OK);
    clmem_bench_options_release(o);
}

MISUSE(clmem_bench_options_set_callbacks)
{
    UNUSED;
    struct clmem_error err = {0};
    refused(clmem_bench_options_set_callbacks(NULL, NULL, NULL, NULL, &err), &err, "options");
}

MISUSE(clmem_bench_options_set_done)
{
    UNUSED;
    struct clmem_error err = {0};
    refused(clmem_bench_options_set_done(NULL, NULL, NULL, &err), &err, "options");
}

MISUSE(clmem_bench_options_release)
{
    UNUSED;
    clmem_bench_options_release(NULL);
}

MISUSE(clmem_bench_plan)
{
    UNUSED;
    struct clmem_error err = {0};
    size_t steps;
    refused(clmem_bench_plan(NULL, NULL, &steps, &err), &err, "clmem_bench_plan");
}

MISUSE(clmem_bench_run)
{
    UNUSED;
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    refused(clmem_bench_run(NULL, NULL, NULL, &results, &n, &err), &err, "clmem_bench_run");
}

MISUSE(clmem_format_parse)
{
    UNUSED;
    struct clmem_error err = {0};
    enum clmem_format format;
    refused(clmem_format_parse(NULL, &format, &err), &err, "clmem_format_parse");
    refused(clmem_format_parse("csv", NULL, &err), &err, "format");
    refused(clmem_format_parse("yaml", &format, &err), &err, "unknown format 'yaml'");
}

MISUSE(clmem_report_meta_create)
{
    UNUSED;
    struct clmem_error err = {0};
    refused(clmem_report_meta_create(NULL, NULL, NULL, &err), &err, "clmem_report_meta_create");
}

MISUSE(clmem_report_meta_release)
{
    UNUSED;
    clmem_report_meta_release(NULL);
}

/* An unknown format once wrote nothing and said nothing: refused now. */
MISUSE(clmem_report_write)
{
    UNUSED;
    struct clmem_error err = {0};
    FILE *out = tmpfile();
    assert_non_null(out);
    refused(clmem_report_write(NULL, CLMEM_FORMAT_CSV, NULL, 0, NULL, &err), &err, "'out'");
    refused(clmem_report_write(out, (enum clmem_format)7, NULL, 0, NULL, &err), &err,
            "unknown format 7");
    refused(clmem_report_write(out, CLMEM_FORMAT_CSV, NULL, 5, NULL, &err), &err, "results");
    assert_int_equal(ftell(out), 0);
    fclose(out);
}

MISUSE(clmem_runfile_load)
{
    UNUSED;
    struct clmem_error err = {0};
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    refused(clmem_runfile_load(NULL, &runs, &n, &err), &err, "path");
    refused(clmem_runfile_load("x.json", NULL, &n, &err), &err, "runs");
}

MISUSE(clmem_runfile_results)
{
    UNUSED;
    size_t n = 7;
    assert_null(clmem_runfile_results(NULL, 3, 0, &n));
    assert_int_equal(n, 0);
}

MISUSE(clmem_compare_devices_free)
{
    UNUSED;
    clmem_compare_devices_free(NULL, 5);
}

#define CASE(f) cmocka_unit_test(misuse_##f)
static const struct CMUnitTest misuse_cases[] = {
    CASE(clmem_error_clear),
    CASE(clmem_devices_list),
    CASE(clmem_devices_select),
    CASE(clmem_device_at),
    CASE(clmem_device_text),
    CASE(clmem_device_id),
    CASE(clmem_device_type_name),
    CASE(clmem_ctx_create),
    CASE(clmem_ctx_release),
    CASE(clmem_workloads),
    CASE(clmem_workload_find),
    CASE(clmem_workload_text),
    CASE(clmem_workload_variants),
    CASE(clmem_variant_text),
    CASE(clmem_result_at),
    CASE(clmem_result_text),
    CASE(clmem_result_number),
    CASE(clmem_result_status),
    CASE(clmem_results_free),
    CASE(clmem_run_options_create),
    CASE(clmem_run_options_set),
    CASE(clmem_run_options_set_callbacks),
    CASE(clmem_run_options_set_done),
    CASE(clmem_run_options_release),
    CASE(clmem_run),
    CASE(clmem_peak_create),
    CASE(clmem_peak_number),
    CASE(clmem_peak_release),
    CASE(clmem_peak_measure),
    CASE(clmem_results_apply_peak),
    CASE(clmem_bench_options_create),
    CASE(clmem_bench_options_set),
    CASE(clmem_bench_options_set_callbacks),
    CASE(clmem_bench_options_set_done),
    CASE(clmem_bench_options_release),
    CASE(clmem_bench_plan),
    CASE(clmem_bench_run),
    CASE(clmem_format_parse),
    CASE(clmem_report_meta_create),
    CASE(clmem_report_meta_release),
    CASE(clmem_report_write),
    CASE(clmem_runfile_load),
    CASE(clmem_runfile_results),
    CASE(clmem_compare_devices_free),
};
#define MISUSE_PREFIX "misuse_"

static int has_case(const char *name)
{
    for (size_t i = 0; i < sizeof misuse_cases / sizeof misuse_cases[0]; i++)
        if (strcmp(misuse_cases[i].name + strlen(MISUSE_PREFIX), name) == 0)
            return 1;
    return 0;
}

/* The function a line "CLMEM_API ... clmem_NAME(" declares, into name. */
static int declared_name(const char *line, char *name, size_t size)
{
    if (strncmp(line, "CLMEM_API ", 10) != 0)
        return 0;
    for (const char *p = strstr(line, "clmem_"); p; p = strstr(p + 1, "clmem_")) {
        size_t len = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_");
        if (p[len] == '(' && len < size) {
            memcpy(name, p, len);
            name[len] = '\0';
            return 1;
        }
    }
    return 0;
}

/* Every function the header declares has its case, and every case a
 * function: a function added without one fails here. */
static void every_function_has_a_case(void **state)
{
    UNUSED;
    const char *header = getenv("CLMEM_HEADER");
    assert_non_null(header);
    char *text = test_read_file(header);
    assert_non_null(text);
    size_t declared = 0;
    char name[128];
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (!declared_name(line, name, sizeof name))
            continue;
        declared++;
        if (!has_case(name))
            fail_msg("%s declares %s, which has no misuse case here", header, name);
    }
    free(text);
    assert_int_equal(declared, sizeof misuse_cases / sizeof misuse_cases[0]);
}

/* Without an error record (err NULL) as well: each status function called
 * with NULL for every pointer answers CLMEM_ERR_USAGE, and none crashes. */
static void misuse_without_an_error_record(void **state)
{
    UNUSED;
    enum clmem_format format;
    size_t n, chosen;
    const int status[] = {
        clmem_devices_list(NULL, NULL, NULL),
        clmem_devices_select("cpu", NULL, 3, &chosen, NULL),
        clmem_ctx_create(NULL, NULL, NULL, NULL),
        clmem_run_options_create(NULL, NULL),
        clmem_run_options_set(NULL, "reps", "5", NULL),
        clmem_run_options_set_callbacks(NULL, NULL, NULL, NULL, NULL),
        clmem_run_options_set_done(NULL, NULL, NULL, NULL),
        clmem_run(NULL, NULL, NULL, NULL, NULL, NULL),
        clmem_peak_create(NULL, NULL),
        clmem_peak_measure(NULL, 5, NULL, NULL, NULL, NULL),
        clmem_bench_options_create(NULL, NULL),
        clmem_bench_options_set(NULL, "reps", "5", NULL),
        clmem_bench_options_set_callbacks(NULL, NULL, NULL, NULL, NULL),
        clmem_bench_options_set_done(NULL, NULL, NULL, NULL),
        clmem_bench_plan(NULL, NULL, &n, NULL),
        clmem_bench_run(NULL, NULL, NULL, NULL, NULL, NULL),
        clmem_format_parse(NULL, &format, NULL),
        clmem_report_meta_create(NULL, NULL, NULL, NULL),
        clmem_report_write(NULL, CLMEM_FORMAT_CSV, NULL, 0, NULL, NULL),
        clmem_runfile_load(NULL, NULL, NULL, NULL),
    };
    for (size_t i = 0; i < sizeof status / sizeof *status; i++)
        if (status[i] != CLMEM_ERR_USAGE)
            fail_msg("call %zu with err NULL: status %d", i, status[i]);
}

/* ---- a program's run on PoCL ---- */
struct fixture {
    struct clmem_device *devices;
    const struct clmem_device *device;
    struct clmem_ctx *ctx;
};
static struct fixture fx;

static int open_device(void **state)
{
    struct clmem_error err = {0};
    size_t count = 0, chosen = 0;
    const char *spec = getenv("CLMEM_TEST_DEVICE");
    if (test_dir_setup(state) || clmem_devices_list(&fx.devices, &count, &err) ||
        clmem_devices_select(spec ? spec : "cpu", fx.devices, count, &chosen, &err)) {
        fprintf(stderr, "no test device: %s\n", err.message);
        return -1;
    }
    fx.device = clmem_device_at(fx.devices, count, chosen);
    assert_null(clmem_device_at(fx.devices, count, count));
    if (clmem_ctx_create(fx.device, NULL, &fx.ctx, &err)) {
        fprintf(stderr, "no context: %s\n", err.message);
        return -1;
    }
    return 0;
}

static int close_device(void **state)
{
    clmem_ctx_release(fx.ctx);
    free(fx.devices);
    return test_dir_teardown(state);
}

/* The calls a run made: each variant announced, then done, before the next. */
struct progress {
    size_t calls, done, count;
};

static void on_progress(void *user, const struct clmem_result *next, size_t index, size_t count)
{
    struct progress *p = user;
    assert_int_equal(index, p->calls);
    assert_int_equal(p->done, p->calls);
    assert_string_equal(clmem_result_text(next, "workload"), "dot");
    assert_true(clmem_result_number(next, "samples") == 0);
    /* Not measured yet: neither ok nor FAILED. */
    assert_string_equal(clmem_result_status(next), "pending");
    p->calls++;
    p->count = count;
}

static void on_done(void *user, const struct clmem_result *done, size_t index, size_t count)
{
    struct progress *p = user;
    assert_int_equal(index, p->done);
    assert_int_equal(p->calls, p->done + 1);
    assert_int_equal(count, p->count);
    assert_string_equal(clmem_result_text(done, "workload"), "dot");
    /* Finished: measured and checked. */
    assert_string_equal(clmem_result_status(done), "ok");
    assert_true(clmem_result_number(done, "samples") == 2);
    assert_true(clmem_result_number(done, "median_ms") > 0);
    p->done++;
}

/* dot's variants at a prime size, read back field by field; the peaks
 * applied; the results written as a run file, loaded and compared. */
static void run_through_handles(void **state)
{
    UNUSED;
    struct clmem_error err = {0};
    struct clmem_run_options *options = NULL;
    struct progress progress = {0};
    assert_int_equal(clmem_run_options_create(&options, &err), CLMEM_OK);
    assert_int_equal(clmem_run_options_set(options, "size", "1031", &err), CLMEM_OK);
    assert_int_equal(clmem_run_options_set(options, "reps", "2", &err), CLMEM_OK);
    assert_int_equal(clmem_run_options_set(options, "seed", "7", &err), CLMEM_OK);
    assert_int_equal(clmem_run_options_set_callbacks(options, on_progress, NULL, &progress, &err),
                     CLMEM_OK);
    assert_int_equal(clmem_run_options_set_done(options, on_done, &progress, &err), CLMEM_OK);
    const struct clmem_workload *w = clmem_workload_find("dot");
    struct clmem_result *results = NULL;
    size_t n = 0;
    refused(clmem_run(fx.ctx, NULL, options, &results, &n, &err), &err, "'w' is NULL");
    refused(clmem_run(fx.ctx, w, options, NULL, &n, &err), &err, "'results' is NULL");
    int status = clmem_run(fx.ctx, w, options, &results, &n, &err);
    clmem_run_options_release(options);
    if (status)
        fail_msg("run: %s", err.message);
    assert_int_equal(n, clmem_workload_variants(w));
    assert_int_equal(progress.calls, n);
    assert_int_equal(progress.done, n);
    for (size_t i = 0; i < n; i++) {
        const struct clmem_result *r = clmem_result_at(results, n, i);
        assert_string_equal(clmem_result_status(r), "ok");
        assert_string_equal(clmem_result_text(r, "variant"), clmem_variant_text(w, i, "name"));
        assert_string_equal(clmem_result_text(r, "size"), "1031");
        assert_string_equal(clmem_result_text(r, "unit"), clmem_workload_text(w, "unit"));
        assert_string_equal(clmem_result_text(r, "device"), clmem_device_text(fx.device, "name"));
        assert_true(clmem_result_number(r, "reps") == 2);
        assert_true(clmem_result_number(r, "warmup") == 1);
        assert_true(clmem_result_number(r, "seed") == 7);
        assert_true(clmem_result_number(r, "samples") == 2);
        assert_true(clmem_result_number(r, "verified") == 1);
        assert_true(clmem_result_number(r, "median_ms") > 0);
        assert_true(isnan(clmem_result_number(r, "peak_fraction")));
    }
    assert_null(clmem_result_at(results, n, n));

    /* The peaks: reps in the CLI's range; measured, then applied. */
    struct clmem_peak *peak = NULL;
    assert_int_equal(clmem_peak_create(&peak, &err), CLMEM_OK);
    struct clmem_result *peak_results = NULL;
    size_t n_peak = 0;
    refused(clmem_peak_measure(fx.ctx, 0, peak, &peak_results, &n_peak, &err), &err, "1 to 100000");
    if (clmem_peak_measure(fx.ctx, 1, peak, &peak_results, &n_peak, &err))
        fail_msg("peaks: %s", err.message);
    assert_true(clmem_peak_number(peak, "read_bandwidth_gbs") > 0);
    assert_int_equal(clmem_results_apply_peak(results, n, peak), CLMEM_OK);
    for (size_t i = 0; i < n; i++)
        assert_true(clmem_result_number(clmem_result_at(results, n, i), "peak_fraction") > 0);
    clmem_results_free(peak_results, n_peak);

    /* A run file with the device and its peaks, read back (the comparison
     * report is the clmem program's: clmem compare). */
    struct clmem_report_meta *meta = NULL;
    assert_int_equal(clmem_report_meta_create(fx.device, peak, &meta, &err), CLMEM_OK);
    clmem_peak_release(peak); /* the meta holds a copy */
    const char *path = test_in_dir("run.json");
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    assert_int_equal(clmem_report_write(out, CLMEM_FORMAT_JSON, results, n, meta, &err), CLMEM_OK);
    assert_int_equal(fclose(out), 0);
    clmem_report_meta_release(meta);
    struct clmem_compare_device *runs = NULL;
    size_t n_runs = 0, n_read = 0;
    if (clmem_runfile_load(path, &runs, &n_runs, &err))
        fail_msg("run file: %s", err.message);
    assert_int_equal(n_runs, 1);
    const struct clmem_result *read = clmem_runfile_results(runs, n_runs, 0, &n_read);
    assert_int_equal(n_read, n);
    assert_string_equal(clmem_result_text(clmem_result_at(read, n_read, n - 1), "variant"),
                        clmem_result_text(clmem_result_at(results, n, n - 1), "variant"));
    assert_null(clmem_runfile_results(runs, n_runs, 1, &n_read));
    clmem_compare_devices_free(runs, n_runs);
    clmem_results_free(results, n);
}

/* A workload that reads no input file refuses "input" as the CLI does,
 * with or without a size. */
static void input_where_none_is_taken(void **state)
{
    UNUSED;
    struct clmem_error err = {0};
    struct clmem_run_options *options = NULL;
    assert_int_equal(clmem_run_options_create(&options, &err), CLMEM_OK);
    assert_int_equal(clmem_run_options_set(options, "input", "picture.pgm", &err), CLMEM_OK);
    struct clmem_result *results = NULL;
    size_t n = 0;
    const struct clmem_workload *pi = clmem_workload_find("pi");
    refused(clmem_run(fx.ctx, pi, options, &results, &n, &err), &err,
            "workload 'pi' takes no --input");
    assert_int_equal(clmem_run_options_set(options, "size", "1000", &err), CLMEM_OK);
    refused(clmem_run(fx.ctx, pi, options, &results, &n, &err), &err,
            "workload 'pi' takes no --input");
    assert_null(results);
    assert_int_equal(n, 0);
    clmem_run_options_release(options);
}

/* As the header says: err is not optional. A call that is right in every
 * other argument, made with err NULL, does nothing and answers
 * CLMEM_ERR_USAGE. */
static void valid_calls_without_an_error_record_do_nothing(void **state)
{
    UNUSED;
    struct clmem_run_options *options = NULL;
    assert_int_equal(clmem_run_options_create(&options, NULL), CLMEM_ERR_USAGE);
    assert_null(options);
    struct clmem_device *devices = NULL;
    size_t count = 0;
    assert_int_equal(clmem_devices_list(&devices, &count, NULL), CLMEM_ERR_USAGE);
    assert_null(devices);
    assert_int_equal(count, 0);
    enum clmem_format format = CLMEM_FORMAT_TABLE;
    assert_int_equal(clmem_format_parse("csv", &format, NULL), CLMEM_ERR_USAGE);
    assert_int_equal(format, CLMEM_FORMAT_TABLE);
    struct clmem_result *results = NULL;
    size_t n = 0;
    assert_int_equal(clmem_run(fx.ctx, clmem_workload_find("dot"), NULL, &results, &n, NULL),
                     CLMEM_ERR_USAGE);
    assert_null(results);
    assert_int_equal(n, 0);
}

/* The suite's plan: its options by name, the workloads checked. */
static void bench_plan_through_handles(void **state)
{
    UNUSED;
    struct clmem_error err = {0};
    struct clmem_bench_options *options = NULL;
    size_t all = 0, some = 0;
    assert_int_equal(clmem_bench_plan(fx.ctx, NULL, &all, &err), CLMEM_OK);
    assert_int_equal(clmem_bench_options_create(&options, &err), CLMEM_OK);
    assert_int_equal(clmem_bench_options_set(options, "workloads", "dot", &err), CLMEM_OK);
    assert_int_equal(clmem_bench_options_set(options, "sizes", "gpu", &err), CLMEM_OK);
    assert_int_equal(clmem_bench_plan(fx.ctx, options, &some, &err), CLMEM_OK);
    assert_true(some > 0 && some < all);
    assert_int_equal(clmem_bench_options_set(options, "workloads", "dot,nope", &err), CLMEM_OK);
    refused(clmem_bench_plan(fx.ctx, options, &some, &err), &err, "unknown workload 'nope'");
    clmem_bench_options_release(options);
}

/* What a suite's done callback saw: each result once, the peaks' first. */
struct suite_done {
    size_t results, peaks;
};

static void on_suite_done(void *user, const struct clmem_result *done, size_t index, size_t count)
{
    struct suite_done *d = user;
    const char *workload = clmem_result_text(done, "workload");
    assert_true(index < count);
    if (strcmp(workload, "peak") == 0) {
        assert_int_equal(d->results, d->peaks); /* every peak before the workloads */
        d->peaks++;
    } else {
        assert_string_equal(workload, "dot");
    }
    assert_string_equal(clmem_result_status(done), "ok");
    assert_true(clmem_result_number(done, "median_ms") > 0);
    d->results++;
}

/* The suite with a done callback: one call per result it returns. */
static void bench_done_through_handles(void **state)
{
    UNUSED;
    struct clmem_error err = {0};
    struct clmem_bench_options *options = NULL;
    struct suite_done seen = {0};
    assert_int_equal(clmem_bench_options_create(&options, &err), CLMEM_OK);
    assert_int_equal(clmem_bench_options_set(options, "workloads", "dot", &err), CLMEM_OK);
    assert_int_equal(clmem_bench_options_set(options, "reps", "1", &err), CLMEM_OK);
    assert_int_equal(clmem_bench_options_set_done(options, on_suite_done, &seen, &err), CLMEM_OK);
    struct clmem_peak *peak = NULL;
    assert_int_equal(clmem_peak_create(&peak, &err), CLMEM_OK);
    struct clmem_result *results = NULL;
    size_t n = 0;
    int status = clmem_bench_run(fx.ctx, options, peak, &results, &n, &err);
    clmem_bench_options_release(options);
    clmem_peak_release(peak);
    if (status)
        fail_msg("bench: %s", err.message);
    assert_int_equal(seen.results, n);
    assert_true(seen.peaks > 0 && seen.peaks < n);
    clmem_results_free(results, n);
}

int main(void)
{
    const struct CMUnitTest header[] = {cmocka_unit_test(every_function_has_a_case),
                                        cmocka_unit_test(misuse_without_an_error_record)};
    const struct CMUnitTest device[] = {
        cmocka_unit_test(run_through_handles),
        cmocka_unit_test(input_where_none_is_taken),
        cmocka_unit_test(valid_calls_without_an_error_record_do_nothing),
        cmocka_unit_test(bench_plan_through_handles),
        cmocka_unit_test(bench_done_through_handles),
    };
    int failed = cmocka_run_group_tests_name("header", header, NULL, NULL);
    failed += cmocka_run_group_tests_name("misuse", misuse_cases, NULL, NULL);
    failed += cmocka_run_group_tests_name("device", device, open_device, close_device);
    return failed ? 1 : 0;
}
