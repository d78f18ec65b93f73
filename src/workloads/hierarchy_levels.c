/* The levels of a memory hierarchy read off its curves: the latency
 * staircase of a chase (a step up where a working set outgrows a cache)
 * and the read bandwidth by working set (a step down there). Pure
 * functions of the points: the tests give them made-up curves. */
#include "workloads/hierarchy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of values[first..last] of the valid points. */
static double median_of(const double *values, size_t first, size_t last)
{
    size_t n = last - first + 1;
    double *v = malloc(n * sizeof *v);
    if (!v)
        return values[(first + last) / 2];
    memcpy(v, values + first, n * sizeof *v);
    qsort(v, n, sizeof *v, cmp_double);
    double m = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    free(v);
    return m;
}

struct segment {
    size_t first, last; /* among the valid points */
};

size_t clmem_curve_plateaus(const struct clmem_curve_point *points, size_t n, enum clmem_curve kind,
                            struct clmem_plateau *out, size_t max)
{
    return clmem_curve_plateaus_by(points, n, kind, CLMEM_STEP_RATIO, out, max);
}

size_t clmem_curve_plateaus_by(const struct clmem_curve_point *points, size_t n,
                               enum clmem_curve kind, double step_ratio, struct clmem_plateau *out,
                               size_t max)
{
    size_t m = 0;
    size_t *index = malloc((n ? n : 1) * sizeof *index);
    double *x = malloc((n ? n : 1) * sizeof *x), *value = malloc((n ? n : 1) * sizeof *value);
    struct segment *seg = malloc((n ? n : 1) * sizeof *seg);
    size_t n_seg = 0, found = 0;
    if (!index || !x || !value || !seg)
        goto done;
    /* log(value), turned so that a step is a rise for either curve. */
    for (size_t i = 0; i < n; i++)
        if (points[i].value > 0 && isfinite(points[i].value)) {
            index[m] = i;
            value[m] = points[i].value;
            x[m++] = kind == CLMEM_CURVE_LATENCY ? log(points[i].value) : -log(points[i].value);
        }
    if (m == 0)
        goto done;
    const double point_rise = log(CLMEM_STEP_POINT_RATIO), step_rise = log(step_ratio);
    /* Steps: runs of points each above the one before by point_rise, the
     * run's end above its start by step_rise. Between them, plateaus. */
    size_t start = 0;
    for (size_t i = 0; i + 1 < m;) {
        if (x[i + 1] - x[i] <= point_rise) {
            i++;
            continue;
        }
        size_t j = i + 1;
        while (j + 1 < m && x[j + 1] - x[j] > point_rise)
            j++;
        if (x[j] - x[i] > step_rise) {
            seg[n_seg++] = (struct segment){start, i};
            start = j;
        }
        i = j;
    }
    seg[n_seg++] = (struct segment){start, m - 1};
    /* A short plateau between two steps is the middle of one transition:
     * the two steps are one. */
    for (size_t s = 1; s + 1 < n_seg;) {
        if (seg[s].last - seg[s].first + 1 < CLMEM_PLATEAU_POINTS) {
            memmove(&seg[s], &seg[s + 1], (n_seg - s - 1) * sizeof *seg);
            n_seg--;
        } else {
            s++;
        }
    }
    /* Neighbours within step_rise of each other are one level (a step that
     * came back down was noise): joined, the points between them too. */
    for (size_t s = 0; s + 1 < n_seg;) {
        double a = median_of(x, seg[s].first, seg[s].last);
        double b = median_of(x, seg[s + 1].first, seg[s + 1].last);
        if (fabs(b - a) <= step_rise) {
            seg[s].last = seg[s + 1].last;
            memmove(&seg[s + 1], &seg[s + 2], (n_seg - s - 2) * sizeof *seg);
            n_seg--;
        } else {
            s++;
        }
    }
    /* A level needs CLMEM_PLATEAU_POINTS at the ends too, and a step up
     * from the level before it: one noisy end point, or a curve that came
     * back down, is no level of its own. */
    double below = -INFINITY; /* the last resolved plateau's log value */
    for (size_t s = 0; s < n_seg && found < max; s++) {
        struct clmem_plateau *p = &out[found++];
        p->first = index[seg[s].first];
        p->last = index[seg[s].last];
        p->bytes = points[p->last].bytes;
        p->value = median_of(value, seg[s].first, seg[s].last);
        p->edge_bytes = NAN;
        double level = median_of(x, seg[s].first, seg[s].last);
        p->resolved =
            seg[s].last - seg[s].first + 1 >= CLMEM_PLATEAU_POINTS && level - below > step_rise;
        if (p->resolved)
            below = level;
        if (s + 1 == n_seg)
            continue;
        /* A third of the way, in log terms, to the next plateau: the first
         * point past this one's last that reaches it, and the one before. */
        double lo = median_of(x, seg[s].first, seg[s].last);
        double half =
            lo + CLMEM_EDGE_FRACTION * (median_of(x, seg[s + 1].first, seg[s + 1].last) - lo);
        size_t i = seg[s].last + 1;
        while (i < seg[s + 1].first && x[i] < half)
            i++;
        double b0 = log(points[index[i - 1]].bytes), b1 = log(points[index[i]].bytes);
        double f = x[i] > x[i - 1] ? (half - x[i - 1]) / (x[i] - x[i - 1]) : 1.0;
        f = f < 0 ? 0 : f > 1 ? 1 : f;
        p->edge_bytes = exp(b0 + f * (b1 - b0));
    }
done:
    free(index);
    free(x);
    free(value);
    free(seg);
    return found;
}

/* log2 of how far [a0, a1] and [b0, b1] (bytes) overlap; <= 0 when apart.
 * A single point counts as a factor sqrt(2) each way. */
static double overlap(double a0, double a1, double b0, double b1)
{
    double lo = fmax(log2(a0) - 0.25, log2(b0) - 0.25);
    double hi = fmin(log2(a1) + 0.25, log2(b1) + 0.25);
    return hi - lo;
}

static int is_result(const struct clmem_result *r, const char *variant)
{
    return strcmp(r->workload, "hierarchy") == 0 && strcmp(r->variant, variant) == 0 &&
           !r->skipped && r->verified && r->metric > 0;
}

/* A curve of one variant's results (ascending working sets); n points. */
static struct clmem_curve_point *curve_of(const struct clmem_result *results, size_t n,
                                          const char *variant, int latency, size_t *count)
{
    struct clmem_curve_point *c = malloc((n ? n : 1) * sizeof *c);
    *count = 0;
    if (!c)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (is_result(&results[i], variant)) {
            double bytes = strtod(results[i].size, NULL);
            double v =
                latency ? clmem_chase_latency_ns(&results[i]) : clmem_result_best_rate(&results[i]);
            size_t k = *count;
            /* Insertion in order of bytes: a run file need not be sorted. */
            while (k > 0 && c[k - 1].bytes > bytes) {
                c[k] = c[k - 1];
                k--;
            }
            c[k] = (struct clmem_curve_point){bytes, v};
            (*count)++;
        }
    return c;
}

/* "48 KiB", "1.5 MiB": a size in a note. */
static void bytes_text(double b, char *out, size_t size)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    size_t u = 0;
    while (b >= 1024 && u + 1 < sizeof units / sizeof *units) {
        b /= 1024;
        u++;
    }
    snprintf(out, size, "%.3g %s", b, units[u]);
}

/* Why no plateau is device memory; from and step: the first working set
 * of a last plateau whose step lies inside the largest cache known, and
 * where that step starts (the level before it ends), else 0. */
static void memory_note(struct clmem_hierarchy *h, double reach, double from, double step)
{
    char at[32], cache[32];
    bytes_text(reach, at, sizeof at);
    bytes_text(h->cache_bytes, cache, sizeof cache);
    if (from > 0) {
        char first[32], up[32];
        bytes_text(from, first, sizeof first);
        bytes_text(step, up, sizeof up);
        snprintf(h->note, sizeof h->note,
                 "the last plateau (from %s) follows a step at %s, inside the largest cache %s "
                 "(TLB misses, or a cache shared with other work): no level is device memory",
                 first, up, cache);
    } else if (!h->memory_reached)
        snprintf(h->note, sizeof h->note,
                 "sweep stopped at %s%s%.60s%s %s the largest cache %s: no level is device memory",
                 at, h->stopped_by[0] ? " (" : "", h->stopped_by, h->stopped_by[0] ? ")" : "",
                 reach < h->cache_bytes ? "inside" : "short of twice", cache);
    else if (h->cache_bytes > 0)
        snprintf(h->note, sizeof h->note,
                 "no resolved plateau (%d points) past twice the largest cache %s: no level is "
                 "device memory",
                 CLMEM_PLATEAU_POINTS, cache);
    else
        snprintf(h->note, sizeof h->note,
                 "the last step has fewer than %d points: no level is device memory",
                 CLMEM_PLATEAU_POINTS);
}

/* The TLB reach from chase_page's curve: its first resolved step. */
static void tlb_reach(const struct clmem_result *results, size_t n, struct clmem_tlb *tlb)
{
    size_t count = 0;
    struct clmem_curve_point *c = curve_of(results, n, "chase_page", 1, &count);
    struct clmem_plateau p[CLMEM_MAX_LEVELS];
    size_t np = c ? clmem_curve_plateaus(c, count, CLMEM_CURVE_LATENCY, p, CLMEM_MAX_LEVELS) : 0;
    memset(tlb, 0, sizeof *tlb);
    tlb->last_bytes = count ? c[count - 1].bytes : 0;
    for (size_t k = 0; k < np && tlb->n_plateaus < CLMEM_TLB_PLATEAUS; k++)
        if (p[k].resolved)
            tlb->plateaus[tlb->n_plateaus++] = (struct clmem_curve_point){p[k].bytes, p[k].value};
    for (size_t k = 0; k + 1 < np; k++) {
        if (!p[k].resolved)
            continue;
        for (size_t j = k + 1; j < np; j++)
            if (p[j].resolved) {
                tlb->reach_bytes = p[k].edge_bytes;
                tlb->hit_ns = p[k].value;
                tlb->miss_ns = p[j].value;
                break;
            }
        break;
    }
    if (tlb->reach_bytes == 0 && np >= 1 && p[0].resolved)
        tlb->hit_ns = p[0].value;
    free(c);
}

void clmem_hierarchy_levels(const struct clmem_result *results, size_t n, double clock_mhz,
                            struct clmem_hierarchy *h)
{
    h->n_levels = h->n_unmatched = 0;
    h->clock_mhz = clock_mhz;
    h->note[0] = '\0';
    tlb_reach(results, n, &h->tlb);
    size_t n_lat = 0, n_bw = 0;
    struct clmem_curve_point *lat = curve_of(results, n, "chase_global", 1, &n_lat);
    struct clmem_curve_point *bw = curve_of(results, n, "read_ws", 0, &n_bw);
    struct clmem_plateau lp[CLMEM_MAX_LEVELS], bp[CLMEM_MAX_LEVELS];
    double step = h->cpu ? CLMEM_STEP_RATIO : CLMEM_STEP_RATIO_QUIET;
    size_t nl =
        lat ? clmem_curve_plateaus_by(lat, n_lat, CLMEM_CURVE_LATENCY, step, lp, CLMEM_MAX_LEVELS)
            : 0;
    size_t nb =
        bw ? clmem_curve_plateaus(bw, n_bw, CLMEM_CURVE_BANDWIDTH, bp, CLMEM_MAX_LEVELS) : 0;
    /* Device memory: the last resolved plateau, with a resolved level
     * before it, once the chase has gone past twice the largest cache
     * known, and on to there (short of that it may be any cache's; a
     * stretch past it too short to resolve is unresolved, not memory). */
    double reach = n_lat ? lat[n_lat - 1].bytes : 0;
    h->memory_reached = !(h->cache_bytes > 0) || reach >= 2 * h->cache_bytes;
    size_t resolved = 0, memory = nl, llc = nl, last = nl, before = nl;
    for (size_t k = 0; k < nl; k++)
        if (lp[k].resolved) {
            resolved++;
            before = last;
            last = k;
        }
    /* Nor where the step up to it lies well inside the largest cache known
     * (the level before it ends there): that plateau is no cache's level
     * either, left unnamed. */
    size_t inside = nl;
    if (resolved >= 2 && h->memory_reached && lat[lp[last].last].bytes >= 2 * h->cache_bytes) {
        if (h->cache_bytes > 0 &&
            lp[before].edge_bytes * CLMEM_MEMORY_INSIDE_CACHE < h->cache_bytes)
            inside = last;
        else
            memory = last;
    }
    for (size_t k = memory; memory < nl && k-- > 0;)
        if (lp[k].resolved) {
            llc = k;
            break;
        }
    if (nl >= 2 && memory == nl)
        memory_note(h, reach, inside < nl ? lat[lp[inside].first].bytes : 0,
                    inside < nl ? lp[before].edge_bytes : 0);
    /* A cache split in two: consecutive resolved caches past the first,
     * close in size and latency, on a device that is not a CPU. */
    size_t near = nl, far = nl, cache = nl, first = nl;
    for (size_t k = 0; k < nl && !h->cpu && near == nl; k++) {
        if (!lp[k].resolved || k == memory || k == inside)
            continue;
        if (cache != nl && cache != first && lp[cache].edge_bytes > 0 && lp[k].edge_bytes > 0 &&
            lp[k].edge_bytes <= CLMEM_SPLIT_SIZE_RATIO * lp[cache].edge_bytes &&
            lp[k].value <= CLMEM_SPLIT_LATENCY_RATIO * lp[cache].value) {
            near = cache;
            far = k;
        }
        first = first == nl ? k : first;
        cache = k;
    }
    unsigned number = 0;
    for (size_t k = 0; k < nl; k++) {
        struct clmem_level *L = &h->levels[h->n_levels++];
        memset(L, 0, sizeof *L);
        L->is_memory = k == memory;
        L->resolved = lp[k].resolved;
        if (!L->resolved)
            snprintf(L->name, sizeof L->name, "unresolved");
        else if (resolved == 1 && nl == 1)
            snprintf(L->name, sizeof L->name, "one level (no step)");
        else if (L->is_memory)
            snprintf(L->name, sizeof L->name, "device memory");
        else if (k == inside)
            snprintf(L->name, sizeof L->name, "unnamed, inside a cache");
        else if (k == near)
            snprintf(L->name, sizeof L->name, "L%u (near)", ++number);
        else if (k == far)
            snprintf(L->name, sizeof L->name, "L%u (far)", number);
        else if (k == llc)
            snprintf(L->name, sizeof L->name, "L%u (last-level cache)", ++number);
        else
            snprintf(L->name, sizeof L->name, "L%u", ++number);
        L->first_bytes = lat[lp[k].first].bytes;
        L->last_bytes = lat[lp[k].last].bytes;
        /* No size for memory, for a stretch that is no level, or for the
         * last plateau of a sweep that stopped on it (its end unseen). */
        L->size_bytes =
            L->is_memory || !L->resolved || isnan(lp[k].edge_bytes) ? 0 : lp[k].edge_bytes;
        /* Memory: the largest working set's, the nearest to all misses
         * (the last caches' hits fade slowly past their size). */
        L->latency_ns = L->is_memory ? lat[lp[k].last].value : lp[k].value;
        L->latency_cycles = clock_mhz > 0 ? L->latency_ns * clock_mhz * 1e-3 : NAN;
        L->bandwidth_gbs = L->bandwidth_bytes = NAN;
    }
    /* Each bandwidth plateau to the level its working sets overlap most. */
    double best[CLMEM_MAX_LEVELS];
    for (size_t k = 0; k < h->n_levels; k++)
        best[k] = 0;
    for (size_t p = 0; p < nb; p++) {
        double b0 = bw[bp[p].first].bytes, b1 = bw[bp[p].last].bytes;
        size_t at = h->n_levels;
        double most = 0;
        if (!bp[p].resolved)
            continue; /* a noisy end point, no plateau */
        for (size_t k = 0; k < h->n_levels; k++) {
            const struct clmem_level *L = &h->levels[k];
            if (!L->resolved)
                continue;
            double l1 = L->is_memory || k + 1 == h->n_levels ? INFINITY : L->last_bytes;
            double o =
                overlap(L->first_bytes, isinf(l1) ? fmax(b1, L->first_bytes) * 2 : l1, b0, b1);
            if (o > most) {
                most = o;
                at = k;
            }
        }
        if (at < h->n_levels && most > best[at]) {
            struct clmem_level *L = &h->levels[at];
            if (!isnan(L->bandwidth_gbs) && h->n_unmatched < CLMEM_MAX_LEVELS) {
                /* The plateau it had is left over. */
                h->unmatched[h->n_unmatched++] =
                    (struct clmem_curve_point){L->bandwidth_bytes, L->bandwidth_gbs};
            }
            best[at] = most;
            L->bandwidth_gbs = bp[p].value;
            L->bandwidth_bytes = bp[p].bytes;
        } else if (h->n_unmatched < CLMEM_MAX_LEVELS) {
            h->unmatched[h->n_unmatched++] = (struct clmem_curve_point){bp[p].bytes, bp[p].value};
        }
    }
    free(lat);
    free(bw);
}
