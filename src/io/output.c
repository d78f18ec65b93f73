/* Output files that appear whole or not at all (io.h, struct clmem_output). */
#define _GNU_SOURCE /* fopencookie, O_PATH, syscall */
#include "io/io.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Whether `dir` (a real path) is this process's /proc/PID/fd, where
 * /dev/stdout, /dev/fd/N and /proc/self/fd/N lead. */
static int is_own_fd_dir(const char *dir)
{
    char own[64];
    size_t n = (size_t)snprintf(own, sizeof own, "/proc/%ld/", (long)getpid());
    if (strncmp(dir, own, n) != 0)
        return 0;
    dir += n;
    if (strncmp(dir, "task/", 5) == 0) { /* /proc/thread-self/fd */
        dir += 5;
        while (*dir >= '0' && *dir <= '9')
            dir++;
        if (*dir++ != '/')
            return 0;
    }
    return strcmp(dir, "fd") == 0;
}

/* ---- walking a path ---- */

/* Whether following the symbolic link `name` (lstat'd into *link_st) in
 * the directory open as dir_fd (`dir` its path) is refused as the
 * kernel's protected_symlinks refuses it: a link in a sticky
 * world-writable directory that belongs neither to this user nor to the
 * directory's owner. 1 and why when refused, else 0. */
static int planted_at(int dir_fd, const char *dir, const char *name, const struct stat *link_st,
                      char *why, size_t why_size)
{
    struct stat d;
    if (fstat(dir_fd, &d) != 0 || !(d.st_mode & S_ISVTX) || !(d.st_mode & S_IWOTH) ||
        link_st->st_uid == geteuid() || link_st->st_uid == d.st_uid)
        return 0;
    snprintf(why, why_size,
             "'%s%s%s' is a symbolic link of another user (uid %u) in the sticky world-writable "
             "directory '%s': not followed",
             strcmp(dir, "/") == 0 ? "" : dir, "/", name, (unsigned)link_st->st_uid, dir);
    return 1;
}

/* `dir` one level down into `name`, or up for ".."; 0 or ENAMETOOLONG. */
static int path_down(char *dir, size_t size, const char *name)
{
    size_t len = strlen(dir);
    if (strcmp(name, "..") == 0) {
        char *slash = strrchr(dir, '/');
        if (slash)
            slash[slash == dir] = '\0';
        return 0;
    }
    if (len + 1 + strlen(name) >= size)
        return ENAMETOOLONG;
    snprintf(dir + len, size - len, "%s%s", strcmp(dir, "/") == 0 ? "" : "/", name);
    return 0;
}

int clmem_path_walk(const char *path, int make_dirs, struct clmem_path *where, char *why,
                    size_t why_size)
{
    char rest[PATH_MAX], next[PATH_MAX], link[PATH_MAX], name[NAME_MAX + 1];
    int cur = -1, hops = 0, e = 0;
    where->dir_fd = -1;
    where->own_fd = -1;
    where->dir[0] = where->name[0] = '\0';
    if (!path[0])
        return ENOENT;
    if (snprintf(rest, sizeof rest, "%s", path) >= (int)sizeof rest)
        return ENAMETOOLONG;
    if (rest[0] != '/') {
        if (!getcwd(where->dir, sizeof where->dir))
            return errno;
        if ((cur = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
            return errno;
    }
    for (const char *at = rest;;) {
        if (*at == '/') {
            /* An absolute path, or a link to one: from the root. */
            int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
            if (root < 0) {
                e = errno;
                break;
            }
            if (cur >= 0)
                close(cur);
            cur = root;
            strcpy(where->dir, "/");
            while (*at == '/')
                at++;
        }
        if (!*at) { /* "/", or a name ending in '/': the directory itself */
            strcpy(name, ".");
            break;
        }
        size_t len = strcspn(at, "/");
        if (len > NAME_MAX) {
            e = ENAMETOOLONG;
            break;
        }
        memcpy(name, at, len);
        name[len] = '\0';
        at += len;
        int slash = *at == '/';
        while (*at == '/')
            at++;
        /* The last name is looked up, not entered, unless a '/' follows. */
        int last = !*at, enter = !last || slash;
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
            if (name[1]) {
                int up = openat(cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
                if (up < 0) {
                    e = errno;
                    break;
                }
                close(cur);
                cur = up;
                path_down(where->dir, sizeof where->dir, "..");
            }
            if (last) {
                strcpy(name, ".");
                break;
            }
            continue;
        }
        /* /dev/stdout and the like: one of this process's descriptors. */
        if (last && !slash && is_own_fd_dir(where->dir) && strspn(name, "0123456789") == len &&
            len < 9) {
            where->own_fd = atoi(name);
            break;
        }
        struct stat st;
        if (fstatat(cur, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            e = errno;
            if (e == ENOENT && last && !slash) { /* a new file */
                e = 0;
                break;
            }
            if (e == ENOENT && make_dirs && enter) {
                if (mkdirat(cur, name, 0700) != 0 && errno != EEXIST) {
                    e = errno;
                    break;
                }
                if (fstatat(cur, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
                    e = errno;
                    break;
                }
                e = 0;
            } else {
                break;
            }
        }
        if (S_ISLNK(st.st_mode)) {
            /* Followed here, as the kernel would, after the check the
             * kernel makes only where protected_symlinks is set. */
            if (++hops > 40) {
                e = ELOOP;
                break;
            }
            if (planted_at(cur, where->dir, name, &st, why, why_size)) {
                e = -1;
                break;
            }
            ssize_t n = readlinkat(cur, name, link, sizeof link - 1);
            if (n < 0) {
                e = errno;
                break;
            }
            link[n] = '\0';
            if (snprintf(next, sizeof next, "%s%s%s", link, *at || slash ? "/" : "", at) >=
                (int)sizeof next) {
                e = ENAMETOOLONG;
                break;
            }
            strcpy(rest, next);
            at = rest;
            continue;
        }
        if (!enter)
            break;
        if (!S_ISDIR(st.st_mode)) {
            e = ENOTDIR;
            break;
        }
        /* O_NOFOLLOW: a link put there since the look is not entered. */
        int down = openat(cur, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (down < 0) {
            e = errno;
            break;
        }
        close(cur);
        cur = down;
        if ((e = path_down(where->dir, sizeof where->dir, name)) != 0)
            break;
        if (last) {
            strcpy(name, ".");
            break;
        }
    }
    if (e || where->own_fd >= 0) {
        if (cur >= 0)
            close(cur);
        return e;
    }
    where->dir_fd = cur;
    strcpy(where->name, name);
    return 0;
}

/* Writes to an open descriptor: a device, a pipe, this process's stdout. */
static int open_direct(struct clmem_output *out, int fd, struct clmem_error *err)
{
    out->file = fd < 0 ? NULL : fdopen(fd, "w");
    if (!out->file) {
        int saved = errno;
        if (fd >= 0)
            close(fd);
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", out->path,
                          strerror(saved));
    }
    return CLMEM_OK;
}

/* The temporary files being written now, for a signal handler to remove:
 * a slot per output open at once (programs are stored from several
 * threads). A slot is FREE, then CLAIMED while its path is copied in, then
 * SET; the handler reads only SET slots. With every slot taken a file is
 * still written, only not removed by a signal. */
enum { PENDING_FREE, PENDING_CLAIMED, PENDING_SET };
enum pending_kind { PENDING_FILE, PENDING_DIR, PENDING_CHILD };
#define PENDING_SLOTS 16
/* Read from signal handlers: only where its atomics need no lock. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the pending outputs' slots need lock-free atomics");
static struct {
    atomic_int state;
    enum pending_kind kind;
    pid_t pid;
    char path[sizeof((struct clmem_output *)0)->tmp_path];
} pending[PENDING_SLOTS];

static int pending_claim(enum pending_kind kind, const char *path, pid_t pid)
{
    for (int i = 0; i < PENDING_SLOTS; i++) {
        int expected = PENDING_FREE;
        if (atomic_compare_exchange_strong(&pending[i].state, &expected, PENDING_CLAIMED)) {
            pending[i].kind = kind;
            pending[i].pid = pid;
            snprintf(pending[i].path, sizeof pending[i].path, "%s", path ? path : "");
            atomic_store(&pending[i].state, PENDING_SET);
            return i;
        }
    }
    return -1;
}

static int pending_add(const char *path)
{
    return pending_claim(PENDING_FILE, path, 0);
}

static void pending_drop(struct clmem_output *out)
{
    clmem_output_pending_release(out->pending);
    out->pending = -1;
}

int clmem_output_pending_dir(const char *dir)
{
    return pending_claim(PENDING_DIR, dir, 0);
}

int clmem_output_pending_child(pid_t pid)
{
    return pending_claim(PENDING_CHILD, NULL, pid);
}

void clmem_output_pending_release(int slot)
{
    if (slot >= 0 && slot < PENDING_SLOTS)
        atomic_store(&pending[slot].state, PENDING_FREE);
}

/* Removes a directory and the files in it (no subdirectory is entered),
 * async-signal-safely where the system lets a handler read a directory
 * (Linux: getdents64); elsewhere through readdir, which is not safe in a
 * handler but is all there is. */
static void remove_flat_dir(const char *dir)
{
#if defined(__linux__) && defined(SYS_getdents64)
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return;
    /* Removing while reading may skip names: read again until a pass
     * removes nothing. */
    for (int removed = 1, passes = 0; removed && passes < 64; passes++) {
        removed = 0;
        lseek(fd, 0, SEEK_SET);
        char buf[4096] __attribute__((aligned(8)));
        long n;
        while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
            for (long at = 0; at < n;) {
                struct linux_dirent64_view {
                    unsigned long long ino;
                    long long off;
                    unsigned short reclen;
                    unsigned char type;
                    char name[];
                } *e = (void *)(buf + at);
                at += e->reclen;
                if (strcmp(e->name, ".") != 0 && strcmp(e->name, "..") != 0 &&
                    unlinkat(fd, e->name, 0) == 0)
                    removed = 1;
            }
    }
    close(fd);
#else
    DIR *d = opendir(dir);
    if (d) {
        char path[sizeof pending[0].path + 260];
        for (struct dirent *e; (e = readdir(d));)
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < (int)sizeof path)
                unlink(path);
        closedir(d);
    }
#endif
    rmdir(dir);
}

void clmem_output_remove_pending(void)
{
    /* A child writing into a pending directory first: it could still be
     * adding files there. Its own process group: whatever it started too. */
    for (int i = 0; i < PENDING_SLOTS; i++)
        if (atomic_load(&pending[i].state) == PENDING_SET && pending[i].kind == PENDING_CHILD &&
            pending[i].pid > 0) {
            kill(-pending[i].pid, SIGKILL);
            kill(pending[i].pid, SIGKILL);
            waitpid(pending[i].pid, NULL, 0);
        }
    for (int i = 0; i < PENDING_SLOTS; i++)
        if (atomic_load(&pending[i].state) == PENDING_SET && pending[i].kind == PENDING_FILE)
            unlink(pending[i].path);
    for (int i = 0; i < PENDING_SLOTS; i++)
        if (atomic_load(&pending[i].state) == PENDING_SET && pending[i].kind == PENDING_DIR)
            remove_flat_dir(pending[i].path);
}

int clmem_file_among(const char *path, int follow, const char *const inputs[], size_t n)
{
    struct stat out, in;
    if ((follow ? stat(path, &out) : lstat(path, &out)) != 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (stat(inputs[i], &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
            return (int)i;
    return -1;
}

static mode_t umask_value;
static void read_umask(void)
{
    umask_value = umask(0);
    umask(umask_value);
}

/* The process's umask, read once: umask() can only be read by setting it,
 * which two threads writing files at once (programs built in parallel,
 * each stored in the cache) must not do. */
static mode_t process_umask(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, read_umask);
    return umask_value;
}

/* The target's name in its directory (out->dir_fd). */
static const char *target_name(const struct clmem_output *out)
{
    return strrchr(out->target, '/') + 1;
}

/* Makes the temporary file in the target's directory (out->dir_fd), hidden,
 * its name within NAME_MAX however long the target's: .NAME.XXXXXX, NAME
 * cut short, XXXXXX chosen until one is free; its path (for messages and a
 * signal's removal) in `tmp`. The descriptor, or -1 with errno. */
static int temp_at(const struct clmem_output *out, char *tmp, size_t size)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    const char *name = target_name(out);
    int dir_len = (int)(name - 1 - out->target), name_len = (int)strlen(name);
    if (name_len > NAME_MAX - 8)
        name_len = NAME_MAX - 8;
    if (snprintf(tmp, size, "%.*s/.%.*s.XXXXXX", dir_len, out->target, name_len, name) >=
        (int)size) {
        errno = ENAMETOOLONG;
        return -1;
    }
    char *x = tmp + strlen(tmp) - 6, *base = strrchr(tmp, '/') + 1;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    uint64_t r = (uint64_t)now.tv_nsec ^ ((uint64_t)now.tv_sec << 30) ^ ((uint64_t)getpid() << 40) ^
                 (uint64_t)(uintptr_t)&now;
    for (int tries = 0; tries < 1000; tries++) {
        /* splitmix64: a fresh name each try. */
        r += 0x9e3779b97f4a7c15u;
        uint64_t z = r;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
        z ^= z >> 31;
        for (int i = 0; i < 6; i++, z /= 62)
            x[i] = letters[z % 62];
        int fd =
            openat(out->dir_fd, base, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

/* Makes the temporary file, as the file it replaces was: its mode (never a
 * setuid, setgid or sticky bit) and, where this user may give them, its
 * owner and group; a new file gets a new file's mode (0666 less the
 * umask); a state file is this user's, 0600. 0, or an errno. */
static int make_temp(struct clmem_output *out)
{
    char tmp[sizeof out->tmp_path];
    int fd = temp_at(out, tmp, sizeof tmp);
    if (fd < 0)
        return errno;
    /* Registered at once: a signal from here on removes it. */
    snprintf(out->tmp_path, sizeof out->tmp_path, "%s", tmp);
    out->pending = pending_add(out->tmp_path);
    out->fd = fd;
    struct stat st;
    mode_t mode = 0666 & ~process_umask();
    if (out->private_file) {
        mode = 0600;
    } else if (fstatat(out->dir_fd, target_name(out), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
               S_ISREG(st.st_mode)) {
        mode = st.st_mode & 0777;
        /* Root gives the owner back; others may give a group they are in
         * (fchown refuses the rest: the file is then theirs). */
        if (st.st_uid != geteuid() || st.st_gid != getegid())
            if (fchown(fd, geteuid() == 0 ? st.st_uid : (uid_t)-1, st.st_gid) != 0 &&
                geteuid() == 0)
                return errno;
    }
    return fchmod(fd, mode) != 0 ? errno : 0;
}

/* Removes the temporary file (in out->dir_fd: its path may lead elsewhere
 * by now). */
static void remove_temp(struct clmem_output *out)
{
    if (out->tmp_path[0])
        unlinkat(out->dir_fd, strrchr(out->tmp_path, '/') + 1, 0);
}

/* The stream's writes (fopencookie): the temporary file is made by the
 * first. */
static ssize_t cookie_write(void *cookie, const char *buf, size_t size)
{
    struct clmem_output *out = cookie;
    if (out->fd < 0) {
        int e = make_temp(out);
        if (e) {
            errno = e;
            return -1;
        }
    }
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(out->fd, buf + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return done ? (ssize_t)done : -1;
        done += (size_t)n;
    }
    return (ssize_t)done;
}

static int cookie_close(void *cookie)
{
    struct clmem_output *out = cookie;
    int rc = 0;
    if (out->fd >= 0)
        rc = close(out->fd);
    out->fd = -1;
    return rc;
}

/* Opens the output, or with `check` only finds whether it could be
 * written, opening nothing that another process would see (a FIFO's
 * reader, a terminal). Every directory of the path is entered through
 * the one before (clmem_path_walk), and the file is made and renamed
 * inside the last (out->dir_fd, kept open while the output is): a link
 * put into the path after the check is never followed. */
static int output_at(struct clmem_output *out, const char *path, int check, struct clmem_error *err)
{
    if (strlen(path) >= sizeof out->path)
        return clmem_fail(err, CLMEM_ERR_USAGE, "output path '%s' is too long", path);
    strcpy(out->path, path);
    /* Through symbolic links: the link stays, its target is written. */
    char why[PATH_MAX + 256];
    struct clmem_path where;
    int e = clmem_path_walk(path, 0, &where, why, sizeof why);
    if (e < 0)
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", path, why);
    if (e)
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", path, strerror(e));
    if (where.own_fd >= 0) {
        /* /dev/stdout and the like: this process's own descriptor, as it
         * is (a file stdout is redirected to is neither replaced nor
         * truncated; >> keeps appending). */
        int fd = fcntl(where.own_fd, F_DUPFD_CLOEXEC, 0);
        if (fd >= 0 && (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDONLY) {
            close(fd);
            fd = -1;
            errno = EBADF;
        }
        if (fd < 0)
            return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", path, strerror(errno));
        if (check) {
            close(fd);
            return CLMEM_OK;
        }
        if (where.own_fd == STDOUT_FILENO)
            fflush(stdout);
        return open_direct(out, fd, err);
    }
    out->dir_fd = where.dir_fd;
    if (snprintf(out->target, sizeof out->target, "%s/%s",
                 strcmp(where.dir, "/") == 0 ? "" : where.dir,
                 where.name) >= (int)sizeof out->target)
        return clmem_fail(err, CLMEM_ERR_USAGE, "output path '%s' is too long", path);
    const char *name = where.name;
    /* A device or a pipe is written as it is: renaming a file over
     * /dev/null (as root) would replace the device. */
    struct stat st;
    int exists = fstatat(out->dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
    if (exists && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode))
            return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", path,
                              strerror(EISDIR));
        if (check && faccessat(out->dir_fd, name, W_OK, 0) != 0)
            return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", path, strerror(errno));
        if (check)
            return CLMEM_OK;
        return open_direct(out, openat(out->dir_fd, name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC), err);
    }
    /* A file of this user's that it may not write (chmod 444) stays as it
     * is, as a shell's > would leave it: the rename below would replace it
     * all the same. (Another user's is left to the rename: the
     * compiled-program cache replaces an entry it does not trust.) */
    if (exists && st.st_uid == geteuid() && faccessat(out->dir_fd, name, W_OK, 0) != 0)
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", path, strerror(errno));
    /* Whether the temporary file can be made there: made and removed now,
     * made for good when the output is written. */
    char probe[sizeof out->tmp_path];
    int fd = temp_at(out, probe, sizeof probe);
    if (fd < 0 && errno == ENAMETOOLONG)
        return clmem_fail(err, CLMEM_ERR_USAGE, "output path '%s' is too long", path);
    if (fd < 0)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "cannot write '%s': cannot create its temporary file in '%s': %s", path,
                          where.dir, strerror(errno));
    close(fd);
    unlinkat(out->dir_fd, strrchr(probe, '/') + 1, 0);
    if (check)
        return CLMEM_OK;
    out->replace = 1;
    static const cookie_io_functions_t io = {.write = cookie_write, .close = cookie_close};
    out->file = fopencookie(out, "w", io);
    if (!out->file) {
        out->replace = 0;
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", path, strerror(errno));
    }
    return CLMEM_OK;
}

static int output_open(struct clmem_output *out, const char *path, int check, int private_file,
                       struct clmem_error *err)
{
    memset(out, 0, sizeof *out);
    out->pending = -1;
    out->fd = -1;
    out->dir_fd = -1;
    out->private_file = private_file;
    int status = output_at(out, path, check, err);
    /* The directory stays open only for a file renamed into it. */
    if (!out->replace && out->dir_fd >= 0) {
        close(out->dir_fd);
        out->dir_fd = -1;
    }
    return status;
}

int clmem_output_open(struct clmem_output *out, const char *path, struct clmem_error *err)
{
    return output_open(out, path, 0, 0, err);
}

int clmem_output_open_private(struct clmem_output *out, const char *path, struct clmem_error *err)
{
    return output_open(out, path, 0, 1, err);
}

int clmem_output_check(const char *path, struct clmem_error *err)
{
    struct clmem_output out;
    return output_open(&out, path, 1, 0, err);
}

/* The directory's descriptor, once the output is done with. */
static void close_dir(struct clmem_output *out)
{
    if (out->replace && out->dir_fd >= 0)
        close(out->dir_fd);
    out->dir_fd = -1;
    out->replace = 0;
}

int clmem_output_commit(struct clmem_output *out, struct clmem_error *err)
{
    int saved = 0;
    if (fflush(out->file) != 0 || ferror(out->file))
        saved = errno ? errno : EIO;
    /* An empty report: its (empty) file is made now. */
    if (!saved && out->replace && out->fd < 0)
        saved = make_temp(out);
    /* fsync only a regular file: a pipe or a terminal cannot. */
    if (!saved && out->fd >= 0 && fsync(out->fd) != 0)
        saved = errno;
    if (fclose(out->file) != 0 && !saved)
        saved = errno;
    out->file = NULL;
    /* Renamed over the target itself, in its directory: a symbolic link
     * to it stays. */
    if (!saved && out->tmp_path[0] &&
        renameat(out->dir_fd, strrchr(out->tmp_path, '/') + 1, out->dir_fd, target_name(out)) != 0)
        saved = errno;
    if (saved)
        remove_temp(out);
    pending_drop(out);
    out->tmp_path[0] = '\0';
    close_dir(out);
    if (saved)
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", out->path,
                          strerror(saved));
    return CLMEM_OK;
}

void clmem_output_abort(struct clmem_output *out)
{
    if (out->file) {
        fclose(out->file);
        out->file = NULL;
        remove_temp(out);
        pending_drop(out);
        out->tmp_path[0] = '\0';
        close_dir(out);
    }
}
