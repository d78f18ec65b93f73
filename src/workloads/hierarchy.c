/* The memory hierarchy, level by level (cl/hierarchy.cl): the latency of
 * each level by a chase of dependent loads over one random cycle
 * (Sattolo), in __global and in __local memory; read bandwidth by working
 * set; __local memory conflict-free, at strides that make bank conflicts
 * and as a broadcast; __constant against __global, each as a broadcast and
 * scattered; a private array in registers and spilled; images against
 * buffers; copies between host and device (pageable and pinned, map and
 * unmap, device to device); atomics uncontended, on one address and in
 * __local memory.
 *
 * --size is the working set in bytes: each probe runs at the working sets
 * its memory can hold and is skipped at the others with the reason.
 * `clmem hierarchy` sweeps the working sets (hierarchy_sweep.c). Every
 * probe is verified: a chase must come back to its start after exactly
 * every element and end where the host's walk ends; sums of whole numbers
 * are compared exactly with the host's; copies byte for byte; counters
 * with the updates made. */
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE (Linux) */
#include "workloads/hierarchy.h"
#include "workloads/hierarchy_probes.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const char *chase_local_why(const struct clmem_run *run, char *why, size_t size);
static const char *float4_why(const struct clmem_run *run, char *why, size_t size);
static const char *local_why(const struct clmem_run *run, char *why, size_t size);
static const char *constant_why(const struct clmem_run *run, char *why, size_t size);
static const char *onchip_why(const struct clmem_run *run, char *why, size_t size);
static const char *image_why(const struct clmem_run *run, char *why, size_t size);

/* Units: latency as loads per ns (Gload/s, whose inverse is ns a load:
 * every metric of clmem is higher-is-better), bandwidth as GB/s, atomics
 * as updates. check_sizes: what Oclgrind runs, small (the chases at 300
 * bytes, a few elements; the on-chip probes at 16, local_stride's 32
 * strides well within the run limit). */
#define GBS    .metric_unit = "GB/s"
#define ONCHIP .check_sizes = "16"
static const struct clmem_variant hierarchy_variants[] = {
    [CHASE_GLOBAL] = {"chase_global",
                      "latency: dependent loads over one random cycle (Sattolo) of cache-line "
                      "elements in __global memory; ns a load = 1 / the value",
                      "hier_chase", NULL, .metric_unit = "Gload/s", .roof = "none",
                      .check_sizes = "300"},
    [CHASE_PAGE] = {"chase_page",
                    "TLB reach: the same chase with one element a page (a page and a cache line "
                    "apart, so that the lines spread over the cache's sets); --size is the span "
                    "of pages",
                    "hier_chase", NULL, .metric_unit = "Gload/s", .roof = "none",
                    .check_sizes = "16384"},
    [CHASE_LOCAL] = {"chase_local", "latency: the same chase inside __local memory",
                     "hier_chase_local", chase_local_why, .metric_unit = "Gload/s", .roof = "none",
                     .check_sizes = "300"},
    [READ_WS] = {"read_ws",
                 "read bandwidth of a working set of float4s, read over and over from the level "
                 "that holds it",
                 "hier_read", float4_why, GBS, .roof = "none"},
    [LOCAL_STRIDE] = {"local_stride",
                      "__local reads, work-items 1..32 words apart: bank conflicts from 2 (the "
                      "transpose tile[T][T+1] removes them), none at 1 or odd strides",
                      "hier_local_read", local_why, "stride", 1, 32, GBS, .roof = "none", ONCHIP},
    [LOCAL_BROADCAST] = {"local_broadcast", "__local reads, every work-item the same word",
                         "hier_local_read", local_why, GBS, .roof = "none", ONCHIP},
    [CONSTANT_BROADCAST] = {"constant_broadcast",
                            "__constant reads, every work-item the same word at once (the "
                            "constant cache's broadcast)",
                            "hier_constant_read", constant_why, GBS, .roof = "none", ONCHIP},
    [CONSTANT_SCATTERED] = {"constant_scattered",
                            "__constant reads, each work-item its own word (serialised)",
                            "hier_constant_read", constant_why, GBS, .roof = "none", ONCHIP},
    [GLOBAL_BROADCAST] = {"global_broadcast", "the broadcast through __global", "hier_global_read",
                          constant_why, GBS, .roof = "none", ONCHIP},
    [GLOBAL_SCATTERED] = {"global_scattered", "the scattered reads through __global",
                          "hier_global_read", constant_why, GBS, .roof = "none", ONCHIP},
    [PRIVATE_DYNAMIC] = {"private_dynamic",
                         "a private array of 32 words indexed at run time: spilled to memory",
                         "hier_private_dynamic", onchip_why, GBS, .roof = "none", ONCHIP},
    [PRIVATE_REGISTERS] = {"private_registers",
                           "the same updates with constant indices: the array in registers",
                           "hier_private_registers", onchip_why, GBS, .roof = "none", ONCHIP},
    [IMAGE_READ] = {"image_read", "float4 texels read through image2d_t (read_imagef)",
                    "hier_image_read", image_why, GBS, .roof = "none"},
    [BUFFER_READ] = {"buffer_read", "the image's texels read from a buffer in the same order",
                     "hier_buffer_read", float4_why, GBS, .roof = "none"},
    [H2D_PAGEABLE] = {"h2d_pageable", "clEnqueueWriteBuffer from malloc'd (pageable) memory", NULL,
                      NULL, GBS, .roof = "none"},
    [H2D_PINNED] = {"h2d_pinned",
                    "clEnqueueWriteBuffer from pinned memory (CL_MEM_ALLOC_HOST_PTR, mapped)", NULL,
                    NULL, GBS, .roof = "none"},
    [D2H_PAGEABLE] = {"d2h_pageable", "clEnqueueReadBuffer into malloc'd (pageable) memory", NULL,
                      NULL, GBS, .roof = "none"},
    [D2H_PINNED] = {"d2h_pinned", "clEnqueueReadBuffer into pinned memory", NULL, NULL, GBS,
                    .roof = "none"},
    [MAP] = {"map", "clEnqueueMapBuffer (read and write, blocking) then unmap of a device buffer",
             NULL, NULL, GBS, .roof = "none"},
    [D2D] = {"d2d", "clEnqueueCopyBuffer between two device buffers (read + write)", NULL, NULL,
             GBS, .roof = "none"},
    [ATOMIC_GLOBAL] = {"atomic_global", "atomic_inc, each work-item on a counter of its own",
                       "hier_atomic_own", onchip_why, .metric_unit = "Gupdates/s", ONCHIP},
    [ATOMIC_CONTENDED] = {"atomic_contended", "atomic_inc, every work-item on one global counter",
                          "hier_atomic_one", onchip_why, .metric_unit = "Gupdates/s", ONCHIP},
    [ATOMIC_LOCAL] = {"atomic_local", "atomic_inc, a work-group's on one __local counter",
                      "hier_atomic_local", onchip_why, .metric_unit = "Gupdates/s", ONCHIP},
};
#undef GBS
#undef ONCHIP

/* ---- sizes and limits ---- */

static size_t pow2_floor(size_t x)
{
    size_t p = 1;
    while (p <= x / 2)
        p *= 2;
    return p;
}

static size_t clamp_size(size_t x, size_t lo, size_t hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

static cl_ulong device_ulong(const struct clmem_device *d, cl_device_info what)
{
    cl_ulong v = 0;
    if (clGetDeviceInfo(d->id, what, sizeof v, &v, NULL) != CL_SUCCESS)
        return 0;
    return v;
}

static cl_uint device_uint(const struct clmem_device *d, cl_device_info what)
{
    cl_uint v = 0;
    if (clGetDeviceInfo(d->id, what, sizeof v, &v, NULL) != CL_SUCCESS)
        return 0;
    return v;
}

static size_t device_size_t(const struct clmem_device *d, cl_device_info what)
{
    size_t v = 0;
    if (clGetDeviceInfo(d->id, what, sizeof v, &v, NULL) != CL_SUCCESS)
        return 0;
    return v;
}

static int has_images(const struct clmem_device *d)
{
    cl_bool v = CL_FALSE;
    return clGetDeviceInfo(d->id, CL_DEVICE_IMAGE_SUPPORT, sizeof v, &v, NULL) == CL_SUCCESS && v;
}

/* Bytes between a chase's elements: the device's cache line, 64 to 256. */
static size_t chase_stride_bytes(const struct clmem_device *d)
{
    size_t line = device_uint(d, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE);
    return pow2_floor(clamp_size(line, CHASE_MIN_STRIDE, CHASE_MAX_STRIDE));
}

size_t clmem_hierarchy_page_bytes(void)
{
    long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? (size_t)page : 4096;
}

int clmem_hierarchy_thp(char *mode, size_t size)
{
    mode[0] = '\0';
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (f) {
        if (!fgets(mode, (int)size, f))
            mode[0] = '\0';
        fclose(f);
        mode[strcspn(mode, "\n")] = '\0';
    }
    return strstr(mode, "[always]") || strstr(mode, "[madvise]");
}

/* chase_page's elements: one a page, each a cache line further into its
 * page than the one before (the lines of page-aligned elements would all
 * fall in one set of a cache indexed by the address bits below the
 * page's). Elements at a working set: one a page it spans, one at least. */
static size_t page_stride_bytes(const struct clmem_device *d)
{
    return clmem_hierarchy_page_bytes() + chase_stride_bytes(d);
}

static size_t page_elements(size_t bytes)
{
    size_t n = bytes / clmem_hierarchy_page_bytes();
    return n ? n : 1;
}

/* Loads of a timed chase run (one launch), a device's from the parameter
 * database (hierarchy/chase's LOADS; a driver that ends a kernel's loops
 * early, llvmpipe, has a row within its limit):
 * enough that a run lasts milliseconds and its start is a small part of
 * it (below 1 KiB, 16 a byte: the tiny working sets Oclgrind checks). A
 * chase of more elements than that first walks all of them once, untimed,
 * in launches of that many, so that the check sees its first return; the
 * runs then go on along the cycle, each over elements the last one did
 * not touch. */
static const struct clmem_param_table chase_table = {"hierarchy", "chase", {"LOADS"},
                                                     1,           0,       CLMEM_PARAM_UNTYPED};
static const struct clmem_param_table *const hierarchy_param_tables[] = {&chase_table};

static size_t chase_steps(const struct clmem_device *d, size_t bytes)
{
    const struct clmem_param_row *row;
    enum clmem_param_level level;
    if (bytes < 1024)
        return bytes * 16;
    clmem_param_lookup(&chase_table, d, &row, 1, &level);
    return (size_t)row->values[0];
}

static size_t local_limit(const struct clmem_device *d)
{
    size_t local = (size_t)d->local_mem;
    return local < ONCHIP_MAX_BYTES ? local : ONCHIP_MAX_BYTES;
}

static size_t constant_limit(const struct clmem_device *d)
{
    size_t c = (size_t)device_ulong(d, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE);
    return c < ONCHIP_MAX_BYTES ? c : ONCHIP_MAX_BYTES;
}

static size_t group_of(const struct clmem_device *d)
{
    return clmem_pick_group(d, CLMEM_GROUP_SIZE);
}

/* Work-items of the bandwidth probes: ITEMS_PER_UNIT a compute unit, but
 * no more than per_byte per byte of the working set (a few at the tiny
 * sizes Oclgrind checks), in whole work-groups. */
static size_t items_for(const struct clmem_device *d, size_t bytes, size_t per_byte)
{
    size_t group = group_of(d), units = d->compute_units ? d->compute_units : 1;
    size_t full = clmem_round_up(units * ITEMS_PER_UNIT, group);
    size_t asked = bytes > SIZE_MAX / per_byte ? full : bytes * per_byte;
    asked = clmem_round_up(asked < group ? group : asked, group);
    return asked < full ? asked : full;
}

/* An image's shape for `texels` float4s: rows of a power-of-two width (at
 * most IMAGE_MAX_WIDTH, wider where the rows would not fit), within the
 * device's largest image; 0 when none fits. */
static int image_shape(const struct clmem_device *d, size_t texels, size_t *width, size_t *rows)
{
    size_t max_w = device_size_t(d, CL_DEVICE_IMAGE2D_MAX_WIDTH);
    size_t max_h = device_size_t(d, CL_DEVICE_IMAGE2D_MAX_HEIGHT);
    if (!has_images(d) || max_w == 0 || max_h == 0) /* the buffer twin's shape */
        max_w = max_h = (size_t)1 << 16;
    size_t w = pow2_floor(clamp_size(texels, 1, IMAGE_MAX_WIDTH));
    while (texels / w > max_h && w * 2 <= max_w && w * 2 <= texels)
        w *= 2;
    *width = w;
    *rows = texels / w;
    return *rows >= 1 && *rows <= max_h && w <= max_w;
}

static size_t ws(const struct clmem_run *run)
{
    return run->size.dim[0];
}

/* ---- why a probe skips a working set ---- */

/* NULL where the working set is 4 bytes to `limit`, the on-chip memory's
 * size (at most 64 KiB); else why not: "`what` 4 bytes to LIMIT (the
 * device's `memory`, ...)". */
static const char *onchip_range_why(const struct clmem_run *run, size_t limit, const char *what,
                                    const char *memory, char *why, size_t size)
{
    if (ws(run) >= sizeof(cl_uint) && ws(run) <= limit)
        return NULL;
    snprintf(why, size, "%s 4 bytes to %zu (the device's %s, at most 64 KiB)", what, limit, memory);
    return why;
}

static const char *chase_local_why(const struct clmem_run *run, char *why, size_t size)
{
    return onchip_range_why(run, local_limit(&run->ctx->device), "a __local working set is",
                            "local memory", why, size);
}

static const char *float4_why(const struct clmem_run *run, char *why, size_t size)
{
    if (ws(run) < 16)
        return snprintf(why, size, "the working set is smaller than one float4 (16 bytes)"), why;
    return NULL;
}

static const char *local_why(const struct clmem_run *run, char *why, size_t size)
{
    return onchip_range_why(run, local_limit(&run->ctx->device),
                            "the __local probes run at working sets of", "local memory", why, size);
}

static const char *constant_why(const struct clmem_run *run, char *why, size_t size)
{
    return onchip_range_why(run, constant_limit(&run->ctx->device),
                            "the __constant probes and their __global twins run at tables of",
                            "constant buffer", why, size);
}

static const char *onchip_why(const struct clmem_run *run, char *why, size_t size)
{
    if (ws(run) > ONCHIP_MAX_BYTES)
        return snprintf(why, size,
                        "the private and atomic probes run with the on-chip ones, at working "
                        "sets up to 64 KiB"),
               why;
    return NULL;
}

static const char *image_why(const struct clmem_run *run, char *why, size_t size)
{
    const struct clmem_device *d = &run->ctx->device;
    size_t width, rows;
    if (!has_images(d))
        return snprintf(why, size, "'%s' reports no image support (CL_DEVICE_IMAGE_SUPPORT)",
                        d->name),
               why;
    if (float4_why(run, why, size))
        return why;
    if (!image_shape(d, ws(run) / 16, &width, &rows))
        return snprintf(why, size, "%zu texels do not fit the device's largest 2D image",
                        ws(run) / 16),
               why;
    return NULL;
}

/* ---- plan, setup ---- */

static int selected(const struct clmem_run *run, int probe)
{
    for (size_t i = 0; i < run->n_variants; i++)
        if (run->variants[i] == &hierarchy_variants[probe])
            return !run->variants[i]->unsupported ||
                   !run->variants[i]->unsupported(run, (char[8]){0}, 8);
    return 0;
}

static int any_selected(const struct clmem_run *run, int first, int last)
{
    for (int p = first; p <= last; p++)
        if (selected(run, p))
            return 1;
    return 0;
}

/* The buffers the selected probes need, checked against the device before
 * any work: the largest of each kind. */
static int hierarchy_plan(struct clmem_run *run, struct clmem_error *err)
{
    (void)err;
    const struct clmem_device *d = &run->ctx->device;
    size_t bytes = ws(run), n = 0;
    if (selected(run, CHASE_GLOBAL)) {
        size_t stride = chase_stride_bytes(d);
        size_t elems = bytes / stride ? bytes / stride : 1;
        run->buffer_bytes[n++] = elems * stride;
    }
    if (selected(run, CHASE_PAGE))
        run->buffer_bytes[n++] = page_elements(bytes) * page_stride_bytes(d);
    if (selected(run, READ_WS))
        run->buffer_bytes[n++] = bytes / 16 * 16;
    if (any_selected(run, IMAGE_READ, BUFFER_READ))
        run->buffer_bytes[n++] = bytes / 16 * 16;
    if (any_selected(run, H2D_PAGEABLE, D2D)) {
        run->buffer_bytes[n++] = bytes; /* the device's copy */
        run->buffer_bytes[n++] = bytes; /* pinned host memory, or d2d's destination */
    }
    run->n_buffers = n;
    return CLMEM_OK;
}

static int make_table(struct clmem_run *run, struct hier_state *s, struct clmem_error *err)
{
    size_t bytes = ws(run);
    s->table_n = pow2_floor(bytes / sizeof(cl_float) ? bytes / sizeof(cl_float) : 1);
    s->onchip_items = items_for(&run->ctx->device, bytes, ONCHIP_PER_BYTE);
    s->onchip_reps = clamp_size(bytes / 8, 16, ONCHIP_REPS);
    s->private_reps = clamp_size(bytes / 64, 4, PRIVATE_REPS);
    s->atomic_updates = clamp_size(bytes / 64, 4, ATOMIC_UPDATES);
    if (!(s->table = clmem_alloc_array(s->table_n, sizeof(float), err)) ||
        !(s->onchip_out = clmem_alloc_array(s->onchip_items, sizeof(float), err)) ||
        !(s->uint_out = clmem_alloc_array(s->onchip_items, sizeof(cl_uint), err)))
        return err->status;
    clmem_fill_integers(s->table, s->table_n, 0, DATA_MAX, run->seed + 3);
    int status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, s->table_n * sizeof(float),
                                     s->table, &s->d_table, err);
    if (status == CLMEM_OK)
        status = clmem_run_output_buffer(run, "out", CL_MEM_WRITE_ONLY,
                                         s->onchip_items * sizeof(float), &s->d_onchip_out, err);
    if (status == CLMEM_OK)
        status = clmem_run_output_buffer(run, "counters", CL_MEM_READ_WRITE,
                                         s->onchip_items * sizeof(cl_uint), &s->d_uint_out, err);
    return status;
}

/* Host memory of `bytes`, zeroed, in 2 MiB pages where the kernel gives
 * them to memory madvised so: aligned to one and madvised before it is
 * first touched (a page it cannot give stays a base page). NULL when out
 * of memory. */
static void *huge_calloc(size_t bytes)
{
    size_t whole = (bytes + CLMEM_HUGE_PAGE - 1) / CLMEM_HUGE_PAGE * CLMEM_HUGE_PAGE;
    void *p = NULL;
    if (posix_memalign(&p, CLMEM_HUGE_PAGE, whole) != 0)
        return NULL;
    (void)madvise(p, whole, MADV_HUGEPAGE);
    memset(p, 0, whole);
    return p;
}

/* A chase of n elements stride_bytes apart in a __global buffer. With
 * `huge` (chase_global on a CPU device where the host gives huge pages),
 * the buffer is the host's memory in 2 MiB pages, used in place: with
 * base pages a cache's chase past the TLB's reach (some MiB) times page
 * walks, not the cache (kept in s->chase_huge until teardown). */
static int setup_chase(struct clmem_run *run, struct hier_state *s, struct hier_chase *c, size_t n,
                       size_t stride_bytes, uint64_t seed, int huge, struct clmem_error *err)
{
    c->stride = stride_bytes / sizeof(cl_uint);
    c->n = n;
    c->steps = chase_steps(&run->ctx->device, ws(run));
    size_t words = c->n * c->stride;
    if (!(c->perm = clmem_alloc_array(c->n, sizeof(cl_uint), err)) ||
        !(s->chase_host =
              huge ? huge_calloc(words * sizeof(cl_uint)) : calloc(words, sizeof(cl_uint))))
        return err->status ? err->status : clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    clmem_sattolo(c->perm, c->n, seed);
    for (size_t i = 0; i < c->n; i++)
        s->chase_host[i * c->stride] = (cl_uint)(c->perm[i] * c->stride);
    int status = huge ? clmem_buffer_wrap(run->ctx, CL_MEM_READ_ONLY, words * sizeof(cl_uint),
                                          s->chase_host, &c->d_next, err)
                      : clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, words * sizeof(cl_uint),
                                            s->chase_host, &c->d_next, err);
    if (huge)
        s->chase_huge = s->chase_host; /* the buffer's storage: freed after it */
    else
        free(s->chase_host);
    s->chase_host = NULL;
    if (status == CLMEM_OK)
        status = clmem_run_output_buffer(run, "state", CL_MEM_READ_WRITE, 3 * sizeof(cl_uint),
                                         &c->d_state, err);
    return status;
}

static int setup_chase_local(struct clmem_run *run, struct hier_state *s, struct clmem_error *err)
{
    s->lchase.n = ws(run) / sizeof(cl_uint);
    s->lchase.stride = 1;
    s->lchase.steps = chase_steps(&run->ctx->device, ws(run));
    if (!(s->lchase.perm = clmem_alloc_array(s->lchase.n, sizeof(cl_uint), err)))
        return err->status;
    clmem_sattolo(s->lchase.perm, s->lchase.n, run->seed + 1);
    int status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, s->lchase.n * sizeof(cl_uint),
                                     s->lchase.perm, &s->lchase.d_next, err);
    if (status == CLMEM_OK)
        status = clmem_run_output_buffer(run, "state", CL_MEM_READ_WRITE, 3 * sizeof(cl_uint),
                                         &s->lchase.d_state, err);
    return status;
}

static int setup_read(struct clmem_run *run, struct hier_state *s, struct clmem_error *err)
{
    s->read_n4 = ws(run) / 16;
    s->read_items = items_for(&run->ctx->device, ws(run), ITEMS_PER_BYTE);
    size_t least = clamp_size(ws(run) / 16, 4, READ_PER_ITEM);
    size_t cover = (s->read_n4 + s->read_items - 1) / s->read_items;
    s->read_per_item = cover > least ? cover : least;
    s->read_step = s->contiguous ? 1 % s->read_n4 : s->read_items % s->read_n4;
    if (!(s->read_src = clmem_alloc_array(s->read_n4 * 4, sizeof(float), err)) ||
        !(s->read_out = clmem_alloc_array(s->read_items, sizeof(float), err)))
        return err->status;
    clmem_fill_integers(s->read_src, s->read_n4 * 4, 0, DATA_MAX, run->seed + 2);
    int status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, s->read_n4 * 16, s->read_src,
                                     &s->d_read, err);
    if (status == CLMEM_OK)
        status = clmem_run_output_buffer(run, "out", CL_MEM_WRITE_ONLY,
                                         s->read_items * sizeof(float), &s->d_read_out, err);
    return status;
}

static int setup_texels(struct clmem_run *run, struct hier_state *s, struct clmem_error *err)
{
    const struct clmem_device *d = &run->ctx->device;
    image_shape(d, ws(run) / 16, &s->width, &s->rows);
    size_t texels = s->width * s->rows;
    s->tex_items = clmem_round_up(items_for(d, ws(run), ITEMS_PER_BYTE), s->width);
    size_t least = clamp_size(ws(run) / 16, 4, READ_PER_ITEM);
    size_t cover = (texels + s->tex_items - 1) / s->tex_items;
    s->tex_per_item = cover > least ? cover : least;
    s->tex_ystep = (s->tex_items / s->width) % s->rows;
    if (!(s->texels = clmem_alloc_array(texels * 4, sizeof(float), err)) ||
        !(s->tex_out = clmem_alloc_array(s->tex_items, sizeof(float), err)))
        return err->status;
    clmem_fill_integers(s->texels, texels * 4, 0, DATA_MAX, run->seed + 4);
    int status = CLMEM_OK;
    if (selected(run, IMAGE_READ)) {
        const cl_image_format format = {CL_RGBA, CL_FLOAT};
        cl_image_desc desc;
        memset(&desc, 0, sizeof desc);
        desc.image_type = CL_MEM_OBJECT_IMAGE2D;
        desc.image_width = s->width;
        desc.image_height = s->rows;
        cl_int rc;
        s->d_image = clCreateImage(run->ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                   &format, &desc, s->texels, &rc);
        if (rc != CL_SUCCESS) {
            s->d_image = NULL;
            return clmem_cl_fail(err, rc, "clCreateImage", __func__, __LINE__);
        }
    }
    if (selected(run, BUFFER_READ))
        status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, texels * 16, s->texels,
                                     &s->d_texels, err);
    if (status == CLMEM_OK)
        status = clmem_run_output_buffer(run, "out", CL_MEM_WRITE_ONLY,
                                         s->tex_items * sizeof(float), &s->d_tex_out, err);
    return status;
}

/* The bytes every copy moves: the same pattern from the seed. */
static void fill_pattern(unsigned char *out, size_t n, uint64_t seed)
{
    uint64_t state = seed;
    for (size_t i = 0; i < n; i += 8) {
        uint64_t v = clmem_rng_next(&state);
        size_t k = n - i < 8 ? n - i : 8;
        memcpy(out + i, &v, k);
    }
}

static int setup_copies(struct clmem_run *run, struct hier_state *s, struct clmem_error *err)
{
    s->xfer = ws(run);
    if (!(s->host_src = malloc(s->xfer)) || !(s->host_dst = malloc(s->xfer)))
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory for %zu bytes", s->xfer);
    fill_pattern(s->host_src, s->xfer, run->seed + 5);
    int status =
        clmem_buffer_create(run->ctx, CL_MEM_READ_WRITE, s->xfer, s->host_src, &s->d_xfer, err);
    if (status == CLMEM_OK && any_selected(run, H2D_PINNED, D2H_PINNED))
        status = clmem_pinned_alloc(run->ctx, s->xfer, &s->pinned, err);
    if (status == CLMEM_OK && selected(run, D2D))
        status = clmem_run_output_buffer(run, "dst", CL_MEM_READ_WRITE, s->xfer, &s->d_xfer2, err);
    return status;
}

static int hierarchy_setup(struct clmem_run *run, struct clmem_error *err)
{
    struct hier_state *s = run->state;
    const struct clmem_device *d = &run->ctx->device;
    int status = CLMEM_OK;
    s->bytes = ws(run);
    s->group = group_of(d);
    s->units = d->compute_units ? d->compute_units : 1;
    s->contiguous = (d->type & CL_DEVICE_TYPE_CPU) != 0;
    if (selected(run, CHASE_GLOBAL)) {
        size_t line = chase_stride_bytes(d);
        char thp[128];
        /* A CPU alone: a device that also calls itself a GPU (a simulator
         * reporting every type at once) keeps its own buffers. */
        int huge = (d->type & CL_DEVICE_TYPE_CPU) && !(d->type & CL_DEVICE_TYPE_GPU) &&
                   clmem_hierarchy_thp(thp, sizeof thp);
        status = setup_chase(run, s, &s->chase, ws(run) / line ? ws(run) / line : 1, line,
                             run->seed, huge, err);
    }
    if (status == CLMEM_OK && selected(run, CHASE_PAGE))
        status = setup_chase(run, s, &s->page, page_elements(ws(run)), page_stride_bytes(d),
                             run->seed + 6, 0, err);
    if (status == CLMEM_OK && selected(run, CHASE_LOCAL))
        status = setup_chase_local(run, s, err);
    if (status == CLMEM_OK && selected(run, READ_WS))
        status = setup_read(run, s, err);
    if (status == CLMEM_OK && (any_selected(run, LOCAL_STRIDE, PRIVATE_REGISTERS) ||
                               any_selected(run, ATOMIC_GLOBAL, ATOMIC_LOCAL)))
        status = make_table(run, s, err);
    if (status == CLMEM_OK && any_selected(run, IMAGE_READ, BUFFER_READ))
        status = setup_texels(run, s, err);
    if (status == CLMEM_OK && any_selected(run, H2D_PAGEABLE, D2D))
        status = setup_copies(run, s, err);
    if (status)
        return status;
    char options[64];
    snprintf(options, sizeof options, "-DPRIVATE_N=%d", PRIVATE_N);
    return clmem_run_build(run, options, err);
}

/* ---- the probe of a variant ---- */

static int probe_of(const struct clmem_variant *v)
{
    return (int)(v - hierarchy_variants);
}

/* The steps of hierarchy_run.c and hierarchy_check.c, given the probe. */
static int hierarchy_prepare(struct clmem_run *run, const struct clmem_variant *v,
                             struct clmem_error *err)
{
    return hier_prepare(run, v, probe_of(v), err);
}

static int hierarchy_execute(struct clmem_run *run, const struct clmem_variant *v,
                             struct clmem_timing *timing, struct clmem_error *err)
{
    return hier_execute(run, v, probe_of(v), timing, err);
}

static int hierarchy_verify(struct clmem_run *run, const struct clmem_variant *v,
                            struct clmem_check *check, struct clmem_error *err)
{
    return hier_verify(run, probe_of(v), check, err);
}

/* ---- what a run does ---- */

static double hierarchy_work(const struct clmem_run *run, const struct clmem_variant *v)
{
    const struct hier_state *s = run->state;
    switch (probe_of(v)) {
    case CHASE_GLOBAL: return (double)s->chase.steps;
    case CHASE_PAGE: return (double)s->page.steps;
    case CHASE_LOCAL: return (double)s->lchase.steps;
    /* Bytes read (the one float written per work-item left out: a
     * 256th of them at least). */
    case READ_WS: return (double)s->read_items * s->read_per_item * 16;
    case IMAGE_READ:
    case BUFFER_READ: return (double)s->tex_items * s->tex_per_item * 16;
    case LOCAL_STRIDE:
    case LOCAL_BROADCAST:
    case CONSTANT_BROADCAST:
    case CONSTANT_SCATTERED:
    case GLOBAL_BROADCAST:
    case GLOBAL_SCATTERED: return (double)s->onchip_items * s->onchip_reps * sizeof(float);
    /* Each update reads and writes a word. */
    case PRIVATE_DYNAMIC:
    case PRIVATE_REGISTERS: return (double)s->onchip_items * s->private_reps * PRIVATE_N * 8;
    case ATOMIC_GLOBAL:
    case ATOMIC_CONTENDED:
    case ATOMIC_LOCAL: return (double)s->onchip_items * s->atomic_updates;
    case D2D: return 2.0 * (double)s->xfer;
    default: return (double)s->xfer;
    }
}

/* No probe is arithmetic a roofline could place: latencies, counts, and
 * bandwidths of caches, local memory and copies that no device-memory roof
 * bounds. */
static double hierarchy_intensity(const struct clmem_run *run, const struct clmem_variant *v)
{
    (void)run;
    (void)v;
    return NAN;
}

static void hierarchy_teardown(struct clmem_run *run)
{
    struct hier_state *s = run->state;
    cl_mem *mems[] = {&s->chase.d_next,  &s->chase.d_state,  &s->page.d_next, &s->page.d_state,
                      &s->lchase.d_next, &s->lchase.d_state, &s->d_read,      &s->d_read_out,
                      &s->d_table,       &s->d_onchip_out,   &s->d_uint_out,  &s->d_image,
                      &s->d_texels,      &s->d_tex_out,      &s->d_xfer,      &s->d_xfer2};
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(mems); i++)
        clmem_release_mem(mems[i]);
    if (s->pinned.buffer)
        clmem_pinned_free(run->ctx, &s->pinned);
    void *host[] = {s->chase.perm, s->page.perm, s->chase_host, s->chase_huge, s->lchase.perm,
                    s->read_src,   s->read_out,  s->table,      s->onchip_out, s->uint_out,
                    s->texels,     s->tex_out,   s->host_src,   s->host_dst};
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(host); i++)
        free(host[i]);
}

/* Bench's short form: a working set in L1, one in the L2 of most devices,
 * one in device memory (past the L2 of the largest GPUs, tens of MiB,
 * and the last-level cache of most CPUs). */
static const char *const hierarchy_bench_sizes[] = {"16384", "4194304", "268435456", NULL};
static const char *const hierarchy_bench_sizes_cpu[] = {"16384", "262144", "67108864", NULL};

const struct clmem_workload clmem_workload_hierarchy = {
    .name = "hierarchy",
    .summary = "the memory hierarchy level by level: latency (a chase), bandwidth by working "
               "set, local, constant and private memory, images, host copies, atomics",
    .source = "hierarchy.cl",
    .default_size = "16384",
    .size_help = "the working set in bytes (each probe runs where its memory holds it: the "
                 "local, constant, private and atomic probes up to 64 KiB)",
    .max_dims = 1,
    .check_sizes = "64",
    .variants = hierarchy_variants,
    .n_variants = CLMEM_ARRAY_SIZE(hierarchy_variants),
    /* Each probe names its own; the workload's says what they are. */
    .metric_unit = "GB/s, Gload/s, Gupdates/s",
    .state_size = sizeof(struct hier_state),
    .plan = hierarchy_plan,
    .setup = hierarchy_setup,
    .execute = hierarchy_execute,
    .prepare = hierarchy_prepare,
    .verify = hierarchy_verify,
    .work = hierarchy_work,
    .intensity = hierarchy_intensity,
    .teardown = hierarchy_teardown,
    .bench_sizes = hierarchy_bench_sizes,
    .bench_sizes_cpu = hierarchy_bench_sizes_cpu,
    .param_tables = hierarchy_param_tables,
    .n_param_tables = CLMEM_ARRAY_SIZE(hierarchy_param_tables),
};
