/* clmem devices: every platform and device, the properties that matter here. */
#include "cli.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* How a property prints, which also says its member's type. */
enum field_kind {
    TEXT,   /* char[] */
    TYPE,   /* cl_device_type */
    UINT,   /* cl_uint */
    MHZ,    /* cl_uint */
    BYTES,  /* cl_ulong */
    SIZE,   /* size_t */
    ALIGN,  /* cl_uint, in bits */
    YES_NO, /* int */
    NS,     /* size_t, in nanoseconds */
};

/* Where a property is in struct clmem_device. */
#define MEMBER(name) offsetof(struct clmem_device, name)

/* One row per property, in clinfo's order of importance for this suite. */
static const struct {
    const char *label;
    enum field_kind kind;
    size_t offset;
} fields[] = {
    {"type", TYPE, MEMBER(type)},
    {"vendor", TEXT, MEMBER(vendor)},
    {"compute units", UINT, MEMBER(compute_units)},
    {"max clock", MHZ, MEMBER(clock_mhz)},
    {"global memory", BYTES, MEMBER(global_mem)},
    {"max allocation", BYTES, MEMBER(max_alloc)},
    {"local memory", BYTES, MEMBER(local_mem)},
    {"max work-group size", SIZE, MEMBER(max_work_group)},
    {"base address align", ALIGN, MEMBER(base_addr_align_bits)},
    {"timer resolution", NS, MEMBER(timer_resolution_ns)},
    {"double precision", YES_NO, MEMBER(has_fp64)},
    {"device version", TEXT, MEMBER(version)},
    {"OpenCL C version", TEXT, MEMBER(c_version)},
    {"driver version", TEXT, MEMBER(driver)},
};

static void fmt_mib(cl_ulong bytes, char *o, size_t n)
{
    if (bytes >= (1ULL << 30))
        snprintf(o, n, "%.1f GiB (%llu bytes)", (double)bytes / (1ULL << 30),
                 (unsigned long long)bytes);
    else
        snprintf(o, n, "%.1f KiB (%llu bytes)", (double)bytes / 1024, (unsigned long long)bytes);
}

/* The property of `kind` at `member` as text. */
static void format_field(enum field_kind kind, const void *member, char *o, size_t n)
{
    const cl_uint *u = member;
    switch (kind) {
    case TEXT: snprintf(o, n, "%s", (const char *)member); break;
    case TYPE: snprintf(o, n, "%s", clmem_device_type_name(*(const cl_device_type *)member)); break;
    case UINT: snprintf(o, n, "%u", *u); break;
    case MHZ: snprintf(o, n, "%u MHz", *u); break;
    case BYTES: fmt_mib(*(const cl_ulong *)member, o, n); break;
    case SIZE: snprintf(o, n, "%zu", *(const size_t *)member); break;
    case ALIGN: snprintf(o, n, "%u bytes", *u / 8); break;
    case YES_NO: snprintf(o, n, "%s", *(const int *)member ? "yes" : "no"); break;
    case NS: snprintf(o, n, "%zu ns (reported)", *(const size_t *)member); break;
    }
}

/* Whether a kernel can be built under the address-space limit (listing
 * needs less than building). */
static int can_build(void)
{
    struct rlimit limit;
    return getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY ||
           limit.rlim_cur >= (rlim_t)CLI_DRIVER_ADDRESS_SPACE_MIB << 20;
}

/* The event clock's check (clmem_clock_check), as one line: whether the
 * device's events time the samples, or the host's clock does and why. */
static void print_clock(const struct clmem_device *d)
{
    char line[400];
    struct clmem_ctx ctx;
    struct clmem_error err = {0};
    if (!can_build()) {
        snprintf(line, sizeof line,
                 "not checked (the address-space limit is below the %u MiB a kernel build needs)",
                 CLI_DRIVER_ADDRESS_SPACE_MIB);
    } else if (cli_ctx_open(&ctx, d, NULL, &err) || clmem_clock_check(&ctx, &err)) {
        snprintf(line, sizeof line, "not checked: %.300s", err.message);
        clmem_ctx_close(&ctx);
    } else {
        if (ctx.clock.events_ok)
            snprintf(line, sizeof line,
                     "events used: %.4f of the host's time around a %.1f ms kernel, tick %.0f ns",
                     ctx.clock.wall_ratio, ctx.clock.check_ms, ctx.clock.tick_ns);
        else
            snprintf(line, sizeof line, "failed, the host's clock times samples: %.300s",
                     ctx.clock.why);
        clmem_ctx_close(&ctx);
    }
    clmem_error_clear(&err);
    printf("    %-20s %s\n", "event clock", line);
}

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
            format_field(fields[f].kind, (const char *)d + fields[f].offset, value, sizeof value);
            printf("    %-20s %s\n", fields[f].label, value);
        }
        print_clock(d);
    }
    free(devices);
    return CLMEM_OK;
}
