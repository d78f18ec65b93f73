/* The vendor comparison report (clmem compare): for several devices'
 * bench results, a side-by-side Markdown table per workload, the data as
 * CSV and JSON, and gnuplot pictures where a person would rather look than
 * read. Every file is written whole or not at all (clmem_output_*). */
#include "clmem/clmem.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- small helpers ---- */

static int open_in(struct clmem_output *out, const char *dir, const char *name,
                   struct clmem_error *err)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return clmem_output_open(out, path, err);
}

/* A result's row label inside its workload: variant, sweep point, size. */
static void row_label(const struct clmem_result *r, char *out, size_t size)
{
    if (r->sweep[0])
        snprintf(out, size, "%s %s=%u @ %s", r->variant, r->sweep, r->sweep_value, r->size);
    else
        snprintf(out, size, "%s @ %s", r->variant, r->size);
}

static const struct clmem_result *find(const struct clmem_compare_device *d, const char *workload,
                                       const char *label)
{
    char here[160];
    for (size_t i = 0; i < d->n_results; i++) {
        const struct clmem_result *r = &d->results[i];
        if (strcmp(r->workload, workload) != 0)
            continue;
        row_label(r, here, sizeof here);
        if (strcmp(here, label) == 0)
            return r;
    }
    return NULL;
}

/* ---- the Markdown report ---- */

static void cell(FILE *f, const struct clmem_result *r)
{
    if (!r)
        fprintf(f, " - |");
    else if (r->skipped)
        fprintf(f, " skipped |");
    else if (!r->verified)
        fprintf(f, " FAILED |");
    else if (!isnan(r->peak_fraction))
        fprintf(f, " %.4g %s (%.2f of peak) |", r->metric, r->metric_unit, r->peak_fraction);
    else
        fprintf(f, " %.4g %s |", r->metric, r->metric_unit);
}

static void markdown_workload(FILE *f, const char *workload,
                              const struct clmem_compare_device *devs, size_t n_devs)
{
    fprintf(f, "\n## %s\n\n| variant @ size |", workload);
    for (size_t d = 0; d < n_devs; d++)
        fprintf(f, " %s |", devs[d].device.name);
    fprintf(f, "\n| --- |");
    for (size_t d = 0; d < n_devs; d++)
        fprintf(f, " --- |");
    fprintf(f, "\n");
    /* Rows in the order they first appear on any device. */
    for (size_t d = 0; d < n_devs; d++) {
        for (size_t i = 0; i < devs[d].n_results; i++) {
            const struct clmem_result *r = &devs[d].results[i];
            char label[160];
            if (strcmp(r->workload, workload) != 0)
                continue;
            row_label(r, label, sizeof label);
            int seen = 0;
            for (size_t e = 0; e < d && !seen; e++)
                seen = find(&devs[e], workload, label) != NULL;
            for (size_t j = 0; j < i && !seen; j++) {
                char other[160];
                if (strcmp(devs[d].results[j].workload, workload) == 0) {
                    row_label(&devs[d].results[j], other, sizeof other);
                    seen = strcmp(other, label) == 0;
                }
            }
            if (seen)
                continue;
            fprintf(f, "| %s |", label);
            for (size_t e = 0; e < n_devs; e++)
                cell(f, find(&devs[e], workload, label));
            fprintf(f, "\n");
        }
    }
}

/* ---- plot data and the gnuplot script ---- */

/* Writes NAME.dat: one block per device (gnuplot's index), two columns. */
static int write_series(const char *dir, const char *name, const struct clmem_compare_device *devs,
                        size_t n_devs, const char *workload, const char *variant, int by_size,
                        size_t *points, struct clmem_error *err)
{
    struct clmem_output out;
    int status = open_in(&out, dir, name, err);
    if (status)
        return status;
    *points = 0;
    for (size_t d = 0; d < n_devs; d++) {
        fprintf(out.file, "# %s\n", devs[d].device.name);
        for (size_t i = 0; i < devs[d].n_results; i++) {
            const struct clmem_result *r = &devs[d].results[i];
            if (strcmp(r->workload, workload) != 0 || strcmp(r->variant, variant) != 0 ||
                r->skipped || !r->verified)
                continue;
            double x = by_size ? strtod(r->size, NULL) : (double)r->sweep_value;
            fprintf(out.file, "%g %g\n", x, r->metric);
            (*points)++;
        }
        fprintf(out.file, "\n\n");
    }
    return clmem_output_commit(&out, err);
}

/* Plots that have data; what was left out, for the report. */
struct plot_set {
    char script[16384];
    size_t len;
    char written[1024], missing[1024];
};

static void add(struct plot_set *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct plot_set *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (p->len < sizeof p->script)
        p->len += (size_t)vsnprintf(p->script + p->len, sizeof p->script - p->len, fmt, ap);
    va_end(ap);
}

static void note(char *list, size_t size, const char *name)
{
    size_t len = strlen(list);
    snprintf(list + len, size - len, "%s%s", len ? ", " : "", name);
}

/* A device name inside a gnuplot '...' string: ' doubled, as gnuplot reads it. */
static const char *quoted(const char *text, char *out, size_t size)
{
    size_t n = 0;
    for (; *text && n + 2 < size; text++) {
        if (*text == '\'')
            out[n++] = '\'';
        out[n++] = *text;
    }
    out[n] = '\0';
    return out;
}

/* One line per device of a series file. */
static void plot_lines(struct plot_set *p, const char *dat, size_t n_devs,
                       const struct clmem_compare_device *devs, const char *style)
{
    char name[300];
    add(p, "plot ");
    for (size_t d = 0; d < n_devs; d++)
        add(p, "%s'%s' index %zu using 1:2 with %s title '%s'", d ? ", " : "", dat, d, style,
            quoted(devs[d].device.name, name, sizeof name));
    add(p, "\n");
}

static int series_plot(struct plot_set *p, const char *dir, const struct clmem_compare_device *devs,
                       size_t n_devs, const char *svg, const char *workload, const char *variant,
                       int by_size, const char *title, const char *xlabel, const char *ylabel,
                       int logx, struct clmem_error *err)
{
    char dat[256];
    size_t points;
    snprintf(dat, sizeof dat, "%s-%s.dat", workload, variant);
    int status = write_series(dir, dat, devs, n_devs, workload, variant, by_size, &points, err);
    if (status)
        return status;
    if (!points) {
        note(p->missing, sizeof p->missing, svg);
        return CLMEM_OK;
    }
    /* Devices differ by orders of magnitude: a log scale keeps every
     * device's curve readable. */
    add(p, "set output '%s'\nset title '%s'\nset xlabel '%s'\nset ylabel '%s (log scale)'\n%s", svg,
        title, xlabel, ylabel, logx ? "set logscale xy 2\n" : "set logscale y 2\n");
    plot_lines(p, dat, n_devs, devs, "linespoints");
    add(p, "unset logscale xy\n");
    note(p->written, sizeof p->written, svg);
    return CLMEM_OK;
}

/* Transpose variants as bars, clustered per device (GB/s at the bench size). */
static int transpose_bars(struct plot_set *p, const char *dir,
                          const struct clmem_compare_device *devs, size_t n_devs,
                          struct clmem_error *err)
{
    static const char *const variants[] = {"copy", "naive", "coalesced", "padded"};
    struct clmem_output out;
    int status = open_in(&out, dir, "transpose.dat", err), any = 0;
    if (status)
        return status;
    fprintf(out.file, "device");
    for (size_t v = 0; v < 4; v++)
        fprintf(out.file, " %s", variants[v]);
    fprintf(out.file, "\n");
    for (size_t d = 0; d < n_devs; d++) {
        fputc('"', out.file);
        for (const char *c = devs[d].device.name; *c; c++)
            fputc(*c == '"' ? '\'' : *c, out.file); /* a " would end gnuplot's string */
        fputc('"', out.file);
        for (size_t v = 0; v < 4; v++) {
            double value = 0;
            for (size_t i = 0; i < devs[d].n_results; i++) {
                const struct clmem_result *r = &devs[d].results[i];
                if (strcmp(r->workload, "transpose") == 0 && strcmp(r->variant, variants[v]) == 0 &&
                    !r->skipped && r->verified)
                    value = r->metric;
            }
            any |= value > 0;
            fprintf(out.file, " %g", value);
        }
        fprintf(out.file, "\n");
    }
    if ((status = clmem_output_commit(&out, err)))
        return status;
    if (!any) {
        note(p->missing, sizeof p->missing, "transpose.svg");
        return CLMEM_OK;
    }
    add(p, "set output 'transpose.svg'\nset title 'transpose variants (GB/s)'\nset xlabel ''\n"
           "set ylabel 'GB/s (log scale)'\nset logscale y 2\nset style data histograms\n"
           "set style histogram clustered\nset style fill solid 0.8\nset key autotitle "
           "columnheader\nplot 'transpose.dat' using 2:xtic(1), '' using 3, '' using 4, '' "
           "using 5\nunset logscale xy\nset style data linespoints\nset key noautotitle\n");
    note(p->written, sizeof p->written, "transpose.svg");
    return CLMEM_OK;
}

/* A roofline per device: its measured bandwidth and FP32 peaks, and the
 * matmul results at their arithmetic intensity (2MNK flops over the
 * 4(MK+KN+MN) bytes each matrix needs at least once). */
static int rooflines(struct plot_set *p, const char *dir, const struct clmem_compare_device *devs,
                     size_t n_devs, struct clmem_error *err)
{
    for (size_t d = 0; d < n_devs; d++) {
        const struct clmem_compare_device *dev = &devs[d];
        if (dev->peak.bandwidth <= 0 || dev->peak.flops <= 0)
            continue;
        char dat[64], svg[64], name[300];
        snprintf(dat, sizeof dat, "roofline-%zu.dat", d);
        snprintf(svg, sizeof svg, "roofline-%zu.svg", d);
        struct clmem_output out;
        int status = open_in(&out, dir, dat, err);
        if (status)
            return status;
        for (size_t i = 0; i < dev->n_results; i++) {
            const struct clmem_result *r = &dev->results[i];
            size_t m = 0, n = 0, k = 0;
            if (strcmp(r->workload, "matmul") != 0 || r->skipped || !r->verified)
                continue;
            int parts = sscanf(r->size, "%zux%zux%zu", &m, &n, &k);
            if (parts == 1)
                n = k = m;
            else if (parts != 3)
                continue;
            double flops = 2.0 * m * n * k, bytes = 4.0 * (m * k + k * n + m * n);
            fprintf(out.file, "%g %g \"%s %s\"\n", flops / bytes, r->metric, r->variant, r->size);
        }
        if ((status = clmem_output_commit(&out, err)))
            return status;
        add(p,
            "set output '%s'\nset title 'roofline: %s'\nset xlabel 'flops per byte'\n"
            "set ylabel 'GFLOP/s'\nset logscale xy 2\nset xrange [0.125:1024]\n"
            "set yrange [%g:%g]\n"
            "plot (x * %g < %g ? x * %g : %g) title 'measured peaks (%.0f GB/s, %.0f GFLOP/s)' "
            "with lines, "
            "'%s' using 1:2 with points pointtype 7 title 'matmul variants'\n"
            "unset logscale xy\nset autoscale xy\n",
            svg, quoted(dev->device.name, name, sizeof name), dev->peak.flops / 1024,
            dev->peak.flops * 2, dev->peak.bandwidth, dev->peak.flops, dev->peak.bandwidth,
            dev->peak.flops, dev->peak.bandwidth, dev->peak.flops, dat);
        note(p->written, sizeof p->written, svg);
    }
    return CLMEM_OK;
}

/* Runs gnuplot on the script in `dir` (no shell: the directory is the
 * user's text); 0 when it ran and succeeded. Its messages go to
 * dir/gnuplot.log. */
static int run_gnuplot(const char *dir)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int log = -1;
        if (chdir(dir) == 0)
            log = open("gnuplot.log", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int null = open("/dev/null", O_WRONLY);
        if (log < 0 || null < 0)
            _exit(127);
        dup2(null, STDOUT_FILENO);
        dup2(log, STDERR_FILENO);
        execlp("gnuplot", "gnuplot", "plots.gp", (char *)NULL);
        _exit(127);
    }
    int rc;
    if (waitpid(pid, &rc, 0) != pid)
        return -1;
    return WIFEXITED(rc) && WEXITSTATUS(rc) == 0 ? 0 : -1;
}

/* Whether gnuplot is on the PATH. */
static int gnuplot_found(void)
{
    const char *path = getenv("PATH");
    char file[1100];
    for (const char *p = path ? path : ""; *p;) {
        const char *end = strchr(p, ':');
        int len = (int)(end ? (size_t)(end - p) : strlen(p));
        snprintf(file, sizeof file, "%.*s/gnuplot", len ? len : 1, len ? p : ".");
        if (access(file, X_OK) == 0)
            return 1;
        p = end ? end + 1 : p + len;
    }
    return 0;
}

int clmem_compare_dir(const char *dir, struct clmem_error *err)
{
    struct stat st;
    if (mkdir(dir, 0755) != 0 && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)))
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot create report directory '%s': %s", dir,
                          strerror(errno));
    if (access(dir, W_OK) != 0)
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write into report directory '%s': %s", dir,
                          strerror(errno));
    return CLMEM_OK;
}

int clmem_compare_report(const char *dir, const struct clmem_compare_device *devs, size_t n_devs,
                         char *plots_note, size_t note_size, struct clmem_error *err)
{
    int status = clmem_compare_dir(dir, err);
    if (status)
        return status;
    /* Machine-readable: every device's report as bench writes it, one CSV. */
    struct clmem_output out;
    for (size_t d = 0; d < n_devs; d++) {
        char name[64];
        snprintf(name, sizeof name, "device-%zu.json", d);
        struct clmem_report_meta meta = {.device = &devs[d].device, .peak = &devs[d].peak};
        if ((status = open_in(&out, dir, name, err)) ||
            (status =
                 clmem_report_json(out.file, devs[d].results, devs[d].n_results, &meta, err)) ||
            (status = clmem_output_commit(&out, err))) {
            clmem_output_abort(&out);
            return status;
        }
    }
    if ((status = open_in(&out, dir, "results.csv", err)))
        return status;
    for (size_t d = 0; d < n_devs; d++) {
        FILE *f = out.file;
        if (d == 0) {
            clmem_report_csv(f, devs[d].results, devs[d].n_results);
            continue;
        }
        /* The header once: later devices' rows only. */
        char *buf = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&buf, &len);
        if (!mem) {
            clmem_output_abort(&out);
            return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
        }
        clmem_report_csv(mem, devs[d].results, devs[d].n_results);
        fclose(mem);
        const char *rows = strchr(buf, '\n');
        fputs(rows ? rows + 1 : "", f);
        free(buf);
    }
    if ((status = clmem_output_commit(&out, err)))
        return status;

    /* Pictures. */
    struct plot_set *p = calloc(1, sizeof *p);
    if (!p)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    add(p, "set terminal svg size 900,560 dynamic\nset grid\nset key below\n");
    if ((status = series_plot(p, dir, devs, n_devs, "coalescing-offset.svg", "coalescing",
                              "offset_float", 0, "bandwidth against offset (float)", "offset",
                              "GB/s", 0, err)) ||
        (status = series_plot(p, dir, devs, n_devs, "coalescing-stride.svg", "coalescing",
                              "stride_float", 0, "bandwidth against stride (float)", "stride",
                              "GB/s", 0, err)) ||
        (status = transpose_bars(p, dir, devs, n_devs, err)) ||
        (status = series_plot(p, dir, devs, n_devs, "matmul-tiled.svg", "matmul", "tiled_bounds", 1,
                              "matmul tiled_bounds (Fig 4.20)", "N", "GFLOP/s", 1, err)) ||
        (status = series_plot(p, dir, devs, n_devs, "matmul-regblock.svg", "matmul", "regblock", 1,
                              "matmul regblock", "N", "GFLOP/s", 1, err)) ||
        (status = rooflines(p, dir, devs, n_devs, err)) ||
        (status = open_in(&out, dir, "plots.gp", err))) {
        free(p);
        return status;
    }
    fputs(p->script, out.file);
    if ((status = clmem_output_commit(&out, err))) {
        free(p);
        return status;
    }
    int plotted = p->written[0] && gnuplot_found() && run_gnuplot(dir) == 0;
    if (!p->written[0])
        snprintf(plots_note, note_size, "no results to plot");
    else if (!gnuplot_found())
        snprintf(plots_note, note_size,
                 "pictures not drawn: gnuplot not found (Debian: apt install gnuplot-nox); "
                 "the data and plots.gp are in '%s'",
                 dir);
    else if (!plotted)
        snprintf(plots_note, note_size, "gnuplot failed: see '%s/gnuplot.log'", dir);
    else
        snprintf(plots_note, note_size, "%s", "");

    /* The report a person reads. */
    if ((status = open_in(&out, dir, "report.md", err))) {
        free(p);
        return status;
    }
    FILE *f = out.file;
    fprintf(f, "# clmem comparison\n\n| device | platform | driver | peak copy | peak FP32 |\n"
               "| --- | --- | --- | --- | --- |\n");
    for (size_t d = 0; d < n_devs; d++)
        fprintf(f, "| %s | %s | %s | %.1f GB/s | %.1f GFLOP/s |\n", devs[d].device.name,
                devs[d].device.platform_name, devs[d].device.driver, devs[d].peak.bandwidth,
                devs[d].peak.flops);
    if (plotted) {
        fprintf(f, "\n");
        const char *s = p->written;
        while (*s) {
            const char *end = strstr(s, ", ");
            size_t len = end ? (size_t)(end - s) : strlen(s);
            fprintf(f, "![%.*s](%.*s)\n", (int)len, s, (int)len, s);
            s += len + (end ? 2 : 0);
        }
    } else {
        fprintf(f, "\nNote: %s.\n", plots_note);
    }
    if (p->missing[0])
        fprintf(f, "\nNot plotted (no results): %s.\n", p->missing);
    free(p);
    /* One table per workload, in the registry's order. */
    size_t n_workloads;
    const struct clmem_workload *const *all = clmem_workloads(&n_workloads);
    for (size_t w = 0; w < n_workloads; w++) {
        int present = 0;
        for (size_t d = 0; d < n_devs && !present; d++)
            for (size_t i = 0; i < devs[d].n_results && !present; i++)
                present = strcmp(devs[d].results[i].workload, all[w]->name) == 0;
        if (present)
            markdown_workload(f, all[w]->name, devs, n_devs);
    }
    return clmem_output_commit(&out, err);
}
