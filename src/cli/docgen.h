/* The man page and the completions, written from the command and option
 * tables (docgen.c). */
#ifndef CLMEM_CLI_DOCGEN_H
#define CLMEM_CLI_DOCGEN_H

#include "options.h"

#include <stdio.h>

/* A row of main.c's command table, the one list of the commands: 'clmem
 * COMMAND' runs it, 'clmem --help', the man page and the completions list
 * it (docgen.c). */
struct cli_command {
    const struct cli_spec *spec; /* its name, options and help (cmd_NAME.c) */
    int (*run)(int argc, char **argv);
    const char *summary; /* its line in 'clmem --help' */
    int mpi;             /* runs as one job under mpirun (a device per rank, one report) */
};

/* The man page and the bash or zsh completion from the command and option
 * tables (docgen.c; main.c's hidden --man and --completion SHELL). */
int cli_write_man(FILE *out, const struct cli_command *commands, size_t n);
int cli_write_completion(FILE *out, const char *shell, const struct cli_command *commands,
                         size_t n);

#endif
