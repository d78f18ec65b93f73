/* The memory hierarchy in the comparison report: what `clmem hierarchy`
 * saved in each run file ("hierarchy", read back as the entry's
 * clmem_saved_hierarchy): every entry's latency staircase in one log-log
 * picture, the levels (L1, L2, the last-level cache, device memory) as
 * bars side by side, a table of the levels with the cache sizes each
 * device reports beside the detected ones; and the level a result's data
 * fits in, which explains a result above its device-memory roof. */
#include "compare/model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The levels every device's staircase names, in the order the report shows
 * them. */
enum level_class { LEVEL_L1, LEVEL_L2, LEVEL_LAST, LEVEL_MEMORY, N_LEVEL_CLASSES };
static const char *const class_names[N_LEVEL_CLASSES] = {"L1", "L2", "last-level cache",
                                                         "device memory"};

int compare_has_levels(const struct clmem_compare_device *dev)
{
    if (!dev->hierarchy || dev->hierarchy->n_latency < 2)
        return 0;
    /* The probes' results are there too (compare --workloads may drop
     * them, and the levels with them). */
    for (size_t i = 0; i < dev->n_results; i++)
        if (strcmp(dev->results[i].workload, "hierarchy") == 0)
            return 1;
    return 0;
}

/* Whether a saved level is a cache: named L<n> by the hierarchy's rules
 * ("L1", "L2 (near)", "L3 (last-level cache)"). The other names are no
 * cache: "unresolved" (a plateau too short at an end of its curve),
 * "unnamed, inside a cache" (a step inside a cache the device reports:
 * TLB misses, not a level), "one level (no step)" and "device memory". */
static int is_cache(const struct clmem_saved_level *L)
{
    return !L->is_memory && L->name[0] == 'L' && L->name[1] >= '0' && L->name[1] <= '9';
}

/* The far part of a cache split in two ("L2 (far)"): the same cache
 * number as the near part before it, so no cache of its own. */
static int is_far(const struct clmem_saved_level *L)
{
    return is_cache(L) && strstr(L->name, "(far)") != NULL;
}

/* A cache's name for a sentence: "L2", "L2 near", "L2 far" (the
 * last-level mark dropped: the table says which is last). */
static void cache_name(const struct clmem_saved_level *L, char *out, size_t size)
{
    const char *part = strstr(L->name, "(near)") ? " near" : strstr(L->name, "(far)") ? " far" : "";
    snprintf(out, size, "%.*s%s", (int)strcspn(L->name, " "), L->name, part);
}

/* The index of the level of class c in h, or -1: L1 and L2 the first and
 * second caches (a split L2's near part), the last-level cache the one so
 * named (a GPU's L2 is both its L2 and its last level) or the last cache
 * (a split L2's far part), memory the last plateau; plateaus that are no
 * cache (unresolved, a step inside a cache) are passed over. */
static int level_index(const struct clmem_saved_hierarchy *h, enum level_class c)
{
    size_t caches = 0, last = 0;
    for (size_t k = 0; k < h->n_levels; k++)
        if (is_cache(&h->levels[k])) {
            caches += !is_far(&h->levels[k]);
            last = k;
        }
    /* "one level (no step)" names no cache and no memory. */
    if (h->n_levels < 2)
        return -1;
    size_t rank = 0; /* caches before level k, a split one counted once */
    for (size_t k = 0; k < h->n_levels;
         rank += is_cache(&h->levels[k]) && !is_far(&h->levels[k]), k++) {
        const struct clmem_saved_level *L = &h->levels[k];
        switch (c) {
        case LEVEL_L1:
            if (rank == 0 && is_cache(L))
                return (int)k;
            break;
        case LEVEL_L2:
            if (rank == 1 && is_cache(L) && !is_far(L))
                return (int)k;
            break;
        case LEVEL_LAST:
            if (is_cache(L) && (strstr(L->name, "last-level") || (caches && k == last)))
                return (int)k;
            break;
        case LEVEL_MEMORY:
            if (L->is_memory)
                return (int)k;
            break;
        case N_LEVEL_CLASSES: break;
        }
    }
    return -1;
}

/* "48 KiB", "1.5 MiB", "27 MiB": bytes for people. */
static void bytes_text(double bytes, char *out, size_t size)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    size_t u = 0;
    /* 1023.9 MiB is "1 GiB", never "1024 MiB". */
    while (bytes >= 1023.5 && u + 1 < CLMEM_ARRAY_SIZE(units)) {
        bytes /= 1024;
        u++;
    }
    if (u == 0 || bytes >= 99.5)
        snprintf(out, size, "%.0f %s", bytes, units[u]);
    else
        snprintf(out, size, "%.3g %s", bytes, units[u]);
}

/* ---- a result above its roof: the level its data fits in ---- */

/* The bytes a run of r moves: its bandwidth times its time (the data a
 * kernel that moves each byte once holds); NAN where r is no bandwidth. */
static double moved_bytes(const struct clmem_result *r)
{
    if (strcmp(r->metric_unit, "GB/s") != 0 || !(r->median_ms > 0) || !(r->metric > 0))
        return NAN;
    return r->metric * 1e9 * r->median_ms * 1e-3;
}

double compare_above_threshold(const struct clmem_result *r)
{
    double spread = r->median_ms > 0 ? (r->max_ms - r->min_ms) / r->median_ms : 0;
    return 1 + (spread > 0.05 ? spread : 0.05);
}

int compare_above_roof(const struct clmem_compare_device *dev, const struct clmem_result *r,
                       char *why, size_t size)
{
    why[0] = '\0';
    if (r->skipped || !r->verified || !(r->median_ms > 0) || compare_is_peak(r->workload))
        return 0;
    /* Its fraction of the entry's roof, as the harness reckons it (a file
     * may not say it). */
    double fraction = r->peak_fraction, roof = 0;
    if (!(fraction > 0)) {
        if (strcmp(r->roof, "none") == 0)
            roof = 0;
        else if (strcmp(r->metric_unit, "GB/s") == 0)
            roof = strcmp(r->roof, "read") == 0 && dev->peak.read_bandwidth > 0
                       ? dev->peak.read_bandwidth
                       : dev->peak.bandwidth;
        else if (strcmp(r->metric_unit, "GFLOP/s") == 0)
            roof = dev->peak.flops;
        fraction = roof > 0 ? r->metric / roof : NAN;
    }
    if (!(fraction > compare_above_threshold(r)))
        return 0;
    char moved[32], cache[32];
    double bytes = moved_bytes(r);
    int n = snprintf(why, size, "above its roof, %.2fx: ", fraction);
    if (n < 0 || (size_t)n >= size)
        return 1;
    why += n;
    size -= (size_t)n;
    if (isnan(bytes)) {
        snprintf(why, size, "%s",
                 strcmp(r->metric_unit, "GFLOP/s") == 0
                     ? "the device's FMA peak reads below what it computes here"
                     : "the roof was measured at another size");
        return 1;
    }
    bytes_text(bytes, moved, sizeof moved);
    const struct clmem_saved_hierarchy *h = compare_has_levels(dev) ? dev->hierarchy : NULL;
    if (h) {
        for (size_t k = 0; k < h->n_levels; k++) {
            const struct clmem_saved_level *L = &h->levels[k];
            char name[48];
            if (!is_cache(L) || !(L->size_bytes >= bytes))
                continue;
            bytes_text(L->size_bytes, cache, sizeof cache);
            cache_name(L, name, sizeof name);
            snprintf(why, size, "its %s a run fits in %s (%s, measured)", moved, name, cache);
            return 1;
        }
    }
    double reported = dev->device.global_mem_cache > 0 ? (double)dev->device.global_mem_cache
                      : h                              ? h->cache_bytes
                                                       : 0;
    if (reported >= bytes) {
        bytes_text(reported, cache, sizeof cache);
        snprintf(why, size, "its %s a run fits in the device's %s cache (reported)", moved, cache);
    } else if (h || reported > 0) {
        snprintf(why, size,
                 "its %s a run outgrows every cache known: the roof was measured at another "
                 "moment",
                 moved);
    } else {
        snprintf(why, size,
                 "its %s a run may fit in a cache (none known for this device) or the roof was "
                 "measured at another size",
                 moved);
    }
    return 1;
}

/* ---- the pictures ---- */

static int picture(struct compare_plots *p, const char *file, const char *note,
                   struct clmem_error *err)
{
    int status = plot_add_picture(p, file, note, err);
    if (!status)
        p->pictures[p->n - 1].hierarchy = 1;
    return status;
}

/* hierarchy-staircase.svg: every entry's chase latency against its working
 * set, log-log, each in its colour and dashes; its detected levels'
 * sizes as points on its line. */
static int staircase(FILE *gp, struct compare_plots *p, const char *dir,
                     const struct clmem_compare_device *devs, const compare_label *labels, size_t n,
                     size_t longest, size_t drawn, struct clmem_error *err)
{
    struct clmem_output out;
    int status = plot_open(&out, dir, "hierarchy-staircase.dat", err);
    if (status)
        return status;
    double lo = INFINITY, hi = 0, ylo = INFINITY, yhi = 0;
    for (size_t d = 0; d < n; d++) {
        if (!compare_has_levels(&devs[d]))
            continue;
        const struct clmem_saved_hierarchy *h = devs[d].hierarchy;
        fputs("# ", out.file);
        plot_data_string(out.file, labels[d]);
        fputs(": working set (bytes), ns a load\n", out.file);
        for (size_t i = 0; i < h->n_latency; i++) {
            fprintf(out.file, "%.17g %.17g\n", h->latency[i].bytes, h->latency[i].value);
            lo = fmin(lo, h->latency[i].bytes);
            hi = fmax(hi, h->latency[i].bytes);
            ylo = fmin(ylo, h->latency[i].value);
            yhi = fmax(yhi, h->latency[i].value);
        }
        fputs("\n\n# its levels' detected sizes, at their latency\n", out.file);
        for (size_t k = 0; k < h->n_levels; k++)
            if (is_cache(&h->levels[k]) && h->levels[k].size_bytes > 0)
                fprintf(out.file, "%.17g %.17g\n", h->levels[k].size_bytes,
                        h->levels[k].latency_ns);
        fputs("\n\n", out.file);
    }
    if ((status = clmem_output_commit(&out, err)))
        return status;
    char name[COMPARE_LABEL_MAX * 2];
    plot_begin(gp, "hierarchy-staircase.svg", 900, drawn, longest);
    fprintf(gp,
            "set title 'Latency staircase: a dependent load over one random cycle (pointer "
            "chase)'\nset xlabel 'working set (log scale)'\nset ylabel 'ns a load (log "
            "scale)'\nset logscale x 2\nset logscale y 10\nset format x '%%.0b %%B'\n"
            "set format y '%%g'\nset xrange [%g:%g]\nset yrange [%g:%g]\nplot ",
            plot_axis(lo / 1.5), plot_axis(hi * 1.5), plot_axis(ylo / 2), plot_axis(yhi * 2));
    size_t block = 0, clauses = 0;
    for (size_t d = 0; d < n; d++) {
        if (!compare_has_levels(&devs[d]))
            continue;
        fprintf(gp,
                "%s'hierarchy-staircase.dat' index %zu using 1:2 with linespoints linetype %zu "
                "linewidth 2 pointsize 0.6 title '%s', \\\n  'hierarchy-staircase.dat' index %zu "
                "using 1:2 with points linetype %zu pointsize 1.8 notitle",
                clauses++ ? ", \\\n  " : "", block, d + 1,
                plot_quoted(labels[d], name, sizeof name), block + 1, d + 1);
        block += 2;
    }
    fprintf(gp, "\nunset logscale xy\nset autoscale xy\nset format xy\n");
    return picture(p, "hierarchy-staircase.svg",
                   "Each device's latency (its fastest sample) against the working set; the "
                   "large points are where clmem hierarchy found a level's end (its detected "
                   "size). A step is a cache outgrown.",
                   err);
}

/* The levels as bars (hierarchy-levels-latency.svg and
 * -bandwidth.svg): a cluster per level, a bar per entry. */
static int level_bars(FILE *gp, struct compare_plots *p, const char *dir,
                      const struct clmem_compare_device *devs, const compare_label *labels,
                      size_t n, size_t longest, size_t drawn, int bandwidth,
                      struct clmem_error *err)
{
    const char *stem = bandwidth ? "hierarchy-levels-bandwidth" : "hierarchy-levels-latency";
    char dat[64], svg[64], name[COMPARE_LABEL_MAX * 2];
    snprintf(dat, sizeof dat, "%s.dat", stem);
    snprintf(svg, sizeof svg, "%s.svg", stem);
    struct clmem_output out;
    int status = plot_open(&out, dir, dat, err);
    if (status)
        return status;
    double low = 0;
    fprintf(out.file, "# level, then %s of each entry in order (0: none)\n",
            bandwidth ? "read GB/s" : "ns a load");
    for (size_t c = 0; c < N_LEVEL_CLASSES; c++) {
        plot_data_string(out.file, class_names[c]);
        for (size_t d = 0; d < n; d++) {
            double v = 0;
            if (compare_has_levels(&devs[d])) {
                int k = level_index(devs[d].hierarchy, (enum level_class)c);
                const struct clmem_saved_level *L = k >= 0 ? &devs[d].hierarchy->levels[k] : NULL;
                v = !L                  ? 0
                    : bandwidth         ? (L->bandwidth_gbs > 0 ? L->bandwidth_gbs : 0)
                    : L->latency_ns > 0 ? L->latency_ns
                                        : 0;
            }
            if (v > 0 && (low == 0 || v < low))
                low = v;
            fprintf(out.file, " %.17g", v);
        }
        fputc('\n', out.file);
    }
    if ((status = clmem_output_commit(&out, err)) || low == 0)
        return status;
    plot_begin(gp, svg, 720, drawn, longest);
    fprintf(gp,
            "set title '%s'\nset xlabel ''\nset ylabel '%s (log scale)'\nset logscale y 10\n"
            "set format y '%%g'\nset yrange [%g:*]\nset style data histograms\n"
            "set style histogram clustered gap 1\nset style fill solid 0.8\nplot ",
            bandwidth ? "Read bandwidth of each level (GB/s)" : "Latency of each level (ns a load)",
            bandwidth ? "GB/s" : "ns", plot_axis(pow(10, floor(log10(low)))));
    size_t clauses = 0;
    for (size_t d = 0; d < n; d++) {
        if (!compare_has_levels(&devs[d]))
            continue;
        char fill[48] = "";
        if (d >= PLOT_COLOURS)
            snprintf(fill, sizeof fill, " fillstyle pattern %zu", d / PLOT_COLOURS + 3);
        fprintf(gp, "%s'%s' using %zu%s linecolor %zu%s title '%s'", clauses ? ", \\\n  " : "", dat,
                d + 2, clauses ? "" : ":xtic(1)", d + 1, fill,
                plot_quoted(labels[d], name, sizeof name));
        clauses++;
    }
    fprintf(gp, "\nunset logscale xy\nset autoscale xy\nset format xy\nset style data "
                "linespoints\n");
    return picture(p, svg,
                   bandwidth ? "The read-bandwidth plateau matched to each level (read_ws); "
                               "none where the device's plateaus matched no level."
                             : "Each level's latency: a cache's plateau median, device memory's "
                               "at the largest working set. An H100's L2 is also its last "
                               "level.",
                   err);
}

int compare_levels_plots(FILE *gp, struct compare_plots *p, const char *dir,
                         const struct clmem_compare_device *devs, const compare_label *labels,
                         size_t n, struct clmem_error *err)
{
    size_t drawn = 0, longest = 0;
    for (size_t d = 0; d < n; d++)
        if (compare_has_levels(&devs[d])) {
            drawn++;
            longest = strlen(labels[d]) > longest ? strlen(labels[d]) : longest;
        }
    if (!drawn)
        return CLMEM_OK;
    int status;
    if ((status = staircase(gp, p, dir, devs, labels, n, longest, drawn, err)) ||
        (status = level_bars(gp, p, dir, devs, labels, n, longest, drawn, 0, err)) ||
        (status = level_bars(gp, p, dir, devs, labels, n, longest, drawn, 1, err)))
        return status;
    return CLMEM_OK;
}

/* ---- the section ---- */

/* A level's figures in the table: `own` (its name and ": ", or ""), then
 * its size, latency (in cycles where the clock is known) and bandwidth. */
static void level_figures(const struct clmem_saved_level *L, const char *own, char *out,
                          size_t out_size)
{
    char size[64] = "", cycles[48] = "", bw[48] = "";
    if (!L->is_memory && L->size_bytes > 0) {
        char s[32];
        bytes_text(L->size_bytes, s, sizeof s);
        snprintf(size, sizeof size, "%s, ", s);
    }
    if (L->latency_cycles > 0)
        snprintf(cycles, sizeof cycles, " (%.0f cycles)", L->latency_cycles);
    if (L->bandwidth_gbs > 0) {
        char value[32];
        clmem_format_metric(L->bandwidth_gbs, "GB/s", value, sizeof value);
        snprintf(bw, sizeof bw, "; %s", value);
    }
    char ns[32];
    snprintf(ns, sizeof ns, L->latency_ns >= 100 ? "%.0f ns" : "%.3g ns", L->latency_ns);
    snprintf(out, out_size, "%s%s%s%s%s", own, size, ns, cycles, bw);
}

void compare_levels_section(struct doc *d, const struct compare_view *v)
{
    size_t with = 0;
    for (size_t i = 0; i < v->n_devs; i++)
        with += compare_has_levels(&v->devs[i]);
    if (!with)
        return;
    doc_heading(d, 2, "Memory hierarchy");
    doc_text(d, "The levels clmem hierarchy found on each device whose run file holds them: the "
                "latency of a dependent load over one random cycle (a pointer chase) by working "
                "set, its steps named L1, L2, ..., the last-level cache and device memory, and "
                "each level's read bandwidth. Detected sizes are where the latency has gone a "
                "third of the way to the next level's; reported sizes are what the device says "
                "(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, which on NVIDIA GPUs is the L1s' total, or "
                "the host's caches for a CPU) and its __local memory.");
    if (v->plotted) {
        for (size_t i = 0; i < v->plots->n; i++)
            if (v->plots->pictures[i].hierarchy)
                doc_picture(d, v->plots->pictures[i].file, v->plots->pictures[i].note);
    } else {
        doc_text(d, "Note: %s.", v->plots_note);
    }
    size_t cols = 1;
    for (size_t i = 0; i < v->n_devs; i++)
        cols += compare_has_levels(&v->devs[i]) != 0;
    doc_table(d, cols);
    doc_cell(d, NAN, "level");
    for (size_t i = 0; i < v->n_devs; i++)
        if (compare_has_levels(&v->devs[i]))
            doc_cell(d, NAN, "%s", v->labels[i]);
    for (size_t c = 0; c < N_LEVEL_CLASSES; c++) {
        doc_cell(d, NAN, "%s", class_names[c]);
        for (size_t i = 0; i < v->n_devs; i++) {
            if (!compare_has_levels(&v->devs[i]))
                continue;
            const struct clmem_saved_hierarchy *h = v->devs[i].hierarchy;
            int k = level_index(h, (enum level_class)c);
            if (k < 0) {
                doc_cell(d, NAN, "none found");
                continue;
            }
            const struct clmem_saved_level *L = &h->levels[k];
            char text[400] = "", own[48] = "";
            /* The last level by its own name too: "L2: ..." on a GPU; a
             * split L2's two parts each by theirs ("L2 near: ...; L2 far:
             * ..."), the far one's figures beside the near one's. */
            const struct clmem_saved_level *far =
                (size_t)k + 1 < h->n_levels && is_far(&h->levels[k + 1]) ? &h->levels[k + 1] : NULL;
            if (c == LEVEL_LAST || strstr(L->name, "(near)")) {
                cache_name(L, own, sizeof own - 2);
                strcat(own, ": ");
            }
            level_figures(L, own, text, sizeof text);
            if (c != LEVEL_LAST && far) {
                char far_own[48], far_text[200];
                cache_name(far, far_own, sizeof far_own - 2);
                strcat(far_own, ": ");
                level_figures(far, far_own, far_text, sizeof far_text);
                size_t len = strlen(text);
                snprintf(text + len, sizeof text - len, "; %s", far_text);
            }
            doc_cell(d, L->latency_ns, "%s", text);
        }
    }
    /* What the device reports, beside what was found. */
    doc_cell(d, NAN, "largest cache reported");
    for (size_t i = 0; i < v->n_devs; i++) {
        if (!compare_has_levels(&v->devs[i]))
            continue;
        /* What the sweep knew (the device's figure, or a CPU's host's),
         * and the device's own where it says another. */
        const struct clmem_saved_hierarchy *h = v->devs[i].hierarchy;
        double device = (double)v->devs[i].device.global_mem_cache;
        char known[160] = "none reported", own[96] = "";
        if (h->cache_bytes > 0) {
            char s[32];
            bytes_text(h->cache_bytes, s, sizeof s);
            snprintf(known, sizeof known, "%s (%s)", s, h->cache_from);
        }
        if (device > 0 && device != h->cache_bytes) {
            char s[32];
            bytes_text(device, s, sizeof s);
            snprintf(own, sizeof own, "; CL_DEVICE_GLOBAL_MEM_CACHE_SIZE %s", s);
        }
        doc_cell(d, h->cache_bytes > 0 ? h->cache_bytes : NAN, "%s%s", known, own);
    }
    doc_cell(d, NAN, "__local memory reported");
    for (size_t i = 0; i < v->n_devs; i++) {
        if (!compare_has_levels(&v->devs[i]))
            continue;
        char s[32];
        bytes_text((double)v->devs[i].device.local_mem, s, sizeof s);
        doc_cell(d, (double)v->devs[i].device.local_mem, "%s", s);
    }
    doc_cell(d, NAN, "working sets swept");
    for (size_t i = 0; i < v->n_devs; i++) {
        if (!compare_has_levels(&v->devs[i]))
            continue;
        const struct clmem_saved_hierarchy *h = v->devs[i].hierarchy;
        char a[32], b[32];
        bytes_text(h->latency[0].bytes, a, sizeof a);
        bytes_text(h->extent, b, sizeof b);
        doc_cell(d, h->extent, "%s to %s", a, b);
    }
}
