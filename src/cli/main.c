/* clmem: the command table and the top-level options. */
#define _GNU_SOURCE /* fopencookie */
#include "commands.h"
#include "common.h"
#include "docgen.h"
#include "driver.h"
#include "ranks.h"
#include "report/report.h"
#include "stopping.h"
#include "suggest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef CLMEM_VERSION
#define CLMEM_VERSION "unknown"
#endif

/* Every command, in the order 'clmem --help' and the man page list them.
 * Adding a command: its file src/cli/cmd_NAME.c (cmd_NAME and its struct
 * cli_spec, whose options come from options.c's table: a new option is one
 * entry there), cmd_NAME and its spec declared in commands.h, one
 * line here (the man page and the completions follow), its file in
 * meson.build's cli_sources, its section in docs/usage.md. */
static const struct cli_command commands[] = {
    {&cli_devices_spec, cmd_devices, "list OpenCL platforms and devices with their properties", 0},
    {&cli_list_spec, cmd_list,
     "list workloads and their variants, with the seed figure each follows", 0},
    {&cli_run_spec, cmd_run, "run a workload's variants: build, time, verify, report", 1},
    {&cli_peak_spec, cmd_peak, "measure the device's own copy bandwidth and FMA throughput", 0},
    {&cli_hierarchy_spec, cmd_hierarchy,
     "the memory hierarchy level by level: latency, sizes, bandwidth", 0},
    {&cli_bench_spec, cmd_bench, "the whole suite at benchmark sizes, beside the device's peaks",
     1},
    {&cli_tune_spec, cmd_tune, "search a workload's kernel parameters on a device, keep the best",
     0},
    {&cli_compare_spec, cmd_compare,
     "the suite on several devices: a report side by side, with plots", 1},
    {&cli_diff_spec, cmd_diff, "two run files result by result: exit 4 on a regression (no device)",
     0},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: clmem [--help] [--version] COMMAND [ARGS]\n\n"
                 "OpenCL suite of the GPU memory-hierarchy designs: every kernel built for\n"
                 "your device, verified against a CPU reference and timed.\n\ncommands:\n");
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(commands); i++)
        fprintf(out, "  %-10s %s\n", commands[i].spec->name, commands[i].summary);
    fprintf(out, "\nUnder mpirun (clmem built with MPI), run, bench and compare use a device\n"
                 "per rank and rank 0 reports for all.\n"
                 "\n'clmem help COMMAND' (or 'clmem COMMAND --help') describes a command.\n"
                 "exit codes: 0 ok, 1 verification failed, 2 usage error (a --device that "
                 "names\n"
                 "none here too) or a file that cannot be written, 3 no OpenCL device or OpenCL\n"
                 "error, 4 a regression (diff), 128+N stopped by signal N\n"
                 "(130 Ctrl-C, 143 SIGTERM, 129 SIGHUP, 131 SIGQUIT, 141 SIGPIPE)\n");
}

/* Under mpirun, the commands that know MPI start it (a device per rank,
 * one report); devices, list and peak run as they are in every rank; tune
 * is refused, as its ranks would all write one tuning database. */
static int run_command(const struct cli_command *command, int argc, char **argv)
{
    if (cli_launched_by_mpirun()) {
        cli_silent = cli_mpirun_rank() > 0; /* one message, not one per rank */
        if (strcmp(command->spec->name, "tune") == 0)
            return cli_usage_error("tune",
                                   "tune keeps one tuning database: start it without mpirun");
        if (command->mpi) {
            int status = cli_mpi_start(command->spec->name, &argc, &argv);
            if (status == CLMEM_OK)
                status = command->run(argc - 1, argv + 1);
            cli_mpi_stop();
            return status;
        }
    }
    return command->run(argc - 1, argv + 1);
}

/* The first error writing stdout. The stream drops what it could not
 * write, so by the last flush there may be nothing left to write and no
 * errno to tell why ("Input/output error" for a full disk): the writes
 * keep it here. */
static int stdout_errno;

static ssize_t stdout_write(void *cookie, const char *buf, size_t size)
{
    (void)cookie;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(STDOUT_FILENO, buf + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            if (!stdout_errno)
                stdout_errno = errno;
            break;
        }
        done += (size_t)n;
    }
    return (ssize_t)done;
}

/* stdout as a stream whose writes keep their errno (glibc lets a program
 * replace stdout; elsewhere a lost errno says "Input/output error").
 * Buffered as stdio buffers it: by line on a terminal, else by block. */
static void stdout_keep_errno(void)
{
#ifdef __GLIBC__
    static const cookie_io_functions_t io = {.write = stdout_write};
    FILE *f = fopencookie(NULL, "w", io);
    if (!f)
        return;
    if (isatty(STDOUT_FILENO))
        setvbuf(f, NULL, _IOLBF, BUFSIZ);
    stdout = f;
#else
    (void)stdout_write;
#endif
}

/* Every command's last step: what it printed must have reached stdout (a
 * full disk, /dev/full), or the exit code says it did not (2), with one
 * line. A command that stopped on an error of its own, or on a failed
 * write it said already (2), keeps its code. */
static int close_stdout(int code)
{
    /* Flushed and checked, not closed: the driver's and libraries' exit
     * handlers may still write to stdout (under Oclgrind, with CLBlast,
     * a closed stdout was written after it was freed: heap corruption). */
    errno = 0;
    int failed = fflush(stdout) != 0 || ferror(stdout);
    int saved = stdout_errno ? stdout_errno : errno;
    if (!failed || (code != CLMEM_OK && code != CLMEM_ERR_VERIFY && code != CLMEM_DIFF_REGRESSION))
        return code;
    if (!cli_silent)
        fprintf(stderr, "clmem: cannot write to stdout: %s\n", strerror(saved ? saved : EIO));
    return CLMEM_ERR_USAGE;
}

static const struct cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(commands); i++)
        if (strcmp(name, commands[i].spec->name) == 0)
            return &commands[i];
    return NULL;
}

static int unknown_command(const char *name)
{
    struct cli_suggest s;
    cli_suggest_start(&s, name);
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(commands); i++)
        cli_suggest_try(&s, commands[i].spec->name);
    cli_suggest_try(&s, "help");
    if (s.best)
        fprintf(stderr, "clmem: unknown command '%s' (did you mean '%s'? see 'clmem --help')\n",
                name, s.best);
    else
        fprintf(stderr, "clmem: unknown command '%s' (see 'clmem --help')\n", name);
    return CLMEM_ERR_USAGE;
}

/* A word after --version, which takes none, or an option after help:
 * refused, as a command refuses what it does not take (exit 2). */
static int top_level_extra(const char *top, const char *word)
{
    if (word[0] == '-')
        return cli_usage_error(NULL, "unknown option '%s'", word);
    return cli_usage_error(NULL, "unexpected argument '%s' after '%s'", word, top);
}

static int dispatch(int argc, char **argv)
{
    /* INT, TERM, HUP, QUIT, PIPE: stop at once until a command says that
     * its variants run (docs/reliability.md, Signals). */
    cli_signals_init();
    cli_exit_guard();
    if (argc < 2) {
        usage(stderr);
        return CLMEM_ERR_USAGE;
    }
    const char *name = argv[1];
    int help = strcmp(name, "help") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0;
    /* clmem help CMD [ARGS] (or --help CMD ...) is clmem CMD [ARGS]
     * --help: the command parses the whole line, so that an option it
     * does not know is refused there too. */
    if (help && argc >= 3) {
        if (argv[2][0] == '-')
            return top_level_extra(name, argv[2]);
        const struct cli_command *command = find_command(argv[2]);
        if (!command)
            return unknown_command(argv[2]);
        char **help_argv = calloc((size_t)argc + 1, sizeof *help_argv);
        if (!help_argv) {
            fprintf(stderr, "clmem: out of memory\n");
            return CLMEM_ERR_USAGE;
        }
        help_argv[0] = argv[0];
        for (int i = 2; i < argc; i++)
            help_argv[i - 1] = argv[i];
        help_argv[argc - 1] = "--help";
        int status = run_command(command, argc, help_argv);
        free(help_argv);
        return status;
    }
    if (help) {
        usage(stdout);
        return CLMEM_OK;
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
        if (argc > 2)
            return top_level_extra(name, argv[2]);
        printf("clmem %s\n", CLMEM_VERSION);
        return CLMEM_OK;
    }
    /* Hidden: what meson.build installs as clmem.1 and the completions. */
    if (strcmp(name, "--man") == 0)
        return cli_write_man(stdout, commands, CLMEM_ARRAY_SIZE(commands));
    if (strcmp(name, "--completion") == 0)
        return cli_write_completion(stdout, argc > 2 ? argv[2] : NULL, commands,
                                    CLMEM_ARRAY_SIZE(commands));
    const struct cli_command *command = find_command(name);
    if (command)
        return run_command(command, argc, argv);
    if (name[0] == '-')
        return cli_usage_error(NULL, "unknown option '%s'", name);
    return unknown_command(name);
}

int main(int argc, char **argv)
{
    stdout_keep_errno();
    int code = close_stdout(dispatch(argc, argv));
    cli_pocl_cache_remove();
    return cli_exit(code);
}
