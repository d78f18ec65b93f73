/* What `--variant auto` chooses at each shape for a device made up from
 * the environment, without the device: to see what a change to auto's
 * model or to the parameter database does at many shapes (diff the
 * output of two builds), or what a fitted device's rows make auto do.
 * meson builds it (build/auto_choices; not installed).
 * Run: build/auto_choices 4096x4096x4096 89x1544x4434 ... (or shapes one a
 * line on stdin). Env: NAME, VENDOR, FAMILY, UNITS, MHZ (the device: an
 * NVIDIA sm_90 of 132 units at 1980 MHz unless said), and what clmem
 * reads: CLMEM_DATA_DIR, XDG_CACHE_HOME (fitted rows in
 * $XDG_CACHE_HOME/clmem/params/), CLMEM_PARAMS_GENERIC, CLMEM_DEBUG. */
#include "workloads/matmul.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *env_or(const char *name, const char *fallback)
{
    const char *v = getenv(name);
    return v && v[0] ? v : fallback;
}

static void choose(const struct clmem_device *d, const char *shape)
{
    size_t m, n, k;
    char why[256];
    if (sscanf(shape, "%zux%zux%zu", &m, &n, &k) != 3)
        return;
    printf("%zux%zux%zu: %s (%s)\n", m, n, k, matmul_auto_choose(d, m, n, k, why, sizeof why),
           why);
}

int main(int argc, char **argv)
{
    struct clmem_device d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "%s", env_or("NAME", "made-up sm_90"));
    snprintf(d.vendor, sizeof d.vendor, "%s", env_or("VENDOR", "NVIDIA Corporation"));
    snprintf(d.platform_name, sizeof d.platform_name, "%s", d.vendor);
    snprintf(d.family, sizeof d.family, "%s", env_or("FAMILY", "sm_90"));
    d.type = CL_DEVICE_TYPE_GPU;
    d.compute_units = (cl_uint)atoi(env_or("UNITS", "132"));
    d.clock_mhz = (cl_uint)atoi(env_or("MHZ", "1980"));
    d.global_mem = (cl_ulong)80 << 30;
    d.max_alloc = (cl_ulong)20 << 30;
    d.local_mem = 48 << 10;
    d.max_work_group = 1024;
    char line[256];
    if (argc > 1)
        for (int i = 1; i < argc; i++)
            choose(&d, argv[i]);
    else
        while (fgets(line, sizeof line, stdin))
            choose(&d, line);
    return 0;
}
