/* libclmem with a program built against an older clmem.h (clmem_old.h,
 * made by abi/make_header.py: struct clmem_result and struct
 * clmem_run_options without their last two fields, 8 bytes each), linked
 * to the shared library as an installed program is: reduce's variants run
 * on PoCL come back at the program's stride with every field right, two
 * runs append, the results are reported, written to a run file, read
 * back and compared, and freed (AddressSanitizer
 * watches the strides in a sanitizer build); options it knows nothing
 * past read as their defaults, whatever lies after them in its memory.
 * And a program built against a newer header (abi/newer.c) is refused
 * with a clear error before any work. */
#include "abi/abi.h"
#include "tmpdir.h"

#include "clmem_old.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define SIZE "1031" /* a prime: no variant's work-group divides it */

struct fixture {
    struct clmem_device *devices;
    struct clmem_ctx ctx;
};

static int open_device(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    struct clmem_error err = {0};
    if (test_dir_setup(state))
        return -1;
    size_t count, chosen;
    const char *spec = getenv("CLMEM_TEST_DEVICE");
    assert_non_null(f);
    if (clmem_devices_list(&f->devices, &count, &err) ||
        clmem_devices_select(spec ? spec : "cpu", f->devices, count, &chosen, &err) ||
        clmem_ctx_open(&f->ctx, &f->devices[chosen], NULL, &err))
        fail_msg("no test device: %s", err.message);
    /* The devices came back at the program's stride too. */
    assert_string_equal(f->ctx.device.name, f->devices[chosen].name);
    *state = f;
    return 0;
}

static int close_device(void **state)
{
    struct fixture *f = *state;
    clmem_ctx_close(&f->ctx);
    assert_null(f->ctx.context);
    free(f->devices);
    free(f);
    return test_dir_teardown(state);
}

/* The test is about something only while its header is older. */
static void old_header_is_smaller(void **state)
{
    (void)state;
    assert_true(sizeof(struct clmem_result) < abi_real_result_size());
    assert_true(sizeof(struct clmem_run_options) < abi_real_run_options_size());
}

/* Options as the old program lays them out, and after them bytes that
 * libclmem's own struct clmem_run_options would take for its last fields
 * (cancelled, cancelled_user): not zero, so a library that read them
 * would call a wild pointer between variants. */
struct padded_options {
    struct clmem_run_options options;
    unsigned char beyond[64];
};

static void expect_result(const struct clmem_result *r, const struct clmem_ctx *ctx,
                          const char *variant, unsigned reps)
{
    assert_string_equal(r->workload, "reduce");
    assert_string_equal(r->variant, variant);
    assert_string_equal(r->device, ctx->device.name);
    assert_string_equal(r->size, SIZE);
    assert_false(r->skipped);
    assert_true(r->verified);
    assert_string_equal(clmem_result_status(r), "ok");
    assert_int_equal(r->n_samples, reps);
    assert_non_null(r->samples_ms);
    for (size_t i = 0; i < r->n_samples; i++)
        assert_true(r->samples_ms[i] > 0.0);
    assert_true(r->min_ms > 0.0 && r->min_ms <= r->median_ms && r->median_ms <= r->max_ms);
    assert_true(r->metric > 0.0);
    assert_string_equal(r->metric_unit, "GB/s");
    assert_int_equal(r->reps, reps);
    assert_int_equal(r->warmup, 1);
    assert_int_equal(r->seed, 42);
    assert_true(strcmp(r->timer, "events") == 0 || strcmp(r->timer, "host") == 0);
    assert_non_null(strstr(r->note, "(reference ")); /* reduce's note: its sum and the reference */
}

static void old_program_runs_reports_and_frees(void **state)
{
    struct fixture *f = *state;
    const struct clmem_workload *w = clmem_workload_find("reduce");
    assert_non_null(w);
    struct clmem_workload_info info;
    clmem_workload_describe(w, &info);
    assert_string_equal(info.name, "reduce");
    assert_true(info.n_variants >= 2);

    struct padded_options padded;
    memset(&padded, 0xa5, sizeof padded);
    padded.options = (struct clmem_run_options){
        .size = SIZE, .variant = "all", .reps = 2, .warmup = 1, .seed = 42};
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    int status = clmem_run(&f->ctx, w, &padded.options, &results, &n, &err);
    if (status != CLMEM_OK)
        fail_msg("reduce at %s: status %d: %s", SIZE, status, err.message);
    assert_int_equal(n, info.n_variants);
    for (size_t i = 0; i < n; i++) {
        struct clmem_variant_info v;
        clmem_variant_describe(w, i, &v);
        expect_result(&results[i], &f->ctx, v.name, 2);
    }
    /* The context came back with what the run learnt: its clock checked. */
    assert_true(f->ctx.clock.checked);

    /* A second run appends at the same stride. */
    padded.options.variant = "sequential";
    padded.options.reps = 3;
    status = clmem_run(&f->ctx, w, &padded.options, &results, &n, &err);
    if (status != CLMEM_OK)
        fail_msg("reduce sequential: status %d: %s", status, err.message);
    assert_int_equal(n, info.n_variants + 1);
    expect_result(&results[n - 1], &f->ctx, "sequential", 3);
    expect_result(&results[0], &f->ctx, results[0].variant, 2);

    /* Read back in: the CSV has a line per result, each its variant's. */
    FILE *csv = tmpfile();
    assert_non_null(csv);
    struct clmem_report_meta meta = {.device = &f->ctx.device};
    status = clmem_report_write(csv, CLMEM_FORMAT_CSV, results, n, &meta, &err);
    if (status != CLMEM_OK)
        fail_msg("report: %s", err.message);
    rewind(csv);
    char line[4096];
    size_t lines = 0;
    assert_non_null(fgets(line, sizeof line, csv)); /* the header */
    while (fgets(line, sizeof line, csv)) {
        assert_true(lines < n);
        assert_non_null(strstr(line, results[lines].variant));
        assert_non_null(strstr(line, "reduce"));
        lines++;
    }
    assert_int_equal(lines, n);
    fclose(csv);

    /* Read in and written back, each at the stride. */
    struct clmem_peak peak = {.bandwidth = 1e6, .read_bandwidth = 1e6};
    clmem_results_apply_peak(results, n, &peak);
    for (size_t i = 0; i < n; i++)
        assert_true(results[i].peak_fraction == results[i].metric / 1e6);

    /* A run file written and read back: its runs, and each one's results,
     * at the program's strides; a comparison report of them. */
    const char *path = test_in_dir("run.json");
    FILE *json = fopen(path, "w");
    assert_non_null(json);
    assert_int_equal(clmem_report_write(json, CLMEM_FORMAT_JSON, results, n, &meta, &err),
                     CLMEM_OK);
    assert_int_equal(fclose(json), 0);
    struct clmem_compare_device *runs = NULL;
    size_t n_runs = 0;
    for (int copy = 0; copy < 2; copy++) {
        status = clmem_runfile_load(path, &runs, &n_runs, &err);
        if (status != CLMEM_OK)
            fail_msg("reading back '%s': %s", path, err.message);
    }
    assert_int_equal(n_runs, 2);
    for (size_t r = 0; r < n_runs; r++) {
        assert_string_equal(runs[r].device.name, f->ctx.device.name);
        assert_string_equal(runs[r].origin, path);
        assert_int_equal(runs[r].n_results, n);
        for (size_t i = 0; i < n; i++) {
            assert_string_equal(runs[r].results[i].variant, results[i].variant);
            assert_int_equal(runs[r].results[i].n_samples, results[i].n_samples);
            assert_true(runs[r].results[i].verified);
        }
    }
    char note[256];
    status = clmem_compare_report(test_in_dir("report"), runs, n_runs, note, sizeof note, &err);
    if (status != CLMEM_OK)
        fail_msg("compare report: %s", err.message);
    char *md = test_read_file(test_in_dir("report/report.md"));
    assert_non_null(md);
    assert_non_null(strstr(md, "sequential"));
    free(md);
    clmem_compare_devices_free(runs, n_runs);

    clmem_results_free(results, n);
    clmem_error_clear(&err);
}

/* A program whose header is newer than the library: clmem_devices_list
 * and clmem_run say so, naming the struct and both sizes, and leave its
 * list and results empty. */
static void newer_program_is_refused(void **state)
{
    (void)state;
    char message[2048], expected[200];
    snprintf(expected, sizeof expected, "struct clmem_result is %zu bytes there, %zu here",
             abi_newer_result_size(), abi_real_result_size());
    size_t count;
    int list_null;
    assert_int_equal(abi_newer_list(message, sizeof message, &count, &list_null), CLMEM_ERR_USAGE);
    if (!strstr(message, expected) || !strstr(message, "newer clmem.h"))
        fail_msg("clmem_devices_list said '%s', not '%s'", message, expected);
    assert_int_equal(count, 0);
    assert_true(list_null);

    size_t n_results;
    int results_null;
    assert_int_equal(abi_newer_run(message, sizeof message, &n_results, &results_null),
                     CLMEM_ERR_USAGE);
    if (!strstr(message, expected))
        fail_msg("clmem_run said '%s', not '%s'", message, expected);
    assert_int_equal(n_results, 0);
    assert_true(results_null);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(old_header_is_smaller),
        cmocka_unit_test(old_program_runs_reports_and_frees),
        cmocka_unit_test(newer_program_is_refused),
    };
    return cmocka_run_group_tests(tests, open_device, close_device);
}
