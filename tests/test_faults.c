/* Faults (issue 6, item 4): each gives one clear line on stderr (plus the
 * build log where there is one) and its documented exit code, never a
 * crash, and never leaves a half-written output file or a temporary one.
 * Runs $CLMEM_BIN as test_cli.c does; all on PoCL (--device cpu). */
/* mknod, S_IFCHR: XSI */
#define _XOPEN_SOURCE 700

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_run.h"
#include "tmpdir.h"

/* Lines of stderr that clmem wrote ("clmem: ..."); a compiler may add its own. */
static size_t clmem_lines(const char *s)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, "clmem:")) != NULL; p++)
        n += p == s || p[-1] == '\n';
    return n;
}

/* Entries of `dir` other than . and .. */
static size_t dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char path[512];
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        chmod(path, 0600);
        unlink(path);
    }
    closedir(d);
    chmod(dir, 0700);
    rmdir(dir);
}

/* Asserts exit code, one "clmem:" line holding `message` besides the
 * lines of `results` finished results, and that the scratch directory
 * `dir` holds `files` entries (no output, no temporary). */
static void expect_after(const struct outcome *o, int code, const char *message, const char *dir,
                         size_t files, size_t results)
{
    size_t said;
    const char *rest = other_lines(o->err, &said);
    if (o->code != code || !strstr(rest, message) || clmem_lines(rest) != 1 || said != results)
        fail_msg("expected exit %d and one line with '%s' after %zu results' lines; got exit %d, "
                 "stderr '%s'",
                 code, message, results, o->code, o->err);
    if (dir && dir_entries(dir) != files)
        fail_msg("'%s' holds %zu entries, expected %zu (a partial or temporary file?)", dir,
                 dir_entries(dir), files);
}

/* The same where nothing ran to the end: no result's line. */
static void expect(const struct outcome *o, int code, const char *message, const char *dir,
                   size_t files)
{
    expect_after(o, code, message, dir, files, 0);
}

static int running_as_root(void)
{
    return geteuid() == 0;
}

/* MPI where clmem has none, or where a command cannot use it: exit 2 at
 * once. mpirun is stood in for by its environment (a rank's variables). */
static void mpi_refusals_exit_2(void **state)
{
    (void)state;
    const char *const mpirun_env[] = {"OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "1",
                                      NULL};
    int with_mpi = strcmp(getenv("CLMEM_BUILT_WITH_MPI"), "true") == 0;
    struct outcome o;
    run_clmem(&o, mpirun_env, ARGS("tune", "matmul"));
    expect(&o, 2, "tune keeps one tuning database: start it without mpirun", NULL, 0);
    run_clmem(&o, NULL, ARGS("run", "matmul", "--variant", "tiled", "--panel", "8"));
    expect(&o, 2, "--panel is SUMMA's: use it with --summa", NULL, 0);
    run_clmem(&o, NULL, ARGS("run", "matmul", "--variant", "tiled", "--summa"));
    expect(&o, 2, with_mpi ? "--summa runs under mpirun" : "--summa needs clmem built with MPI",
           NULL, 0);
    if (!with_mpi) {
        /* An MPI build would start MPI here: that is test_mpi's. */
        run_clmem(&o, mpirun_env, ARGS("bench", "--workloads", "dot"));
        expect(&o, 2, "this clmem was built without MPI", NULL, 0);
    }
}

/* A usage error of `clmem peak` points to its own help (issue 17, item 8;
 * before, to 'clmem run --help', the command peak runs through). */
static void peak_usage_errors_point_to_peak_help(void **state)
{
    (void)state;
    struct outcome o;
    run_clmem(&o, NULL, ARGS("peak", "--bad"));
    expect(&o, 2, "unknown option '--bad' (see 'clmem peak --help')", NULL, 0);
    run_clmem(&o, NULL, ARGS("peak", "extra"));
    expect(&o, 2, "unexpected argument 'extra' (see 'clmem peak --help')", NULL, 0);
    run_clmem(&o, NULL, ARGS("run", "pi", "--bad"));
    expect(&o, 2, "unknown option '--bad' (see 'clmem run --help')", NULL, 0);
}

/* A size beyond one allocation, and one beyond the device's memory: exit 2
 * before any work, the --output file not created. */
static void size_beyond_device_exits_2_before_work(void **state)
{
    (void)state;
    static struct outcome o;
    char dir[] = "/tmp/clmem-faults-size-XXXXXX", out[128];
    assert_non_null(mkdtemp(dir));
    snprintf(out, sizeof out, "%s/r.json", dir);
    const char *small[] = {SMALL_POCL, NULL};
    char beyond[64];
    matmul_size_beyond_alloc(small, beyond, sizeof beyond);
    run_clmem_within(&o, small,
                     ARGS("run", "matmul", "--size", beyond, "--device", "cpu", "--output", out),
                     REFUSAL_LIMIT_S);
    expect(&o, 2, "can allocate at once", dir, 0);

    /* Three square matrices each within one allocation, together beyond
     * the device's memory (PoCL reports a share of the host's memory). */
    run_clmem_within(&o, NULL, ARGS("devices"), REFUSAL_LIMIT_S);
    assert_int_equal(o.code, 0);
    unsigned long long max_alloc = device_bytes(o.out, "max allocation"),
                       global = device_bytes(o.out, "global memory");
    unsigned long long side = 1;
    while ((side + 1) * (side + 1) * 4 <= max_alloc && (side + 1) * (side + 1) <= 0x7fffffffULL)
        side++;
    if (3 * side * side * 4 <= global) {
        print_message("skipped: three %llu^2 matrices fit this device's %llu bytes\n", side,
                      global);
    } else {
        char size[32];
        snprintf(size, sizeof size, "%llu", side);
        run_clmem_within(&o, NULL,
                         ARGS("run", "matmul", "--variant", "naive", "--size", size, "--device",
                              "cpu", "--output", out),
                         REFUSAL_LIMIT_S);
        expect(&o, 2, "bytes of device memory, more than the", dir, 0);
    }
    remove_dir(dir);
}

/* Missing directory, a directory without the file, an unreadable file or
 * directory: exit 2 before any work, for run and bench. */
static void kernel_dir_faults_exit_2(void **state)
{
    (void)state;
    static struct outcome o;
    char dir[] = "/tmp/clmem-faults-kdir-XXXXXX", out[128], kdir[128];
    assert_non_null(mkdtemp(dir));
    snprintf(out, sizeof out, "%s/r.json", dir);
    snprintf(kdir, sizeof kdir, "%s/cl", dir);
    assert_int_equal(mkdir(kdir, 0700), 0);

    run_clmem(&o, NULL,
              ARGS("run", "matmul", "--size", "8", "--device", "cpu", "--kernel-dir",
                   "/nonexistent-kernels", "--output", out));
    expect(&o, 2, "kernel directory '/nonexistent-kernels' (from --kernel-dir)", dir, 1);
    const char *env[] = {"CLMEM_KERNEL_DIR", "/nonexistent-kernels", NULL};
    run_clmem(&o, env, ARGS("bench", "--device", "cpu", "--workloads", "atomics"));
    expect(&o, 2, "(from CLMEM_KERNEL_DIR)", dir, 1);

    /* An empty directory: the file is missing. */
    run_clmem(&o, NULL,
              ARGS("run", "matmul", "--size", "8", "--device", "cpu", "--kernel-dir", kdir,
                   "--output", out));
    expect(&o, 2, "matmul.cl': No such file or directory", dir, 1);
    /* bench refuses before its peaks, not half-way through (peak.cl is
     * there, atomics.cl is not). */
    char path[256];
    snprintf(path, sizeof path, "%s/peak.cl", kdir);
    char *source_dir = getenv("CLMEM_SOURCE_CL");
    assert_non_null(source_dir);
    char from[256], cmd[700];
    snprintf(from, sizeof from, "%s/peak.cl", source_dir);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", from, path);
    assert_int_equal(system(cmd), 0);
    run_clmem(&o, NULL,
              ARGS("bench", "--device", "cpu", "--workloads", "atomics", "--kernel-dir", kdir,
                   "--output", out));
    expect(&o, 2, "atomics.cl': No such file or directory", dir, 1);
    assert_string_equal(o.out, "");

    /* Unreadable (chmod 000) file and directory. */
    snprintf(path, sizeof path, "%s/matmul.cl", kdir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("__kernel void k(void) {}\n", f);
    fclose(f);
    assert_int_equal(chmod(path, 0), 0);
    f = fopen(path, "r");
    if (f) {
        fclose(f);
        print_message("skipped: unreadable files (running as root, chmod 000 does not stop "
                      "reads)\n");
    } else {
        run_clmem(&o, NULL,
                  ARGS("run", "matmul", "--size", "8", "--device", "cpu", "--kernel-dir", kdir,
                       "--output", out));
        expect(&o, 2, "matmul.cl': Permission denied", dir, 1);
        assert_int_equal(chmod(kdir, 0), 0);
        run_clmem(&o, NULL,
                  ARGS("bench", "--device", "cpu", "--workloads", "atomics", "--kernel-dir", kdir));
        expect(&o, 2, "Permission denied", dir, 1);
        chmod(kdir, 0700);
    }
    remove_dir(kdir);
    remove_dir(dir);
}

/* A kernel that does not build: exit 3, one line naming the file, the
 * device and the options, then the build log; bench as well, where the
 * other workloads still run and the report is written whole. */
static void build_failure_exits_3_with_log(void **state)
{
    (void)state;
    static struct outcome o;
    char dir[] = "/tmp/clmem-faults-build-XXXXXX", out[128], path[256], cmd[700];
    assert_non_null(mkdtemp(dir));
    snprintf(out, sizeof out, "%s/b.json", dir);
    const char *source_dir = getenv("CLMEM_SOURCE_CL");
    assert_non_null(source_dir);
    snprintf(cmd, sizeof cmd, "cp '%s'/peak.cl '%s'/pi.cl '%s'/", source_dir, source_dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/atomics.cl", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("__kernel void racy_increment(__global int *c) { c[0] = no_such_thing; }\n", f);
    fclose(f);

    /* Each variant a FAILED result that says why (in the table and as its
     * line on stderr), the error once, exit 3. */
    run_clmem(&o, NULL,
              ARGS("run", "atomics", "--device", "cpu", "--size", "64", "--kernel-dir", dir));
    expect_after(&o, 3, "atomics.cl' for '", dir, 3, 3);
    assert_non_null(strstr(o.err, "failed with CL_BUILD_PROGRAM_FAILURE"));
    assert_non_null(strstr(o.err, "build log:\n"));
    assert_non_null(strstr(o.err, "no_such_thing"));
    assert_non_null(strstr(o.out, "racy"));
    assert_non_null(strstr(o.out, "FAILED: building '"));
    assert_non_null(strstr(o.out, "FAILED: not run: racy stopped the run: "));

    /* The suite goes on past it, and its file holds atomics' variants as
     * FAILED with the error, never leaves them out. */
    run_clmem(&o, NULL,
              ARGS("bench", "--device", "cpu", "--reps", "1", "--workloads", "atomics,pi",
                   "--kernel-dir", dir, "--output", out));
    static char json[65536];
    slurp(out, json, sizeof json);
    cJSON *root = cJSON_Parse(json);
    assert_non_null(root);
    const cJSON *r, *list = cJSON_GetObjectItem(root, "results");
    int results = cJSON_GetArraySize(list), failed = 0;
    assert_true(results > 0);
    cJSON_ArrayForEach(r, list)
    {
        const char *workload = cJSON_GetStringValue(cJSON_GetObjectItem(r, "workload"));
        const char *status = cJSON_GetStringValue(cJSON_GetObjectItem(r, "status"));
        const char *error = cJSON_GetStringValue(cJSON_GetObjectItem(r, "error"));
        if (strcmp(workload, "atomics") != 0) {
            assert_string_equal(status, "ok");
            continue;
        }
        failed++;
        assert_string_equal(status, "FAILED");
        assert_non_null(error);
        assert_non_null(strstr(error, "CL_BUILD_PROGRAM_FAILURE"));
        assert_null(cJSON_GetObjectItem(r, "samples_ms"));
    }
    assert_int_equal(failed, 3);
    cJSON_Delete(root);
    expect_after(&o, 3, "clmem: atomics at ", dir, 4, (size_t)results);
    assert_non_null(strstr(o.err, "build log:\n"));
    assert_non_null(strstr(o.err, "no_such_thing"));
    assert_non_null(strstr(o.out, "device_rng"));

    /* The gate: against a run of the kernels that build, the diff counts
     * the three as failed, a regression (exit 4), whatever the threshold,
     * and with --workloads naming atomics alone. */
    char base[128];
    snprintf(base, sizeof base, "%s/base.json", dir);
    run_clmem(&o, NULL,
              ARGS("bench", "--device", "cpu", "--reps", "1", "--workloads", "atomics",
                   "--kernel-dir", source_dir, "--output", base, "--quiet"));
    assert_int_equal(o.code, 0);
    run_clmem(&o, NULL, ARGS("diff", base, out, "--threshold", "1000"));
    assert_int_equal(o.code, 4);
    assert_non_null(strstr(o.out, "3 failed"));
    run_clmem(&o, NULL, ARGS("diff", base, out, "--workloads", "atomics"));
    assert_int_equal(o.code, 4);
    assert_non_null(strstr(o.out, "3 failed: a regression"));
    /* compare counts them too. */
    char report[128];
    snprintf(report, sizeof report, "%s/report", dir);
    run_clmem(&o, NULL, ARGS("compare", base, out, "--output-dir", report));
    assert_int_equal(o.code, 0);
    snprintf(path, sizeof path, "%s/report.md", report);
    static char md[1 << 20];
    slurp(path, md, sizeof md);
    assert_non_null(strstr(md, "3 FAILED"));
    remove_dir(report);
    remove_dir(dir);
}

/* No OpenCL platform at all: exit 3 with the install hint, for every
 * command that needs a device, and no output file. */
static void no_platform_exits_3_with_hint(void **state)
{
    (void)state;
    static struct outcome o;
    char dir[] = "/tmp/clmem-faults-noicd-XXXXXX", out[128];
    assert_non_null(mkdtemp(dir));
    snprintf(out, sizeof out, "%s/r.json", dir);
    const char *env[] = {"OCL_ICD_VENDORS", dir, NULL};
    const char *const *const commands[] = {
        ARGS("run", "matmul", "--size", "8", "--output", "OUT"),
        ARGS("bench", "--output", "OUT"),
        ARGS("peak"),
        ARGS("devices"),
    };
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        const char *args[16];
        size_t n = 0;
        for (; commands[i][n]; n++)
            args[n] = strcmp(commands[i][n], "OUT") == 0 ? out : commands[i][n];
        args[n] = NULL;
        run_clmem(&o, env, args);
        expect(&o, 3,
               "no OpenCL device found (install one: on Debian/Ubuntu 'sudo apt-get "
               "install pocl-opencl-icd' gives a CPU device)",
               dir, 0);
        assert_int_equal(count_lines(o.err), 1);
    }
    remove_dir(dir);
}

/* An output that cannot be written: before the work (exit 2, nothing run),
 * and after it (exit 2, the message names the file, no file left). */
static void unwritable_output_exits_2_and_leaves_nothing(void **state)
{
    (void)state;
    static struct outcome o;
    char dir[] = "/tmp/clmem-faults-out-XXXXXX", out[128];
    assert_non_null(mkdtemp(dir));

    /* Before work: a directory, a missing directory. */
    run_clmem(&o, NULL, ARGS("run", "matmul", "--size", "8", "--device", "cpu", "--output", dir));
    expect(&o, 2, "cannot write '", dir, 0);
    assert_non_null(strstr(o.err, "Is a directory"));
    snprintf(out, sizeof out, "%s/no/r.json", dir);
    run_clmem(&o, NULL, ARGS("bench", "--device", "cpu", "--workloads", "pi", "--output", out));
    expect(&o, 2, "No such file or directory", dir, 0);
    assert_string_equal(o.out, "");
    /* A file of /proc: exists, but no file can be made beside it (issue
     * 17, item 8; before: 'No such file or directory'). */
    run_clmem(&o, NULL,
              ARGS("run", "matmul", "--size", "8", "--device", "cpu", "--output", "/proc/version"));
    expect(&o, 2, "cannot write '/proc/version': cannot create its temporary file in '/proc'", dir,
           0);
    /* A directory that is not writable (not for root, whom it does not stop). */
    if (running_as_root()) {
        print_message("skipped: a read-only directory (running as root, it does not stop "
                      "writes)\n");
    } else {
        snprintf(out, sizeof out, "%s/ro", dir);
        assert_int_equal(mkdir(out, 0500), 0);
        snprintf(out, sizeof out, "%s/ro/r.json", dir);
        run_clmem(&o, NULL,
                  ARGS("run", "matmul", "--size", "8", "--device", "cpu", "--output", out));
        expect(&o, 2, "Permission denied", NULL, 0);
        snprintf(out, sizeof out, "%s/ro", dir);
        assert_int_equal(dir_entries(out), 0);
        rmdir(out);
    }

    /* After the work: a full device. The report cannot be written; the
     * device must be written to, never replaced by a file (as root,
     * renaming a temporary file over /dev/full would replace the device):
     * as root the test uses a node of its own, so a regression cannot
     * break the machine's /dev/full. */
    const char *full = "/dev/full";
    char node[128];
    snprintf(node, sizeof node, "%s/full", dir);
    if (running_as_root()) {
        if (mknod(node, S_IFCHR | 0666, makedev(1, 7)) != 0) {
            print_message("skipped: writing to a full device (as root, and mknod failed: %s)\n",
                          strerror(errno));
            full = NULL;
        } else {
            full = node;
        }
    }
    if (full) {
        const char *const *const commands[] = {
            ARGS("run", "matmul", "--variant", "naive", "--size", "8", "--device", "cpu",
                 "--output", "FULL"),
            ARGS("run", "matmul", "--variant", "naive", "--size", "8", "--device", "cpu",
                 "--format", "json", "--output", "FULL"),
            ARGS("bench", "--device", "cpu", "--reps", "1", "--workloads", "pi", "--output",
                 "FULL"),
        };
        for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
            const char *args[20];
            size_t n = 0;
            for (; commands[i][n]; n++)
                args[n] = strcmp(commands[i][n], "FULL") == 0 ? full : commands[i][n];
            args[n] = NULL;
            run_clmem(&o, NULL, args);
            char message[200];
            snprintf(message, sizeof message, "cannot write '%s': No space left on device", full);
            /* The results were said as they finished: matmul's one, or
             * the peaks' and pi's. */
            size_t results =
                strcmp(args[0], "bench") == 0 ? device_peak_count() + variant_count("pi") : 1;
            expect_after(&o, 2, message, dir, full == node ? 1 : 0, results);
            struct stat st;
            assert_int_equal(stat(full, &st), 0);
            assert_true(S_ISCHR(st.st_mode));
        }
    }
    remove_dir(dir);
}

/* The one regular file in `dir` (a program-cache entry), into `path`. */
static void only_file(const char *dir, char *path, size_t size)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    path[0] = '\0';
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.')
            snprintf(path, size, "%s/%s", dir, e->d_name);
    closedir(d);
    assert_true(path[0] != '\0');
}

static size_t count_of(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, what)) != NULL; p++)
        n++;
    return n;
}

/* A small run that builds one program (atomics.cl), tracing builds. */
#define CACHE_RUN                                                                                  \
    ARGS("run", "atomics", "--variant", "atomic_global", "--size", "1000", "--reps", "1",          \
         "--warmup", "0", "--device", "cpu")

/* Runs CACHE_RUN; asserts exit 0 and whether the program came from the
 * cache, and with `warning`, one warning holding it (else none). */
static void cache_run(const char *const env[], int hit, const char *warning)
{
    static struct outcome o;
    run_clmem(&o, env, CACHE_RUN);
    int loaded = strstr(o.err, "from the cache") != NULL;
    size_t warnings = count_of(o.err, "clmem: warning:");
    if (o.code != 0 || loaded != hit || warnings != (warning ? 1u : 0u) ||
        (warning && !strstr(o.err, warning)))
        fail_msg("expected exit 0, %s the cache, %s '%s'; got exit %d, stderr '%s'",
                 hit ? "loaded from" : "not loaded from", warning ? "a warning with" : "no warning",
                 warning ? warning : "", o.code, o.err);
}

static mode_t mode_of(const char *path)
{
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    return st.st_mode & 07777;
}

/* The compiled-program cache trusts only what the user alone can write
 * (issue 17, item 11): its directories are made 0700; an entry, or the
 * directory of entries, that belongs to another user (nobody, uid 65534)
 * or that group or others can write is not loaded: one warning, the
 * program built from source. A missing HOME is never created: no cache. */
static void untrusted_cache_is_not_loaded(void **state)
{
    (void)state;
    char dir[] = "/tmp/clmem-faults-cache-XXXXXX", programs[128], entry[512], home[160];
    assert_non_null(mkdtemp(dir));
    const char *env[] = {"XDG_CACHE_HOME", dir, "CLMEM_DEBUG", "1", NULL};
    snprintf(programs, sizeof programs, "%s/clmem", dir);
    cache_run(env, 0, NULL);
    assert_int_equal(mode_of(programs), 0700);
    snprintf(programs, sizeof programs, "%s/clmem/programs", dir);
    assert_int_equal(mode_of(programs), 0700);
    cache_run(env, 1, NULL);
    only_file(programs, entry, sizeof entry);

    if (chown(entry, 65534, 65534) != 0) {
        print_message("skipped: an entry of another user (chown to nobody failed: %s; run as "
                      "root)\n",
                      strerror(errno));
    } else {
        /* Not loaded, replaced by the user's own, which the next run loads. */
        cache_run(env, 0, "belongs to uid 65534");
        cache_run(env, 1, NULL);
        assert_int_equal(chown(programs, 65534, 65534), 0);
        cache_run(env, 0, "belongs to uid 65534");
        cache_run(env, 0, "belongs to uid 65534");
        assert_int_equal(chown(programs, geteuid(), getegid()), 0);
        cache_run(env, 1, NULL);
    }
    /* Writable by others, or by the group alone (which a check of others'
     * write only would pass): the entry, then the directory. */
    static const mode_t entry_modes[] = {0666, 0620}, dir_modes[] = {0777, 0770};
    for (size_t i = 0; i < 2; i++) {
        char why[64];
        only_file(programs, entry, sizeof entry);
        assert_int_equal(chmod(entry, entry_modes[i]), 0);
        snprintf(why, sizeof why, "writable by group or others (mode %04o)",
                 (unsigned)entry_modes[i]);
        cache_run(env, 0, why);
        cache_run(env, 1, NULL);
        assert_int_equal(chmod(programs, dir_modes[i]), 0);
        snprintf(why, sizeof why, "writable by group or others (mode %04o)",
                 (unsigned)dir_modes[i]);
        cache_run(env, 0, why);
        assert_int_equal(chmod(programs, 0700), 0);
        cache_run(env, 1, NULL);
    }

    /* HOME missing, no XDG_CACHE_HOME: no cache, said once under
     * CLMEM_DEBUG, and HOME not created (PoCL's own cache elsewhere: it
     * would make $HOME/.cache/pocl). */
    char pocl[160];
    snprintf(home, sizeof home, "%s/no-home", dir);
    snprintf(pocl, sizeof pocl, "%s/pocl", dir);
    const char *no_home[] = {
        "HOME", home, "XDG_CACHE_HOME", "", "CLMEM_DEBUG", "1", "POCL_CACHE_DIR", pocl, NULL};
    static struct outcome o;
    run_clmem(&o, no_home, CACHE_RUN);
    assert_int_equal(o.code, 0);
    if (count_of(o.err, "no program cache") != 1 || access(home, F_OK) == 0)
        fail_msg("HOME '%s' %s; stderr '%s'", home,
                 access(home, F_OK) == 0 ? "was created" : "missing", o.err);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* tune checks where it will keep its database before any search (issue
 * 17, item 5): $XDG_CACHE_HOME/clmem a regular file, a directory others
 * can write (runs would ignore the database), tuning.json a FIFO, a HOME
 * that does not exist (not created): exit 2, and no candidate measured. */
static void tune_checks_its_database_place_first(void **state)
{
    (void)state;
    static struct outcome o;
    char dir[] = "/tmp/clmem-faults-tune-XXXXXX", path[160], home[160];
    assert_non_null(mkdtemp(dir));
    const char *env[] = {"XDG_CACHE_HOME", dir, NULL};
#define TUNE ARGS("tune", "matmul", "--device", "cpu", "--size", "33", "--max-candidates", "1")
    snprintf(path, sizeof path, "%s/clmem", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    run_clmem(&o, env, TUNE);
    expect(&o, 2, "cannot make the tuning directory", NULL, 0);
    assert_non_null(strstr(o.err, "Not a directory"));
    assert_string_equal(o.out, "");
    assert_int_equal(unlink(path), 0);

    assert_int_equal(mkdir(path, 0700), 0);
    assert_int_equal(chmod(path, 0777), 0);
    run_clmem(&o, env, TUNE);
    expect(&o, 2, "writable by group or others (mode 0777)", NULL, 0);
    assert_string_equal(o.out, "");
    assert_int_equal(chmod(path, 0700), 0);

    snprintf(path, sizeof path, "%s/clmem/tuning.json", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    run_clmem(&o, env, TUNE);
    expect(&o, 2, "is a FIFO, not a regular file", NULL, 0);
    assert_string_equal(o.out, "");

    snprintf(home, sizeof home, "%s/no-home", dir);
    const char *no_home[] = {"HOME", home, "XDG_CACHE_HOME", "", "POCL_CACHE_DIR", NULL, NULL};
    run_clmem(&o, no_home, TUNE);
    expect(&o, 2, "no place for the tuning database", NULL, 0);
    assert_string_equal(o.out, "");
    assert_int_equal(access(home, F_OK), -1);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* A small run whose CSV report starts with this header. */
#define CSV_RUN(out)                                                                               \
    ARGS("run", "atomics", "--variant", "atomic_global", "--size", "1000", "--reps", "1",          \
         "--warmup", "0", "--device", "cpu", "--format", "csv", "--output", out)
#define CSV_HEADER "workload,variant,device,size,"

/* `link` is still a symbolic link to `to`, and `target` holds the report. */
static void expect_link_and_report(const char *link, const char *to, const char *target)
{
    struct stat st;
    char text[512];
    ssize_t n = readlink(link, text, sizeof text - 1);
    if (lstat(link, &st) != 0 || !S_ISLNK(st.st_mode) || n < 0)
        fail_msg("'%s' is no longer a symbolic link", link);
    text[n] = '\0';
    assert_string_equal(text, to);
    static char report[4096];
    slurp(target, report, sizeof report);
    if (strncmp(report, CSV_HEADER, strlen(CSV_HEADER)) != 0)
        fail_msg("'%s' does not hold the report: '%.100s'", target, report);
}

/* An --output that is a symbolic link (issue 17, item 1): the link's
 * target gets the report, written whole beside it, and the link stays a
 * link (before, the temporary file was renamed over the link): to a file
 * in the same directory, in another one, a dangling link whose target's
 * directory exists; /proc/self/fd/1, as /dev/stdout leads, with stdout a
 * file: that file gets the report. */
static void output_through_symlink_keeps_the_link(void **state)
{
    (void)state;
    static struct outcome o;
    char dir[] = "/tmp/clmem-faults-link-XXXXXX", other[] = "/tmp/clmem-faults-link2-XXXXXX";
    char link[160], target[160];
    assert_non_null(mkdtemp(dir));
    assert_non_null(mkdtemp(other));

    snprintf(target, sizeof target, "%s/report.csv", dir);
    FILE *f = fopen(target, "w");
    assert_non_null(f);
    fputs("old\n", f);
    fclose(f);
    snprintf(link, sizeof link, "%s/link.csv", dir);
    assert_int_equal(symlink("report.csv", link), 0);
    run_clmem(&o, NULL, CSV_RUN(link));
    assert_int_equal(o.code, 0);
    expect_link_and_report(link, "report.csv", target);
    assert_int_equal(dir_entries(dir), 2);

    snprintf(target, sizeof target, "%s/elsewhere.csv", other);
    snprintf(link, sizeof link, "%s/away.csv", dir);
    assert_int_equal(symlink(target, link), 0);
    run_clmem(&o, NULL, CSV_RUN(link));
    assert_int_equal(o.code, 0);
    expect_link_and_report(link, target, target);
    assert_int_equal(dir_entries(other), 1);

    /* Dangling: the target is made; its directory missing: exit 2. */
    snprintf(target, sizeof target, "%s/new.csv", other);
    snprintf(link, sizeof link, "%s/dangling.csv", dir);
    assert_int_equal(symlink(target, link), 0);
    run_clmem(&o, NULL, CSV_RUN(link));
    assert_int_equal(o.code, 0);
    expect_link_and_report(link, target, target);
    snprintf(link, sizeof link, "%s/nowhere.csv", dir);
    assert_int_equal(symlink("no-such-dir/x.csv", link), 0);
    run_clmem(&o, NULL, CSV_RUN(link));
    expect(&o, 2, "No such file or directory", dir, 5);

    /* stdout is a file here (cli_run.c): a link of the test's own first,
     * so that a regression replaces it, not the machine's /dev/stdout. */
    snprintf(link, sizeof link, "%s/stdout", dir);
    assert_int_equal(symlink("/proc/self/fd/1", link), 0);
    run_clmem(&o, NULL, CSV_RUN(link));
    assert_int_equal(o.code, 0);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(strncmp(o.out, CSV_HEADER, strlen(CSV_HEADER)), 0);
    assert_int_equal(dir_entries(dir), 6);
    run_clmem(&o, NULL, CSV_RUN("/dev/stdout"));
    assert_int_equal(o.code, 0);
    assert_int_equal(strncmp(o.out, CSV_HEADER, strlen(CSV_HEADER)), 0);
    assert_int_equal(lstat("/dev/stdout", &st), 0);
    assert_true(S_ISLNK(st.st_mode));

    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", dir, other);
    assert_int_equal(system(cmd), 0);
}

/* A report written over an existing file keeps that file's mode (a 0600
 * report stays private; the temporary file it is renamed from was made with
 * a new file's mode), a new one gets 0666 less the umask, and a file the
 * user may not write is refused (exit 2) and left as it was. */
static void replaced_output_keeps_its_mode(void **state)
{
    (void)state;
    static struct outcome o;
    char dir[] = "/tmp/clmem-faults-mode-XXXXXX", path[160], text[256];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/private.csv", dir);
    assert_int_equal(chmod(test_write_file(path, "old\n"), 0600), 0);
    run_clmem(&o, NULL, CSV_RUN(path));
    assert_int_equal(o.code, 0);
    slurp(path, text, sizeof text);
    assert_true(strncmp(text, CSV_HEADER, strlen(CSV_HEADER)) == 0);
    assert_int_equal(mode_of(path), 0600);

    mode_t mask = umask(022);
    snprintf(path, sizeof path, "%s/new.csv", dir);
    run_clmem(&o, NULL, CSV_RUN(path));
    umask(mask);
    assert_int_equal(o.code, 0);
    assert_int_equal(mode_of(path), 0644);

    /* Root may write any file: the refusal is checked as another user only. */
    if (!running_as_root()) {
        snprintf(path, sizeof path, "%s/readonly.csv", dir);
        assert_int_equal(chmod(test_write_file(path, "keep\n"), 0444), 0);
        run_clmem(&o, NULL, CSV_RUN(path));
        expect(&o, 2, "Permission denied", NULL, 0);
        slurp(path, text, sizeof text);
        assert_string_equal(text, "keep\n");
    }
    assert_int_equal(dir_entries(dir), running_as_root() ? 2 : 3);
    remove_dir(dir);
}

/* An output name of 250 characters (issue 17, item 8): its temporary file's
 * name stays within 255 (before, NAME.tmp.XXXXXX was too long: exit 2). */
static void long_output_name_is_written(void **state)
{
    (void)state;
    static struct outcome o;
    char dir[] = "/tmp/clmem-faults-long-XXXXXX", out[400];
    assert_non_null(mkdtemp(dir));
    int n = snprintf(out, sizeof out, "%s/", dir);
    memset(out + n, 'r', 246);
    strcpy(out + n + 246, ".csv");
    run_clmem(&o, NULL, CSV_RUN(out));
    if (o.code != 0)
        fail_msg("exit %d, stderr '%s'", o.code, o.err);
    static char report[4096];
    slurp(out, report, sizeof report);
    assert_int_equal(strncmp(report, CSV_HEADER, strlen(CSV_HEADER)), 0);
    assert_int_equal(dir_entries(dir), 1);
    remove_dir(dir);
}

/* An image --output that cannot be written (issue 17, item 3): exit 2
 * before the device is opened, as a report's --output (before, blur ran
 * and failed writing after the work). With no OpenCL platform, opening the
 * device would exit 3: a writable image output gets that far. */
static void unwritable_image_output_exits_2_before_device(void **state)
{
    (void)state;
    static struct outcome o;
    char dir[] = "/tmp/clmem-faults-image-XXXXXX", none[] = "/tmp/clmem-faults-noicd-XXXXXX";
    char out[160];
    assert_non_null(mkdtemp(dir));
    assert_non_null(mkdtemp(none));
    const char *env[] = {"OCL_ICD_VENDORS", none, NULL};
#define BLUR_TO(out) ARGS("run", "blur", "--size", "17x9", "--device", "cpu", "--output", out)
    snprintf(out, sizeof out, "%s/no/blurred.pgm", dir);
    run_clmem(&o, env, BLUR_TO(out));
    expect(&o, 2, "No such file or directory", dir, 0);
    snprintf(out, sizeof out, "%s/blurred.pgm", dir);
    assert_int_equal(mkdir(out, 0700), 0);
    run_clmem(&o, env, BLUR_TO(out));
    expect(&o, 2, "Is a directory", dir, 1);
    assert_int_equal(rmdir(out), 0);
    if (running_as_root()) {
        print_message("skipped: a read-only directory (running as root, it does not stop "
                      "writes)\n");
    } else {
        assert_int_equal(chmod(dir, 0500), 0);
        run_clmem(&o, env, BLUR_TO(out));
        expect(&o, 2, "Permission denied", dir, 0);
        assert_int_equal(chmod(dir, 0700), 0);
    }
    run_clmem(&o, env, BLUR_TO(out));
    expect(&o, 3, "no OpenCL device found", dir, 0);
    remove_dir(dir);
    remove_dir(none);
}

/* Sends `sig` to a clmem run at its first kernel launch (a CLMEM_DEBUG=2
 * line: a progress event, not a fixed time); returns its outcome. */
static void interrupt_at_launch(struct outcome *o, const char *const args[], int sig)
{
    struct child c;
    const char *env[] = {"CLMEM_DEBUG", "2", NULL};
    start_clmem(&c, env, args);
    int launched = wait_for_stderr(&c, "clmem: launch ", 300);
    kill(c.pid, sig);
    finish_clmem(&c, o);
    if (!launched)
        fail_msg("no kernel launch seen: exit %d, stderr '%.300s'", o->code, o->err);
}

/* As expect_after(), the launch lines of CLMEM_DEBUG=2 left out. */
static void expect_interrupted(const struct outcome *o, int code, const char *dir, size_t files,
                               size_t results)
{
    size_t said;
    const char *rest = other_lines(o->err, &said);
    size_t lines = clmem_lines(rest);
    for (const char *p = rest; (p = strstr(p, "clmem: launch ")) != NULL; p++)
        lines -= p == rest || p[-1] == '\n';
    if (o->code != code || !strstr(rest, "clmem: interrupted: ") || lines != 1 || said != results)
        fail_msg("expected exit %d and one line 'clmem: interrupted: ...' after %zu results' "
                 "lines; got exit %d, stderr '%s'",
                 code, results, o->code, o->err);
    if (dir && dir_entries(dir) != files)
        fail_msg("'%s' holds %zu entries, expected %zu (a partial or temporary file?)", dir,
                 dir_entries(dir), files);
}

/* The JSON report in `path`: interrupted, with results, none of `absent`. */
static size_t check_interrupted_json(const char *path, const char *absent)
{
    static char json[1 << 20];
    slurp(path, json, sizeof json);
    cJSON *root = cJSON_Parse(json);
    if (!root)
        fail_msg("'%s' is not JSON: '%.200s'", path, json);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(root, "interrupted")));
    cJSON *results = cJSON_GetObjectItem(root, "results");
    size_t n = (size_t)cJSON_GetArraySize(results);
    assert_true(n > 0);
    for (cJSON *r = results->child; r; r = r->next) {
        const char *workload = cJSON_GetStringValue(cJSON_GetObjectItem(r, "workload"));
        assert_non_null(workload);
        if (absent && strcmp(workload, absent) == 0)
            fail_msg("'%s' ran to the end: the interruption did not stop it", absent);
        /* Every result kept is whole: a finished variant. */
        assert_non_null(cJSON_GetObjectItem(r, "status"));
    }
    cJSON_Delete(root);
    return n;
}

/* Ctrl-C during bench and run, sent at the first kernel launch: the
 * current variant finishes, the results that finished are written whole
 * (JSON "interrupted": true), exit 130; SIGTERM the same with 143. Only
 * what the rule promises is checked: the variant being launched finished,
 * what comes after it did not start. */
static void interrupt_keeps_finished_results(void **state)
{
    (void)state;
    static struct outcome o;
    char dir[] = "/tmp/clmem-faults-int-XXXXXX", out[128];
    assert_non_null(mkdtemp(dir));
    snprintf(out, sizeof out, "%s/b.json", dir);
    /* The first launch is the peaks'; pitched is the last workload. */
    interrupt_at_launch(&o,
                        ARGS("bench", "--device", "cpu", "--reps", "1", "--workloads",
                             "transpose,pi,atomics,reduce,dot,constmem,coalescing,pitched",
                             "--output", out),
                        SIGINT);
    size_t n = check_interrupted_json(out, "pitched");
    /* Each result kept was said as it finished. */
    expect_interrupted(&o, 130, dir, 1, n);
    assert_non_null(strstr(o.err, "that finished (in '"));
    print_message("bench interrupted at its first launch kept %zu results\n", n);
    unlink(out);

    /* run: coalescing has 132 sweep points. */
    snprintf(out, sizeof out, "%s/r.json", dir);
    interrupt_at_launch(&o,
                        ARGS("run", "coalescing", "--device", "cpu", "--reps", "1", "--format",
                             "json", "--output", out),
                        SIGINT);
    n = check_interrupted_json(out, NULL);
    expect_interrupted(&o, 130, dir, 1, n);
    assert_true(n < 132);
    print_message("run interrupted at its first launch kept %zu of 132 results\n", n);
    unlink(out);

    interrupt_at_launch(&o, ARGS("run", "coalescing", "--device", "cpu", "--reps", "1"), SIGTERM);
    /* The table's rows, one per result kept. */
    size_t rows = 0;
    for (const char *p = o.out; (p = strstr(p, "\ncoalescing ")) != NULL; p++)
        rows++;
    expect_interrupted(&o, 143, dir, 0, rows);
    assert_non_null(strstr(o.out, "offset_float"));
    remove_dir(dir);
}

/* Ctrl-C during tune: exit 130 and one line saying that the variant being
 * tuned kept nothing (not "reported the 0 results", a run's words); no
 * tuning database written. */
static void interrupted_tune_says_nothing_kept(void **state)
{
    (void)state;
    static struct outcome o;
    char dir[] = "/tmp/clmem-faults-tune-int-XXXXXX", path[160];
    assert_non_null(mkdtemp(dir));
    const char *env[] = {"CLMEM_DEBUG", "2", "XDG_CACHE_HOME", dir, NULL};
    struct child c;
    start_clmem(&c, env,
                ARGS("tune", "matmul", "--variant", "regblock", "--size", "33", "--device", "cpu",
                     "--max-candidates", "3"));
    int launched = wait_for_stderr(&c, "clmem: launch ", 300);
    kill(c.pid, SIGINT);
    finish_clmem(&c, &o);
    if (!launched)
        fail_msg("no kernel launch seen: exit %d, stderr '%.300s'", o.code, o.err);
    expect_interrupted(&o, 130, NULL, 0, 0);
    assert_non_null(strstr(o.err, "clmem: interrupted: nothing kept for the variant being tuned"));
    snprintf(path, sizeof path, "%s/clmem/tuning.json", dir);
    assert_int_equal(access(path, F_OK), -1);
    remove_dir(dir);
}

int main(int argc, char **argv)
{
    stop_signals_default(); /* the runs here are sent signals */
    /* One test by name (or a pattern): test_NAME TEST. */
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(size_beyond_device_exits_2_before_work),
        cmocka_unit_test(mpi_refusals_exit_2),
        cmocka_unit_test(peak_usage_errors_point_to_peak_help),
        cmocka_unit_test(kernel_dir_faults_exit_2),
        cmocka_unit_test(build_failure_exits_3_with_log),
        cmocka_unit_test(no_platform_exits_3_with_hint),
        cmocka_unit_test(unwritable_output_exits_2_and_leaves_nothing),
        cmocka_unit_test(interrupt_keeps_finished_results),
        cmocka_unit_test(interrupted_tune_says_nothing_kept),
        cmocka_unit_test(untrusted_cache_is_not_loaded),
        cmocka_unit_test(tune_checks_its_database_place_first),
        cmocka_unit_test(output_through_symlink_keeps_the_link),
        cmocka_unit_test(replaced_output_keeps_its_mode),
        cmocka_unit_test(long_output_name_is_written),
        cmocka_unit_test(unwritable_image_output_exits_2_before_device),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
