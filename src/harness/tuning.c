/* A run's entry in the tuning database (io/tuning.c): the tunable
 * variant's parameters for this device, driver and size class. */
#include "harness/workload.h"

#include <stdio.h>

/* The entry's key and its parameters' names, for the database. */
static void key_of(const struct clmem_ctx *ctx, const struct clmem_workload *w,
                   const struct clmem_size *size, struct clmem_tuning_key *key, char *size_class,
                   size_t class_size, const char *names[CLMEM_MAX_PARAMS])
{
    clmem_size_class(size, size_class, class_size);
    *key = (struct clmem_tuning_key){ctx->device.name, ctx->device.driver, w->name,
                                     w->tunable->variant, size_class};
    for (size_t i = 0; i < w->tunable->n_params && i < CLMEM_MAX_PARAMS; i++)
        names[i] = w->tunable->params[i].name;
}

int clmem_tuning_lookup(struct clmem_ctx *ctx, const struct clmem_workload *w,
                        const struct clmem_size *size, int values[])
{
    if (!w->tunable)
        return 0;
    struct clmem_tuning_key key;
    char size_class[64];
    const char *names[CLMEM_MAX_PARAMS];
    key_of(ctx, w, size, &key, size_class, sizeof size_class, names);
    /* An entry the device cannot run is as good as none. */
    return clmem_tuning_db_lookup(&key, names, w->tunable->n_params, values, ctx->tuning_warning,
                                  sizeof ctx->tuning_warning) &&
           w->tunable->valid(&ctx->device, values);
}

int clmem_tuning_store(struct clmem_ctx *ctx, const struct clmem_workload *w,
                       const struct clmem_size *size, const int values[],
                       const struct clmem_tuning_outcome *outcome, struct clmem_error *err)
{
    if (!w->tunable)
        return clmem_fail(err, CLMEM_ERR_USAGE, "workload '%s' has nothing to tune", w->name);
    struct clmem_tuning_key key;
    char size_class[64];
    const char *names[CLMEM_MAX_PARAMS];
    key_of(ctx, w, size, &key, size_class, sizeof size_class, names);
    return clmem_tuning_db_store(&key, names, values, w->tunable->n_params, outcome,
                                 ctx->tuning_warning, sizeof ctx->tuning_warning, err);
}
