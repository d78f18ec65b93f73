/* Kernel sources, loaded at run time, and programs built per device. */
#include "opencl/opencl.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Set by meson.build: where `meson install` puts cl/, and the source tree's
 * cl/ (so the build dir works without installing). */
#ifndef CLMEM_INSTALLED_KERNEL_DIR
#define CLMEM_INSTALLED_KERNEL_DIR ""
#endif
#ifndef CLMEM_SOURCE_KERNEL_DIR
#define CLMEM_SOURCE_KERNEL_DIR ""
#endif
/* The same for data/ (the parameter database, data/params/). */
#ifndef CLMEM_INSTALLED_DATA_DIR
#define CLMEM_INSTALLED_DATA_DIR ""
#endif
#ifndef CLMEM_SOURCE_DATA_DIR
#define CLMEM_SOURCE_DATA_DIR ""
#endif

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A kernel source is a few KiB: past this it is no kernel source (a link
 * to /dev/zero grew clmem to 23 GB). */
#define SOURCE_MAX_BYTES (4u << 20)

/* Opens the kernel source at `path` for reading: a regular file of at
 * most SOURCE_MAX_BYTES, else refused naming what it is. A FIFO or a
 * device is never read, nor waited for (opened without blocking, then
 * looked at). The descriptor, or -1 with err set. */
static int source_open(const char *path, struct clmem_error *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        clmem_fail(err, CLMEM_ERR_USAGE, "cannot read kernel source '%s': %s", path,
                   strerror(errno));
        return -1;
    }
    struct stat st;
    const char *why = NULL;
    if (fstat(fd, &st) != 0)
        why = strerror(errno);
    else if (S_ISDIR(st.st_mode))
        why = "it is a directory, not a file";
    else if (S_ISFIFO(st.st_mode))
        why = "it is a FIFO, not a regular file";
    else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
        why = "it is a device, not a regular file";
    else if (!S_ISREG(st.st_mode))
        why = "it is not a regular file";
    else if ((unsigned long long)st.st_size > SOURCE_MAX_BYTES)
        why = "it is larger than the 4 MiB a kernel source may be";
    if (why) {
        close(fd);
        clmem_fail(err, CLMEM_ERR_USAGE, "cannot read kernel source '%s': %s", path, why);
        return -1;
    }
    /* A regular file: reads may block as usual. */
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

static int source_check(const char *path, struct clmem_error *err)
{
    int fd = source_open(path, err);
    if (fd < 0)
        return CLMEM_ERR_USAGE;
    close(fd);
    return CLMEM_OK;
}

/* Where a file of clmem's shared data lives: an explicit directory
 * (option, then the environment variable `env`) is the only place looked
 * at, since silently falling back elsewhere would hide a typo; else the
 * installed directory, then the source tree's, the first that holds
 * `file`. 0 and the path; -1 when the explicit directory is not one
 * (*origin names where it came from); 1 when no default place holds it. */
static int data_locate(const char *explicit_dir, const char *env, const char *const defaults[2],
                       const char *file, char *path, size_t path_size, const char **origin)
{
    *origin = "option";
    if (!(explicit_dir && explicit_dir[0])) {
        explicit_dir = getenv(env);
        *origin = env;
    }
    if (explicit_dir && explicit_dir[0]) {
        if (!is_dir(explicit_dir)) {
            snprintf(path, path_size, "%s", explicit_dir);
            return -1;
        }
        snprintf(path, path_size, "%s/%s", explicit_dir, file);
        return 0;
    }
    for (size_t i = 0; i < 2; i++) {
        struct stat st;
        if (!defaults[i][0])
            continue;
        snprintf(path, path_size, "%s/%s", defaults[i], file);
        if (stat(path, &st) == 0)
            return 0;
    }
    return 1;
}

int clmem_source_find(const char *kernel_dir, const char *file, char *path, size_t path_size,
                      struct clmem_error *err)
{
    const char *const defaults[2] = {CLMEM_INSTALLED_KERNEL_DIR, CLMEM_SOURCE_KERNEL_DIR};
    const char *origin;
    switch (data_locate(kernel_dir, "CLMEM_KERNEL_DIR", defaults, file, path, path_size, &origin)) {
    case 0: return source_check(path, err);
    case -1:
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "kernel directory '%s' (from %s) is not a "
                          "readable directory",
                          path, strcmp(origin, "option") ? origin : "--kernel-dir");
    default:
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "kernel source '%s' not found in '%s' or '%s' (set --kernel-dir or "
                          "CLMEM_KERNEL_DIR)",
                          file, CLMEM_INSTALLED_KERNEL_DIR, CLMEM_SOURCE_KERNEL_DIR);
    }
}

int clmem_params_dir_find(char *dir, size_t size, struct clmem_error *err)
{
    const char *const defaults[2] = {CLMEM_INSTALLED_DATA_DIR, CLMEM_SOURCE_DATA_DIR};
    const char *origin;
    switch (data_locate(NULL, "CLMEM_DATA_DIR", defaults, "params", dir, size, &origin)) {
    case 0: return CLMEM_OK;
    case -1:
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "data directory '%s' (from %s) is not a readable directory", dir, origin);
    default:
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "the parameter database (params/) not found in '%s' or '%s' (set "
                          "CLMEM_DATA_DIR)",
                          CLMEM_INSTALLED_DATA_DIR, CLMEM_SOURCE_DATA_DIR);
    }
}

static int read_file(const char *path, char **text, struct clmem_error *err)
{
    int fd = source_open(path, err);
    if (fd < 0)
        return CLMEM_ERR_USAGE;
    /* Read up to one byte past the cap: a file that grew since it was
     * looked at is refused too. */
    char *buf;
    size_t len;
    int failed = clmem_read_fd(fd, SOURCE_MAX_BYTES, 0, &buf, &len);
    int saved = errno;
    close(fd);
    if (failed && saved == ENOMEM)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory reading '%s'", path);
    if (failed && saved == EFBIG)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "cannot read kernel source '%s': it is larger than the 4 MiB a kernel "
                          "source may be",
                          path);
    if (failed)
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot read kernel source '%s': %s", path,
                          strerror(saved));
    *text = buf;
    return CLMEM_OK;
}

/* A kernel source's own headers, put in its text: each line
 * `#include "NAME"` becomes NAME's text, read from the directory of the
 * file that includes it (and its own includes the same way), between
 * #line marks so that a build log's lines are each file's. What is built
 * and what names the program's cache entry (clmem_cache_entry hashes the
 * text) is then one text: an edit to a header rebuilds every program that
 * includes it. The drivers get no -I (a kernel directory's name may hold
 * the spaces that their option parsers split at). */
#define INCLUDE_MAX_DEPTH 4

/* NAME when `line` (up to its end) is `#include "NAME"`, with NAME's
 * length in *len; else NULL. */
static const char *include_name(const char *line, const char *end, size_t *len)
{
    const char *p = line;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p == end || *p++ != '#')
        return NULL;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if ((size_t)(end - p) < 7 || strncmp(p, "include", 7) != 0)
        return NULL;
    p += 7;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p == end || *p++ != '"')
        return NULL;
    const char *name = p;
    while (p < end && *p != '"')
        p++;
    if (p == end || p == name)
        return NULL;
    *len = (size_t)(p - name);
    return name;
}

struct source_text {
    char *data;
    size_t len, cap;
};

static int text_add(struct source_text *t, const char *data, size_t len)
{
    if (t->len + len + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (t->len + len + 1 > cap)
            cap *= 2;
        char *more = realloc(t->data, cap);
        if (!more)
            return -1;
        t->data = more;
        t->cap = cap;
    }
    memcpy(t->data + t->len, data, len);
    t->len += len;
    t->data[t->len] = '\0';
    return 0;
}

/* Appends the source at `path` to *out, its includes put in its place. */
static int load_source(const char *path, int depth, struct source_text *out,
                       struct clmem_error *err)
{
    char *text = NULL;
    int status = read_file(path, &text, err);
    if (status)
        return status;
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    int dir_len = slash ? (int)(slash - path) : 1;
    const char *dir = slash ? path : ".";
    size_t line_no = 1;
    for (const char *line = text; *line && !status; line_no++) {
        const char *end = strchr(line, '\n');
        const char *next = end ? end + 1 : line + strlen(line);
        size_t len;
        const char *name = include_name(line, end ? end : next, &len);
        if (!name) {
            if (text_add(out, line, (size_t)(next - line)))
                status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory reading '%s'", path);
            line = next;
            continue;
        }
        /* A header included many times at each level would multiply:
         * the whole text has the cap of one source. */
        if (out->len > SOURCE_MAX_BYTES) {
            status = clmem_fail(err, CLMEM_ERR_USAGE,
                                "kernel source '%s' with its includes is larger than the 4 MiB a "
                                "kernel source may be",
                                path);
            break;
        }
        char header[4096], mark[4200];
        int n = snprintf(header, sizeof header, "%.*s/%.*s", dir_len, dir, (int)len, name);
        if (n < 0 || (size_t)n >= sizeof header) {
            status = clmem_fail(err, CLMEM_ERR_USAGE, "kernel source '%s' includes a name too long",
                                path);
            break;
        }
        if (depth >= INCLUDE_MAX_DEPTH) {
            status = clmem_fail(err, CLMEM_ERR_USAGE,
                                "kernel source '%s' includes '%s' past %d levels of includes", path,
                                header, INCLUDE_MAX_DEPTH);
            break;
        }
        snprintf(mark, sizeof mark, "#line 1 \"%.*s\"\n", (int)len, name);
        if (text_add(out, mark, strlen(mark)))
            status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory reading '%s'", path);
        else
            status = load_source(header, depth + 1, out, err);
        snprintf(mark, sizeof mark, "\n#line %zu \"%s\"\n", line_no + 1, base);
        if (!status && text_add(out, mark, strlen(mark)))
            status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory reading '%s'", path);
        line = next;
    }
    free(text);
    return status;
}

/* The source at `path` with its includes, malloc'd in *text. */
static int load_program_source(const char *path, char **text, struct clmem_error *err)
{
    struct source_text out = {0};
    int status = load_source(path, 0, &out, err);
    if (!status && !out.data && text_add(&out, "", 0))
        status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory reading '%s'", path);
    if (status) {
        free(out.data);
        return status;
    }
    *text = out.data;
    return CLMEM_OK;
}

/* Keeps the device's whole build log in err->log. */
static void keep_build_log(struct clmem_ctx *ctx, cl_program program, struct clmem_error *err)
{
    size_t size = 0;
    if (clGetProgramBuildInfo(program, ctx->device.id, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) !=
            CL_SUCCESS ||
        size == 0)
        return;
    char *log = malloc(size + 1);
    if (!log)
        return;
    if (clGetProgramBuildInfo(program, ctx->device.id, CL_PROGRAM_BUILD_LOG, size, log, NULL) !=
        CL_SUCCESS) {
        free(log);
        return;
    }
    log[size] = '\0';
    free(err->log);
    err->log = log;
}

/* A build that may be abandoned: clBuildProgram runs on a thread of its
 * own while the caller polls ctx->cancelled; when that says stop, the
 * caller goes on at once and the thread, when the driver returns, releases
 * the program and frees the job (the last of the two to leave frees it). */
struct build_job {
    pthread_mutex_t lock;
    pthread_cond_t done_cond;
    cl_program program;
    cl_device_id device;
    char options[1024];
    cl_int rc;
    int done, abandoned;
};

/* Not an OpenCL error code (those are 0 and below). */
#define BUILD_ABANDONED 1
/* How often a build's caller looks at ctx->cancelled. */
#define BUILD_POLL_MS 50

static void build_job_free(struct build_job *job)
{
    pthread_mutex_destroy(&job->lock);
    pthread_cond_destroy(&job->done_cond);
    free(job);
}

static void *build_thread(void *arg)
{
    struct build_job *job = arg;
    cl_int rc = clBuildProgram(job->program, 1, &job->device, job->options, NULL, NULL);
    pthread_mutex_lock(&job->lock);
    job->rc = rc;
    job->done = 1;
    int abandoned = job->abandoned;
    pthread_cond_signal(&job->done_cond);
    pthread_mutex_unlock(&job->lock);
    if (abandoned) {
        clReleaseProgram(job->program);
        build_job_free(job);
    }
    return NULL;
}

/* clBuildProgram, abandoned when ctx->cancelled says stop (BUILD_ABANDONED;
 * the program then belongs to the build's thread). Without a cancelled
 * callback, or when no thread can be started, the build runs here. */
static cl_int build_waiting(struct clmem_ctx *ctx, cl_program program, const char *options)
{
    struct build_job *job = ctx->cancelled ? calloc(1, sizeof *job) : NULL;
    if (!job || strlen(options) >= sizeof job->options) {
        free(job);
        return clBuildProgram(program, 1, &ctx->device.id, options, NULL, NULL);
    }
    job->program = program;
    job->device = ctx->device.id;
    strcpy(job->options, options);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_mutex_init(&job->lock, NULL);
    pthread_cond_init(&job->done_cond, &attr);
    pthread_condattr_destroy(&attr);
    /* Signals stay with the caller's threads: the thread blocks them all
     * (it inherits the mask it is created with), and so do the threads the
     * driver starts from it, but for the faults: a fault in a thread that
     * blocks it ends the process at once, with no handler (no line said,
     * the outputs' temporary files left). */
    static const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS};
    sigset_t all, old;
    sigfillset(&all);
    for (size_t i = 0; i < sizeof faults / sizeof *faults; i++)
        sigdelset(&all, faults[i]);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_t thread;
    int started = pthread_create(&thread, NULL, build_thread, job) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!started) {
        build_job_free(job);
        return clBuildProgram(program, 1, &ctx->device.id, options, NULL, NULL);
    }
    pthread_detach(thread);
    pthread_mutex_lock(&job->lock);
    while (!job->done) {
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_nsec += BUILD_POLL_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&job->done_cond, &job->lock, &until);
        if (!job->done && ctx->cancelled(ctx->cancelled_user)) {
            job->abandoned = 1;
            pthread_mutex_unlock(&job->lock);
            return BUILD_ABANDONED;
        }
    }
    cl_int rc = job->rc;
    pthread_mutex_unlock(&job->lock);
    build_job_free(job);
    return rc;
}

int clmem_program_build(struct clmem_ctx *ctx, const char *file, const char *options,
                        cl_program *program, struct clmem_error *err)
{
    char path[2048];
    char *text = NULL;
    int status;
    cl_int rc;
    *program = NULL;
    if ((status = clmem_source_find(ctx->kernel_dir, file, path, sizeof path, err)) ||
        (status = load_program_source(path, &text, err)))
        return status;
    /* -cl-std=CL1.2: the kernels are OpenCL C 1.2, what every driver takes. */
    char all_options[1024];
    snprintf(all_options, sizeof all_options, "-cl-std=CL1.2 %s", options ? options : "");
    struct clmem_cache_entry entry;
    int cached = 0;
    if (!ctx->no_cache) {
        int named = clmem_cache_entry(ctx, text, all_options, &entry);
        cached = named == 0;
        /* No place for a cache (a daemon's HOME=/nonexistent): none for
         * this context, said once. */
        if (named == -1) {
            if (clmem_debug_enabled(CLMEM_DEBUG_BUILD))
                fprintf(stderr,
                        "clmem: no program cache (XDG_CACHE_HOME is not set and HOME is not a "
                        "directory): building from source\n");
            ctx->no_cache = 1;
        }
    }
    if (cached && clmem_cache_load(ctx, &entry, all_options, program)) {
        if (clmem_debug_enabled(CLMEM_DEBUG_BUILD))
            fprintf(stderr, "clmem: '%s' for '%s' from the cache '%s'\n", path, ctx->device.name,
                    entry.path);
        free(text);
        return CLMEM_OK;
    }
    const char *sources[] = {text};
    cl_program prog = clCreateProgramWithSource(ctx->context, 1, sources, NULL, &rc);
    free(text);
    if (rc != CL_SUCCESS)
        return clmem_cl_fail(err, rc, "clCreateProgramWithSource", __func__, __LINE__);
    if (clmem_debug_enabled(CLMEM_DEBUG_BUILD))
        fprintf(stderr, "clmem: building '%s' for '%s' with '%s'\n", path, ctx->device.name,
                all_options);
    if (cached && ctx->building)
        ctx->building(ctx->building_user, &ctx->device);
    rc = build_waiting(ctx, prog, all_options);
    if (rc == BUILD_ABANDONED)
        return clmem_fail(err, CLMEM_ERR_INTERRUPTED, "interrupted while building '%s'", path);
    if (rc != CL_SUCCESS) {
        keep_build_log(ctx, prog, err);
        clReleaseProgram(prog);
        err->cl_err = rc;
        return clmem_fail(err, CLMEM_ERR_CL,
                          "building '%s' for '%s' with options '%s' failed with %s", path,
                          ctx->device.name, all_options, clmem_cl_error_name(rc));
    }
    if (cached)
        clmem_cache_store(ctx, &entry, prog);
    *program = prog;
    return CLMEM_OK;
}
