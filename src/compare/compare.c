/* The vendor comparison report (clmem compare): for several devices' bench
 * results (live or read back from run files), report.md and report.html
 * (compare_doc.c, compare_md.c, html.c), results.csv, a JSON per entry,
 * and gnuplot pictures (plots.c). The directory is replaced in one step:
 * everything is written into a temporary directory beside it, which then
 * takes its place (io's clmem_outdir_publish). */
#define _GNU_SOURCE /* open_memstream's declaration under -std=c11 */
#include "compare/compare.h"

#include "compare/model.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* ---- the directory ---- */

int clmem_compare_dir(const char *dir, struct clmem_error *err)
{
    return clmem_outdir_check(dir, err);
}

/* The names a report writes into its directory: an input of that name
 * there would be replaced. */
static int report_name(const char *name)
{
    static const char *const fixed[] = {"report.md", "report.html", "results.csv", "plots.gp",
                                        "gnuplot.log"};
    size_t len = strlen(name);
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(fixed); i++)
        if (strcmp(name, fixed[i]) == 0)
            return 1;
    if (len > 4 && (strcmp(name + len - 4, ".dat") == 0 || strcmp(name + len - 4, ".svg") == 0))
        return 1;
    return strncmp(name, "device-", 7) == 0 && len > 12 && strcmp(name + len - 5, ".json") == 0;
}

int clmem_compare_inputs_check(const char *dir, const char *const files[], size_t n,
                               struct clmem_error *err)
{
    size_t count;
    char(*names)[256] = n ? clmem_outdir_list(dir, &count) : NULL;
    char path[1400];
    int status = CLMEM_OK;
    for (size_t i = 0; names && i < count && !status; i++) {
        if (!report_name(names[i]))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        /* The entry itself: a symbolic link there is replaced, not its target. */
        int f = clmem_file_among(path, 0, files, n);
        if (f >= 0)
            status = clmem_fail(err, CLMEM_ERR_USAGE,
                                "run file '%s' is '%s', which the report replaces (choose another "
                                "--output-dir)",
                                files[f], path);
    }
    free(names);
    return status;
}

/* ---- the files ---- */

static int open_in(struct clmem_output *out, const char *dir, const char *name,
                   struct clmem_error *err)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return clmem_output_open(out, path, err);
}

/* Machine-readable: every entry's report as bench writes it, one CSV. */
static int machine_files(const char *dir, const struct clmem_compare_device *devs, size_t n_devs,
                         struct clmem_error *err)
{
    struct clmem_output out;
    int status;
    for (size_t d = 0; d < n_devs; d++) {
        char name[64];
        snprintf(name, sizeof name, "device-%zu.json", d);
        /* A saved run keeps its own host and time. */
        struct clmem_report_meta meta = {.device = &devs[d].device,
                                         .peak = &devs[d].peak,
                                         .host = devs[d].host[0] ? &devs[d].host_info : NULL,
                                         .created = devs[d].created,
                                         .interrupted = devs[d].interrupted,
                                         .hierarchy = devs[d].hierarchy};
        if ((status = open_in(&out, dir, name, err)))
            return status;
        if ((status =
                 clmem_report_json(out.file, devs[d].results, devs[d].n_results, &meta, err)) ||
            (status = clmem_output_commit(&out, err))) {
            clmem_output_abort(&out);
            return status;
        }
    }
    if ((status = open_in(&out, dir, "results.csv", err)))
        return status;
    for (size_t d = 0; d < n_devs; d++) {
        if (d == 0) {
            clmem_report_csv(out.file, devs[d].results, devs[d].n_results);
            continue;
        }
        /* The header once: later entries' rows only. */
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
        fputs(rows ? rows + 1 : "", out.file);
        free(buf);
    }
    return clmem_output_commit(&out, err);
}

/* report.md and report.html, from one document. */
static int person_files(const char *tmp, const struct compare_view *view, struct clmem_error *err)
{
    struct doc doc = {0};
    struct clmem_output out;
    compare_doc_build(&doc, view);
    int status = doc.failed ? clmem_fail(err, CLMEM_ERR_CL, "out of host memory") : CLMEM_OK;
    if (!status && !(status = open_in(&out, tmp, "report.md", err))) {
        compare_md_write(out.file, &doc);
        status = clmem_output_commit(&out, err);
    }
    if (!status && !(status = open_in(&out, tmp, "report.html", err))) {
        compare_html_write(out.file, &doc, tmp);
        status = clmem_output_commit(&out, err);
    }
    doc_free(&doc);
    return status;
}

/* The stop signals, held while the report is published: a stop at once
 * then comes once DIR is the old report or the new one, never between. */
static void hold_stops(sigset_t *old)
{
    sigset_t held;
    clmem_stop_set(&held);
    pthread_sigmask(SIG_BLOCK, &held, old);
}

/* ---- the baseline and the order of the entries ---- */

static int contains_nocase(const char *text, const char *part)
{
    size_t n = strlen(part);
    if (!n)
        return 0;
    for (; *text; text++)
        if (strncasecmp(text, part, n) == 0)
            return 1;
    return 0;
}

/* Whether `spec` names the entry as a device: its type (gpu, cpu,
 * accelerator) or part of its name, platform, vendor, version or host. */
static int names_device(const char *spec, const struct clmem_compare_device *dev)
{
    static const struct {
        const char *name;
        cl_device_type type;
    } types[] = {{"gpu", CL_DEVICE_TYPE_GPU},
                 {"cpu", CL_DEVICE_TYPE_CPU},
                 {"accelerator", CL_DEVICE_TYPE_ACCELERATOR}};
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(types); i++)
        if (strcasecmp(spec, types[i].name) == 0)
            return (dev->device.type & types[i].type) != 0;
    return contains_nocase(dev->device.name, spec) ||
           contains_nocase(dev->device.platform_name, spec) ||
           contains_nocase(dev->device.vendor, spec) ||
           contains_nocase(dev->device.version, spec) || contains_nocase(dev->host, spec);
}

static const char *file_part(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Whether `path` and the entry's run file are one file (a path given
 * another way: "./a.json", "/abs/a.json", through a link). */
static int same_file(const struct stat *spec, const struct clmem_compare_device *dev)
{
    struct stat st;
    return dev->origin[0] && stat(dev->origin, &st) == 0 && st.st_dev == spec->st_dev &&
           st.st_ino == spec->st_ino;
}

/* The entries one way of matching picks: none, the one (*index), or
 * several, refused with every candidate named. */
enum match_way { BY_PATH, BY_FILE_NAME, BY_LIVE_DEVICE, BY_SAVED_DEVICE, BY_FILE_PART };

static int matches(enum match_way way, const char *spec, const struct stat *spec_file,
                   const struct clmem_compare_device *dev)
{
    switch (way) {
    case BY_PATH: return spec_file && same_file(spec_file, dev);
    case BY_FILE_NAME: return dev->origin[0] && strcmp(file_part(dev->origin), spec) == 0;
    case BY_LIVE_DEVICE: return !dev->origin[0] && names_device(spec, dev);
    case BY_SAVED_DEVICE: return dev->origin[0] && names_device(spec, dev);
    case BY_FILE_PART: return dev->origin[0] && contains_nocase(file_part(dev->origin), spec);
    }
    return 0;
}

static int pick(enum match_way way, const char *spec, const struct stat *spec_file,
                const struct clmem_compare_device *devs, size_t n, size_t *index,
                struct clmem_error *err)
{
    size_t found = 0;
    for (size_t i = 0; i < n; i++)
        if (matches(way, spec, spec_file, &devs[i]) && found++ == 0)
            *index = i;
    if (found <= 1)
        return found ? CLMEM_OK : -1;
    char list[1024] = "";
    size_t len = 0;
    for (size_t i = 0; i < n && len < sizeof list; i++)
        if (matches(way, spec, spec_file, &devs[i]))
            len += (size_t)snprintf(list + len, sizeof list - len, "%s'%s'", len ? ", " : "",
                                    devs[i].origin[0] ? devs[i].origin : devs[i].device.name);
    return clmem_fail(err, CLMEM_ERR_USAGE,
                      "--baseline '%s' is ambiguous: it names %zu entries (%s); give a path or "
                      "more of a name",
                      spec, found, list);
}

int clmem_compare_baseline(const char *spec, const struct clmem_compare_device *devs, size_t n,
                           size_t *index, struct clmem_error *err)
{
    *index = 0;
    if (!n)
        return CLMEM_OK;
    if (!spec) {
        /* The first live device, else the first file. */
        for (size_t i = 0; i < n; i++)
            if (!devs[i].origin[0]) {
                *index = i;
                return CLMEM_OK;
            }
        return CLMEM_OK;
    }
    if (!spec[0])
        return clmem_fail(err, CLMEM_ERR_USAGE, "--baseline needs a run file or a device");
    /* A path first, as given (relative or absolute: the same file however
     * named), then a run file's name, a live device, a saved one (by what
     * --device matches), part of a file's name: the first way that
     * matches decides, and it must match one entry. */
    struct stat spec_file;
    int is_file = stat(spec, &spec_file) == 0 && S_ISREG(spec_file.st_mode);
    static const enum match_way ways[] = {BY_PATH, BY_FILE_NAME, BY_LIVE_DEVICE, BY_SAVED_DEVICE,
                                          BY_FILE_PART};
    for (size_t w = 0; w < CLMEM_ARRAY_SIZE(ways); w++) {
        int status = pick(ways[w], spec, is_file ? &spec_file : NULL, devs, n, index, err);
        if (status >= 0)
            return status;
    }
    return clmem_fail(err, CLMEM_ERR_USAGE,
                      "--baseline '%s' names no run file or device of the comparison", spec);
}

/* The entries as the report shows them: the baseline first, then the
 * live devices, then the saved runs, each in the order given. */
static void report_order(const struct clmem_compare_device *devs, size_t n, size_t baseline,
                         struct clmem_compare_device *out, size_t *n_live)
{
    size_t k = 0;
    out[k++] = devs[baseline];
    *n_live = !devs[baseline].origin[0];
    for (int live = 1; live >= 0; live--)
        for (size_t i = 0; i < n; i++)
            if (i != baseline && (devs[i].origin[0] == '\0') == live) {
                out[k++] = devs[i];
                *n_live += live;
            }
}

int clmem_compare_report(const char *dir, const struct clmem_compare_device *devs, size_t n_devs,
                         char *plots_note, size_t note_size, struct clmem_error *err)
{
    CLMEM_REFUSE_NULL(err, err);
    CLMEM_REFUSE_IF(!devs && n_devs, err, "%s: 'devs' is NULL, n_devs %zu", __func__, n_devs);
    size_t baseline;
    clmem_compare_baseline(NULL, devs, n_devs, &baseline, err);
    return clmem_compare_report_at(dir, devs, n_devs, baseline, plots_note, note_size, err);
}

int clmem_compare_report_at(const char *dir, const struct clmem_compare_device *given,
                            size_t n_devs, size_t baseline, char *plots_note, size_t note_size,
                            struct clmem_error *err)
{
    CLMEM_REFUSE_NULL(err, err);
    CLMEM_REFUSE_NULL(dir, err);
    CLMEM_REFUSE_IF(!given && n_devs, err, "%s: 'devs' is NULL, n_devs %zu", __func__, n_devs);
    CLMEM_REFUSE_IF(!plots_note && note_size, err, "%s: 'plots_note' is NULL, note_size %zu",
                    __func__, note_size);
    char tmp[1100], real[1024];
    struct compare_plots plots = {0};
    struct pp_table pp = {0};
    int status = clmem_compare_dir(dir, err);
    if (status)
        return status;
    if (n_devs && baseline >= n_devs)
        return clmem_fail(err, CLMEM_ERR_USAGE, "baseline %zu of %zu entries", baseline, n_devs);
    clmem_outdir_real(dir, real, sizeof real);
    if ((status = clmem_outdir_temp(real, tmp, sizeof tmp, err)))
        return status;
    /* A stop at once removes it, with what is in it. */
    int slot = clmem_output_pending_dir(tmp);
    compare_label *labels = calloc(n_devs ? n_devs : 1, sizeof *labels);
    struct clmem_compare_device *devs = calloc(n_devs ? n_devs : 1, sizeof *devs);
    size_t n_live = 0;
    if (!labels || !devs) {
        status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
        goto cleanup;
    }
    if (n_devs)
        report_order(given, n_devs, baseline, devs, &n_live);
    compare_labels(devs, n_devs, labels);
    if (compare_pp_build(&pp, devs, n_devs) != 0) {
        status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
        goto cleanup;
    }
    if ((status = machine_files(tmp, devs, n_devs, err)) ||
        (status = compare_plots_write(tmp, devs, n_devs, labels, 0, &pp, &plots, err)))
        goto cleanup;

    int found = compare_gnuplot_found();
    int plotted = plots.n && found && compare_gnuplot_run(tmp) == 0;
    if (!plots.n)
        snprintf(plots_note, note_size, "no results to plot");
    else if (!found)
        snprintf(plots_note, note_size,
                 "pictures not drawn: gnuplot not found (Debian: apt install gnuplot-nox); "
                 "the data and plots.gp are in '%s'",
                 dir);
    else if (!plotted)
        snprintf(plots_note, note_size, "gnuplot failed: see '%s/gnuplot.log'", dir);
    else
        snprintf(plots_note, note_size, "%s", "");

    struct compare_view view = {.devs = devs,
                                .n_devs = n_devs,
                                .baseline = 0,
                                .n_live = n_live,
                                .pp = &pp,
                                .labels = labels,
                                .plots = &plots,
                                .plotted = plotted,
                                .plots_note = plots_note};
    if ((status = person_files(tmp, &view, err)) ||
        (status = clmem_outdir_manifest_write(tmp, err)))
        goto cleanup;
    sigset_t old;
    hold_stops(&old);
    clmem_output_pending_release(slot);
    slot = -1;
    status = clmem_outdir_publish(tmp, real, dir, err);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    goto done;

cleanup:
    if (status)
        clmem_outdir_remove(tmp);
    clmem_output_pending_release(slot);
done:
    compare_plots_free(&plots);
    compare_pp_free(&pp);
    free(devs);
    free(labels);
    return status;
}
