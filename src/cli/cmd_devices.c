/* clmem devices: every platform and device, the properties that matter here. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

typedef void (*field_formatter)(const struct clmem_device *d, char *out, size_t size);

static void fmt_type(const struct clmem_device *d, char *o, size_t n)
{
    snprintf(o, n, "%s", clmem_device_type_name(d->type));
}
static void fmt_vendor(const struct clmem_device *d, char *o, size_t n)
{
    snprintf(o, n, "%s", d->vendor);
}
static void fmt_units(const struct clmem_device *d, char *o, size_t n)
{
    snprintf(o, n, "%u", d->compute_units);
}
static void fmt_clock(const struct clmem_device *d, char *o, size_t n)
{
    snprintf(o, n, "%u MHz", d->clock_mhz);
}
static void fmt_mib(cl_ulong bytes, char *o, size_t n)
{
    if (bytes >= (1ULL << 30))
        snprintf(o, n, "%.1f GiB (%llu bytes)", (double)bytes / (1ULL << 30),
                 (unsigned long long)bytes);
    else
        snprintf(o, n, "%.1f KiB (%llu bytes)", (double)bytes / 1024, (unsigned long long)bytes);
}
static void fmt_global(const struct clmem_device *d, char *o, size_t n)
{
    fmt_mib(d->global_mem, o, n);
}
static void fmt_alloc(const struct clmem_device *d, char *o, size_t n)
{
    fmt_mib(d->max_alloc, o, n);
}
static void fmt_local(const struct clmem_device *d, char *o, size_t n)
{
    fmt_mib(d->local_mem, o, n);
}
static void fmt_wg(const struct clmem_device *d, char *o, size_t n)
{
    snprintf(o, n, "%zu", d->max_work_group);
}
static void fmt_align(const struct clmem_device *d, char *o, size_t n)
{
    snprintf(o, n, "%u bytes", d->base_addr_align_bits / 8);
}
static void fmt_fp64(const struct clmem_device *d, char *o, size_t n)
{
    snprintf(o, n, "%s", d->has_fp64 ? "yes" : "no");
}
static void fmt_version(const struct clmem_device *d, char *o, size_t n)
{
    snprintf(o, n, "%s", d->version);
}
static void fmt_c_version(const struct clmem_device *d, char *o, size_t n)
{
    snprintf(o, n, "%s", d->c_version);
}
static void fmt_driver(const struct clmem_device *d, char *o, size_t n)
{
    snprintf(o, n, "%s", d->driver);
}

/* One row per property, in clinfo's order of importance for this suite. */
static const struct {
    const char *label;
    field_formatter format;
} fields[] = {
    {"type", fmt_type},
    {"vendor", fmt_vendor},
    {"compute units", fmt_units},
    {"max clock", fmt_clock},
    {"global memory", fmt_global},
    {"max allocation", fmt_alloc},
    {"local memory", fmt_local},
    {"max work-group size", fmt_wg},
    {"base address align", fmt_align},
    {"double precision", fmt_fp64},
    {"device version", fmt_version},
    {"OpenCL C version", fmt_c_version},
    {"driver version", fmt_driver},
};

const struct cli_spec cli_devices_spec = {
    .name = "devices",
    .synopsis = "",
    .about = "Lists every OpenCL platform and device. The index P:D, the type (gpu, cpu)\n"
             "or part of the name selects a device in 'clmem run --device'.\n",
    .max_args = 0,
};

int cmd_devices(int argc, char **argv)
{
    struct clmem_error err = {0};
    struct cli_opts o;
    if (cli_parse(&cli_devices_spec, argc, argv, &o, &err))
        return cli_report_error(&err);
    if (o.help) {
        cli_help(&cli_devices_spec, stdout);
        return CLMEM_OK;
    }

    struct clmem_device *devices;
    size_t count;
    if (cli_devices_list(&devices, &count, CLI_LIST_ADDRESS_SPACE_MIB, &err))
        return cli_report_error(&err);
    if (count == 0) {
        fprintf(stderr, "clmem: no OpenCL device found (install one: on Debian/Ubuntu 'sudo "
                        "apt-get install pocl-opencl-icd' gives a CPU device)\n");
        return CLMEM_ERR_CL;
    }
    for (size_t i = 0; i < count; i++) {
        const struct clmem_device *d = &devices[i];
        if (i == 0 || d->platform_index != devices[i - 1].platform_index)
            printf("%splatform %u: %s\n", i ? "\n" : "", d->platform_index, d->platform_name);
        printf("  device %u:%u: %s\n", d->platform_index, d->device_index, d->name);
        for (size_t f = 0; f < CLMEM_ARRAY_SIZE(fields); f++) {
            char value[256];
            fields[f].format(d, value, sizeof value);
            printf("    %-20s %s\n", fields[f].label, value);
        }
    }
    free(devices);
    return CLMEM_OK;
}
