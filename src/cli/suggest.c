/* "did you mean": the nearest name to one mistyped, for commands,
 * options, workloads and variants. */
#include "suggest.h"
#include "workloads/registry.h"

#include <string.h>

/* Edit distance, a swap of two neighbours counting one (optimal string
 * alignment: "rnu" is one slip from "run"); 99 for long names. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 99;
    size_t d[65][65];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

void cli_suggest_start(struct cli_suggest *s, const char *word)
{
    s->word = word;
    s->best = NULL;
    s->distance = 0;
}

void cli_suggest_try(struct cli_suggest *s, const char *candidate)
{
    size_t len = strlen(s->word), d = edit_distance(s->word, candidate);
    /* Close enough to be a slip: a third of the word, at least 1, at most 3. */
    size_t limit = len / 3 < 1 ? 1 : len / 3 > 3 ? 3 : len / 3;
    if (d == 0 || d > limit || (s->best && d >= s->distance))
        return;
    s->best = candidate;
    s->distance = d;
}

void cli_suggest_workload(const char *name, char *hint, size_t size)
{
    struct cli_suggest s;
    size_t n;
    const struct clmem_workload *const *all = clmem_workloads(&n);
    cli_suggest_start(&s, name);
    for (size_t i = 0; i < n; i++) {
        struct clmem_workload_info info;
        clmem_workload_describe(all[i], &info);
        cli_suggest_try(&s, info.name);
    }
    hint[0] = '\0';
    if (s.best)
        snprintf(hint, size, "did you mean '%s'? ", s.best);
}

void cli_suggest_variant(const struct clmem_workload *w, const char *name, char *hint, size_t size)
{
    struct cli_suggest s;
    struct clmem_workload_info info;
    clmem_workload_describe(w, &info);
    cli_suggest_start(&s, name);
    for (size_t i = 0; i < info.n_variants; i++) {
        struct clmem_variant_info v;
        clmem_variant_describe(w, i, &v);
        cli_suggest_try(&s, v.name);
    }
    hint[0] = '\0';
    if (s.best)
        snprintf(hint, size, "did you mean '%s'? ", s.best);
}
