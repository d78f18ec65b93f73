/* The clmem command line: each bad input gets one clear line on stderr and
 * its documented exit code, before any work; good runs print results. */
#include <cJSON.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_run.h"

static const struct {
    const char *const *args;
    int code;
    const char *message;
} bad_inputs[] = {
    {ARGS("run", "matmul", "--size", "0"), 2, "size '0' has a zero dimension"},
    {ARGS("run", "matmul", "--size", "-3"), 2, "size '-3' is negative"},
    {ARGS("run", "matmul", "--size", "abc"), 2, "size 'abc' is not a number"},
    {ARGS("run", "matmul", "--size", "99999999999999999999999"), 2, "is too large"},
    {ARGS("run", "matmul", "--size", "50000x50000x50000"), 2, "each matrix at most"},
    {ARGS("run", "matmull"), 2,
     "unknown workload 'matmull' (did you mean 'matmul'? try 'clmem list')"},
    {ARGS("run", "matmul", "--variant", "tiledd"), 2, "unknown variant 'tiledd' of 'matmul'"},
    {ARGS("run", "matmul", "--device", "no-such-device"), 2, "unknown device 'no-such-device'"},
    {ARGS("run", "matmul", "--device", "7:0"), 2, "no device '7:0'"},
    {ARGS("run", "matmul", "--reps", "0"), 2, "--reps '0' is out of range"},
    {ARGS("run", "matmul", "--reps", "x"), 2, "--reps 'x' is not a number"},
    {ARGS("run", "matmul", "--format", "xml"), 2, "unknown format 'xml'"},
    {ARGS("run", "matmul", "--frobnicate"), 2, "unknown option '--frobnicate'"},
    {ARGS("run", "matmul", "--size"), 2, "needs a value"},
    {ARGS("run"), 2, "run needs a workload"},
    {ARGS("run", "matmul", "--variant", "tiled", "--size", "1000x777x333", "--device", "cpu"), 2,
     "use 'tiled_bounds' for any size"},
    {ARGS("run", "matmul", "--output", "/nonexistent-dir/r.json"), 2,
     "cannot write '/nonexistent-dir/r.json'"},
    {ARGS("run", "matmul", "--kernel-dir", "/nonexistent-kernels"), 2,
     "kernel directory '/nonexistent-kernels'"},
    {ARGS("frob"), 2, "unknown command 'frob'"},
    {ARGS("run", "matmul", "--input", "x.pgm"), 2, "workload 'matmul' takes no --input"},
    {ARGS("list", "nope"), 2, "unknown workload 'nope'"},
    {ARGS("run", "matmul", "--compare", "cublas"), 2, "unknown library 'cublas'"},
    {ARGS("bench", "--compare", "cublas"), 2, "unknown library 'cublas'"},
    {ARGS("bench", "--workloads", "matmul,nope", "--device", "cpu"), 2, "unknown workload 'nope'"},
    {ARGS("bench", "--workloads", "", "--device", "cpu"), 2, "--workloads '' has an empty name"},
    {ARGS("bench", "--workloads", "dot,", "--device", "cpu"), 2,
     "--workloads 'dot,' has an empty name"},
    {ARGS("bench", "--output", "/nonexistent-dir/b.json"), 2, "cannot write"},
    {ARGS("peak", "--reps", "0"), 2, "--reps '0' is out of range"},
    {ARGS("compare", "--output-dir", "/nonexistent-dir/report"), 2,
     "cannot create report directory '/nonexistent-dir/report'"},
    {ARGS("tune", "matmul", "--max-candidates", "0"), 2, "--max-candidates '0' is out of range"},
    /* A whole device's fit: its options checked before any device opens. */
    {ARGS("tune", "--budget", "0"), 2, "--budget '0' is out of range (1 s to 168 h)"},
    {ARGS("tune", "--budget", "1h30"), 2, "--budget '1h30' is not a duration"},
    {ARGS("tune", "--budget", "30m1h"), 2, "--budget '30m1h' is not a duration"},
    {ARGS("tune", "--budget", "20x"), 2, "--budget '20x' is not a duration"},
    {ARGS("tune", "--budget", "m"), 2, "--budget 'm' is not a duration"},
    {ARGS("tune", "--budget", "200h"), 2, "--budget '200h' is out of range"},
    {ARGS("tune", "matmul", "--budget", "1m"), 2,
     "--budget is for a whole device's fit (clmem tune with no workload), not 'matmul'"},
    {ARGS("tune", "matmul", "--workloads", "blur"), 2, "--workloads is for a whole device's fit"},
    {ARGS("tune", "--size", "64"), 2, "--size goes with a WORKLOAD"},
    {ARGS("tune", "--workloads", "blur,nope"), 2, "unknown workload 'nope'"},
    {ARGS("tune", "--export", "x.json", "--show"), 2, "--export goes alone"},
    /* --help and --version take nothing after them; help CMD parses CMD's
     * line (each was exit 0, its text printed). */
    {ARGS("--help", "--bogus"), 2, "unknown option '--bogus' (see 'clmem --help')"},
    {ARGS("-h", "--bogus"), 2, "unknown option '--bogus' (see 'clmem --help')"},
    {ARGS("--version", "--bogus"), 2, "unknown option '--bogus' (see 'clmem --help')"},
    {ARGS("-V", "x"), 2, "unexpected argument 'x' after '-V'"},
    {ARGS("help", "run", "--bogus"), 2, "unknown option '--bogus' (see 'clmem run --help')"},
    {ARGS("help", "--bogus"), 2, "unknown option '--bogus' (see 'clmem --help')"},
    {ARGS("help", "peak", "extra"), 2, "unexpected argument 'extra' (see 'clmem peak --help')"},
    {ARGS("peak", "extra", "--help"), 2, "unexpected argument 'extra'"},
    /* A device that names none of this machine's is a usage error, as an
     * unknown name is; 3 is for no OpenCL device at all. */
    {ARGS("run", "dot", "--device", "accelerator"), 2, "no accelerator device"},
    {ARGS("tune", "pi"), 2,
     "workload 'pi' has nothing to tune (tunable: matmul, transpose, reduce, dot, blur, "
     "constmem)"},
};

static void bad_inputs_get_one_line_and_exit_2(void **state)
{
    (void)state;
    static struct outcome o;
    for (size_t i = 0; i < sizeof bad_inputs / sizeof *bad_inputs; i++) {
        run_clmem_within(&o, NULL, bad_inputs[i].args, REFUSAL_LIMIT_S);
        if (o.code != bad_inputs[i].code || !strstr(o.err, bad_inputs[i].message) ||
            count_lines(o.err) != 1 || o.out[0] != '\0')
            fail_msg("case %zu (%s ...): exit %d, stderr '%s', stdout '%.80s'", i,
                     bad_inputs[i].args[1] ? bad_inputs[i].args[1] : "", o.code, o.err, o.out);
    }
}

/* A product beyond one allocation, sized from what the device reports (a
 * fixed size was computed for minutes where PoCL reported 8 GiB). */
static void size_beyond_allocation_exits_2(void **state)
{
    (void)state;
    static struct outcome o;
    const char *env[] = {SMALL_POCL, NULL};
    char size[64];
    matmul_size_beyond_alloc(env, size, sizeof size);
    run_clmem_within(&o, env, ARGS("run", "matmul", "--size", size, "--device", "cpu"),
                     REFUSAL_LIMIT_S);
    if (o.code != 2 || !strstr(o.err, "can allocate at once") || count_lines(o.err) != 1 ||
        o.out[0] != '\0')
        fail_msg("--size %s: exit %d, stderr '%s'", size, o.code, o.err);
}

static void no_platform_exits_3_with_install_hint(void **state)
{
    (void)state;
    static struct outcome o;
    char dir[] = "/tmp/clmem-noicd-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *env[] = {"OCL_ICD_VENDORS", dir, NULL};
    run_clmem(&o, env, ARGS("run", "matmul", "--size", "8"));
    assert_int_equal(o.code, 3);
    assert_non_null(strstr(o.err, "no OpenCL device found"));
    assert_non_null(strstr(o.err, "pocl-opencl-icd"));
    run_clmem(&o, env, ARGS("devices"));
    assert_int_equal(o.code, 3);
    rmdir(dir);
}

static void broken_kernel_exits_3_with_build_log(void **state)
{
    (void)state;
    static struct outcome o;
    char dir[] = "/tmp/clmem-badcl-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/matmul.cl", dir);
    FILE *f = fopen(path, "w");
    fputs("__kernel void MatrixMulKernel(__global float *P) { P[0] = no_such_thing; }\n", f);
    fclose(f);
    /* naive's file alone: every file a run needs is checked before it starts. */
    run_clmem(&o, NULL,
              ARGS("run", "matmul", "--variant", "naive", "--size", "8", "--device", "cpu",
                   "--kernel-dir", dir));
    assert_int_equal(o.code, 3);
    assert_non_null(strstr(o.err, "matmul.cl"));
    assert_non_null(strstr(o.err, "-DTILE_WIDTH="));
    assert_non_null(strstr(o.err, "build log:"));
    assert_non_null(strstr(o.err, "no_such_thing"));
    unlink(path);
    rmdir(dir);
}

static void wrong_kernel_exits_1_and_says_where(void **state)
{
    (void)state;
    static struct outcome o;
    char dir[] = "/tmp/clmem-wrongcl-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/matmul.cl", dir);
    FILE *f = fopen(path, "w");
    /* A planted bug: the naive kernel forgets the last product. */
    fputs("__kernel void MatrixMulKernel(__global const float *M, __global const float *N,\n"
          "  __global float *P, int rows, int cols, int inner) {\n"
          "  int r = get_global_id(1), c = get_global_id(0);\n"
          "  if (r < rows && c < cols) { float s = 0;\n"
          "    for (int k = 0; k < inner - 1; ++k) s += M[r*inner+k] * N[k*cols+c];\n"
          "    P[r*cols+c] = s; } }\n",
          f);
    fclose(f);
    run_clmem(&o, NULL,
              ARGS("run", "matmul", "--variant", "naive", "--size", "9x5x7", "--device", "cpu",
                   "--kernel-dir", dir));
    assert_int_equal(o.code, 1);
    assert_non_null(strstr(o.err, "verification failed"));
    assert_non_null(strstr(o.err, "P[row 0][col 0]: expected"));
    assert_non_null(strstr(o.out, "FAILED"));
    unlink(path);
    rmdir(dir);
}

static void run_all_prints_gflops_and_verifies(void **state)
{
    (void)state;
    static struct outcome o;
    run_clmem(&o, NULL,
              ARGS("run", "matmul", "--variant", "all", "--size", "100x77x33", "--device", "cpu",
                   "--reps", "2"));
    assert_int_equal(o.code, 0);
    assert_non_null(strstr(o.out, "GFLOP/s"));
    assert_non_null(strstr(o.out, "parameters: -DTILE_WIDTH="));
    assert_non_null(strstr(o.out, "naive"));
    assert_non_null(strstr(o.out, "skipped: needs every dimension"));
    assert_null(strstr(o.out, "FAILED"));
}

static void formats_and_output_file(void **state)
{
    (void)state;
    static struct outcome o;
    run_clmem(&o, NULL,
              ARGS("run", "matmul", "--variant", "naive", "--size", "8", "--device", "cpu",
                   "--format", "csv", "--reps", "3"));
    assert_int_equal(o.code, 0);
    static const char header[] = "workload,variant,device,size,sweep,sweep_value,params,status,"
                                 "samples,median_ms,";
    assert_true(strncmp(o.out, header, sizeof header - 1) == 0);
    assert_non_null(strstr(o.out, "\nmatmul,naive,"));
    assert_non_null(strstr(o.out, ",ok,3,"));

    char path[] = "/tmp/clmem-json-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    run_clmem(&o, NULL,
              ARGS("run", "matmul", "--variant", "tiled_bounds", "--size", "8", "--device", "cpu",
                   "--format", "json", "--output", path));
    assert_int_equal(o.code, 0);
    assert_string_equal(o.out, "");
    static char json[65536];
    slurp(path, json, sizeof json);
    assert_non_null(strstr(json, "\"variant\":\t\"tiled_bounds\""));
    assert_non_null(strstr(json, "\"verified\":\ttrue"));
    assert_non_null(strstr(json, "\"samples_ms\""));
    /* Replaced through a temporary file, yet with the mode it had (mkstemp's
     * 0600), as a write in place keeps it (test_faults: a new file's). */
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    unlink(path);
}

/* bench writes its JSON whole, with the device and its measured peaks,
 * and each result's bound as `run --peak` gives it (the transposes': a
 * level that binds each; atomics declare no traffic). */
static void bench_writes_json_with_device_and_peak(void **state)
{
    (void)state;
    static struct outcome o;
    char path[] = "/tmp/clmem-bench-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    run_clmem(&o, NULL,
              ARGS("bench", "--workloads", "atomics,transpose", "--device", "cpu", "--reps", "1",
                   "--output", path));
    assert_int_equal(o.code, 0);
    assert_non_null(strstr(o.out, "atomic_local"));
    assert_non_null(strstr(o.out, " bound "));
    static char json[262144];
    slurp(path, json, sizeof json);
    assert_non_null(strstr(json, "\"device\""));
    assert_non_null(strstr(json, "\"peak\""));
    assert_non_null(strstr(json, "\"workload\":\t\"atomics\""));
    size_t bound = 0;
    for (const char *at = json; (at = strstr(at, "\"binding\":\t\"")) != NULL; at++)
        bound++;
    if (bound < 5) /* copy, naive, coalesced, padded, vec4 */
        fail_msg("%zu results with a binding level:\n%s", bound, o.out);
    unlink(path);
}

/* A second run uses the compiled-program cache; a damaged entry is rebuilt
 * with one warning line and the run still succeeds; --no-cache ignores it. */
static void cache_warns_on_damaged_entry(void **state)
{
    (void)state;
    static struct outcome o;
    char dir[] = "/tmp/clmem-cli-cache-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *const env[] = {"XDG_CACHE_HOME", dir, NULL};
    const char *const *args =
        ARGS("run", "transpose", "--variant", "copy", "--size", "9", "--device", "cpu");
    run_clmem(&o, env, args);
    assert_int_equal(o.code, 0);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "for f in %s/clmem/programs/*.bin; do truncate -s 10 \"$f\"; done",
             dir);
    assert_int_equal(system(cmd), 0);
    run_clmem(&o, env, args);
    assert_int_equal(o.code, 0);
    /* Besides the variant's result, the one warning. */
    size_t results;
    const char *rest = other_lines(o.err, &results);
    assert_int_equal(results, 1);
    assert_non_null(strstr(rest, "clmem: warning: cached program"));
    assert_non_null(strstr(rest, "truncated: rebuilt from source"));
    assert_int_equal(count_lines(rest), 1);
    run_clmem(&o, env, args);
    assert_int_equal(o.code, 0);
    assert_string_equal(other_lines(o.err, &results), "");
    assert_int_equal(results, 1);
    run_clmem(&o, env,
              ARGS("run", "transpose", "--variant", "copy", "--size", "9", "--device", "cpu",
                   "--no-cache"));
    assert_int_equal(o.code, 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* A tuning entry that is no setting the device can run (BLOCK_ROWS 3 does
 * not divide TILE_DIM 32; SUM_WG_SIZE 3 is no power of two) is ignored
 * with a warning naming the file, the entry and the values, the run going
 * on with the built-in parameters. */
static void tuning_entry_the_device_cannot_run_is_said(void **state)
{
    (void)state;
    static struct outcome o;
    /* The entries' key: the device --device cpu opens, its driver. */
    run_clmem(&o, NULL, ARGS("devices", "--format", "json"));
    assert_int_equal(o.code, 0);
    cJSON *devices = cJSON_Parse(o.out), *d;
    char name[256] = "", driver[256] = "";
    cJSON_ArrayForEach(d, devices)
    {
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(d, "type");
        if (!name[0] && cJSON_IsString(type) && strcmp(type->valuestring, "cpu") == 0) {
            snprintf(name, sizeof name, "%s",
                     cJSON_GetObjectItemCaseSensitive(d, "name")->valuestring);
            snprintf(driver, sizeof driver, "%s",
                     cJSON_GetObjectItemCaseSensitive(d, "driver_version")->valuestring);
        }
    }
    cJSON_Delete(devices);
    if (!name[0])
        fail_msg("no cpu device in:\n%s", o.out);
    char dir[] = "/tmp/clmem-cli-tuning-XXXXXX", path[256], cmd[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/clmem", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/clmem/tuning.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    static const char *const entries[][3] = {
        {"transpose", "padded\", \"size_class\": \"N<=64", "\"TILE_DIM\": 32, \"BLOCK_ROWS\": 3"},
        {"dot", "one_pass\", \"size_class\": \"N<=2048",
         "\"SUM_WG_SIZE\": 3, \"GROUPS_PER_UNIT\": 1"},
    };
    fprintf(f, "{\"clmem_tuning\": 1, \"entries\": [");
    for (size_t i = 0; i < 2; i++)
        fprintf(f,
                "%s{\"device\": \"%s\", \"driver\": \"%s\", \"workload\": \"%s\", "
                "\"variant\": \"%s\", \"params\": {%s}, \"builtin\": false}",
                i ? ", " : "", name, driver, entries[i][0], entries[i][1], entries[i][2]);
    fprintf(f, "]}\n");
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(path, 0600), 0);
    const char *const env[] = {"XDG_CACHE_HOME", dir, NULL};
    const struct {
        const char *const *args;
        const char *says;
    } runs[] = {
        {ARGS("run", "transpose", "--variant", "all", "--size", "33x17", "--device", "cpu",
              "--reps", "1"),
         "' (N<=64) has TILE_DIM 32, BLOCK_ROWS 3, which transpose padded cannot run on this "
         "device: ignored, the built-in parameters used"},
        {ARGS("run", "dot", "--variant", "one_pass", "--size", "1031", "--device", "cpu", "--reps",
              "1"),
         "' (N<=2048) has SUM_WG_SIZE 3, GROUPS_PER_UNIT 1, which dot one_pass cannot run on "
         "this device: ignored, the built-in parameters used"},
    };
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        run_clmem(&o, env, runs[i].args);
        char entry[512];
        snprintf(entry, sizeof entry,
                 "clmem: warning: tuning database '%s': the entry for %s on '%s", path,
                 i ? "dot one_pass" : "transpose padded", name);
        size_t results;
        const char *rest = other_lines(o.err, &results);
        /* One line, however many variants looked the entry up. */
        if (o.code != 0 || strncmp(rest, entry, strlen(entry)) != 0 ||
            !strstr(rest, runs[i].says) || count_lines(rest) != 1 ||
            strstr(o.out, "tuned parameters"))
            fail_msg("%s: exit %d\nstdout: %s\nstderr: %s", runs[i].args[1], o.code, o.out, o.err);
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* compare on the PoCL device alone writes every file of the report; with
 * gnuplot installed (CI installs it) the pictures too. */
static void compare_writes_the_report(void **state)
{
    (void)state;
    static struct outcome o;
    char dir[] = "/tmp/clmem-compare-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char out_dir[64];
    snprintf(out_dir, sizeof out_dir, "%s/report", dir);
    run_clmem(&o, NULL,
              ARGS("compare", "--devices", "cpu", "--workloads", "transpose,coalescing", "--reps",
                   "1", "--output-dir", out_dir));
    assert_int_equal(o.code, 0);
    assert_non_null(strstr(o.out, "report for 1 device(s)"));
    int gnuplot = system("command -v gnuplot >/dev/null 2>&1") == 0;
    static const char *const files[] = {"report.md",
                                        "report.html",
                                        "results.csv",
                                        "device-0.json",
                                        "plots.gp",
                                        "transpose.dat",
                                        "coalescing-offset_float.dat",
                                        "transpose.svg",
                                        "coalescing-offset.svg",
                                        "coalescing-stride.svg",
                                        "roofline-0.svg"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[256];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", out_dir, files[i]);
        int is_picture = strstr(files[i], ".svg") != NULL;
        if (!is_picture || gnuplot) {
            if (stat(path, &st) != 0 || st.st_size == 0)
                fail_msg("compare did not write '%s'", files[i]);
        }
    }
    static char report[65536];
    char path[256];
    snprintf(path, sizeof path, "%s/report.md", out_dir);
    slurp(path, report, sizeof report);
    assert_non_null(strstr(report, "## transpose"));
    assert_non_null(strstr(report, "| offset_float offset=32 @ 1 Mi |"));
    assert_non_null(strstr(report, "of peak)"));
    assert_non_null(
        strstr(report, gnuplot ? "![transpose.svg](transpose.svg)" : "gnuplot not found"));
    /* The pictures follow from the results: none is missing. */
    assert_null(strstr(report, "Not plotted"));
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    run_clmem(&o, NULL, ARGS("compare", "--devices", "cpu,nosuchdevice"));
    assert_int_equal(o.code, 2);
    assert_non_null(strstr(o.err, "nosuchdevice"));
}

/* tune searches a small space of matmul's `variant` on PoCL, stores the
 * best (the built-in parameters when nothing beats them), and run then
 * says it uses them; a corrupt database is ignored with a warning. */
static void expect_tune_stores_and_run_uses(const char *variant)
{
    static struct outcome o;
    char dir[] = "/tmp/clmem-tune-XXXXXX", path[128], cmd[160];
    assert_non_null(mkdtemp(dir));
    const char *const env[] = {"XDG_CACHE_HOME", dir, NULL};
    run_clmem(&o, env,
              ARGS("tune", "matmul", "--variant", variant, "--device", "cpu", "--size", "33x40x24",
                   "--max-candidates", "2", "--reps", "1"));
    assert_int_equal(o.code, 0);
    assert_non_null(strstr(o.out, "built-in"));
    snprintf(path, sizeof path, "%s/clmem/tuning.json", dir);
    struct stat st;
    assert_non_null(strstr(o.out, "kept in"));
    /* The built-in parameters winning is recorded, not applied. */
    int builtin = strstr(o.out, "recorded, not applied") != NULL;
    assert_int_equal(stat(path, &st), 0);
    run_clmem(&o, env,
              ARGS("run", "matmul", "--variant", variant, "--size", "33x40x24", "--device", "cpu"));
    assert_int_equal(o.code, 0);
    assert_int_equal(strstr(o.out, "tuned parameters (clmem tune)") != NULL, !builtin);
    /* Whatever it held, a corrupt database is ignored with a warning. */
    {
        FILE *f = fopen(path, "w");
        fputs("not json", f);
        fclose(f);
        run_clmem(
            &o, env,
            ARGS("run", "matmul", "--variant", variant, "--size", "33x40x24", "--device", "cpu"));
        assert_int_equal(o.code, 0);
        assert_null(strstr(o.out, "tuned parameters"));
        assert_non_null(strstr(o.err, "clmem: warning: tuning database"));
        /* tune refuses it before measuring: its entries are not lost. */
        run_clmem(&o, env,
                  ARGS("tune", "matmul", "--variant", variant, "--device", "cpu", "--size",
                       "33x40x24", "--max-candidates", "2", "--reps", "1"));
        assert_int_equal(o.code, 2);
        assert_non_null(strstr(o.err, "is not valid JSON of clmem's: tune would replace it"));
        assert_null(strstr(o.out, "built-in"));
        char text[32];
        slurp(path, text, sizeof text);
        assert_string_equal(text, "not json");
    }
    run_clmem(&o, env, ARGS("tune", "pi"));
    assert_int_equal(o.code, 2);
    assert_non_null(strstr(o.err, "has nothing to tune"));
    run_clmem(&o, env, ARGS("tune", "matmul", "--variant", "naive"));
    assert_int_equal(o.code, 2);
    assert_non_null(strstr(o.err, "variant 'naive' of 'matmul' has nothing to tune"));
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* panel's space (PANEL_ROWS) builds in seconds; regblock's candidates take
 * a minute each on 2 cores (suite long). */
static void tune_stores_and_run_uses(void **state)
{
    (void)state;
    expect_tune_stores_and_run_uses("panel");
}

static void tune_stores_and_run_uses_regblock(void **state)
{
    (void)state;
    expect_tune_stores_and_run_uses("regblock");
}

/* A whole device fitted within a budget (blur alone, to be quick; a
 * minute, so that the peaks leave blur its share on a loaded machine): the
 * step's rows kept in the user's fitted file, taken by a run even as a
 * device no shipped row knows; run again, the step is kept, not measured;
 * exported, the rows are the shipped format (read back as such). */
static void tune_fits_a_device_resumes_and_exports(void **state)
{
    (void)state;
    static struct outcome o;
    char dir[] = "/tmp/clmem-fit-XXXXXX", other[] = "/tmp/clmem-fit2-XXXXXX", path[256],
         exported[256], cmd[400];
    assert_non_null(mkdtemp(dir));
    assert_non_null(mkdtemp(other));
    const char *const env[] = {"XDG_CACHE_HOME", dir, NULL};
    snprintf(exported, sizeof exported, "%s/exported.json", dir);
    run_clmem(&o, env, ARGS("tune", "--device", "cpu", "--export", exported));
    assert_int_equal(o.code, 2);
    assert_non_null(strstr(o.err, "nothing fitted on"));
    run_clmem(&o, env,
              ARGS("tune", "--device", "cpu", "--workloads", "blur", "--budget", "60s", "--reps",
                   "1"));
    assert_int_equal(o.code, 0);
    assert_non_null(strstr(o.out, "[1/2] the device's peaks: copy"));
    assert_non_null(strstr(o.out, "[2/2] blur coarsened at 1920x1080: VEC="));
    assert_non_null(strstr(o.out, "2 of 2 steps fitted"));
    const char *at = strstr(o.out, "fitted rows: '");
    assert_non_null(at);
    snprintf(path, sizeof path, "%.*s", (int)strcspn(at + 14, "'"), at + 14);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 077, 0); /* a state file: this user's alone */
    const char *const generic[] = {"XDG_CACHE_HOME", dir, "CLMEM_PARAMS_GENERIC", "1",
                                   "CLMEM_DEBUG", "1", NULL};
    /* At a size of another size class than the fit's (1920x1080): the
     * tuning database's entry, which a candidate that beat the built-in
     * parameters leaves, does not apply there; the fitted rows do. */
    run_clmem(&o, generic,
              ARGS("run", "blur", "--variant", "coarsened", "--device", "cpu", "--size", "640x360",
                   "--reps", "1"));
    assert_int_equal(o.code, 0);
    assert_non_null(strstr(o.err, "blur/coarsened for"));
    assert_non_null(strstr(o.err, "of fitted"));
    assert_non_null(strstr(o.err, path));
    run_clmem(&o, env,
              ARGS("tune", "--device", "cpu", "--workloads", "blur", "--budget", "60s", "--reps",
                   "1"));
    assert_int_equal(o.code, 0);
    assert_non_null(strstr(o.out, "[2/2] blur coarsened at 1920x1080: fitted before on this "
                                  "device and driver: kept"));
    run_clmem(&o, env, ARGS("tune", "--device", "cpu", "--export", exported));
    assert_int_equal(o.code, 0);
    char text[8192];
    slurp(exported, text, sizeof text);
    assert_non_null(strstr(text, "\"level\":\t\"device\""));
    assert_non_null(strstr(text, "\"provenance\":"));
    assert_non_null(strstr(text, "\"command\":\t\"clmem tune --device cpu --workloads blur"));
    /* The exported file, as it is, is a database file clmem reads. */
    snprintf(cmd, sizeof cmd, "mkdir -p %s/clmem/params && chmod -R go-rwx %s && cp %s %s/clmem/params/x.json",
             other, other, exported, other);
    assert_int_equal(system(cmd), 0);
    const char *const reread[] = {"XDG_CACHE_HOME", other, "CLMEM_DEBUG", "1", NULL};
    run_clmem(&o, reread,
              ARGS("run", "blur", "--variant", "coarsened", "--device", "cpu", "--size", "640x360",
                   "--reps", "1"));
    assert_int_equal(o.code, 0);
    assert_non_null(strstr(o.err, "/clmem/params/x.json"));
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", dir, other);
    assert_int_equal(system(cmd), 0);
}

/* matmul's model fitted on PoCL: its rates (and, given the time, its
 * thresholds and splitk's rows) kept as fitted rows, which auto then
 * weighs (minutes on 2 cores: suite long). */
static void tune_fits_matmul_model(void **state)
{
    (void)state;
    static struct outcome o;
    char dir[] = "/tmp/clmem-fitm-XXXXXX", cmd[160];
    assert_non_null(mkdtemp(dir));
    const char *const env[] = {"XDG_CACHE_HOME", dir, NULL};
    static const char model_line[] = "matmul's model (its planners' rates and thresholds): ",
                      spent[] = "not fitted: the budget is spent";
    const char *model = NULL;
    /* On a loaded machine (or under a sanitizer) one candidate's build
     * and check may take a step's share and more, and the budget may end
     * before the model: a step the budget did not reach is exit 1, said,
     * and a second tune resumes at it (the steps fitted are kept). */
#if defined(__SANITIZE_ADDRESS__)
    const int attempts = 1; /* the memory checks hold for what ran (below) */
#else
    const int attempts = 3;
#endif
    for (int attempt = 0; attempt < attempts; attempt++) {
        run_clmem(&o, env,
                  ARGS("tune", "--device", "cpu", "--workloads", "matmul", "--budget",
                       attempt ? "3m" : "5m", "--reps", "1"));
        if (o.code != 0 && !(o.code == 1 && strstr(o.out, spent)))
            fail_msg("tune: exit %d\n%s%s", o.code, o.out, o.err);
        model = strstr(o.out, model_line);
        assert_non_null(model);
        model += strlen(model_line);
        if (strncmp(model, spent, strlen(spent)) != 0)
            break;
        if (attempt > 0)
            assert_non_null(strstr(o.out, "fitted before on this device and driver: kept"));
        print_message("the budget ended before the model (attempt %d):\n%s", attempt + 1, o.out);
    }
#if defined(__SANITIZE_ADDRESS__)
    /* Under AddressSanitizer every run's CPU check of a 1024 product takes
     * minutes, and the searches before the model may spend the budget: the
     * memory checks hold for what ran; the model's rows are the plain
     * build's check (suite long). */
    if (strncmp(model, spent, strlen(spent)) == 0) {
        print_message("under a sanitizer the budget ended before the model:\n%s", o.out);
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        assert_int_equal(system(cmd), 0);
        return;
    }
#endif
    int rows = atoi(model);
    if (rows < 2)
        fail_msg("matmul's model fitted %d rows:\n%s", rows, o.out);
    /* A CPU's fit searches the CPU kernels; splitk's rows come from the
     * model step, not from a square search. */
    assert_non_null(strstr(o.out, "matmul cpu_blocked at "));
    assert_null(strstr(o.out, "matmul splitk at "));
    const char *const debug[] = {"XDG_CACHE_HOME", dir, "CLMEM_DEBUG", "1", NULL};
    run_clmem(&o, debug,
              ARGS("run", "matmul", "--variant", "auto", "--device", "cpu", "--size", "64",
                   "--reps", "1"));
    assert_int_equal(o.code, 0);
    assert_non_null(strstr(o.err, "matmul/auto_rates for"));
    assert_non_null(strstr(o.err, "1 row of fitted"));
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* Issue 16 item 3: one option table. The same spelling, range and message
 * in every command; each case is refused before any device work, so the
 * option before it was taken (or refused) as the table says. */
static const struct {
    const char *const *args;
    const char *message;
} unified[] = {
    /* --devices is --device, in every command that opens devices. */
    {ARGS("run", "transpose", "--devices", "cpu,,cpu"), "bad device list 'cpu,,cpu': item 2 is"},
    {ARGS("peak", "--devices", "cpu,,cpu"), "bad device list 'cpu,,cpu': item 2 is empty"},
    {ARGS("bench", "--devices", "9:x"), "bad device index '9:x'"},
    {ARGS("compare", "--devices", "cpu,,cpu"), "bad device list 'cpu,,cpu': item 2 is empty"},
    {ARGS("tune", "matmul", "--devices", "9:x"), "bad device index '9:x'"},
    /* A device list where a command opens one device. */
    {ARGS("tune", "matmul", "--device", "cpu,cpu"),
     "tune takes one device, not several ('cpu,cpu')"},
    {ARGS("tune", "matmul", "--devices", "all"), "tune takes one device, not several ('all')"},
    {ARGS("bench", "--device", "cpu,cpu"),
     "bench takes one device without mpirun, not several ('cpu,cpu'); 'clmem compare' runs "
     "several"},
    {ARGS("bench", "--devices", "ALL"), "bench takes one device without mpirun, not several"},
    /* At most 64 devices in a list, in every command. */
    {ARGS("run", "transpose", "--device",
          "cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,"
          "cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,"
          "cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu"),
     "more than 64 devices"},
    {ARGS("compare", "--devices",
          "cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,"
          "cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,"
          "cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu,cpu"),
     "more than 64 devices"},
    /* --reps: 1 to 100000 in every command; 100000 taken (the error is the
     * next one), 100001 refused with the same message. */
    {ARGS("run", "--reps", "100000"), "run needs a workload"},
    {ARGS("peak", "--reps", "100000", "extra"), "unexpected argument 'extra'"},
    {ARGS("bench", "--reps", "100000", "extra"), "unexpected argument 'extra'"},
    {ARGS("compare", "--reps", "100000", ""), "an empty run file name"},
    {ARGS("tune", "--reps", "100000", "--size", "64"), "--size goes with a WORKLOAD"},
    {ARGS("run", "matmul", "--reps", "100001"),
     "--reps '100001' is out of range (expected 1 to 100000)"},
    {ARGS("peak", "--reps", "100001"), "--reps '100001' is out of range (expected 1 to 100000)"},
    {ARGS("bench", "--reps", "100001"), "--reps '100001' is out of range (expected 1 to 100000)"},
    {ARGS("compare", "--reps", "100001"), "--reps '100001' is out of range (expected 1 to 100000)"},
    {ARGS("tune", "matmul", "--reps", "100001"),
     "--reps '100001' is out of range (expected 1 to 100000)"},
    /* The other shared options: one message each. */
    {ARGS("bench", "--seed", "-1"), "--seed '-1' is negative"},
    {ARGS("compare", "--seed", "x"), "--seed 'x' is not a number"},
    {ARGS("tune", "matmul", "--size", "0"), "size '0' has a zero dimension"},
    {ARGS("diff", "a.json", "b.json", "--format", "xml"), "unknown format 'xml'"},
    {ARGS("compare", "--compare", "cublas"), "unknown library 'cublas'"},
    {ARGS("peak", "--kernel-dir", ""), "--kernel-dir needs a directory"},
};

static void options_are_the_same_in_every_command(void **state)
{
    (void)state;
    static struct outcome o;
    for (size_t i = 0; i < sizeof unified / sizeof *unified; i++) {
        run_clmem(&o, NULL, unified[i].args);
        if (o.code != 2 || !strstr(o.err, unified[i].message) || count_lines(o.err) != 1 ||
            o.out[0] != '\0')
            fail_msg("case %zu (%s ...): exit %d, stderr '%s' (expected 2 and '%s')", i,
                     unified[i].args[0], o.code, o.err, unified[i].message);
    }
    /* Each command's help comes from the same table: the same range, the
     * same default where the command has none of its own, the alias. */
    static const struct {
        const char *command, *reps;
    } helps[] = {{"run", "(default 5)"},
                 {"peak", "(default 5)"},
                 {"bench", "(default 5)"},
                 {"compare", "(default 5)"},
                 {"tune", "(default 3)"}};
    for (size_t i = 0; i < sizeof helps / sizeof *helps; i++) {
        run_clmem(&o, NULL, ARGS(helps[i].command, "--help"));
        assert_int_equal(o.code, 0);
        /* The help lines unwrapped: each option's text on one line. */
        static char flat[sizeof o.out];
        size_t n = 0;
        for (const char *p = o.out; *p; p++) {
            if (*p == '\n' && p[1] == ' ' && p[2] == ' ' && p[3] == ' ') {
                while (p[1] == ' ')
                    p++;
                flat[n++] = ' ';
            } else {
                flat[n++] = *p;
            }
        }
        flat[n] = '\0';
        const char *reps = strstr(flat, "--reps N");
        const char *end = reps ? strchr(reps, '\n') : NULL;
        char line[256] = "";
        if (end)
            snprintf(line, sizeof line, "%.*s", (int)(end - reps), reps);
        if (!strstr(line, "1 to 100000") || !strstr(line, helps[i].reps) ||
            !strstr(flat, "--devices is the same option"))
            fail_msg("%s --help:\n%s", helps[i].command, o.out);
    }
    /* --devices runs as --device does. */
    run_clmem(&o, NULL,
              ARGS("peak", "--devices", "cpu", "--variant", "copy", "--size", "1001", "--reps", "1",
                   "--format", "csv"));
    assert_int_equal(o.code, 0);
    assert_non_null(strstr(o.out, "\npeak,copy,"));
}

/* --device gpu where there is no GPU (PoCL alone): exit 2 as the exit-code
 * table says of a device that names none here, not 3 (no OpenCL device at
 * all). Skipped on a machine with a GPU. */
static void no_gpu_here_is_a_usage_error(void **state)
{
    (void)state;
    static struct outcome o;
    run_clmem(&o, NULL, ARGS("devices", "--format", "csv"));
    assert_int_equal(o.code, 0);
    if (strstr(o.out, ",gpu,")) {
        printf("skipped: this machine has a GPU\n");
        return;
    }
    run_clmem_within(&o, NULL, ARGS("run", "dot", "--device", "gpu"), REFUSAL_LIMIT_S);
    if (o.code != 2 || !strstr(o.err, "no gpu device (see 'clmem devices')") ||
        count_lines(o.err) != 1 || o.out[0])
        fail_msg("run dot --device gpu: exit %d, stderr '%s'", o.code, o.err);
}

static void help_and_version(void **state)
{
    (void)state;
    static struct outcome o;
    run_clmem(&o, NULL, ARGS("--version"));
    assert_int_equal(o.code, 0);
    assert_true(strncmp(o.out, "clmem ", 6) == 0);
    static const char *const commands[] = {"devices", "list",    "run", "peak",
                                           "bench",   "compare", "tune"};
    for (size_t i = 0; i < 7; i++) {
        run_clmem(&o, NULL, ARGS(commands[i], "--help"));
        assert_int_equal(o.code, 0);
        assert_non_null(strstr(o.out, "usage: clmem"));
    }
    run_clmem(&o, NULL, ARGS("--help"));
    assert_int_equal(o.code, 0);
    assert_non_null(strstr(o.out, "exit codes"));
    run_clmem(&o, NULL, ARGS("list"));
    assert_int_equal(o.code, 0);
    assert_non_null(strstr(o.out, "Fig 4.16"));
    run_clmem(&o, NULL, ARGS("devices"));
    assert_int_equal(o.code, 0);
    assert_non_null(strstr(o.out, "max work-group size"));
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_inputs_get_one_line_and_exit_2),
        cmocka_unit_test(size_beyond_allocation_exits_2),
        cmocka_unit_test(no_platform_exits_3_with_install_hint),
        cmocka_unit_test(broken_kernel_exits_3_with_build_log),
        cmocka_unit_test(wrong_kernel_exits_1_and_says_where),
        cmocka_unit_test(run_all_prints_gflops_and_verifies),
        cmocka_unit_test(formats_and_output_file),
        cmocka_unit_test(bench_writes_json_with_device_and_peak),
        cmocka_unit_test(cache_warns_on_damaged_entry),
        cmocka_unit_test(tune_stores_and_run_uses),
        cmocka_unit_test(tuning_entry_the_device_cannot_run_is_said),
        cmocka_unit_test(tune_fits_a_device_resumes_and_exports),
        cmocka_unit_test(options_are_the_same_in_every_command),
        cmocka_unit_test(help_and_version),
        cmocka_unit_test(no_gpu_here_is_a_usage_error),
    };
    /* Minutes on 2 cores: compare's bench of two workloads at the CPU
     * sizes, and regblock's tune (meson test cli_long, suite long). */
    const struct CMUnitTest long_tests[] = {
        cmocka_unit_test(compare_writes_the_report),
        cmocka_unit_test(tune_stores_and_run_uses_regblock),
        cmocka_unit_test(tune_fits_matmul_model),
    };
    /* test_cli long: the long ones; test_cli PATTERN: only the tests whose
     * name matches (cmocka's *). */
    if (argc > 1 && strcmp(argv[1], "long") == 0)
        return cmocka_run_group_tests_name("cli, long", long_tests, NULL, NULL);
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
