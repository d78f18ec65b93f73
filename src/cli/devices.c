/* The devices a command runs on: listed once the driver's needs are met,
 * chosen from --device by one rule for every command and rank, opened
 * with clmem's signal handlers kept over the driver's. */
#include "cli.h"

#include <stdlib.h>

static void say_building(void *user, const struct clmem_device *device)
{
    (void)user;
    if (cli_progress_on())
        fprintf(stderr, "clmem: building kernels for %s (first time; cached afterwards)\n",
                device->name);
}

int cli_devices_list(struct clmem_device **devices, size_t *count, unsigned need_mib,
                     struct clmem_error *err)
{
    *devices = NULL;
    *count = 0;
    int status = cli_limits_check(need_mib, err);
    if (status || (status = cli_pocl_cache_check(err)))
        return status;
    sigset_t old;
    cli_signals_hold(&old);
    status = clmem_devices_list(devices, count, err);
    cli_signals_release(&old);
    return status;
}

/* Spec i of d, NUL-terminated: the text itself when it is one spec, else
 * copied into buf. */
static const char *spec_of(const struct cli_devices *d, size_t i, char buf[CLI_DEVICE_SPEC_MAX])
{
    if (d->n == 1)
        return d->text;
    snprintf(buf, CLI_DEVICE_SPEC_MAX, "%.*s", (int)d->spec[i].len, d->text + d->spec[i].at);
    return buf;
}

int cli_devices_choose(const struct cli_devices *d, unsigned flags,
                       const struct clmem_device *devices, size_t count, size_t *chosen,
                       size_t capacity, size_t *n_chosen, struct clmem_error *err)
{
    *n_chosen = 0;
    int every = d->all || (!d->text && (flags & (CLI_CHOOSE_ALL | CLI_CHOOSE_GPUS)));
    if (every) {
        if (count == 0)
            return clmem_fail(err, CLMEM_ERR_CL, "no OpenCL device found");
        if (!d->all && (flags & CLI_CHOOSE_GPUS))
            for (size_t i = 0; i < count && *n_chosen < capacity; i++)
                if (devices[i].type & CL_DEVICE_TYPE_GPU)
                    chosen[(*n_chosen)++] = i;
        if (*n_chosen == 0) /* all, or no GPU: every device */
            for (size_t i = 0; i < count && i < capacity; i++)
                chosen[(*n_chosen)++] = i;
        return CLMEM_OK;
    }
    if (!d->text) { /* the first GPU, else the first device */
        int status = clmem_devices_select(NULL, devices, count, chosen, err);
        *n_chosen = status == CLMEM_OK;
        return status;
    }
    char buf[CLI_DEVICE_SPEC_MAX];
    for (size_t i = 0; i < d->n && *n_chosen < capacity; i++) {
        size_t index;
        int status = clmem_devices_select(spec_of(d, i, buf), devices, count, &index, err);
        if (status)
            return status;
        int seen = 0;
        for (size_t j = 0; (flags & CLI_CHOOSE_ONCE) && j < *n_chosen; j++)
            seen |= chosen[j] == index;
        if (!seen)
            chosen[(*n_chosen)++] = index;
    }
    return CLMEM_OK;
}

int cli_ctx_open(struct clmem_ctx *ctx, const struct clmem_device *device, const char *kernel_dir,
                 struct clmem_error *err)
{
    sigset_t old;
    cli_signals_hold(&old);
    int status = clmem_ctx_open(ctx, device, kernel_dir, err);
    cli_signals_release(&old);
    ctx->cancelled = cli_interrupted;
    ctx->building = say_building;
    return status;
}

int cli_open_device(const struct cli_devices *d, const char *kernel_dir, struct clmem_ctx *ctx,
                    struct clmem_error *err)
{
    struct clmem_device *devices;
    size_t count, chosen, n;
    int status = cli_devices_list(&devices, &count, CLI_DRIVER_ADDRESS_SPACE_MIB, err);
    if (status)
        return status;
    status = cli_devices_choose(d, 0, devices, count, &chosen, 1, &n, err);
    if (status == CLMEM_OK)
        status = cli_ctx_open(ctx, &devices[chosen], kernel_dir, err);
    free(devices);
    return status;
}
