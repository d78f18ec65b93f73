/* Report directories (io.h, compare --output-dir): checked before any
 * work, and the manifest that says which of their files a report wrote,
 * so that the next report replaces those and leaves every other file
 * alone. A directory that holds files but no manifest is someone else's:
 * a report is never written into it. */
#define _GNU_SOURCE /* realpath */
#include "io/io.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The manifest's first line: what makes a directory one of clmem's reports. */
static const char manifest_head[] =
    "# clmem report: the files clmem compare wrote here; the next report replaces them\n";

/* `dir` without trailing slashes ("/" stays). */
static void trimmed(const char *dir, char *out, size_t size)
{
    snprintf(out, size, "%s", dir);
    for (size_t len = strlen(out); len > 1 && out[len - 1] == '/'; len--)
        out[len - 1] = '\0';
}

static void parent_of(const char *path, char *out, size_t size)
{
    trimmed(path, out, size);
    char *slash = strrchr(out, '/');
    if (!slash)
        snprintf(out, size, ".");
    else if (slash == out)
        out[1] = '\0';
    else
        *slash = '\0';
}

/* The manifest of `dir`, malloc'd and NUL-terminated; NULL when there is
 * none that clmem wrote (missing, not a regular file, another first line). */
static char *read_manifest(const char *dir)
{
    char path[PATH_MAX];
    struct stat st;
    if (snprintf(path, sizeof path, "%s/%s", dir, CLMEM_OUTDIR_MANIFEST) >= (int)sizeof path ||
        lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (1 << 20))
        return NULL;
    FILE *f = fopen(path, "re");
    if (!f)
        return NULL;
    char *text = malloc((size_t)st.st_size + 1);
    size_t len = text ? fread(text, 1, (size_t)st.st_size, f) : 0;
    fclose(f);
    if (!text)
        return NULL;
    text[len] = '\0';
    if (strncmp(text, manifest_head, sizeof manifest_head - 1) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* Whether `dir` holds anything at all. */
static int holds_anything(const char *dir)
{
    DIR *d = opendir(dir);
    int found = 0;
    if (!d)
        return 0;
    for (struct dirent *e; !found && (e = readdir(d));)
        found = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return found;
}

/* The symbolic links `path` itself goes through (not its directories',
 * which the kernel follows): refused where one is another user's in a
 * sticky world-writable directory. */
static int links_followed(const char *path, char *why, size_t why_size)
{
    char cur[PATH_MAX], link[PATH_MAX], dir[PATH_MAX];
    struct stat st;
    trimmed(path, cur, sizeof cur);
    for (int hops = 0; hops < 40 && lstat(cur, &st) == 0 && S_ISLNK(st.st_mode); hops++) {
        parent_of(cur, dir, sizeof dir);
        if (clmem_link_planted(cur, &st, dir, why, why_size))
            return -1;
        ssize_t len = readlink(cur, link, sizeof link - 1);
        if (len < 0)
            return 0;
        link[len] = '\0';
        if (link[0] == '/')
            trimmed(link, cur, sizeof cur);
        else if (snprintf(cur, sizeof cur, "%s/%s", dir, link) >= (int)sizeof cur)
            return 0;
        for (size_t len = strlen(cur); len > 1 && cur[len - 1] == '/'; len--)
            cur[len - 1] = '\0';
    }
    return 0;
}

int clmem_outdir_check(const char *dir, struct clmem_error *err)
{
    char path[PATH_MAX], parent[PATH_MAX], real[PATH_MAX], why[PATH_MAX + 256];
    struct stat st;
    if (strlen(dir) > 900)
        return clmem_fail(err, CLMEM_ERR_USAGE, "report directory '%.60s...' is too long", dir);
    trimmed(dir, path, sizeof path);
    /* A report replaces its directory: never the current one, its parent
     * or the root (nor "", which names nothing). */
    const char *last = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (!path[0] || strcmp(last, ".") == 0 || strcmp(last, "..") == 0 ||
        (realpath(path, real) && strcmp(real, "/") == 0))
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "report directory '%s' is not one a report may replace (name a new or "
                          "an empty directory, or an earlier report's)",
                          dir);
    if (links_followed(path, why, sizeof why) != 0)
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write into report directory '%s': %s", dir,
                          why);
    if (stat(path, &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write into report directory '%s': %s",
                              dir, strerror(ENOTDIR));
        if (access(path, W_OK | X_OK) != 0)
            return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write into report directory '%s': %s",
                              dir, strerror(errno));
        char *manifest = read_manifest(path);
        int foreign = !manifest && holds_anything(path);
        free(manifest);
        if (foreign)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "report directory '%s' holds files and is not a clmem report (no "
                              "%s in it): name a new or an empty directory",
                              dir, CLMEM_OUTDIR_MANIFEST);
        return CLMEM_OK;
    }
    int e = errno;
    if (e == ENOENT) {
        /* Absent: its parent must be a directory this user can write. */
        parent_of(path, parent, sizeof parent);
        if (stat(parent, &st) != 0)
            e = errno;
        else if (!S_ISDIR(st.st_mode))
            e = ENOTDIR;
        else if (access(parent, W_OK | X_OK) != 0)
            e = errno;
        else
            return CLMEM_OK;
    }
    return clmem_fail(err, CLMEM_ERR_USAGE, "cannot create report directory '%s': %s", dir,
                      strerror(e));
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int clmem_outdir_manifest_write(const char *dir, struct clmem_error *err)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", dir, CLMEM_OUTDIR_MANIFEST) >= (int)sizeof path)
        return clmem_fail(err, CLMEM_ERR_USAGE, "report directory '%s' is too long", dir);
    DIR *d = opendir(dir);
    if (!d)
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot read '%s': %s", dir, strerror(errno));
    char **names = NULL;
    size_t n = 0, cap = 0;
    int status = CLMEM_OK;
    for (struct dirent *e; !status && (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            strcmp(e->d_name, CLMEM_OUTDIR_MANIFEST) == 0 || strchr(e->d_name, '\n'))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 32;
            char **more = realloc(names, cap * sizeof *names);
            if (!more) {
                status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
                break;
            }
            names = more;
        }
        if (!(names[n] = strdup(e->d_name)))
            status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
        else
            n++;
    }
    closedir(d);
    struct clmem_output out;
    if (!status && !(status = clmem_output_open(&out, path, err))) {
        qsort(names, n, sizeof *names, by_name);
        fputs(manifest_head, out.file);
        for (size_t i = 0; i < n; i++)
            fprintf(out.file, "%s\n", names[i]);
        status = clmem_output_commit(&out, err);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return status;
}

int clmem_outdir_made(const char *dir, const char *name)
{
    if (strcmp(name, CLMEM_OUTDIR_MANIFEST) == 0)
        return 1;
    char *text = read_manifest(dir);
    int found = 0;
    size_t len = strlen(name);
    for (const char *line = text ? text + sizeof manifest_head - 1 : NULL;
         line && *line && !found;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        found = n == len && strncmp(line, name, len) == 0;
        line = end ? end + 1 : NULL;
    }
    free(text);
    return found;
}
