/* Did you mean: the closest name to a misspelt one (suggest.c). */
#ifndef CLMEM_CLI_SUGGEST_H
#define CLMEM_CLI_SUGGEST_H

#include "harness/harness.h"

#include <stddef.h>

/* "did you mean 'X'? " for a name close to one of the candidates (edit
 * distance), or nothing. */
struct cli_suggest {
    const char *word, *best;
    size_t distance;
};
void cli_suggest_start(struct cli_suggest *s, const char *word);
void cli_suggest_try(struct cli_suggest *s, const char *candidate);
/* The hint ("did you mean 'matmul'? " or "") for an unknown workload, or
 * an unknown variant of w. */
void cli_suggest_workload(const char *name, char *hint, size_t size);
void cli_suggest_variant(const struct clmem_workload *w, const char *name, char *hint, size_t size);

#endif
