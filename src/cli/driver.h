/* What the OpenCL driver needs before it loads: address space and open
 * files (limits.c), a usable kernel cache (pocl_cache.c). */
#ifndef CLMEM_CLI_DRIVER_H
#define CLMEM_CLI_DRIVER_H

#include "base/base.h"

/* The address space (ulimit -v, RLIMIT_AS) the driver needs, in MiB: a
 * smaller limit is refused before the driver loads, where it would crash.
 * Each is PoCL's measured need with room to spare (docs/reliability.md,
 * "Memory", has the figures). */
#define CLI_LIST_ADDRESS_SPACE_MIB   512  /* listing the devices */
#define CLI_DRIVER_ADDRESS_SPACE_MIB 2048 /* building and running kernels */
/* Open files (ulimit -n) the driver needs: PoCL's compiler failed below 16
 * with caches cold (`run reduce`); four times that is asked. */
#define CLI_DRIVER_FILE_DESCRIPTORS 64
/* The address-space and open-file limits checked against the driver's
 * needs (need_mib: one of the above; exit code 3 when below), the soft
 * open-file limit raised where it may be. */
int cli_limits_check(unsigned need_mib, struct clmem_error *err);
/* PoCL's kernel cache: where PoCL's own place cannot be made (it would
 * list no device), a private temporary one (POCL_CACHE_DIR), removed by
 * cli_pocl_cache_remove at exit; a POCL_CACHE_DIR of the user's that
 * cannot be made is a usage error. Checked once, before the driver loads. */
int cli_pocl_cache_check(struct clmem_error *err);
void cli_pocl_cache_remove(void);

#endif
