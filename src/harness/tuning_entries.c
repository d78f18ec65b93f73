/* A run's entries in the tuning database (io/tuning.c): a tunable
 * variant's parameters for this device, driver and size class. */
#include "harness/harness.h"

#include <stdio.h>
#include <string.h>

/* The entry's key and its parameters' names, for the database. */
static void key_of(const struct clmem_ctx *ctx, const struct clmem_workload *w,
                   const struct clmem_tunable *t, const struct clmem_size *size,
                   struct clmem_tuning_key *key, char *size_class, size_t class_size,
                   const char *names[CLMEM_MAX_PARAMS])
{
    clmem_size_class(size, size_class, class_size);
    *key = (struct clmem_tuning_key){ctx->device.name, ctx->device.driver, w->name, t->variant,
                                     size_class};
    for (size_t i = 0; i < t->n_params && i < CLMEM_MAX_PARAMS; i++)
        names[i] = t->params[i].name;
}

int clmem_tuning_lookup(struct clmem_ctx *ctx, const struct clmem_workload *w,
                        const struct clmem_tunable *t, const struct clmem_size *size, int values[])
{
    struct clmem_tuning_key key;
    char size_class[64];
    const char *names[CLMEM_MAX_PARAMS];
    key_of(ctx, w, t, size, &key, size_class, sizeof size_class, names);
    if (!clmem_tuning_db_lookup(&key, names, t->n_params, values, ctx->tuning_warning,
                                sizeof ctx->tuning_warning))
        return 0;
    if (t->valid(&ctx->device, values))
        return 1;
    /* An entry the device cannot run (BLOCK_ROWS 3 of TILE_DIM 32, a
     * work-group past the device's) is as good as none, and said. */
    char path[1024], given[256], text[1500];
    size_t used = 0;
    given[0] = '\0';
    for (size_t i = 0; i < t->n_params && used < sizeof given; i++) {
        int k = snprintf(given + used, sizeof given - used, "%s%s %d", i ? ", " : "", names[i],
                         values[i]);
        used += k > 0 ? (size_t)k : 0;
    }
    if (clmem_tuning_path(path, sizeof path) != 0)
        snprintf(path, sizeof path, "tuning.json");
    snprintf(text, sizeof text,
             "tuning database '%s': the entry for %s %s on '%s' (%s) has %s, which %s %s cannot "
             "run on this device: ignored, the built-in parameters used",
             path, w->name, t->variant, ctx->device.name, size_class, given, w->name, t->variant);
    clmem_tuning_warn(ctx->tuning_warning, sizeof ctx->tuning_warning, text);
    return 0;
}

int clmem_tuning_store(struct clmem_ctx *ctx, const struct clmem_workload *w,
                       const struct clmem_tunable *t, const struct clmem_size *size,
                       const int values[], const struct clmem_tuning_outcome *outcome,
                       struct clmem_error *err)
{
    struct clmem_tuning_key key;
    char size_class[64];
    const char *names[CLMEM_MAX_PARAMS];
    key_of(ctx, w, t, size, &key, size_class, sizeof size_class, names);
    return clmem_tuning_db_store(&key, names, values, t->n_params, outcome, err);
}

const struct clmem_tunable *clmem_tunable_find(const struct clmem_workload *w, const char *name)
{
    for (size_t i = 0; i < w->n_tunables; i++)
        if (strcmp(w->tunables[i].variant, name) == 0)
            return &w->tunables[i];
    return NULL;
}

int clmem_run_tuned(struct clmem_run *run, const struct clmem_tunable *t, int values[])
{
    if (run->tune_values) {
        /* Tuning: the candidate is for the one variant the run selects. */
        if (run->n_variants != 1 || strcmp(run->variants[0]->name, t->variant) != 0)
            return 0;
        memcpy(values, run->tune_values, t->n_params * sizeof *values);
        return 1;
    }
    if (run->ignore_tuning || !clmem_tuning_lookup(run->ctx, run->workload, t, &run->size, values))
        return 0;
    const struct clmem_variant *v = clmem_variant_find(run->workload, t->variant);
    size_t index = v ? (size_t)(v - run->workload->variants) : CLMEM_MAX_VARIANTS;
    if (index < CLMEM_MAX_VARIANTS)
        run->from_database[index] = 1;
    return 1;
}
