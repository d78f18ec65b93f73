/* The commands (src/cli/cmd_*.c): each one's entry point and options,
 * as main.c's table and the fuzzers take them. */
#ifndef CLMEM_CLI_COMMANDS_H
#define CLMEM_CLI_COMMANDS_H

#include "options.h"

int cmd_devices(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_peak(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_diff(int argc, char **argv);
/* clmem hierarchy (cmd_hierarchy.c) and its options. */
int cmd_hierarchy(int argc, char **argv);
extern const struct cli_spec cli_hierarchy_spec;
/* run's steps (cmd_run.c) with `spec`'s options, for `workload` (NULL: the
 * workload named on the command line); peak is run's under its own name. */
int cli_run_command(const struct cli_spec *spec, const char *workload, int argc, char **argv);

/* Each command's spec (src/cli/cmd_*.c), and the checks a command makes
 * before it opens a device, for the fuzzers (tests/fuzz/fuzz_options.c). */
extern const struct cli_spec cli_devices_spec, cli_list_spec, cli_run_spec, cli_peak_spec,
    cli_bench_spec, cli_compare_spec, cli_tune_spec, cli_diff_spec;
/* run's (and peak's) checks of `workload` and the options that need no
 * device: names, variant, --input, --compare, --size, --split and --summa,
 * the kernel file. *workload is set when the name is known. */
int cli_run_check(const struct cli_opts *o, const char *workload_name,
                  const struct clmem_workload **workload, struct clmem_error *err);

#endif
