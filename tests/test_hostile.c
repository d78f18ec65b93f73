/* Hostile environments and inputs, run as a user runs clmem ($CLMEM_BIN,
 * PoCL's CPU device): stdout that cannot be written, kernel sources that
 * are no regular files, a kernel that crashes the device, PoCL's cache
 * where it cannot be made, a missing HOME. Each ends with its documented
 * exit code and one line saying why, leaving nothing behind. */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE /* wait4 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_run.h"
#include "tmpdir.h"

/* Lines of stderr that clmem wrote ("clmem: ..."). */
static size_t clmem_lines(const char *s)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, "clmem:")) != NULL; p++)
        n += p == s || p[-1] == '\n';
    return n;
}

/* ---- stdout that cannot be written ---- */

/* stdout on a full disk (/dev/full): exit 2 and one line for every
 * command, never 0 as if the output had been seen. */
static void unwritable_stdout_exits_2(void **state)
{
    (void)state;
    static struct outcome o;
    char report_dir[512];
    snprintf(report_dir, sizeof report_dir, "%s/report", test_dir());
    const char *const *const commands[] = {
        ARGS("--help"),
        ARGS("--version"),
        ARGS("list"),
        ARGS("list", "--help"),
        /* Longer than stdio's buffer: the write that failed was the first,
         * the errno lost by the last flush ("Input/output error"). */
        ARGS("help", "run"),
        ARGS("run", "--help"),
        ARGS("devices"),
        ARGS("run", "pi", "--size", "4096", "--device", "cpu", "--reps", "1"),
        ARGS("tune", "reduce", "--device", "cpu", "--variant", "one_pass", "--size", "4096",
             "--max-candidates", "2", "--reps", "1"),
        ARGS("compare", test_bench_file("pocl-2core.json"), "--output-dir", report_dir),
        ARGS("diff", test_bench_file("pocl-2core.json"), test_bench_file("pocl-2core.json")),
    };
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        run_clmem_to_within(&o, NULL, commands[i], "/dev/full", 300);
        /* run pi says each variant's result as it finishes, before the report. */
        size_t results = commands[i][1] && strcmp(commands[i][0], "run") == 0 &&
                                 strcmp(commands[i][1], "pi") == 0
                             ? variant_count("pi")
                             : 0,
               said;
        const char *rest = other_lines(o.err, &said);
        if (o.code != 2 || clmem_lines(rest) != 1 || !strstr(rest, "No space left on device") ||
            said != results)
            fail_msg("'%s %s' > /dev/full: exit %d, stderr '%s'", commands[i][0],
                     commands[i][1] ? commands[i][1] : "", o.code, o.err);
    }
    test_remove_tree(report_dir);
}

/* ---- kernel sources that are no files ---- */

/* A .cl (of a workload with one source) that is a directory, a FIFO with no writer, more than 4
 * MiB, a link to /dev/zero: exit 2 before any work, one line saying what it is, within seconds (the
 * FIFO blocked for ever, /dev/zero grew clmem to 23 GB). */
static void kernel_source_not_a_file_exits_2(void **state)
{
    (void)state;
    static struct outcome o;
    char kdir[512], path[600];
    snprintf(kdir, sizeof kdir, "%s/cl", test_dir());
    assert_int_equal(mkdir(kdir, 0700), 0);
    const struct {
        const char *workload, *file, *says;
    } cases[] = {
        {"constmem", "constmem.cl", "it is a directory"},
        {"pi", "pi.cl", "it is a FIFO"},
        {"atomics", "atomics.cl", "larger than the 4 MiB"},
        {"coalescing", "coalescing.cl", "it is a device"},
    };
    /* bench's peaks need peak.cl, a real one. */
    const char *source_dir = getenv("CLMEM_SOURCE_CL");
    assert_non_null(source_dir);
    char from[512];
    snprintf(from, sizeof from, "%s/peak.cl", source_dir);
    snprintf(path, sizeof path, "%s/peak.cl", kdir);
    char *peak = test_read_file(from);
    assert_non_null(peak);
    test_write_file(path, peak);
    free(peak);
    snprintf(path, sizeof path, "%s/constmem.cl", kdir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/pi.cl", kdir);
    assert_int_equal(mkfifo(path, 0600), 0);
    snprintf(path, sizeof path, "%s/atomics.cl", kdir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; i < (5 << 20) / 64; i++)
        fputs("/* a comment, over and over, until past the cap of 4 MiB ...  */\n", f);
    assert_int_equal(fclose(f), 0);
    snprintf(path, sizeof path, "%s/coalescing.cl", kdir);
    assert_int_equal(symlink("/dev/zero", path), 0);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        run_clmem_within(&o, NULL,
                         ARGS("run", cases[i].workload, "--device", "cpu", "--kernel-dir", kdir),
                         REFUSAL_LIMIT_S);
        if (o.code != 2 || clmem_lines(o.err) != 1 || !strstr(o.err, cases[i].file) ||
            !strstr(o.err, cases[i].says))
            fail_msg("%s: exit %d, stderr '%s' (expected 2 and '%s')", cases[i].file, o.code, o.err,
                     cases[i].says);
        /* bench checks every source before its peaks. */
        run_clmem_within(&o, NULL,
                         ARGS("bench", "--device", "cpu", "--workloads", cases[i].workload,
                              "--kernel-dir", kdir),
                         REFUSAL_LIMIT_S);
        if (o.code != 2 || !strstr(o.err, cases[i].says) || o.out[0])
            fail_msg("bench %s: exit %d, stderr '%s'", cases[i].file, o.code, o.err);
    }
    test_remove_tree(kdir);
}

/* ---- a kernel that crashes the device ---- */

/* atomics.cl whose racy kernel writes gigabytes past its buffer. */
static const char crashing_atomics[] =
    "#ifndef WG_SIZE\n#define WG_SIZE 256\n#endif\n"
    "__kernel void add(__global int *a_d, uint n)\n"
    "{ a_d[((ulong)get_global_id(0) + n) << 36] = 1; }\n"
    "__kernel void addAtomic(__global int *a_d, uint n)\n"
    "{ if (get_global_id(0) < n) atomic_inc(a_d); }\n"
    "__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void\n"
    "addAtomicLocal(__global int *a_d, uint n)\n"
    "{ if (get_global_id(0) < n) atomic_inc(a_d); }\n";

/* A kernel that segfaults PoCL's CPU device: the exit status is SIGSEGV's
 * (139), one line says the device crashed, and the --output's temporary
 * file is gone. Five times: the driver threads fault at once, and while
 * LLVM's crash handler (SA_RESETHAND) was left in place, 2 of 30 runs
 * beside two busy loops ended silently with the file left. */
static void crashing_kernel_leaves_no_temporary(void **state)
{
    (void)state;
    static struct outcome o;
    char kdir[512], out_dir[512], out[600], path[600];
    snprintf(kdir, sizeof kdir, "%s/crash-cl", test_dir());
    snprintf(out_dir, sizeof out_dir, "%s/crash-out", test_dir());
    assert_int_equal(mkdir(kdir, 0700), 0);
    assert_int_equal(mkdir(out_dir, 0700), 0);
    snprintf(path, sizeof path, "%s/atomics.cl", kdir);
    test_write_file(path, crashing_atomics);
    snprintf(out, sizeof out, "%s/r.json", out_dir);
    for (int run = 1; run <= 5; run++) {
        run_clmem(&o, NULL,
                  ARGS("run", "atomics", "--variant", "racy", "--size", "4096", "--device", "cpu",
                       "--no-cache", "--kernel-dir", kdir, "--format", "json", "--output", out));
        if (o.code != 128 + SIGSEGV && o.code != 128 + SIGBUS)
            fail_msg("run %d: exit %d, stderr '%s'", run, o.code, o.err);
        if (test_hidden_files(out_dir) != 0)
            fail_msg("run %d: the output's temporary file is left behind (exit %d, stderr '%s')",
                     run, o.code, o.err);
        assert_int_equal(access(out, F_OK), -1);
        if (!strstr(o.err, "clmem: the OpenCL device or its driver crashed"))
            fail_msg("run %d: no line saying the device crashed: '%s'", run, o.err);
    }
    test_remove_tree(kdir);
    test_remove_tree(out_dir);
}

/* ---- the driver's own cache ---- */

/* The driver's compiler failing to write its cache (LLVM's 'IO failure
 * on output stream', which calls exit(1)): here a file-size limit with
 * SIGXFSZ ignored stands for a full disk (8 KiB: sh counts 512-byte
 * blocks; PoCL's copy of the source, 4.5 KiB, fits, LLVM's output not). Exit 3 (a driver failure),
 * never 1 (a failed check), one line saying so, no temporary file left. */
static void driver_exit_on_full_cache_exits_3(void **state)
{
    (void)state;
    static struct outcome o;
    char pocl[512], out_dir[512], out[600];
    snprintf(pocl, sizeof pocl, "%s/full-pocl", test_dir());
    snprintf(out_dir, sizeof out_dir, "%s/full-out", test_dir());
    assert_int_equal(mkdir(pocl, 0700), 0);
    assert_int_equal(mkdir(out_dir, 0700), 0);
    snprintf(out, sizeof out, "%s/r.json", out_dir);
    const char *bin = getenv("CLMEM_BIN");
    assert_non_null(bin);
    const char *argv[] = {"sh",       "-c",     "trap '' XFSZ; ulimit -f 16 && exec \"$@\"",
                          "sh",       bin,      "run",
                          "pi",       "--size", "4096",
                          "--device", "cpu",    "--no-cache",
                          "--format", "json",   "--output",
                          out,        NULL};
    const char *env[] = {"POCL_CACHE_DIR", pocl, NULL};
    struct child c;
    start_program(&c, env, "/bin/sh", argv);
    finish_clmem(&c, &o);
    if (!strstr(o.err, "LLVM ERROR"))
        print_message("note: no LLVM error seen (a driver that wrote less?): '%s'\n", o.err);
    if (o.code != 3 || !strstr(o.err, "clmem: the OpenCL driver ended the process by itself"))
        fail_msg("exit %d (expected 3), stderr '%s'", o.code, o.err);
    if (test_hidden_files(out_dir) != 0)
        fail_msg("the output's temporary file is left behind");
    test_remove_tree(pocl);
    test_remove_tree(out_dir);
}

/* PoCL's kernel cache where it cannot be made: HOME a file, XDG_CACHE_HOME
 * a file (PoCL listed no device and clmem said to install one). The
 * devices are listed, one warning names the cause; a POCL_CACHE_DIR that
 * cannot be made is refused (exit 2) naming it. */
static void pocl_cache_unusable_names_the_cause(void **state)
{
    (void)state;
    static struct outcome o;
    char file[512], below[600];
    snprintf(file, sizeof file, "%s/a-file", test_dir());
    test_write_file(file, "not a directory\n");
    snprintf(below, sizeof below, "%s/kcache", file);
    const char *const *const envs[] = {
        (const char *const[]){"HOME", file, "XDG_CACHE_HOME", "", "POCL_CACHE_DIR", NULL, NULL},
        (const char *const[]){"XDG_CACHE_HOME", file, "POCL_CACHE_DIR", NULL, NULL},
    };
    for (size_t i = 0; i < sizeof envs / sizeof *envs; i++) {
        run_clmem_within(&o, envs[i], ARGS("devices"), REFUSAL_LIMIT_S);
        if (o.code != 0 || clmem_lines(o.err) != 1 || !strstr(o.err, "clmem: warning: PoCL's") ||
            !strstr(o.err, "is not a directory") || !strstr(o.err, file) ||
            !strstr(o.out, "max allocation"))
            fail_msg("%s a file: exit %d, stderr '%s'", envs[i][0], o.code, o.err);
    }
    const char *env[] = {"POCL_CACHE_DIR", below, NULL};
    run_clmem_within(&o, env, ARGS("devices"), REFUSAL_LIMIT_S);
    if (o.code != 2 || clmem_lines(o.err) != 1 || !strstr(o.err, "POCL_CACHE_DIR '") ||
        !strstr(o.err, "is not a directory"))
        fail_msg("POCL_CACHE_DIR below a file: exit %d, stderr '%s'", o.code, o.err);
    unlink(file);
}

/* A missing HOME (a daemon's HOME=/nonexistent) is never created, by clmem
 * or by the driver (PoCL made HOME/.cache/pocl, after which clmem's own
 * cache and tune's database went there too); tune then has no place for
 * its database: exit 2. No private cache is left in TMPDIR. */
static void missing_home_is_never_created(void **state)
{
    (void)state;
    static struct outcome o;
    char home[512], tmp[512];
    snprintf(home, sizeof home, "%s/missing-home", test_dir());
    snprintf(tmp, sizeof tmp, "%s/tmp", test_dir());
    assert_int_equal(mkdir(tmp, 0700), 0);
    const char *env[] = {"HOME",           home, "XDG_CACHE_HOME", "", "TMPDIR", tmp,
                         "POCL_CACHE_DIR", NULL, NULL};
    run_clmem(&o, env, ARGS("run", "pi", "--size", "4096", "--device", "cpu", "--reps", "1"));
    if (o.code != 0)
        fail_msg("run: exit %d, stderr '%s'", o.code, o.err);
    if (access(home, F_OK) == 0)
        fail_msg("'%s' was created", home);
    run_clmem(&o, env, ARGS("devices"));
    assert_int_equal(o.code, 0);
    run_clmem_within(&o, env,
                     ARGS("tune", "reduce", "--device", "cpu", "--size", "4096", "--reps", "1",
                          "--max-candidates", "2"),
                     REFUSAL_LIMIT_S);
    if (o.code != 2 || !strstr(o.err, "no place for the tuning database"))
        fail_msg("tune: exit %d, stderr '%s'", o.code, o.err);
    if (access(home, F_OK) == 0)
        fail_msg("'%s' was created", home);
    DIR *d = opendir(tmp);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.')
            fail_msg("'%s/%s' left behind", tmp, e->d_name);
    closedir(d);
    rmdir(tmp);
}

/* ---- outputs and other people's files ---- */

/* A link that another user planted in a sticky world-writable directory
 * (/tmp's kind) is not followed, for --output or --output-dir, as the
 * kernel's protected_symlinks would not follow it: exit 2, the target as
 * it was. The user's own link there is followed. Needs root (chown). */
static void another_users_link_in_a_sticky_dir_is_refused(void **state)
{
    (void)state;
    if (geteuid() != 0) {
        print_message("skipped: links of another user need root\n");
        return;
    }
    const char *file = test_bench_file("pocl-2core.json");
    char sticky[512], link_path[600], target[512], dir_link[600], target_dir[512], inside[600];
    snprintf(sticky, sizeof sticky, "%s/sticky", test_dir());
    assert_int_equal(mkdir(sticky, 0700), 0);
    assert_int_equal(chmod(sticky, 01777), 0);
    snprintf(target, sizeof target, "%s/victim", test_dir());
    test_write_file(target, "precious\n");
    snprintf(link_path, sizeof link_path, "%s/report.txt", sticky);
    assert_int_equal(symlink(target, link_path), 0);
    assert_int_equal(lchown(link_path, 65534, 65534), 0);
    static struct outcome o;
    run_clmem_within(&o, NULL, ARGS("diff", file, file, "--output", link_path), REFUSAL_LIMIT_S);
    if (o.code != 2 || clmem_lines(o.err) != 1 || !strstr(o.err, "another user (uid 65534)"))
        fail_msg("--output through another user's link: exit %d, stderr '%s'", o.code, o.err);
    char *after = test_read_file(target);
    assert_string_equal(after, "precious\n");
    free(after);
    /* The same for a report directory. */
    snprintf(target_dir, sizeof target_dir, "%s/victim-dir", test_dir());
    assert_int_equal(mkdir(target_dir, 0700), 0);
    snprintf(inside, sizeof inside, "%s/keep.svg", target_dir);
    test_write_file(inside, "mine\n");
    snprintf(dir_link, sizeof dir_link, "%s/report", sticky);
    assert_int_equal(symlink(target_dir, dir_link), 0);
    assert_int_equal(lchown(dir_link, 65534, 65534), 0);
    run_clmem_within(&o, NULL, ARGS("compare", file, "--output-dir", dir_link), REFUSAL_LIMIT_S);
    if (o.code != 2 || clmem_lines(o.err) != 1 || !strstr(o.err, "another user (uid 65534)"))
        fail_msg("--output-dir through another user's link: exit %d, stderr '%s'", o.code, o.err);
    after = test_read_file(inside);
    assert_string_equal(after, "mine\n");
    free(after);
    /* The caller's own link in the same place is followed. */
    unlink(link_path);
    assert_int_equal(symlink(target, link_path), 0);
    run_clmem_within(&o, NULL, ARGS("diff", file, file, "--output", link_path), REFUSAL_LIMIT_S);
    if (o.code != 0)
        fail_msg("--output through the user's own link: exit %d, stderr '%s'", o.code, o.err);
    after = test_read_file(target);
    assert_non_null(strstr(after, "same: no regression"));
    free(after);
    test_remove_tree(sticky);
    test_remove_tree(target_dir);
    unlink(target);
}

/* What the kernel itself does with `path` through a planted link:
 * "follows it" or why not, for the message (fs.protected_symlinks decides;
 * clmem must refuse either way). */
static const char *kernel_follows(const char *path)
{
    static char said[160];
    char *sysctl = test_read_file("/proc/sys/fs/protected_symlinks");
    int fd = open(path, O_RDONLY | O_DIRECTORY);
    snprintf(said, sizeof said, "fs.protected_symlinks=%c: the kernel %s", sysctl ? sysctl[0] : '?',
             fd >= 0 ? "follows it" : strerror(errno));
    if (fd >= 0)
        close(fd);
    free(sysctl);
    return said;
}

/* A planted link anywhere in an output's path, not only its last name:
 * `run --output S/dlink/out.json` and `compare --output-dir S/dlink/rep`,
 * dlink another user's link to a directory in a sticky world-writable S
 * (and the user's own link to dlink) are refused, exit 2 before any work,
 * the directory it leads to as it was, whatever fs.protected_symlinks
 * says. A directory link of the user's own there, and another user's in a
 * directory that is not sticky and world-writable, are followed. Needs
 * root (lchown). */
static void a_planted_link_anywhere_in_an_output_path_is_refused(void **state)
{
    (void)state;
    if (geteuid() != 0) {
        print_message("skipped: links of another user need root\n");
        return;
    }
    const char *file = test_bench_file("pocl-2core.json");
    char sticky[512], victim[512], plain[512], path[700], dlink[600], via[600];
    snprintf(sticky, sizeof sticky, "%s/sticky-dirs", test_dir());
    assert_int_equal(mkdir(sticky, 0700), 0);
    assert_int_equal(chmod(sticky, 01777), 0);
    /* A third user's directory, so that the user's own link there is
     * followed for being the user's, not the directory owner's. */
    assert_int_equal(chown(sticky, 65533, 65533), 0);
    snprintf(victim, sizeof victim, "%s/victim-files", test_dir());
    assert_int_equal(mkdir(victim, 0700), 0);
    snprintf(path, sizeof path, "%s/out.json", victim);
    test_write_file(path, "precious\n");
    snprintf(dlink, sizeof dlink, "%s/dlink", sticky);
    assert_int_equal(symlink(victim, dlink), 0);
    assert_int_equal(lchown(dlink, 65534, 65534), 0);
    /* The user's own link, to the planted one: the chain goes through it. */
    snprintf(via, sizeof via, "%s/via", sticky);
    assert_int_equal(symlink("dlink", via), 0);
    print_message("%s\n", kernel_follows(dlink));
    static struct outcome o;
    const char *const links[] = {dlink, via};
    char out[700], rep[700];
    for (size_t i = 0; i < 2; i++) {
        snprintf(out, sizeof out, "%s/out.json", links[i]);
        run_clmem_within(&o, NULL,
                         ARGS("run", "dot", "--device", "cpu", "--format", "json", "--output", out),
                         REFUSAL_LIMIT_S);
        if (o.code != 2 || clmem_lines(o.err) != 1 || !strstr(o.err, "another user (uid 65534)") ||
            o.out[0] || strstr(o.err, "verified"))
            fail_msg("run --output '%s': exit %d, stdout '%.80s', stderr '%s'", out, o.code, o.out,
                     o.err);
        snprintf(rep, sizeof rep, "%s/rep", links[i]);
        run_clmem_within(&o, NULL, ARGS("compare", file, "--output-dir", rep), REFUSAL_LIMIT_S);
        if (o.code != 2 || clmem_lines(o.err) != 1 || !strstr(o.err, "another user (uid 65534)"))
            fail_msg("compare --output-dir '%s': exit %d, stderr '%s'", rep, o.code, o.err);
        char *after = test_read_file(path);
        assert_non_null(after);
        if (strcmp(after, "precious\n") != 0)
            fail_msg("'%s' was replaced through '%s'", path, links[i]);
        free(after);
        snprintf(rep, sizeof rep, "%s/rep", victim);
        if (access(rep, F_OK) == 0 || test_hidden_files(victim) != 0 ||
            test_hidden_files(sticky) != 0)
            fail_msg("something was written through '%s'", links[i]);
    }
    /* Links the kernel follows whatever the sysctl says: the user's own in
     * the sticky directory, another user's in a plain (0755) one. */
    unlink(via);
    assert_int_equal(symlink(victim, via), 0);
    snprintf(plain, sizeof plain, "%s/plain-dir", test_dir());
    assert_int_equal(mkdir(plain, 0755), 0);
    snprintf(dlink, sizeof dlink, "%s/theirs", plain);
    assert_int_equal(symlink(victim, dlink), 0);
    assert_int_equal(lchown(dlink, 65534, 65534), 0);
    const char *const fine[] = {via, dlink};
    for (size_t i = 0; i < 2; i++) {
        test_write_file(path, "precious\n");
        snprintf(out, sizeof out, "%s/out.json", fine[i]);
        run_clmem_within(&o, NULL, ARGS("diff", file, file, "--output", out), REFUSAL_LIMIT_S);
        if (o.code != 0)
            fail_msg("--output '%s': exit %d, stderr '%s'", out, o.code, o.err);
        char *after = test_read_file(path);
        assert_non_null(after);
        if (!strstr(after, "\"clmem_version\""))
            fail_msg("'%s' was not written through '%s'", path, fine[i]);
        free(after);
        snprintf(rep, sizeof rep, "%s/rep%zu", fine[i], i);
        run_clmem_within(&o, NULL, ARGS("compare", file, "--output-dir", rep), REFUSAL_LIMIT_S);
        snprintf(rep, sizeof rep, "%s/rep%zu/report.md", victim, i);
        if (o.code != 0 || access(rep, F_OK) != 0)
            fail_msg("--output-dir through '%s': exit %d, stderr '%s'", fine[i], o.code, o.err);
    }
    test_remove_tree(sticky);
    test_remove_tree(plain);
    test_remove_tree(victim);
}

/* A report into a directory of 20000 files of the user's, whose manifest
 * is as large as one may be (1 MiB, 20000 names): the manifest is read
 * once (counted: the directory's opens of it, through inotify), not once
 * per file (20000 reads, 15 s). The files it lists go, the user's stay. */
static void a_report_dir_manifest_is_read_once(void **state)
{
    (void)state;
    enum { USER_FILES = 20000 };
    const char *file = test_bench_file("pocl-2core.json");
    char dir[512], path[700];
    snprintf(dir, sizeof dir, "%s/big-report", test_dir());
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(path, sizeof path, "%s/.clmem-manifest", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    size_t size = (size_t)fprintf(
        f, "# clmem report: the files clmem compare wrote here; the next report replaces them\n");
    /* Unsorted on purpose: a lookup must not rely on the file's order. */
    size_t listed = 0;
    for (unsigned i = 0; size + 60 < (1u << 20); i++, listed++)
        size += (size_t)fprintf(f, "an-earlier-report-file-of-a-long-name-%06u.svg\n",
                                (i * 7919u) % 100000u);
    assert_int_equal(fclose(f), 0);
    for (unsigned i = 0; i < USER_FILES; i++) {
        snprintf(path, sizeof path, "%s/mine-%05u.txt", dir, i);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
        assert_true(fd >= 0);
        close(fd);
    }
    /* Two of the names it lists are there: an earlier report's files. */
    const unsigned old[] = {0, (unsigned)(listed - 1)};
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/an-earlier-report-file-of-a-long-name-%06u.svg", dir,
                 (old[i] * 7919u) % 100000u);
        test_write_file(path, "old\n");
    }
    int watch = inotify_init1(IN_NONBLOCK);
    assert_true(watch >= 0);
    /* Closes too: inotify merges an event into the one before it when they
     * are the same, so opens alone would count 20000 reads as one. */
    assert_true(inotify_add_watch(watch, dir, IN_OPEN | IN_CLOSE_NOWRITE) >= 0);
    static struct outcome o;
    time_t start = time(NULL);
    run_clmem_within(&o, NULL, ARGS("compare", file, "--output-dir", dir), 300);
    long took = (long)(time(NULL) - start);
    if (o.code != 0)
        fail_msg("compare: exit %d, stderr '%s'", o.code, o.err);
    size_t opens = 0, overflow = 0;
    char buf[65536] __attribute__((aligned(8)));
    for (ssize_t n; (n = read(watch, buf, sizeof buf)) > 0;)
        for (ssize_t at = 0; at < n;) {
            const struct inotify_event *e = (const void *)(buf + at);
            at += (ssize_t)(sizeof *e + e->len);
            overflow += (e->mask & IN_Q_OVERFLOW) != 0;
            opens += (e->mask & IN_OPEN) && e->len && strcmp(e->name, ".clmem-manifest") == 0;
        }
    close(watch);
    print_message("manifest of %zu names opened %zu times%s, compare %ld s\n", listed, opens,
                  overflow ? " (and more: inotify's queue overflowed)" : "", took);
    /* Once by each check before any work (the command's, the report's),
     * once when the report is put in place: a few, whatever the files. */
    if (overflow || opens > 4)
        fail_msg("the manifest was read %zu times%s for one report", opens,
                 overflow ? " and more" : "");
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/an-earlier-report-file-of-a-long-name-%06u.svg", dir,
                 (old[i] * 7919u) % 100000u);
        if (access(path, F_OK) == 0)
            fail_msg("'%s', which the manifest lists, was kept", path);
    }
    for (unsigned i = 0; i < USER_FILES; i += 997) {
        snprintf(path, sizeof path, "%s/mine-%05u.txt", dir, i);
        if (access(path, F_OK) != 0)
            fail_msg("the user's '%s' was removed", path);
    }
    test_remove_tree(dir);
}

/* A file replaced keeps its mode, owner and group (as root, who may give
 * them back): another user's 0640 report stays theirs. */
static void a_replaced_file_keeps_its_owner_and_mode(void **state)
{
    (void)state;
    if (geteuid() != 0) {
        print_message("skipped: a file of another user needs root\n");
        return;
    }
    const char *file = test_bench_file("pocl-2core.json");
    char path[512];
    snprintf(path, sizeof path, "%s/theirs.txt", test_dir());
    test_write_file(path, "old\n");
    assert_int_equal(chown(path, 65534, 65534), 0);
    assert_int_equal(chmod(path, 0640), 0);
    static struct outcome o;
    run_clmem_within(&o, NULL, ARGS("diff", file, file, "--output", path), REFUSAL_LIMIT_S);
    assert_int_equal(o.code, 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    if (st.st_uid != 65534 || st.st_gid != 65534 || (st.st_mode & 07777) != 0640)
        fail_msg("replaced: uid %u gid %u mode %04o, was 65534 65534 0640", (unsigned)st.st_uid,
                 (unsigned)st.st_gid, (unsigned)(st.st_mode & 07777));
    char *text = test_read_file(path);
    assert_non_null(strstr(text, "same: no regression"));
    free(text);
    unlink(path);
}

/* A report replaces the files an earlier report wrote (its manifest says
 * which), and no others: a directory that holds files but is no report is
 * refused before any work, its files as they were; in a report's
 * directory the user's own .svg, .dat and device-N.json stay. */
static void a_report_dir_loses_only_what_a_report_wrote(void **state)
{
    (void)state;
    const char *file = test_bench_file("pocl-2core.json");
    char foreign[512], path[700], report[512];
    snprintf(foreign, sizeof foreign, "%s/foreign", test_dir());
    assert_int_equal(mkdir(foreign, 0700), 0);
    const char *const theirs[] = {"photo.svg", "data.dat", "device-0.json"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", foreign, theirs[i]);
        test_write_file(path, "theirs\n");
    }
    static struct outcome o;
    run_clmem_within(&o, NULL, ARGS("compare", file, "--output-dir", foreign), REFUSAL_LIMIT_S);
    if (o.code != 2 || clmem_lines(o.err) != 1 || !strstr(o.err, "is not a clmem report"))
        fail_msg("a directory of other files: exit %d, stderr '%s'", o.code, o.err);
    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", foreign, theirs[i]);
        char *text = test_read_file(path);
        if (!text || strcmp(text, "theirs\n") != 0)
            fail_msg("'%s' was changed or removed", path);
        free(text);
    }
    /* A report's directory, then the user's files beside the report's. */
    snprintf(report, sizeof report, "%s/report", test_dir());
    run_clmem(&o, NULL, ARGS("compare", file, "--output-dir", report));
    if (o.code != 0)
        fail_msg("compare: exit %d, stderr '%s'", o.code, o.err);
    const char *const mine[] = {"mine.svg", "mine.dat", "device-7.json"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", report, mine[i]);
        test_write_file(path, "mine\n");
    }
    run_clmem(&o, NULL, ARGS("compare", file, "--output-dir", report));
    if (o.code != 0)
        fail_msg("compare again: exit %d, stderr '%s'", o.code, o.err);
    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", report, mine[i]);
        char *text = test_read_file(path);
        if (!text || strcmp(text, "mine\n") != 0)
            fail_msg("the user's '%s' was removed or replaced by the report", path);
        free(text);
    }
    snprintf(path, sizeof path, "%s/report.md", report);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    test_remove_tree(foreign);
    test_remove_tree(report);
}

/* --output-dir "", ".", "..", "/" (and a path ending in them): refused
 * before any work, one line, nothing left in the current directory. */
static void report_dirs_that_name_no_report_are_refused(void **state)
{
    (void)state;
    const char *file = test_bench_file("pocl-2core.json");
    char cwd[512], here[4096];
    snprintf(cwd, sizeof cwd, "%s/cwd", test_dir());
    assert_int_equal(mkdir(cwd, 0700), 0);
    assert_non_null(getcwd(here, sizeof here));
    /* "" first: before the fix it wrote a whole report into ./.tmp.XXXXXX. */
    const char *const dirs[] = {"", ".", "..", "./", "sub/..", "/"};
    static struct outcome o;
    assert_int_equal(chdir(cwd), 0);
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        run_clmem_within(&o, NULL, ARGS("compare", file, "--output-dir", dirs[i]), REFUSAL_LIMIT_S);
        int left = test_hidden_files(cwd) != 0;
        if (o.code != 2 || clmem_lines(o.err) != 1 || left) {
            assert_int_equal(chdir(here), 0);
            fail_msg("--output-dir '%s': exit %d, %s, stderr '%s'", dirs[i], o.code,
                     left ? "a file left in the current directory" : "nothing left", o.err);
        }
    }
    assert_int_equal(chdir(here), 0);
    test_remove_tree(cwd);
}

/* run blur --output naming its own --input (or a link to it): refused
 * before any work, as diff and compare refuse it; the image as it was. */
static void an_image_output_over_its_input_is_refused(void **state)
{
    (void)state;
    char image[512], link_path[512];
    snprintf(image, sizeof image, "%s/in.pgm", test_dir());
    snprintf(link_path, sizeof link_path, "%s/link.pgm", test_dir());
    test_write_file(image, "P5\n3 2\n255\nabcdef");
    assert_int_equal(symlink(image, link_path), 0);
    const char *const outputs[] = {image, link_path};
    static struct outcome o;
    for (size_t i = 0; i < 2; i++) {
        run_clmem_within(&o, NULL,
                         ARGS("run", "blur", "--device", "cpu", "--reps", "1", "--input", image,
                              "--output", outputs[i]),
                         REFUSAL_LIMIT_S);
        if (o.code != 2 || clmem_lines(o.err) != 1 || !strstr(o.err, "would replace the input"))
            fail_msg("--output '%s': exit %d, stderr '%s'", outputs[i], o.code, o.err);
        char *text = test_read_file(image);
        assert_string_equal(text, "P5\n3 2\n255\nabcdef");
        free(text);
    }
    unlink(link_path);
    unlink(image);
}

/* SIGKILL (the OOM killer's) can remove nothing: the report's temporary
 * file exists only while the report is written, so a run killed before
 * that leaves none. */
static void a_killed_run_leaves_no_temporary(void **state)
{
    (void)state;
    char dir[512], out[600];
    snprintf(dir, sizeof dir, "%s/killed", test_dir());
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(out, sizeof out, "%s/r.json", dir);
    struct child c;
    static struct outcome o;
    const char *env[] = {"CLMEM_DEBUG", "2", NULL};
    start_clmem(&c, env,
                ARGS("run", "transpose", "--device", "cpu", "--size", "64", "--reps", "1",
                     "--format", "json", "--output", out));
    int seen = wait_for_stderr(&c, "clmem: launch ", 300);
    kill(c.pid, SIGKILL);
    finish_clmem(&c, &o);
    if (!seen)
        fail_msg("no launch seen: exit %d, stderr '%.300s'", o.code, o.err);
    assert_int_equal(o.code, 128 + SIGKILL);
    assert_int_equal(test_hidden_files(dir), 0);
    test_remove_tree(dir);
}

/* ---- the environment ---- */

/* POCL_CACHE_DIR set but empty (PoCL's assertion: exit 134) or where no
 * directory can be made (/proc: PoCL listed no device, exit 3): exit 2
 * before the driver loads, naming the variable. */
static void pocl_cache_dir_empty_or_unmakeable_exits_2(void **state)
{
    (void)state;
    static struct outcome o;
    const char *const values[] = {"", "/proc/clmem-no-such-dir"};
    for (size_t i = 0; i < 2; i++) {
        const char *env[] = {"POCL_CACHE_DIR", values[i], NULL};
        run_clmem_within(&o, env, ARGS("devices"), REFUSAL_LIMIT_S);
        if (o.code != 2 || clmem_lines(o.err) != 1 || !strstr(o.err, "POCL_CACHE_DIR"))
            fail_msg("POCL_CACHE_DIR='%s': exit %d, stderr '%s'", values[i], o.code, o.err);
    }
}

/* A relative XDG_CACHE_HOME is ignored (the XDG spec): PoCL's cache goes
 * to $HOME/.cache/pocl, never below the current directory. */
static void a_relative_xdg_cache_home_is_ignored(void **state)
{
    (void)state;
    char cwd[512], home[512], rel[600], pocl[600], here[4096];
    snprintf(cwd, sizeof cwd, "%s/xdg-cwd", test_dir());
    snprintf(home, sizeof home, "%s/xdg-home", test_dir());
    snprintf(rel, sizeof rel, "%s/rel", cwd);
    snprintf(pocl, sizeof pocl, "%s/.cache/pocl", home);
    assert_int_equal(mkdir(cwd, 0700), 0);
    assert_int_equal(mkdir(home, 0700), 0);
    assert_non_null(getcwd(here, sizeof here));
    assert_int_equal(chdir(cwd), 0);
    static struct outcome o;
    const char *env[] = {"XDG_CACHE_HOME", "rel", "HOME", home, "POCL_CACHE_DIR", NULL, NULL};
    run_clmem(&o, env, ARGS("devices"));
    assert_int_equal(chdir(here), 0);
    if (o.code != 0)
        fail_msg("devices: exit %d, stderr '%s'", o.code, o.err);
    if (access(rel, F_OK) == 0)
        fail_msg("'%s' was made: the relative XDG_CACHE_HOME was used", rel);
    if (access(pocl, F_OK) != 0)
        fail_msg("PoCL's cache is not in '%s'", pocl);
    test_remove_tree(cwd);
    test_remove_tree(home);
}

/* $CLMEM_BIN with args (env as run_clmem's), stdout to /dev/null,
 * collected in *o; the child's peak resident memory in KiB. */
static long run_measuring_memory(struct outcome *o, const char *const env[],
                                 const char *const args[])
{
    struct child c;
    start_clmem_to(&c, env, args, "/dev/null");
    return finish_clmem_measuring(&c, o);
}

/* An --input that is no image (/dev/zero) is refused at its magic
 * number, having read only the start of it: it read 2.1 GB before. */
static void an_input_is_refused_at_its_header(void **state)
{
    (void)state;
    static struct outcome o;
    long kib = run_measuring_memory(
        &o, NULL, ARGS("run", "blur", "--device", "cpu", "--reps", "1", "--input", "/dev/zero"));
    print_message("--input /dev/zero: exit %d, peak %ld MiB\n", o.code, kib / 1024);
    if (o.code != 2 || !strstr(o.err, "bad magic"))
        fail_msg("--input /dev/zero: exit %d, stderr '%s'", o.code, o.err);
    /* The driver's own memory, not the 2 GB a whole read takes. */
    assert_true(kib < 1024 * 1024);
    /* A NUL in the header is shown, not the end of the message (it read
     * "bad width: unexpected '" and stopped). */
    char nul[600];
    snprintf(nul, sizeof nul, "%s/nul.pgm", test_dir());
    static const char header[] = "P5\n4\0 4\n255\n0123456789abcdef";
    FILE *f = fopen(nul, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(header, 1, sizeof header - 1, f), sizeof header - 1);
    assert_int_equal(fclose(f), 0);
    run_clmem(&o, NULL, ARGS("run", "blur", "--device", "cpu", "--reps", "1", "--input", nul));
    if (o.code != 2 || clmem_lines(o.err) != 1 ||
        !strstr(o.err, "bad width: unexpected '\\x00' after 4\n"))
        fail_msg("--input with a NUL in its header: exit %d, stderr '%s'", o.code, o.err);
    unlink(nul);
}

/* The tuning database's lock a directory, or a link: refused before any
 * measurement (no kernel launched), not after the whole search. */
static void a_tuning_lock_that_is_no_file_is_refused_before_measuring(void **state)
{
    (void)state;
    char cache[512], clmem[600], lock[700];
    snprintf(cache, sizeof cache, "%s/tl-cache", test_dir());
    snprintf(clmem, sizeof clmem, "%s/clmem", cache);
    snprintf(lock, sizeof lock, "%s/tuning.json.lock", clmem);
    assert_int_equal(mkdir(cache, 0700), 0);
    assert_int_equal(mkdir(clmem, 0700), 0);
    static struct outcome o;
    for (int kind = 0; kind < 2; kind++) {
        if (kind == 0)
            assert_int_equal(mkdir(lock, 0700), 0);
        else
            assert_int_equal(symlink("/tmp/clmem-elsewhere.lock", lock), 0);
        const char *env[] = {"XDG_CACHE_HOME", cache, "CLMEM_DEBUG", "2", NULL};
        run_clmem_within(&o, env,
                         ARGS("tune", "reduce", "--device", "cpu", "--variant", "one_pass",
                              "--size", "4096", "--max-candidates", "2", "--reps", "1"),
                         REFUSAL_LIMIT_S);
        if (o.code != 2 || !strstr(o.err, "cannot lock the tuning database") ||
            strstr(o.err, "clmem: launch "))
            fail_msg("tuning.json.lock a %s: exit %d, stderr '%.400s'", kind ? "link" : "directory",
                     o.code, o.err);
        if (kind == 0)
            rmdir(lock);
        else
            unlink(lock);
    }
    test_remove_tree(cache);
}

int main(int argc, char **argv)
{
#ifdef __SANITIZE_ADDRESS__
    /* Under AddressSanitizer, for the runs of clmem this test starts
     * (tests/cli_run.c): its SEGV handler would take the crashing kernel's
     * fault from clmem's own. */
    setenv("CLMEM_TEST_ASAN_OPTIONS", "detect_leaks=0:handle_segv=0:allow_user_segv_handler=1", 1);
#endif
    /* A crash's default action dumps core: not in the test's directory. */
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unwritable_stdout_exits_2),
        cmocka_unit_test(kernel_source_not_a_file_exits_2),
        cmocka_unit_test(crashing_kernel_leaves_no_temporary),
        cmocka_unit_test(driver_exit_on_full_cache_exits_3),
        cmocka_unit_test(pocl_cache_unusable_names_the_cause),
        cmocka_unit_test(missing_home_is_never_created),
        cmocka_unit_test(another_users_link_in_a_sticky_dir_is_refused),
        cmocka_unit_test(a_planted_link_anywhere_in_an_output_path_is_refused),
        cmocka_unit_test(a_report_dir_manifest_is_read_once),
        cmocka_unit_test(a_replaced_file_keeps_its_owner_and_mode),
        cmocka_unit_test(a_report_dir_loses_only_what_a_report_wrote),
        cmocka_unit_test(report_dirs_that_name_no_report_are_refused),
        cmocka_unit_test(an_image_output_over_its_input_is_refused),
        cmocka_unit_test(a_killed_run_leaves_no_temporary),
        cmocka_unit_test(pocl_cache_dir_empty_or_unmakeable_exits_2),
        cmocka_unit_test(a_relative_xdg_cache_home_is_ignored),
        cmocka_unit_test(an_input_is_refused_at_its_header),
        cmocka_unit_test(a_tuning_lock_that_is_no_file_is_refused_before_measuring),
    };
    return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
