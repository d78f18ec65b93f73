/* Report directories (io.h, compare --output-dir): checked before any
 * work, and the manifest that says which of their files a report wrote,
 * so that the next report replaces those and leaves every other file
 * alone. A directory that holds files but no manifest is someone else's:
 * a report is never written into it. */
#define _GNU_SOURCE /* realpath, O_PATH */
#include "io/io.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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

/* The manifest of the directory open as dir_fd, malloc'd and
 * NUL-terminated; NULL when there is none that clmem wrote (missing, not
 * a regular file, larger than 1 MiB, another first line). */
static char *read_manifest_at(int dir_fd)
{
    int fd = openat(dir_fd, CLMEM_OUTDIR_MANIFEST, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    char *text = NULL;
    size_t len;
    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        clmem_read_fd(fd, (size_t)1 << 20, (size_t)st.st_size + 1, &text, &len) != 0) {
        free(text);
        close(fd);
        return NULL;
    }
    close(fd);
    if (strlen(text) != len || strncmp(text, manifest_head, sizeof manifest_head - 1) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* Whether the directory open as fd holds anything at all. */
static int holds_anything(int fd)
{
    int copy = dup(fd);
    DIR *d = copy < 0 ? NULL : fdopendir(copy);
    int found = 0;
    if (!d) {
        if (copy >= 0)
            close(copy);
        return 0;
    }
    for (struct dirent *e; !found && (e = readdir(d));)
        found = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return found;
}

int clmem_outdir_check(const char *dir, struct clmem_error *err)
{
    char path[PATH_MAX], real[PATH_MAX], why[PATH_MAX + 256];
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
    /* Every link on the way checked, the directory's own included. */
    struct clmem_path where;
    int e = clmem_path_walk(path, 0, &where, why, sizeof why);
    if (e < 0)
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write into report directory '%s': %s", dir,
                          why);
    if (e)
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot create report directory '%s': %s", dir,
                          strerror(e));
    int status = CLMEM_OK;
    if (fstatat(where.dir_fd, where.name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        int fd = -1;
        if (!S_ISDIR(st.st_mode))
            status = clmem_fail(err, CLMEM_ERR_USAGE, "cannot write into report directory '%s': %s",
                                dir, strerror(ENOTDIR));
        else if (faccessat(where.dir_fd, where.name, W_OK | X_OK, 0) != 0 ||
                 (fd = openat(where.dir_fd, where.name,
                              O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
            status = clmem_fail(err, CLMEM_ERR_USAGE, "cannot write into report directory '%s': %s",
                                dir, strerror(errno));
        if (fd >= 0) {
            char *manifest = read_manifest_at(fd);
            int foreign = !manifest && holds_anything(fd);
            free(manifest);
            close(fd);
            if (foreign)
                status = clmem_fail(err, CLMEM_ERR_USAGE,
                                    "report directory '%s' holds files and is not a clmem report "
                                    "(no %s in it): name a new or an empty directory",
                                    dir, CLMEM_OUTDIR_MANIFEST);
        }
    } else if ((e = errno) != ENOENT || faccessat(where.dir_fd, ".", W_OK | X_OK, 0) != 0) {
        /* Absent: its parent must be a directory this user can write. */
        status = clmem_fail(err, CLMEM_ERR_USAGE, "cannot create report directory '%s': %s", dir,
                            strerror(e == ENOENT ? errno : e));
    }
    close(where.dir_fd);
    return status;
}

void clmem_outdir_real(const char *dir, char *real, size_t size)
{
    char path[PATH_MAX], why[PATH_MAX + 256];
    struct clmem_path where;
    trimmed(dir, path, sizeof path);
    if (clmem_path_walk(path, 0, &where, why, sizeof why) != 0 ||
        snprintf(real, size, "%s%s%s", where.dir,
                 strcmp(where.dir, "/") == 0 || strcmp(where.name, ".") == 0 ? "" : "/",
                 strcmp(where.name, ".") == 0 ? "" : where.name) >= (int)size)
        snprintf(real, size, "%s", path);
    if (where.dir_fd >= 0)
        close(where.dir_fd);
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

static int by_name_const(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int clmem_outdir_manifest_read(const char *dir, struct clmem_outdir_manifest *m)
{
    memset(m, 0, sizeof *m);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    m->text = read_manifest_at(fd);
    close(fd);
    if (!m->text)
        return 0;
    /* Its lines, cut in place and sorted once: a lookup per file is then
     * a binary search, not a read of the whole manifest. */
    char *line = m->text + sizeof manifest_head - 1;
    size_t cap = 0;
    for (const char *p = line; *p; p++)
        cap += *p == '\n';
    m->names = malloc((cap + 1) * sizeof *m->names);
    if (!m->names) {
        clmem_outdir_manifest_free(m);
        return -1;
    }
    while (*line) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        m->names[m->n++] = line;
        line = end ? end + 1 : line + strlen(line);
    }
    qsort(m->names, m->n, sizeof *m->names, by_name_const);
    return 0;
}

int clmem_outdir_manifest_lists(const struct clmem_outdir_manifest *m, const char *name)
{
    if (strcmp(name, CLMEM_OUTDIR_MANIFEST) == 0)
        return 1;
    return m->n && bsearch(&name, m->names, m->n, sizeof *m->names, by_name_const) != NULL;
}

void clmem_outdir_manifest_free(struct clmem_outdir_manifest *m)
{
    free(m->names);
    free(m->text);
    memset(m, 0, sizeof *m);
}
