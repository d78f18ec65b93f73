/* clmem run --peak --levels FILE on PoCL: the __local and __constant rates
 * taken from a saved `clmem hierarchy` run file of the same device (its
 * probes not run again: no hierarchy program is built), said in the
 * output; the text roofline after the table; and each file refused before
 * any work with its message and exit 2: another device's, one without the
 * probes' results, a missing one, a directory, and --levels without
 * --peak. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli_run.h"
#include "tmpdir.h"

static void expect_code(const struct outcome *o, int code, const char *what)
{
    if (o->code != code)
        fail_msg("%s: exit %d, expected %d\nstdout: %.3000s\nstderr: %.3000s", what, o->code, code,
                 o->out, o->err);
}

/* A run of transpose's copy at a small size with --peak, its builds
 * traced (CLMEM_DEBUG=1 names each program's source). */
#define SMALL_PEAK_RUN                                                                             \
    "run", "transpose", "--device", "cpu", "--variant", "copy", "--size", "33", "--reps", "1",     \
        "--peak"

static void rates_from_the_file(void **state)
{
    (void)state;
    static struct outcome o;
    const char *saved = test_in_dir("h.json");
    run_clmem(&o, NULL,
              ARGS("hierarchy", "--device", "cpu", "--size", "4096", "--reps", "1", "--output",
                   saved, "--quiet"));
    expect_code(&o, 0, "hierarchy --output h.json");

    static const char *const debug[] = {"CLMEM_DEBUG", "1", NULL};
    run_clmem(&o, debug, ARGS(SMALL_PEAK_RUN, "--levels", saved));
    expect_code(&o, 0, "run --peak --levels h.json");
    char from[512];
    snprintf(from, sizeof from, "__local and __constant rates from '%s' (not measured)", saved);
    if (!strstr(o.err, from))
        fail_msg("stderr does not say where the rates came from:\n%.3000s", o.err);
    if (strstr(o.err, "hierarchy.cl"))
        fail_msg("the hierarchy's probes ran again:\n%.3000s", o.err);
    assert_non_null(strstr(o.out, "hierarchical roofline"));
    const char *local = strstr(o.out, "+ __local ");
    const char *constant = strstr(o.out, "~ __constant ");
    assert_non_null(local);
    assert_non_null(constant);
    snprintf(from, sizeof from, "(from '%s')", saved);
    assert_non_null(strstr(local, from));
    assert_non_null(strstr(constant, from));
    assert_non_null(strstr(o.out, "transpose copy 33: bound global"));

    /* Without --levels the probes run: the hierarchy program is built. */
    run_clmem(&o, debug, ARGS(SMALL_PEAK_RUN));
    expect_code(&o, 0, "run --peak");
    if (!strstr(o.err, "hierarchy.cl"))
        fail_msg("the probes did not run without --levels:\n%.3000s", o.err);
    assert_non_null(strstr(o.out, "+ __local "));
    assert_null(strstr(o.out, "(from '"));
    /* JSON keeps what it had: no plot. */
    run_clmem(&o, NULL, ARGS(SMALL_PEAK_RUN, "--levels", saved, "--format", "json", "--quiet"));
    expect_code(&o, 0, "run --peak --levels --format json");
    assert_null(strstr(o.out, "hierarchical roofline"));
}

/* Each refused with exit 2 and its message before any work: no variant
 * ran (no result's line, nothing on stdout). */
static void files_refused(void **state)
{
    (void)state;
    const char *other = test_bench_file("hierarchy/h100/hierarchy.json");
    const char *no_probes = test_bench_file("pocl-2core.json");
    const char *missing = test_in_dir("missing.json");
    const char *dir = test_dir();
    static char other_says[512], no_probes_says[512], missing_says[512], dir_says[512];
    snprintf(other_says, sizeof other_says, "--levels '%s' is of another device: 'NVIDIA", other);
    snprintf(no_probes_says, sizeof no_probes_says,
             "--levels '%s' holds no verified local_stride (stride 1) and constant_broadcast",
             no_probes);
    snprintf(missing_says, sizeof missing_says,
             "--levels: cannot read '%s': No such file or directory", missing);
    snprintf(dir_says, sizeof dir_says, "--levels: cannot read '%s': Is a directory", dir);
    const struct {
        const char *file;
        const char *says;
        int peak;
    } cases[] = {
        {other, other_says, 1}, {no_probes, no_probes_says, 1},          {missing, missing_says, 1},
        {dir, dir_says, 1},     {other, "--levels goes with --peak", 0},
    };
    static struct outcome o;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (cases[i].peak)
            run_clmem_within(&o, NULL, ARGS(SMALL_PEAK_RUN, "--levels", cases[i].file),
                             REFUSAL_LIMIT_S);
        else
            run_clmem_within(&o, NULL,
                             ARGS("run", "transpose", "--device", "cpu", "--levels", cases[i].file),
                             REFUSAL_LIMIT_S);
        expect_code(&o, 2, cases[i].says);
        if (!strstr(o.err, cases[i].says))
            fail_msg("case %zu: stderr lacks '%s':\n%.2000s", i, cases[i].says, o.err);
        size_t results = 0;
        other_lines(o.err, &results);
        assert_int_equal(results, 0);
        assert_string_equal(o.out, "");
    }
}

/* --help names the option. */
static void help_names_it(void **state)
{
    (void)state;
    static struct outcome o;
    run_clmem(&o, NULL, ARGS("run", "--help"));
    expect_code(&o, 0, "run --help");
    assert_non_null(strstr(o.out, "--levels FILE"));
}

int main(void)
{
    stop_signals_default();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rates_from_the_file),
        cmocka_unit_test(files_refused),
        cmocka_unit_test(help_names_it),
    };
    return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
