/* Reading run files back (src/report/runfile.c): the files in bench/, the
 * MPI form, and every kind of bad file refused with its reason (one of
 * clmem 0.1.0, with no schema_version, among them), and a long unsorted
 * curve read in n log n.
 * Needs no device. Also the numbers for people (src/report/units.c). */
#include "harness/harness.h"
#include "report/hierarchy_table.h"
#include "report/model.h"
#include "report/report.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cJSON.h>
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

static void loads_a_bench_file(void **state)
{
    (void)state;
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    assert_int_equal(clmem_runfile_load(test_bench_file("h100.json"), &runs, &n, &err), CLMEM_OK);
    assert_int_equal(n, 1);
    assert_string_equal(runs[0].device.name, "NVIDIA H100 80GB HBM3");
    assert_int_equal(runs[0].device.type, CL_DEVICE_TYPE_GPU);
    assert_string_equal(runs[0].host, ""); /* clmem 0.1.0 recorded none */
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

#define HOST                                                                                       \
    "{\"name\": \"vm\", \"os\": \"Debian GNU/Linux 12\", \"kernel\": \"6.1\", \"cpu\": \"EPYC\", " \
    "\"cores\": 2, \"memory_bytes\": 25276026880}"
#define DEVICE                                                                                     \
    "{\"name\": \"pthread-EPYC\", \"platform\": \"Portable Computing Language\", \"vendor\": "     \
    "\"AuthenticAMD\", \"type\": \"cpu\", \"version\": \"OpenCL 3.0 PoCL\", \"driver\": \"3.1\", " \
    "\"compute_units\": 2, \"clock_mhz\": 2095, \"global_mem_bytes\": 5103771648, "                \
    "\"local_mem_bytes\": 524288, \"max_work_group\": 4096, \"opencl_c_version\": \"OpenCL C "     \
    "1.2 PoCL\", \"max_alloc_bytes\": 2147483648, \"base_addr_align_bits\": 1024, \"fp64\": true}"
#define PEAK "{\"bandwidth_gbs\": 28.3, \"fp32_gflops\": 116.4, \"launch_us\": 4.5}"
/* A timed result, `extra` (", \"energy\": {...}" or "") before its end. */
#define TIMED_RESULT_WITH(variant, status, verified, extra)                                        \
    "{\"workload\": \"dot\", \"variant\": \"" variant "\", \"device\": \"pthread-EPYC\", "         \
    "\"size\": \"1001\", \"params\": \"-DWG=256\", \"status\": \"" status "\", "                   \
    "\"samples_ms\": [1.5, 1, 2], \"median_ms\": 1.5, \"min_ms\": 1, \"max_ms\": 2, "              \
    "\"metric\": 5.3, \"unit\": \"GB/s\", \"max_rel_error\": 0, \"verified\": " verified ", "      \
    "\"verify_scope\": \"\", \"reps\": 3, \"warmup\": 1, \"seed\": 42, \"flops_per_byte\": "       \
    "0.25" extra "}"
#define TIMED_RESULT(variant, status, verified) TIMED_RESULT_WITH(variant, status, verified, "")
#define SKIPPED_RESULT                                                                             \
    "{\"workload\": \"matmul\", \"variant\": \"tiled\", \"device\": \"pthread-EPYC\", \"size\": "  \
    "\"33x17x9\", \"params\": \"-DTILE_WIDTH=16\", \"status\": \"skipped\", \"skip_reason\": "     \
    "\"needs sizes in multiples of 16\", \"reps\": 3, \"warmup\": 1, \"seed\": 42}"
/* FAILED by an OpenCL error: what stopped it, no measurement. */
#define ERROR_RESULT                                                                               \
    "{\"workload\": \"matmul\", \"variant\": \"panel\", \"device\": \"pthread-EPYC\", \"size\": "  \
    "\"33x17x9\", \"params\": \"\", \"status\": \"FAILED\", \"error\": \"building 'matmul.cl' "     \
    "failed with CL_BUILD_PROGRAM_FAILURE\", \"unit\": \"GFLOP/s\", \"reps\": 3, \"warmup\": 1, "       \
    "\"seed\": 42}"
#define HEAD                                                                                       \
    "\"schema_version\": 1, \"clmem_version\": \"0.3.0\", \"created\": \"2026-11-26T10:00:00Z\", "

/* A file of schema 1 with this host and device, `extra_top` (keys, each
 * followed by ", ") and these results. */
static const char *one_result(const char *extra_top, const char *result)
{
    static char text[8192];
    snprintf(text, sizeof text,
             "{" HEAD "\"host\": " HOST ", \"device\": " DEVICE ", %s\"results\": [%s]}", extra_top,
             result);
    return text;
}

#define GOOD_RESULT TIMED_RESULT("coarsened", "ok", "true")

/* A file of clmem 0.1.0, before run files had a schema_version: its
 * fields as bench/'s were before they were rewritten. */
#define OLD_FILE                                                                                   \
    "{\"clmem_version\": \"0.1.0\", \"device\": {\"name\": \"dev\"}, \"results\": "                \
    "[{\"workload\": \"dot\", \"variant\": \"coarsened\", \"size\": \"1000\", \"status\": "        \
    "\"ok\", \"samples_ms\": [1, 2, 3], \"median_ms\": 2, \"metric\": 8, \"unit\": \"GB/s\", "     \
    "\"verified\": true}]}"

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
    refused(write_file("truncated.json", "{" HEAD "\"results\": [{"), "truncated");
    refused(write_file("array.json", "[1, 2]"), "not a JSON object");
    refused(write_file("other.json", "{\"name\": \"package.json\"}"), "no 'schema_version'");
    refused(write_file("0.1.0.json", OLD_FILE),
            "no 'schema_version' (written by a clmem before run files had one)");
    refused(write_file("newer.json", "{\"schema_version\": 2, \"clmem_version\": \"9\"}"),
            "schema_version 2, newer than this clmem reads");
    refused(write_file("schema.json", "{\"schema_version\": \"1\", \"clmem_version\": \"9\"}"),
            "'schema_version' is not a positive whole number");
    refused(write_file("none.json", one_result("", "")), "holds no results");
    refused(write_file("noresults.json", "{" HEAD "\"host\": " HOST ", \"device\": " DEVICE "}"),
            "no 'results' list");
    refused(write_file("nodevice.json", "{" HEAD "\"host\": " HOST ", \"results\": []}"),
            "no 'device' object");
    refused(write_file("hostname.json",
                       "{" HEAD "\"host\": \"vm\", \"device\": " DEVICE ", \"results\": "
                       "[" GOOD_RESULT "]}"),
            "'host' is not an object");
    refused(write_file("metric.json",
                       one_result("", "{\"workload\": \"dot\", \"variant\": \"v\", \"device\": "
                                      "\"d\", \"size\": \"1\", \"params\": \"\", \"status\": "
                                      "\"ok\", \"samples_ms\": [1], \"median_ms\": 1, \"min_ms\": "
                                      "1, \"max_ms\": 1, \"metric\": \"fast\", \"unit\": \"GB/s\", "
                                      "\"max_rel_error\": 0, \"verified\": true, "
                                      "\"verify_scope\": \"\", \"reps\": 1, \"warmup\": 0, "
                                      "\"seed\": 1}")),
            "result 1: 'metric' is not a number");
    refused(write_file("second.json", one_result("", GOOD_RESULT ", {\"workload\": \"dot\"}")),
            "result 2: no 'variant'");
    refused(write_file("status.json",
                       one_result("", "{\"workload\": \"dot\", \"variant\": \"v\", \"device\": "
                                      "\"d\", \"size\": \"1\", \"params\": \"\", \"status\": "
                                      "\"fine\", \"reps\": 1, \"warmup\": 0, \"seed\": 1}")),
            "unknown status 'fine'");
    refused(write_file("ranks.json", "{" HEAD "\"ranks\": [{\"rank\": 0, \"host\": " HOST
                                     ", \"device\": " DEVICE ", \"status\": 2, \"results\": []}]}"),
            "holds no results");
    /* A good file after all that still loads, its times as written. */
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    assert_int_equal(
        clmem_runfile_load(write_file("good.json", one_result("", GOOD_RESULT)), &runs, &n, &err),
        CLMEM_OK);
    assert_int_equal(n, 1);
    assert_int_equal(runs[0].results[0].n_samples, 3);
    assert_true(runs[0].results[0].min_ms == 1 && runs[0].results[0].max_ms == 2);
    assert_true(runs[0].results[0].median_ms == 1.5);
    clmem_compare_devices_free(runs, n);
}

/* ---- every key the schema requires, removed one at a time ----
 * Two good files of schema 1 (one process, and the MPI form), each holding
 * every section the schema has: host, device, peak, results ok, FAILED
 * and skipped. The keys to remove are read from schema/run.schema.json:
 * each object of a file is matched with the part of the schema that
 * describes it (through $ref, oneOf, items, properties and if/then/else),
 * and each key of that part's `required` list is removed from a copy of
 * the file, which the loader must refuse naming the file and the key. A
 * key the schema comes to require is so removed too; one the files below
 * lack fails the test until they hold it. */
static const struct {
    const char *name, *text;
} schema_files[] = {
    {"single", "{" HEAD "\"host\": " HOST ", \"device\": " DEVICE ", \"peak\": " PEAK
               ", \"results\": [" TIMED_RESULT("coarsened", "ok", "true") ", " TIMED_RESULT(
                   "one_pass", "FAILED", "false") ", " SKIPPED_RESULT ", " ERROR_RESULT "]}"},
    /* clmem hierarchy's file: the levels and the curves they came from. */
    {"hierarchy",
     "{" HEAD "\"host\": " HOST ", \"device\": " DEVICE ", \"peak\": " PEAK
     ", \"results\": [" TIMED_RESULT_WITH(
         "coarsened", "ok", "true",
         ", \"energy\": {\"source\": \"rapl\", \"energy_j\": 0.5, \"power_w\": 40, "
         "\"efficiency\": 0.1, \"efficiency_unit\": \"GB/J\", \"span_s\": 1.2, "
         "\"runs\": 96}, \"bound\": {\"levels\": {\"global\": {\"bytes\": 8008, "
         "\"predicted_ms\": 1.2}, \"compute\": {\"flops\": 2002}}, \"binding\": "
         "\"global\", \"ratio\": 0.8, \"model_error\": false}") ", " TIMED_RESULT_WITH("one_pass", "ok", "true",
                                                 ", \"energy\": {\"na\": \"no energy counter on "
                                                 "this device\"}") "], \"hierarchy\": {"
                                                                   "\"extent_bytes\": 1048576, "
                                                                   "\"largest_cache_bytes\": "
                                                                   "65536, "
                                                                   "\"largest_cache_from\": \"none "
                                                                   "known\", \"tlb\": "
                                                                   "{\"reach_bytes\": 65536, "
                                                                   "\"last_bytes\": 1048576, "
                                                                   "\"plateaus\": [{\"bytes\": "
                                                                   "65536, \"ns\": 2}]}, "
                                                                   "\"levels\": "
                                                                   "[{\"name\": \"L1\", "
                                                                   "\"memory\": false, "
                                                                   "\"first_bytes\": 1024, "
                                                                   "\"latency_ns\": 1.5}], "
                                                                   "\"latency\": [{\"bytes\": "
                                                                   "1024, \"ns\": 1.5}], "
                                                                   "\"local_latency\": "
                                                                   "[{\"bytes\": "
                                                                   "1024, \"ns\": 2}], "
                                                                   "\"bandwidth\": [{\"bytes\": "
                                                                   "4096, \"gbs\": 40}], "
                                                                   "\"unmatched_bandwidth\": "
                                                                   "[{\"bytes\": 4096, \"gbs\": "
                                                                   "40}]}}"},
    {"ranks", "{" HEAD "\"ranks\": [{\"rank\": 0, \"host\": " HOST ", \"device\": " DEVICE
              ", \"peak\": " PEAK ", \"status\": 0, \"results\": [" TIMED_RESULT(
                  "coarsened", "ok", "true") ", " SKIPPED_RESULT "]}]}"},
};

/* A key to remove: the object's place in the file ("ranks/0/host"), the
 * key, and the part of the schema that requires it. */
struct removal {
    char at[128];
    const char *key;
};
struct walk {
    const cJSON *schema;
    const char *file;
    struct removal removals[256];
    size_t n;
    const cJSON *applied[64]; /* the parts of the schema with `required` met */
    size_t n_applied;
};

/* The part of the schema `node` refers to ("$ref": "#/$defs/NAME"), or itself. */
static const cJSON *resolve(const struct walk *w, const cJSON *node)
{
    const cJSON *ref = cJSON_GetObjectItemCaseSensitive(node, "$ref");
    while (cJSON_IsString(ref)) {
        const char *prefix = "#/$defs/";
        assert_memory_equal(ref->valuestring, prefix, strlen(prefix));
        node =
            cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(w->schema, "$defs"),
                                             ref->valuestring + strlen(prefix));
        if (!node)
            fail_msg("the schema has no '%s'", ref->valuestring);
        ref = cJSON_GetObjectItemCaseSensitive(node, "$ref");
    }
    return node;
}

/* Whether `doc` holds every key of `node`'s `required` list. */
static int holds_required(const cJSON *node, const cJSON *doc)
{
    const cJSON *key;
    cJSON_ArrayForEach(key, cJSON_GetObjectItemCaseSensitive(node, "required"))
    {
        if (!cJSON_GetObjectItemCaseSensitive(doc, key->valuestring))
            return 0;
    }
    return 1;
}

/* An `if` of the form the schema uses: properties whose `const` the
 * document's value must equal (an absent property matches). */
static int if_holds(const cJSON *cond, const cJSON *doc)
{
    const cJSON *prop, *key;
    cJSON_ArrayForEach(key, cJSON_GetObjectItemCaseSensitive(cond, "required"))
    {
        if (!cJSON_GetObjectItemCaseSensitive(doc, key->valuestring))
            return 0;
    }
    cJSON_ArrayForEach(prop, cJSON_GetObjectItemCaseSensitive(cond, "properties"))
    {
        const cJSON *want = cJSON_GetObjectItemCaseSensitive(prop, "const"),
                    *got = cJSON_GetObjectItemCaseSensitive(doc, prop->string);
        if (!want)
            fail_msg("the schema's 'if' on '%s' is not a const: teach tests/test_runfile.c",
                     prop->string);
        if (got && !cJSON_Compare(want, got, 1))
            return 0;
    }
    return 1;
}

static void walk(struct walk *w, const cJSON *node, const cJSON *doc, const char *at)
{
    node = resolve(w, node);
    const cJSON *one_of = cJSON_GetObjectItemCaseSensitive(node, "oneOf"), *branch;
    if (one_of) {
        /* The branch whose required keys the (good) file holds. */
        const cJSON *fits = NULL;
        cJSON_ArrayForEach(branch, one_of)
        {
            if (!fits && holds_required(resolve(w, branch), doc))
                fits = branch;
        }
        if (!fits)
            fail_msg("%s: '%s' fits no branch of the schema's oneOf", w->file, at);
        walk(w, fits, doc, at);
    }
    if (cJSON_IsObject(doc)) {
        const cJSON *required = cJSON_GetObjectItemCaseSensitive(node, "required"), *key;
        if (required) {
            assert_true(w->n_applied < CLMEM_ARRAY_SIZE(w->applied));
            w->applied[w->n_applied++] = node;
        }
        cJSON_ArrayForEach(key, required)
        {
            if (!cJSON_GetObjectItemCaseSensitive(doc, key->valuestring))
                fail_msg("the test's %s file lacks '%s' at '%s', which the schema requires: add it "
                         "to tests/test_runfile.c",
                         w->file, key->valuestring, at);
            assert_true(w->n < CLMEM_ARRAY_SIZE(w->removals));
            snprintf(w->removals[w->n].at, sizeof w->removals[0].at, "%s", at);
            w->removals[w->n++].key = key->valuestring;
        }
        const cJSON *cond = cJSON_GetObjectItemCaseSensitive(node, "if");
        if (cond) {
            const char *then = if_holds(cond, doc) ? "then" : "else";
            if ((branch = cJSON_GetObjectItemCaseSensitive(node, then)))
                walk(w, branch, doc, at);
        }
        const cJSON *props = cJSON_GetObjectItemCaseSensitive(node, "properties"), *child;
        cJSON_ArrayForEach(child, doc)
        {
            const cJSON *sub = cJSON_GetObjectItemCaseSensitive(props, child->string);
            char below[128];
            snprintf(below, sizeof below, "%s%s%s", at, at[0] ? "/" : "", child->string);
            if (sub)
                walk(w, sub, child, below);
        }
    } else if (cJSON_IsArray(doc) && cJSON_GetObjectItemCaseSensitive(node, "items")) {
        const cJSON *items = cJSON_GetObjectItemCaseSensitive(node, "items"), *item;
        int i = 0;
        cJSON_ArrayForEach(item, doc)
        {
            char below[128];
            snprintf(below, sizeof below, "%s%s%d", at, at[0] ? "/" : "", i++);
            walk(w, items, item, below);
        }
    }
}

/* The object at `at` ("ranks/0/host") in `doc`. */
static cJSON *object_at(cJSON *doc, const char *at)
{
    char path[128];
    snprintf(path, sizeof path, "%s", at);
    cJSON *o = doc;
    for (char *save = NULL, *part = strtok_r(path, "/", &save); part && o;
         part = strtok_r(NULL, "/", &save))
        o = cJSON_IsArray(o) ? cJSON_GetArrayItem(o, atoi(part))
                             : cJSON_GetObjectItemCaseSensitive(o, part);
    assert_non_null(o);
    return o;
}

/* Every `required` list of the schema (outside `not`, which forbids, and
 * `if`, which only chooses between `then` and `else`). */
static size_t required_lists(const cJSON *node, const cJSON **lists, size_t n, size_t max)
{
    if (cJSON_IsObject(node) && cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(node, "required"))) {
        assert_true(n < max);
        lists[n++] = node;
    }
    const cJSON *child;
    cJSON_ArrayForEach(child, node)
    {
        if (!(child->string &&
              (strcmp(child->string, "not") == 0 || strcmp(child->string, "if") == 0)) &&
            (cJSON_IsObject(child) || cJSON_IsArray(child)))
            n = required_lists(child, lists, n, max);
    }
    return n;
}

static void every_key_the_schema_requires_is_required(void **state)
{
    (void)state;
    char *schema_text = test_read_file(test_bench_file("../schema/run.schema.json"));
    assert_non_null(schema_text);
    cJSON *schema = cJSON_Parse(schema_text);
    assert_non_null(schema);
    const cJSON *lists[64];
    size_t n_lists = required_lists(schema, lists, 0, CLMEM_ARRAY_SIZE(lists)), tried = 0;
    assert_true(n_lists >= 9); /* single, ranks, a rank, host, device, peak, result, then, else */
    static struct walk w;      /* large */
    int applied[64] = {0};
    for (size_t f = 0; f < CLMEM_ARRAY_SIZE(schema_files); f++) {
        memset(&w, 0, sizeof w);
        w.schema = schema;
        w.file = schema_files[f].name;
        char name[64];
        snprintf(name, sizeof name, "%s.json", w.file);
        const char *good = write_file(name, schema_files[f].text);
        struct clmem_compare_device *runs = NULL;
        size_t n = 0;
        struct clmem_error err = {0};
        if (clmem_runfile_load(good, &runs, &n, &err) != CLMEM_OK)
            fail_msg("the good %s file is refused: %s", w.file, err.message);
        clmem_compare_devices_free(runs, n);
        cJSON *doc = cJSON_Parse(schema_files[f].text);
        assert_non_null(doc);
        walk(&w, schema, doc, "");
        cJSON_Delete(doc);
        for (size_t i = 0; i < n_lists; i++)
            for (size_t j = 0; j < w.n_applied; j++)
                applied[i] |= lists[i] == w.applied[j];
        for (size_t i = 0; i < w.n; i++) {
            doc = cJSON_Parse(schema_files[f].text);
            cJSON_DeleteItemFromObjectCaseSensitive(object_at(doc, w.removals[i].at),
                                                    w.removals[i].key);
            char *text = cJSON_PrintUnformatted(doc);
            snprintf(name, sizeof name, "%s-%zu-no-%s.json", w.file, i, w.removals[i].key);
            const char *path = write_file(name, text);
            free(text);
            cJSON_Delete(doc);
            runs = NULL;
            n = 0;
            memset(&err, 0, sizeof err);
            char key[80];
            snprintf(key, sizeof key, "'%s'", w.removals[i].key);
            if (clmem_runfile_load(path, &runs, &n, &err) != CLMEM_ERR_USAGE || runs ||
                !strstr(err.message, path) || !strstr(err.message, "no '") ||
                !strstr(err.message, key))
                fail_msg("%s file without %s at '%s' (which the schema requires): not refused "
                         "naming the file and the key: %s",
                         w.file, key, w.removals[i].at[0] ? w.removals[i].at : "the top",
                         err.message[0] ? err.message : "loaded");
            tried++;
        }
    }
    for (size_t i = 0; i < n_lists; i++)
        if (!applied[i]) {
            char *text =
                cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(lists[i], "required"));
            fail_msg("no object of the test's files meets the schema's required %s: add one to "
                     "tests/test_runfile.c",
                     text);
        }
    print_message("%zu required keys removed one at a time, each refused\n", tried);
    cJSON_Delete(schema);
    free(schema_text);
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
    char two[2 * 8192 + 16];
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
    char *dev = strstr(two, "pthread-EPYC");
    assert_non_null(dev);
    dev[3] = '\0';
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
    /* A whole file of schema 1, its device named in UTF-8. */
    char text[8192];
    const char *file = one_result("", GOOD_RESULT), *name = strstr(file, "pthread-EPYC");
    assert_non_null(name);
    snprintf(text, sizeof text, "%.*s%s%s", (int)(name - file), file,
             "e\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", name + strlen("pthread-EPYC"));
    assert_int_equal(clmem_runfile_load(write_file("good-utf8.json", text), &runs, &n, &err),
                     CLMEM_OK);
    assert_string_equal(runs[0].device.name, "e\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
    clmem_compare_devices_free(runs, n);
}

/* What JSON does not allow but cJSON reads ("cores": 02, 1., +1, .5, a
 * \u0000), and figures no measurement gives (a metric of 0 or below, a
 * fastest sample slower than the slowest): refused, saying what. */
static void numbers_json_forbids_and_impossible_figures_are_refused(void **state)
{
    (void)state;
    static const struct {
        const char *name, *from, *to, *reason;
    } cases[] = {
        {"leading-zero.json", "\"cores\": 2", "\"cores\": 02", "a number with a leading zero"},
        {"dot-end.json", "\"metric\": 5.3", "\"metric\": 5.", "not JSON (at byte "},
        {"plus.json", "\"metric\": 5.3", "\"metric\": +5.3", "not JSON (at byte "},
        {"dot-start.json", "\"metric\": 5.3", "\"metric\": .5", "not JSON (at byte "},
        {"nul-escape.json", "pthread-EPYC\", \"platform", "pth\\u0000\", \"platform",
         "a NUL character"},
        {"metric-zero.json", "\"metric\": 5.3", "\"metric\": 0", "'metric' is 0 or below"},
        {"metric-negative.json", "\"metric\": 5.3", "\"metric\": -5.3", "'metric' is 0 or below"},
        {"min-above-max.json", "\"min_ms\": 1,", "\"min_ms\": 3,", "'min_ms' is above 'max_ms'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[8192];
        const char *good = one_result("", GOOD_RESULT), *at = strstr(good, cases[i].from);
        if (!at)
            fail_msg("%s: no '%s' in the fixture", cases[i].name, cases[i].from);
        snprintf(text, sizeof text, "%.*s%s%s", (int)(at - good), good, cases[i].to,
                 at + strlen(cases[i].from));
        refused(write_file(cases[i].name, text), cases[i].reason);
    }
}

/* A run file whose JSON would take gigabytes to hold (a 50 MB array of
 * numbers: 13 million values, 2 GB as cJSON's nodes) is refused before it
 * is parsed, its memory bounded. */
static void a_huge_array_is_refused_before_it_is_parsed(void **state)
{
    (void)state;
    const char *path = test_in_dir("huge.json");
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs("{\"schema_version\": 1, \"results\": [{\"samples_ms\": [", f);
    for (size_t i = 0; i < 13000000; i++)
        fputs(i ? ",0.5" : "0.5", f);
    fputs("]}]}", f);
    assert_int_equal(fclose(f), 0);
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    refused(path, "more than 4194304 JSON values");
    getrusage(RUSAGE_SELF, &after);
    /* The 50 MB text itself, and little more (ru_maxrss: KiB). */
    long grew_mib = (after.ru_maxrss - before.ru_maxrss) / 1024;
    print_message("peak memory grew %ld MiB\n", grew_mib);
    assert_true(grew_mib < 200);
    unlink(path);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* A hierarchy file's curves are kept in ascending order of bytes, and a
 * file's need not be: 320,000 points in descending order (a 10 MB file)
 * are sorted once, in n log n, well within LONG_CURVE_S (an insertion sort
 * took 65 s); points of equal bytes keep the file's order. */
#define LONG_CURVE   320000
#define LONG_CURVE_S 20.0
static void a_long_unsorted_curve_reads_in_n_log_n(void **state)
{
    (void)state;
    const char *path = test_in_dir("long-curve.json");
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs("{" HEAD "\"host\": " HOST ", \"device\": " DEVICE ", \"results\": [" GOOD_RESULT
          "], \"hierarchy\": {\"extent_bytes\": 1048576, \"largest_cache_bytes\": 65536, "
          "\"largest_cache_from\": \"none known\", \"levels\": [{\"name\": \"L1\", "
          "\"memory\": false, \"first_bytes\": 1024, \"latency_ns\": 1.5}], \"latency\": [",
          f);
    for (size_t i = 0; i < LONG_CURVE; i++)
        fprintf(f, "%s{\"bytes\": %zu, \"ns\": %zu}", i ? ", " : "", LONG_CURVE - i, 1 + i % 7);
    fputs("], \"local_latency\": [{\"bytes\": 2048, \"ns\": 5}, {\"bytes\": 1024, \"ns\": 3}, "
          "{\"bytes\": 1024, \"ns\": 4}, {\"bytes\": 0, \"ns\": 9}], \"bandwidth\": [{\"bytes\": "
          "4096, \"gbs\": 40}], \"unmatched_bandwidth\": []}}",
          f);
    assert_int_equal(fclose(f), 0);
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    double start = now_s();
    int status = clmem_runfile_load(path, &runs, &n, &err);
    double took = now_s() - start;
    print_message("%d points in descending order read in %.2f s\n", LONG_CURVE, took);
    if (status != CLMEM_OK)
        fail_msg("%s", err.message);
    if (took > LONG_CURVE_S)
        fail_msg("%d points read in %.1f s, over %.0f s", LONG_CURVE, took, LONG_CURVE_S);
    const struct clmem_saved_hierarchy *h = runs[0].hierarchy;
    assert_non_null(h);
    assert_int_equal(h->n_latency, LONG_CURVE);
    for (size_t i = 0; i < h->n_latency; i++)
        if (h->latency[i].bytes != (double)(i + 1) ||
            h->latency[i].value != (double)(1 + (LONG_CURVE - 1 - i) % 7))
            fail_msg("point %zu: %g bytes, %g ns", i, h->latency[i].bytes, h->latency[i].value);
    /* Equal bytes in the file's order; a point of 0 bytes left out. */
    assert_int_equal(h->n_local_latency, 3);
    assert_true(h->local_latency[0].bytes == 1024 && h->local_latency[0].value == 3);
    assert_true(h->local_latency[1].bytes == 1024 && h->local_latency[1].value == 4);
    assert_true(h->local_latency[2].bytes == 2048 && h->local_latency[2].value == 5);
    assert_int_equal(h->n_unmatched, 0);
    clmem_compare_devices_free(runs, n);
    unlink(path);
}

/* ---- clmem hierarchy's file: what the table shows, saved whole ---- */

/* A sweep's chase results, 1 KiB to 4 MiB (13 working sets), and the
 * levels named from them as clmem_hierarchy_levels would: a split L2
 * beside the L2 the device reports, an unresolved stretch, a last plateau
 * inside the largest cache, the TLB's reach and the host's pages. */
#define SWEEP_POINTS 13
static struct clmem_result *sweep_results(size_t *n)
{
    struct clmem_result *r = NULL;
    *n = 0;
    for (size_t i = 0; i < SWEEP_POINTS; i++) {
        char size[32];
        snprintf(size, sizeof size, "%zu", (size_t)1024 << i);
        struct clmem_result *x = clmem_result_append(&r, n, "hierarchy", "chase_global", "dev", size);
        assert_non_null(x);
        x->samples_ms = malloc(sizeof *x->samples_ms);
        assert_non_null(x->samples_ms);
        x->samples_ms[0] = x->median_ms = x->min_ms = x->max_ms = 1;
        x->n_samples = 1;
        x->metric = 1.0 / (double)(1 + i);
        snprintf(x->metric_unit, sizeof x->metric_unit, "Gloads/s");
        x->verified = 1;
        x->max_rel_error = 0;
    }
    return r;
}

static void saved_sweep(struct clmem_hierarchy *h)
{
    static const struct {
        const char *name;
        int resolved;
        double first, last, size, ns;
    } levels[] = {{"L1", 1, 1024, 4096, 6000, 1.5},
                  {"L2 (near)", 1, 8192, 32768, 40000, 5},
                  {"L2 (far)", 1, 65536, 262144, 300000, 9},
                  {"unresolved", 0, 524288, 524288, 0, 12},
                  {"unnamed, inside a cache", 1, 1048576, 4194304, 0, 30}};
    memset(h, 0, sizeof *h);
    h->extent = 4194304;
    h->cache_bytes = 52428800;
    snprintf(h->cache_from, sizeof h->cache_from, "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE");
    snprintf(h->stopped_by, sizeof h->stopped_by, "--size");
    snprintf(h->note, sizeof h->note, "the last plateau (from 1 MiB) follows a step inside the "
                                      "largest cache 50 MiB: no level is device memory");
    h->page_bytes = 4096;
    snprintf(h->pages, sizeof h->pages,
             "4 KiB pages: transparent huge pages only where madvised ('always [madvise] never'), "
             "which OpenCL cannot ask for a buffer");
    h->tlb = (struct clmem_tlb){.reach_bytes = 262144, .hit_ns = 4, .miss_ns = 11,
                                .last_bytes = 4194304, .n_plateaus = 2,
                                .plateaus = {{262144, 4}, {4194304, 11}}};
    for (size_t k = 0; k < CLMEM_ARRAY_SIZE(levels); k++) {
        struct clmem_level *L = &h->levels[h->n_levels++];
        snprintf(L->name, sizeof L->name, "%s", levels[k].name);
        L->resolved = levels[k].resolved;
        L->first_bytes = levels[k].first;
        L->last_bytes = levels[k].last;
        L->size_bytes = levels[k].size;
        L->latency_ns = levels[k].ns;
        L->latency_cycles = L->bandwidth_gbs = L->bandwidth_bytes = NAN;
    }
}

/* The hierarchy's facts past the plateaus, as read back. */
static void expect_saved_sweep(const struct clmem_saved_hierarchy *h)
{
    assert_non_null(h);
    assert_string_equal(h->stopped_by, "--size");
    assert_non_null(strstr(h->memory_note, "inside the largest cache"));
    assert_true(h->page_bytes == 4096);
    assert_non_null(strstr(h->pages, "madvised"));
    assert_string_equal(h->huge_pages, "madvise");
    assert_true(h->tlb.reach_bytes == 262144 && h->tlb.last_bytes == 4194304);
    assert_true(h->tlb.hit_ns == 4 && h->tlb.miss_ns == 11);
    assert_int_equal(h->tlb.n_plateaus, 2);
    assert_true(h->tlb.plateaus[1].bytes == 4194304 && h->tlb.plateaus[1].value == 11);
    assert_int_equal(h->n_levels, 5);
    const struct clmem_saved_level *L = h->levels;
    assert_true(L[0].resolved && L[0].why[0] == '\0' && L[0].split[0] == '\0');
    assert_true(L[0].points == 3 && L[0].last_bytes == 4096 && L[0].reported_bytes == 0);
    assert_string_equal(L[1].name, "L2 (near)");
    assert_string_equal(L[1].split, "near");
    assert_string_equal(L[2].name, "L2 (far)");
    assert_string_equal(L[2].split, "far");
    assert_true(L[1].reported_bytes == 52428800 && L[2].reported_bytes == 52428800);
    assert_false(L[3].resolved);
    assert_true(L[3].points == 1);
    assert_non_null(strstr(L[3].why, "did not resolve"));
    assert_true(L[4].resolved);
    assert_string_equal(L[4].why, h->memory_note);
}

/* clmem hierarchy's run file keeps what its table shows (the TLB's reach,
 * the host's pages and huge pages, the split L2 beside the reported one,
 * why a level is unresolved or unnamed), read back and written again as
 * compare writes a device's file. */
static void a_hierarchy_file_keeps_tlb_pages_and_why(void **state)
{
    (void)state;
    size_t n = 0;
    struct clmem_result *r = sweep_results(&n);
    struct clmem_hierarchy h;
    saved_sweep(&h);
    struct clmem_device device = {.name = "test device", .type = CL_DEVICE_TYPE_CPU};
    struct clmem_error err = {0};
    const char *path = test_in_dir("hierarchy-whole.json"), *again = test_in_dir("again.json");
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(clmem_hierarchy_write(f, CLMEM_FORMAT_JSON, r, n, &device, &h, 0, &err),
                     CLMEM_OK);
    assert_int_equal(fclose(f), 0);
    struct clmem_compare_device *runs = NULL;
    size_t n_runs = 0;
    if (clmem_runfile_load(path, &runs, &n_runs, &err) != CLMEM_OK)
        fail_msg("%s", err.message);
    expect_saved_sweep(runs[0].hierarchy);
    f = fopen(again, "wb");
    assert_non_null(f);
    assert_int_equal(
        clmem_report_json(f, runs[0].results, runs[0].n_results,
                          &(struct clmem_report_meta){.device = &runs[0].device,
                                                      .hierarchy = runs[0].hierarchy},
                          &err),
        CLMEM_OK);
    assert_int_equal(fclose(f), 0);
    struct clmem_compare_device *back = NULL;
    size_t n_back = 0;
    if (clmem_runfile_load(again, &back, &n_back, &err) != CLMEM_OK)
        fail_msg("%s", err.message);
    expect_saved_sweep(back[0].hierarchy);
    clmem_compare_devices_free(back, n_back);
    clmem_compare_devices_free(runs, n_runs);
    for (size_t i = 0; i < n; i++)
        clmem_result_free(&r[i]);
    free(r);
    unlink(path);
    unlink(again);
}

/* A hierarchy file written before those were saved loads: its levels
 * resolved, no TLB, no pages, no reasons. */
static void an_older_hierarchy_file_loads_without_them(void **state)
{
    (void)state;
    const char *path = write_file(
        "older-hierarchy.json",
        "{" HEAD "\"host\": " HOST ", \"device\": " DEVICE ", \"results\": [" GOOD_RESULT
        "], \"hierarchy\": {\"extent_bytes\": 1048576, \"largest_cache_bytes\": 65536, "
        "\"largest_cache_from\": \"none known\", \"levels\": [{\"name\": \"L1\", "
        "\"memory\": false, \"first_bytes\": 1024, \"latency_ns\": 1.5}], \"latency\": "
        "[{\"bytes\": 1024, \"ns\": 1.5}], \"local_latency\": [], \"bandwidth\": [], "
        "\"unmatched_bandwidth\": []}}");
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    if (clmem_runfile_load(path, &runs, &n, &err) != CLMEM_OK)
        fail_msg("%s", err.message);
    const struct clmem_saved_hierarchy *h = runs[0].hierarchy;
    assert_non_null(h);
    assert_int_equal(h->n_levels, 1);
    assert_true(h->levels[0].resolved);
    assert_true(isnan(h->levels[0].last_bytes) && h->levels[0].points == 0);
    assert_true(h->levels[0].why[0] == '\0' && h->levels[0].split[0] == '\0');
    assert_true(h->tlb.last_bytes == 0 && h->tlb.reach_bytes == 0 && h->tlb.n_plateaus == 0);
    assert_true(h->page_bytes == 0 && h->pages[0] == '\0' && h->huge_pages[0] == '\0');
    assert_true(h->stopped_by[0] == '\0' && h->memory_note[0] == '\0');
    clmem_compare_devices_free(runs, n);
    unlink(path);
}

/* An MPI run file of `ranks` ranks, one result each, as test file `name`. */
static const char *ranks_file(const char *name, size_t ranks)
{
    size_t size = ranks * 2048 + 1024, used = 0;
    char *text = malloc(size);
    assert_non_null(text);
    used += (size_t)snprintf(text + used, size - used, "{" HEAD "\"ranks\": [");
    for (size_t r = 0; r < ranks; r++)
        used += (size_t)snprintf(text + used, size - used,
                                 "%s{\"rank\": %zu, \"host\": " HOST ", \"device\": " DEVICE
                                 ", \"status\": 0, \"results\": [" GOOD_RESULT "]}",
                                 r ? ", " : "", r);
    snprintf(text + used, size - used, "]}");
    const char *path = write_file(name, text);
    free(text);
    return path;
}

/* A run file of more ranks than --device takes devices (64) is refused:
 * one of 5000 ranks made a report of 5007 files. 64 load, and a second
 * file that would pass 64 in all is refused too. */
static void more_runs_than_64_are_refused(void **state)
{
    (void)state;
    refused(ranks_file("ranks-65.json", 65), "more than the 64");
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    const char *path = ranks_file("ranks-64.json", 64);
    assert_int_equal(clmem_runfile_load(path, &runs, &n, &err), CLMEM_OK);
    assert_int_equal(n, 64);
    assert_int_equal(clmem_runfile_load(test_bench_file("h100.json"), &runs, &n, &err),
                     CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, "more than the 64"));
    assert_int_equal(n, 64);
    clmem_compare_devices_free(runs, n);
    clmem_error_clear(&err);
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

int main(int argc, char **argv)
{
    /* One test by name (or a pattern): test_NAME TEST. */
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(loads_a_bench_file),
        cmocka_unit_test(an_mpi_file_is_a_run_per_rank),
        cmocka_unit_test(bad_files_are_refused_with_their_reason),
        cmocka_unit_test(peaks_read_and_launch_load),
        cmocka_unit_test(every_key_the_schema_requires_is_required),
        cmocka_unit_test(metrics_read_as_people_write_them),
        cmocka_unit_test(trailing_data_and_duplicate_keys_are_refused),
        cmocka_unit_test(numbers_json_forbids_and_impossible_figures_are_refused),
        cmocka_unit_test(a_huge_array_is_refused_before_it_is_parsed),
        cmocka_unit_test(a_long_unsorted_curve_reads_in_n_log_n),
        cmocka_unit_test(a_hierarchy_file_keeps_tlb_pages_and_why),
        cmocka_unit_test(an_older_hierarchy_file_loads_without_them),
        cmocka_unit_test(more_runs_than_64_are_refused),
        cmocka_unit_test(invalid_utf8_is_refused_naming_the_field),
    };
    return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
