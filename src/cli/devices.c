/* The devices a command runs on: listed once the driver's needs are met,
 * opened with clmem's signal handlers kept over the driver's. */
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

int cli_open_device(const char *spec, const char *kernel_dir, struct clmem_ctx *ctx,
                    struct clmem_error *err)
{
    struct clmem_device *devices;
    size_t count, chosen;
    int status = cli_devices_list(&devices, &count, CLI_DRIVER_ADDRESS_SPACE_MIB, err);
    if (status)
        return status;
    status = clmem_devices_select(spec, devices, count, &chosen, err);
    if (status == CLMEM_OK)
        status = cli_ctx_open(ctx, &devices[chosen], kernel_dir, err);
    free(devices);
    return status;
}
