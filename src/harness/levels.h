/* The levels of the memory hierarchy a sweep names (levels.c): the types
 * the hierarchy workload fills (workloads/hierarchy_levels.c) and the
 * report writes (report/hierarchy_table.c), so they live below both.
 * Not libclmem's interface. */
#ifndef CLMEM_HARNESS_LEVELS_H
#define CLMEM_HARNESS_LEVELS_H

#include "harness/harness.h"

/* A point of a curve over working sets: its bytes, and its ns (latency)
 * or GB/s (bandwidth). */
struct clmem_curve_point {
    double bytes, value;
};

#define CLMEM_MAX_LEVELS 8
/* A level of the hierarchy as the latency staircase shows it. */
struct clmem_level {
    char name[40];         /* "L1", "L2", "L3 (last-level cache)", "device memory", "unresolved";
                            * a cache split in two, "L2 (near)" and "L2 (far)" */
    int is_memory;         /* the last plateau, past twice the largest cache known */
    int resolved;          /* clmem_plateau's: 0 for a stretch that is no level */
    double size_bytes;     /* detected: where its plateau ends (clmem_plateau's edge); 0: memory, an
                            * unresolved stretch, or the last plateau of a sweep that stopped on it */
    double first_bytes;    /* the plateau's smallest working set */
    double last_bytes;     /* and its largest */
    double latency_ns;     /* the plateau's median */
    double latency_cycles; /* at the device's reported clock; NAN when it reports none */
    double bandwidth_gbs;  /* the read-bandwidth plateau matched to it; NAN when none */
    double bandwidth_bytes; /* that plateau's largest working set; NAN when none */
};
#define CLMEM_TLB_PLATEAUS 8
/* TLB reach: the chase_page curve's first step (each element on a page
 * of its own, so the pages a working set spans outgrow the TLB long
 * before its cache lines outgrow a cache). Bytes are the pages spanned. */
struct clmem_tlb {
    double reach_bytes;     /* the first plateau's edge; 0 when the curve has no step */
    double hit_ns, miss_ns; /* the plateaus either side of it */
    double last_bytes;      /* the largest span chased; 0 when chase_page did not run */
    /* All the curve's resolved plateaus (their largest span, ns): past
     * the first step the page chase's lines outgrow the L1 too, so the
     * later steps are the next TLB levels' and the caches' together. */
    size_t n_plateaus;
    struct clmem_curve_point plateaus[CLMEM_TLB_PLATEAUS];
};
struct clmem_hierarchy {
    /* Set before clmem_hierarchy_levels (it reads them): */
    double extent;       /* the largest working set swept, bytes */
    double cache_bytes;  /* the largest cache known before the sweep, 0 when none */
    char cache_from[96]; /* where that came from */
    char stopped_by[64]; /* what kept the sweep below twice that cache: "" when nothing */
    double page_bytes;   /* chase_page's page (its elements' spacing, less a line) */
    char pages[200];     /* which pages the curves used, as far as the host says */
    int cpu;             /* a CPU device: its caches the host's, each a level of its own */
    /* Set by it: */
    int memory_reached; /* the latency curve reached twice the largest cache known */
    char note[256];     /* why no level is device memory; "" when one is */
    struct clmem_tlb tlb;
    double clock_mhz; /* the device's reported clock (0: none) */
    size_t n_levels;
    struct clmem_level levels[CLMEM_MAX_LEVELS];
    /* Read plateaus that matched no latency level (a level the chase did
     * not resolve): each plateau's largest working set and its GB/s. */
    size_t n_unmatched;
    struct clmem_curve_point unmatched[CLMEM_MAX_LEVELS];
};
/* The staircase and the plateaus are read from each result's fastest
 * sample: work on other cores that shares a cache or memory only ever adds
 * time, so on a busy machine the fastest sample is the one nearest the
 * hardware (lmbench's rule). A result's rate at its fastest sample (its
 * metric is its median's), NAN when it has none. */
double clmem_result_best_rate(const struct clmem_result *r);
/* A chase result's latency at its fastest sample, ns a load. */
double clmem_chase_latency_ns(const struct clmem_result *r);

#endif
