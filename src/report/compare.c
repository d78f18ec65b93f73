/* The vendor comparison report (clmem compare): for several devices' bench
 * results (live or read back from run files), report.md and report.html
 * (compare_doc.c, compare_md.c, html.c), results.csv, a JSON per entry,
 * and gnuplot pictures (plots.c). The directory appears whole or not at
 * all: everything is written into a temporary directory beside it, which
 * then becomes the directory or, when the directory exists, whose files
 * are moved into it. */
#include "report/compare.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the directory ---- */

/* `dir` without trailing slashes ("/" stays). */
static void trimmed(const char *dir, char *out, size_t size)
{
    snprintf(out, size, "%s", dir);
    for (size_t len = strlen(out); len > 1 && out[len - 1] == '/'; len--)
        out[len - 1] = '\0';
}

static void parent_of(const char *dir, char *out, size_t size)
{
    trimmed(dir, out, size);
    char *slash = strrchr(out, '/');
    if (!slash)
        snprintf(out, size, ".");
    else if (slash == out)
        out[1] = '\0';
    else
        *slash = '\0';
}

int clmem_compare_dir(const char *dir, struct clmem_error *err)
{
    char parent[1024];
    struct stat st;
    if (strlen(dir) > 900)
        return clmem_fail(err, CLMEM_ERR_USAGE, "report directory '%.60s...' is too long", dir);
    if (stat(dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write into report directory '%s': %s",
                              dir, strerror(ENOTDIR));
        if (access(dir, W_OK | X_OK) != 0)
            return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write into report directory '%s': %s",
                              dir, strerror(errno));
        return CLMEM_OK;
    }
    int why = dir[0] ? errno : ENOENT;
    if (why == ENOENT) {
        /* Absent: its parent must be a directory this user can write. */
        parent_of(dir, parent, sizeof parent);
        if (stat(parent, &st) != 0)
            why = errno;
        else if (!S_ISDIR(st.st_mode))
            why = ENOTDIR;
        else if (access(parent, W_OK | X_OK) != 0)
            why = errno;
        else
            return CLMEM_OK;
    }
    return clmem_fail(err, CLMEM_ERR_USAGE, "cannot create report directory '%s': %s", dir,
                      strerror(why));
}

/* The temporary directory: DIR.tmp.XXXXXX beside DIR; inside an existing
 * DIR (DIR/.clmem-report.tmp.XXXXXX) when its parent cannot take it or is
 * on another file system (a mount point), where renames could not move
 * the files. */
static int make_temp(const char *dir, char *tmp, size_t size, struct clmem_error *err)
{
    char base[1024];
    struct stat st, tst;
    trimmed(dir, base, sizeof base);
    int exists = stat(base, &st) == 0;
    snprintf(tmp, size, "%s.tmp.XXXXXX", base);
    if (mkdtemp(tmp)) {
        if (!exists || (stat(tmp, &tst) == 0 && tst.st_dev == st.st_dev))
            return CLMEM_OK;
        rmdir(tmp);
    } else if (!exists) {
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot create report directory '%s': %s", dir,
                          strerror(errno));
    }
    snprintf(tmp, size, "%s/.clmem-report.tmp.XXXXXX", base);
    if (!mkdtemp(tmp))
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write into report directory '%s': %s", dir,
                          strerror(errno));
    return CLMEM_OK;
}

/* The names in a directory (not . and ..), in one malloc'd block. */
static char (*list_dir(const char *path, size_t *n))[256]
{
    DIR *d = opendir(path);
    char(*names)[256] = NULL;
    size_t cap = 0;
    *n = 0;
    if (!d)
        return NULL;
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 32;
            char(*more)[256] = realloc(names, cap * sizeof *names);
            if (!more) {
                free(names);
                closedir(d);
                errno = ENOMEM;
                return NULL;
            }
            names = more;
        }
        snprintf(names[(*n)++], sizeof *names, "%s", e->d_name);
    }
    closedir(d);
    if (!names)
        names = malloc(sizeof *names); /* an empty list, not an error */
    return names;
}

/* Removes the temporary directory and the files in it. */
static void remove_temp(const char *tmp)
{
    size_t n;
    char(*names)[256] = list_dir(tmp, &n);
    char path[1400];
    for (size_t i = 0; names && i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", tmp, names[i]);
        unlink(path);
    }
    free(names);
    rmdir(tmp);
}

/* The finished report into place: the temporary directory becomes DIR;
 * where DIR exists, each file moves into it (replacing its namesake), once
 * every one is known to be replaceable. */
static int publish(const char *tmp, const char *dir, struct clmem_error *err)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        if (errno == ENOENT && rename(tmp, dir) == 0)
            return CLMEM_OK;
        /* ENOTEMPTY, EEXIST: another process made it meanwhile. */
        if ((errno != ENOTEMPTY && errno != EEXIST) || stat(dir, &st) != 0)
            return clmem_fail(err, CLMEM_ERR_USAGE, "cannot create report directory '%s': %s", dir,
                              strerror(errno));
    }
    if (!S_ISDIR(st.st_mode))
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write into report directory '%s': %s", dir,
                          strerror(ENOTDIR));
    size_t n;
    char(*names)[256] = list_dir(tmp, &n);
    if (!names)
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot read '%s': %s", tmp, strerror(errno));
    char from[1400], to[1400];
    int status = CLMEM_OK;
    /* A directory where a file goes would stop the moves halfway. */
    for (size_t i = 0; i < n && !status; i++) {
        snprintf(to, sizeof to, "%s/%s", dir, names[i]);
        if (lstat(to, &st) == 0 && S_ISDIR(st.st_mode))
            status =
                clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", to, strerror(EISDIR));
    }
    for (size_t i = 0; i < n && !status; i++) {
        snprintf(from, sizeof from, "%s/%s", tmp, names[i]);
        snprintf(to, sizeof to, "%s/%s", dir, names[i]);
        if (rename(from, to) != 0)
            status = clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", to, strerror(errno));
    }
    free(names);
    if (!status)
        rmdir(tmp);
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
                                         .created = devs[d].created};
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

int clmem_compare_report(const char *dir, const struct clmem_compare_device *devs, size_t n_devs,
                         char *plots_note, size_t note_size, struct clmem_error *err)
{
    char tmp[1100];
    struct compare_plots plots = {0};
    int status = clmem_compare_dir(dir, err);
    if (status || (status = make_temp(dir, tmp, sizeof tmp, err)))
        return status;
    compare_label *labels = calloc(n_devs ? n_devs : 1, sizeof *labels);
    if (!labels) {
        status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
        goto cleanup;
    }
    compare_labels(devs, n_devs, labels);
    if ((status = machine_files(tmp, devs, n_devs, err)) ||
        (status = compare_plots_write(tmp, devs, n_devs, labels, &plots, err)))
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
                                .labels = labels,
                                .plots = &plots,
                                .plotted = plotted,
                                .plots_note = plots_note};
    if ((status = person_files(tmp, &view, err)))
        goto cleanup;
    status = publish(tmp, dir, err);

cleanup:
    if (status)
        remove_temp(tmp);
    compare_plots_free(&plots);
    free(labels);
    return status;
}
