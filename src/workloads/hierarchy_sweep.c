/* clmem hierarchy: the probes of workload `hierarchy` swept over working
 * sets, from 1 KiB to past the largest cache, each verified, then the
 * levels named from the chase's latency staircase and the read bandwidth's
 * plateaus matched to them (hierarchy_levels.c). Each working set is one
 * run of the harness with the probes that sweep through it. */
#include "workloads/hierarchy.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KIB ((size_t)1024)
#define MIB (KIB * KIB)
#define GIB (MIB * KIB)

/* The default extent: EXTENT_CACHES times the largest cache known, so
 * that the last plateau past it has points enough to be a level; GPUs at
 * least EXTENT_GPU, past the last cache of any GPU (a large GPU's L2 holds
 * tens of MB, the largest last-level caches a few hundred) whatever the
 * driver reports (NVIDIA's CL_DEVICE_GLOBAL_MEM_CACHE_SIZE is the L1s'
 * total); CPUs at least EXTENT_MIN. Either at most an eighth of the
 * device's memory (the largest working set's probes hold five buffers of
 * it at once) and half of what it can allocate: the only limits, so that a
 * sweep stops short of twice the largest cache only where memory does. */
#define EXTENT_CACHES 4
#define EXTENT_MIN    (16 * MIB)
#define EXTENT_GPU    GIB

/* The most working sets of one probe: quarter octaves over 32 octaves. */
#define GRID_POINTS 128

/* How a probe's working sets are spaced, from `first` up to its limit. */
enum grid {
    GRID_HALF_OCTAVE,    /* 1, 1.5, 2, 3, 4, 6, ...: the staircase's resolution */
    GRID_QUARTER_OCTAVE, /* 1, 1.25, 1.5, 1.75, 2, ...: a GPU's chase (below) */
    GRID_OCTAVE,         /* powers of two */
    GRID_QUARTER,        /* powers of four: copies and images, a few points */
    GRID_ONE,            /* one working set, the on-chip probes' */
};
enum limit {
    TO_EXTENT,   /* the sweep's extent */
    TO_LOCAL,    /* the device's local memory (at most 64 KiB) */
    TO_TRANSFER, /* 1 GiB at most, on CPUs the extent */
};
struct sweep_probe {
    const char *variant;
    enum grid grid;
    size_t first;
    enum limit limit;
};
static const struct sweep_probe sweep_probes[] = {
    {"chase_global", GRID_HALF_OCTAVE, KIB, TO_EXTENT},
    {"chase_page", GRID_HALF_OCTAVE, 16 * KIB, TO_EXTENT},
    {"chase_local", GRID_OCTAVE, KIB, TO_LOCAL},
    {"read_ws", GRID_HALF_OCTAVE, 4 * KIB, TO_EXTENT},
    {"local_stride", GRID_ONE, 0, TO_LOCAL},
    {"local_broadcast", GRID_ONE, 0, TO_LOCAL},
    {"constant_broadcast", GRID_ONE, 0, TO_LOCAL},
    {"constant_scattered", GRID_ONE, 0, TO_LOCAL},
    {"global_broadcast", GRID_ONE, 0, TO_LOCAL},
    {"global_scattered", GRID_ONE, 0, TO_LOCAL},
    {"private_dynamic", GRID_ONE, 0, TO_LOCAL},
    {"private_registers", GRID_ONE, 0, TO_LOCAL},
    {"image_read", GRID_QUARTER, 16 * KIB, TO_EXTENT},
    {"buffer_read", GRID_QUARTER, 16 * KIB, TO_EXTENT},
    {"h2d_pageable", GRID_QUARTER, 4 * KIB, TO_TRANSFER},
    {"h2d_pinned", GRID_QUARTER, 4 * KIB, TO_TRANSFER},
    {"d2h_pageable", GRID_QUARTER, 4 * KIB, TO_TRANSFER},
    {"d2h_pinned", GRID_QUARTER, 4 * KIB, TO_TRANSFER},
    {"map", GRID_QUARTER, 4 * KIB, TO_TRANSFER},
    {"d2d", GRID_QUARTER, 4 * KIB, TO_TRANSFER},
    {"atomic_global", GRID_ONE, 0, TO_LOCAL},
    {"atomic_contended", GRID_ONE, 0, TO_LOCAL},
    {"atomic_local", GRID_ONE, 0, TO_LOCAL},
};

/* ---- the largest cache ---- */

static size_t parse_cache_size(const char *text)
{
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end == 'K')
        v *= KIB;
    else if (*end == 'M')
        v *= MIB;
    else if (*end == 'G')
        v *= GIB;
    return (size_t)v;
}

/* The largest data or unified cache of cpu0 that Linux reports, 0 when none. */
static size_t sys_largest_cache(void)
{
    const char *dir = "/sys/devices/system/cpu/cpu0/cache";
    DIR *d = opendir(dir);
    size_t largest = 0;
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, "index", 5) != 0)
            continue;
        char path[512], text[64] = "";
        snprintf(path, sizeof path, "%s/%s/type", dir, e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        int instruction = fgets(text, sizeof text, f) && strncmp(text, "Instruction", 11) == 0;
        fclose(f);
        snprintf(path, sizeof path, "%s/%s/size", dir, e->d_name);
        if (instruction || !(f = fopen(path, "r")))
            continue;
        if (fgets(text, sizeof text, f)) {
            size_t size = parse_cache_size(text);
            largest = size > largest ? size : largest;
        }
        fclose(f);
    }
    closedir(d);
    return largest;
}

/* The C library's view (glibc: from cpuid), 0 when it has none. */
static size_t sysconf_largest_cache(void)
{
    size_t largest = 0;
#if defined(_SC_LEVEL1_DCACHE_SIZE)
    const int names[] = {_SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL3_CACHE_SIZE,
                         _SC_LEVEL4_CACHE_SIZE};
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(names); i++) {
        long v = sysconf(names[i]);
        if (v > 0 && (size_t)v > largest)
            largest = (size_t)v;
    }
#endif
    return largest;
}

size_t clmem_hierarchy_default_extent(const struct clmem_device *device, double *cache_bytes,
                                      char *from, size_t from_size, const char **limit)
{
    cl_ulong reported = 0;
    if (clGetDeviceInfo(device->id, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof reported, &reported,
                        NULL) != CL_SUCCESS)
        reported = 0;
    size_t largest = (size_t)reported;
    snprintf(from, from_size, "%s", reported ? "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE" : "none known");
    int cpu = (device->type & CL_DEVICE_TYPE_CPU) != 0;
    if (cpu) {
        /* A CPU device's caches are the host's. */
        size_t sys = sys_largest_cache(), conf = sys ? 0 : sysconf_largest_cache();
        if (sys > largest) {
            largest = sys;
            snprintf(from, from_size, "/sys/devices/system/cpu/cpu0/cache");
        } else if (conf > largest) {
            largest = conf;
            snprintf(from, from_size, "sysconf (cpuid)");
        }
    }
    *cache_bytes = (double)largest;
    return clmem_hierarchy_extent_for(largest, cpu, device->max_alloc, device->global_mem, limit);
}

size_t clmem_hierarchy_extent_for(size_t largest, int cpu, cl_ulong max_alloc, cl_ulong global_mem,
                                  const char **limit)
{
    size_t extent = largest > SIZE_MAX / EXTENT_CACHES ? SIZE_MAX : EXTENT_CACHES * largest;
    size_t least = cpu ? EXTENT_MIN : EXTENT_GPU;
    extent = extent < least ? least : extent;
    *limit = NULL;
    if (max_alloc / 2 < extent) {
        extent = (size_t)(max_alloc / 2);
        *limit = "half the device's largest allocation";
    }
    if (global_mem / 8 < extent) {
        extent = (size_t)(global_mem / 8);
        *limit = "an eighth of the device's memory";
    }
    return extent;
}

/* Which pages the curves use: the host's base page (chase_page's step);
 * on a CPU device, chase_global's buffer in 2 MiB pages where the host
 * gives them to madvised memory (hierarchy.c's setup_chase), the others'
 * in the driver's memory. */
static void pages_text(const struct clmem_device *d, size_t page, char *out, size_t size)
{
    char thp[128];
    int huge = clmem_hierarchy_thp(thp, sizeof thp);
    if (!(d->type & CL_DEVICE_TYPE_CPU) || (d->type & CL_DEVICE_TYPE_GPU))
        snprintf(out, size,
                 "chase_page steps %zu KiB (the host's page); the device's own page size is "
                 "its driver's, which OpenCL does not report",
                 page / KIB);
    else if (!thp[0])
        snprintf(out, size, "%zu KiB pages (the host's base page; transparent huge pages unknown)",
                 page / KIB);
    else if (huge)
        snprintf(out, size,
                 "chase_global in 2 MiB pages (host memory madvised, used in place; transparent "
                 "huge pages '%.40s'), the others in %u KiB pages",
                 thp, (unsigned)(page / KIB % 100000));
    else
        snprintf(out, size, "%zu KiB pages (transparent huge pages: %.60s)", page / KIB, thp);
}

/* ---- the schedule: probe x working set ---- */

struct step {
    size_t bytes;
    const struct clmem_variant *v;
};
struct schedule {
    struct step *steps;
    size_t n, results; /* results: a sweep's points each count */
    size_t extent, transfer, onchip, local;
};

static size_t pow2_floor(size_t x)
{
    size_t p = 1;
    while (p <= x / 2)
        p *= 2;
    return p;
}

/* The working sets of a grid from first to last. */
static size_t grid_points(enum grid grid, size_t first, size_t last, size_t *out, size_t max)
{
    size_t n = 0;
    if (grid == GRID_ONE) {
        if (last > 0 && max > 0)
            out[n++] = last;
        return n;
    }
    for (size_t p = first; p && p <= last && n < max;) {
        out[n++] = p;
        if (grid == GRID_HALF_OCTAVE && p + p / 2 <= last && n < max)
            out[n++] = p + p / 2;
        for (size_t q = 1; grid == GRID_QUARTER_OCTAVE && q < 4; q++)
            if (p + q * (p / 4) <= last && n < max)
                out[n++] = p + q * (p / 4);
        size_t next = grid == GRID_QUARTER ? p * 4 : p * 2;
        if (next / p != (grid == GRID_QUARTER ? 4u : 2u))
            break;
        p = next;
    }
    return n;
}

/* A probe's grid on a CPU device (cpu) or another. A GPU's chase at
 * quarter octaves: a split L2's far half spans one octave (the near
 * half's size to the whole), which half octaves cut to two points, too
 * few to make a level. A CPU's chase keeps half octaves: its large
 * working sets are slow. */
static enum grid probe_grid(const struct sweep_probe *sp, int cpu)
{
    return !cpu && strcmp(sp->variant, "chase_global") == 0 ? GRID_QUARTER_OCTAVE : sp->grid;
}

size_t clmem_hierarchy_chase_sizes(int cpu, size_t extent, size_t *out, size_t max)
{
    for (size_t p = 0; p < CLMEM_ARRAY_SIZE(sweep_probes); p++)
        if (strcmp(sweep_probes[p].variant, "chase_global") == 0)
            return grid_points(probe_grid(&sweep_probes[p], cpu), sweep_probes[p].first, extent,
                               out, max);
    return 0;
}

static int step_order(const void *a, const void *b)
{
    const struct step *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes ? -1 : 1;
    return x->v < y->v ? -1 : x->v > y->v;
}

/* A probe's reason to skip a working set, as the run would give it. */
static const char *skips(const struct clmem_ctx *ctx, const struct clmem_variant *v, size_t bytes,
                         char *why, size_t size)
{
    struct clmem_run run;
    memset(&run, 0, sizeof run);
    run.workload = &clmem_workload_hierarchy;
    run.ctx = (struct clmem_ctx *)ctx;
    run.size.dim[0] = run.size.dim[1] = run.size.dim[2] = bytes;
    run.size.ndims = 1;
    return v->unsupported ? v->unsupported(&run, why, size) : NULL;
}

static void schedule_free(struct schedule *s)
{
    free(s->steps);
    memset(s, 0, sizeof *s);
}

static int make_schedule(const struct clmem_ctx *ctx, const struct clmem_hierarchy_options *o,
                         struct schedule *s, struct clmem_error *err)
{
    const struct clmem_device *d = &ctx->device;
    memset(s, 0, sizeof *s);
    const char *only = o->variant && strcmp(o->variant, "all") != 0 ? o->variant : NULL;
    if (only && !clmem_variant_find(&clmem_workload_hierarchy, only))
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "unknown probe '%s' of 'hierarchy' (try 'clmem list hierarchy')", only);
    double cache;
    char from[96];
    const char *limit;
    size_t def = clmem_hierarchy_default_extent(d, &cache, from, sizeof from, &limit);
    s->extent = o->extent ? o->extent : def;
    if (s->extent < 4 * KIB)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--size %zu: the sweep's largest working set must be 4 KiB at least",
                          s->extent);
    if (s->extent > d->max_alloc / 2 || s->extent > d->global_mem / 8)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--size %zu: the largest working set may be half of what '%s' can "
                          "allocate (%llu bytes) and an eighth of its memory (%llu bytes)",
                          s->extent, d->name, (unsigned long long)d->max_alloc,
                          (unsigned long long)d->global_mem);
    int cpu = (d->type & CL_DEVICE_TYPE_CPU) != 0;
    s->transfer = cpu || s->extent > GIB ? s->extent : GIB;
    if (s->transfer > d->max_alloc / 2)
        s->transfer = (size_t)(d->max_alloc / 2);
    if (s->transfer > d->global_mem / 8)
        s->transfer = (size_t)(d->global_mem / 8);
    /* On-chip: the largest power of two that local and constant memory
     * hold, 64 KiB at most. */
    cl_ulong constant = 0;
    clGetDeviceInfo(d->id, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, sizeof constant, &constant, NULL);
    size_t local = (size_t)d->local_mem < 64 * KIB ? (size_t)d->local_mem : 64 * KIB;
    s->local = local ? pow2_floor(local) : 0;
    size_t onchip = (size_t)constant < local ? (size_t)constant : local;
    s->onchip = onchip ? pow2_floor(onchip) : 0;
    size_t cap = CLMEM_ARRAY_SIZE(sweep_probes) * GRID_POINTS;
    if (!(s->steps = calloc(cap, sizeof *s->steps)))
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    for (size_t p = 0; p < CLMEM_ARRAY_SIZE(sweep_probes); p++) {
        const struct sweep_probe *sp = &sweep_probes[p];
        if (only && strcmp(only, sp->variant) != 0)
            continue;
        const struct clmem_variant *v = clmem_variant_find(&clmem_workload_hierarchy, sp->variant);
        size_t last = sp->limit == TO_EXTENT     ? s->extent
                      : sp->limit == TO_TRANSFER ? s->transfer
                      : sp->grid == GRID_ONE     ? s->onchip
                                                 : s->local;
        size_t points[GRID_POINTS],
            n = grid_points(probe_grid(sp, cpu), sp->first, last, points, GRID_POINTS);
        size_t kept = 0;
        char why[256];
        for (size_t i = 0; i < n && s->n < cap; i++)
            if (!skips(ctx, v, points[i], why, sizeof why)) {
                s->steps[s->n++] = (struct step){points[i], v};
                kept++;
            }
        /* A probe the device cannot run anywhere: one skipped result,
         * with the reason, at its first working set. */
        if (!kept && s->n < cap)
            s->steps[s->n++] = (struct step){n ? points[0] : (last ? last : 4 * KIB), v};
    }
    for (size_t i = 0; i < s->n; i++)
        s->results +=
            s->steps[i].v->sweep ? s->steps[i].v->sweep_last - s->steps[i].v->sweep_first + 1 : 1;
    qsort(s->steps, s->n, sizeof *s->steps, step_order);
    return CLMEM_OK;
}

int clmem_hierarchy_plan(const struct clmem_ctx *ctx, const struct clmem_hierarchy_options *options,
                         size_t *steps, struct clmem_error *err)
{
    struct schedule s;
    int status = make_schedule(ctx, options, &s, err);
    *steps = s.results;
    schedule_free(&s);
    return status;
}

/* ---- running it ---- */

struct progress {
    const struct clmem_hierarchy_options *o;
    size_t done, steps;
};

static void on_progress(void *user, const struct clmem_result *next, size_t index, size_t count)
{
    (void)index;
    (void)count;
    struct progress *p = user;
    if (p->o->progress)
        p->o->progress(p->o->progress_user, ++p->done, p->steps, next->variant,
                       (size_t)strtoull(next->size, NULL, 10));
}

/* One working set: a run of the probes scheduled at it. */
static int run_size(struct clmem_ctx *ctx, const struct clmem_hierarchy_options *o,
                    const struct step *steps, size_t n, struct progress *progress,
                    struct clmem_result **results, size_t *n_results, struct clmem_error *err)
{
    char size[32];
    snprintf(size, sizeof size, "%zu", steps[0].bytes);
    struct clmem_run_options given = {.size = size,
                                      .reps = o->reps,
                                      .warmup = o->warmup,
                                      .seed = o->seed,
                                      .progress = on_progress,
                                      .progress_user = progress,
                                      .cancelled = o->cancelled,
                                      .cancelled_user = o->cancelled_user};
    struct clmem_run_settings settings;
    struct clmem_run run;
    memset(&run, 0, sizeof run);
    int status = clmem_run_normalise(&clmem_workload_hierarchy, &given, &settings, err);
    if (status == CLMEM_OK)
        status = clmem_run_plan_normalised(&run, &clmem_workload_hierarchy, ctx, &settings, err);
    if (status == CLMEM_OK) {
        /* Only the probes that sweep through this working set. */
        run.n_variants = 0;
        for (size_t i = 0; i < n; i++)
            run.variants[run.n_variants++] = steps[i].v;
        status = clmem_run_execute(&run, &settings.options, results, n_results, err);
    }
    clmem_run_release(&run);
    return status;
}

/* The level a working set of the staircase sits on, or NULL. */
static const struct clmem_level *level_at(const struct clmem_hierarchy *h, double bytes)
{
    for (size_t k = 0; k < h->n_levels; k++) {
        const struct clmem_level *L = &h->levels[k];
        if (bytes >= L->first_bytes && (L->is_memory || bytes <= L->last_bytes))
            return L;
    }
    return NULL;
}

/* Each chase's latency (and level, or which side of the TLB's reach) at
 * the head of its note; the largest working set of chase_global's then
 * why no level is device memory, where none is. */
static void annotate(const struct clmem_hierarchy *h, struct clmem_result *results, size_t n)
{
    const struct clmem_result *last = NULL;
    for (size_t i = 0; i < n; i++)
        if (strcmp(results[i].variant, "chase_global") == 0 && !results[i].skipped &&
            results[i].metric > 0 &&
            (!last || strtod(results[i].size, NULL) > strtod(last->size, NULL)))
            last = &results[i];
    for (size_t i = 0; i < n; i++) {
        struct clmem_result *r = &results[i];
        int global = strcmp(r->variant, "chase_global") == 0;
        int page = strcmp(r->variant, "chase_page") == 0;
        if (strcmp(r->workload, "hierarchy") != 0 || r->skipped || !(r->metric > 0) ||
            (!global && !page && strcmp(r->variant, "chase_local") != 0))
            continue;
        char head[sizeof h->note + 96], note[sizeof head + sizeof r->note + 2];
        double ns = clmem_chase_latency_ns(r), bytes = strtod(r->size, NULL);
        size_t len = 0;
        len += (size_t)snprintf(head, sizeof head, "%.3g ns a load at best", ns);
        if (h->clock_mhz > 0)
            len += (size_t)snprintf(head + len, sizeof head - len, " (%.3g cycles)",
                                    ns * h->clock_mhz * 1e-3);
        len += (size_t)snprintf(head + len, sizeof head - len, ", %.3g median", 1.0 / r->metric);
        const struct clmem_level *L = global ? level_at(h, bytes) : NULL;
        if (global && len < sizeof head)
            len += (size_t)snprintf(head + len, sizeof head - len, ", %s",
                                    L ? L->name : "between levels");
        if (r == last && h->note[0] && len < sizeof head)
            snprintf(head + len, sizeof head - len, "; %s", h->note);
        if (page && len < sizeof head)
            snprintf(head + len, sizeof head - len, ", %s",
                     !(h->tlb.reach_bytes > 0)     ? "no TLB step seen"
                     : bytes <= h->tlb.reach_bytes ? "within the TLB's reach"
                                                   : "past the TLB's reach");
        /* Cut to the note's size (its end goes first). */
        snprintf(note, sizeof note, "%s%s%s", head, r->note[0] ? "; " : "", r->note);
        memcpy(r->note, note, sizeof r->note - 1);
        r->note[sizeof r->note - 1] = '\0';
    }
}

int clmem_hierarchy_run(struct clmem_ctx *ctx, const struct clmem_hierarchy_options *options,
                        struct clmem_hierarchy *h, struct clmem_result **results, size_t *n_results,
                        struct clmem_error *err)
{
    struct schedule s;
    memset(h, 0, sizeof *h);
    int status = make_schedule(ctx, options, &s, err);
    if (status)
        return status;
    struct progress progress = {options, 0, s.results};
    size_t first = *n_results;
    int worst = CLMEM_OK;
    struct clmem_error step_err = {0};
    for (size_t i = 0; i < s.n;) {
        size_t j = i;
        while (j < s.n && s.steps[j].bytes == s.steps[i].bytes)
            j++;
        clmem_error_clear(&step_err);
        status =
            run_size(ctx, options, &s.steps[i], j - i, &progress, results, n_results, &step_err);
        if (status == CLMEM_ERR_USAGE) {
            /* A working set the device cannot hold (all its buffers at
             * once): its probes skipped, with the reason. */
            for (size_t k = i; k < j; k++) {
                char size[32];
                snprintf(size, sizeof size, "%zu", s.steps[k].bytes);
                struct clmem_result *r = clmem_result_append(
                    results, n_results, "hierarchy", s.steps[k].v->name, ctx->device.name, size);
                if (!r) {
                    status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
                    goto done;
                }
                r->skipped = 1;
                snprintf(r->skip_reason, sizeof r->skip_reason, "%.255s", step_err.message);
                snprintf(r->metric_unit, sizeof r->metric_unit, "%s",
                         s.steps[k].v->metric_unit ? s.steps[k].v->metric_unit : "GB/s");
            }
            status = CLMEM_OK;
        }
        if (status == CLMEM_ERR_VERIFY) {
            worst = CLMEM_ERR_VERIFY;
        } else if (status) {
            /* An OpenCL error or a stop: what ran is kept. */
            *err = step_err;
            step_err = (struct clmem_error){0};
            break;
        }
        i = j;
    }
done:
    clmem_error_clear(&step_err);
    h->extent = (double)s.extent;
    const char *limit;
    clmem_hierarchy_default_extent(&ctx->device, &h->cache_bytes, h->cache_from,
                                   sizeof h->cache_from, &limit);
    snprintf(h->stopped_by, sizeof h->stopped_by, "%s",
             options->extent ? "--size"
             : limit         ? limit
                             : "");
    if (status == CLMEM_ERR_INTERRUPTED)
        snprintf(h->stopped_by, sizeof h->stopped_by, "interrupted");
    h->cpu = (ctx->device.type & CL_DEVICE_TYPE_CPU) != 0;
    h->page_bytes = (double)clmem_hierarchy_page_bytes();
    pages_text(&ctx->device, clmem_hierarchy_page_bytes(), h->pages, sizeof h->pages);
    clmem_hierarchy_levels(*results + first, *n_results - first, ctx->device.clock_mhz, h);
    annotate(h, *results + first, *n_results - first);
    schedule_free(&s);
    return status ? status : worst;
}
