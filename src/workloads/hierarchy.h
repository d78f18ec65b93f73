/* The memory hierarchy, level by level: the probes of workload
 * `hierarchy` (described in hierarchy.c, launched by hierarchy_run.c,
 * checked by hierarchy_check.c), the sweep over working sets that `clmem
 * hierarchy` runs and the levels it names (hierarchy_sweep.c), and the
 * pure pieces the tests call on their own: the single-cycle permutation
 * and the chase's check (hierarchy_chase.h) and the level detection
 * (hierarchy_levels.c). */
#ifndef CLMEM_WORKLOADS_HIERARCHY_H
#define CLMEM_WORKLOADS_HIERARCHY_H

#include "harness/harness.h"
#include "harness/levels.h"            /* the levels' types, as the report writes them */
#include "workloads/hierarchy_chase.h" /* the chase's pure pieces */

extern const struct clmem_workload clmem_workload_hierarchy;

/* ---- the levels (hierarchy_levels.c) ---- */
/* A curve over working sets, in ascending order of bytes. A latency curve
 * rises where a working set outgrows a level; a bandwidth curve falls. */
enum clmem_curve { CLMEM_CURVE_LATENCY, CLMEM_CURVE_BANDWIDTH };
/* A plateau of the curve: points first..last (indices), its value (the
 * median of its points), the largest working set on it (bytes of point
 * last), and where it ends: the working set at which the curve has gone
 * CLMEM_EDGE_FRACTION of the way (geometrically) from its value to the
 * next plateau's, interpolated in log(bytes) between the points either
 * side (NAN for the last plateau). That is the level's size: a chase
 * around one fixed cycle misses an LRU cache from just past its size (a
 * cliff), a physically indexed one a little before it (pages collide in
 * its sets); random replacement keeps a share size / working set of hits,
 * a slope past it, whose third of the way lies 1.2-1.4x past the size. */
#define CLMEM_EDGE_FRACTION (1.0 / 3.0)
struct clmem_plateau {
    size_t first, last;
    double bytes, value, edge_bytes;
    /* CLMEM_PLATEAU_POINTS points or more, and a step beyond the resolved
     * plateau before it (up for latency): a level. Else a stretch the
     * sweep did not resolve (a noisy end point, a sweep stopped one point
     * past a step, a curve that comes back down), never a level. */
    int resolved;
};
#define CLMEM_PLATEAU_POINTS 3
/* A step: from one point to a later one the curve moves (up for latency,
 * down for bandwidth) by more than CLMEM_STEP_RATIO, each point of the way
 * by more than CLMEM_STEP_POINT_RATIO; a plateau is what lies between
 * steps (at least one point), and plateaus whose values differ by less than
 * CLMEM_STEP_RATIO are one (a step that came back down was noise). */
#define CLMEM_STEP_RATIO       1.3
#define CLMEM_STEP_POINT_RATIO 1.08
/* A cache split in two, as one compute unit sees a GPU's L2 partitioned
 * (the near partition's hits, then the far one's, then memory): two
 * consecutive levels past the first whose sizes are within
 * CLMEM_SPLIT_SIZE_RATIO of each other and latencies within
 * CLMEM_SPLIT_LATENCY_RATIO. Only on a device that is not a CPU: a CPU's
 * caches are each a level of its own (and its L2 and L3 lie further apart). */
#define CLMEM_SPLIT_SIZE_RATIO    3.0
#define CLMEM_SPLIT_LATENCY_RATIO 2.5
/* Device memory's step lies at the largest cache known or past it: a step
 * up further than this factor inside that cache (TLB misses, a cache shared
 * with other work) leaves a plateau that is not named memory. */
#define CLMEM_MEMORY_INSIDE_CACHE 1.5
/* The plateaus of n points (at most max, the largest working sets last);
 * returns how many. NaN or non-positive values are left out. A short
 * stretch between two steps is the middle of one transition; a short one
 * at either end is kept, unresolved. Pure: the tests give it made-up
 * curves. */
size_t clmem_curve_plateaus(const struct clmem_curve_point *points, size_t n, enum clmem_curve kind,
                            struct clmem_plateau *out, size_t max);
/* The same with steps (and levels apart) of more than step_ratio. A GPU's
 * chase is one long launch on the device's own clock, its plateaus flat
 * where a CPU's share the host's cores: its latency staircase is read with
 * CLMEM_STEP_RATIO_QUIET, fine enough for a split L2's far half, whose step
 * to memory is smaller than CLMEM_STEP_RATIO. */
#define CLMEM_STEP_RATIO_QUIET 1.2
size_t clmem_curve_plateaus_by(const struct clmem_curve_point *points, size_t n,
                               enum clmem_curve kind, double step_ratio, struct clmem_plateau *out,
                               size_t max);

/* ---- the sweep (hierarchy_sweep.c) ---- */
struct clmem_hierarchy_options {
    const char *variant; /* one probe, or NULL/"all" */
    size_t extent;       /* the largest working set; 0: the default for the device */
    unsigned reps, warmup;
    uint64_t seed;
    /* Before each probe at each working set. */
    void (*progress)(void *user, size_t step, size_t steps, const char *variant, size_t bytes);
    void *progress_user;
    int (*cancelled)(void *user);
    void *cancelled_user;
};
/* The default extent on a device: 4x the largest cache known (the
 * device's; for a CPU device the host's too), GPUs at least 1 GiB (past
 * any GPU's last cache, whatever the driver reports), CPUs at least 16
 * MiB; at most half of what the device can allocate at once and an eighth
 * of its memory. *cache_bytes and `from`: the largest cache known and
 * where it came from; *limit: what cut the extent below 4x that cache
 * (NULL when nothing did). */
size_t clmem_hierarchy_default_extent(const struct clmem_device *device, double *cache_bytes,
                                      char *from, size_t from_size, const char **limit);
/* Its rule, pure: the extent for the largest cache known on a CPU device
 * (cpu) or another, within max_alloc / 2 and global_mem / 8. */
size_t clmem_hierarchy_extent_for(size_t largest, int cpu, cl_ulong max_alloc, cl_ulong global_mem,
                                  const char **limit);
/* The working sets chase_global sweeps, 1 KiB to extent, on a CPU device
 * (cpu: half octaves) or another (quarter octaves); at most max, returns
 * how many. */
size_t clmem_hierarchy_chase_sizes(int cpu, size_t extent, size_t *out, size_t max);
/* The page chase_page steps by on a device: the host's base page. */
size_t clmem_hierarchy_page_bytes(void);
/* The host's transparent huge pages setting ("always [madvise] never")
 * into mode ("" where unknown); whether 2 MiB pages can be had for memory
 * madvised so (always or madvise). */
int clmem_hierarchy_thp(char *mode, size_t size);
/* The huge page transparent huge pages give on x86-64 and arm64 (4 KiB
 * base pages). */
#define CLMEM_HUGE_PAGE ((size_t)2 << 20)
/* The sweep's steps (probe x working set) without running them: usage
 * errors (an unknown probe, an extent too small or too large). */
int clmem_hierarchy_plan(const struct clmem_ctx *ctx, const struct clmem_hierarchy_options *options,
                         size_t *steps, struct clmem_error *err);
/* Runs every probe at its working sets (results appended, each verified),
 * then names the levels into *h from the chase's staircase and matches
 * the read bandwidth's plateaus to them; the chase's results get their
 * latency (and level) in their note. Status as clmem_run's: a failed check
 * runs on and returns CLMEM_ERR_VERIFY. */
int clmem_hierarchy_run(struct clmem_ctx *ctx, const struct clmem_hierarchy_options *options,
                        struct clmem_hierarchy *h, struct clmem_result **results, size_t *n_results,
                        struct clmem_error *err);
/* The levels from results that hold the chase and read probes (a sweep's,
 * or a run file's): what clmem_hierarchy_run does after its runs. The last
 * plateau is device memory only where the chase reached twice h's
 * cache_bytes (any reach when none is known), the plateau is resolved and
 * its step lies no further inside that cache than CLMEM_MEMORY_INSIDE_CACHE;
 * else h->note says why not. Two steps close together on a device that is
 * not a CPU (h->cpu) are one cache's near and far halves. The TLB reach
 * from chase_page's curve. */
void clmem_hierarchy_levels(const struct clmem_result *results, size_t n, double clock_mhz,
                            struct clmem_hierarchy *h);
#endif
