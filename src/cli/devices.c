/* The devices a command runs on: listed once the driver's needs are met,
 * chosen from --device's parsed specs by one rule for every command and
 * rank, opened by one function with clmem's signal handlers kept over the
 * driver's. */
#include "devices.h"

#include "driver.h"
#include "progress.h"
#include "stopping.h"

#include <stdlib.h>
#include <string.h>

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

/* The indexes of the devices d names, in its order, into c. */
static int choose(const struct cli_devices *d, unsigned flags, struct cli_chosen *c,
                  struct clmem_error *err)
{
    static const struct clmem_device_spec first_gpu; /* CLMEM_SPEC_DEFAULT */
    if (d->all || (!d->text && (flags & (CLI_CHOOSE_ALL | CLI_CHOOSE_GPUS)))) {
        if (c->count == 0) /* "no OpenCL device found", and how to install one */
            return clmem_device_spec_find(&first_gpu, c->devices, 0, NULL, err);
        if (!d->all && (flags & CLI_CHOOSE_GPUS))
            for (size_t i = 0; i < c->count && c->n < CLI_MAX_DEVICES; i++)
                if (c->devices[i].type & CL_DEVICE_TYPE_GPU)
                    c->at[c->n++] = i;
        if (c->n == 0) /* all, or no GPU: every device */
            for (size_t i = 0; i < c->count && i < CLI_MAX_DEVICES; i++)
                c->at[c->n++] = i;
        return CLMEM_OK;
    }
    /* Not given: the first GPU, else the first device. */
    for (size_t i = 0; i < (d->text ? d->n : 1) && c->n < CLI_MAX_DEVICES; i++) {
        size_t index;
        int status = clmem_device_spec_find(d->text ? &d->spec[i] : &first_gpu, c->devices,
                                            c->count, &index, err);
        if (status)
            return status;
        int seen = 0;
        for (size_t j = 0; (flags & CLI_CHOOSE_ONCE) && j < c->n; j++)
            seen |= c->at[j] == index;
        if (!seen)
            c->at[c->n++] = index;
    }
    return CLMEM_OK;
}

int cli_devices_pick(const struct cli_devices *d, unsigned flags, unsigned need_mib,
                     struct cli_chosen *c, struct clmem_error *err)
{
    memset(c, 0, sizeof *c);
    int status = cli_devices_list(&c->devices, &c->count, need_mib, err);
    return status ? status : choose(d, flags, c, err);
}

void cli_chosen_free(struct cli_chosen *c)
{
    free(c->devices);
    memset(c, 0, sizeof *c);
}

const struct clmem_device *cli_chosen_device(const struct cli_chosen *c, size_t i)
{
    return &c->devices[c->at[i % c->n]];
}

int cli_device_open(const struct cli_chosen *c, size_t i, const struct cli_open *how,
                    struct clmem_ctx *ctx, struct clmem_error *err)
{
    sigset_t old;
    cli_signals_hold(&old);
    int status = clmem_ctx_open(ctx, cli_chosen_device(c, i), how->kernel_dir, err);
    cli_signals_release(&old);
    ctx->cancelled = cli_interrupted;
    ctx->building = say_building;
    ctx->no_cache = how->no_cache;
    if (status == CLMEM_OK && how->check_clock)
        status = clmem_clock_check(ctx, err);
    return status;
}

int cli_open_device(const struct cli_devices *d, const struct cli_open *how, struct clmem_ctx *ctx,
                    struct clmem_error *err)
{
    struct cli_chosen c;
    int status = cli_devices_pick(d, 0, CLI_DRIVER_ADDRESS_SPACE_MIB, &c, err);
    if (status == CLMEM_OK)
        status = cli_device_open(&c, 0, how, ctx, err);
    cli_chosen_free(&c);
    return status;
}
