/* matmul over several devices of one host (matmul_split.c): P's rows
 * split over the contexts. Not part of libclmem's interface. */
#ifndef CLMEM_WORKLOADS_MATMUL_SPLIT_H
#define CLMEM_WORKLOADS_MATMUL_SPLIT_H

#include "clmem/clmem.h"

#include <stddef.h>
#include <stdint.h>

/* matmul with P's rows split over the contexts, end to end (README,
 * "Several devices"): one result per device count k = 1 .. n. */
struct clmem_split_options {
    const char *variant;   /* one kernel variant of matmul, never a library's */
    const char *size;      /* NULL: matmul's default */
    const double *weights; /* one per context, NULL: equal shares */
    unsigned reps, warmup;
    uint64_t seed;
    int weak;                     /* weak scaling: k devices multiply k times size's rows */
    int no_overlap;               /* each transfer and kernel waits for the one before */
    int (*cancelled)(void *user); /* polled between scaling points */
    void *cancelled_user;
};
int clmem_matmul_split(struct clmem_ctx *ctxs, size_t n, const struct clmem_split_options *options,
                       struct clmem_result **results, size_t *n_results, struct clmem_error *err);

#endif
