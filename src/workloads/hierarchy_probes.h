/* The probes of workload `hierarchy` as its three files share them: the
 * probes' numbers, the sizes they are built from and the state of a run.
 * hierarchy.c describes the probes and sets a run up, hierarchy_run.c
 * launches them, hierarchy_check.c checks what they left. Internal to
 * src/workloads, below hierarchy.h (the workload's header), which the two
 * files under hierarchy.c do not include. */
#ifndef CLMEM_WORKLOADS_HIERARCHY_PROBES_H
#define CLMEM_WORKLOADS_HIERARCHY_PROBES_H

#include "harness/harness.h"
#include "workloads/hierarchy_chase.h"

enum {
    CHASE_GLOBAL,
    CHASE_PAGE,
    CHASE_LOCAL,
    READ_WS,
    LOCAL_STRIDE,
    LOCAL_BROADCAST,
    CONSTANT_BROADCAST,
    CONSTANT_SCATTERED,
    GLOBAL_BROADCAST,
    GLOBAL_SCATTERED,
    PRIVATE_DYNAMIC,
    PRIVATE_REGISTERS,
    IMAGE_READ,
    BUFFER_READ,
    H2D_PAGEABLE,
    H2D_PINNED,
    D2H_PAGEABLE,
    D2H_PINNED,
    MAP,
    D2D,
    ATOMIC_GLOBAL,
    ATOMIC_CONTENDED,
    ATOMIC_LOCAL,
    N_PROBES
};

#define CHASE_MIN_STRIDE 64 /* bytes between a chase's elements: a cache line at least */
#define CHASE_MAX_STRIDE 256
#define ITEMS_PER_UNIT   2048  /* work-items per compute unit of the bandwidth probes */
#define ITEMS_PER_BYTE   64    /* ... but no more than this per byte of a working set */
#define ONCHIP_PER_BYTE  16    /* (the on-chip probes: full from 16 KiB on GPUs) */
#define READ_PER_ITEM    64    /* float4s a work-item reads at least (bandwidth, images) */
#define ONCHIP_REPS      2048  /* reads of local or constant memory a work-item */
#define ONCHIP_MAX_BYTES 65536 /* the largest working set of the on-chip probes */
#define PRIVATE_N        32
#define PRIVATE_REPS     256
#define ATOMIC_UPDATES   64
#define SCATTER_SPREAD   33   /* words between neighbours' reads, scattered */
#define CHECKED_ITEMS    4096 /* work-items checked, evenly spread, above this many */
#define IMAGE_MAX_WIDTH  1024 /* texels a row at most, while the rows fit */
#define DATA_MAX         7    /* inputs are whole numbers 0..7: sums exact in float */

/* A chase: n elements stride words apart, along perm; `steps` loads a
 * timed run. */
struct hier_chase {
    size_t n, stride, steps;
    cl_uint *perm;
    uint64_t total; /* loads since the state was reset */
    cl_mem d_next, d_state;
};
struct hier_state {
    size_t bytes, group, units;
    int contiguous; /* CPUs read runs of their own */
    /* chase_global (a cache line apart), chase_page (a page and a line
     * apart: one element a page), chase_local (in __local, a word apart) */
    struct hier_chase chase, page, lchase;
    cl_uint *chase_host; /* the cycle as the buffer holds it, until it is copied */
    cl_uint *chase_huge; /* chase_global's buffer itself, in huge pages (until teardown) */
    /* read_ws: n4 float4s, items x per_item reads */
    size_t read_n4, read_items, read_per_item, read_step;
    float *read_src, *read_out;
    cl_mem d_read, d_read_out;
    /* local, constant and global tables: table_n words (a power of two) */
    size_t table_n, onchip_items, onchip_reps, private_reps, atomic_updates;
    float *table, *onchip_out;
    cl_uint *uint_out;
    cl_mem d_table, d_onchip_out, d_uint_out;
    unsigned long atomic_runs;
    /* image_read and buffer_read: width x rows float4 texels */
    size_t width, rows, tex_items, tex_per_item, tex_ystep;
    float *texels, *tex_out;
    cl_mem d_image, d_texels, d_tex_out;
    /* copies: xfer bytes */
    size_t xfer;
    unsigned char *host_src, *host_dst;
    struct clmem_pinned pinned;
    cl_mem d_xfer, d_xfer2;
};

/* The chase a chase probe follows (chase_global's, chase_page's or
 * chase_local's). */
static inline struct hier_chase *hier_chase_of(struct hier_state *s, int probe)
{
    return probe == CHASE_GLOBAL ? &s->chase : probe == CHASE_PAGE ? &s->page : &s->lchase;
}
/* The workload's steps for variant v, probe number `probe` (its index in
 * hierarchy.c's table): hierarchy_run.c prepares and launches, and
 * hierarchy_check.c checks. */
int hier_prepare(struct clmem_run *run, const struct clmem_variant *v, int probe,
                 struct clmem_error *err);
int hier_execute(struct clmem_run *run, const struct clmem_variant *v, int probe,
                 struct clmem_timing *timing, struct clmem_error *err);
int hier_verify(struct clmem_run *run, int probe, struct clmem_check *check,
                struct clmem_error *err);

#endif
