/* clmem devices: every platform and device, the properties that matter here. */
#include "commands.h"

#include "common.h"
#include "devices.h"
#include "option_help.h"
#include "options.h"
#include "report/csv.h"
#include "report/json.h"
#include "report/report.h"

#include <cJSON.h>

#include <ctype.h>
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
static void print_clock(const struct cli_chosen *c, size_t i)
{
    char line[400];
    struct clmem_ctx ctx;
    struct clmem_error err = {0};
    if (!can_build()) {
        snprintf(line, sizeof line,
                 "not checked (the address-space limit is below the %u MiB a kernel build needs)",
                 CLI_DRIVER_ADDRESS_SPACE_MIB);
    } else if (cli_device_open(c, i, &(struct cli_open){.check_clock = 1}, &ctx, &err)) {
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

static const struct cli_use devices_uses[] = {
    {.id = CLI_OPT_FORMAT},
};

const struct cli_spec cli_devices_spec = {
    .name = "devices",
    .synopsis = "[--format table|csv|json]",
    .about = "Lists every OpenCL platform and device. The index P:D, the type (gpu, cpu)\n"
             "or part of the name selects a device in 'clmem run --device'. CSV and JSON\n"
             "give the same properties, numbers in full (bytes, MHz, ns), for tools; the\n"
             "event clock's check (a kernel build) is the table's alone.\n",
    CLI_USES(devices_uses),
    .max_args = 0,
};

/* "global memory" -> "global_memory": a key for CSV and JSON. */
static void field_key(const char *label, char *out, size_t size)
{
    size_t i = 0;
    for (; label[i] && i + 1 < size; i++)
        out[i] = label[i] == ' ' || label[i] == '-' ? '_' : (char)tolower((unsigned char)label[i]);
    out[i] = '\0';
}

/* The property as a machine reads it: a number in its unit, or text. */
static double field_number(enum field_kind kind, const void *member, int *is_number)
{
    *is_number = 1;
    switch (kind) {
    case UINT:
    case MHZ: return *(const cl_uint *)member;
    case ALIGN: return *(const cl_uint *)member / 8;
    case BYTES: return (double)*(const cl_ulong *)member;
    case SIZE:
    case NS: return (double)*(const size_t *)member;
    case TEXT:
    case TYPE:
    case YES_NO: break;
    }
    *is_number = 0;
    return 0;
}

static void field_text(enum field_kind kind, const void *member, char *o, size_t n)
{
    int is_number;
    double v = field_number(kind, member, &is_number);
    if (is_number)
        snprintf(o, n, "%.0f", v);
    else if (kind == YES_NO)
        snprintf(o, n, "%s", *(const int *)member ? "true" : "false");
    else
        format_field(kind, member, o, n);
}

static void print_csv(const struct clmem_device *devices, size_t count)
{
    char key[64], value[256];
    printf("index,platform,name");
    for (size_t f = 0; f < CLMEM_ARRAY_SIZE(fields); f++) {
        field_key(fields[f].label, key, sizeof key);
        printf(",%s", key);
    }
    putchar('\n');
    for (size_t i = 0; i < count; i++) {
        const struct clmem_device *d = &devices[i];
        printf("%u:%u,", d->platform_index, d->device_index);
        clmem_csv_field(stdout, d->platform_name);
        putchar(',');
        clmem_csv_field(stdout, d->name);
        for (size_t f = 0; f < CLMEM_ARRAY_SIZE(fields); f++) {
            field_text(fields[f].kind, (const char *)d + fields[f].offset, value, sizeof value);
            putchar(',');
            clmem_csv_field(stdout, value);
        }
        putchar('\n');
    }
}

static int print_json(const struct clmem_device *devices, size_t count, struct clmem_error *err)
{
    cJSON *root = cJSON_CreateArray();
    char key[64], value[256], index[32];
    for (size_t i = 0; i < count; i++) {
        const struct clmem_device *d = &devices[i];
        cJSON *o = cJSON_CreateObject();
        snprintf(index, sizeof index, "%u:%u", d->platform_index, d->device_index);
        cJSON_AddStringToObject(o, "index", index);
        cJSON_AddStringToObject(o, "platform", d->platform_name);
        cJSON_AddStringToObject(o, "name", d->name);
        for (size_t f = 0; f < CLMEM_ARRAY_SIZE(fields); f++) {
            const void *member = (const char *)d + fields[f].offset;
            int is_number;
            double v = field_number(fields[f].kind, member, &is_number);
            field_key(fields[f].label, key, sizeof key);
            if (is_number)
                cJSON_AddNumberToObject(o, key, v);
            else if (fields[f].kind == YES_NO)
                cJSON_AddBoolToObject(o, key, *(const int *)member);
            else {
                format_field(fields[f].kind, member, value, sizeof value);
                cJSON_AddStringToObject(o, key, value);
            }
        }
        cJSON_AddItemToArray(root, o);
    }
    return clmem_json_print(stdout, root, err);
}

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

    /* Every device (none: an error, which says how to install one). */
    struct cli_chosen c;
    if (cli_devices_pick(&o.devices, CLI_CHOOSE_ALL, CLI_LIST_ADDRESS_SPACE_MIB, &c, &err)) {
        cli_chosen_free(&c);
        return cli_report_error(&err);
    }
    if (o.format != CLMEM_FORMAT_TABLE) {
        int status = CLMEM_OK;
        if (o.format == CLMEM_FORMAT_CSV)
            print_csv(c.devices, c.count);
        else
            status = print_json(c.devices, c.count, &err);
        cli_chosen_free(&c);
        return status ? cli_report_error(&err) : CLMEM_OK;
    }
    for (size_t i = 0; i < c.n; i++) {
        const struct clmem_device *d = cli_chosen_device(&c, i);
        if (i == 0 || d->platform_index != cli_chosen_device(&c, i - 1)->platform_index)
            printf("%splatform %u: %s\n", i ? "\n" : "", d->platform_index, d->platform_name);
        printf("  device %u:%u: %s\n", d->platform_index, d->device_index, d->name);
        for (size_t f = 0; f < CLMEM_ARRAY_SIZE(fields); f++) {
            char value[256];
            format_field(fields[f].kind, (const char *)d + fields[f].offset, value, sizeof value);
            printf("    %-20s %s\n", fields[f].label, value);
        }
        print_clock(&c, i);
    }
    cli_chosen_free(&c);
    return CLMEM_OK;
}
