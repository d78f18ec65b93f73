/* --help and the option texts the man page and completions share, from
 * the option table (option_help.c). */
#ifndef CLMEM_CLI_OPTION_HELP_H
#define CLMEM_CLI_OPTION_HELP_H

#include "options.h"

#include <stdio.h>

/* The command's --help: usage line, its paragraph, then a line per option
 * from the table (value, help, range, default), then `more`. */
void cli_help(const struct cli_spec *spec, FILE *out);
/* One option's head in --help ("--reps N", "--split[=W,W,...]", "--quiet")
 * and its help text as `use` takes it (range, default, alias): what --help,
 * the man page and the completions (docgen.c) print. */
void cli_option_head(const struct cli_option *opt, char *out, size_t size);
void cli_option_text(const struct cli_option *opt, const struct cli_use *use, char *out,
                     size_t size);

#endif
