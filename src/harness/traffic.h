/* The traffic model (traffic.c): what a variant's design moves at each
 * level of the memory hierarchy and how much it computes, as Kirk & Hwu
 * count a kernel's compute-to-global-memory-access ratio; with the
 * device's rate at each level, the time each level predicts and the one
 * that binds (a hierarchical roofline). The result keeps it in its
 * struct clmem_bound. Not libclmem's interface. */
#ifndef CLMEM_HARNESS_TRAFFIC_H
#define CLMEM_HARNESS_TRAFFIC_H

#include "harness/harness.h"

/* The levels, in struct clmem_bound's order. */
enum clmem_bound_level {
    CLMEM_BOUND_GLOBAL,   /* device memory through __global */
    CLMEM_BOUND_LOCAL,    /* __local memory */
    CLMEM_BOUND_CONSTANT, /* __constant memory (its cache) */
    CLMEM_BOUND_COMPUTE,  /* FP32 arithmetic */
};

/* One execution of a variant: bytes at each memory level, and flops;
 * and, in a short phrase, what its design does that these leave out
 * (NULL or "" where they count all that matters, as for a plain copy):
 * a result far below its bound or beyond it names it in its note. No
 * ';' in it: the note's clauses are split there. */
struct clmem_traffic {
    double global_bytes, local_bytes, constant_bytes, flops;
    const char *unmodelled;
};

/* The device's rate at each level: GB/s, and GFLOP/s for compute; 0
 * where not measured (that level then predicts nothing). */
struct clmem_level_rates {
    double copy_gbs;     /* a copy's read + write: the roof of global traffic */
    double read_gbs;     /* reads alone: the roof of a variant whose roof is "read" */
    double local_gbs;    /* __local reads without bank conflicts */
    double constant_gbs; /* __constant reads every work-item shares */
    double gflops;
};

/* "global", "local", "constant", "compute"; "" out of range. */
const char *clmem_bound_level_name(int level);

/* The variant's traffic at the run's size and parameters into b->amount
 * (zero where the workload declares none), the rest of *b cleared. */
void clmem_bound_declare(const struct clmem_run *run, const struct clmem_variant *v,
                         struct clmem_bound *b);

/* Each level's predicted time, the binding (slowest) level, predicted /
 * measured, and the model-error flag, which a note on the result says
 * too: a result faster than the bound beyond its samples' spread means
 * the model misses something (a cache holding what it counts as
 * device-memory traffic, a rate measured below the device's). A result
 * below CLMEM_BOUND_FAR of its bound whose variant names what the model
 * leaves out gets a clause saying so ("RATIO of its LEVEL bound: not
 * counted: PHRASE"), as the model error gets the phrase after its own. The
 * clause is written anew each time (none left from an earlier call).
 * Results without traffic or measurement are left alone. */
#define CLMEM_BOUND_FAR 0.7
void clmem_result_bound(struct clmem_result *r, const struct clmem_level_rates *rates);
int clmem_results_apply_bounds(struct clmem_result *results, size_t n,
                               const struct clmem_level_rates *rates);

/* Where a result stands on the hierarchical roofline at a memory level
 * (global, __local or __constant): *intensity its flops per byte moved
 * there, *gflops its flops over its measured median. Returns 0, setting
 * nothing, where it has no place: no flops (a copy, a transpose), no bytes
 * at the level, no median. The report's plot and the terminal's both
 * place their points here. */
int clmem_bound_point(const struct clmem_result *r, int level, double *intensity, double *gflops);
/* A level's rate as a result's bound implies it: amount / predicted ms,
 * in GB/s (GFLOP/s for compute); 0 where the level predicts nothing. */
double clmem_bound_rate(const struct clmem_bound *b, int level);

/* The rates: global and compute from the peaks, __local and __constant
 * from the hierarchy workload's probes (local_stride at stride 1,
 * constant_broadcast), run at their default size; their results are
 * appended to *results, as the peaks' are. */
int clmem_level_rates_measure(struct clmem_ctx *ctx, const struct clmem_workload *hierarchy,
                              unsigned reps, const struct clmem_peak *peak,
                              struct clmem_level_rates *rates, struct clmem_result **results,
                              size_t *n_results, struct clmem_error *err);
/* The GB/s of the hierarchy probe `variant` (local_stride,
 * constant_broadcast) among results, live or read back from a run file:
 * its verified result at stride 1 (or unswept), the last such; 0 where
 * there is none. */
double clmem_level_probe_rate(const struct clmem_result *results, size_t n, const char *variant);

#endif
