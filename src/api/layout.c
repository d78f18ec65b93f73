/* The public structs as a program's header lays them out and as this
 * library does: each struct's fields in the same order, a program's struct
 * a prefix of the library's or the library's a prefix of its (clmem.h's
 * rule), with the structs it holds by value (a context's device and clock,
 * a compared device's device, peak and host) each at the program's own
 * size, which moves the fields after them. */
#include "api/api.h"

#include <math.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define END(type, field) (offsetof(struct type, field) + sizeof(((struct type *)0)->field))

/* Every struct ends at its last field, never in padding: a program's
 * smaller struct then ends at a field of the library's, never inside one
 * that its padding would feed garbage to. Adding a field fails its
 * struct's line here until it names the new last field, a reminder of the
 * rule (and of an explicit pad where the new field leaves padding). */
#define ENDS_AT(type, last)                                                                        \
    _Static_assert(sizeof(struct type) == END(type, last),                                         \
                   "struct " #type " must end at its last field (clmem.h's rule)")
ENDS_AT(clmem_sizes, compare_device);
ENDS_AT(clmem_error, log);
ENDS_AT(clmem_device, reserved);
ENDS_AT(clmem_clock, why);
ENDS_AT(clmem_ctx, clock);
ENDS_AT(clmem_workload_info, n_variants);
ENDS_AT(clmem_variant_info, library);
ENDS_AT(clmem_result, energy_na);
ENDS_AT(clmem_run_options, cancelled_user);
ENDS_AT(clmem_peak, launch_us);
ENDS_AT(clmem_bench_options, cancelled_user);
ENDS_AT(clmem_split_options, cancelled_user);
ENDS_AT(clmem_host, memory_bytes);
ENDS_AT(clmem_report_meta, reserved);
ENDS_AT(clmem_compare_device, interrupted);
/* A struct held by value may be smaller in a program by a multiple of its
 * alignment; the fields after it keep theirs when it is its holder's. */
_Static_assert(alignof(struct clmem_device) == alignof(struct clmem_ctx) &&
                   alignof(struct clmem_clock) == alignof(struct clmem_ctx) &&
                   alignof(struct clmem_device) == alignof(struct clmem_compare_device) &&
                   alignof(struct clmem_peak) == alignof(struct clmem_compare_device) &&
                   alignof(struct clmem_host) == alignof(struct clmem_compare_device),
               "a struct held by value must be aligned as its holder");

_Static_assert(sizeof(struct clmem_sizes) == (CLMEM_API_TYPES + 1) * sizeof(size_t),
               "every size of struct clmem_sizes needs its type in api.h and its layout here");

/* The struct clmem_sizes of the first version of this rule: a program's
 * holds at least these. */
#define FIRST_SIZES END(clmem_sizes, compare_device)

struct held {
    size_t offset; /* in the library's layout */
    enum clmem_api_type type;
};
struct layout {
    const char *name;
    /* What the fields a program's struct lacks read as; NULL: zero. */
    const void *defaults;
    size_t size, align;
    size_t sizes_at; /* the program's size of it in struct clmem_sizes */
    /* The least a program's struct holds: through the fields that the
     * library must find in it (what it owns, its handles), or its first. */
    size_t least;
    struct held held[3]; /* the public structs it holds by value, in order */
    size_t n_held;
};
#define LAYOUT(tag, least_field)                                                                   \
    .name = "clmem_" #tag, .size = sizeof(struct clmem_##tag),                                     \
    .align = alignof(struct clmem_##tag), .sizes_at = offsetof(struct clmem_sizes, tag),           \
    .least = END(clmem_##tag, least_field)
/* The defaults where zero is not "none": a field added whose zero would
 * mean something has its default here (options take zero as theirs). */
static const struct clmem_result result_defaults = {
    .baseline_fraction = NAN,
    .peak_fraction = NAN,
    .looped_ms = NAN,
    .flops_per_byte = NAN,
    .runs_per_sample = 1,
};
static const struct clmem_compare_device compare_device_defaults = {.rank = -1};
#define HELD(tag, field, type)                                                                     \
    {                                                                                              \
        offsetof(struct clmem_##tag, field), type                                                  \
    }
static const struct layout layouts[CLMEM_API_TYPES] = {
    [CLMEM_API_ERROR] = {LAYOUT(error, log)},
    [CLMEM_API_DEVICE] = {LAYOUT(device, id)},
    [CLMEM_API_CLOCK] = {LAYOUT(clock, checked)},
    [CLMEM_API_CTX] = {LAYOUT(ctx, queue),
                       .held = {HELD(ctx, device, CLMEM_API_DEVICE),
                                HELD(ctx, clock, CLMEM_API_CLOCK)},
                       .n_held = 2},
    [CLMEM_API_WORKLOAD_INFO] = {LAYOUT(workload_info, name)},
    [CLMEM_API_VARIANT_INFO] = {LAYOUT(variant_info, name)},
    [CLMEM_API_RESULT] = {LAYOUT(result, samples_ms), .defaults = &result_defaults},
    [CLMEM_API_RUN_OPTIONS] = {LAYOUT(run_options, size)},
    [CLMEM_API_PEAK] = {LAYOUT(peak, bandwidth)},
    [CLMEM_API_BENCH_OPTIONS] = {LAYOUT(bench_options, reps)},
    [CLMEM_API_SPLIT_OPTIONS] = {LAYOUT(split_options, variant)},
    [CLMEM_API_HOST] = {LAYOUT(host, name)},
    [CLMEM_API_REPORT_META] = {LAYOUT(report_meta, device)},
    [CLMEM_API_COMPARE_DEVICE] = {LAYOUT(compare_device, n_results),
                                  .held = {HELD(compare_device, device, CLMEM_API_DEVICE),
                                           HELD(compare_device, peak, CLMEM_API_PEAK),
                                           HELD(compare_device, host_info, CLMEM_API_HOST)},
                                  .n_held = 3, .defaults = &compare_device_defaults},
};

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

/* The library's own sizes, as struct clmem_api holds a program's. */
static const struct clmem_api *own(void)
{
    static const struct clmem_api sizes = {{
        [CLMEM_API_ERROR] = sizeof(struct clmem_error),
        [CLMEM_API_DEVICE] = sizeof(struct clmem_device),
        [CLMEM_API_CLOCK] = sizeof(struct clmem_clock),
        [CLMEM_API_CTX] = sizeof(struct clmem_ctx),
        [CLMEM_API_WORKLOAD_INFO] = sizeof(struct clmem_workload_info),
        [CLMEM_API_VARIANT_INFO] = sizeof(struct clmem_variant_info),
        [CLMEM_API_RESULT] = sizeof(struct clmem_result),
        [CLMEM_API_RUN_OPTIONS] = sizeof(struct clmem_run_options),
        [CLMEM_API_PEAK] = sizeof(struct clmem_peak),
        [CLMEM_API_BENCH_OPTIONS] = sizeof(struct clmem_bench_options),
        [CLMEM_API_SPLIT_OPTIONS] = sizeof(struct clmem_split_options),
        [CLMEM_API_HOST] = sizeof(struct clmem_host),
        [CLMEM_API_REPORT_META] = sizeof(struct clmem_report_meta),
        [CLMEM_API_COMPARE_DEVICE] = sizeof(struct clmem_compare_device),
    }};
    return &sizes;
}

int clmem_api_native(const struct clmem_sizes *sizes)
{
    return !sizes ||
           (sizes->sizes == sizeof *sizes && memcmp(sizes, CLMEM_SIZES, sizeof *sizes) == 0);
}

int clmem_api_usable(const struct clmem_api *api, enum clmem_api_type type)
{
    size_t size = api->size[type];
    return size >= layouts[type].least && size % layouts[type].align == 0;
}

int clmem_api_read(struct clmem_api *api, const struct clmem_sizes *sizes, struct clmem_error *err)
{
    *api = *own();
    if (!sizes)
        return CLMEM_OK;
    if (sizes->sizes < FIRST_SIZES)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "struct clmem_sizes of %zu bytes is no version of it that libclmem %s "
                          "knows (%zu bytes at least)",
                          sizes->sizes, CLMEM_VERSION, (size_t)FIRST_SIZES);
    /* A newer header's sizes of structs this library does not have are of
     * no concern: no function here takes them. */
    for (size_t t = 0; t < CLMEM_API_TYPES; t++)
        if (layouts[t].sizes_at + sizeof(size_t) <= sizes->sizes)
            memcpy(&api->size[t], (const unsigned char *)sizes + layouts[t].sizes_at,
                   sizeof(size_t));
    for (size_t t = 0; t < CLMEM_API_TYPES; t++) {
        const struct layout *l = &layouts[t];
        if (api->size[t] > l->size)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "the program was built against a newer clmem.h than libclmem %s: "
                              "struct %s is %zu bytes there, %zu here (use a libclmem as new as "
                              "the header)",
                              CLMEM_VERSION, l->name, api->size[t], l->size);
        if (!clmem_api_usable(api, t))
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "struct %s of %zu bytes is no version of it that libclmem %s knows "
                              "(%zu here)",
                              l->name, api->size[t], CLMEM_VERSION, l->size);
    }
    return CLMEM_OK;
}

/* n bytes from offset s of src to offset d of dst, as far as each has them
 * (dst's end at dend, src's at send). Where dst has bytes that src lacks,
 * and `fill` (dst is the library's), they are taken from `defaults` (the
 * struct's, from the run's offset in it), or zero. */
static void copy_run(unsigned char *dst, size_t d, size_t dend, const unsigned char *src, size_t s,
                     size_t send, size_t n, int fill, const unsigned char *defaults)
{
    size_t dn = d < dend ? min_size(n, dend - d) : 0;
    size_t sn = s < send ? min_size(n, send - s) : 0;
    size_t both = min_size(dn, sn);
    if (both)
        memcpy(dst + d, src + s, both);
    if (fill && dn > both) {
        if (defaults)
            memcpy(dst + d + both, defaults + both, dn - both);
        else
            memset(dst + d + both, 0, dn - both);
    }
}

/* The struct `type` at offset s of src into the one at offset d of dst,
 * each laid out by its own sizes (dsz, ssz) and ending at most at dend,
 * send: the plain fields between the structs it holds as bytes, those in
 * turn, in the library's order. */
static void copy_struct(enum clmem_api_type type, unsigned char *dst, size_t d, size_t dend,
                        const struct clmem_api *dsz, const unsigned char *src, size_t s,
                        size_t send, const struct clmem_api *ssz, int fill)
{
    const struct layout *l = &layouts[type];
    const unsigned char *defaults = l->defaults;
    dend = min_size(dend, d + dsz->size[type]);
    send = min_size(send, s + ssz->size[type]);
    size_t at = 0; /* in the library's layout */
    for (size_t i = 0;; i++) {
        size_t next = i < l->n_held ? l->held[i].offset : l->size;
        copy_run(dst, d, dend, src, s, send, next - at, fill, defaults ? defaults + at : NULL);
        d += next - at;
        s += next - at;
        if (i == l->n_held)
            return;
        enum clmem_api_type held = l->held[i].type;
        copy_struct(held, dst, d, dend, dsz, src, s, send, ssz, fill);
        d += dsz->size[held];
        s += ssz->size[held];
        at = next + layouts[held].size;
    }
}

void clmem_api_in(const struct clmem_api *api, enum clmem_api_type type, void *mine,
                  const void *theirs)
{
    copy_struct(type, mine, 0, SIZE_MAX, own(), theirs, 0, SIZE_MAX, api, 1);
}

void clmem_api_out(const struct clmem_api *api, enum clmem_api_type type, void *theirs,
                   const void *mine)
{
    copy_struct(type, theirs, 0, SIZE_MAX, api, mine, 0, SIZE_MAX, own(), 0);
}

void *clmem_api_item(const struct clmem_api *api, enum clmem_api_type type, void *theirs, size_t i)
{
    return (unsigned char *)theirs + i * api->size[type];
}

void *clmem_api_array_in(const struct clmem_api *api, enum clmem_api_type type, const void *theirs,
                         size_t n)
{
    size_t size = layouts[type].size;
    if (n > SIZE_MAX / size)
        return NULL;
    unsigned char *mine = malloc(n ? n * size : 1);
    for (size_t i = 0; mine && i < n; i++)
        clmem_api_in(api, type, mine + i * size,
                     (const unsigned char *)theirs + i * api->size[type]);
    return mine;
}

void *clmem_api_append(const struct clmem_api *api, enum clmem_api_type type, void *theirs,
                       size_t n_theirs, const void *mine, size_t n)
{
    size_t stride = api->size[type];
    if (n > SIZE_MAX - n_theirs || n_theirs + n > SIZE_MAX / stride)
        return NULL;
    unsigned char *grown = realloc(theirs, (n_theirs + n) * stride);
    if (!grown)
        return NULL;
    /* What a program's smaller struct cannot hold is left behind: a field
     * added that owns memory is to be released here for such a program. */
    memset(grown + n_theirs * stride, 0, n * stride);
    for (size_t i = 0; i < n; i++)
        clmem_api_out(api, type, grown + (n_theirs + i) * stride,
                      (const unsigned char *)mine + i * layouts[type].size);
    return grown;
}
