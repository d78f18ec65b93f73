/* Where clmem keeps state between runs, and reading it back safely
 * (io.h). A program-cache entry is loaded into the driver and the
 * tuning database chooses kernel parameters: either, written by someone
 * else, would run their code or choices under this user's name, so both
 * are read only from files and directories that this user alone can
 * write, as ssh reads ~/.ssh. */
#include "io/io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int clmem_state_dir(const char *sub, char *dir, size_t size, const char **why)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    const char *sep = sub && sub[0] ? "/" : "";
    struct stat st;
    int n;
    *why = NULL;
    if (xdg && xdg[0] == '/') {
        n = snprintf(dir, size, "%s/clmem%s%s", xdg, sep, sub ? sub : "");
    } else if (!home || !home[0]) {
        *why = "neither XDG_CACHE_HOME nor HOME is set";
        return -1;
    } else if (stat(home, &st) != 0 || !S_ISDIR(st.st_mode)) {
        /* A daemon's HOME=/nonexistent: no cache rather than a new HOME. */
        *why = "HOME is not a directory and XDG_CACHE_HOME is not set";
        return -1;
    } else {
        n = snprintf(dir, size, "%s/.cache/clmem%s%s", home, sep, sub ? sub : "");
    }
    if (n < 0 || (size_t)n >= size) {
        *why = "its path is too long";
        return -1;
    }
    return 0;
}

int clmem_state_mkdir(const char *dir)
{
    char path[1100], why[PATH_MAX + 256];
    if (snprintf(path, sizeof path, "%s/", dir) >= (int)sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    /* Each directory made inside the one before, links checked on the way
     * (another user's in a sticky world-writable directory refused with
     * EACCES, as the kernel refuses it where protected_symlinks is set). */
    struct clmem_path where;
    int e = clmem_path_walk(path, 1, &where, why, sizeof why);
    if (e) {
        errno = e < 0 ? EACCES : e;
        return -1;
    }
    close(where.dir_fd);
    return 0;
}

int clmem_dir_usable(const char *dir, char *why, size_t why_size)
{
    char probe[1100];
    if (clmem_state_mkdir(dir) != 0) {
        /* Said of the deepest part that exists: "'/home/u/f' is not a
         * directory", or why nothing can be made in it. */
        int e = errno;
        struct stat st;
        snprintf(probe, sizeof probe, "%s", dir);
        for (char *slash; (slash = strrchr(probe, '/')) && slash != probe;) {
            *slash = '\0';
            if (stat(probe, &st) != 0)
                continue;
            if (!S_ISDIR(st.st_mode))
                snprintf(why, why_size, "'%s' is not a directory", probe);
            else
                snprintf(why, why_size, "nothing can be made in '%s' (%s)", probe, strerror(e));
            return -1;
        }
        snprintf(why, why_size, "%s", strerror(e));
        return -1;
    }
    if (snprintf(probe, sizeof probe, "%s/.clmem-probe.XXXXXX", dir) >= (int)sizeof probe) {
        snprintf(why, why_size, "%s", strerror(ENAMETOOLONG));
        return -1;
    }
    int fd = mkstemp(probe);
    if (fd < 0) {
        snprintf(why, why_size, "no file can be made in it (%s)", strerror(errno));
        return -1;
    }
    close(fd);
    unlink(probe);
    return 0;
}

const char *clmem_state_kind(unsigned mode)
{
    switch (mode & S_IFMT) {
    case S_IFREG: return "a regular file";
    case S_IFDIR: return "a directory";
    case S_IFIFO: return "a FIFO";
    case S_IFSOCK: return "a socket";
    case S_IFCHR: return "a character device";
    case S_IFBLK: return "a block device";
    case S_IFLNK: return "a symbolic link";
    default: return "not a regular file";
    }
}

/* Whether this user alone can write what `st` describes; why not. */
static int owned_and_private(const struct stat *st, char *why, size_t why_size)
{
    if (st->st_uid != geteuid()) {
        snprintf(why, why_size, "belongs to uid %u, not to you (uid %u)", (unsigned)st->st_uid,
                 (unsigned)geteuid());
        return 0;
    }
    if (st->st_mode & (S_IWGRP | S_IWOTH)) {
        snprintf(why, why_size, "is writable by group or others (mode %04o)",
                 (unsigned)(st->st_mode & 07777));
        return 0;
    }
    return 1;
}

int clmem_state_dir_check(const char *dir, char *why, size_t why_size)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        snprintf(why, why_size, "cannot be read (%s)", strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(why, why_size, "is %s, not a directory", clmem_state_kind(st.st_mode));
        return -1;
    }
    return owned_and_private(&st, why, why_size) ? 0 : -1;
}

enum clmem_state_open clmem_state_open(const char *path, FILE **file, char *why, size_t why_size)
{
    char dir[1024], reason[256];
    const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
    struct stat st;
    *file = NULL;
    why[0] = '\0';
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    /* The directory first, then the file in the very directory checked. */
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return CLMEM_STATE_MISSING;
        snprintf(why, why_size, "is in directory '%s', which cannot be read (%s)", dir,
                 strerror(errno));
        return CLMEM_STATE_BAD_DIR;
    }
    int trusted = fstat(dfd, &st) == 0;
    if (!trusted)
        snprintf(reason, sizeof reason, "cannot be read (%s)", strerror(errno));
    else
        trusted = owned_and_private(&st, reason, sizeof reason);
    if (!trusted) {
        snprintf(why, why_size, "is in directory '%s', which %s", dir, reason);
        close(dfd);
        return CLMEM_STATE_BAD_DIR;
    }
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    int saved = errno;
    close(dfd);
    if (fd < 0) {
        if (saved == ENOENT)
            return CLMEM_STATE_MISSING;
        if (saved == ELOOP)
            snprintf(why, why_size, "is a symbolic link, not a regular file");
        else if (saved == ENXIO)
            snprintf(why, why_size, "is a socket, not a regular file");
        else
            snprintf(why, why_size, "cannot be opened (%s)", strerror(saved));
        return CLMEM_STATE_BAD_FILE;
    }
    if (fstat(fd, &st) != 0) {
        snprintf(why, why_size, "cannot be read (%s)", strerror(errno));
        close(fd);
        return CLMEM_STATE_BAD_FILE;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, why_size, "is %s, not a regular file", clmem_state_kind(st.st_mode));
        close(fd);
        return CLMEM_STATE_BAD_FILE;
    }
    if (!owned_and_private(&st, why, why_size)) {
        close(fd);
        return CLMEM_STATE_BAD_FILE;
    }
    /* A regular file: reads block no more than they would have. */
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    *file = fdopen(fd, "rb");
    if (!*file) {
        snprintf(why, why_size, "cannot be read (%s)", strerror(errno));
        close(fd);
        return CLMEM_STATE_BAD_FILE;
    }
    return CLMEM_STATE_OPENED;
}
