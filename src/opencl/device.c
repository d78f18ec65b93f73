/* Platform and device discovery and selection. */
#include "opencl/opencl.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_PLATFORMS            16
#define MAX_DEVICES_PER_PLATFORM 64

static int query_string(cl_device_id id, cl_device_info param, char *out, size_t size,
                        struct clmem_error *err)
{
    CLMEM_CHECK(err, clGetDeviceInfo(id, param, size, out, NULL));
    out[size - 1] = '\0';
    return CLMEM_OK;
}

/* cl_nv_device_attribute_query's compute capability. */
#define CLMEM_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CLMEM_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001

/* The device's family, the level between the device and its vendor in
 * the parameter tables (harness/params.c): an NVIDIA GPU's compute
 * capability ("sm_" and its digits: one family for GPUs of one
 * architecture), an AMD GPU's gfx name,
 * a CPU's vector width ("cpu-simd512" for AVX-512, "cpu-simd256" for
 * AVX2, as PoCL reports its native float vectors); "" when unknown. */
static void describe_family(struct clmem_device *d)
{
    d->family[0] = '\0';
    cl_uint major = 0, minor = 0, width = 0;
    if (clmem_device_has_extension(d, "cl_nv_device_attribute_query") &&
        clGetDeviceInfo(d->id, CLMEM_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major,
                        NULL) == CL_SUCCESS &&
        clGetDeviceInfo(d->id, CLMEM_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor,
                        NULL) == CL_SUCCESS) {
        snprintf(d->family, sizeof d->family, "sm_%u%u", major, minor);
    } else if (strncmp(d->name, "gfx", 3) == 0) {
        snprintf(d->family, sizeof d->family, "%.32s", d->name);
    } else if ((d->type & CL_DEVICE_TYPE_CPU) &&
               clGetDeviceInfo(d->id, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof width, &width,
                               NULL) == CL_SUCCESS &&
               width > 0) {
        snprintf(d->family, sizeof d->family, "cpu-simd%u", 32 * width);
    }
}

static int describe(struct clmem_device *d, struct clmem_error *err)
{
    int rc;
    if ((rc = query_string(d->id, CL_DEVICE_NAME, d->name, sizeof d->name, err)) ||
        (rc = query_string(d->id, CL_DEVICE_VENDOR, d->vendor, sizeof d->vendor, err)) ||
        (rc = query_string(d->id, CL_DEVICE_VERSION, d->version, sizeof d->version, err)) ||
        (rc = query_string(d->id, CL_DRIVER_VERSION, d->driver, sizeof d->driver, err)) ||
        (rc = query_string(d->id, CL_DEVICE_OPENCL_C_VERSION, d->c_version, sizeof d->c_version,
                           err)))
        return rc;
    CLMEM_CHECK(err, clGetDeviceInfo(d->id, CL_DEVICE_TYPE, sizeof d->type, &d->type, NULL));
    CLMEM_CHECK(err, clGetDeviceInfo(d->id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof d->compute_units,
                                     &d->compute_units, NULL));
    CLMEM_CHECK(err, clGetDeviceInfo(d->id, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof d->clock_mhz,
                                     &d->clock_mhz, NULL));
    CLMEM_CHECK(err, clGetDeviceInfo(d->id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof d->global_mem,
                                     &d->global_mem, NULL));
    CLMEM_CHECK(err, clGetDeviceInfo(d->id, CL_DEVICE_LOCAL_MEM_SIZE, sizeof d->local_mem,
                                     &d->local_mem, NULL));
    /* Optional: a device that will not say has none known. */
    if (clGetDeviceInfo(d->id, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof d->global_mem_cache,
                        &d->global_mem_cache, NULL) != CL_SUCCESS)
        d->global_mem_cache = 0;
    CLMEM_CHECK(err, clGetDeviceInfo(d->id, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof d->max_alloc,
                                     &d->max_alloc, NULL));
    CLMEM_CHECK(err, clGetDeviceInfo(d->id, CL_DEVICE_PROFILING_TIMER_RESOLUTION,
                                     sizeof d->timer_resolution_ns, &d->timer_resolution_ns, NULL));
    CLMEM_CHECK(err, clGetDeviceInfo(d->id, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof d->max_work_group,
                                     &d->max_work_group, NULL));
    CLMEM_CHECK(err,
                clGetDeviceInfo(d->id, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                                sizeof d->base_addr_align_bits, &d->base_addr_align_bits, NULL));
    cl_device_fp_config fp64 = 0;
    CLMEM_CHECK(err, clGetDeviceInfo(d->id, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL));
    d->has_fp64 = fp64 != 0;
    describe_family(d);
    return CLMEM_OK;
}

int clmem_devices_list(struct clmem_device **devices, size_t *count, struct clmem_error *err)
{
    CLMEM_REFUSE_NULL(err, err);
    CLMEM_REFUSE_NULL(devices, err);
    CLMEM_REFUSE_NULL(count, err);
    cl_platform_id platforms[MAX_PLATFORMS];
    cl_uint n_platforms = 0;
    *devices = NULL;
    *count = 0;
    cl_int rc = clGetPlatformIDs(MAX_PLATFORMS, platforms, &n_platforms);
    /* The ICD loader answers CL_PLATFORM_NOT_FOUND_KHR when no driver is
     * registered: that is "no device", not a failure. */
    if (rc == -1001 || n_platforms == 0)
        return CLMEM_OK;
    if (rc != CL_SUCCESS)
        return clmem_cl_fail(err, rc, "clGetPlatformIDs", __func__, __LINE__);
    if (n_platforms > MAX_PLATFORMS)
        n_platforms = MAX_PLATFORMS;

    struct clmem_device *list = NULL;
    size_t n = 0;
    int status = CLMEM_OK;
    for (cl_uint p = 0; p < n_platforms; p++) {
        cl_device_id ids[MAX_DEVICES_PER_PLATFORM];
        cl_uint n_ids = 0;
        char platform_name[128] = "";
        clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof platform_name, platform_name,
                          NULL);
        platform_name[sizeof platform_name - 1] = '\0';
        rc =
            clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES_PER_PLATFORM, ids, &n_ids);
        if (rc == CL_DEVICE_NOT_FOUND)
            continue; /* a platform with no device is not an error */
        if (rc != CL_SUCCESS) {
            status = clmem_cl_fail(err, rc, "clGetDeviceIDs", __func__, __LINE__);
            goto cleanup;
        }
        if (n_ids > MAX_DEVICES_PER_PLATFORM)
            n_ids = MAX_DEVICES_PER_PLATFORM;
        struct clmem_device *grown = realloc(list, (n + n_ids) * sizeof *list);
        if (!grown) {
            status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory listing devices");
            goto cleanup;
        }
        list = grown;
        for (cl_uint d = 0; d < n_ids; d++) {
            struct clmem_device *dev = &list[n];
            memset(dev, 0, sizeof *dev);
            dev->platform = platforms[p];
            dev->id = ids[d];
            dev->platform_index = p;
            dev->device_index = d;
            memcpy(dev->platform_name, platform_name, sizeof platform_name);
            if ((status = describe(dev, err)) != CLMEM_OK)
                goto cleanup;
            n++;
        }
    }
    *devices = list;
    *count = n;
    return CLMEM_OK;
cleanup:
    free(list);
    return status;
}

static const struct {
    const char *name;
    cl_device_type type;
} device_types[] = {
    {"gpu", CL_DEVICE_TYPE_GPU},
    {"cpu", CL_DEVICE_TYPE_CPU},
    {"accelerator", CL_DEVICE_TYPE_ACCELERATOR},
};

/* Whether text[0..len) holds part (case-insensitive; an empty part is
 * in every text). */
static int has_part(const char *text, size_t len, const char *part, size_t part_len)
{
    for (size_t at = 0; at + part_len <= len; at++)
        if (strncasecmp(text + at, part, part_len) == 0)
            return 1;
    return 0;
}

/* "P:D" with both parts decimal; returns 1 and fills them when it is one. */
static int parse_index(const char *text, size_t len, unsigned long *p, unsigned long *d)
{
    char spec[64], *end;
    if (len >= sizeof spec || !isdigit((unsigned char)text[0]))
        return 0;
    memcpy(spec, text, len);
    spec[len] = '\0';
    *p = strtoul(spec, &end, 10);
    if (*end != ':' || !isdigit((unsigned char)end[1]))
        return 0;
    *d = strtoul(end + 1, &end, 10);
    return *end == '\0';
}

int clmem_device_spec_parse(const char *text, size_t len, struct clmem_device_spec *spec,
                            struct clmem_error *err)
{
    memset(spec, 0, sizeof *spec);
    if (text == NULL)
        return CLMEM_OK; /* CLMEM_SPEC_DEFAULT */
    spec->text = text;
    spec->len = len;
    if (len == 0)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "empty device (use an index like '0:0', a type like 'gpu', or part "
                          "of a name; see 'clmem devices')");
    if (memchr(text, ':', len)) {
        if (!parse_index(text, len, &spec->platform, &spec->device))
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "bad device index '%.*s' (expected PLATFORM:DEVICE, e.g. '0:0')",
                              (int)len, text);
        spec->kind = CLMEM_SPEC_INDEX;
        return CLMEM_OK;
    }
    for (size_t t = 0; t < CLMEM_ARRAY_SIZE(device_types); t++)
        if (strlen(device_types[t].name) == len &&
            strncasecmp(text, device_types[t].name, len) == 0) {
            spec->kind = CLMEM_SPEC_TYPE;
            spec->type = device_types[t].type;
            return CLMEM_OK;
        }
    spec->kind = CLMEM_SPEC_NAME;
    return CLMEM_OK;
}

int clmem_device_spec_find(const struct clmem_device_spec *spec, const struct clmem_device *devices,
                           size_t count, size_t *chosen, struct clmem_error *err)
{
    if (count == 0)
        return clmem_fail(err, CLMEM_ERR_CL,
                          "no OpenCL device found (install one: on Debian/Ubuntu "
                          "'sudo apt-get install pocl-opencl-icd' gives a CPU device)");
    int len = (int)spec->len;
    const char *text = spec->text;
    switch (spec->kind) {
    case CLMEM_SPEC_DEFAULT: /* the first GPU, else the first device */
        *chosen = 0;
        for (size_t i = count; i-- > 0;)
            if (devices[i].type & CL_DEVICE_TYPE_GPU)
                *chosen = i;
        return CLMEM_OK;
    case CLMEM_SPEC_INDEX:
        for (size_t i = 0; i < count; i++)
            if (devices[i].platform_index == spec->platform &&
                devices[i].device_index == spec->device) {
                *chosen = i;
                return CLMEM_OK;
            }
        return clmem_fail(err, CLMEM_ERR_USAGE, "no device '%.*s' (see 'clmem devices')", len,
                          text);
    case CLMEM_SPEC_TYPE:
        for (size_t i = 0; i < count; i++)
            if (devices[i].type & spec->type) {
                *chosen = i;
                return CLMEM_OK;
            }
        return clmem_fail(err, CLMEM_ERR_USAGE, "no %.*s device (see 'clmem devices')", len, text);
    case CLMEM_SPEC_NAME: break;
    }
    for (size_t i = 0; i < count; i++) {
        const char *fields[] = {devices[i].name, devices[i].platform_name, devices[i].vendor,
                                devices[i].version};
        for (size_t f = 0; f < CLMEM_ARRAY_SIZE(fields); f++)
            if (has_part(fields[f], strlen(fields[f]), text, spec->len)) {
                *chosen = i;
                return CLMEM_OK;
            }
    }
    /* Mesa's rusticl lists its devices only where RUSTICL_ENABLE names
     * their drivers: a newcomer asking for llvmpipe sees no such device. */
    const char *enabled = getenv("RUSTICL_ENABLE");
    if ((has_part("llvmpipe", 8, text, spec->len) || has_part(text, spec->len, "llvmpipe", 8) ||
         has_part(text, spec->len, "rusticl", 7)) &&
        (!enabled || !enabled[0]))
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "unknown device '%.*s' (Mesa's rusticl lists llvmpipe only with "
                          "RUSTICL_ENABLE=llvmpipe in the environment; see 'clmem devices')",
                          len, text);
    return clmem_fail(err, CLMEM_ERR_USAGE, "unknown device '%.*s' (see 'clmem devices')", len,
                      text);
}

int clmem_devices_select(const char *spec, const struct clmem_device *devices, size_t count,
                         size_t *chosen, struct clmem_error *err)
{
    CLMEM_REFUSE_NULL(err, err);
    CLMEM_REFUSE_NULL(chosen, err);
    CLMEM_REFUSE_IF(!devices && count, err, "%s: 'devices' is NULL, count %zu", __func__, count);
    struct clmem_device_spec parsed;
    int status = clmem_device_spec_parse(spec, spec ? strlen(spec) : 0, &parsed, err);
    return status ? status : clmem_device_spec_find(&parsed, devices, count, chosen, err);
}

unsigned long clmem_device_loop_limit(const struct clmem_device *device)
{
    return strncmp(device->name, "llvmpipe", 8) == 0 ? 65535 : 0;
}

int clmem_device_has_extension(const struct clmem_device *device, const char *name)
{
    size_t size = 0;
    if (clGetDeviceInfo(device->id, CL_DEVICE_EXTENSIONS, 0, NULL, &size) != CL_SUCCESS)
        return 0;
    char *list = malloc(size + 1);
    if (!list)
        return 0;
    int found = 0;
    if (clGetDeviceInfo(device->id, CL_DEVICE_EXTENSIONS, size, list, NULL) == CL_SUCCESS) {
        list[size] = '\0';
        size_t len = strlen(name);
        for (char *p = strstr(list, name); p && !found; p = strstr(p + 1, name))
            found = (p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0');
    }
    free(list);
    return found;
}
