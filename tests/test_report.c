/* The comparison report (src/compare/compare.c and its parts) written from
 * bench/'s saved runs: report.md's tables (devices, at a glance, rows every
 * device has, rows only some have, never a grid of dashes), labels that
 * tell two runs of one machine apart, report.html self-contained with
 * every picture inline, the roofline's points, the report without gnuplot,
 * and the directory appearing whole or not at all. Needs no device. */
#include "compare/compare.h"
#include "compare/lessons.h"
#include "harness/harness.h"
#include "report/report.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "tmpdir.h"

static char *slurp_in(const char *dir, const char *name)
{
    char path[1400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = test_read_file(path);
    if (!text)
        fail_msg("cannot read '%s'", path);
    return text;
}

static size_t count(const char *text, const char *what)
{
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* Entries of `dir` whose name starts with `prefix`. */
static size_t entries(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));)
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

static void remove_tree(const char *path)
{
    char cmd[1300];
    snprintf(cmd, sizeof cmd, "chmod -R u+w '%s' 2>/dev/null; rm -rf '%s'", path, path);
    assert_int_equal(system(cmd), 0);
}

/* bench/'s three saved runs, with the hosts their files do not name. */
static void load_bench(struct clmem_compare_device **runs, size_t *n)
{
    static const struct {
        const char *file, *host;
    } files[] = {
        {"h100.json", "gpu-box"},
        {"pocl-xeon16.json", "gpu-box"},
        {"pocl-2core.json", "laptop"},
    };
    struct clmem_error err = {0};
    *runs = NULL;
    *n = 0;
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(files); i++) {
        assert_int_equal(clmem_runfile_load(test_bench_file(files[i].file), runs, n, &err),
                         CLMEM_OK);
        snprintf((*runs)[i].host, sizeof(*runs)[i].host, "%s", files[i].host);
    }
    assert_int_equal(*n, 3);
}

static int report(const char *dir, const struct clmem_compare_device *runs, size_t n)
{
    char note[1300];
    struct clmem_error err = {0};
    int status = clmem_compare_report(dir, runs, n, note, sizeof note, &err);
    if (status == CLMEM_OK && note[0] && !strstr(note, "gnuplot not found"))
        fail_msg("unexpected note: %s", note);
    return status;
}

static int gnuplot_installed(void)
{
    return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

/* The text of `text` from `from` up to `to` (or its end), malloc'd. */
static char *section(const char *text, const char *from, const char *to)
{
    const char *start = strstr(text, from);
    if (!start)
        fail_msg("no '%s' in the report", from);
    const char *end = to ? strstr(start + strlen(from), to) : NULL;
    size_t len = end ? (size_t)(end - start) : strlen(start);
    char *s = malloc(len + 1);
    assert_non_null(s);
    memcpy(s, start, len);
    s[len] = '\0';
    return s;
}

/* Table rows of a piece of report.md (not headers or separators): every
 * cell must say something, never "-". Returns how many rows there are. */
static size_t check_rows(const char *md, int skip_headers)
{
    size_t rows = 0;
    for (const char *line = md; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *next = end ? end + 1 : NULL;
        if (len > 2 && strncmp(line, "| ", 2) == 0 && strncmp(line, "| --- |", 7) != 0) {
            int header = next && strncmp(next, "| --- |", 7) == 0;
            char copy[4096];
            snprintf(copy, sizeof copy, "%.*s", (int)len, line);
            if (strstr(copy, "| - |") || strstr(copy, "|  |"))
                fail_msg("a row with an empty cell: %s", copy);
            if (!header || !skip_headers)
                rows++;
        }
        line = next;
    }
    return rows;
}

/* Rows (workload, variant, size, sweep point) of all the runs, counted once. */
static size_t distinct_rows(const struct clmem_compare_device *runs, size_t n)
{
    size_t distinct = 0;
    for (size_t d = 0; d < n; d++)
        for (size_t i = 0; i < runs[d].n_results; i++) {
            const struct clmem_result *r = &runs[d].results[i];
            int seen = 0;
            for (size_t e = 0; e <= d && !seen; e++)
                for (size_t j = 0; j < (e == d ? i : runs[e].n_results) && !seen; j++) {
                    const struct clmem_result *o = &runs[e].results[j];
                    seen = !strcmp(o->workload, r->workload) && !strcmp(o->variant, r->variant) &&
                           !strcmp(o->size, r->size) && !strcmp(o->sweep, r->sweep) &&
                           o->sweep_value == r->sweep_value;
                }
            distinct += !seen;
        }
    return distinct;
}

static void report_md_from_the_bench_files(void **state)
{
    (void)state;
    struct clmem_compare_device *runs;
    size_t n;
    load_bench(&runs, &n);
    const char *dir = test_in_dir("md");
    assert_int_equal(report(dir, runs, n), CLMEM_OK);
    char *md = slurp_in(dir, "report.md");
    assert_true(strncmp(md, "# clmem comparison\n", 19) == 0);

    /* First the devices, labelled by name and host, numbers for people. */
    char *devices = section(md, "## Devices", "## At a glance");
    assert_non_null(strstr(devices, "| NVIDIA H100 80GB HBM3 on gpu-box (baseline) | NVIDIA CUDA | "
                                    "580.159.04 | 0.1.0, build not recorded "
                                    "| gpu-box | 2026-11-23T11:34:28Z | "));
    /* A 0.1.0 file measured no read peak and no launch. */
    assert_non_null(
        strstr(devices, "h100.json | 2.67 TB/s | not measured | 63.9 TFLOP/s | not measured |"));
    assert_non_null(strstr(devices, "| pthread-skylake-avx512-AMD EPYC on laptop |"));
    assert_int_equal(check_rows(devices, 1), 3);

    /* Then each workload's best on each device, with variant and size,
     * one unit a row. */
    char *glance = section(md, "## At a glance", "## Ratios to the baseline");
    assert_non_null(strstr(
        glance, "| workload | NVIDIA H100 80GB HBM3 on gpu-box | cpu-skylake-avx512-Intel(R) "
                "Xeon(R) Processor on gpu-box | pthread-skylake-avx512-AMD EPYC on laptop |"));
    assert_non_null(strstr(glance, "| matmul | 48.7 TFLOP/s regblock @8192 (0.76 of peak) | "
                                   "0.12 TFLOP/s regblock @512 (0.21 of peak) | "
                                   "0.11 TFLOP/s panel @512 (0.93 of peak) |"));
    assert_non_null(strstr(glance, "| transpose | 2759 GB/s padded @8192 (1.03 of peak) | "
                                   "43.9 GB/s copy @2048 (0.38 of peak) | 16.0 GB/s copy"));
    assert_non_null(strstr(glance, "| pi | 355 Gsamples/s device_rng @256 Mi |"));
    assert_non_null(strstr(glance, "| peak (GB/s) | 2673 GB/s copy @16 Mi (1.00 of peak) |"));
    assert_non_null(strstr(glance, "| coalescing | 2320 GB/s offset_double offset=0 @4 Mi "));
    assert_non_null(strstr(glance, "| blur | 444 GB/s naive @7680x4320 (0.17 of peak) | "
                                   "1.65 GB/s naive @1920x1080 (0.014 of peak) | "
                                   "0.57 GB/s naive @1920x1080 (0.02 of peak) |"));
    assert_null(strstr(glance, "0.00"));
    /* peak twice (GB/s, GFLOP/s), and 10 other workloads. */
    assert_int_equal(check_rows(glance, 1), 12);

    /* A table per workload of the rows every device has: matmul at 1024. */
    char *tables = section(md, "## peak", "## Results only some devices have");
    char *matmul = section(tables, "## matmul", "\n## ");
    assert_non_null(strstr(matmul, "| regblock @ 1024 | 33.1 TFLOP/s (0.52 of peak) | "
                                   "68.3 GFLOP/s (0.12 of peak) | 33.1 GFLOP/s (0.28 of peak) |"));
    assert_null(strstr(matmul, "@ 8192"));
    assert_null(strstr(matmul, "@ 512"));
    size_t common = check_rows(tables, 1);

    /* At the end, what only some ran, each table with only those devices. */
    char *partial = section(md, "## Results only some devices have", NULL);
    char *h100 = section(partial, "### matmul: NVIDIA H100 80GB HBM3 on gpu-box alone", "\n### ");
    assert_non_null(strstr(h100, "| variant @ size | NVIDIA H100 80GB HBM3 on gpu-box |\n"));
    assert_non_null(strstr(h100, "| regblock @ 8192 | 48.7 TFLOP/s (0.76 of peak) |\n"));
    char *cpus = section(partial,
                         "### matmul: only cpu-skylake-avx512-Intel(R) Xeon(R) Processor on "
                         "gpu-box, pthread-skylake-avx512-AMD EPYC on laptop",
                         "\n### ");
    assert_non_null(strstr(cpus, "| regblock @ 512 | 118 GFLOP/s (0.21 of peak) | "
                                 "32.9 GFLOP/s (0.28 of peak) |\n"));
    char *panel =
        section(partial, "### matmul: pthread-skylake-avx512-AMD EPYC on laptop alone", "\n### ");
    assert_non_null(strstr(panel, "| panel @ 512 | 108 GFLOP/s (0.93 of peak) |\n"));
    assert_non_null(strstr(partial, "### coalescing: NVIDIA H100 80GB HBM3 on gpu-box alone"));
    size_t partial_rows = check_rows(partial, 1);
    /* Every row of every file once: in a table of all, or of those that have it. */
    assert_int_equal(common + partial_rows, distinct_rows(runs, n));
    check_rows(md, 0);

    /* Numbers for people in the report, full precision in the CSV. */
    assert_null(strstr(md, "e+0"));
    assert_null(strstr(md, "GFLOP/s (0.76"));
    char *csv = slurp_in(dir, "results.csv");
    assert_non_null(strstr(csv, ",48729.130581165962,GFLOP/s,"));

    free(csv);
    free(partial);
    free(panel);
    free(cpus);
    free(h100);
    free(matmul);
    free(tables);
    free(glance);
    free(devices);
    free(md);
    remove_tree(dir);
    clmem_compare_devices_free(runs, n);
}

/* Two runs of one machine (before and after a driver update): told apart
 * by their file names, else their times, else their place; the labels are
 * in every table, title and legend. User text is escaped everywhere. */
static void labels_tell_apart_runs_of_one_machine(void **state)
{
    (void)state;
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    char *h100 = test_read_file(test_bench_file("h100.json"));
    assert_non_null(h100);
    static const char *const copies[] = {"before.json", "after.json"};
    for (size_t i = 0; i < 2; i++) {
        const char *copy = test_write_file(test_in_dir(copies[i]), h100);
        assert_int_equal(clmem_runfile_load(copy, &runs, &n, &err), CLMEM_OK);
        snprintf(runs[i].host, sizeof runs[i].host, "gpu-box");
    }
    free(h100);
    const char *dir = test_in_dir("labels");
    assert_int_equal(report(dir, runs, n), CLMEM_OK);
    char *md = slurp_in(dir, "report.md");
    char *glance = section(md, "## At a glance", "## Ratios to the baseline");
    assert_non_null(strstr(glance, "| workload | NVIDIA H100 80GB HBM3 on gpu-box (before.json) | "
                                   "NVIDIA H100 80GB HBM3 on gpu-box (after.json) |"));
    /* Every row is common: no section of partial rows. */
    assert_null(strstr(md, "Results only some devices have"));
    char *gp = slurp_in(dir, "plots.gp");
    assert_non_null(strstr(gp, "title 'NVIDIA H100 80GB HBM3 on gpu-box (after.json)'"));
    assert_non_null(strstr(gp, "set title 'roofline: NVIDIA H100 80GB HBM3 on gpu-box (before."));
    free(gp);
    free(glance);
    free(md);
    remove_tree(dir);

    /* The same file name: their creation times; nothing: their places. */
    snprintf(runs[0].origin, sizeof runs[0].origin, "a/run.json");
    snprintf(runs[1].origin, sizeof runs[1].origin, "b/run.json");
    snprintf(runs[0].created, sizeof runs[0].created, "2025-01-02T03:04:05Z");
    snprintf(runs[1].created, sizeof runs[1].created, "2025-02-02T03:04:05Z");
    assert_int_equal(report(dir, runs, n), CLMEM_OK);
    md = slurp_in(dir, "report.md");
    assert_non_null(
        strstr(md, "| NVIDIA H100 80GB HBM3 on gpu-box (run.json, 2025-01-02T03:04:05Z) "
                   "| NVIDIA H100 80GB HBM3 on gpu-box (run.json, 2025-02-02T03:04:05Z) |"));
    free(md);
    remove_tree(dir);
    runs[1].created[0] = runs[0].created[0] = '\0';
    /* Names are the user's text: Markdown and HTML both escape them. */
    snprintf(runs[0].device.name, sizeof runs[0].device.name, "GPU <b>&\"1\"|x");
    snprintf(runs[1].device.name, sizeof runs[1].device.name, "GPU <b>&\"1\"|x");
    assert_int_equal(report(dir, runs, n), CLMEM_OK);
    md = slurp_in(dir, "report.md");
    assert_non_null(strstr(md, "| GPU &lt;b&gt;&amp;\"1\"\\|x on gpu-box (#1) | "
                               "GPU &lt;b&gt;&amp;\"1\"\\|x on gpu-box (#2) |"));
    assert_null(strstr(md, "<b>"));
    char *html = slurp_in(dir, "report.html");
    assert_non_null(strstr(html, "<th>GPU &lt;b&gt;&amp;&quot;1&quot;|x on gpu-box (#2)</th>"));
    assert_null(strstr(html, "<b>"));
    free(html);
    free(md);
    remove_tree(dir);
    clmem_compare_devices_free(runs, n);
}

/* report.html: the same tables, every picture inline, nothing outside. */
static void report_html_is_self_contained(void **state)
{
    (void)state;
    struct clmem_compare_device *runs;
    size_t n;
    load_bench(&runs, &n);
    const char *dir = test_in_dir("html");
    assert_int_equal(report(dir, runs, n), CLMEM_OK);
    char *md = slurp_in(dir, "report.md"), *html = slurp_in(dir, "report.html");
    assert_true(strncmp(html, "<!DOCTYPE html>\n", 16) == 0);
    assert_non_null(strstr(html, "</html>\n"));
    /* Well-formed enough: every table and picture closed. */
    assert_int_equal(count(html, "<table"), count(html, "</table>"));
    size_t md_tables = 0;
    for (const char *p = md; (p = strstr(p, "\n| --- |")); p++)
        md_tables++;
    assert_int_equal(count(html, "<table"), md_tables);
    assert_int_equal(count(html, "<svg"), count(html, "</svg>"));
    assert_non_null(strstr(html, "<td data-v=\"48729.130581165962\">48.7 TFLOP/s<br>regblock "
                                 "@8192 (0.76 of peak)</td>"));
    /* Every picture report.md shows is in the page, as an element. */
    size_t pictures = count(md, "\n![");
    if (gnuplot_installed()) {
        /* each device against the baseline, coalescing against offset
         * and stride, matmul's and transpose's bars, matmul, reduce and
         * dot against size, 3 rooflines and one of all three, and a
         * cascade of performance portability for each of the 10
         * workloads that are not the peaks */
        assert_int_equal(pictures, 22);
        assert_int_equal(count(html, "<svg"), pictures);
    } else {
        assert_int_equal(count(html, "<svg"), 0);
        assert_non_null(strstr(html, "gnuplot not found"));
    }
    /* Nothing that reaches outside the page. */
    static const char *const outside[] = {"src=",  "href=\"http", "href='http", "url(",
                                          "<link", "@import",     "<?xml",      "<!DOCTYPE svg"};
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(outside); i++)
        if (strstr(html, outside[i]))
            fail_msg("report.html holds '%s'", outside[i]);
    free(html);
    free(md);
    remove_tree(dir);
    clmem_compare_devices_free(runs, n);
}

/* The line of roofline-N.dat whose label starts with `label`. */
static void roofline_point(const char *dat, const char *label, double *x, double *y)
{
    char quoted[200];
    snprintf(quoted, sizeof quoted, "\"%s", label);
    const char *at = strstr(dat, quoted);
    if (!at)
        fail_msg("no point '%s' on the roofline", label);
    const char *line = at;
    while (line > dat && line[-1] != '\n')
        line--;
    assert_int_equal(sscanf(line, "%lf %lf", x, y), 2);
}

static void close_to(double got, double want)
{
    if (!(fabs(got - want) <= 1e-6 * fabs(want)))
        fail_msg("got %.17g, expected %.17g", got, want);
}

/* Each workload's best verified result on the device's roofline. */
static void every_workload_on_the_roofline(void **state)
{
    (void)state;
    struct clmem_compare_device *runs;
    size_t n;
    load_bench(&runs, &n);
    const char *dir = test_in_dir("roofline");
    assert_int_equal(report(dir, runs, n), CLMEM_OK);
    char *dat = slurp_in(dir, "roofline-0.dat"), *md = slurp_in(dir, "report.md");
    double x, y;
    /* GFLOP/s at the intensity of the size: 2N^3 / (12 N^2) = N/6. */
    roofline_point(dat, "matmul regblock 48.7 TFLOP/s", &x, &y);
    close_to(x, 8192.0 / 6);
    close_to(y, 48729.130581165962);
    /* GB/s on the slope at their own flops per byte. */
    roofline_point(dat, "dot coarsened", &x, &y);
    close_to(x, 0.25);
    close_to(y, 3007.612781786402 * 0.25);
    roofline_point(dat, "constmem global_filter", &x, &y);
    close_to(x, 6.25);
    roofline_point(dat, "blur naive", &x, &y);
    close_to(x, 4.5);
    roofline_point(dat, "reduce coarsened", &x, &y);
    close_to(x, 0.25);
    /* No flops: at the left edge, on the slope at their bandwidth. */
    roofline_point(dat, "transpose padded 2.76 TB/s (no flops)", &x, &y);
    close_to(x, 1.0 / 16);
    close_to(y, 2759.41052631579 / 16);
    roofline_point(dat, "pitched pitched 2.23 TB/s (no flops)", &x, &y);
    roofline_point(dat, "coalescing offset_double 2.32 TB/s (no flops", &x, &y);
    /* The peaks are the roofs, not points on them. */
    assert_null(strstr(dat, "\"peak "));
    /* Samples and updates: said under the picture (atomics by atomic_local: racy,
     * faster, loses updates by design and is never a best). */
    assert_null(strstr(dat, "\"pi "));
    assert_null(strstr(dat, "\"atomics "));
    assert_non_null(strstr(md, "Not on the roofline of NVIDIA H100 80GB HBM3 on gpu-box (neither "
                               "flops nor bytes): pi device_rng @268435456 355 Gsamples/s; "
                               "atomics atomic_local @67108864 342 Gupdates/s."));
    char *gp = slurp_in(dir, "plots.gp");
    assert_non_null(
        strstr(gp, "'roofline-0.dat' using 1:($2*1e9):($7-$1):(($8-$2)*1e9) with vectors nohead"));
    assert_non_null(strstr(gp, "'' using 1:($2*1e9) with points"));
    assert_non_null(strstr(gp, "'' using 3:($4*1e9):5 with labels left"));
    free(gp);
    free(md);
    free(dat);
    remove_tree(dir);
    clmem_compare_devices_free(runs, n);
}

/* Without gnuplot on the PATH the report is written and says so. */
static void without_gnuplot_the_report_says_so(void **state)
{
    (void)state;
    struct clmem_compare_device *runs;
    size_t n;
    load_bench(&runs, &n);
    const char *dir = test_in_dir("nognuplot"), *empty = test_in_dir("empty-path");
    assert_int_equal(mkdir(empty, 0755), 0);
    char *path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
    assert_non_null(path);
    setenv("PATH", empty, 1);
    char note[1300];
    struct clmem_error err = {0};
    int status = clmem_compare_report(dir, runs, n, note, sizeof note, &err);
    setenv("PATH", path, 1);
    free(path);
    assert_int_equal(status, CLMEM_OK);
    assert_non_null(strstr(note, "gnuplot not found"));
    char *md = slurp_in(dir, "report.md"), *html = slurp_in(dir, "report.html");
    assert_non_null(strstr(md, "Note: pictures not drawn: gnuplot not found"));
    assert_null(strstr(md, "\n!["));
    assert_non_null(strstr(html, "pictures not drawn: gnuplot not found"));
    assert_null(strstr(html, "<svg"));
    assert_non_null(strstr(md, "| matmul | 48.7 TFLOP/s regblock @8192 (0.76 of peak) |"));
    char *gp = slurp_in(dir, "plots.gp");
    free(gp);
    free(html);
    free(md);
    remove_tree(dir);
    assert_int_equal(rmdir(empty), 0);
    clmem_compare_devices_free(runs, n);
}

/* The report into `dir` in a child process whose files may not grow past
 * `limit` bytes (RLIMIT_FSIZE: a full disk, also for root); its status. */
static int report_with_file_limit(const char *dir, const struct clmem_compare_device *runs,
                                  size_t n, rlim_t limit)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit rl = {limit, limit};
        signal(SIGXFSZ, SIG_IGN);
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
            _exit(100);
        char note[1300];
        struct clmem_error err = {0};
        _exit(clmem_compare_report(dir, runs, n, note, sizeof note, &err));
    }
    int rc;
    assert_int_equal(waitpid(pid, &rc, 0), pid);
    assert_true(WIFEXITED(rc));
    return WEXITSTATUS(rc);
}

/* A failed report leaves no directory and no temporary one. */
static void a_failed_report_leaves_nothing(void **state)
{
    (void)state;
    struct clmem_compare_device *runs;
    size_t n;
    load_bench(&runs, &n);
    const char *dir = test_in_dir("failed");
    /* Mid-way: a file cannot be written whole: the first device JSON
     * (about 100 kB each); with gnuplot, report.html, the last file written
     * (its pictures inline make it the largest, about 260 kB). */
    static const rlim_t limits[] = {4096, 110000};
    for (size_t i = 0; i < (gnuplot_installed() ? 2 : 1); i++) {
        assert_int_equal(report_with_file_limit(dir, runs, n, limits[i]), CLMEM_ERR_USAGE);
        assert_false(exists(dir));
        assert_int_equal(entries(test_dir(), "failed.tmp."), 0);
    }
    /* A parent that cannot be written (not for root, who may write anyway). */
    if (geteuid() != 0) {
        const char *parent = test_in_dir("readonly");
        char inside[1300];
        snprintf(inside, sizeof inside, "%s/report", parent);
        assert_int_equal(mkdir(parent, 0555), 0);
        struct clmem_error err = {0};
        assert_int_equal(clmem_compare_dir(inside, &err), CLMEM_ERR_USAGE);
        assert_non_null(strstr(err.message, "cannot create report directory"));
        assert_int_equal(report(inside, runs, n), CLMEM_ERR_USAGE);
        assert_int_equal(entries(parent, "report"), 0);
        assert_int_equal(rmdir(parent), 0);
    }
    /* An existing directory where report.md cannot be put: it stays as it
     * was, without any of the new files. */
    assert_int_equal(mkdir(dir, 0755), 0);
    char path[1300];
    snprintf(path, sizeof path, "%s/report.md", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/old.txt", dir);
    test_write_file(path, "old\n");
    assert_int_equal(report(dir, runs, n), CLMEM_ERR_USAGE);
    assert_int_equal(entries(dir, ""), 4); /* ., .., report.md, old.txt */
    char *old = test_read_file(path);
    assert_string_equal(old, "old\n");
    free(old);
    assert_int_equal(entries(test_dir(), "failed.tmp."), 0);
    remove_tree(dir);
    clmem_compare_devices_free(runs, n);
}

/* An existing report directory is updated in place: the report's files
 * replace their namesakes, other files stay. A directory that holds files
 * but no report's manifest is someone else's: refused. */
static void an_existing_directory_is_updated(void **state)
{
    (void)state;
    struct clmem_compare_device *runs;
    size_t n;
    load_bench(&runs, &n);
    const char *dir = test_in_dir("existing");
    struct clmem_error err = {0};
    assert_int_equal(mkdir(dir, 0755), 0);
    char path[1300];
    snprintf(path, sizeof path, "%s/old.txt", dir);
    test_write_file(path, "old\n");
    assert_int_equal(clmem_compare_dir(dir, &err), CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, "is not a clmem report"));
    clmem_error_clear(&err);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(report(dir, runs, n), CLMEM_OK); /* the empty directory made a report's */
    static const char *const names[] = {"old.txt", "report.md"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        test_write_file(path, "old\n");
    }
    assert_int_equal(clmem_compare_dir(dir, &err), CLMEM_OK);
    assert_int_equal(report(dir, runs, n), CLMEM_OK);
    char *md = slurp_in(dir, "report.md"), *old = slurp_in(dir, "old.txt");
    assert_true(strncmp(md, "# clmem comparison", 18) == 0);
    assert_string_equal(old, "old\n");
    snprintf(path, sizeof path, "%s/results.csv", dir);
    assert_true(exists(path));
    assert_int_equal(entries(test_dir(), "existing.tmp."), 0);
    assert_int_equal(entries(dir, ".clmem-report.tmp."), 0);
    free(old);
    free(md);
    remove_tree(dir);
    clmem_compare_devices_free(runs, n);
}

/* clmem_compare_dir checks and creates nothing. */
static void the_directory_check_creates_nothing(void **state)
{
    (void)state;
    struct clmem_error err = {0};
    const char *dir = test_in_dir("checked");
    assert_int_equal(clmem_compare_dir(dir, &err), CLMEM_OK);
    assert_false(exists(dir));
    assert_int_equal(clmem_compare_dir(test_in_dir("no/such/parent"), &err), CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, "cannot create report directory"));
    assert_non_null(strstr(err.message, "No such file or directory"));
    test_write_file(test_in_dir("a-file"), "");
    assert_int_equal(clmem_compare_dir(test_in_dir("a-file"), &err), CLMEM_ERR_USAGE);
    assert_non_null(strstr(err.message, "Not a directory"));
    assert_int_equal(clmem_compare_dir(test_in_dir("a-file/report"), &err), CLMEM_ERR_USAGE);
    assert_int_equal(unlink(test_in_dir("a-file")), 0);
}

/* A small run file's start, of schema 1, up to its results: its device
 * named by a %s and a second %s before "results" (the peak, or ""); its
 * host unnamed, so that labels are the device's name alone. */
#define FILE_HEAD                                                                                  \
    "{\"schema_version\": 1, \"clmem_version\": \"0.2.0\", \"created\": "                          \
    "\"2026-11-26T10:00:00Z\", \"host\": {\"name\": \"\", \"os\": \"\", \"kernel\": \"\", "        \
    "\"cpu\": \"\", \"cores\": 1, \"memory_bytes\": 0}, \"device\": {\"name\": \"%s\", "           \
    "\"platform\": \"p\", \"vendor\": \"v\", \"type\": \"gpu\", \"version\": \"OpenCL 3.0\", "     \
    "\"driver\": \"1\", \"compute_units\": 1, \"clock_mhz\": 1, \"global_mem_bytes\": 1, "         \
    "\"local_mem_bytes\": 1, \"max_work_group\": 1, \"opencl_c_version\": \"OpenCL C 1.2\", "      \
    "\"max_alloc_bytes\": 1, \"base_addr_align_bits\": 8, \"fp64\": false}, %s\"results\": [\n"
/* What every result of those files holds beyond its workload, variant,
 * size, metric and unit: one sample of 1 ms, verified. */
#define RESULT_REST                                                                                \
    "\"device\": \"\", \"params\": \"\", \"status\": \"ok\", \"samples_ms\": [1], "                \
    "\"median_ms\": 1, \"min_ms\": 1, \"max_ms\": 1, \"max_rel_error\": 0, \"verified\": true, "   \
    "\"verify_scope\": \"\", \"reps\": 1, \"warmup\": 0, \"seed\": 42"

/* A result of a small run file made here: no sweep where `sweep` is NULL,
 * no baseline_fraction where `baseline` is NAN. */
struct made {
    const char *workload, *variant, *size, *sweep;
    unsigned sweep_value;
    double metric, baseline;
};

/* Writes a run file of `device` holding these results, verified, in GB/s. */
static const char *made_file(const char *name, const char *device, const struct made *r, size_t n)
{
    const char *path = test_in_dir(name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, FILE_HEAD, device, "");
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s{\"workload\": \"%s\", \"variant\": \"%s\", \"size\": \"%s\", ",
                i ? ",\n" : "", r[i].workload, r[i].variant, r[i].size);
        if (r[i].sweep)
            fprintf(f, "\"sweep\": \"%s\", \"sweep_value\": %u, ", r[i].sweep, r[i].sweep_value);
        if (!isnan(r[i].baseline))
            fprintf(f, "\"baseline_fraction\": %g, ", r[i].baseline);
        fprintf(f, "\"metric\": %g, \"unit\": \"GB/s\", " RESULT_REST "}", r[i].metric);
    }
    fprintf(f, "\n]}\n");
    assert_int_equal(fclose(f), 0);
    return path;
}

/* The pictures follow from what the results carry, whatever the workloads
 * are called: a sweep gets curves against its swept value, a workload
 * measured against a baseline gets bars, a workload at several sizes gets
 * lines against the size (for its best few variants); one with none of
 * these gets no picture. */
static void pictures_follow_from_the_results(void **state)
{
    (void)state;
    // clang-format off
    static const struct made a[] = {
        {"sweeper", "walk", "1000", "step", 1, 10, NAN},
        {"sweeper", "walk", "1000", "step", 2, 20, NAN},
        {"sweeper", "walk", "1000", "step", 4, 40, NAN},
        {"based", "ref", "64", NULL, 0, 5, 1},
        {"based", "fast", "64", NULL, 0, 10, 2},
        {"grows", "a", "10", NULL, 0, 1, NAN}, {"grows", "a", "100", NULL, 0, 2, NAN},
        {"grows", "a", "1000", NULL, 0, 3, NAN},
        {"grows", "b", "10", NULL, 0, 4, NAN}, {"grows", "b", "100", NULL, 0, 5, NAN},
        {"grows", "b", "1000", NULL, 0, 6, NAN},
        {"grows", "c", "10", NULL, 0, 7, NAN}, {"grows", "c", "100", NULL, 0, 8, NAN},
        {"grows", "c", "1000", NULL, 0, 9, NAN},
        {"grows", "d", "10", NULL, 0, 0.1, NAN}, {"grows", "d", "100", NULL, 0, 0.2, NAN},
        {"grows", "d", "1000", NULL, 0, 0.3, NAN},
        {"plain", "only", "5", NULL, 0, 3, NAN},
    };
    static const struct made b[] = {
        {"sweeper", "walk", "1000", "step", 1, 11, NAN},
        {"sweeper", "walk", "1000", "step", 2, 21, NAN},
        {"sweeper", "walk", "1000", "step", 4, 41, NAN},
        {"based", "ref", "64", NULL, 0, 6, 1}, {"based", "fast", "64", NULL, 0, 12, 2},
        {"based", "ref", "128", NULL, 0, 7, 1}, {"based", "fast", "128", NULL, 0, 14, 2},
        {"grows", "a", "10", NULL, 0, 1, NAN}, {"grows", "a", "100", NULL, 0, 2, NAN},
        {"grows", "b", "10", NULL, 0, 4, NAN}, {"grows", "b", "100", NULL, 0, 5, NAN},
        {"grows", "c", "10", NULL, 0, 7, NAN}, {"grows", "c", "100", NULL, 0, 8, NAN},
        {"grows", "d", "10", NULL, 0, 0.1, NAN}, {"grows", "d", "100", NULL, 0, 0.2, NAN},
        {"plain", "only", "5", NULL, 0, 4, NAN},
    };
    // clang-format on
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    assert_int_equal(
        clmem_runfile_load(made_file("a.json", "dev A", a, CLMEM_ARRAY_SIZE(a)), &runs, &n, &err),
        CLMEM_OK);
    assert_int_equal(
        clmem_runfile_load(made_file("b.json", "dev B", b, CLMEM_ARRAY_SIZE(b)), &runs, &n, &err),
        CLMEM_OK);
    const char *dir = test_in_dir("generic");
    assert_int_equal(report(dir, runs, n), CLMEM_OK);
    char *gp = slurp_in(dir, "plots.gp");
    /* Seven pictures: the devices against the baseline, four from the
     * results and a cascade of performance portability for each of the
     * two workloads of several variants (no roofline: no peaks were
     * measured). */
    assert_int_equal(count(gp, "set output"), 7);
    assert_non_null(strstr(gp, "set output 'grows-pp.svg'"));
    assert_null(strstr(gp, "set output 'sweeper-pp.svg'"));

    /* The sweep: its metric against the swept value, a line per entry. */
    assert_non_null(strstr(gp, "set output 'sweeper-step.svg'\nset title 'sweeper: GB/s against "
                               "step'\nset xlabel 'step'\n"));
    assert_non_null(strstr(gp, "'sweeper-walk.dat' index 1 using 1:($2*1e+09) with linespoints "
                               "linetype 2 dashtype 1 notitle"));
    char *walk = slurp_in(dir, "sweeper-walk.dat");
    /* x, y, y at the slowest and the fastest sample (one sample: y), noisy. */
    assert_string_equal(walk, "# \"dev A\"\n1 10 10 10 0\n2 20 20 20 0\n4 40 40 40 0\n\n\n"
                              "# \"dev B\"\n1 11 11 11 0\n2 21 21 21 0\n4 41 41 41 0\n\n\n");

    /* Against a baseline: bars of its variants, at the largest size both
     * entries ran (B ran 128 too). */
    assert_non_null(strstr(gp, "set output 'based.svg'\nset title 'based variants at 64 (GB/s)'"));
    char *bars = slurp_in(dir, "based.dat");
    assert_non_null(strstr(bars, "\n\"ref\" 5 5 5 0 6 6 6 0\n\"fast\" 10 10 10 0 12 12 12 0\n"));
    /* B ran it at two sizes: its lines against size, A has none. */
    assert_non_null(strstr(gp, "set output 'based-size.svg'"));

    /* Several sizes: a line per (entry, variant) for the three variants
     * nearest each entry's best; d is left out and said to be. */
    assert_non_null(strstr(gp, "set output 'grows-size.svg'\nset title 'grows: GB/s against "
                               "size'\nset xlabel 'size'\n"));
    char *sizes = slurp_in(dir, "grows-size.dat");
    assert_int_equal(count(sizes, "\n\n\n"), 6);
    assert_non_null(strstr(sizes, "# \"dev A, a\"\n10 1 1 1 0\n100 2 2 2 0\n1000 3 3 3 0\n\n\n"
                                  "# \"dev B, a\"\n10 1 1 1 0\n100 2 2 2 0\n\n\n"));
    assert_non_null(strstr(sizes, "# \"dev B, c\"\n10 7 7 7 0\n100 8 8 8 0\n"));
    assert_null(strstr(sizes, ", d\""));
    if (gnuplot_installed()) {
        char *md = slurp_in(dir, "report.md");
        char *plots = section(md, "## Plots", "\n## ");
        assert_string_equal(plots, "## Plots\n\n![sweeper-step.svg](sweeper-step.svg)\n\n"
                                   "![based.svg](based.svg)\n\n"
                                   "At the largest size every device ran. The variants' results "
                                   "are measured against ref.\n\n"
                                   "![based-size.svg](based-size.svg)\n\n"
                                   "At one size only (no line): dev A.\n\n"
                                   "![grows-size.svg](grows-size.svg)\n\n"
                                   "Also run at several sizes, in the tables: d.\n\n"
                                   "No roofline (peaks not measured): dev A, dev B.\n");
        free(plots);
        free(md);
    }

    /* One size, no sweep, no baseline: nothing to draw. */
    assert_null(strstr(gp, "plain"));
    assert_int_equal(entries(dir, "plain"), 0);
    free(sizes);
    free(bars);
    free(walk);
    free(gp);
    remove_tree(dir);
    clmem_compare_devices_free(runs, n);
}

/* The line of a data file that starts with `head`, read as numbers. */
static void dat_row(const char *dat, const char *head, double *v, int n)
{
    const char *at = strstr(dat, head);
    if (!at)
        fail_msg("no row '%s' in:\n%s", head, dat);
    at += strlen(head);
    for (int i = 0; i < n; i++) {
        char *end;
        v[i] = strtod(at, &end);
        if (end == at)
            fail_msg("row '%s' has %d numbers, not %d", head, i, n);
        at = end;
    }
}

/* Every drawn result shows its spread, its metric at its slowest and its
 * fastest sample, as an error bar, in the lines and the bars alike; one
 * whose slowest sample is past 1.5x its fastest is marked noisy, the mark
 * named in the key and both said under the picture. */
static void spread_is_drawn_and_noise_marked(void **state)
{
    (void)state;
    // clang-format off
    static const struct made a[] = {
        {"sweeper", "walk", "1000", "step", 1, 10, NAN},
        {"sweeper", "walk", "1000", "step", 2, 20, NAN},
        {"based", "ref", "64", NULL, 0, 5, 1},
        {"based", "fast", "64", NULL, 0, 10, 2},
        {"grows", "a", "10", NULL, 0, 1, NAN}, {"grows", "a", "100", NULL, 0, 2, NAN},
    };
    /* Each result's fastest and slowest sample (its median 1 ms). */
    static const double spread[][2] = {{0.9, 1.2}, {0.5, 2}, {1, 1}, {0.5, 4}, {1, 1}, {0.8, 1}};
    // clang-format on
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    assert_int_equal(
        clmem_runfile_load(made_file("s.json", "dev S", a, CLMEM_ARRAY_SIZE(a)), &runs, &n, &err),
        CLMEM_OK);
    assert_int_equal(runs[0].n_results, CLMEM_ARRAY_SIZE(spread));
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(spread); i++) {
        runs[0].results[i].min_ms = spread[i][0];
        runs[0].results[i].max_ms = spread[i][1];
    }
    const char *dir = test_in_dir("spread");
    assert_int_equal(report(dir, runs, n), CLMEM_OK);
    char *gp = slurp_in(dir, "plots.gp"), *walk = slurp_in(dir, "sweeper-walk.dat");
    char *bars = slurp_in(dir, "based.dat"), *sizes = slurp_in(dir, "grows-size.dat");
    double v[4];
    /* A rate from the median: at the slowest sample median/max of it. */
    dat_row(walk, "\n1 ", v, 4);
    close_to(v[0], 10);
    close_to(v[1], 10 / 1.2);
    close_to(v[2], 10 / 0.9);
    assert_true(v[3] == 0);
    dat_row(walk, "\n2 ", v, 4);
    close_to(v[0], 20);
    close_to(v[1], 10);
    close_to(v[2], 40);
    assert_true(v[3] == 1);
    dat_row(bars, "\"fast\" ", v, 4);
    close_to(v[0], 10);
    close_to(v[1], 2.5);
    close_to(v[2], 20);
    assert_true(v[3] == 1);
    dat_row(sizes, "\n100 ", v, 4);
    close_to(v[1], 2);
    close_to(v[2], 2.5);
    assert_true(v[3] == 0);
    /* Drawn: the bars from the slowest to the fastest sample, the marks at
     * their tops, one key entry for the marks in each picture that has them. */
    assert_non_null(strstr(gp, "'sweeper-walk.dat' index 0 using 1:($3*1e+09):(0):(($4-$3)*1e+09) "
                               "with vectors heads"));
    assert_non_null(strstr(gp, "'sweeper-walk.dat' index 0 using 1:($5 > 0 ? $4*1e+09 : NaN) with "
                               "points pointtype 3"));
    assert_non_null(strstr(gp, "'' using ($0+0.0000):($3*1e+09):(0):(($4-$3)*1e+09) with vectors "
                               "heads"));
    assert_non_null(strstr(gp, "'' using ($0+0.0000):($5 > 0 ? $4*1e+09 : NaN) with points "
                               "pointtype 3"));
    assert_non_null(strstr(gp, "'grows-size.dat' index 0 using 1:($3*1e+09):(0):(($4-$3)*1e+09)"));
    assert_int_equal(count(gp, "title 'noisy (max/min past 1.5x)'"), 2);
    if (gnuplot_installed()) {
        char *md = slurp_in(dir, "report.md");
        assert_int_equal(count(md, "Error bars: each result at its slowest and its fastest "
                                   "sample; * a noisy one (its slowest sample past 1.5x its "
                                   "fastest)."),
                         2);
        assert_int_equal(count(md, "Error bars: each result at its slowest and its fastest "
                                   "sample."),
                         1);
        free(md);
    }
    free(sizes);
    free(bars);
    free(walk);
    free(gp);
    remove_tree(dir);
    clmem_compare_devices_free(runs, n);
}

/* Names from a file make file names inside the report directory, never a
 * path, and stay text in the gnuplot script. */
static void names_from_files_stay_inside(void **state)
{
    (void)state;
    static const struct made r[] = {
        {"../up", "v'q", "1", "s/t", 1, 1, NAN},
        {"../up", "v'q", "1", "s/t", 2, 2, NAN},
        {"x", "roofline-0", "1", NULL, 0, 1, 1},
    };
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    assert_int_equal(
        clmem_runfile_load(made_file("odd.json", "dev", r, CLMEM_ARRAY_SIZE(r)), &runs, &n, &err),
        CLMEM_OK);
    runs[0].peak.bandwidth = 100;
    runs[0].peak.flops = 1000;
    const char *dir = test_in_dir("odd");
    assert_int_equal(report(dir, runs, n), CLMEM_OK);
    char *gp = slurp_in(dir, "plots.gp");
    assert_non_null(strstr(gp, "set output '___up-s_t.svg'\nset title '../up: GB/s against s/t'"));
    assert_non_null(strstr(gp, "'___up-v_q.dat' index 0 "));
    /* The roofline keeps its name; a workload's bars take another. */
    assert_non_null(strstr(gp, "set output 'x.svg'"));
    assert_non_null(strstr(gp, "set output 'roofline-0.svg'"));
    assert_int_equal(entries(test_dir(), "up"), 0);
    assert_int_equal(entries(dir, "___up-"), gnuplot_installed() ? 2 : 1);
    free(gp);
    remove_tree(dir);
    clmem_compare_devices_free(runs, n);
}

/* The report, whatever its note on pictures says (a run of one size has
 * nothing to plot). */
static int report_any(const char *dir, const struct clmem_compare_device *runs, size_t n)
{
    char note[1300];
    struct clmem_error err = {0};
    return clmem_compare_report(dir, runs, n, note, sizeof note, &err);
}

/* A run file written here from JSON result objects (each without braces). */
static const char *json_file(const char *name, const char *device, const char *peak,
                             const char *const results[], size_t n)
{
    const char *path = test_in_dir(name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, FILE_HEAD, device, peak ? peak : "");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s{%s, " RESULT_REST "}", i ? ",\n" : "", results[i]);
    fprintf(f, "\n]}\n");
    assert_int_equal(fclose(f), 0);
    return path;
}

#define R(w, v, size, metric, unit)                                                                \
    "\"workload\": \"" w "\", \"variant\": \"" v "\", \"size\": \"" size                           \
    "\", \"metric\": " #metric ", \"unit\": \"" unit "\""

/* A plateau too short at an end of its curve is "unresolved": the
 * report's L1, L2 and last-level rows pass over it, never naming it a
 * cache by its place (the H100's first level made unresolved: its L1 row
 * is then the L2's figures, not the L1's). */
static void unresolved_levels_are_no_cache(void **state)
{
    (void)state;
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    assert_int_equal(
        clmem_runfile_load(test_bench_file("hierarchy/h100/hierarchy.json"), &runs, &n, &err),
        CLMEM_OK);
    assert_true(runs[0].hierarchy->n_levels >= 3);
    snprintf(runs[0].hierarchy->levels[0].name, sizeof runs[0].hierarchy->levels[0].name,
             "unresolved");
    const char *dir = test_in_dir("unresolved");
    assert_int_equal(report(dir, runs, n), CLMEM_OK);
    char *md = slurp_in(dir, "report.md");
    char *levels = section(md, "## Memory hierarchy", "\n## ");
    if (strstr(levels, "| L1 | 218 KiB") || !strstr(levels, "| L1 | 26.7 MiB, 145 ns"))
        fail_msg("an unresolved first plateau named L1:\n%s", levels);
    free(levels);
    free(md);
    clmem_compare_devices_free(runs, n);
}

/* The memory hierarchy of bench/hierarchy's run files: every device's
 * staircase in one picture (a block of hierarchy-staircase.dat each, named
 * by its label), the levels as bars, and the table of levels beside the
 * sizes each device reports. */
static void hierarchy_from_the_bench_files(void **state)
{
    (void)state;
    static const char *const files[] = {
        "hierarchy/h100/hierarchy.json", "hierarchy/h200/hierarchy.json",
        "hierarchy/pocl-2core/hierarchy.json", "hierarchy/rusticl-2core/hierarchy.json"};
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(files); i++)
        assert_int_equal(clmem_runfile_load(test_bench_file(files[i]), &runs, &n, &err), CLMEM_OK);
    assert_int_equal(n, 4);
    for (size_t i = 0; i < n; i++) {
        assert_non_null(runs[i].hierarchy);
        assert_true(runs[i].hierarchy->n_latency > 10);
    }
    const char *dir = test_in_dir("levels");
    assert_int_equal(report(dir, runs, n), CLMEM_OK);
    char *md = slurp_in(dir, "report.md"), *gp = slurp_in(dir, "plots.gp");
    char *dat = slurp_in(dir, "hierarchy-staircase.dat");
    char *bars = slurp_in(dir, "hierarchy-levels-latency.dat");
    char *levels = section(md, "## Memory hierarchy", "\n## ");
    /* One picture, a line per device, each in its own linetype. */
    assert_int_equal(count(gp, "set output 'hierarchy-staircase.svg'"), 1);
    assert_int_equal(count(gp, "'hierarchy-staircase.dat' index "), 2 * n);
    for (size_t d = 0; d < n; d++) {
        char lt[64];
        snprintf(lt, sizeof lt, "using 1:2 with linespoints linetype %zu ", d + 1);
        assert_non_null(strstr(gp, lt));
    }
    assert_non_null(strstr(gp, "set output 'hierarchy-levels-latency.svg'"));
    assert_non_null(strstr(gp, "set output 'hierarchy-levels-bandwidth.svg'"));
    static const char *const names[] = {"NVIDIA H100 80GB HBM3", "NVIDIA H200",
                                        "pthread-skylake-avx512-AMD EPYC", "llvmpipe"};
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(names); i++) {
        char block[128];
        snprintf(block, sizeof block, "# \"%s", names[i]);
        if (!strstr(dat, block))
            fail_msg("no staircase of '%s' in hierarchy-staircase.dat", names[i]);
        if (!strstr(levels, names[i]))
            fail_msg("no column of '%s' in the hierarchy section", names[i]);
    }
    /* A cluster per level, a bar per device. */
    assert_non_null(strstr(bars, "\"L1\" "));
    assert_non_null(strstr(bars, "\"device memory\" "));
    /* The levels found beside the sizes reported: the H100's L2 is its
     * last level (26.7 MiB found, 4.12 MiB of L1s reported). */
    assert_non_null(strstr(levels, "| L1 | 218 KiB, 21.8 ns (43 cycles); 18.0 TB/s |"));
    assert_non_null(strstr(levels, "| last-level cache | L2: 26.7 MiB, 145 ns (287 cycles)"));
    assert_non_null(strstr(levels, "| largest cache reported | 4.12 MiB "
                                   "(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE) |"));
    if (gnuplot_installed()) {
        assert_non_null(strstr(levels, "![hierarchy-staircase.svg](hierarchy-staircase.svg)"));
        assert_non_null(strstr(levels, "![hierarchy-levels-latency.svg]"));
        char path[1400];
        snprintf(path, sizeof path, "%s/hierarchy-staircase.svg", dir);
        assert_true(exists(path));
    }
    /* The report's run files keep the levels: compared again, the same. */
    struct clmem_compare_device *again = NULL;
    size_t n_again = 0;
    char path[1400];
    snprintf(path, sizeof path, "%s/device-0.json", dir);
    assert_int_equal(clmem_runfile_load(path, &again, &n_again, &err), CLMEM_OK);
    assert_non_null(again[0].hierarchy);
    assert_int_equal(again[0].hierarchy->n_levels, runs[0].hierarchy->n_levels);
    assert_int_equal(again[0].hierarchy->n_latency, runs[0].hierarchy->n_latency);
    assert_string_equal(again[0].hierarchy->levels[1].name, runs[0].hierarchy->levels[1].name);
    clmem_compare_devices_free(again, n_again);
    free(levels);
    free(bars);
    free(dat);
    free(gp);
    free(md);
    remove_tree(dir);
    clmem_compare_devices_free(runs, n);
}

/* Every table's column in one unit, chosen from its largest value (0.88
 * GB/s under 2.55 GB/s, never 880 MB/s); sizes for people (64 Mi). */
static void one_unit_a_column(void **state)
{
    (void)state;
    static const char *const a[] = {R("w", "fast", "67108864", 2.55, "GB/s"),
                                    R("w", "slow", "67108864", 0.88, "GB/s"),
                                    R("w", "slower", "67108864", 0.0123, "GB/s")};
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    assert_int_equal(clmem_runfile_load(json_file("u.json", "dev U", NULL, a, 3), &runs, &n, &err),
                     CLMEM_OK);
    const char *dir = test_in_dir("units");
    assert_int_equal(report_any(dir, runs, n), CLMEM_OK);
    char *md = slurp_in(dir, "report.md");
    assert_non_null(strstr(md, "| fast @ 64 Mi | 2.55 GB/s |"));
    assert_non_null(strstr(md, "| slow @ 64 Mi | 0.88 GB/s |"));
    assert_non_null(strstr(md, "| slower @ 64 Mi | 0.012 GB/s |"));
    assert_null(strstr(md, "MB/s"));
    assert_null(strstr(md, "67108864"));
    free(md);
    remove_tree(dir);
    clmem_compare_devices_free(runs, n);
}

/* The lessons: each a ratio of two variants at the largest size the
 * device ran both, with its seed figure; `clmem run`'s lines the same. */
static void lessons_from_a_made_up_run(void **state)
{
    (void)state;
    static const char *const a[] = {
        R("transpose", "naive", "64", 10, "GB/s"),
        R("transpose", "coalesced", "64", 30, "GB/s"),
        R("transpose", "padded", "64", 60, "GB/s"),
        R("transpose", "naive", "33", 1, "GB/s"),
        R("transpose", "coalesced", "33", 9, "GB/s"),
        R("matmul", "naive", "1024", 5, "GFLOP/s"),
        R("matmul", "tiled", "1024", 20, "GFLOP/s"),
        R("matmul", "coarsened", "1024", 20.5, "GFLOP/s"),
        R("reduce", "interleaved", "64", 10, "GB/s"),
        R("reduce", "sequential", "64", 9, "GB/s"),
        /* The levels the designs use, as clmem hierarchy measures them. */
        R("hierarchy", "local_stride", "32768", 80, "GB/s") ", \"sweep\": \"stride\", "
                                                            "\"sweep_value\": 1",
        R("hierarchy", "local_stride", "32768", 20, "GB/s") ", \"sweep\": \"stride\", "
                                                            "\"sweep_value\": 32",
        R("hierarchy", "local_stride", "32768", 40, "GB/s") ", \"sweep\": \"stride\", "
                                                            "\"sweep_value\": 2",
        R("hierarchy", "global_scattered", "32768", 16, "GB/s"),
    };
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    assert_int_equal(clmem_runfile_load(json_file("l.json", "dev L", NULL, a, CLMEM_ARRAY_SIZE(a)),
                                        &runs, &n, &err),
                     CLMEM_OK);
    const char *dir = test_in_dir("lessons");
    assert_int_equal(report(dir, runs, n), CLMEM_OK);
    char *md = slurp_in(dir, "report.md");
    char *lessons = section(md, "## Lessons", "\n## ");
    assert_non_null(strstr(lessons,
                           "| coalesced writes beat strided ones | CUDA course, day 2, slides "
                           "'Naive Transpose' and 'Coalesced Transpose' | transpose coalesced / "
                           "naive | \u2713 3.00x @64 |"));
    /* Beside the lessons whose design a level measures, that level's ratio
     * on the same device: bank conflicts at the slowest stride (32), and
     * __local against __global. */
    assert_non_null(strstr(lessons, "| padding removes bank conflicts | CUDA course, day 2, slide "
                                    "'Avoiding Bank Conflict' | transpose padded / coalesced | "
                                    "\u2713 2.00x @64; level: __local stride 1 / the slowest "
                                    "stride 4.00x (stride 32) |"));
    assert_non_null(strstr(lessons, "| Kirk &amp; Hwu Fig. 4.16 against Fig. 4.3 | matmul tiled / "
                                    "naive | \u2713 4.00x @1024; level: __local / __global "
                                    "5.00x |"));
    /* No constmem results: the lesson is not run, level or none. */
    assert_non_null(strstr(lessons, "| constmem constant_filter / global_filter | not run |"));
    /* Below 0.95x it costs; within 5% of 1x, no gain either way. */
    assert_non_null(strstr(lessons, "| reduce sequential / interleaved | \u2717 0.90x @64 |"));
    assert_non_null(strstr(lessons, "| matmul coarsened / tiled | \u2248 1.02x @1024 |"));
    assert_non_null(strstr(lessons, "| reduce coarsened / sequential | not run |"));
    assert_int_equal(check_rows(lessons, 1), 13);
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    assert_non_null(mem);
    clmem_lessons_print(mem, CLMEM_FORMAT_TABLE, runs[0].results, runs[0].n_results);
    clmem_lessons_print(mem, CLMEM_FORMAT_CSV, runs[0].results, runs[0].n_results);
    fclose(mem);
    assert_string_equal(buf,
                        "lesson: coalesced writes beat strided ones: coalesced 3.00x naive @64 "
                        "(CUDA course, day 2, slides 'Naive Transpose' and 'Coalesced "
                        "Transpose')\n"
                        "lesson: padding removes bank conflicts: padded 2.00x coalesced @64 (CUDA "
                        "course, day 2, slide 'Avoiding Bank Conflict')\n"
                        "lesson: tiling replaces global reads with local ones: tiled 4.00x naive "
                        "@1024 (Kirk & Hwu Fig. 4.16 against Fig. 4.3)\n"
                        "lesson: sequential addressing cuts divergence: sequential 0.90x "
                        "interleaved @64 (Kirk & Hwu Fig. 5.15 against Fig. 5.13)\n"
                        "lesson: coarsening: more work per work-item (matmul): coarsened 1.02x "
                        "tiled @1024 (Kirk & Hwu Fig. 5.17 against Fig. 4.16)\n");
    free(buf);
    free(lessons);
    free(md);
    remove_tree(dir);
    clmem_compare_devices_free(runs, n);
}

/* The roofline's x range fits its points (not 131072 flops per byte), a
 * point above its roof is marked and said, the peaks are the roofs, and
 * no inf or nan reaches plots.gp; a racy variant is never the best. */
static void roofline_fits_and_racy_is_never_best(void **state)
{
    (void)state;
    static const char *const a[] = {
        R("peak", "copy", "16777216", 1000, "GB/s"),
        R("peak", "fma", "16777216", 10000, "GFLOP/s"),
        R("reduce", "coarsened", "1024", 1200, "GB/s") ", \"flops_per_byte\": 0.25",
        R("mm", "fast", "512", 5000, "GFLOP/s") ", \"flops_per_byte\": 64",
        R("atomics", "racy", "64", 500, "Gupdates/s") ", \"demonstrates_failure\": true",
        R("atomics", "atomic_local", "64", 50, "Gupdates/s"),
    };
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    const char *peak = "\"peak\": {\"bandwidth_gbs\": 1000, \"fp32_gflops\": 10000}, ";
    assert_int_equal(clmem_runfile_load(json_file("r.json", "dev R", peak, a, 6), &runs, &n, &err),
                     CLMEM_OK);
    const char *dir = test_in_dir("fitted");
    assert_int_equal(report(dir, runs, n), CLMEM_OK);
    char *gp = slurp_in(dir, "plots.gp"), *dat = slurp_in(dir, "roofline-0.dat");
    char *md = slurp_in(dir, "report.md");
    /* 0.25 .. 64 and the ridge at 10: x from 0.125 to 256. */
    assert_non_null(strstr(gp, "set xrange [0.125:256]\n"));
    assert_null(strstr(gp, "inf"));
    assert_null(strstr(gp, "nan"));
    assert_null(strstr(dat, "\"peak "));
    double x, y;
    roofline_point(dat, "reduce coarsened 1.20 TB/s (above its roof)", &x, &y);
    close_to(x, 0.25);
    roofline_point(dat, "mm fast 5.00 TFLOP/s", &x, &y);
    close_to(x, 64);
    assert_non_null(strstr(md, "reduce coarsened: 1.20x the copy roof"));
    assert_non_null(strstr(md, "| atomics | 50.0 Gupdates/s atomic_local @64 |"));
    free(md);
    free(dat);
    free(gp);
    remove_tree(dir);
    clmem_compare_devices_free(runs, n);
}

/* A number of plots.gp's picture `svg` after `what` ("set xrange [");
 * a second one after `then` where given. */
static double gp_number(const char *gp, const char *svg, const char *what, const char *then,
                        double *second)
{
    char head[128];
    snprintf(head, sizeof head, "set output '%s'", svg);
    const char *at = strstr(gp, head);
    assert_non_null(at);
    at = strstr(at, what);
    if (!at)
        fail_msg("no '%s' for %s", what, svg);
    char *end;
    double v = strtod(at + strlen(what), &end);
    if (second)
        *second = strtod(strstr(end, then) + strlen(then), NULL);
    return v;
}

/* The roofline's labels, however crowded its points: no two labels' boxes
 * meet and none crosses an axis (each box the label's characters at the
 * widest a character of its font takes, 6.5 px, one 13 px line, in the
 * pixels the picture's fixed margins and log axes give); a label with no
 * room is a number, explained under the picture. Where gnuplot drew it,
 * each label starts where it was placed. */
static void roofline_labels_never_meet(void **state)
{
    (void)state;
    enum { CROWD = 16 };
    char rows[CROWD + 4][200];
    const char *results[CROWD + 4];
    size_t n_rows = 0;
    snprintf(rows[n_rows++], sizeof rows[0], "%s", R("peak", "copy", "16777216", 1000, "GB/s"));
    snprintf(rows[n_rows++], sizeof rows[0], "%s", R("peak", "fma", "16777216", 10000, "GFLOP/s"));
    for (int i = 0; i < CROWD; i++) {
        double fpb = 1 + 0.1 * i, metric = 0.8 * 1000 * fpb;
        snprintf(rows[n_rows++], sizeof rows[0],
                 "\"workload\": \"crowded_%02d\", \"variant\": \"a_long_variant_name\", "
                 "\"size\": \"4096\", \"metric\": %g, \"unit\": \"%s\", \"flops_per_byte\": %g",
                 i, i < 3 ? metric / fpb : metric, i < 3 ? "GB/s" : "GFLOP/s", i < 3 ? 0 : fpb);
    }
    snprintf(rows[n_rows++], sizeof rows[0], "%s, \"flops_per_byte\": 4096",
             R("far", "right_edge", "64", 9000, "GFLOP/s"));
    for (size_t i = 0; i < n_rows; i++)
        results[i] = rows[i];
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    const char *peak = "\"peak\": {\"bandwidth_gbs\": 1000, \"fp32_gflops\": 10000}, ";
    assert_int_equal(clmem_runfile_load(json_file("crowd.json", "dev C", peak, results, n_rows),
                                        &runs, &n, &err),
                     CLMEM_OK);
    const char *dir = test_in_dir("crowd");
    assert_int_equal(report(dir, runs, n), CLMEM_OK);
    char *gp = slurp_in(dir, "plots.gp"), *dat = slurp_in(dir, "roofline-0.dat");
    /* The picture's size: the terminal line before its output. */
    const char *out = strstr(gp, "set output 'roofline-0.svg'"), *term = NULL;
    assert_non_null(out);
    for (const char *t = gp; (t = strstr(t, "set terminal svg size ")) && t < out; t++)
        term = t;
    assert_non_null(term);
    double w, h, x0, x1, y0, y1;
    assert_int_equal(sscanf(term, "set terminal svg size %lf,%lf", &w, &h), 2);
    double left = gp_number(gp, "roofline-0.svg", "set lmargin at screen ", NULL, NULL) * w;
    double right = gp_number(gp, "roofline-0.svg", "set rmargin at screen ", NULL, NULL) * w;
    double top = (1 - gp_number(gp, "roofline-0.svg", "set tmargin at screen ", NULL, NULL)) * h;
    double bottom = (1 - gp_number(gp, "roofline-0.svg", "set bmargin at screen ", NULL, NULL)) * h;
    x0 = gp_number(gp, "roofline-0.svg", "set xrange [", ":", &x1);
    y0 = gp_number(gp, "roofline-0.svg", "set yrange [", ":", &y1);
    struct {
        double l, r, t, b;
        char text[160];
    } box[CROWD + 4];
    size_t n_boxes = 0, numbered = 0, points = 0;
    for (const char *line = dat; line && *line; line = strchr(line, '\n'), line += line != NULL) {
        if (*line == '#' || *line == '\n')
            continue;
        double x, y, lx, ly;
        int over, used;
        char text[160];
        assert_int_equal(sscanf(line, "%lf %lf %lf %lf \"%159[^\"]\" %d%n", &x, &y, &lx, &ly, text,
                                &over, &used) >= 6 ||
                             sscanf(line, "%lf %lf %lf %lf \"\" %d", &x, &y, &lx, &ly, &over) == 5,
                         1);
        points++;
        if (isnan(lx))
            continue;
        double px = left + (right - left) * log2(lx / x0) / log2(x1 / x0);
        double py = bottom - (bottom - top) * log10(ly * 1e9 / y0) / log10(y1 / y0);
        box[n_boxes].l = px;
        box[n_boxes].r = px + 6.5 * (double)strlen(text);
        box[n_boxes].t = py - 6.5;
        box[n_boxes].b = py + 6.5;
        snprintf(box[n_boxes].text, sizeof box[0].text, "%s", text);
        numbered += text[0] == '(';
        /* Boxes that touch (to rounding) do not meet. */
        if (box[n_boxes].l < left - 0.01 || box[n_boxes].r > right + 0.01 ||
            box[n_boxes].t < top - 0.01 || box[n_boxes].b > bottom + 0.01)
            fail_msg("'%s' crosses an axis: %.1f..%.1f x %.1f..%.1f in %.1f..%.1f x %.1f..%.1f",
                     text, box[n_boxes].l, box[n_boxes].r, box[n_boxes].t, box[n_boxes].b, left,
                     right, top, bottom);
        for (size_t j = 0; j < n_boxes; j++)
            if (box[j].l < box[n_boxes].r - 0.01 && box[n_boxes].l < box[j].r - 0.01 &&
                box[j].t < box[n_boxes].b - 0.01 && box[n_boxes].t < box[j].b - 0.01)
                fail_msg("'%s' meets '%s'", text, box[j].text);
        n_boxes++;
    }
    assert_int_equal(points, CROWD + 1);
    assert_true(n_boxes - numbered >= 8); /* most still say what they are */
    if (gnuplot_installed()) {
        char *md = slurp_in(dir, "report.md"), *svg = slurp_in(dir, "roofline-0.svg");
        /* Every label that is not in the picture is under it. */
        for (int i = 0; i < CROWD; i++) {
            char name[64];
            snprintf(name, sizeof name, "crowded_%02d a_long_variant_name", i);
            if (!strstr(dat, name) && !strstr(md, name))
                fail_msg("'%s' is neither on the roofline nor under it", name);
        }
        if (numbered)
            assert_non_null(strstr(md, "Numbered for want of room beside their points: (1) "));
        /* gnuplot starts each label where it was placed (its baseline a
         * little below the middle). */
        for (size_t i = 0; i < n_boxes; i++) {
            char text[200];
            snprintf(text, sizeof text, "<text>%s</text>", box[i].text);
            const char *at = strstr(svg, text), *g = at;
            assert_non_null(at);
            while (g > svg && strncmp(g, "translate(", 10) != 0)
                g--;
            double sx, sy;
            assert_int_equal(sscanf(g, "translate(%lf,%lf)", &sx, &sy), 2);
            if (fabs(sx - box[i].l) > 1 || fabs(sy - (box[i].t + 6.5)) > 5)
                fail_msg("'%s' drawn at %.1f,%.1f, placed at %.1f,%.1f", box[i].text, sx, sy,
                         box[i].l, box[i].t + 6.5);
        }
        free(svg);
        free(md);
    }
    free(dat);
    free(gp);
    remove_tree(dir);
    clmem_compare_devices_free(runs, n);
}

/* A result above its device-memory roof is explained by the level its
 * data fits in, in the same words in the table and under the roofline:
 * the level clmem hierarchy measured, else the cache the device reports. */
static void above_the_roof_the_level_says_why(void **state)
{
    (void)state;
    static const char *const a[] = {
        R("peak", "copy", "16777216", 100, "GB/s"),
        R("peak", "fma", "16777216", 1000, "GFLOP/s"),
        R("reduce", "coarsened", "64", 300, "GB/s") ", \"flops_per_byte\": 0.25",
        R("coalescing", "offset_float", "1048576", 250, "GB/s") ", \"sweep\": \"offset\", "
                                                                "\"sweep_value\": 0",
        R("coalescing", "offset_float", "1048576", 90, "GB/s") ", \"sweep\": \"offset\", "
                                                               "\"sweep_value\": 1",
        R("hierarchy", "chase_global", "1024", 0.5, "Gload/s"),
    };
    const char *peak_and_levels =
        "\"peak\": {\"bandwidth_gbs\": 100, \"fp32_gflops\": 1000}, \"hierarchy\": "
        "{\"extent_bytes\": 8e9, \"largest_cache_bytes\": 0, \"largest_cache_from\": \"none "
        "known\", \"levels\": [{\"name\": \"L1\", \"memory\": false, \"size_bytes\": 65536, "
        "\"first_bytes\": 1024, \"latency_ns\": 2}, {\"name\": \"L2 (last-level cache)\", "
        "\"memory\": false, \"size_bytes\": 4e9, \"first_bytes\": 131072, \"latency_ns\": 20}, "
        "{\"name\": \"device memory\", \"memory\": true, \"first_bytes\": 8e9, \"latency_ns\": "
        "200}], \"latency\": [{\"bytes\": 1024, \"ns\": 2}, {\"bytes\": 1e9, \"ns\": 20}, "
        "{\"bytes\": 8e9, \"ns\": 200}], \"local_latency\": [], \"bandwidth\": [], "
        "\"unmatched_bandwidth\": []}, ";
    const char *peak = "\"peak\": {\"bandwidth_gbs\": 100, \"fp32_gflops\": 1000}, ";
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    assert_int_equal(
        clmem_runfile_load(json_file("a.json", "dev A", peak_and_levels, a, 6), &runs, &n, &err),
        CLMEM_OK);
    assert_int_equal(clmem_runfile_load(json_file("b.json", "dev B", peak, a, 5), &runs, &n, &err),
                     CLMEM_OK);
    assert_int_equal(n, 2);
    assert_non_null(runs[0].hierarchy);
    assert_null(runs[1].hierarchy);
    /* B measured no levels: the cache it reports. */
    runs[1].device.global_mem_cache = 512u << 20;
    const char *dir = test_in_dir("above");
    assert_int_equal(report(dir, runs, n), CLMEM_OK);
    char *md = slurp_in(dir, "report.md");
    /* 250 GB/s for 1 ms: 238 MiB a run, inside A's 3.73 GiB L2. */
    assert_non_null(strstr(md, "250 GB/s; above its roof, 2.50x: its 238 MiB a run fits in L2 "
                               "(3.73 GiB, measured) |"));
    assert_non_null(strstr(md, "250 GB/s; above its roof, 2.50x: its 238 MiB a run fits in the "
                               "device's 512 MiB cache (reported) |"));
    /* The roofline says the same. */
    assert_non_null(strstr(md, "reduce coarsened: 3.00x the copy roof (above its roof, 3.00x: its "
                               "286 MiB a run fits in L2 (3.73 GiB, measured))"));
    /* Within the roof: nothing said. */
    assert_null(strstr(md, "90.0 GB/s; above"));
    free(md);
    remove_tree(dir);
    clmem_compare_devices_free(runs, n);
}

/* A new report directory follows the umask as ordinary outputs do. */
static void the_directory_follows_the_umask(void **state)
{
    (void)state;
    static const char *const a[] = {R("w", "v", "8", 1, "GB/s")};
    struct clmem_compare_device *runs = NULL;
    size_t n = 0;
    struct clmem_error err = {0};
    assert_int_equal(clmem_runfile_load(json_file("m.json", "dev M", NULL, a, 1), &runs, &n, &err),
                     CLMEM_OK);
    /* Each in a child of its own, the test's umask left as it is. */
    static const mode_t masks[] = {022, 027};
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(masks); i++) {
        const char *dir = test_in_dir(i ? "mode-b" : "mode-a");
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            umask(masks[i]);
            _exit(report_any(dir, runs, n) == CLMEM_OK ? 0 : 1);
        }
        int rc;
        assert_int_equal(waitpid(pid, &rc, 0), pid);
        assert_true(WIFEXITED(rc) && WEXITSTATUS(rc) == 0);
        struct stat st;
        char path[1400];
        assert_int_equal(stat(dir, &st), 0);
        assert_int_equal(st.st_mode & 0777, 0777 & ~masks[i]);
        /* The files' (io's output files read the umask once a process:
         * the child has the parent's, under 022). */
        snprintf(path, sizeof path, "%s/report.html", dir);
        assert_int_equal(stat(path, &st), 0);
        if (masks[i] == 022)
            assert_int_equal(st.st_mode & 0777, 0644);
        remove_tree(dir);
    }
    clmem_compare_devices_free(runs, n);
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(test_dir());
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(report_md_from_the_bench_files),
        cmocka_unit_test(labels_tell_apart_runs_of_one_machine),
        cmocka_unit_test(report_html_is_self_contained),
        cmocka_unit_test(every_workload_on_the_roofline),
        cmocka_unit_test(without_gnuplot_the_report_says_so),
        cmocka_unit_test(a_failed_report_leaves_nothing),
        cmocka_unit_test(an_existing_directory_is_updated),
        cmocka_unit_test(the_directory_check_creates_nothing),
        cmocka_unit_test(pictures_follow_from_the_results),
        cmocka_unit_test(spread_is_drawn_and_noise_marked),
        cmocka_unit_test(names_from_files_stay_inside),
        cmocka_unit_test(one_unit_a_column),
        cmocka_unit_test(lessons_from_a_made_up_run),
        cmocka_unit_test(roofline_fits_and_racy_is_never_best),
        cmocka_unit_test(roofline_labels_never_meet),
        cmocka_unit_test(above_the_roof_the_level_says_why),
        cmocka_unit_test(hierarchy_from_the_bench_files),
        cmocka_unit_test(unresolved_levels_are_no_cache),
        cmocka_unit_test(the_directory_follows_the_umask),
    };
    return cmocka_run_group_tests(tests, test_dir_setup, teardown);
}
