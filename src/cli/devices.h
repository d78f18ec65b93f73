/* The devices a command runs on (devices.c): listed once the driver's
 * needs are met, chosen from --device as cli_parse parsed it by one rule
 * for every command and rank, and opened by one function. */
#ifndef CLMEM_CLI_DEVICES_H
#define CLMEM_CLI_DEVICES_H

#include "driver.h"
#include "harness/harness.h"
#include "options.h"

/* clmem_devices_list, first refusing what the driver would crash on
 * (cli_limits_check, cli_pocl_cache_check; need_mib: one of limits.h's),
 * and keeping clmem's signal handlers over those the driver installs as it
 * loads (LLVM's). */
int cli_devices_list(struct clmem_device **devices, size_t *count, unsigned need_mib,
                     struct clmem_error *err);
/* How cli_devices_pick takes --device. Without a flag, --device not given
 * is the first GPU, else the first device. */
enum {
    CLI_CHOOSE_ONCE = 1 << 0, /* a device named twice is taken once */
    CLI_CHOOSE_ALL = 1 << 1,  /* --device not given: every device */
    CLI_CHOOSE_GPUS = 1 << 2, /* --device not given: every GPU, else every device */
};
/* The devices listed and those --device names among them. */
struct cli_chosen {
    struct clmem_device *devices; /* every device listed */
    size_t count;
    size_t at[CLI_MAX_DEVICES]; /* the chosen ones' indexes in devices, in d's order */
    size_t n;
};
/* The one selection of devices: lists them (cli_devices_list) and takes
 * those `d` names, each spec as clmem_device_spec_find finds it (all:
 * every device), at most CLI_MAX_DEVICES. Free *c with cli_chosen_free,
 * whatever the status. */
int cli_devices_pick(const struct cli_devices *d, unsigned flags, unsigned need_mib,
                     struct cli_chosen *c, struct clmem_error *err);
void cli_chosen_free(struct cli_chosen *c);
/* The i-th chosen device, i taken modulo their number (ranks share them). */
const struct clmem_device *cli_chosen_device(const struct cli_chosen *c, size_t i);
/* How a command opens a device. */
struct cli_open {
    const char *kernel_dir; /* --kernel-dir, or NULL */
    int no_cache;           /* --no-cache: the compiled-program cache unused */
    int check_clock;        /* the event clock checked now (clmem_clock_check) */
};
/* The one way a command opens a device: the i-th of those c chose (modulo
 * their number), clmem's signal handlers kept over the driver's; its builds
 * are abandoned when a stop is asked for (ctx->cancelled = cli_interrupted).
 * Close ctx with clmem_ctx_close, whatever the status. */
int cli_device_open(const struct cli_chosen *c, size_t i, const struct cli_open *how,
                    struct clmem_ctx *ctx, struct clmem_error *err);
/* Picks and opens the one device `d` names (exit code 3 when none). */
int cli_open_device(const struct cli_devices *d, const struct cli_open *how, struct clmem_ctx *ctx,
                    struct clmem_error *err);

#endif
