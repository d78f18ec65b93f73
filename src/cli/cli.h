/* What the CLI's commands share. Only src/cli/ prints errors and exits. */
#ifndef CLMEM_CLI_H
#define CLMEM_CLI_H

#include "clmem/clmem.h"

struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
};

int cmd_devices(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_peak(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_tune(int argc, char **argv);

/* Prints "clmem: MESSAGE" (and a build log, if any) to stderr and returns
 * the status as the exit code. */
int cli_report_error(const struct clmem_error *err);
/* Unknown option / missing argument, in one line, exit code 2. */
int cli_usage_error(const char *command, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The usage error for getopt_long's answer `c` to `option` (optstring
 * starting with ':'): ':' a missing value, anything else an unknown option;
 * the message points at 'clmem COMMAND --help'. */
int cli_option_error(const char *command, int c, const char *option, struct clmem_error *err);
/* The option getopt_long just refused, as written: "-x" of "-xq" (written
 * to buf, at least 3 bytes), or the whole argument ("-x", "--bogus=1"). */
const char *cli_refused_option(int argc, char **argv, char *buf, size_t size);
/* Parses an unsigned decimal in [min, max]; usage error otherwise. */
int cli_parse_uint(const char *option, const char *text, unsigned long long min,
                   unsigned long long max, unsigned long long *value, struct clmem_error *err);
/* Prints the program cache's and the tuning database's warnings, if any. */
void cli_report_warnings(const struct clmem_ctx *ctx);
/* Lists devices and opens the one `spec` names (exit code 3 when none). */
int cli_open_device(const char *spec, const char *kernel_dir, struct clmem_ctx *ctx,
                    struct clmem_error *err);

/* Ctrl-C and SIGTERM: the first sets a flag (cli_interrupted) that the
 * runs poll between variants; a second stops at once (the default action),
 * removing `temp_path` first (an output's temporary file; NULL or "": none),
 * which must stay valid while the command runs. */
void cli_catch_interrupts(const char *temp_path);
/* For clmem_run_options.cancelled: whether a signal came (user unused). */
int cli_interrupted(void *user);
/* Says what an interrupted command kept (n results, written to `output`
 * or stdout) and returns its exit code: 128 + the signal (130: SIGINT). */
int cli_report_interrupted(size_t n, const char *output);

#endif
