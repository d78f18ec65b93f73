/* clmem hierarchy's report (hierarchy_table.h): the summary for people
 * below the results' table, and the run file with the levels. */
#include "report/hierarchy_table.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the summary for people ---- */

/* "48 KiB", "1.5 MiB", "-" for 0. */
static void bytes_text(double b, char *out, size_t size)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    size_t u = 0;
    if (!(b > 0)) {
        snprintf(out, size, "-");
        return;
    }
    while (b >= 1024 && u + 1 < CLMEM_ARRAY_SIZE(units)) {
        b /= 1024;
        u++;
    }
    snprintf(out, size, "%.3g %s", b, units[u]);
}

static const struct clmem_result *find(const struct clmem_result *r, size_t n, const char *variant,
                                       int sweep_value)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(r[i].workload, "hierarchy") == 0 && strcmp(r[i].variant, variant) == 0 &&
            (sweep_value < 0 || r[i].sweep_value == (unsigned)sweep_value))
            return &r[i];
    return NULL;
}

static int usable(const struct clmem_result *r)
{
    return r && !r->skipped && r->verified && r->metric > 0;
}

static void metric_text(const struct clmem_result *r, char *out, size_t size)
{
    if (usable(r))
        clmem_format_metric(r->metric, r->metric_unit, out, size);
    else if (r && r->skipped)
        snprintf(out, size, "skipped (%s)", r->skip_reason);
    else
        snprintf(out, size, r ? "FAILED" : "not run");
}

static void latency_text(double ns, double clock_mhz, char *out, size_t size)
{
    if (clock_mhz > 0)
        snprintf(out, size, "%.3g ns (%.3g cycles)", ns, ns * clock_mhz * 1e-3);
    else
        snprintf(out, size, "%.3g ns", ns);
}

/* The TLB's reach: a step of its own, apart from the cache levels. */
static void print_tlb(FILE *out, const struct clmem_hierarchy *h)
{
    const struct clmem_tlb *t = &h->tlb;
    if (!(t->last_bytes > 0))
        return;
    char reach[32], last[32], page[32], hit[64], miss[64];
    bytes_text(t->reach_bytes, reach, sizeof reach);
    bytes_text(t->last_bytes, last, sizeof last);
    bytes_text(h->page_bytes, page, sizeof page);
    if (!(t->reach_bytes > 0)) {
        fprintf(out,
                "  TLB reach: no step in chase_page's spans up to %s (one element a %s page)\n",
                last, page);
        return;
    }
    latency_text(t->hit_ns, h->clock_mhz, hit, sizeof hit);
    latency_text(t->miss_ns, h->clock_mhz, miss, sizeof miss);
    fprintf(out,
            "  %-24s %-10s %-14s %s within, %s past it (chase_page: one element a %s page, "
            "%.0f pages)\n",
            "TLB reach", reach, "-", hit, miss, page,
            h->page_bytes > 0 ? t->reach_bytes / h->page_bytes : 0.0);
    /* Past the first step the page chase's lines outgrow the L1 as well:
     * its later plateaus are TLB and caches together, listed unnamed. */
    if (t->n_plateaus > 2) {
        fprintf(out, "  page chase plateaus (TLB and caches together past the first):");
        for (size_t k = 0; k < t->n_plateaus; k++) {
            char at[32];
            bytes_text(t->plateaus[k].bytes, at, sizeof at);
            fprintf(out, "%s %.3g ns to %s", k ? "," : "", t->plateaus[k].value, at);
        }
        fprintf(out, "\n");
    }
}

static void print_levels(FILE *out, const struct clmem_hierarchy *h, const struct clmem_device *d)
{
    char extent[32], cache[32];
    bytes_text(h->extent, extent, sizeof extent);
    bytes_text(h->cache_bytes, cache, sizeof cache);
    fprintf(out, "\nmemory hierarchy of %s: working sets up to %s", d->name, extent);
    if (h->cache_bytes > 0)
        fprintf(out, " (largest cache known %s, from %s)", cache, h->cache_from);
    if (h->clock_mhz > 0)
        fprintf(out, "; cycles at the reported %.0f MHz", h->clock_mhz);
    fprintf(out, "\n  (each working set's fastest sample: the chase's latency, the read "
                 "bandwidth's plateaus)\n");
    if (h->pages[0])
        fprintf(out, "  pages: %s\n", h->pages);
    if (h->n_levels == 0) {
        fprintf(out, "  no latency staircase (chase_global did not run or verify)\n");
        print_tlb(out, h);
        return;
    }
    fprintf(out, "  %-24s %-10s %-14s %-24s %s\n", "level", "size", "from", "latency",
            "read bandwidth");
    for (size_t k = 0; k < h->n_levels; k++) {
        const struct clmem_level *L = &h->levels[k];
        char size[40], first[32], lat[64], bw[96] = "-";
        bytes_text(L->size_bytes, size, sizeof size);
        bytes_text(L->first_bytes, first, sizeof first);
        latency_text(L->latency_ns, h->clock_mhz, lat, sizeof lat);
        if (!isnan(L->bandwidth_gbs)) {
            char b[32], at[32];
            clmem_format_metric(L->bandwidth_gbs, "GB/s", b, sizeof b);
            bytes_text(L->bandwidth_bytes, at, sizeof at);
            snprintf(bw, sizeof bw, "%s (plateau up to %s)", b, at);
        }
        /* The last plateau of a sweep that stopped on it: its end unseen. */
        if (L->resolved && !L->is_memory && !(L->size_bytes > 0)) {
            char last[32];
            bytes_text(L->last_bytes, last, sizeof last);
            snprintf(size, sizeof size, "> %s", last);
        }
        fprintf(out, "  %-24s %-10s %-14s %-24s %s\n", L->name,
                L->is_memory || !L->resolved ? "-" : size, first, lat, bw);
        /* A split cache's far half: the size the device reports beside
         * the two halves measured (the name is what a run file keeps). */
        const char *far = strstr(L->name, " (far)");
        if (far && far[6] == '\0') {
            char what[48], cache[32];
            snprintf(what, sizeof what, "%.*s as reported", (int)(far - L->name), L->name);
            bytes_text(h->cache_bytes, cache, sizeof cache);
            fprintf(out, "  %-24s %-10s (%s)\n", what, cache,
                    h->cache_bytes > 0 ? h->cache_from : "the device reports none");
        }
    }
    if (h->note[0])
        fprintf(out, "  %s\n", h->note);
    print_tlb(out, h);
    for (size_t u = 0; u < h->n_unmatched; u++) {
        char b[32], at[32];
        clmem_format_metric(h->unmatched[u].value, "GB/s", b, sizeof b);
        bytes_text(h->unmatched[u].bytes, at, sizeof at);
        fprintf(out, "  a read plateau of %s up to %s matches no latency level\n", b, at);
    }
}

/* One line: each named result's value, the ratio of each to the first. */
static void print_row(FILE *out, const char *label, const struct clmem_result *const *r,
                      const char *const *names, size_t n)
{
    fprintf(out, "  %-18s", label);
    for (size_t i = 0; i < n; i++) {
        char v[300];
        metric_text(r[i], v, sizeof v);
        fprintf(out, "%s%s %s", i ? ", " : "", names[i], v);
        if (i > 0 && usable(r[i]) && usable(r[0]))
            fprintf(out, " (%.2fx)", r[i]->metric / r[0]->metric);
    }
    fprintf(out, "\n");
}

static void print_onchip(FILE *out, const struct clmem_hierarchy *h, const struct clmem_result *r,
                         size_t n)
{
    fprintf(out, "\non-chip (value, and x the first of the line):\n");
    /* The local chase: its median over the working sets it ran at. */
    double ns[64];
    size_t k = 0;
    for (size_t i = 0; i < n && k < 64; i++)
        if (strcmp(r[i].variant, "chase_local") == 0 && usable(&r[i]))
            ns[k++] = clmem_chase_latency_ns(&r[i]);
    if (k) {
        char lat[64];
        latency_text(clmem_median(ns, k), h->clock_mhz, lat, sizeof lat);
        fprintf(out, "  %-18s%s a load (median of %zu working sets)\n", "__local chase", lat, k);
    }
    const struct clmem_result *local[] = {
        find(r, n, "local_stride", 1),    find(r, n, "local_stride", 2),
        find(r, n, "local_stride", 4),    find(r, n, "local_stride", 8),
        find(r, n, "local_stride", 16),   find(r, n, "local_stride", 32),
        find(r, n, "local_broadcast", -1)};
    static const char *const local_names[] = {"stride 1", "2", "4", "8", "16", "32", "broadcast"};
    if (local[0] || local[6])
        print_row(out, "__local reads", local, local_names, CLMEM_ARRAY_SIZE(local));
    const struct clmem_result *constant[] = {
        find(r, n, "constant_broadcast", -1), find(r, n, "constant_scattered", -1),
        find(r, n, "global_broadcast", -1), find(r, n, "global_scattered", -1)};
    static const char *const constant_names[] = {"__constant broadcast", "scattered",
                                                 "__global broadcast", "scattered"};
    if (constant[0] || constant[2])
        print_row(out, "table reads", constant, constant_names, CLMEM_ARRAY_SIZE(constant));
    const struct clmem_result *priv[] = {find(r, n, "private_registers", -1),
                                         find(r, n, "private_dynamic", -1)};
    static const char *const priv_names[] = {"registers", "spilled"};
    if (priv[0] || priv[1])
        print_row(out, "private array", priv, priv_names, CLMEM_ARRAY_SIZE(priv));
    const struct clmem_result *atomic[] = {find(r, n, "atomic_global", -1),
                                           find(r, n, "atomic_contended", -1),
                                           find(r, n, "atomic_local", -1)};
    static const char *const atomic_names[] = {"own counter", "one counter", "__local"};
    if (atomic[0] || atomic[1] || atomic[2])
        print_row(out, "atomics", atomic, atomic_names, CLMEM_ARRAY_SIZE(atomic));
}

static void print_images(FILE *out, const struct clmem_result *r, size_t n)
{
    int header = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(r[i].variant, "image_read") != 0)
            continue;
        const struct clmem_result *buf = NULL;
        for (size_t j = 0; j < n; j++)
            if (strcmp(r[j].variant, "buffer_read") == 0 && strcmp(r[j].size, r[i].size) == 0)
                buf = &r[j];
        if (!header++)
            fprintf(out, "\nimages (image2d_t against a buffer read in the same order):\n");
        char at[32], img[300], b[300];
        bytes_text(strtod(r[i].size, NULL), at, sizeof at);
        metric_text(&r[i], img, sizeof img);
        metric_text(buf, b, sizeof b);
        fprintf(out, "  %-10s image %s, buffer %s", at, img, b);
        if (usable(&r[i]) && usable(buf))
            fprintf(out, " (image %.2fx)", r[i].metric / buf->metric);
        fprintf(out, "\n");
        if (r[i].skipped)
            break; /* one reason is enough */
    }
}

static void print_copies(FILE *out, const struct clmem_result *r, size_t n)
{
    static const char *const copies[] = {"h2d_pageable", "h2d_pinned", "d2h_pageable",
                                         "d2h_pinned",   "map",        "d2d"};
    int header = 0;
    for (size_t c = 0; c < CLMEM_ARRAY_SIZE(copies); c++) {
        const struct clmem_result *small = NULL, *large = NULL;
        for (size_t i = 0; i < n; i++) {
            if (strcmp(r[i].variant, copies[c]) != 0 || !usable(&r[i]))
                continue;
            double b = strtod(r[i].size, NULL);
            if (!small || b < strtod(small->size, NULL))
                small = &r[i];
            if (!large || b > strtod(large->size, NULL))
                large = &r[i];
        }
        if (!small)
            continue;
        if (!header++)
            fprintf(out, "\nhost and device (the time of the smallest copy; the bandwidth of the "
                         "largest):\n");
        char s[32], l[32], bw[32];
        bytes_text(strtod(small->size, NULL), s, sizeof s);
        bytes_text(strtod(large->size, NULL), l, sizeof l);
        clmem_format_metric(large->metric, large->metric_unit, bw, sizeof bw);
        fprintf(out, "  %-14s %8.2f us at %-8s %s at %s\n", copies[c], small->median_ms * 1e3, s,
                bw, l);
    }
}

static void print_summary(FILE *out, const struct clmem_hierarchy *h,
                          const struct clmem_device *device, const struct clmem_result *r, size_t n)
{
    print_levels(out, h, device);
    print_onchip(out, h, r, n);
    print_images(out, r, n);
    print_copies(out, r, n);
}

/* ---- JSON: the run file, and the levels ---- */

/* A curve as the run file keeps it: the usable results of `variant`, in
 * the order they ran (*count of them); NULL when out of memory. */
static struct clmem_saved_point *saved_curve(const struct clmem_result *r, size_t n,
                                             const char *variant, int latency, size_t *count)
{
    struct clmem_saved_point *c = malloc((n ? n : 1) * sizeof *c);
    *count = 0;
    for (size_t i = 0; c && i < n; i++)
        if (strcmp(r[i].workload, "hierarchy") == 0 && strcmp(r[i].variant, variant) == 0 &&
            usable(&r[i]))
            c[(*count)++] = (struct clmem_saved_point){strtod(r[i].size, NULL),
                                                       latency ? clmem_chase_latency_ns(&r[i])
                                                               : clmem_result_best_rate(&r[i])};
    return c;
}

/* The host's transparent huge pages as the sweep's pages text quotes
 * them: the setting /sys/kernel/mm/transparent_hugepage/enabled marks
 * with brackets ("always [madvise] never"); "" where the text quotes none
 * (THP unknown, or a device that is not a CPU). */
static void huge_pages(const char *pages, char *out, size_t size)
{
    const char *open = strchr(pages, '['), *close = open ? strchr(open, ']') : NULL;
    out[0] = '\0';
    if (open && close && close > open + 1)
        snprintf(out, size, "%.*s", (int)(close - open - 1), open + 1);
}

/* The chase's working sets from `first` to `last` bytes. */
static size_t points_on(const struct clmem_saved_point *c, size_t n, double first, double last)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += c[i].bytes >= first && c[i].bytes <= last;
    return k;
}

/* Why a level is no cache's level, or only half of one, in a field of
 * its own: what the table says of it beside or below its line. */
static void saved_level_notes(const struct clmem_hierarchy *h, const struct clmem_level *L,
                              const struct clmem_saved_hierarchy *s, struct clmem_saved_level *out)
{
    const char *split = strrchr(L->name, '(');
    out->resolved = L->resolved;
    out->last_bytes = L->last_bytes;
    out->points = (double)points_on(s->latency, s->n_latency, L->first_bytes, L->last_bytes);
    if (split && (strcmp(split, "(near)") == 0 || strcmp(split, "(far)") == 0)) {
        snprintf(out->split, sizeof out->split, "%.*s", (int)strlen(split + 1) - 1, split + 1);
        out->reported_bytes = h->cache_bytes;
    }
    if (!L->resolved)
        snprintf(out->why, sizeof out->why,
                 "a stretch the sweep did not resolve: too few points for a level (a noisy end "
                 "point, a sweep stopped just past a step), or no slower than the level before "
                 "it");
    else if (strcmp(L->name, "unnamed, inside a cache") == 0)
        snprintf(out->why, sizeof out->why, "%s", h->note);
    else if (!L->is_memory && !(L->size_bytes > 0))
        snprintf(out->why, sizeof out->why, "the sweep stopped on it: its end unseen, no size");
}

/* A run file as `run --format json` writes it, with "hierarchy" added:
 * the sweep's levels and curves as a run file saves them, written by the
 * report layer's one writer of run files (which compare's device-N.json
 * goes through too). */
static int write_json(FILE *out, const struct clmem_result *r, size_t n,
                      const struct clmem_device *device, const struct clmem_hierarchy *h,
                      int interrupted, struct clmem_error *err)
{
    struct clmem_saved_hierarchy s = {.extent = h->extent,
                                      .cache_bytes = h->cache_bytes,
                                      .clock_mhz = h->clock_mhz,
                                      .n_levels = h->n_levels,
                                      .n_unmatched = h->n_unmatched};
    snprintf(s.cache_from, sizeof s.cache_from, "%s", h->cache_from);
    snprintf(s.stopped_by, sizeof s.stopped_by, "%s", h->stopped_by);
    snprintf(s.memory_note, sizeof s.memory_note, "%s", h->note);
    s.page_bytes = h->page_bytes;
    snprintf(s.pages, sizeof s.pages, "%s", h->pages);
    huge_pages(h->pages, s.huge_pages, sizeof s.huge_pages);
    s.tlb = (struct clmem_saved_tlb){.reach_bytes = h->tlb.reach_bytes,
                                     .hit_ns = h->tlb.hit_ns,
                                     .miss_ns = h->tlb.miss_ns,
                                     .last_bytes = h->tlb.last_bytes};
    for (size_t k = 0; k < h->tlb.n_plateaus && k < CLMEM_SAVED_TLB_PLATEAUS; k++)
        s.tlb.plateaus[s.tlb.n_plateaus++] =
            (struct clmem_saved_point){h->tlb.plateaus[k].bytes, h->tlb.plateaus[k].value};
    s.latency = saved_curve(r, n, "chase_global", 1, &s.n_latency);
    for (size_t k = 0; k < h->n_levels; k++) {
        const struct clmem_level *L = &h->levels[k];
        s.levels[k] = (struct clmem_saved_level){.is_memory = L->is_memory,
                                                 .size_bytes = L->size_bytes,
                                                 .first_bytes = L->first_bytes,
                                                 .latency_ns = L->latency_ns,
                                                 .latency_cycles = L->latency_cycles,
                                                 .bandwidth_gbs = L->bandwidth_gbs,
                                                 .bandwidth_bytes = L->bandwidth_bytes};
        snprintf(s.levels[k].name, sizeof s.levels[k].name, "%s", L->name);
        if (s.latency)
            saved_level_notes(h, L, &s, &s.levels[k]);
    }
    struct clmem_saved_point unmatched[CLMEM_MAX_LEVELS];
    for (size_t u = 0; u < h->n_unmatched; u++)
        unmatched[u] = (struct clmem_saved_point){h->unmatched[u].bytes, h->unmatched[u].value};
    s.unmatched = unmatched;
    s.local_latency = saved_curve(r, n, "chase_local", 1, &s.n_local_latency);
    s.bandwidth = saved_curve(r, n, "read_ws", 0, &s.n_bandwidth);
    int status = !s.latency || !s.local_latency || !s.bandwidth
                     ? clmem_fail(err, CLMEM_ERR_CL, "out of host memory")
                     : clmem_report_json(out, r, n,
                                         &(struct clmem_report_meta){.device = device,
                                                                     .interrupted = interrupted,
                                                                     .hierarchy = &s},
                                         err);
    free(s.latency);
    free(s.local_latency);
    free(s.bandwidth);
    return status;
}

int clmem_hierarchy_write(FILE *out, enum clmem_format format, const struct clmem_result *results,
                          size_t n, const struct clmem_device *device,
                          const struct clmem_hierarchy *h, int interrupted,
                          struct clmem_error *err)
{
    int status = CLMEM_OK;
    errno = 0;
    switch (format) {
    case CLMEM_FORMAT_TABLE:
        status = clmem_report_table(out, results, n);
        if (status == CLMEM_OK)
            print_summary(out, h, device, results, n);
        break;
    case CLMEM_FORMAT_CSV: status = clmem_report_csv(out, results, n); break;
    case CLMEM_FORMAT_JSON: status = write_json(out, results, n, device, h, interrupted, err); break;
    }
    return clmem_report_flush(out, status, err);
}
