/* Report directories (io.h, compare --output-dir): checked before any
 * work, and the manifest that says which of their files a report wrote,
 * so that the next report replaces those and leaves every other file
 * alone. A directory that holds files but no manifest is someone else's:
 * a report is never written into it. A report is written into a temporary
 * directory, which then takes DIR's place in one step (publish). */
#define _GNU_SOURCE /* realpath, O_PATH, renameat2 */
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
        if (n > 1) /* an empty folder: no array */
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

/* ---- publishing a report directory ---- */

/* The process's umask (umask() reads it only by setting it back). */
static mode_t dir_umask(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return mask;
}

int clmem_outdir_temp(const char *dir, char *tmp, size_t size, struct clmem_error *err)
{
    char base[1024];
    struct stat st, tst;
    /* Said, though no caller passes none: GCC's sanitizer build otherwise
     * warns of a null destination below. */
    if (!tmp || size == 0)
        return clmem_fail(err, CLMEM_ERR_USAGE, "no room for a report directory's name");
    trimmed(dir, base, sizeof base);
    int exists = stat(base, &st) == 0;
    snprintf(tmp, size, "%s.tmp.XXXXXX", base);
    if (mkdtemp(tmp)) {
        /* mkdtemp makes it 0700; a new report directory is an ordinary
         * output, readable as the umask allows (an existing one keeps its
         * mode: publish). */
        if (!exists && chmod(tmp, 0777 & ~dir_umask()) != 0) {
            int saved = errno;
            rmdir(tmp);
            return clmem_fail(err, CLMEM_ERR_USAGE, "cannot create report directory '%s': %s", dir,
                              strerror(saved));
        }
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

char (*clmem_outdir_list(const char *path, size_t *n))[256]
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

void clmem_outdir_remove(const char *tmp)
{
    size_t n;
    char(*names)[256] = clmem_outdir_list(tmp, &n);
    char path[1400];
    for (size_t i = 0; names && i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", tmp, names[i]);
        unlink(path);
    }
    free(names);
    rmdir(tmp);
}


/* The finished report into a directory whose parent could not take the
 * temporary one (it is inside DIR): each file moves in, replacing its
 * namesake, once every one is known to be replaceable. */
static int publish_into(const char *tmp, const char *dir, struct clmem_error *err)
{
    size_t n;
    struct stat st;
    char(*names)[256] = clmem_outdir_list(tmp, &n);
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

/* Swaps two directories of one file system in one step where the system
 * can (Linux's renameat2); elsewhere the old one goes aside first (DIR is
 * then missing for a moment, never mixed). 0, or -1 with errno and both
 * as they were. */
static int swap_dirs(const char *tmp, const char *dir)
{
#ifdef RENAME_EXCHANGE
    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_EXCHANGE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
        return -1;
#endif
    /* tmp's files aside, the old directory in tmp's place, then the new
     * one at dir: rename(2) replaces an empty directory. */
    char aside[1200];
    snprintf(aside, sizeof aside, "%s.new", tmp);
    if (rename(tmp, aside) != 0)
        return -1;
    if (rename(dir, tmp) != 0) {
        int saved = errno;
        rename(aside, tmp);
        errno = saved;
        return -1;
    }
    if (rename(aside, dir) != 0) {
        int saved = errno;
        rename(tmp, dir);
        rename(aside, tmp);
        errno = saved;
        return -1;
    }
    return 0;
}

/* The finished report into place in one step. DIR absent: the temporary
 * directory becomes DIR. DIR there: what DIR holds besides the report's
 * files comes along (hard links made beforehand; a subdirectory, or a
 * file that cannot be linked, moved right after), the two directories are
 * swapped, and the old one, now at tmp, is removed. Until the swap DIR is
 * as it was; a failure before it changes nothing there. */
static int publish(const char *tmp, const char *dir, const char *given, struct clmem_error *err)
{
    struct stat st, entry;
    if (lstat(dir, &st) != 0) {
        if (errno == ENOENT && rename(tmp, dir) == 0)
            return CLMEM_OK;
        /* ENOTEMPTY, EEXIST: another process made it meanwhile. */
        if ((errno != ENOTEMPTY && errno != EEXIST) || lstat(dir, &st) != 0)
            return clmem_fail(err, CLMEM_ERR_USAGE, "cannot create report directory '%s': %s",
                              given, strerror(errno));
    }
    if (!S_ISDIR(st.st_mode))
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write into report directory '%s': %s",
                          given, strerror(ENOTDIR));
    size_t n;
    char(*names)[256] = clmem_outdir_list(dir, &n);
    if (!names)
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot read '%s': %s", given, strerror(errno));
    char from[1400], to[1400];
    int status = CLMEM_OK;
    /* later[i]: DIR's entry i moves after the swap. */
    char *later = calloc(n ? n : 1, 1);
    struct clmem_outdir_manifest made = {0};
    if (!later || clmem_outdir_manifest_read(dir, &made) != 0)
        status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    for (size_t i = 0; i < n && !status; i++) {
        snprintf(from, sizeof from, "%s/%s", dir, names[i]);
        snprintf(to, sizeof to, "%s/%s", tmp, names[i]);
        if (lstat(from, &entry) != 0)
            continue; /* gone meanwhile */
        if (lstat(to, &st) == 0) {
            /* A report file's name: replaced, unless a directory is there
             * (the user's; it stays, and so does the old report). */
            if (S_ISDIR(entry.st_mode))
                status = clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s/%s': %s", given,
                                    names[i], strerror(EISDIR));
            continue;
        }
        /* The old report's files that the new one does not have go with it. */
        if (clmem_outdir_manifest_lists(&made, names[i]) && !S_ISDIR(entry.st_mode))
            continue;
        later[i] = S_ISDIR(entry.st_mode) || linkat(AT_FDCWD, from, AT_FDCWD, to, 0) != 0;
    }
    clmem_outdir_manifest_free(&made);
    /* The new directory as the old one was: its mode, and its owner where
     * clmem may give it (as root). */
    if (!status && stat(dir, &st) == 0) {
        chmod(tmp, st.st_mode & 07777);
        if (geteuid() == 0 && (st.st_uid != 0 || st.st_gid != 0) &&
            chown(tmp, st.st_uid, st.st_gid) != 0)
            status = clmem_fail(err, CLMEM_ERR_USAGE, "cannot write into report directory '%s': %s",
                                given, strerror(errno));
    }
    if (!status && swap_dirs(tmp, dir) != 0)
        status = clmem_fail(err, CLMEM_ERR_USAGE, "cannot replace report directory '%s': %s", given,
                            strerror(errno));
    if (status) {
        /* Nothing changed in DIR; tmp holds the new report and links. */
        clmem_outdir_remove(tmp);
        free(later);
        free(names);
        return status;
    }
    /* Swapped: the old directory is at tmp. */
    int stranded = 0;
    for (size_t i = 0; i < n; i++) {
        if (!later[i])
            continue;
        snprintf(from, sizeof from, "%s/%s", tmp, names[i]);
        snprintf(to, sizeof to, "%s/%s", dir, names[i]);
        if (rename(from, to) != 0)
            stranded = 1;
    }
    free(later);
    free(names);
    clmem_outdir_remove(tmp);
    if (stranded && lstat(tmp, &st) == 0)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "report written to '%s', but what else it held stays in '%s'", given,
                          tmp);
    return CLMEM_OK;
}

int clmem_outdir_publish(const char *tmp, const char *dir, const char *given,
                         struct clmem_error *err)
{
    char parent[1100];
    trimmed(dir, parent, sizeof parent);
    size_t len = strlen(parent);
    int inside = strncmp(tmp, parent, len) == 0 && tmp[len] == '/';
    int status = inside ? publish_into(tmp, dir, err) : publish(tmp, dir, given, err);
    if (status && inside)
        clmem_outdir_remove(tmp);
    return status;
}
