/* hierarchy's pure pieces, no device: the level detection on made-up
 * curves (a CPU's and a GPU's staircase, noise, a curve cut short, a flat
 * one, bandwidth plateaus matched to latency levels), Sattolo's single
 * cycle, and the chase's check on made-up kernel states. */
#include "workloads/hierarchy.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define KIB 1024.0
#define MIB (KIB * KIB)

/* A cache level: its size and the latency (or bandwidth) of a hit. */
struct level {
    double size, value;
};

/* The half-octave working sets first..last (1, 1.5, 2, 3, ...). */
static size_t grid(double first, double last, double *out, size_t max)
{
    size_t n = 0;
    for (double p = first; p <= last && n < max; p *= 2) {
        out[n++] = p;
        if (p * 1.5 <= last && n < max)
            out[n++] = p * 1.5;
    }
    return n;
}

/* The curve of levels[0..n) (the last one memory, its size ignored) at a
 * working set w: each level holds min(1, size / w) of what the levels
 * above it missed (a fully associative LRU cache under random loads), its
 * value weighted by that, as a chase's mean latency. A bandwidth curve is
 * the same mix of times per byte. */
static double model(const struct level *levels, size_t n, double w, int bandwidth)
{
    double left = 1.0, sum = 0.0;
    for (size_t k = 0; k < n; k++) {
        double hit = k + 1 == n ? left : left * fmin(1.0, levels[k].size / w);
        if (k + 1 < n && w <= levels[k].size)
            hit = left;
        sum += hit * (bandwidth ? 1.0 / levels[k].value : levels[k].value);
        left -= hit;
        if (left <= 0)
            break;
    }
    return bandwidth ? 1.0 / sum : sum;
}

static size_t make_curve(const struct level *levels, size_t n, double first, double last,
                         int bandwidth, struct clmem_curve_point *out, size_t max)
{
    double ws[128];
    size_t m = grid(first, last, ws, max < 128 ? max : 128);
    for (size_t i = 0; i < m; i++)
        out[i] = (struct clmem_curve_point){ws[i], model(levels, n, ws[i], bandwidth)};
    return m;
}

static void expect_within(double got, double want, double factor, const char *what)
{
    if (!(got >= want / factor && got <= want * factor))
        fail_msg("%s: %.4g, expected within %.2fx of %.4g", what, got, factor, want);
}

/* A CPU: L1 48 KiB at 1.2 ns, L2 1 MiB at 4 ns, L3 32 MiB at 14 ns, memory
 * at 90 ns; 1 KiB to 256 MiB. Four plateaus, each edge within 1.5x of the
 * cache's size, each value within 1.3x of its latency (the plateaus' medians
 * hold some hits above them: L2's some L1 hits). */
static void cpu_staircase_has_four_levels(void **state)
{
    (void)state;
    const struct level cpu[] = {{48 * KIB, 1.2}, {MIB, 4}, {32 * MIB, 14}, {0, 90}};
    struct clmem_curve_point c[128];
    size_t n = make_curve(cpu, 4, KIB, 256 * MIB, 0, c, 128);
    struct clmem_plateau p[CLMEM_MAX_LEVELS];
    size_t k = clmem_curve_plateaus(c, n, CLMEM_CURVE_LATENCY, p, CLMEM_MAX_LEVELS);
    assert_int_equal(k, 4);
    for (size_t i = 0; i < 3; i++)
        expect_within(p[i].edge_bytes, cpu[i].size, 1.5, "edge");
    for (size_t i = 0; i < 4; i++)
        expect_within(p[i].value, cpu[i].value, 1.3, "value");
    assert_true(isnan(p[3].edge_bytes));
    assert_int_equal(p[0].first, 0);
    assert_int_equal(p[3].last, n - 1);
}

/* A GPU as Luo et al. measured the H100: L1 256 KiB at 33 cycles, L2 50 MiB
 * at 260, memory at 480; 1 KiB to 1 GiB. */
static void gpu_staircase_has_three_levels(void **state)
{
    (void)state;
    const struct level gpu[] = {{256 * KIB, 33}, {50 * MIB, 260}, {0, 480}};
    struct clmem_curve_point c[128];
    size_t n = make_curve(gpu, 3, KIB, 1024 * MIB, 0, c, 128);
    struct clmem_plateau p[CLMEM_MAX_LEVELS];
    assert_int_equal(clmem_curve_plateaus(c, n, CLMEM_CURVE_LATENCY, p, CLMEM_MAX_LEVELS), 3);
    expect_within(p[0].edge_bytes, 256 * KIB, 1.5, "L1 edge");
    expect_within(p[1].edge_bytes, 50 * MIB, 1.5, "L2 edge");
    expect_within(p[2].value, 480, 1.25, "memory");
}

/* One point twice as slow inside L1's plateau, and a memory plateau that
 * creeps up 5% a point (TLB misses): no level more. */
static void noise_and_creep_make_no_level(void **state)
{
    (void)state;
    const struct level cpu[] = {{48 * KIB, 1.2}, {MIB, 4}, {0, 90}};
    struct clmem_curve_point c[128];
    size_t n = make_curve(cpu, 3, KIB, 256 * MIB, 0, c, 128);
    c[4].value *= 2.0;
    for (size_t i = 0, from = 0; i < n; i++)
        if (c[i].bytes > 16 * MIB)
            c[i].value *= pow(1.05, (double)(from ? i - from : (from = i, 0)));
    struct clmem_plateau p[CLMEM_MAX_LEVELS];
    assert_int_equal(clmem_curve_plateaus(c, n, CLMEM_CURVE_LATENCY, p, CLMEM_MAX_LEVELS), 3);
    expect_within(p[0].edge_bytes, 48 * KIB, 1.5, "L1 edge");
    expect_within(p[1].edge_bytes, MIB, 1.5, "L2 edge");
}

/* A flat curve is one plateau; points with no value are left out; no
 * points, none. */
static void flat_and_empty_curves(void **state)
{
    (void)state;
    struct clmem_curve_point c[20];
    for (size_t i = 0; i < 20; i++)
        c[i] = (struct clmem_curve_point){1024.0 * (double)(i + 1), 3.0 + 0.01 * (double)(i % 3)};
    c[7].value = NAN;
    c[9].value = 0;
    struct clmem_plateau p[CLMEM_MAX_LEVELS];
    assert_int_equal(clmem_curve_plateaus(c, 20, CLMEM_CURVE_LATENCY, p, CLMEM_MAX_LEVELS), 1);
    assert_int_equal(p[0].first, 0);
    assert_int_equal(p[0].last, 19);
    assert_true(isnan(p[0].edge_bytes));
    assert_int_equal(clmem_curve_plateaus(c, 0, CLMEM_CURVE_LATENCY, p, CLMEM_MAX_LEVELS), 0);
}

/* A sweep that stops inside the last step (its extent below the last
 * cache's 4x): the last point, still rising, is a stretch of its own, too
 * short to resolve. */
static void curve_cut_short_ends_on_its_last_points(void **state)
{
    (void)state;
    const struct level cpu[] = {{48 * KIB, 1.2}, {32 * MIB, 14}, {0, 90}};
    struct clmem_curve_point c[128];
    size_t n = make_curve(cpu, 3, KIB, 64 * MIB, 0, c, 128);
    struct clmem_plateau p[CLMEM_MAX_LEVELS];
    size_t k = clmem_curve_plateaus(c, n, CLMEM_CURVE_LATENCY, p, CLMEM_MAX_LEVELS);
    assert_int_equal(k, 3);
    assert_int_equal(p[2].last, n - 1);
    assert_true(p[2].value > 14 * 1.3);
    assert_true(p[0].resolved && p[1].resolved);
    assert_false(p[2].resolved);
}

/* Curve points as a sweep's results of `variant` (each its fastest
 * sample the median), from r[at] on; returns the next free index. */
static size_t as_results(struct clmem_result *r, size_t at, const char *variant,
                         const struct clmem_curve_point *c, size_t n, int latency)
{
    for (size_t i = 0; i < n; i++, at++) {
        memset(&r[at], 0, sizeof r[at]);
        snprintf(r[at].workload, sizeof r[at].workload, "hierarchy");
        snprintf(r[at].variant, sizeof r[at].variant, "%s", variant);
        snprintf(r[at].size, sizeof r[at].size, "%.0f", c[i].bytes);
        r[at].verified = 1;
        r[at].median_ms = r[at].min_ms = 1.0;
        r[at].metric = latency ? 1.0 / c[i].value : c[i].value;
    }
    return at;
}

/* The levels of a latency curve, through the sweep's reading of results,
 * with the largest cache known. */
static void levels_of(const struct clmem_curve_point *c, size_t n, double cache,
                      struct clmem_hierarchy *h)
{
    struct clmem_result r[128];
    memset(h, 0, sizeof *h);
    h->cache_bytes = cache;
    snprintf(h->stopped_by, sizeof h->stopped_by, "--size");
    clmem_hierarchy_levels(r, as_results(r, 0, "chase_global", c, n, 1), 0, h);
}

/* No level is faster than the resolved one before it, and device memory
 * is the slowest. */
static void expect_levels_rise(const struct clmem_hierarchy *h)
{
    double below = 0;
    for (size_t k = 0; k < h->n_levels; k++) {
        const struct clmem_level *L = &h->levels[k];
        if (!L->resolved) {
            assert_string_equal(L->name, "unresolved");
            assert_false(L->is_memory);
            continue;
        }
        if (!(L->latency_ns > below))
            fail_msg("%s at %.3g ns is not slower than the level before it (%.3g ns)", L->name,
                     L->latency_ns, below);
        below = L->latency_ns;
    }
}

/* A noisy point at either end of the curve is no level: the 3-point rule
 * holds at the ends as between steps. A fast first point (a timer's
 * rounding) is unresolved, not an L1 of one working set; a slow last one
 * is unresolved, not a device memory past memory; a curve that comes back
 * down (llvmpipe: one slow point, then faster ones) makes no level faster
 * than the one before it. */
static void noisy_end_points_are_unresolved(void **state)
{
    (void)state;
    const struct level cpu[] = {{48 * KIB, 1.2}, {MIB, 4}, {32 * MIB, 14}, {0, 90}};
    struct clmem_curve_point c[128];
    struct clmem_plateau p[CLMEM_MAX_LEVELS];
    struct clmem_hierarchy h;
    /* To 1 GiB: the made-up memory plateau (random replacement's hits
     * fade slowly) has 3 points from 256 MiB on. */
    size_t n = make_curve(cpu, 4, KIB, 1024 * MIB, 0, c, 128);

    c[0].value = 0.5; /* the first point fast */
    size_t k = clmem_curve_plateaus(c, n, CLMEM_CURVE_LATENCY, p, CLMEM_MAX_LEVELS);
    assert_int_equal(k, 5);
    assert_false(p[0].resolved);
    for (size_t i = 1; i < k; i++)
        assert_true(p[i].resolved);
    levels_of(c, n, 32 * MIB, &h);
    assert_int_equal(h.n_levels, 5);
    assert_string_equal(h.levels[0].name, "unresolved");
    assert_true(h.levels[0].size_bytes == 0);
    assert_string_equal(h.levels[1].name, "L1");
    expect_within(h.levels[1].size_bytes, 48 * KIB, 1.5, "L1 after a noisy first point");
    assert_string_equal(h.levels[3].name, "L3 (last-level cache)");
    assert_string_equal(h.levels[4].name, "device memory");
    expect_levels_rise(&h);

    n = make_curve(cpu, 4, KIB, 1024 * MIB, 0, c, 128);
    c[n] = (struct clmem_curve_point){1536 * MIB, 3 * 90}; /* one slow point past the end */
    n++;
    k = clmem_curve_plateaus(c, n, CLMEM_CURVE_LATENCY, p, CLMEM_MAX_LEVELS);
    assert_int_equal(k, 5);
    assert_false(p[4].resolved);
    levels_of(c, n, 32 * MIB, &h);
    assert_string_equal(h.levels[3].name, "device memory");
    expect_within(h.levels[3].latency_ns, 90, 1.1, "memory before the noisy last point");
    assert_string_equal(h.levels[4].name, "unresolved");
    expect_levels_rise(&h);
    assert_string_equal(h.note, "");

    /* llvmpipe's: 13 ns to 256 KiB, one point at 40, then 8 ns. */
    n = 0;
    for (double b = KIB; b <= 4 * MIB; b *= 2)
        c[n++] = (struct clmem_curve_point){b, b <= 256 * KIB ? 13 : b == 512 * KIB ? 40 : 8};
    k = clmem_curve_plateaus(c, n, CLMEM_CURVE_LATENCY, p, CLMEM_MAX_LEVELS);
    assert_true(k >= 1 && p[0].resolved);
    for (size_t i = 1; i < k; i++)
        assert_false(p[i].resolved);
    levels_of(c, n, 0, &h);
    expect_levels_rise(&h);
    for (size_t i = 0; i < h.n_levels; i++)
        assert_false(h.levels[i].is_memory);
    assert_non_null(strstr(h.note, "fewer than 3 points"));
}

/* A sweep stopped inside the largest cache (a --size, a device's memory)
 * names no device memory: its last plateau is a cache's for all it knows,
 * its size unseen, and the note says where the sweep stopped. Twice the
 * cache is enough. */
static void curve_cut_inside_a_cache_names_no_memory(void **state)
{
    (void)state;
    const struct level cpu[] = {{48 * KIB, 1.2}, {MIB, 4}, {32 * MIB, 14}, {0, 90}};
    struct clmem_curve_point c[128];
    struct clmem_hierarchy h;
    size_t n = make_curve(cpu, 4, KIB, 512 * KIB, 0, c, 128);
    levels_of(c, n, 32 * MIB, &h);
    assert_int_equal(h.n_levels, 2);
    assert_string_equal(h.levels[0].name, "L1");
    assert_string_equal(h.levels[1].name, "L2");
    assert_false(h.levels[1].is_memory);
    assert_true(h.levels[1].size_bytes == 0); /* its end unseen */
    assert_false(h.memory_reached);
    assert_string_equal(h.note,
                        "sweep stopped at 512 KiB (--size) inside the largest cache 32 MiB: "
                        "no level is device memory");
    /* Past the cache, short of twice it: still no memory. */
    n = make_curve(cpu, 4, KIB, 48 * MIB, 0, c, 128);
    levels_of(c, n, 32 * MIB, &h);
    for (size_t i = 0; i < h.n_levels; i++)
        assert_false(h.levels[i].is_memory);
    assert_non_null(strstr(h.note, "short of twice the largest cache 32 MiB"));
    /* To 32x the cache: memory, the note empty. */
    n = make_curve(cpu, 4, KIB, 1024 * MIB, 0, c, 128);
    levels_of(c, n, 32 * MIB, &h);
    assert_true(h.memory_reached);
    assert_int_equal(h.n_levels, 4);
    assert_string_equal(h.levels[3].name, "device memory");
    assert_string_equal(h.note, "");
}

/* The default sweep goes to 4x the largest cache known, twice at least,
 * unless the device's memory stops it (and then says so): a CPU with a
 * 480 MiB last-level cache is swept past it, not stopped at a fixed cap
 * inside it. */
static void default_extent_passes_twice_the_largest_cache(void **state)
{
    (void)state;
    const cl_ulong big = (cl_ulong)64 << 30;
    const char *limit = "unset";
    size_t e = clmem_hierarchy_extent_for((size_t)480 << 20, 1, big, big, &limit);
    assert_true(e >= (size_t)960 << 20);
    assert_null(limit);
    e = clmem_hierarchy_extent_for((size_t)32 << 20, 1, big, big, &limit);
    assert_true(e == (size_t)128 << 20 && !limit);
    e = clmem_hierarchy_extent_for(0, 1, big, big, &limit); /* none known: 16 MiB */
    assert_true(e == (size_t)16 << 20 && !limit);
    e = clmem_hierarchy_extent_for((size_t)8 << 20, 0, big, big, &limit); /* GPUs: 1 GiB */
    assert_true(e == (size_t)1 << 30 && !limit);
    /* 2 GiB of memory: an eighth of it, said. */
    e = clmem_hierarchy_extent_for((size_t)480 << 20, 1, big, (cl_ulong)2 << 30, &limit);
    assert_true(e == (size_t)256 << 20);
    assert_non_null(limit);
    assert_non_null(strstr(limit, "memory"));
}

/* The page chase's first step is the TLB's reach (64 entries of 4 KiB
 * pages: 256 KiB spanned), reported on its own: the cache levels are the
 * line chase's alone. */
static void tlb_step_is_its_own(void **state)
{
    (void)state;
    const struct level cpu[] = {{48 * KIB, 1.2}, {MIB, 4}, {0, 90}};
    const struct level tlb[] = {{256 * KIB, 1.3}, {8 * MIB, 3.5}, {0, 30}};
    struct clmem_curve_point lines[128], pages[128];
    size_t nl = make_curve(cpu, 3, KIB, 256 * MIB, 0, lines, 128);
    size_t np = make_curve(tlb, 3, 16 * KIB, 256 * MIB, 0, pages, 128);
    struct clmem_result r[256];
    size_t n = as_results(r, 0, "chase_global", lines, nl, 1);
    n = as_results(r, n, "chase_page", pages, np, 1);
    struct clmem_hierarchy h;
    memset(&h, 0, sizeof h);
    clmem_hierarchy_levels(r, n, 0, &h);
    expect_within(h.tlb.reach_bytes, 256 * KIB, 1.5, "TLB reach");
    expect_within(h.tlb.hit_ns, 1.3, 1.1, "within the TLB's reach");
    expect_within(h.tlb.miss_ns, 3.5, 1.3, "past it");
    assert_true(h.tlb.last_bytes == 256 * MIB);
    assert_int_equal(h.n_levels, 3);
    assert_string_equal(h.levels[2].name, "device memory");
    /* Without chase_page, no TLB reach; a flat one, no step. */
    clmem_hierarchy_levels(r, nl, 0, &h);
    assert_true(h.tlb.last_bytes == 0 && h.tlb.reach_bytes == 0);
    for (size_t i = 0; i < np; i++)
        pages[i].value = 1.3;
    n = as_results(r, nl, "chase_page", pages, np, 1);
    clmem_hierarchy_levels(r, n, 0, &h);
    assert_true(h.tlb.reach_bytes == 0 && h.tlb.last_bytes == 256 * MIB);
}

/* The levels of a latency curve on a CPU device (cpu) or another. */
static void levels_on(const struct clmem_curve_point *c, size_t n, double cache, int cpu,
                      struct clmem_hierarchy *h)
{
    struct clmem_result r[256];
    memset(h, 0, sizeof *h);
    h->cache_bytes = cache;
    h->cpu = cpu;
    clmem_hierarchy_levels(r, as_results(r, 0, "chase_global", c, n, 1), 0, h);
}

/* A chase over the sweep's working sets, 1 KiB to 1 GiB, on a CPU device
 * (cpu) or another, as one SM sees a split L2 (the shape of
 * bench/hierarchy/h100, its plateaus cliffs): L1 to 192 KiB at 22 ns, the
 * near half to 20 MiB at 145 ns, the far half from 32 to 48 MiB at 270
 * ns, memory from 64 MiB at 350 ns (far to memory 1.3x: smaller than a
 * CPU's step), one point between each where the grid has one. */
static size_t split_l2_curve(struct clmem_curve_point *c, int cpu, double near_ns, double far_ns)
{
    size_t ws[128];
    size_t n = clmem_hierarchy_chase_sizes(cpu, (size_t)1 << 30, ws, 128);
    for (size_t i = 0; i < n; i++) {
        double b = (double)ws[i];
        double v = b <= 192 * KIB   ? 22
                   : b <= 256 * KIB ? 80
                   : b <= 20 * MIB  ? near_ns
                   : b <= 28 * MIB  ? (near_ns + far_ns) / 2
                   : b <= 48 * MIB  ? far_ns
                   : b <= 56 * MIB  ? 310
                                    : 350;
        c[i] = (struct clmem_curve_point){b, v * (1 + 0.004 * (i % 3))};
    }
    return n;
}

/* Two steps between L1 and memory close in size and latency on a GPU are
 * one cache's near and far halves, each with its size and latency; on a
 * CPU the same curve is two caches of their own, and a GPU's caches far
 * apart in size (an L2 and a memory-side cache) are never one split. */
static void two_l2_steps_are_near_and_far(void **state)
{
    (void)state;
    struct clmem_curve_point c[128];
    struct clmem_hierarchy h;
    size_t n = split_l2_curve(c, 0, 145, 270);
    levels_on(c, n, 4.125 * MIB, 0, &h);
    assert_int_equal(h.n_levels, 4);
    assert_string_equal(h.levels[0].name, "L1");
    assert_string_equal(h.levels[1].name, "L2 (near)");
    assert_string_equal(h.levels[2].name, "L2 (far)");
    assert_string_equal(h.levels[3].name, "device memory");
    expect_within(h.levels[1].size_bytes, 24 * MIB, 1.25, "the near half");
    expect_within(h.levels[2].size_bytes, 50 * MIB, 1.25, "the whole L2");
    expect_within(h.levels[1].latency_ns, 145, 1.05, "near");
    expect_within(h.levels[2].latency_ns, 270, 1.05, "far");
    expect_within(h.levels[3].latency_ns, 350, 1.05, "memory");
    assert_string_equal(h.note, "");
    expect_levels_rise(&h);
    /* A CPU's caches are each a level (and a CPU's curve is read with the
     * coarser step: the far half and memory are one plateau there). */
    levels_on(c, n, 4.125 * MIB, 1, &h);
    for (size_t k = 0; k < h.n_levels; k++)
        assert_null(strstr(h.levels[k].name, "near"));
    /* At half octaves, as a CPU's chase is swept, the far half has two
     * points: too few for a level, so a GPU's sweep is finer. */
    n = split_l2_curve(c, 1, 145, 270);
    assert_true(c[n - 1].bytes == 1024 * MIB);
    levels_on(c, n, 4.125 * MIB, 0, &h);
    for (size_t k = 0; k < h.n_levels; k++)
        assert_null(strstr(h.levels[k].name, "far"));
    /* An L2 of 4 MiB and a 128 MiB cache past it: no split. */
    const struct level gpu[] = {{128 * KIB, 20}, {4 * MIB, 120}, {128 * MIB, 200}, {0, 400}};
    n = make_curve(gpu, 4, KIB, 1024 * MIB, 0, c, 128);
    levels_on(c, n, 4 * MIB, 0, &h);
    assert_int_equal(h.n_levels, 4);
    assert_string_equal(h.levels[1].name, "L2");
    assert_string_equal(h.levels[2].name, "L3 (last-level cache)");
    /* Far twice as slow as near and more: two caches, not halves. */
    n = split_l2_curve(c, 0, 100, 270);
    levels_on(c, n, 4.125 * MIB, 0, &h);
    assert_string_equal(h.levels[1].name, "L2");
    assert_string_equal(h.levels[2].name, "L3 (last-level cache)");
}

/* A last plateau whose step lies well inside the largest cache known (a
 * guest's chase from 12 MiB at 130-190 ns with a 32 MiB L3 reported: TLB
 * misses on 4 KiB pages, an L3 shared with other guests) is not device
 * memory however far the sweep went past twice that cache: it is left
 * unnamed, and the note says where it steps up. */
static void memory_inside_a_known_cache_is_not_named(void **state)
{
    (void)state;
    static const double ns[] = {1.35, 1.34, 1.33, 1.4,  1.34, 1.36, 1.33, 1.35, 1.39,
                                1.38, 1.4,  1.45, 3.97, 4.08, 4.05, 4.17, 4.16, 4.31,
                                4.46, 5.49, 8.43, 12.1, 12.6, 15.5, 15.6, 16.1, 38.7,
                                161,  130,  142,  147,  159,  158,  190,  173};
    struct clmem_curve_point c[64];
    double ws[64];
    size_t n = grid(KIB, 128 * MIB, ws, 64);
    assert_int_equal(n, CLMEM_ARRAY_SIZE(ns));
    for (size_t i = 0; i < n; i++)
        c[i] = (struct clmem_curve_point){ws[i], ns[i]};
    struct clmem_hierarchy h;
    levels_on(c, n, 32 * MIB, 1, &h);
    assert_true(h.memory_reached);
    for (size_t k = 0; k < h.n_levels; k++)
        assert_false(h.levels[k].is_memory);
    assert_string_equal(h.levels[h.n_levels - 1].name, "unnamed, inside a cache");
    assert_string_equal(h.levels[0].name, "L1");
    expect_within(h.levels[0].size_bytes, 48 * KIB, 1.5, "L1");
    expect_within(h.levels[1].size_bytes, MIB, 1.5, "L2");
    assert_non_null(strstr(h.note, "the last plateau (from 12 MiB) follows a step at "));
    assert_non_null(strstr(h.note, ", inside the largest cache 32 MiB (TLB misses, or a cache "
                                   "shared with other work): no level is device memory"));
    /* With an 8 MiB cache known, the same step is memory's. */
    levels_on(c, n, 8 * MIB, 1, &h);
    assert_true(h.levels[h.n_levels - 1].is_memory);
    assert_string_equal(h.note, "");
}

/* Bandwidth falls where latency rises: the same caches, as GB/s, are three
 * plateaus, matched to the latency levels by the working sets they share. */
static void bandwidth_plateaus_match_latency_levels(void **state)
{
    (void)state;
    const struct level lat[] = {{48 * KIB, 1.2}, {MIB, 4}, {0, 90}};
    const struct level bw[] = {{48 * KIB, 200}, {MIB, 90}, {0, 20}};
    struct clmem_curve_point c[128];
    size_t n = make_curve(bw, 3, 4 * KIB, 256 * MIB, 1, c, 128);
    struct clmem_plateau p[CLMEM_MAX_LEVELS];
    assert_int_equal(clmem_curve_plateaus(c, n, CLMEM_CURVE_BANDWIDTH, p, CLMEM_MAX_LEVELS), 3);
    expect_within(p[0].value, 200, 1.2, "L1 bandwidth");
    expect_within(p[2].value, 20, 1.2, "memory bandwidth");
    expect_within(p[1].edge_bytes, MIB, 1.5, "L2 edge by bandwidth");

    /* As results (each its fastest sample the median), through the sweep's
     * own reading of them. */
    struct clmem_curve_point l[128];
    size_t nl = make_curve(lat, 3, KIB, 256 * MIB, 0, l, 128);
    struct clmem_result *r = calloc(nl + n, sizeof *r);
    assert_non_null(r);
    for (size_t i = 0; i < nl + n; i++) {
        int chase = i < nl;
        const struct clmem_curve_point *pt = chase ? &l[i] : &c[i - nl];
        snprintf(r[i].workload, sizeof r[i].workload, "hierarchy");
        snprintf(r[i].variant, sizeof r[i].variant, chase ? "chase_global" : "read_ws");
        snprintf(r[i].size, sizeof r[i].size, "%.0f", pt->bytes);
        r[i].verified = 1;
        r[i].median_ms = r[i].min_ms = 1.0;
        r[i].metric = chase ? 1.0 / pt->value : pt->value;
    }
    struct clmem_hierarchy h;
    memset(&h, 0, sizeof h);
    clmem_hierarchy_levels(r, nl + n, 2000, &h);
    assert_int_equal(h.n_levels, 3);
    assert_string_equal(h.levels[0].name, "L1");
    assert_string_equal(h.levels[1].name, "L2 (last-level cache)");
    assert_string_equal(h.levels[2].name, "device memory");
    assert_true(h.levels[2].is_memory && h.levels[2].size_bytes == 0);
    expect_within(h.levels[0].size_bytes, 48 * KIB, 1.5, "L1 size");
    expect_within(h.levels[0].latency_cycles, 1.2 * 2000 * 1e-3, 1.05, "L1 cycles");
    expect_within(h.levels[0].bandwidth_gbs, 200, 1.2, "L1's bandwidth");
    expect_within(h.levels[1].bandwidth_gbs, 90, 1.3, "L2's bandwidth");
    expect_within(h.levels[2].bandwidth_gbs, 20, 1.2, "memory's bandwidth");
    expect_within(h.levels[2].latency_ns, 90, 1.1, "memory latency (the largest working set)");
    assert_int_equal(h.n_unmatched, 0);
    /* Without a clock there are no cycles; a failed result is not read. */
    r[0].verified = 0;
    clmem_hierarchy_levels(r, nl + n, 0, &h);
    assert_true(isnan(h.levels[0].latency_cycles));
    expect_within(h.levels[0].first_bytes, 1.5 * KIB, 1.01, "first working set read");
    free(r);
}

/* The fastest sample sets the staircase: a median pushed up by a busy
 * machine does not make a step. */
static void levels_read_the_fastest_sample(void **state)
{
    (void)state;
    struct clmem_result r[16];
    memset(r, 0, sizeof r);
    for (size_t i = 0; i < 16; i++) {
        snprintf(r[i].workload, sizeof r[i].workload, "hierarchy");
        snprintf(r[i].variant, sizeof r[i].variant, "chase_global");
        snprintf(r[i].size, sizeof r[i].size, "%zu", (size_t)1024 << i);
        r[i].verified = 1;
        r[i].min_ms = 1.0;
        r[i].median_ms = i == 5 ? 4.0 : 1.0;        /* one median 4x slower */
        r[i].metric = 1.0 / (2.0 * r[i].median_ms); /* 2 ns a load at the median */
    }
    assert_true(fabs(clmem_chase_latency_ns(&r[5]) - 2.0) < 1e-12);
    struct clmem_hierarchy h;
    memset(&h, 0, sizeof h);
    clmem_hierarchy_levels(r, 16, 0, &h);
    assert_int_equal(h.n_levels, 1);
    assert_string_equal(h.levels[0].name, "one level (no step)");
}

/* Sattolo's shuffle is one cycle through every element, for every n and
 * seed; Fisher-Yates (j <= i) is not, for most. */
static size_t cycle_length(const cl_uint *perm, size_t n)
{
    size_t steps = 0, at = 0;
    do {
        at = perm[at];
        steps++;
    } while (at != 0 && steps <= n);
    return steps;
}

static void sattolo_is_one_cycle(void **state)
{
    (void)state;
    cl_uint perm[300];
    for (size_t n = 1; n <= 300; n++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            clmem_sattolo(perm, n, seed * 77 + n);
            if (cycle_length(perm, n) != n)
                fail_msg("n %zu seed %llu: a cycle of %zu", n, (unsigned long long)seed,
                         cycle_length(perm, n));
        }
}

/* The chase's check on states a kernel could leave. */
static void chase_check_catches_short_cycles(void **state)
{
    (void)state;
    cl_uint perm[97];
    clmem_sattolo(perm, 97, 5);
    size_t at = 0;
    for (int k = 0; k < 1000 % 97; k++)
        at = perm[at];
    struct clmem_check check;
    /* 1000 loads, elements 16 words apart: first back at 97, ends at `at`. */
    cl_uint good[3] = {(cl_uint)(at * 16), 97, 1000};
    clmem_check_init(&check, 0);
    clmem_chase_check(perm, 97, 16, 1000, good, &check);
    assert_true(clmem_check_passed(&check));
    assert_int_equal(check.checked, 3);
    /* Back at the start after 40: two cycles. */
    cl_uint short_cycle[3] = {good[0], 40, 1000};
    clmem_check_init(&check, 0);
    clmem_chase_check(perm, 97, 16, 1000, short_cycle, &check);
    assert_false(clmem_check_passed(&check));
    assert_non_null(strstr(check.lines[0], "not one cycle"));
    /* Never back: the counter left at 0. */
    cl_uint never[3] = {good[0], 0, 1000};
    clmem_check_init(&check, 0);
    clmem_chase_check(perm, 97, 16, 1000, never, &check);
    assert_false(clmem_check_passed(&check));
    /* The wrong end, or loads left out. */
    cl_uint wrong_end[3] = {good[0] + 16, 97, 1000};
    clmem_check_init(&check, 0);
    clmem_chase_check(perm, 97, 16, 1000, wrong_end, &check);
    assert_false(clmem_check_passed(&check));
    cl_uint fewer[3] = {good[0], 97, 999};
    clmem_check_init(&check, 0);
    clmem_chase_check(perm, 97, 16, 1000, fewer, &check);
    assert_false(clmem_check_passed(&check));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cpu_staircase_has_four_levels),
        cmocka_unit_test(gpu_staircase_has_three_levels),
        cmocka_unit_test(noise_and_creep_make_no_level),
        cmocka_unit_test(flat_and_empty_curves),
        cmocka_unit_test(curve_cut_short_ends_on_its_last_points),
        cmocka_unit_test(noisy_end_points_are_unresolved),
        cmocka_unit_test(curve_cut_inside_a_cache_names_no_memory),
        cmocka_unit_test(tlb_step_is_its_own),
        cmocka_unit_test(two_l2_steps_are_near_and_far),
        cmocka_unit_test(memory_inside_a_known_cache_is_not_named),
        cmocka_unit_test(default_extent_passes_twice_the_largest_cache),
        cmocka_unit_test(bandwidth_plateaus_match_latency_levels),
        cmocka_unit_test(levels_read_the_fastest_sample),
        cmocka_unit_test(sattolo_is_one_cycle),
        cmocka_unit_test(chase_check_catches_short_cycles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
