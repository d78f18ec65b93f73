/* clmem hierarchy as a user runs it, on PoCL, at a small extent: the
 * table with its named levels, CSV with the one fixed header, JSON that
 * the schema accepts (with "hierarchy") and that diff and compare still
 * read; one probe alone; progress; usage errors before any work; a
 * planted kernel that drops its loads failing with exit 1; bench's short
 * form; --output with stdout closed or full; what --help says. No figure
 * is judged. */
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
#include "tmpdir.h"

static void expect_code(const struct outcome *o, int code, const char *what)
{
    if (o->code != code)
        fail_msg("%s: exit %d, expected %d\nstdout: %.3000s\nstderr: %.3000s", what, o->code, code,
                 o->out, o->err);
}

/* The whole sweep up to 64 KiB in each format; the JSON file checked
 * against schema/run.schema.json where python3 has jsonschema. */
static void formats_and_schema(void **state)
{
    (void)state;
    static struct outcome o;
    run_clmem(&o, NULL,
              ARGS("hierarchy", "--device", "cpu", "--size", "65536", "--reps", "2", "--progress"));
    expect_code(&o, 0, "hierarchy --size 65536");
    static const char *const table[] = {
        "memory hierarchy of", "level",   "L1",         "__local reads", "table reads",
        "private array",       "atomics", "h2d_pinned", "chase_global"};
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (!strstr(o.out, table[i]))
            fail_msg("the table has no '%s':\n%.4000s", table[i], o.out);
    if (!strstr(o.err, "clmem: [1/") || !strstr(o.err, "hierarchy chase_global at 1024 bytes"))
        fail_msg("no progress lines: %.2000s", o.err);

    run_clmem(&o, NULL,
              ARGS("hierarchy", "--device", "cpu", "--size", "65536", "--reps", "1", "--format",
                   "csv", "--quiet"));
    expect_code(&o, 0, "hierarchy --format csv");
    const char *header = "workload,variant,device,size,sweep,sweep_value,params,status,";
    assert_true(strncmp(o.out, header, strlen(header)) == 0);
    assert_non_null(strstr(o.out, "\nhierarchy,chase_global,"));
    assert_non_null(strstr(o.out, "ns a load at best"));
    assert_true(o.err[0] == '\0');

    const char *json = test_in_dir("h.json");
    run_clmem(&o, NULL,
              ARGS("hierarchy", "--device", "cpu", "--size", "65536", "--reps", "1", "--output",
                   json, "--quiet"));
    expect_code(&o, 0, "hierarchy --output h.json");
    /* The run file there, the table on stdout, as bench. */
    assert_non_null(strstr(o.out, "memory hierarchy of"));
    char *text = test_read_file(json);
    assert_non_null(text);
    assert_non_null(strstr(text, "\"hierarchy\""));
    assert_non_null(strstr(text, "\"levels\""));
    /* A level named, whatever the staircase looked like on a busy machine. */
    assert_true(strstr(text, "\"L1") || strstr(text, "\"one level"));
    free(text);
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "python3 -c 'import jsonschema' 2>/dev/null || exit 77; python3 -c 'import json, "
             "sys, jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), "
             "json.load(open(sys.argv[2])))' '%s' '%s'",
             json, CLMEM_SCHEMA);
    int rc = system(cmd);
    assert_true(WIFEXITED(rc));
    if (WEXITSTATUS(rc) == 77)
        fprintf(stderr, "schema not checked: python3 has no jsonschema (python3-jsonschema)\n");
    else if (WEXITSTATUS(rc) != 0)
        fail_msg("%s does not follow %s", json, CLMEM_SCHEMA);
    /* A run file like any other: diff reads it. */
    run_clmem(&o, NULL, ARGS("diff", json, json));
    expect_code(&o, 0, "diff h.json h.json");
}

/* --variant: one probe's sweep alone. */
static void one_probe(void **state)
{
    (void)state;
    static struct outcome o;
    run_clmem(&o, NULL,
              ARGS("hierarchy", "--device", "cpu", "--variant", "d2d", "--size", "1048576",
                   "--reps", "1", "--format", "csv", "--quiet"));
    expect_code(&o, 0, "hierarchy --variant d2d");
    /* 4 KiB, 16 KiB, ... 1 MiB: 5 rows and the header. */
    assert_int_equal(count_lines(o.out), 6);
    for (const char *p = strchr(o.out, '\n'); p && p[1]; p = strchr(p + 1, '\n'))
        assert_true(strncmp(p + 1, "hierarchy,d2d,", 14) == 0);
}

/* `--variant chase_global --size 131072` stops inside the CPU's last
 * cache: no level is device memory ("memory": true nowhere in the JSON),
 * and the table and the largest working set's note say where the sweep
 * stopped. Where the device and the host know no cache that large, not
 * judged. chase_page alone: the TLB's reach is a line of its own, with
 * the pages each curve used. */
static void a_sweep_inside_a_cache_names_no_memory(void **state)
{
    (void)state;
    static struct outcome o;
    const char *json = test_in_dir("inside.json");
    run_clmem(&o, NULL,
              ARGS("hierarchy", "--device", "cpu", "--variant", "chase_global", "--size", "131072",
                   "--reps", "3", "--output", json, "--quiet"));
    expect_code(&o, 0, "hierarchy --variant chase_global --size 131072");
    char *text = test_read_file(json);
    assert_non_null(text);
    const char *cache = strstr(text, "\"largest_cache_bytes\"");
    assert_non_null(cache);
    double largest = strtod(strchr(cache, ':') + 1, NULL);
    if (largest >= 2 * 131072.0) {
        if (strstr(text, "\"memory\": true") || strstr(text, "\"memory\":true"))
            fail_msg("a level inside a %.0f-byte cache named device memory:\n%.4000s", largest,
                     text);
        assert_non_null(strstr(text, "sweep stopped at 128 KiB (--size) inside the largest cache"));
        assert_non_null(
            strstr(o.out, "sweep stopped at 128 KiB (--size) inside the largest cache"));
        assert_null(strstr(o.out, "\n  device memory "));
    } else {
        fprintf(stderr, "not judged: the largest cache known is %.0f bytes\n", largest);
    }
    free(text);

    const char *page = test_in_dir("page.json");
    run_clmem(&o, NULL,
              ARGS("hierarchy", "--device", "cpu", "--variant", "chase_page", "--size", "1048576",
                   "--reps", "2", "--output", page, "--quiet"));
    expect_code(&o, 0, "hierarchy --variant chase_page");
    assert_non_null(strstr(o.out, "TLB reach"));
    assert_non_null(strstr(o.out, "pages: "));
    assert_non_null(strstr(o.out, "one element a"));
    /* Where the host gives huge pages to madvised memory, chase_global's
     * buffer is in them (past the TLB's reach of base pages a cache's
     * chase timed page walks), and the pages line says so. */
    char thp[128] = "";
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (f) {
        if (!fgets(thp, sizeof thp, f))
            thp[0] = '\0';
        fclose(f);
    }
    int huge = strstr(thp, "[always]") || strstr(thp, "[madvise]");
    if (huge != (strstr(o.out, "pages: chase_global in 2 MiB pages") != NULL))
        fail_msg("transparent huge pages '%s', yet:\n%s", thp, o.out);
    /* The run file keeps them as fields: the TLB's reach and the pages. */
    text = test_read_file(page);
    assert_non_null(text);
    static const char *const saved[] = {"\"tlb\"", "\"reach_bytes\"", "\"last_bytes\"",
                                        "\"page_bytes\"", "\"pages\""};
    for (size_t i = 0; i < sizeof saved / sizeof *saved; i++)
        if (!strstr(text, saved[i]))
            fail_msg("the run file has no %s:\n%.4000s", saved[i], text);
    free(text);
}

/* Usage errors, before any work, exit 2, one line each. */
static void usage_errors(void **state)
{
    (void)state;
    static struct outcome o;
    const struct {
        const char *const *args;
        const char *says;
    } cases[] = {
        {ARGS("hierarchy", "--variant", "chase"), "unknown probe 'chase'"},
        {ARGS("hierarchy", "--size", "1000", "--device", "cpu"), "4 KiB at least"},
        {ARGS("hierarchy", "--size", "64x64"), "one number of bytes"},
        {ARGS("hierarchy", "--device", "cpu,cpu"), "one device"},
        {ARGS("hierarchy", "extra"), "extra"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        run_clmem_within(&o, NULL, cases[i].args, REFUSAL_LIMIT_S);
        expect_code(&o, 2, cases[i].says);
        if (!strstr(o.err, cases[i].says))
            fail_msg("expected '%s' on stderr, got: %s", cases[i].says, o.err);
    }
}

/* A copy of cl/ whose read_ws never stores its sums: the sweep runs on,
 * says the failed check and exits 1. */
static void dropped_loads_exit_1(void **state)
{
    (void)state;
    char src[2048];
    snprintf(src, sizeof src, "%s/hierarchy.cl", getenv("CLMEM_SOURCE_CL"));
    char *text = test_read_file(src);
    assert_non_null(text);
    const char *old = "out[gid] = (acc.x + acc.y) + (acc.z + acc.w);";
    char *at = strstr(text, old);
    assert_non_null(at);
    const char *dir = test_in_dir("planted");
    assert_int_equal(mkdir(dir, 0700), 0);
    char path[2048];
    snprintf(path, sizeof path, "%s/hierarchy.cl", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%.*s%s%s", (int)(at - text), text, "out[gid] = 0.0f;", at + strlen(old));
    assert_int_equal(fclose(f), 0);
    free(text);
    static struct outcome o;
    run_clmem(&o, NULL,
              ARGS("hierarchy", "--device", "cpu", "--variant", "read_ws", "--size", "16384",
                   "--reps", "1", "--kernel-dir", dir, "--no-cache", "--format", "csv"));
    expect_code(&o, 1, "a read_ws that drops its loads");
    assert_non_null(strstr(o.err, "clmem: hierarchy read_ws: verification failed"));
    assert_non_null(strstr(o.out, ",FAILED,"));
}

/* The shell's exit code of `command` run by sh. */
static int shell(const char *command)
{
    int rc = system(command);
    assert_true(WIFEXITED(rc));
    return WEXITSTATUS(rc);
}

/* With --output the report is the file's: a closed stdout (>&-) wants no
 * table, and the run exits 0 with the file whole; a stdout that cannot
 * take the table says just that, the file named; without --output a
 * closed stdout is refused before the sweep. */
static void output_with_stdout_closed(void **state)
{
    (void)state;
    const char *bin = getenv("CLMEM_BIN"), *json = test_in_dir("closed.json"),
               *err = test_in_dir("closed.err");
    char cmd[4096], text[4096];
    snprintf(cmd, sizeof cmd,
             "'%s' hierarchy --device cpu --variant d2d --size 16384 --reps 1 --output '%s' "
             "--quiet >&- 2>'%s'",
             bin, json, err);
    int code = shell(cmd);
    slurp(err, text, sizeof text);
    if (code != 0 || text[0])
        fail_msg("hierarchy --output FILE >&-: exit %d, stderr '%s'", code, text);
    char *file = test_read_file(json);
    assert_non_null(file);
    assert_non_null(strstr(file, "\"hierarchy\""));
    assert_non_null(strstr(file, "\"variant\":\t\"d2d\""));
    free(file);

    static struct outcome o;
    run_clmem_to_within(&o, NULL,
                        ARGS("hierarchy", "--device", "cpu", "--variant", "d2d", "--size", "16384",
                             "--reps", "1", "--output", json, "--quiet"),
                        "/dev/full", 600);
    char says[2048];
    snprintf(says, sizeof says,
             "clmem: the report is in '%s', but its table cannot be written to stdout: No space "
             "left on device",
             json);
    if (o.code != 2 || !strstr(o.err, says) || count_lines(o.err) != 1)
        fail_msg("hierarchy --output FILE >/dev/full: exit %d, stderr '%s'", o.code, o.err);

    snprintf(cmd, sizeof cmd, "'%s' hierarchy --device cpu --variant d2d >&- 2>'%s'", bin, err);
    code = shell(cmd);
    slurp(err, text, sizeof text);
    if (code != 2 || !strstr(text, "stdout is closed: the report has nowhere to go (give "
                                   "--output FILE)"))
        fail_msg("hierarchy >&-: exit %d, stderr '%s'", code, text);
}

/* hierarchy's --help and man page say what hierarchy takes:
 * a probe (no auto), the largest working set in bytes (no matmul shape),
 * progress lines without result lines. */
static void help_says_what_hierarchy_takes(void **state)
{
    (void)state;
    static struct outcome o;
    run_clmem(&o, NULL, ARGS("hierarchy", "--help"));
    expect_code(&o, 0, "hierarchy --help");
    static char man[1 << 20];
    const char *bin = getenv("CLMEM_BIN"), *path = test_in_dir("clmem.1");
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' --man >'%s'", bin, path);
    assert_int_equal(shell(cmd), 0);
    slurp(path, man, sizeof man);
    const char *from = strstr(man, ".SS \"clmem hierarchy"),
               *to = from ? strstr(from + 1, ".SS") : NULL;
    assert_non_null(to);
    char section[16384];
    snprintf(section, sizeof section, "%.*s", (int)(to - from), from);
    const char *const texts[] = {o.out, section};
    for (size_t i = 0; i < 2; i++) {
        static const char *const never[] = {"auto", "MxNxK", "matmul", "result's line",
                                            "results' or"};
        static const char *const always[] = {"one probe, or all of them",
                                             "the largest working set of the sweeps, in bytes",
                                             "one a probe and working"};
        for (size_t k = 0; k < sizeof never / sizeof *never; k++)
            if (strstr(texts[i], never[k]))
                fail_msg("hierarchy's %s says '%s':\n%s", i ? "man page" : "--help", never[k],
                         texts[i]);
        for (size_t k = 0; k < sizeof always / sizeof *always; k++)
            if (!strstr(texts[i], always[k]))
                fail_msg("hierarchy's %s lacks '%s':\n%s", i ? "man page" : "--help", always[k],
                         texts[i]);
    }
}

/* bench's short form: hierarchy at its three CPU sizes, the on-chip
 * probes at the smallest alone, and never listed as skipped at the others
 * (the table shows the probes it ran). */
static void bench_short_form(void **state)
{
    (void)state;
    static struct outcome o;
    run_clmem(&o, NULL,
              ARGS("bench", "--device", "cpu", "--workloads", "hierarchy", "--reps", "1",
                   "--format", "csv", "--quiet"));
    expect_code(&o, 0, "bench --workloads hierarchy");
    static const char *const rows[] = {"\nhierarchy,chase_global,", ",16384,", ",262144,",
                                       ",67108864,", "\nhierarchy,local_stride,"};
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        if (!strstr(o.out, rows[i]))
            fail_msg("bench has no '%s':\n%.3000s", rows[i], o.out);
    /* No row skipped: each probe ran at one of the sizes at least. */
    if (strstr(o.out, ",skipped,") || strstr(o.out, "on-chip ones"))
        fail_msg("bench lists skipped probes:\n%.3000s", o.out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(formats_and_schema),
        cmocka_unit_test(one_probe),
        cmocka_unit_test(a_sweep_inside_a_cache_names_no_memory),
        cmocka_unit_test(usage_errors),
        cmocka_unit_test(dropped_loads_exit_1),
        cmocka_unit_test(bench_short_form),
        cmocka_unit_test(output_with_stdout_closed),
        cmocka_unit_test(help_says_what_hierarchy_takes),
    };
    return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
