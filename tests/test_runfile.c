/* Reading run files back (src/report/runfile.c): clmem 0.1.0's files in
 * bench/, the MPI form, and every kind of bad file refused with its reason.
 * Needs no device. Also the numbers for people (src/report/units.c). */
#include "harness/harness.h"
#include "report/report.h"

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

#include "tmpdir.h"

static const char *write_file(const char *name, const char *text)
{
    return test_write_file(test_in_dir(name), text);
}

static const struct clmem_result *find(const struct clmem_compare_device *run, const char *workload,
                                       const char *variant, const char *size)
{
    for (size_t i = 0; i < run->n_results; i++)
        if (strcmp(run->results[i].workload, workload) == 0 &&
            strcmp(run->results[i].variant, variant) == 0 &&
            strcmp(run->results[i].size, size) == 0)
            return &run->results[i];
    return NULL;
}

static void loads_a_0_1_0_bench_file(void **state)
{
    (void)state;
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    assert_int_equal(clmem_runfile_load(test_bench_file("h100.json"), &runs, &n, &err), CLMEM_OK);
    assert_int_equal(n, 1);
    assert_string_equal(runs[0].device.name, "NVIDIA H100 80GB HBM3");
    assert_int_equal(runs[0].device.type, CL_DEVICE_TYPE_GPU);
    assert_string_equal(runs[0].host, ""); /* 0.1.0 did not say */
    assert_int_equal(runs[0].rank, -1);
    assert_true(runs[0].peak.bandwidth > 2000 && runs[0].peak.flops > 50000);
    const struct clmem_result *r = find(&runs[0], "matmul", "regblock", "8192");
    assert_non_null(r);
    assert_true(r->verified && !r->skipped);
    assert_true(r->n_samples >= 1);
    assert_true(r->min_ms <= r->median_ms && r->median_ms <= r->max_ms);
    assert_true(r->metric > 40000);
    assert_string_equal(r->metric_unit, "GFLOP/s");
    /* Two files append: the second's runs follow the first's. */
    assert_int_equal(clmem_runfile_load(test_bench_file("pocl-2core.json"), &runs, &n, &err),
                     CLMEM_OK);
    assert_int_equal(n, 2);
    assert_int_equal(runs[1].device.type, CL_DEVICE_TYPE_CPU);
    clmem_compare_devices_free(runs, n);
}

static void an_mpi_file_is_a_run_per_rank(void **state)
{
    (void)state;
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    assert_int_equal(
        clmem_runfile_load(test_bench_file("h100-scale/mpi-bench.json"), &runs, &n, &err),
        CLMEM_OK);
    assert_int_equal(n, 2);
    assert_int_equal(runs[0].rank, 0);
    assert_int_equal(runs[1].rank, 1);
    assert_string_not_equal(runs[0].device.name, runs[1].device.name);
    assert_true(runs[0].host[0]);
    clmem_compare_devices_free(runs, n);
}

/* Each bad file: a usage error whose message names the file and `reason`,
 * and the list passed in is left as it was. */
static void refused(const char *path, const char *reason)
{
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    assert_int_equal(clmem_runfile_load(path, &runs, &n, &err), CLMEM_ERR_USAGE);
    assert_null(runs);
    assert_int_equal(n, 0);
    if (!strstr(err.message, path) || !strstr(err.message, reason))
        fail_msg("'%s': expected '%s' in: %s", path, reason, err.message);
}

static const char *one_result(const char *extra_top, const char *result)
{
    static char text[4096];
    snprintf(text, sizeof text,
             "{\"schema_version\": 1, \"clmem_version\": \"0.2.0\", %s"
             "\"device\": {\"name\": \"dev\"}, \"results\": [%s]}",
             extra_top, result);
    return text;
}

#define GOOD_RESULT                                                                                \
    "{\"workload\": \"dot\", \"variant\": \"coarsened\", \"size\": \"1000\", \"status\": \"ok\", " \
    "\"samples_ms\": [1, 2, 3], \"median_ms\": 2, \"metric\": 8, \"unit\": \"GB/s\", "             \
    "\"verified\": true}"

/* The read peak and the launch cost are read when a file has them (0 when
 * it predates them); a wrong type is refused. */
static void peaks_read_and_launch_load(void **state)
{
    (void)state;
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    const char *path = write_file(
        "peaks.json", one_result("\"peak\": {\"bandwidth_gbs\": 2700, \"fp32_gflops\": 60000, "
                                 "\"read_bandwidth_gbs\": 3000, \"launch_us\": 2.5}, ",
                                 GOOD_RESULT));
    assert_int_equal(clmem_runfile_load(path, &runs, &n, &err), CLMEM_OK);
    assert_true(runs[0].peak.read_bandwidth == 3000 && runs[0].peak.launch_us == 2.5);
    clmem_compare_devices_free(runs, n);
    runs = NULL; /* the loader appends to what it is given */
    n = 0;
    path = write_file(
        "old-peak.json",
        one_result("\"peak\": {\"bandwidth_gbs\": 2700, \"fp32_gflops\": 60000}, ", GOOD_RESULT));
    assert_int_equal(clmem_runfile_load(path, &runs, &n, &err), CLMEM_OK);
    assert_true(runs[0].peak.read_bandwidth == 0 && runs[0].peak.launch_us == 0);
    clmem_compare_devices_free(runs, n);
    refused(write_file("bad-read.json",
                       one_result("\"peak\": {\"bandwidth_gbs\": 1, \"fp32_gflops\": 1, "
                                  "\"read_bandwidth_gbs\": \"fast\"}, ",
                                  GOOD_RESULT)),
            "'read_bandwidth_gbs' is not a number");
}

static void bad_files_are_refused_with_their_reason(void **state)
{
    (void)state;
    refused(test_dir(), "Is a directory");
    refused("/nonexistent/run.json", "No such file");
    refused(write_file("empty.json", ""), "is empty");
    refused(write_file("text.json", "hello"), "not JSON");
    refused(write_file("truncated.json", "{\"clmem_version\": \"0.1.0\", \"results\": [{"),
            "truncated");
    refused(write_file("array.json", "[1, 2]"), "not a JSON object");
    refused(write_file("other.json", "{\"name\": \"package.json\"}"), "no 'clmem_version'");
    refused(write_file("newer.json", "{\"schema_version\": 2, \"clmem_version\": \"9\"}"),
            "schema_version 2, newer than this clmem reads");
    refused(write_file("schema.json", "{\"schema_version\": \"1\", \"clmem_version\": \"9\"}"),
            "'schema_version' is not a positive whole number");
    refused(write_file("none.json", one_result("", "")), "holds no results");
    refused(write_file("noresults.json",
                       "{\"clmem_version\": \"0.1.0\", \"device\": {\"name\": \"d\"}}"),
            "no 'results' list");
    refused(write_file("nodevice.json", "{\"clmem_version\": \"0.1.0\", \"results\": []}"),
            "no 'device' object");
    refused(write_file("metric.json",
                       one_result("", "{\"workload\": \"dot\", \"variant\": \"v\", \"size\": "
                                      "\"1\", \"status\": \"ok\", \"samples_ms\": [1], "
                                      "\"median_ms\": 1, \"metric\": \"fast\", \"unit\": \"GB/s\", "
                                      "\"verified\": true}")),
            "result 1: 'metric' is not a number");
    refused(write_file("second.json", one_result("", GOOD_RESULT ", {\"workload\": \"dot\"}")),
            "result 2: no 'variant'");
    refused(write_file("status.json", one_result("", "{\"workload\": \"dot\", \"variant\": \"v\", "
                                                     "\"size\": \"1\", \"status\": \"fine\"}")),
            "unknown status 'fine'");
    refused(write_file("ranks.json", "{\"schema_version\": 1, \"clmem_version\": \"0.2.0\", "
                                     "\"ranks\": [{\"rank\": 0, \"results\": []}]}"),
            "holds no results");
    /* A good file after all that still loads, and reads its min and max
     * from its samples when it has none. */
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    assert_int_equal(
        clmem_runfile_load(write_file("good.json", one_result("", GOOD_RESULT)), &runs, &n, &err),
        CLMEM_OK);
    assert_int_equal(n, 1);
    assert_int_equal(runs[0].results[0].n_samples, 3);
    assert_true(runs[0].results[0].min_ms == 1 && runs[0].results[0].max_ms == 3);
    assert_true(runs[0].results[0].median_ms == 2);
    clmem_compare_devices_free(runs, n);
}

/* `len` bytes of `text` as the whole of test file `name` (NUL bytes kept). */
static const char *write_bytes(const char *name, const char *text, size_t len)
{
    const char *path = test_in_dir(name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
    return path;
}

/* One document per file: a second one after it (cat a.json b.json), or a
 * NUL and text after it, is refused, saying where; so is a key twice in
 * an object (which one wins differs between parsers). */
static void trailing_data_and_duplicate_keys_are_refused(void **state)
{
    (void)state;
    char two[8192];
    const char *one = one_result("", GOOD_RESULT);
    size_t len = strlen(one);
    snprintf(two, sizeof two, "%s\n%s", one, one);
    refused(write_file("cat.json", two), "not JSON (trailing data at byte ");
    char expected[64];
    snprintf(expected, sizeof expected, "trailing data at byte %zu", len + 1);
    refused(test_in_dir("cat.json"), expected);
    memcpy(two, one, len);
    memcpy(two + len, "\0{\"more\": 1}", 13);
    refused(write_bytes("nul.json", two, len + 13), "not JSON (trailing data at byte ");
    /* A NUL inside a string: the string would be cut there. */
    snprintf(two, sizeof two, "%s", one_result("", GOOD_RESULT));
    char *dev = strstr(two, "\"dev\"");
    assert_non_null(dev);
    dev[2] = '\0';
    refused(write_bytes("nul-in-string.json", two, len), "a NUL byte at byte ");
    /* Trailing blanks are fine. */
    snprintf(two, sizeof two, "%s \n\t\r\n", one);
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    assert_int_equal(clmem_runfile_load(write_file("blanks.json", two), &runs, &n, &err), CLMEM_OK);
    clmem_compare_devices_free(runs, n);
    /* Duplicate keys, at the top, in the device, in a result. */
    refused(write_file("dup-top.json", one_result("\"clmem_version\": \"0.3.0\", ", GOOD_RESULT)),
            "the key 'clmem_version' appears twice in the top-level object");
    refused(write_file("dup-result.json",
                       one_result("", "{\"workload\": \"dot\", \"workload\": \"pi\", "
                                      "\"variant\": \"v\", \"size\": \"1\", \"status\": \"ok\", "
                                      "\"samples_ms\": [1], \"median_ms\": 1, \"metric\": 1, "
                                      "\"unit\": \"GB/s\", \"verified\": true}")),
            "the key 'workload' appears twice in 'results[0]'");
}

/* Strings that are not UTF-8 are refused, naming the file and the field:
 * a bad lead byte, a sequence cut short, an overlong form, a surrogate
 * (each copied into JSON, HTML and Markdown before, which Python's json
 * then could not read). */
static void invalid_utf8_is_refused_naming_the_field(void **state)
{
    (void)state;
    const struct {
        const char *name, *bytes;
    } bad[] = {
        {"lead.json", "d\xffv"},              /* no UTF-8 byte at all */
        {"stray.json", "d\x80v"},             /* a continuation byte alone */
        {"cut.json", "d\xe2\x82"},            /* 3 bytes announced, 2 given */
        {"overlong.json", "d\xc0\xaf"},       /* '/' in 2 bytes */
        {"overlong3.json", "d\xe0\x80\xaf"},  /* '/' in 3 bytes */
        {"surrogate.json", "d\xed\xa0\x80"},  /* U+D800 */
        {"beyond.json", "d\xf4\x90\x80\x80"}, /* past U+10FFFF */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char text[4096], result[1024];
        snprintf(text, sizeof text,
                 "{\"schema_version\": 1, \"clmem_version\": \"0.2.0\", "
                 "\"device\": {\"name\": \"%s\"}, \"results\": [%s]}",
                 bad[i].bytes, GOOD_RESULT);
        refused(write_file(bad[i].name, text), "'device.name' is not UTF-8");
        /* In a result's field too, named with its place. */
        snprintf(result, sizeof result,
                 "{\"workload\": \"dot\", \"variant\": \"v\", \"size\": \"1\", \"status\": "
                 "\"ok\", \"samples_ms\": [1], \"median_ms\": 1, \"metric\": 1, \"unit\": "
                 "\"GB/s\", \"verified\": true, \"note\": \"%s\"}",
                 bad[i].bytes);
        refused(write_file(bad[i].name, one_result("", result)), "'results[0].note' is not UTF-8");
    }
    /* Good UTF-8 of every length loads: e, e acute, the euro sign, an emoji. */
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    char text[4096];
    snprintf(
        text, sizeof text,
        "{\"schema_version\": 1, \"clmem_version\": \"0.2.0\", "
        "\"device\": {\"name\": \"e\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"}, \"results\": [%s]}",
        GOOD_RESULT);
    assert_int_equal(clmem_runfile_load(write_file("good-utf8.json", text), &runs, &n, &err),
                     CLMEM_OK);
    assert_string_equal(runs[0].device.name, "e\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
    clmem_compare_devices_free(runs, n);
}

static void metrics_read_as_people_write_them(void **state)
{
    (void)state;
    static const struct {
        double value;
        const char *unit, *text;
    } cases[] = {
        {48712.3, "GFLOP/s", "48.7 TFLOP/s"},
        {2739.9, "GB/s", "2.74 TB/s"},
        {355.2, "Gsamples/s", "355 Gsamples/s"},
        {13.42, "GB/s", "13.4 GB/s"},
        {0.5, "GB/s", "500 MB/s"},
        {999.96, "GB/s", "1.00 TB/s"},
        {9.996, "GFLOP/s", "10.0 GFLOP/s"},
        {0, "GB/s", "0 GB/s"},
        {NAN, "GB/s", "-"},
        {1.5, "ms", "1.5 ms"},
        {3.2e9, "GB/s", "3.20 EB/s"},
        {-2500, "GB/s", "-2.50 TB/s"},
    };
    char out[64];
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(cases); i++) {
        clmem_format_metric(cases[i].value, cases[i].unit, out, sizeof out);
        assert_string_equal(out, cases[i].text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(loads_a_0_1_0_bench_file),
        cmocka_unit_test(an_mpi_file_is_a_run_per_rank),
        cmocka_unit_test(bad_files_are_refused_with_their_reason),
        cmocka_unit_test(peaks_read_and_launch_load),
        cmocka_unit_test(metrics_read_as_people_write_them),
        cmocka_unit_test(trailing_data_and_duplicate_keys_are_refused),
        cmocka_unit_test(invalid_utf8_is_refused_naming_the_field),
    };
    return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
