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
 * cache's 4x): the last points still rising are the upper level. */
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
        cmocka_unit_test(bandwidth_plateaus_match_latency_levels),
        cmocka_unit_test(levels_read_the_fastest_sample),
        cmocka_unit_test(sattolo_is_one_cycle),
        cmocka_unit_test(chase_check_catches_short_cycles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
