/* The chase's pure pieces (hierarchy_check.c): the single-cycle
 * permutation the chases follow and the check of what a chase left. A
 * header of their own, below hierarchy.h, so that the probes' files can
 * use them without the workload's header. */
#ifndef CLMEM_WORKLOADS_HIERARCHY_CHASE_H
#define CLMEM_WORKLOADS_HIERARCHY_CHASE_H

#include "harness/harness.h"

/* perm[i] = the element after i on one random cycle through all n >= 1
 * elements (Sattolo's algorithm, 1986: Fisher-Yates drawing j < i instead
 * of j <= i), from `seed`. */
void clmem_sattolo(cl_uint *perm, size_t n, uint64_t seed);
/* The check of a chase (the kernel hier_chase, or hier_chase_local) of
 * `total` loads from element 0 over `perm` (n elements, `stride` words
 * apart in the buffer), state[] = { the word it ended on, the loads until
 * its first return to element 0, the loads it counted } as the kernel left
 * them: the first return must come after all n loads (one cycle through
 * every element: a permutation of several cycles comes back sooner), the
 * end must be where `total` loads along perm lead, the count `total`
 * (mod 2^32). Each is one value checked. */
void clmem_chase_check(const cl_uint *perm, size_t n, size_t stride, uint64_t total,
                       const cl_uint state[3], struct clmem_check *check);

#endif
