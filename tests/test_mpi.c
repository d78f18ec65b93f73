/* clmem under mpirun (issue 7, item 2), as a user starts it: 2 ranks, and
 * 4 on this 2-core machine by oversubscription, all on PoCL. Each rank runs
 * on a device of its own choosing, rank 0 reports for all, errors are said
 * once and every rank exits with the same code, also when a single rank
 * fails (MPMD launches give one rank other arguments). SUMMA once on
 * rusticl's llvmpipe too, where its clock fails the check. */
#include <cJSON.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_run.h"
#include "json_file.h"
#include "tmpdir.h"

#define MAX_ARGS 64

/* Appends "-n N CLMEM args..." to argv at *n. */
static void add_app(const char **argv, size_t *n, const char *ranks, const char *const args[])
{
    argv[(*n)++] = "-n";
    argv[(*n)++] = ranks;
    argv[(*n)++] = getenv("CLMEM_BIN");
    for (size_t i = 0; args[i]; i++)
        argv[(*n)++] = args[i];
}

/* mpirun with one app (`b` NULL) or two, the second for the last rank. */
static void run_mpi(struct outcome *o, const char *ranks, const char *const a[],
                    const char *const b[])
{
    const char *argv[MAX_ARGS] = {"mpirun", "--allow-run-as-root", "--oversubscribe"};
    size_t n = 3;
    add_app(argv, &n, ranks, a);
    if (b) {
        argv[n++] = ":";
        add_app(argv, &n, "1", b);
    }
    argv[n] = NULL;
    assert_true(n < MAX_ARGS);
    /* In the sanitizer build, LeakSanitizer's check in clmem's ranks once
     * crashed its own tracer (signal 11 while stopping Open MPI's and
     * PoCL's threads): leaks are checked in test_summa (the library's MPI
     * code), errors here. */
    char asan[512];
    const char *asan_now = getenv("ASAN_OPTIONS");
    snprintf(asan, sizeof asan, "%s%sdetect_leaks=0", asan_now ? asan_now : "",
             asan_now ? ":" : "");
    const char *const env[] = {"ASAN_OPTIONS", asan, NULL};
    struct child c;
    start_program(&c, asan_now ? env : NULL, getenv("MPIRUN"), argv);
    finish_clmem(&c, o);
}

static void expect_code(const struct outcome *o, int code)
{
    if (o->code != code)
        fail_msg("exit code %d, expected %d\nstdout:\n%s\nstderr:\n%s", o->code, code, o->out,
                 o->err);
}

static size_t occurrences(const char *text, const char *part)
{
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, part)); p += strlen(part))
        n++;
    return n;
}

static void temp_path(char *path, size_t size, const char *name)
{
    snprintf(path, size, "/tmp/clmem-test-mpi-%d-%s", (int)getpid(), name);
}

/* bench: one JSON with a section per rank, each verified, peaks beside;
 * no result's line on stderr. */
static void bench_gathers_every_rank(void **state)
{
    (void)state;
    char path[128];
    temp_path(path, sizeof path, "bench.json");
    struct outcome o;
    run_mpi(&o, "2", ARGS("bench", "--workloads", "dot", "--reps", "1", "--output", path), NULL);
    expect_code(&o, 0);
    assert_non_null(strstr(o.out, "rank 0 on "));
    assert_non_null(strstr(o.out, "rank 1 on "));
    /* No rank says its results as they finish: rank 0 reports them all. */
    size_t said;
    other_lines(o.err, &said);
    if (said)
        fail_msg("%zu results' lines under mpirun:\n%s", said, o.err);
    cJSON *root = test_read_json(path);
    const cJSON *ranks = cJSON_GetObjectItem(root, "ranks");
    assert_int_equal(cJSON_GetArraySize(ranks), 2);
    for (int r = 0; r < 2; r++) {
        const cJSON *rank = cJSON_GetArrayItem(ranks, r);
        assert_int_equal(cJSON_GetObjectItem(rank, "rank")->valueint, r);
        const cJSON *host = cJSON_GetObjectItem(rank, "host");
        assert_true(strlen(cJSON_GetObjectItem(host, "name")->valuestring) > 0);
        assert_true(cJSON_GetObjectItem(host, "cores")->valuedouble >= 1);
        const cJSON *device = cJSON_GetObjectItem(rank, "device");
        assert_true(strlen(cJSON_GetObjectItem(device, "name")->valuestring) > 0);
        const cJSON *peak = cJSON_GetObjectItem(rank, "peak");
        assert_true(cJSON_GetObjectItem(peak, "bandwidth_gbs")->valuedouble > 0);
        const cJSON *results = cJSON_GetObjectItem(rank, "results");
        /* Every peak, then every dot variant. */
        assert_int_equal(cJSON_GetArraySize(results), device_peak_count() + variant_count("dot"));
        const cJSON *result;
        cJSON_ArrayForEach(result, results)
        {
            assert_string_equal(cJSON_GetObjectItem(result, "status")->valuestring, "ok");
            assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(result, "samples_ms")), 1);
        }
    }
    cJSON_Delete(root);
    unlink(path);
}

/* run on 4 ranks: each rank's line and their total, every one verified;
 * no result's line on stderr. */
static void run_four_ranks_and_total(void **state)
{
    (void)state;
    struct outcome o;
    run_mpi(&o, "4",
            ARGS("run", "reduce", "--size", "1000003", "--variant", "coarsened", "--reps", "1",
                 "--format", "csv"),
            NULL);
    expect_code(&o, 0);
    char label[32];
    for (int r = 0; r < 4; r++) {
        snprintf(label, sizeof label, "rank %d on ", r);
        assert_int_equal(occurrences(o.out, label), 1);
    }
    assert_int_equal(occurrences(o.out, "total (4 devices)"), 1);
    assert_int_equal(occurrences(o.out, "reduce,coarsened,"), 5);
    assert_int_equal(occurrences(o.out, ",ok,"), 5);
    assert_null(strstr(o.out, "FAILED"));
    size_t said;
    other_lines(o.err, &said);
    if (said)
        fail_msg("%zu results' lines under mpirun:\n%s", said, o.err);
}

/* Runs SUMMA and checks rank 0's one result. */
static void expect_summa(const char *ranks, const char *grid_option, const char *variant,
                         const char *size, const char *panel, const char *device)
{
    struct outcome o;
    run_mpi(&o, ranks,
            ARGS("run", "matmul", "--variant", variant, "--size", size, grid_option, "--panel",
                 panel, "--reps", "2", "--format", "json"),
            NULL);
    expect_code(&o, 0);
    cJSON *root = cJSON_Parse(o.out);
    if (!root)
        fail_msg("not JSON:\n%s", o.out);
    const cJSON *results = cJSON_GetObjectItem(root, "results");
    assert_int_equal(cJSON_GetArraySize(results), 1);
    const cJSON *r = cJSON_GetArrayItem(results, 0);
    assert_string_equal(cJSON_GetObjectItem(r, "device")->valuestring, device);
    assert_string_equal(cJSON_GetObjectItem(r, "variant")->valuestring, variant);
    assert_string_equal(cJSON_GetObjectItem(r, "status")->valuestring, "ok");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(r, "samples_ms")), 2);
    cJSON_Delete(root);
}

/* SUMMA from the command line: sizes no grid, tile or panel divides. */
static void summa_from_the_command_line(void **state)
{
    (void)state;
    expect_summa("4", "--summa", "tiled_bounds", "50x37x61", "16", "SUMMA 2x2 grid, 4 ranks");
    expect_summa("4", "--summa=1x4", "regblock", "45x70x33", "7", "SUMMA 1x4 grid, 4 ranks");
    expect_summa("2", "--summa=2x1", "tiled", "64", "32", "SUMMA 2x1 grid, 2 ranks");
}

/* Runs a command that every rank refuses alike: exit 2, said once. */
static void expect_refused_once(const char *ranks, const char *const args[], const char *message)
{
    struct outcome o;
    run_mpi(&o, ranks, args, NULL);
    expect_code(&o, 2);
    if (occurrences(o.err, message) != 1)
        fail_msg("expected '%s' once in stderr:\n%s", message, o.err);
}

static void usage_errors_said_once(void **state)
{
    (void)state;
    expect_refused_once("2", ARGS("run", "reduce", "--size", "10x"), "size '10x' is not a number");
    expect_refused_once("2", ARGS("bench", "--output", "/nonexistent-dir/x.json"),
                        "cannot write '/nonexistent-dir/x.json'");
    expect_refused_once("2", ARGS("run", "matmul", "--variant", "tiled", "--split"),
                        "under mpirun, run takes no --split");
    expect_refused_once("2", ARGS("run", "matmul", "--device", "no-such-device"), "no-such-device");
    expect_refused_once("2", ARGS("run", "matmul", "--variant", "tiled", "--summa=3x3"), "3x3");
    expect_refused_once("2", ARGS("run", "matmul", "--variant", "tiled", "--summa=2"),
                        "bad --summa grid '2'");
    expect_refused_once("2", ARGS("run", "matmul", "--variant", "all", "--summa"),
                        "--summa runs one variant");
    expect_refused_once("2", ARGS("run", "dot", "--variant", "coarsened", "--summa"),
                        "--summa is for matmul");
    expect_refused_once("2", ARGS("tune", "matmul"), "start it without mpirun");
}

/* A copy of the kernels with reduce.cl that does not build. */
static void broken_kernel_dir(char *dir, size_t size)
{
    temp_path(dir, size, "cl");
    char command[512];
    snprintf(command, sizeof command,
             "rm -rf '%s' && cp -r '%s' '%s' && echo 'this is not OpenCL C' >>'%s/reduce.cl'", dir,
             getenv("CLMEM_SOURCE_CL"), dir, dir);
    assert_int_equal(system(command), 0);
}

/* One rank's own failure: the others do not wait for it forever, rank 0
 * says which rank failed and why, and every rank exits with its code. */
static void one_rank_fails(void **state)
{
    (void)state;
    char dir[128], command[160];
    broken_kernel_dir(dir, sizeof dir);
    const char *const good[] = {"run", "reduce", "--size", "1001", "--reps", "1", NULL};
    const char *const bad[] = {"run", "reduce",       "--size", "1001", "--reps",
                               "1",   "--kernel-dir", dir,      NULL};
    struct outcome o;
    run_mpi(&o, "1", good, bad);
    expect_code(&o, 3);
    assert_int_equal(occurrences(o.err, "rank 1 on "), 1); /* said once, agreed twice */
    assert_non_null(strstr(o.err, "CL_BUILD_PROGRAM_FAILURE"));
    /* A usage error of one rank's own (its kernel directory) stops all. */
    const char *const missing[] = {"run", "reduce", "--kernel-dir", "/nonexistent-kernels", NULL};
    run_mpi(&o, "1", good, missing);
    expect_code(&o, 2);
    assert_int_equal(occurrences(o.err, "/nonexistent-kernels"), 1);
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    assert_int_equal(system(command), 0);
}

/* compare: the report has a column per rank and a JSON per rank. */
static void compare_a_column_per_rank(void **state)
{
    (void)state;
    char dir[128], path[192], text[65536];
    temp_path(dir, sizeof dir, "report");
    struct outcome o;
    run_mpi(&o, "2", ARGS("compare", "--workloads", "dot", "--reps", "1", "--output-dir", dir),
            NULL);
    expect_code(&o, 0);
    snprintf(path, sizeof path, "%s/report.md", dir);
    slurp(path, text, sizeof text);
    assert_non_null(strstr(text, "rank 0 on "));
    assert_non_null(strstr(text, "rank 1 on "));
    assert_null(strstr(text, "FAILED"));
    struct stat st;
    snprintf(path, sizeof path, "%s/device-1.json", dir);
    assert_int_equal(stat(path, &st), 0);
    char command[192];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    assert_int_equal(system(command), 0);
}

/* Whether `clmem devices` lists a GPU (with none, PoCL alone, the ranks'
 * default finds none). */
static int machine_has_gpu(void)
{
    static struct outcome o;
    run_clmem(&o, NULL, ARGS("devices"));
    for (const char *p = o.out; (p = strstr(p, "\n    type ")); p++) {
        size_t len = strcspn(p + 1, "\n");
        char line[128];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1),
                 p + 1);
        if (strstr(line, "gpu"))
            return 1;
    }
    return 0;
}

/* Under mpirun --device left out means the host's GPUs: where a rank finds
 * none (PoCL alone here, or the OpenCL variables cut by mpirun) rank 0
 * says so once, with the likely cause and the fix; the run goes on, on
 * the CPU. A device named explicitly gets no such warning. */
static void no_gpu_said_once(void **state)
{
    (void)state;
    struct outcome o;
    run_mpi(&o, "2",
            ARGS("run", "reduce", "--size", "1001", "--variant", "coarsened", "--reps", "1",
                 "--format", "csv"),
            NULL);
    expect_code(&o, 0);
    if (machine_has_gpu()) {
        fprintf(stderr, "test_mpi: this machine has a GPU: the no-GPU warning is not expected\n");
        assert_null(strstr(o.err, "no GPU found"));
    } else if (occurrences(o.err, "warning: no GPU found on ") != 1 ||
               !strstr(o.err, "(2 of 2 ranks)") ||
               !strstr(o.err, "'mpirun ... env OCL_ICD_FILENAMES=$OCL_ICD_FILENAMES "
                              "OCL_ICD_VENDORS=$OCL_ICD_VENDORS clmem ...'")) {
        fail_msg("expected the no-GPU warning once in stderr:\n%s", o.err);
    }
    assert_int_equal(occurrences(o.out, ",ok,"), 3); /* the ranks' and their total */
    run_mpi(&o, "2",
            ARGS("run", "reduce", "--size", "1001", "--variant", "coarsened", "--reps", "1",
                 "--device", "cpu"),
            NULL);
    expect_code(&o, 0);
    if (strstr(o.err, "no GPU found"))
        fail_msg("a device named explicitly got the no-GPU warning:\n%s", o.err);
}

/* SUMMA on rusticl's llvmpipe, whose event times read 0 and fail the
 * clock check: the run verifies, and each rank's share not computing is
 * '-' (not measured) in the note, not 100%. Skipped where rusticl is not
 * installed. */
static void summa_on_llvmpipe_times_not_measured(void **state)
{
    (void)state;
    setenv("RUSTICL_ENABLE", "llvmpipe", 1); /* mpirun's ranks inherit it */
    static struct outcome o;
    run_clmem(&o, NULL, ARGS("devices"));
    if (!strstr(o.out, "llvmpipe")) {
        unsetenv("RUSTICL_ENABLE");
        skip();
    }
    run_mpi(&o, "2",
            ARGS("run", "matmul", "--variant", "regblock", "--summa", "--size", "130x66x34",
                 "--panel", "16", "--device", "llvmpipe", "--reps", "1", "--format", "json"),
            NULL);
    unsetenv("RUSTICL_ENABLE");
    expect_code(&o, 0);
    cJSON *root = cJSON_Parse(o.out);
    if (!root)
        fail_msg("not JSON:\n%s", o.out);
    const cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "results"), 0);
    assert_non_null(r);
    assert_string_equal(cJSON_GetObjectItem(r, "status")->valuestring, "ok");
    const char *note = cJSON_GetObjectItem(r, "note")->valuestring;
    if (!strstr(note, "not computing per rank: - -;"))
        fail_msg("expected the shares not measured in the note: %s", note);
    cJSON_Delete(root);
}

int main(int argc, char **argv)
{
    /* test_mpi PATTERN: only the tests whose name matches (cmocka's *). */
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    if (!getenv("CLMEM_BIN") || !getenv("MPIRUN") || !getenv("CLMEM_SOURCE_CL")) {
        fprintf(stderr, "test_mpi: set CLMEM_BIN, MPIRUN and CLMEM_SOURCE_CL (meson test does)\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bench_gathers_every_rank),
        cmocka_unit_test(run_four_ranks_and_total),
        cmocka_unit_test(summa_from_the_command_line),
        cmocka_unit_test(usage_errors_said_once),
        cmocka_unit_test(one_rank_fails),
        cmocka_unit_test(compare_a_column_per_rank),
        cmocka_unit_test(no_gpu_said_once),
        cmocka_unit_test(summa_on_llvmpipe_times_not_measured),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
