/* The runtime's pieces: error names, sizes, device selection, builds,
 * checks, inputs, atomic output files. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "pocl.h"
#include "workloads/registry.h"

#include <dlfcn.h>

#include <dirent.h>
#include <errno.h>
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

static void error_names_are_names(void **state)
{
    (void)state;
    assert_string_equal(clmem_cl_error_name(CL_INVALID_WORK_GROUP_SIZE),
                        "CL_INVALID_WORK_GROUP_SIZE");
    assert_string_equal(clmem_cl_error_name(-54), "CL_INVALID_WORK_GROUP_SIZE");
    assert_string_equal(clmem_cl_error_name(CL_BUILD_PROGRAM_FAILURE), "CL_BUILD_PROGRAM_FAILURE");
    assert_string_equal(clmem_cl_error_name(CL_SUCCESS), "CL_SUCCESS");
    assert_string_equal(clmem_cl_error_name(CL_INVALID_DEVICE_PARTITION_COUNT),
                        "CL_INVALID_DEVICE_PARTITION_COUNT");
    assert_string_equal(clmem_cl_error_name(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
    assert_string_equal(clmem_cl_error_name(-9999), "CL_UNKNOWN_ERROR");
    assert_string_equal(clmem_cl_error_name(5), "CL_UNKNOWN_ERROR");
}

static int failing_call(struct clmem_error *err)
{
    CLMEM_CHECK(err, clReleaseMemObject(NULL));
    return CLMEM_OK;
}

static void check_macro_names_call_and_error(void **state)
{
    (void)state;
    struct clmem_error err = {0};
    assert_int_equal(failing_call(&err), CLMEM_ERR_CL);
    assert_int_equal(err.cl_err, CL_INVALID_MEM_OBJECT);
    assert_non_null(strstr(err.message, "clReleaseMemObject failed with CL_INVALID_MEM_OBJECT"));
    assert_non_null(strstr(err.message, "failing_call"));
}

/* A message longer than its buffer keeps its end, the reason (issue 17:
 * messages cut at 1024 bytes lost it): a 3000-character output path. */
static void long_messages_keep_their_reason(void **state)
{
    (void)state;
    char path[4200] = "/tmp/clmem-no-such-dir";
    size_t len = strlen(path);
    while (len < 3000) /* components of 200 characters, under NAME_MAX */
        len += (size_t)snprintf(path + len, sizeof path - len, "/%0200d", 7);
    snprintf(path + len, sizeof path - len, "/report.json");
    struct clmem_error err = {0};
    assert_int_equal(clmem_output_check(path, &err), CLMEM_ERR_USAGE);
    const char *reason = "' is too long"; /* longer than clmem keeps a path */
    size_t n = strlen(err.message), r = strlen(reason);
    assert_true(n < sizeof err.message && n > r);
    if (strcmp(err.message + n - r, reason) != 0)
        fail_msg("the reason was lost: '...%s'", err.message + n - 80);
    assert_non_null(strstr(err.message, "/tmp/clmem-no-such-dir/"));
    assert_non_null(strstr(err.message, " characters ...] "));
    /* Short ones are kept whole. */
    assert_int_equal(clmem_fail(&err, CLMEM_ERR_USAGE, "short %s", "message"), CLMEM_ERR_USAGE);
    assert_string_equal(err.message, "short message");
}

static void sizes_parse(void **state)
{
    (void)state;
    struct clmem_error err = {0};
    struct clmem_size s;
    assert_int_equal(clmem_size_parse("1000x777x333", &s, &err), CLMEM_OK);
    assert_true(s.dim[0] == 1000 && s.dim[1] == 777 && s.dim[2] == 333 && s.ndims == 3);
    assert_int_equal(clmem_size_parse("17", &s, &err), CLMEM_OK);
    assert_true(s.dim[0] == 17 && s.dim[1] == 17 && s.dim[2] == 17 && s.ndims == 1);
    assert_int_equal(clmem_size_parse("640X480", &s, &err), CLMEM_OK);
    assert_true(s.dim[0] == 640 && s.dim[1] == 480 && s.dim[2] == 480);
    char text[64];
    clmem_size_parse("5x6x7", &s, &err);
    clmem_size_format(&s, text, sizeof text);
    assert_string_equal(text, "5x6x7");

    static const struct {
        const char *text, *message;
    } bad[] = {
        {"0", "zero"},
        {"-5", "negative"},
        {"abc", "not a number"},
        {"", "empty"},
        {"12x", "not a number"},
        {"1x2x3x4", "not a number"},
        {"4x0x4", "zero"},
        {"99999999999999999999", "too large"},
        {"2147483648", "too large"},
        {"12.5", "not a number"},
        {"x5", "not a number"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        clmem_error_clear(&err);
        assert_int_equal(clmem_size_parse(bad[i].text, &s, &err), CLMEM_ERR_USAGE);
        if (!strstr(err.message, bad[i].message))
            fail_msg("size '%s': message '%s' lacks '%s'", bad[i].text, err.message,
                     bad[i].message);
    }
}

static const struct clmem_device fake[] = {
    {.platform_index = 0,
     .device_index = 0,
     .name = "pthread-skylake",
     .platform_name = "Portable Computing Language",
     .version = "OpenCL 3.0 PoCL 3.1",
     .type = CL_DEVICE_TYPE_CPU},
    {.platform_index = 1,
     .device_index = 0,
     .name = "NVIDIA H100 80GB HBM3",
     .platform_name = "NVIDIA CUDA",
     .version = "OpenCL 3.0 CUDA",
     .type = CL_DEVICE_TYPE_GPU},
    {.platform_index = 1,
     .device_index = 1,
     .name = "NVIDIA A100",
     .platform_name = "NVIDIA CUDA",
     .version = "OpenCL 3.0 CUDA",
     .type = CL_DEVICE_TYPE_GPU},
};

static void device_selection(void **state)
{
    (void)state;
    struct clmem_error err = {0};
    size_t chosen = 99;
    static const struct {
        const char *spec;
        size_t expected;
    } good[] = {
        {NULL, 1},   {"1:1", 2},  {"0:0", 0},  {"gpu", 1},    {"CPU", 0},
        {"h100", 1}, {"a100", 2}, {"pocl", 0}, {"NVIDIA", 1}, {"portable", 0},
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        assert_int_equal(clmem_devices_select(good[i].spec, fake, 3, &chosen, &err), CLMEM_OK);
        assert_int_equal(chosen, good[i].expected);
    }
    /* No GPU: the first device. */
    assert_int_equal(clmem_devices_select(NULL, fake, 1, &chosen, &err), CLMEM_OK);
    assert_int_equal(chosen, 0);

    static const struct {
        const char *spec, *message;
        int status;
    } bad[] = {
        {"2:0", "no device '2:0'", CLMEM_ERR_USAGE},
        {"1:", "bad device index", CLMEM_ERR_USAGE},
        {"a:b", "bad device index", CLMEM_ERR_USAGE},
        {"accelerator", "no accelerator device", CLMEM_ERR_USAGE},
        {"radeon", "unknown device 'radeon'", CLMEM_ERR_USAGE},
        {"", "empty device", CLMEM_ERR_USAGE},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        clmem_error_clear(&err);
        assert_int_equal(clmem_devices_select(bad[i].spec, fake, 3, &chosen, &err), bad[i].status);
        if (!strstr(err.message, bad[i].message))
            fail_msg("spec '%s': '%s' lacks '%s'", bad[i].spec, err.message, bad[i].message);
    }
    clmem_error_clear(&err);
    assert_int_equal(clmem_devices_select(NULL, fake, 0, &chosen, &err), CLMEM_ERR_CL);
    assert_non_null(strstr(err.message, "pocl-opencl-icd"));
}

/* A list's specs are parsed once, each a span of the list (no copy, no
 * NUL of its own), and found from the parsed struct: a message quotes the
 * span alone. */
static void device_specs_parsed_once(void **state)
{
    (void)state;
    struct clmem_error err = {0};
    const char *list = "h100,CPU,1:1,radeon,0:x";
    static const struct {
        size_t at, len;
        int kind;
        size_t expected; /* found (SIZE_MAX: refused at find) */
    } want[] = {
        {0, 4, CLMEM_SPEC_NAME, 1},
        {5, 3, CLMEM_SPEC_TYPE, 0},
        {9, 3, CLMEM_SPEC_INDEX, 2},
        {13, 6, CLMEM_SPEC_NAME, SIZE_MAX},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        struct clmem_device_spec spec;
        size_t chosen = 99;
        assert_int_equal(clmem_device_spec_parse(list + want[i].at, want[i].len, &spec, &err),
                         CLMEM_OK);
        assert_int_equal(spec.kind, want[i].kind);
        assert_ptr_equal(spec.text, list + want[i].at);
        int status = clmem_device_spec_find(&spec, fake, 3, &chosen, &err);
        if (want[i].expected == SIZE_MAX) {
            assert_int_equal(status, CLMEM_ERR_USAGE);
            assert_non_null(strstr(err.message, "unknown device 'radeon' "));
            clmem_error_clear(&err);
        } else {
            assert_int_equal(status, CLMEM_OK);
            assert_int_equal(chosen, want[i].expected);
        }
    }
    struct clmem_device_spec spec;
    assert_int_equal(clmem_device_spec_parse(list + 20, 3, &spec, &err), CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, "bad device index '0:x' "));
    clmem_error_clear(&err);
    /* NULL: the default, the first GPU. */
    size_t chosen = 99;
    assert_int_equal(clmem_device_spec_parse(NULL, 0, &spec, &err), CLMEM_OK);
    assert_int_equal(clmem_device_spec_find(&spec, fake, 3, &chosen, &err), CLMEM_OK);
    assert_int_equal(chosen, 1);
}

static void build_failure_keeps_the_log(void **state)
{
    struct clmem_ctx *ctx = *state;
    char dir[] = "/tmp/clmem-test-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/broken.cl", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("__kernel void broken(__global float *x) { x[0] = undeclared_name; }\n", f);
    fclose(f);

    struct clmem_ctx local = *ctx;
    snprintf(local.kernel_dir, sizeof local.kernel_dir, "%s", dir);
    struct clmem_error err = {0};
    cl_program program = NULL;
    assert_int_equal(clmem_program_build(&local, "broken.cl", "-DTILE=7", &program, &err),
                     CLMEM_ERR_CL);
    assert_null(program);
    assert_int_equal(err.cl_err, CL_BUILD_PROGRAM_FAILURE);
    assert_non_null(strstr(err.message, "broken.cl"));
    assert_non_null(strstr(err.message, "-DTILE=7"));
    assert_non_null(strstr(err.message, "CL_BUILD_PROGRAM_FAILURE"));
    assert_non_null(err.log);
    assert_non_null(strstr(err.log, "undeclared_name"));
    clmem_error_clear(&err);
    assert_null(err.log);

    /* A source that is not there names the file. */
    assert_int_equal(clmem_program_build(&local, "absent.cl", "", &program, &err), CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, "absent.cl"));
    unlink(path);
    rmdir(dir);
}

static void check_counts_and_keeps_ten_lines(void **state)
{
    (void)state;
    struct clmem_check c;
    clmem_check_init(&c, 1e-6);
    for (size_t i = 0; i < 20; i++)
        clmem_check_value(&c, 1.0, i % 2 ? 1.5 : 1.0, 1.0, "x[%zu]", i, 0);
    assert_int_equal(c.checked, 20);
    assert_int_equal(c.mismatches, 10);
    assert_false(clmem_check_passed(&c));
    assert_non_null(strstr(c.lines[0], "x[1]: expected 1, got 1.5"));
    assert_true(c.max_rel_error > 0.49 && c.max_rel_error < 0.51);
    clmem_check_init(&c, 1e-6);
    assert_false(clmem_check_passed(&c)); /* nothing checked is no pass */
    clmem_check_value(&c, 2.0, 2.0 + 1e-9, 2.0, "x[%zu]", 0, 0);
    assert_true(clmem_check_passed(&c));
    clmem_check_value(&c, 2.0, 0.0 / 0.0, 2.0, "x[%zu]", 1, 0);
    assert_false(clmem_check_passed(&c));
}

static void inputs_are_reproducible(void **state)
{
    (void)state;
    float a[64], b[64], c[64];
    clmem_fill_uniform(a, 64, -1.0f, 1.0f, 42);
    clmem_fill_uniform(b, 64, -1.0f, 1.0f, 42);
    clmem_fill_uniform(c, 64, -1.0f, 1.0f, 43);
    assert_memory_equal(a, b, sizeof a);
    assert_memory_not_equal(a, c, sizeof a);
    for (int i = 0; i < 64; i++)
        assert_true(a[i] >= -1.0f && a[i] < 1.0f);
}

static void output_appears_whole_or_not_at_all(void **state)
{
    (void)state;
    struct clmem_error err = {0};
    struct clmem_output out;
    char path[] = "/tmp/clmem-out-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "old\n", 4), 4);
    close(fd);
    assert_int_equal(clmem_output_open(&out, path, &err), CLMEM_OK);
    fputs("new\n", out.file);
    fflush(out.file);
    /* The temporary file, saved before the abort clears out.tmp_path: it
     * exists now, and must be gone after. */
    char tmp_path[sizeof out.tmp_path];
    snprintf(tmp_path, sizeof tmp_path, "%s", out.tmp_path);
    assert_true(tmp_path[0] != '\0');
    assert_int_equal(access(tmp_path, F_OK), 0);
    clmem_output_abort(&out); /* interrupted: the old file stays */
    FILE *f = fopen(path, "r");
    char line[16] = "";
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    assert_string_equal(line, "old\n");
    assert_int_equal(access(tmp_path, F_OK), -1);

    assert_int_equal(clmem_output_open(&out, path, &err), CLMEM_OK);
    fputs("new\n", out.file);
    assert_int_equal(clmem_output_commit(&out, &err), CLMEM_OK);
    f = fopen(path, "r");
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    assert_string_equal(line, "new\n");
    unlink(path);

    assert_int_equal(clmem_output_open(&out, "/nonexistent-dir/x.json", &err), CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, "cannot write '/nonexistent-dir/x.json'"));
}

/* What a signal that stops clmem at once removes: the temporary files of
 * every output open (two here, as a report and an image are), none that
 * is committed or aborted, and nothing else. */
static void stop_removes_every_pending_output(void **state)
{
    (void)state;
    struct clmem_error err = {0};
    struct clmem_output report, image, done;
    char dir[] = "/tmp/clmem-pending-XXXXXX", path[3][96], tmp[2][sizeof report.tmp_path];
    assert_non_null(mkdtemp(dir));
    for (int i = 0; i < 3; i++)
        snprintf(path[i], sizeof path[i], "%s/out%d", dir, i);
    assert_int_equal(clmem_output_open(&report, path[0], &err), CLMEM_OK);
    assert_int_equal(clmem_output_open(&image, path[1], &err), CLMEM_OK);
    assert_int_equal(clmem_output_open(&done, path[2], &err), CLMEM_OK);
    /* Nothing is made until something is written: a process killed
     * before its report (SIGKILL, which nothing can catch) leaves nothing. */
    assert_string_equal(report.tmp_path, "");
    fputs("{}", report.file);
    fputs("P5", image.file);
    assert_int_equal(fflush(report.file), 0);
    assert_int_equal(fflush(image.file), 0);
    assert_int_equal(clmem_output_commit(&done, &err), CLMEM_OK);
    snprintf(tmp[0], sizeof tmp[0], "%s", report.tmp_path);
    snprintf(tmp[1], sizeof tmp[1], "%s", image.tmp_path);
    assert_int_equal(access(tmp[0], F_OK), 0);
    assert_int_equal(access(tmp[1], F_OK), 0);
    clmem_output_remove_pending();
    assert_int_equal(access(tmp[0], F_OK), -1);
    assert_int_equal(access(tmp[1], F_OK), -1);
    assert_int_equal(access(path[2], F_OK), 0); /* the committed one stays */
    clmem_output_abort(&report);
    clmem_output_abort(&image);
    /* Their slots are free again: a new output is removed as they were. */
    assert_int_equal(clmem_output_open(&report, path[0], &err), CLMEM_OK);
    fputs("{}", report.file);
    assert_int_equal(fflush(report.file), 0);
    snprintf(tmp[0], sizeof tmp[0], "%s", report.tmp_path);
    assert_int_equal(access(tmp[0], F_OK), 0);
    clmem_output_remove_pending();
    assert_int_equal(access(tmp[0], F_OK), -1);
    clmem_output_abort(&report);
    assert_int_equal(unlink(path[2]), 0);
    assert_int_equal(rmdir(dir), 0);
}

/* clmem_median on known arrays, against values written here: odd and even
 * counts, one sample, unsorted input, duplicates; the input is not
 * reordered. (A median taking sorted[n/2 - 1] for even counts once passed
 * every test, which recomputed the metric from median_ms itself.) */
static void median_of_known_arrays(void **state)
{
    (void)state;
    static const struct {
        double samples[8];
        size_t n;
        double median;
    } cases[] = {
        {{7.0}, 1, 7.0},
        {{2.0, 1.0}, 2, 1.5},
        {{3.0, 1.0, 2.0}, 3, 2.0},
        {{4.0, 1.0, 3.0, 2.0}, 4, 2.5},
        {{10.0, 0.5, 8.0, 0.25, 3.0}, 5, 3.0},
        {{9.0, 1.0, 8.0, 2.0, 7.0, 3.0}, 6, 5.0},
        {{5.0, 5.0, 1.0, 5.0}, 4, 5.0},
        {{1.0, 2.0, 2.0, 1.0}, 4, 1.5},
        {{6.0, 6.0, 6.0}, 3, 6.0},
        {{1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 100.0}, 8, 4.5},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        double copy[8];
        memcpy(copy, cases[c].samples, sizeof copy);
        double got = clmem_median(copy, cases[c].n);
        if (got != cases[c].median)
            fail_msg("case %zu: median of %zu samples %g, expected %g", c, cases[c].n, got,
                     cases[c].median);
        assert_memory_equal(copy, cases[c].samples, sizeof copy);
    }
    assert_true(isnan(clmem_median(NULL, 0)));
}

/* clmem_result_summarise: median, min and max of the samples, wherever in
 * the array the extremes are, the samples left in their order. */
static void summarise_gives_median_min_max(void **state)
{
    (void)state;
    static const struct {
        double samples[6];
        size_t n;
        double median, min, max;
    } cases[] = {
        {{0.5}, 1, 0.5, 0.5, 0.5},
        {{3.0, 1.0}, 2, 2.0, 1.0, 3.0},
        {{2.0, 9.0, 1.0}, 3, 2.0, 1.0, 9.0},
        {{4.0, 4.0, 0.25, 8.0}, 4, 4.0, 0.25, 8.0},
        {{1.5, 2.5, 3.5, 4.5, 5.5, 0.5}, 6, 3.0, 0.5, 5.5},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        double samples[6];
        memcpy(samples, cases[c].samples, sizeof samples);
        struct clmem_result r = {.samples_ms = samples, .n_samples = cases[c].n};
        clmem_result_summarise(&r);
        if (r.median_ms != cases[c].median || r.min_ms != cases[c].min || r.max_ms != cases[c].max)
            fail_msg("case %zu: median/min/max %g/%g/%g, expected %g/%g/%g", c, r.median_ms,
                     r.min_ms, r.max_ms, cases[c].median, cases[c].min, cases[c].max);
        assert_memory_equal(samples, cases[c].samples, sizeof samples);
        /* The test fixture's own median agrees (it checks every workload's). */
        assert_true(test_median_of(samples, cases[c].n) == cases[c].median);
    }
}

static void registry_lists_matmul(void **state)
{
    (void)state;
    const struct clmem_workload *w = clmem_workload_find("matmul");
    assert_non_null(w);
    assert_non_null(clmem_variant_find(w, "tiled_bounds"));
    assert_null(clmem_variant_find(w, "tiledd"));
    assert_null(clmem_workload_find("matmull"));
    size_t n;
    const struct clmem_workload *const *all = clmem_workloads(&n);
    for (size_t i = 0; i < n; i++) {
        assert_true(all[i]->n_variants > 0 && all[i]->n_variants <= CLMEM_MAX_VARIANTS);
        assert_non_null(all[i]->plan);
        assert_non_null(all[i]->verify);
        /* Its work is data or computed: never 0, which would make every metric 0. */
        assert_true(all[i]->work || all[i]->work_per_element > 0);
    }
}

/* clmem bench: the peaks first, then the chosen workloads at their CPU
 * bench sizes, each GB/s result with its fraction of the measured copy. */
static void bench_measures_peaks_then_workloads(void **state)
{
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0, steps = 0;
    struct clmem_peak peak;
    struct clmem_bench_options options = {.reps = 1, .seed = 42, .only = "transpose"};
    assert_int_equal(clmem_bench_plan(*state, &options, &steps, &err), CLMEM_OK);
    assert_int_equal(steps, 1);
    assert_int_equal(clmem_bench_run(*state, &options, &peak, &results, &n, &err), CLMEM_OK);
    assert_true(peak.bandwidth > 0 && peak.flops > 0);
    /* The peak's variants first, whichever they are; then transpose's. */
    size_t n_peak = 0;
    while (n_peak < n && strcmp(results[n_peak].workload, "peak") == 0)
        n_peak++;
    struct clmem_workload_info transpose;
    clmem_workload_describe(clmem_workload_find("transpose"), &transpose);
    assert_true(n_peak >= 2 && n == n_peak + transpose.n_variants);
    assert_true(test_find_result(results, n_peak, "copy") &&
                test_find_result(results, n_peak, "fma"));
    assert_string_equal(results[n_peak].workload, "transpose");
    assert_string_equal(results[n_peak].size, "2048");
    for (size_t i = n_peak; i < n; i++) {
        assert_true(results[i].verified);
        double fraction = results[i].metric / peak.bandwidth;
        assert_true(results[i].peak_fraction > 0.999 * fraction &&
                    results[i].peak_fraction < 1.001 * fraction);
    }
    clmem_results_free(results, n);

    options.only = "transpose,nope";
    assert_int_equal(clmem_bench_plan(*state, &options, &steps, &err), CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, "unknown workload 'nope'"));
    options.only = NULL;
    options.compare = "cublas";
    assert_int_equal(clmem_bench_plan(*state, &options, &steps, &err), CLMEM_ERR_USAGE);
}

/* Removes what path names, a directory with all it holds (no links
 * followed): the test's temporary directories. 0 on success. */
static int remove_path(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return -1;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (!d)
            return -1;
        struct dirent *e;
        int failed = 0;
        while ((e = readdir(d))) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char child[4096];
            snprintf(child, sizeof child, "%s/%s", path, e->d_name);
            failed |= remove_path(child) != 0;
        }
        closedir(d);
        return failed ? -1 : rmdir(path);
    }
    return unlink(path);
}

/* Removes a temporary directory the test made, so no run leaves it behind. */
static void remove_tree(const char *dir)
{
    if (remove_path(dir) != 0)
        fail_msg("cannot remove '%s'", dir);
    assert_int_equal(access(dir, F_OK), -1);
}

/* Builds transpose.cl with `options` and releases it; the counters tell
 * whether the cache was used. */
static void build_once(struct clmem_ctx *ctx, const char *options)
{
    struct clmem_error err = {0};
    cl_program program = NULL;
    assert_int_equal(clmem_program_build(ctx, "transpose.cl", options, &program, &err), CLMEM_OK);
    cl_kernel kernel = clCreateKernel(program, "copy", NULL);
    assert_non_null(kernel);
    clReleaseKernel(kernel);
    clmem_release_program(&program);
}

/* Overwrites `size` bytes at `offset` of a file, or truncates it there. */
static void damage(const char *path, long offset, int truncate_it)
{
    if (truncate_it) {
        assert_int_equal(truncate(path, offset), 0);
        return;
    }
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, offset, SEEK_SET);
    int c = fgetc(f);
    fseek(f, offset, SEEK_SET);
    fputc(c ^ 0x5a, f);
    fclose(f);
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* The cache entry of transpose.cl built with `options`, named as the
 * runtime names it from the same inputs. */
static void name_entry(struct clmem_ctx *ctx, const char *options, struct clmem_cache_entry *entry)
{
    char *source = test_kernel_text("transpose.cl"), all[256];
    snprintf(all, sizeof all, "-cl-std=CL1.2 %s", options);
    assert_int_equal(clmem_cache_entry(ctx, source, all, entry), 0);
    free(source);
}

/* The compiled-program cache: a second build is a hit; a truncated, a
 * corrupted and a stale entry are each rebuilt with a warning, never used;
 * --no-cache neither reads nor writes it. */
static void program_cache_hits_and_rebuilds(void **state)
{
    struct clmem_ctx *ctx = *state;
    char dir[] = "/tmp/clmem-cache-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *saved_env = getenv("XDG_CACHE_HOME");
    char saved[1024];
    snprintf(saved, sizeof saved, "%s", saved_env ? saved_env : "");
    setenv("XDG_CACHE_HOME", dir, 1);
    const char *options = "-DTILE_DIM=4 -DBLOCK_ROWS=2";
    struct clmem_cache_entry entry, other;
    ctx->cache_hits = ctx->cache_stored = ctx->cache_rebuilt = 0;

    build_once(ctx, options);
    assert_int_equal(ctx->cache_stored, 1);
    assert_int_equal(ctx->cache_hits, 0);
    build_once(ctx, options);
    assert_int_equal(ctx->cache_hits, 1);

    name_entry(ctx, options, &entry);
    assert_true(strncmp(entry.path, dir, strlen(dir)) == 0);
    long size = file_size(entry.path);
    assert_true(size > 100);

    static const struct {
        long offset; /* from the end when negative */
        int truncate_it;
        const char *why;
    } damages[] = {{-20, 1, "truncated"}, {-9, 0, "checksum mismatch"}, {0, 0, "not a clmem"}};
    for (size_t i = 0; i < sizeof damages / sizeof *damages; i++) {
        long at = damages[i].offset < 0 ? file_size(entry.path) + damages[i].offset : 0;
        damage(entry.path, at, damages[i].truncate_it);
        ctx->cache_warning[0] = '\0';
        unsigned rebuilt = ctx->cache_rebuilt, stored = ctx->cache_stored;
        build_once(ctx, options);
        assert_int_equal(ctx->cache_rebuilt, rebuilt + 1);
        assert_int_equal(ctx->cache_stored, stored + 1); /* a good entry again */
        if (!strstr(ctx->cache_warning, damages[i].why))
            fail_msg("damage %zu: warning '%s' lacks '%s'", i, ctx->cache_warning, damages[i].why);
        assert_int_equal(file_size(entry.path), size);
    }

    /* Stale: another program's entry under this one's name. */
    build_once(ctx, "-DTILE_DIM=8 -DBLOCK_ROWS=2");
    name_entry(ctx, "-DTILE_DIM=8 -DBLOCK_ROWS=2", &other);
    assert_int_equal(rename(other.path, entry.path), 0);
    unsigned rebuilt = ctx->cache_rebuilt, hits = ctx->cache_hits;
    build_once(ctx, options);
    assert_int_equal(ctx->cache_rebuilt, rebuilt + 1);
    assert_int_equal(ctx->cache_hits, hits);
    assert_non_null(strstr(ctx->cache_warning, "another source, device or driver"));

    /* --no-cache: the entry is neither read nor written. */
    unlink(entry.path);
    ctx->no_cache = 1;
    unsigned stored = ctx->cache_stored;
    build_once(ctx, options);
    build_once(ctx, options);
    assert_int_equal(ctx->cache_stored, stored);
    assert_int_equal(ctx->cache_hits, hits);
    assert_int_equal(file_size(entry.path), -1);
    ctx->no_cache = 0;
    ctx->cache_warning[0] = '\0';
    if (saved_env)
        setenv("XDG_CACHE_HOME", saved, 1);
    else
        unsetenv("XDG_CACHE_HOME");
    remove_tree(dir);
}

/* The tuning database round-trips, and a corrupt one is ignored with a
 * warning by lookups and left as it is by stores (exit 2), until removed. */
static void tuning_database_round_trips(void **state)
{
    struct clmem_ctx *ctx = *state;
    char dir[] = "/tmp/clmem-tuning-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *saved_env = getenv("XDG_CACHE_HOME");
    char saved[1024], path[1024];
    snprintf(saved, sizeof saved, "%s", saved_env ? saved_env : "");
    setenv("XDG_CACHE_HOME", dir, 1);
    const struct clmem_workload *w = clmem_workload_find("matmul");
    const struct clmem_tunable *t = clmem_tunable_find(w, "regblock");
    struct clmem_error err = {0};
    struct clmem_size size, other;
    assert_int_equal(clmem_size_parse("1000x600x24", &size, &err), CLMEM_OK);
    assert_int_equal(clmem_size_parse("2048", &other, &err), CLMEM_OK);
    char size_class[64];
    clmem_size_class(&size, size_class, sizeof size_class);
    assert_string_equal(size_class, "N<=1024");
    int values[CLMEM_MAX_PARAMS] = {0}, stored[CLMEM_MAX_PARAMS] = {32, 64, 8, 8, 16};
    assert_false(clmem_tuning_lookup(ctx, w, t, &size, values));
    assert_int_equal(clmem_tuning_store(ctx, w, t, &size, stored,
                                        &(struct clmem_tuning_outcome){2.0, 1.0, "GFLOP/s", 0, NULL},
                                        &err),
                     CLMEM_OK);
    assert_true(clmem_tuning_lookup(ctx, w, t, &size, values));
    assert_memory_equal(values, stored, 5 * sizeof(int));
    assert_false(clmem_tuning_lookup(ctx, w, t, &other, values)); /* another size class */
    /* Another tunable variant of the workload, another entry. */
    assert_false(clmem_tuning_lookup(ctx, w, clmem_tunable_find(w, "panel"), &size, values));

    assert_int_equal(clmem_tuning_path(path, sizeof path), 0);
    FILE *f = fopen(path, "w");
    fputs("{\"entries\": [", f); /* cut short */
    fclose(f);
    ctx->tuning_warning[0] = '\0';
    assert_false(clmem_tuning_lookup(ctx, w, t, &size, values));
    assert_non_null(strstr(ctx->tuning_warning, "is not valid JSON"));
    /* Not replaced by the next store: whoever broke it decides. */
    assert_int_equal(clmem_tuning_store(ctx, w, t, &size, stored,
                                        &(struct clmem_tuning_outcome){2.0, 1.0, "GFLOP/s", 0, NULL},
                                        &err),
                     CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, "is not valid JSON"));
    assert_non_null(strstr(err.message, "fix or remove it"));
    char text[64];
    f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(text, sizeof text, f));
    fclose(f);
    assert_string_equal(text, "{\"entries\": [");
    clmem_error_clear(&err);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(clmem_tuning_store(ctx, w, t, &size, stored,
                                        &(struct clmem_tuning_outcome){2.0, 1.0, "GFLOP/s", 0, NULL},
                                        &err),
                     CLMEM_OK);
    ctx->tuning_warning[0] = '\0';
    assert_true(clmem_tuning_lookup(ctx, w, t, &size, values));
    assert_string_equal(ctx->tuning_warning, "");
    /* The built-in parameters kept as the best: recorded, not applied. */
    assert_int_equal(clmem_tuning_store(ctx, w, t, &size, stored,
                                        &(struct clmem_tuning_outcome){1.0, 1.0, "GFLOP/s", 1, NULL},
                                        &err),
                     CLMEM_OK);
    assert_false(clmem_tuning_lookup(ctx, w, t, &size, values));
    unlink(path);
    if (saved_env)
        setenv("XDG_CACHE_HOME", saved, 1);
    else
        unsetenv("XDG_CACHE_HOME");
    remove_tree(dir);
}

/* A tuning database that is not exactly JSON (text after the document, a
 * number "02", a string that is not UTF-8), each of which cJSON would
 * read: ignored with a warning, as a hand edit gone wrong, and left as it
 * is by a store. */
static void tuning_database_not_exactly_json_is_ignored(void **state)
{
    struct clmem_ctx *ctx = *state;
    char dir[] = "/tmp/clmem-tuning-strict-XXXXXX", path[1024];
    assert_non_null(mkdtemp(dir));
    const char *saved_env = getenv("XDG_CACHE_HOME");
    char saved[1024];
    snprintf(saved, sizeof saved, "%s", saved_env ? saved_env : "");
    setenv("XDG_CACHE_HOME", dir, 1);
    const struct clmem_workload *w = clmem_workload_find("matmul");
    const struct clmem_tunable *t = clmem_tunable_find(w, "regblock");
    struct clmem_error err = {0};
    struct clmem_size size;
    assert_int_equal(clmem_size_parse("1000x600x24", &size, &err), CLMEM_OK);
    int values[CLMEM_MAX_PARAMS] = {0}, stored[CLMEM_MAX_PARAMS] = {32, 64, 8, 8, 16};
    assert_int_equal(clmem_tuning_store(ctx, w, t, &size, stored,
                                        &(struct clmem_tuning_outcome){2.0, 1.0, "GFLOP/s", 0, NULL},
                                        &err),
                     CLMEM_OK);
    assert_int_equal(clmem_tuning_path(path, sizeof path), 0);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char good[65536];
    size_t len = fread(good, 1, sizeof good - 1, f);
    fclose(f);
    good[len] = '\0';
    assert_true(clmem_tuning_lookup(ctx, w, t, &size, values));
    static const struct {
        const char *what, *from, *to;
    } edits[] = {
        {"trailing data", "", "garbage"},
        {"a number with a leading zero", "\"metric\":\t2", "\"metric\":\t02"},
        {"not UTF-8", "GFLOP/s", "GFLOP/\xff"},
    };
    for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
        static char text[65600];
        const char *at = edits[i].from[0] ? strstr(good, edits[i].from) : good + len;
        if (!at)
            fail_msg("%s: no '%s' in: %s", edits[i].what, edits[i].from, good);
        snprintf(text, sizeof text, "%.*s%s%s", (int)(at - good), good, edits[i].to,
                 at + strlen(edits[i].from));
        f = fopen(path, "w");
        assert_non_null(f);
        fputs(text, f);
        fclose(f);
        ctx->tuning_warning[0] = '\0';
        if (clmem_tuning_lookup(ctx, w, t, &size, values))
            fail_msg("%s: the database was used", edits[i].what);
        if (!strstr(ctx->tuning_warning, "is not valid JSON"))
            fail_msg("%s: warning '%s'", edits[i].what, ctx->tuning_warning);
        assert_int_equal(clmem_tuning_store(ctx, w, t, &size, stored,
                                            &(struct clmem_tuning_outcome){2.0, 1.0, "GFLOP/s", 0, NULL},
                                            &err),
                         CLMEM_ERR_USAGE);
        clmem_error_clear(&err);
    }
    unlink(path);
    if (saved_env)
        setenv("XDG_CACHE_HOME", saved, 1);
    else
        unsetenv("XDG_CACHE_HOME");
    remove_tree(dir);
}

static void set_cache_home(const char *dir, char *saved, size_t size, int *had)
{
    const char *env = getenv("XDG_CACHE_HOME");
    *had = env != NULL;
    snprintf(saved, size, "%s", env ? env : "");
    setenv("XDG_CACHE_HOME", dir, 1);
}

static void restore_cache_home(const char *saved, int had)
{
    if (had)
        setenv("XDG_CACHE_HOME", saved, 1);
    else
        unsetenv("XDG_CACHE_HOME");
}

/* Writes `text` into dir/name (appended when `append`). */
static void write_in(const char *dir, const char *name, const char *text, int append)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, append ? "a" : "w");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
}

/* Copies the source tree's cl/NAME into dir. */
static void copy_kernel(const char *dir, const char *name)
{
    char *text = test_kernel_text(name);
    write_in(dir, name, text, 0);
    free(text);
}

/* A header that a kernel source includes (dot.cl's group_sum.h) is part
 * of the program's text: editing it changes the cache key and rebuilds,
 * a build error in it is reported at its own line, and a missing one is
 * a usage error that names it. */
static void included_header_is_part_of_the_program(void **state)
{
    struct clmem_ctx *ctx = *state;
    char dir[] = "/tmp/clmem-include-XXXXXX", saved[1024], kernels[512], cache[512];
    int had;
    assert_non_null(mkdtemp(dir));
    snprintf(kernels, sizeof kernels, "%s/cl", dir);
    snprintf(cache, sizeof cache, "%s/cache", dir);
    assert_int_equal(mkdir(kernels, 0700), 0);
    set_cache_home(cache, saved, sizeof saved, &had);
    char saved_kernel_dir[sizeof ctx->kernel_dir];
    memcpy(saved_kernel_dir, ctx->kernel_dir, sizeof saved_kernel_dir);
    snprintf(ctx->kernel_dir, sizeof ctx->kernel_dir, "%s", kernels);
    copy_kernel(kernels, "dot.cl");
    copy_kernel(kernels, "group_sum.h");

    struct clmem_error err = {0};
    cl_program program = NULL;
    const char *options = "-DWG_SIZE=64";
    ctx->cache_hits = ctx->cache_stored = ctx->cache_rebuilt = 0;
    assert_int_equal(clmem_program_build(ctx, "dot.cl", options, &program, &err), CLMEM_OK);
    clmem_release_program(&program);
    assert_int_equal(ctx->cache_stored, 1);
    assert_int_equal(clmem_program_build(ctx, "dot.cl", options, &program, &err), CLMEM_OK);
    clmem_release_program(&program);
    assert_int_equal(ctx->cache_hits, 1);

    /* The header edited (a comment): another key, a build from source. */
    write_in(kernels, "group_sum.h", "/* edited */\n", 1);
    assert_int_equal(clmem_program_build(ctx, "dot.cl", options, &program, &err), CLMEM_OK);
    clmem_release_program(&program);
    assert_int_equal(ctx->cache_hits, 1);
    assert_int_equal(ctx->cache_stored, 2);

    /* A mistake on the header's third line is reported there. */
    write_in(kernels, "group_sum.h",
             "/* one */\n/* two */\nstatic float groupSum(__local float *p, float v) "
             "{ return no_such_thing; }\n",
             0);
    assert_int_equal(clmem_program_build(ctx, "dot.cl", options, &program, &err), CLMEM_ERR_CL);
    assert_non_null(err.log);
    if (!strstr(err.log, "group_sum.h:3:"))
        fail_msg("the build log does not point at group_sum.h:3:\n%s", err.log);
    clmem_error_clear(&err);

    /* Headers that include others a hundred times at each level would
     * multiply past any memory (here 100 x 100 x 3.7 KB): refused at the
     * cap of one source. */
    char line[128], text[8192] = "";
    snprintf(line, sizeof line, "#include \"twice.h\"\n");
    for (int i = 0; i < 100; i++)
        strcat(text, line);
    write_in(kernels, "group_sum.h", text, 0);
    text[0] = '\0';
    snprintf(line, sizeof line, "#include \"leaf.h\"\n");
    for (int i = 0; i < 100; i++)
        strcat(text, line);
    write_in(kernels, "twice.h", text, 0);
    text[0] = '\0';
    for (int i = 0; i < 60; i++)
        strcat(text, "/* a line of text, about sixty bytes long, to be repeated */\n");
    write_in(kernels, "leaf.h", text, 0);
    assert_int_equal(clmem_program_build(ctx, "dot.cl", options, &program, &err), CLMEM_ERR_USAGE);
    if (!strstr(err.message, "with its includes is larger than the 4 MiB"))
        fail_msg("message '%s' does not say the includes went past the cap", err.message);
    clmem_error_clear(&err);

    /* No header: refused, naming it. */
    char header[1300];
    snprintf(header, sizeof header, "%s/group_sum.h", kernels);
    assert_int_equal(unlink(header), 0);
    assert_int_equal(clmem_program_build(ctx, "dot.cl", options, &program, &err), CLMEM_ERR_USAGE);
    if (!strstr(err.message, "group_sum.h"))
        fail_msg("message '%s' does not name group_sum.h", err.message);
    clmem_error_clear(&err);

    memcpy(ctx->kernel_dir, saved_kernel_dir, sizeof saved_kernel_dir);
    restore_cache_home(saved, had);
    remove_tree(dir);
}

/* Special files as cache entries (issue 17, item 5): a FIFO is not opened
 * for a blocking read (the test would hang: an alarm ends it), an empty
 * directory is removed; each is warned about once, and the build is
 * stored in its place, so the next build is a hit without a warning. A
 * directory that holds something stays, warned about on each run. */
static void cache_entry_special_files(void **state)
{
    struct clmem_ctx *ctx = *state;
    char dir[] = "/tmp/clmem-cache-special-XXXXXX", saved[1024], inner[1200];
    int had;
    assert_non_null(mkdtemp(dir));
    set_cache_home(dir, saved, sizeof saved, &had);
    const char *options = "-DTILE_DIM=4 -DBLOCK_ROWS=1";
    struct clmem_cache_entry entry;
    name_entry(ctx, options, &entry);
    build_once(ctx, options);
    static const struct {
        const char *kind, *why;
    } kinds[] = {{"fifo", "is a FIFO"}, {"dir", "is a directory"}};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        assert_int_equal(unlink(entry.path), 0);
        if (strcmp(kinds[i].kind, "fifo") == 0)
            assert_int_equal(mkfifo(entry.path, 0600), 0);
        else
            assert_int_equal(mkdir(entry.path, 0700), 0);
        unsigned rebuilt = ctx->cache_rebuilt, stored = ctx->cache_stored, hits = ctx->cache_hits;
        ctx->cache_warning[0] = '\0';
        alarm(60);
        build_once(ctx, options);
        alarm(0);
        if (!strstr(ctx->cache_warning, kinds[i].why))
            fail_msg("%s: warning '%s' lacks '%s'", kinds[i].kind, ctx->cache_warning,
                     kinds[i].why);
        assert_int_equal(ctx->cache_rebuilt, rebuilt + 1);
        assert_int_equal(ctx->cache_stored, stored + 1);
        ctx->cache_warning[0] = '\0';
        build_once(ctx, options);
        assert_int_equal(ctx->cache_hits, hits + 1);
        assert_string_equal(ctx->cache_warning, "");
    }
    /* A directory with something in it: not removed, not replaced. */
    assert_int_equal(unlink(entry.path), 0);
    assert_int_equal(mkdir(entry.path, 0700), 0);
    snprintf(inner, sizeof inner, "%s/x", entry.path);
    assert_int_equal(mkdir(inner, 0700), 0);
    for (int run = 0; run < 2; run++) {
        unsigned stored = ctx->cache_stored;
        ctx->cache_warning[0] = '\0';
        build_once(ctx, options);
        assert_int_equal(ctx->cache_stored, stored);
        assert_non_null(strstr(ctx->cache_warning, "not removed"));
    }
    ctx->cache_warning[0] = '\0';
    rmdir(inner);
    rmdir(entry.path);
    restore_cache_home(saved, had);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static mode_t mode_of(const char *path)
{
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    return st.st_mode & 07777;
}

/* The tuning database is read only from a regular file of this user's, in
 * a directory that only this user can write (issue 17, items 11 and 5):
 * the directory is made 0700 and the file 0600; one that belongs to
 * another user (nobody, uid 65534; as root), that group or others can
 * write, in such a directory, or a FIFO (which must not block: an alarm
 * ends the test) is ignored with a warning; tune refuses to write there. */
static void untrusted_tuning_database_is_ignored(void **state)
{
    struct clmem_ctx *ctx = *state;
    char dir[] = "/tmp/clmem-tuning-trust-XXXXXX", saved[1024], path[1024], sub[1024];
    int had;
    assert_non_null(mkdtemp(dir));
    set_cache_home(dir, saved, sizeof saved, &had);
    const struct clmem_workload *w = clmem_workload_find("matmul");
    const struct clmem_tunable *t = clmem_tunable_find(w, "regblock");
    struct clmem_error err = {0};
    struct clmem_size size;
    assert_int_equal(clmem_size_parse("1000x600x24", &size, &err), CLMEM_OK);
    int values[CLMEM_MAX_PARAMS] = {0}, stored[CLMEM_MAX_PARAMS] = {32, 64, 8, 8, 16};
    assert_int_equal(clmem_tuning_store(ctx, w, t, &size, stored,
                                        &(struct clmem_tuning_outcome){2.0, 1.0, "GFLOP/s", 0, NULL},
                                        &err),
                     CLMEM_OK);
    assert_int_equal(clmem_tuning_path(path, sizeof path), 0);
    snprintf(sub, sizeof sub, "%s/clmem", dir);
    assert_int_equal(mode_of(sub), 0700);
    assert_int_equal(mode_of(path), 0600);
    assert_true(clmem_tuning_lookup(ctx, w, t, &size, values));

    /* Group write alone counts as much as others': a check of others'
     * write only (S_IWOTH) passes 0666 and 0777 but not 0620 and 0770. */
    static const struct {
        int what; /* 0: chown the file, 1: chmod it, 2: chmod the directory */
        mode_t mode;
        const char *why;
    } faults[] = {{0, 0, "belongs to uid 65534"},
                  {1, 0666, "is writable by group or others (mode 0666)"},
                  {1, 0620, "is writable by group or others (mode 0620)"},
                  {2, 0777, "which is writable by group or others (mode 0777)"},
                  {2, 0770, "which is writable by group or others (mode 0770)"}};
    for (size_t i = 0; i < sizeof faults / sizeof *faults; i++) {
        if (faults[i].what == 0 && chown(path, 65534, 65534) != 0) {
            print_message("skipped: a database of another user (chown to nobody failed: %s; run "
                          "as root)\n",
                          strerror(errno));
            continue;
        }
        if (faults[i].what == 1)
            assert_int_equal(chmod(path, faults[i].mode), 0);
        if (faults[i].what == 2)
            assert_int_equal(chmod(sub, faults[i].mode), 0);
        ctx->tuning_warning[0] = '\0';
        assert_false(clmem_tuning_lookup(ctx, w, t, &size, values));
        if (!strstr(ctx->tuning_warning, faults[i].why))
            fail_msg("warning '%s' lacks '%s'", ctx->tuning_warning, faults[i].why);
        /* tune would keep what runs ignore (the directory), or replace a
         * database it does not trust (the file): refused before any search. */
        assert_int_equal(clmem_tuning_prepare(&err), CLMEM_ERR_USAGE);
        if (!strstr(err.message,
                    faults[i].what == 2 ? "writable by group or others" : faults[i].why))
            fail_msg("tune's refusal '%s' lacks '%s'", err.message, faults[i].why);
        clmem_error_clear(&err);
        assert_int_equal(chown(path, geteuid(), getegid()), 0);
        assert_int_equal(chmod(path, 0600), 0);
        assert_int_equal(chmod(sub, 0700), 0);
        ctx->tuning_warning[0] = '\0';
        assert_true(clmem_tuning_lookup(ctx, w, t, &size, values));
        assert_string_equal(ctx->tuning_warning, "");
    }

    /* A FIFO: ignored without blocking; tune refuses it. */
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkfifo(path, 0600), 0);
    ctx->tuning_warning[0] = '\0';
    alarm(60);
    assert_false(clmem_tuning_lookup(ctx, w, t, &size, values));
    alarm(0);
    assert_non_null(strstr(ctx->tuning_warning, "is a FIFO, not a regular file"));
    assert_int_equal(clmem_tuning_prepare(&err), CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, "is a FIFO, not a regular file"));
    ctx->tuning_warning[0] = '\0';
    restore_cache_home(saved, had);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* Every tunable variant of every workload (issue 18): its search runs (the
 * built-in parameters, then a candidate), and an entry in the database is
 * what the next run of that variant builds with, said in its note. The
 * entry stored here is the search space's first valid candidate, so the
 * check does not hang on which candidate the timings favoured. */
static void every_tunable_variant_tunes_and_applies(void **state)
{
    struct clmem_ctx *ctx = *state;
    char dir[] = "/tmp/clmem-tune-all-XXXXXX", saved[1024];
    int had, tested = 0;
    assert_non_null(mkdtemp(dir));
    set_cache_home(dir, saved, sizeof saved, &had);
    size_t n;
    const struct clmem_workload *const *all = clmem_workloads(&n);
    for (size_t i = 0; i < n; i++) {
        const struct clmem_workload *w = all[i];
        for (size_t k = 0; k < w->n_tunables; k++) {
            const struct clmem_tunable *t = &w->tunables[k];
            const struct clmem_variant *v = clmem_variant_find(w, t->variant);
            assert_non_null(v);
            /* The variant's first check size: small, every edge reached. */
            char size[64];
            const char *sizes = v->check_sizes ? v->check_sizes : w->check_sizes;
            snprintf(size, sizeof size, "%.*s", (int)strcspn(sizes, " "), sizes);
            struct clmem_error err = {0};
            struct clmem_tune_options o = {.size = size, .reps = 1, .max_candidates = 1, .seed = 1};
            struct clmem_tune_result r;
            if (clmem_tune(ctx, w, t, &o, &r, &err) != CLMEM_OK)
                fail_msg("tune %s %s at %s: %s", w->name, t->variant, size, err.message);
            assert_int_equal(r.tried, 1);
            assert_true(r.best.metric >= r.builtin.metric);

            int values[CLMEM_MAX_PARAMS] = {0}, found = 0;
            for (size_t c = 0; !found; c++) { /* the first valid combination */
                size_t rest = c;
                for (size_t p = 0; p < t->n_params; p++) {
                    size_t count = 0;
                    while (count < CLMEM_MAX_TUNE_VALUES && t->params[p].values[count])
                        count++;
                    values[p] = t->params[p].values[rest % count];
                    rest /= count;
                }
                found = t->valid(&ctx->device, values);
                assert_true(c < 100000);
            }
            struct clmem_size parsed;
            assert_int_equal(clmem_size_parse(size, &parsed, &err), CLMEM_OK);
            const struct clmem_tuning_outcome outcome = {2.0, 1.0, w->metric_unit, 0, NULL};
            assert_int_equal(clmem_tuning_store(ctx, w, t, &parsed, values, &outcome, &err),
                             CLMEM_OK);
            struct clmem_result *results = NULL;
            size_t n_results = 0;
            if (clmem_run_workload(ctx, w->name, t->variant, size, 1, &results, &n_results, &err))
                fail_msg("run %s %s: %s", w->name, t->variant, err.message);
            assert_int_equal(n_results, 1);
            assert_true(results[0].verified);
            assert_non_null(strstr(results[0].note, "tuned parameters (clmem tune)"));
            for (size_t p = 0; p < t->n_params; p++) {
                char param[64];
                snprintf(param, sizeof param, "-D%s=%d ", t->params[p].name, values[p]);
                char params[sizeof results[0].params + 2];
                snprintf(params, sizeof params, "%s ", results[0].params);
                if (!strstr(params, param))
                    fail_msg("%s %s ran with '%s', not %s", w->name, t->variant, results[0].params,
                             param);
            }
            clmem_results_free(results, n_results);
            tested++;
        }
    }
    assert_true(tested >= 5); /* matmul regblock and panel, transpose, reduce, dot */
    restore_cache_home(saved, had);
    remove_tree(dir);
}

/* One OpenCL call made to fail as a driver would: this executable's
 * definitions come before the ICD loader's; others go on to it. */
static const char *fail_call;
static const cl_int fail_code = CL_OUT_OF_HOST_MEMORY;

static void *real_call(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    assert_non_null(f);
    return f;
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type type,
                                               cl_uint n, cl_device_id *ids, cl_uint *found)
{
    if (fail_call && strcmp(fail_call, __func__) == 0)
        return fail_code;
    cl_int (*real)(cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *);
    *(void **)&real = real_call(__func__);
    return real(platform, type, n, ids, found);
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContext(
    const cl_context_properties *props, cl_uint n, const cl_device_id *devices,
    void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *), void *user, cl_int *rc)
{
    if (fail_call && strcmp(fail_call, __func__) == 0) {
        *rc = fail_code;
        return NULL;
    }
    cl_context (*real)(const cl_context_properties *, cl_uint, const cl_device_id *,
                       void(CL_CALLBACK *)(const char *, const void *, size_t, void *), void *,
                       cl_int *);
    *(void **)&real = real_call(__func__);
    return real(props, n, devices, notify, user, rc);
}

/* A failed OpenCL call is named in the message (issue 17, item 8): before,
 * three of them said "rc failed with ..." (the macro's argument). */
static void failed_calls_are_named(void **state)
{
    struct clmem_ctx *ctx = *state, other;
    struct clmem_error err = {0};
    struct clmem_device *devices = NULL;
    size_t n = 0;
    fail_call = "clGetDeviceIDs";
    int status = clmem_devices_list(&devices, &n, &err);
    fail_call = NULL;
    free(devices);
    assert_int_equal(status, CLMEM_ERR_CL);
    if (!strstr(err.message, "clGetDeviceIDs failed with CL_OUT_OF_HOST_MEMORY"))
        fail_msg("message '%s' does not name clGetDeviceIDs", err.message);

    fail_call = "clCreateContext";
    status = clmem_ctx_open(&other, &ctx->device, NULL, &err);
    fail_call = NULL;
    assert_int_equal(status, CLMEM_ERR_CL);
    if (!strstr(err.message, "clCreateContext failed with CL_OUT_OF_HOST_MEMORY"))
        fail_msg("message '%s' does not name clCreateContext", err.message);

    /* A real refusal: a buffer beyond anything the device allows. */
    cl_mem buffer = NULL;
    assert_int_equal(
        clmem_buffer_create(ctx, CL_MEM_READ_WRITE, (size_t)1 << 62, NULL, &buffer, &err),
        CLMEM_ERR_CL);
    if (strncmp(err.message, "clCreateBuffer failed with ", 27) != 0)
        fail_msg("message '%s' does not name clCreateBuffer", err.message);
}

int main(int argc, char **argv)
{
    /* One test by name (or a pattern): test_NAME TEST. */
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(error_names_are_names),
        cmocka_unit_test(check_macro_names_call_and_error),
        cmocka_unit_test(long_messages_keep_their_reason),
        cmocka_unit_test(sizes_parse),
        cmocka_unit_test(device_selection),
        cmocka_unit_test(device_specs_parsed_once),
        cmocka_unit_test(build_failure_keeps_the_log),
        cmocka_unit_test(check_counts_and_keeps_ten_lines),
        cmocka_unit_test(inputs_are_reproducible),
        cmocka_unit_test(output_appears_whole_or_not_at_all),
        cmocka_unit_test(stop_removes_every_pending_output),
        cmocka_unit_test(median_of_known_arrays),
        cmocka_unit_test(summarise_gives_median_min_max),
        cmocka_unit_test(registry_lists_matmul),
        cmocka_unit_test(bench_measures_peaks_then_workloads),
        cmocka_unit_test(program_cache_hits_and_rebuilds),
        cmocka_unit_test(included_header_is_part_of_the_program),
        cmocka_unit_test(tuning_database_round_trips),
        cmocka_unit_test(tuning_database_not_exactly_json_is_ignored),
        cmocka_unit_test(cache_entry_special_files),
        cmocka_unit_test(untrusted_tuning_database_is_ignored),
        cmocka_unit_test(every_tunable_variant_tunes_and_applies),
        cmocka_unit_test(failed_calls_are_named),
    };
    return cmocka_run_group_tests(tests, test_setup_device, test_teardown_device);
}
