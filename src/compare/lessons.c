/* The lessons the seeds teach as data: each a workload, the variant that
 * shows the design, the one it improves on, and the source both follow,
 * named as a reader can find it: Kirk and Hwu's figures (Programming
 * Massively Parallel Processors, chapters 4 and 5) or the CUDA course's
 * day 2 slides by their titles (the variants' summaries in src/workloads
 * name the same figures). The report's "Lessons" table and `clmem run`'s lesson lines
 * read this one table. */
#include "compare/lessons.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// clang-format off
/* What the hierarchy probes measure of the level a lesson's design uses
 * (`clmem hierarchy`, workload hierarchy's variants): shown beside the
 * lesson where a device's results hold both. */
static const struct clmem_lesson level_local = {
    "__local reads against __global ones", "hierarchy", "local_stride", "global_scattered",
    "stride", 1, CLMEM_LESSON_UNSWEPT, "clmem hierarchy", "__local / __global", NULL};
static const struct clmem_lesson level_conflicts = {
    "__local bank conflicts", "hierarchy", "local_stride", "local_stride", "stride", 1,
    CLMEM_LESSON_WORST, "clmem hierarchy", "__local stride 1 / the slowest stride", NULL};
static const struct clmem_lesson level_constant = {
    "the constant cache's broadcast", "hierarchy", "constant_broadcast", "global_broadcast", NULL,
    0, 0, "clmem hierarchy", "__constant / __global broadcast", NULL};

const struct clmem_lesson clmem_lessons[] = {
    {"coalesced writes beat strided ones", "transpose", "coalesced", "naive", NULL, 0, 0,
     "CUDA course, day 2, slides 'Naive Transpose' and 'Coalesced Transpose'", "coalesced / naive", NULL},
    {"padding removes bank conflicts", "transpose", "padded", "coalesced", NULL, 0, 0,
     "CUDA course, day 2, slide 'Avoiding Bank Conflict'", "padded / coalesced", &level_conflicts},
    {"tiling replaces global reads with local ones", "matmul", "tiled", "naive", NULL, 0, 0,
     "Kirk & Hwu Fig. 4.16 against Fig. 4.3", "tiled / naive", &level_local},
    {"sequential addressing cuts divergence", "reduce", "sequential", "interleaved", NULL, 0, 0,
     "Kirk & Hwu Fig. 5.15 against Fig. 5.13", "sequential / interleaved", NULL},
    {"coarsening: more work per work-item (reduction)", "reduce", "coarsened", "sequential", NULL,
     0, 0, "Kirk & Hwu Fig. 5.17's idea on Fig. 5.15", "coarsened / sequential", NULL},
    {"coarsening: more work per work-item (matmul)", "matmul", "coarsened", "tiled", NULL, 0, 0,
     "Kirk & Hwu Fig. 5.17 against Fig. 4.16", "coarsened / tiled", NULL},
    {"constant memory for coefficients every work-item reads", "constmem", "constant_filter",
     "global_filter", NULL, 0, 0, "CUDA course, day 2, slide 'Constant Memory in CUDA'",
     "constant_filter / global_filter", &level_constant},
    {"coarsening and vectors: each input row loaded once (blur)", "blur", "coarsened", "naive",
     NULL, 0, 0, "Kirk & Hwu Fig. 5.17's idea on Fig. 4.1", "coarsened / naive", NULL},
    {"coarsening and vectors: each input row loaded once (convolution)", "constmem", "coarsened",
     "constant_filter", NULL, 0, 0, "Kirk & Hwu Fig. 5.17's idea on the CUDA course's 'Constant Memory in CUDA'",
     "coarsened / constant_filter", NULL},
    {"16-byte accesses keep more bytes in flight", "pitched", "vec4", "pitched", NULL, 0, 0,
     "CUDA course, day 2, slides on cudaMallocPitch, with float4s", "vec4 / pitched", NULL},
    {"local atomics before global ones", "atomics", "atomic_local", "atomic_global", NULL, 0, 0,
     "CUDA course, day 2, slide 'Atomic Operation'", "atomic_local / atomic_global", NULL},
    {"aligned accesses coalesce", "coalescing", "offset_float", "offset_float", "offset", 0,
     CLMEM_LESSON_WORST, "CUDA course, day 2, plot 'Effective Bandwidth vs. Offset for Single Precision'",
     "offset 0 / the slowest offset", NULL},
    {"unit stride coalesces", "coalescing", "stride_float", "stride_float", "stride", 1, 32,
     "CUDA course, day 2, plot 'Effective Bandwidth vs. Stride for Single Precision'",
     "stride 1 / stride 32", NULL},
};
// clang-format on
const size_t clmem_n_lessons = sizeof clmem_lessons / sizeof clmem_lessons[0];

static int usable(const struct clmem_result *r)
{
    return !r->skipped && r->verified && !r->demonstrates_failure && r->metric > 0 &&
           isfinite(r->metric);
}

/* A size's element count, to find the largest size two variants share:
 * the product of its dimensions (8191x8191), NAN when not numbers. */
static double volume(const char *size)
{
    double v = 1;
    for (const char *p = size;; p++) {
        char *end;
        double d = strtod(p, &end);
        if (end == p || !(d > 0))
            return NAN;
        v *= d;
        if (*end != 'x')
            return *end ? NAN : v;
        p = end;
    }
}

/* The result of `variant` (at sweep point `value` when the lesson sweeps;
 * CLMEM_LESSON_WORST: the slowest point, other than `skip`) at `size`. */
static const struct clmem_result *find(const struct clmem_lesson *l, const char *variant,
                                       unsigned value, unsigned skip, const char *size,
                                       const struct clmem_result *results, size_t n)
{
    const struct clmem_result *found = NULL;
    for (size_t i = 0; i < n; i++) {
        const struct clmem_result *r = &results[i];
        if (!usable(r) || strcmp(r->workload, l->workload) != 0 ||
            strcmp(r->variant, variant) != 0 || strcmp(r->size, size) != 0)
            continue;
        if (l->sweep && value != CLMEM_LESSON_UNSWEPT) {
            if (strcmp(r->sweep, l->sweep) != 0)
                continue;
            if (value == CLMEM_LESSON_WORST) {
                if (r->sweep_value != skip && (!found || r->metric < found->metric))
                    found = r;
                continue;
            }
            if (r->sweep_value != value)
                continue;
        } else if (r->sweep[0]) {
            continue;
        }
        if (!found || r->metric > found->metric)
            found = r;
    }
    return found;
}

int clmem_lesson_measure(const struct clmem_lesson *l, const struct clmem_result *results, size_t n,
                         struct clmem_lesson_gain *gain)
{
    const struct clmem_result *best = NULL, *best_versus = NULL;
    double best_volume = -1;
    for (size_t i = 0; i < n; i++) {
        const struct clmem_result *r = &results[i];
        if (!usable(r) || strcmp(r->workload, l->workload) != 0 ||
            strcmp(r->variant, l->variant) != 0)
            continue;
        const struct clmem_result *a = find(l, l->variant, l->value, 0, r->size, results, n);
        const struct clmem_result *b =
            find(l, l->versus, l->versus_value, l->value, r->size, results, n);
        double v = volume(r->size);
        if (a && b && (isnan(v) ? 0 : v) > best_volume) {
            best = a;
            best_versus = b;
            best_volume = isnan(v) ? 0 : v;
        }
    }
    if (!best)
        return 0;
    gain->ratio = best->metric / best_versus->metric;
    snprintf(gain->size, sizeof gain->size, "%s", best->size);
    gain->versus_value = best_versus->sweep_value;
    gain->noisy = clmem_result_noisy(best) || clmem_result_noisy(best_versus);
    return 1;
}

void clmem_lesson_ratio(double ratio, char *out, size_t size)
{
    snprintf(out, size, ratio >= 99.5 ? "%.0fx" : ratio >= 9.95 ? "%.1fx" : "%.2fx", ratio);
}

void clmem_lessons_print(FILE *out, enum clmem_format format, const struct clmem_result *results,
                         size_t n)
{
    if (format != CLMEM_FORMAT_TABLE)
        return;
    for (size_t i = 0; i < clmem_n_lessons; i++) {
        const struct clmem_lesson *l = &clmem_lessons[i];
        struct clmem_lesson_gain g;
        if (!clmem_lesson_measure(l, results, n, &g))
            continue;
        char ratio[32];
        clmem_lesson_ratio(g.ratio, ratio, sizeof ratio);
        char noisy[96] = "";
        if (g.noisy)
            snprintf(noisy, sizeof noisy,
                     "; noisy: a result's max/min is past %.1fx, the ratio may not hold on a rerun",
                     CLMEM_NOISY_SPREAD);
        if (l->sweep)
            fprintf(out, "lesson: %s: %s %s=%u %s %s=%u @%s (%s%s)\n", l->title, l->variant,
                    l->sweep, l->value, ratio, l->sweep, g.versus_value, g.size, l->figure, noisy);
        else
            fprintf(out, "lesson: %s: %s %s %s @%s (%s%s)\n", l->title, l->variant, ratio,
                    l->versus, g.size, l->figure, noisy);
    }
}
