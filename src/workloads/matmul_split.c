/* Matmul with P's rows split over several devices (clmem_matmul_split,
 * `clmem run matmul --device LIST --split`): each device runs the chosen
 * variant on its block of rows, tile by tile, as an ordinary matmul run of
 * a tile's size whose buffers are swapped between launches; each timed run
 * copies the block's inputs up and its P down while other tiles' kernels
 * run (clmem.h says how), and the host checks P. */
#include "workloads/matmul_split.h"
#include "harness/harness.h"
#include "workloads/matmul.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Tiles are cut to multiples of this (regblock's largest block's rows in
 * the parameter database), unless the whole block is smaller. */
#define TILE_ALIGN 256

/* Where a device's run went, by its events (device clock), in ms, and the
 * bytes it copied: the last run's, then summed over the timed runs. */
struct split_times {
    double kernels;  /* its tiles' kernels */
    double idle;     /* between its first kernel's start and its last one's end, less kernels */
    double fill;     /* from its first copy up's start to its first kernel's start */
    double drain;    /* from its last kernel's end to its last copy down's end */
    double up, down; /* its copies up and down, each its own span, summed */
    double up_bytes, down_bytes; /* and what they moved */
};

/* One device's block: rows [first, first + count) of P, cut into tiles of
 * tile_rows x tile_cols, taken a column of tiles after another; a matmul
 * run of that tile's size whose buffers are swapped tile by tile: M's row
 * chunks each a buffer of their own (up during the first column, they stay:
 * a device's rows of M are fewer than N's columns once there are several
 * devices), N's column chunks and P's tiles double-buffered. */
struct split_block {
    struct clmem_run run;
    size_t first, count;
    size_t tile_rows, tile_cols, n_row_tiles, n_col_tiles;
    cl_mem *dM; /* n_row_tiles; [0]: the run's own, dM0 */
    cl_mem dM0;
    cl_mem dN[2], dP[2]; /* [0]: the run's own */
    /* The block's rows of M, all of N and its rows of P on the host, in
     * pinned memory (as an application that moves matrices at the link's
     * speed keeps them): the copies up and down are the timed ones. */
    struct clmem_pinned host_m, host_n, host_p;
    cl_command_queue up, down;
    struct clmem_timing *tiles; /* each tile's kernels, the current run */
    /* The current run's copies: up (M's row chunks, then N's column
     * chunks) and down (each tile's P). */
    cl_event *ups, *downs;
    struct split_times last, sum; /* the last run; the timed runs' sum */
    struct clmem_error err;
};

enum split_phase { SPLIT_SETUP, SPLIT_PREPARE, SPLIT_EXECUTE, SPLIT_GATHER };

struct split_job {
    const struct clmem_variant *variant;
    struct split_block *blocks;
    struct matmul_problem *whole; /* the host's M, N, P and CPU reference */
    enum split_phase phase;
    int no_overlap;
};

/* A tile's side for `n` rows or columns: a quarter, rounded up to whole
 * blocks of the fastest kernel, or all of them when that is as many. */
static size_t tile_side(size_t n)
{
    size_t side = clmem_round_up((n + CLMEM_SPLIT_TILES - 1) / CLMEM_SPLIT_TILES, TILE_ALIGN);
    return side < n ? side : n;
}

/* The block's extra buffers and queues, beside the run's own. */
static int split_block_setup(struct split_block *b, const struct matmul_problem *whole)
{
    struct clmem_ctx *ctx = b->run.ctx;
    size_t m_bytes = b->tile_rows * whole->inner * sizeof(float);
    size_t n_bytes = whole->inner * b->tile_cols * sizeof(float);
    size_t p_bytes = b->tile_rows * b->tile_cols * sizeof(float);
    int status;
    matmul_block_buffers(&b->run, &b->dM0, &b->dN[0], &b->dP[0]);
    if (!(b->dM = calloc(b->n_row_tiles, sizeof *b->dM)) ||
        !(b->tiles = calloc(b->n_row_tiles * b->n_col_tiles, sizeof *b->tiles)) ||
        !(b->ups = calloc(b->n_row_tiles + b->n_col_tiles, sizeof *b->ups)) ||
        !(b->downs = calloc(b->n_row_tiles * b->n_col_tiles, sizeof *b->downs)))
        return clmem_fail(&b->err, CLMEM_ERR_CL, "out of host memory");
    b->dM[0] = b->dM0;
    if ((status = clmem_buffer_create(ctx, CL_MEM_READ_ONLY, n_bytes, NULL, &b->dN[1], &b->err)) ||
        (status = clmem_buffer_create(ctx, CL_MEM_WRITE_ONLY, p_bytes, NULL, &b->dP[1], &b->err)) ||
        (status = clmem_queue_open(ctx, &b->up, &b->err)) ||
        (status = clmem_queue_open(ctx, &b->down, &b->err)))
        return status;
    for (size_t r = 1; r < b->n_row_tiles; r++)
        if ((status =
                 clmem_buffer_create(ctx, CL_MEM_READ_ONLY, m_bytes, NULL, &b->dM[r], &b->err)))
            return status;
    size_t m_elems = b->count * whole->inner, n_elems = whole->inner * whole->cols;
    if ((status = clmem_pinned_alloc(ctx, m_elems * sizeof(float), &b->host_m, &b->err)) ||
        (status = clmem_pinned_alloc(ctx, n_elems * sizeof(float), &b->host_n, &b->err)) ||
        (status =
             clmem_pinned_alloc(ctx, b->count * whole->cols * sizeof(float), &b->host_p, &b->err)))
        return status;
    memcpy(b->host_m.host, whole->M + b->first * whole->inner, m_elems * sizeof(float));
    memcpy(b->host_n.host, whole->N, n_elems * sizeof(float));
    return CLMEM_OK;
}

/* Where tile t of the block lies, and how much of it is P's. */
struct split_tile {
    size_t row, col;   /* P's first row (of the whole P) and column */
    size_t rows, cols; /* those inside P */
    size_t r, c;       /* its place among the block's tiles */
};

static struct split_tile tile_at(const struct split_block *b, const struct matmul_problem *whole,
                                 size_t t)
{
    struct split_tile x = {.r = t % b->n_row_tiles, .c = t / b->n_row_tiles};
    size_t row = x.r * b->tile_rows, col = x.c * b->tile_cols;
    x.row = b->first + row;
    x.col = col;
    x.rows = b->count - row < b->tile_rows ? b->count - row : b->tile_rows;
    x.cols = whole->cols - col < b->tile_cols ? whole->cols - col : b->tile_cols;
    return x;
}

/* Waits for the queue when nothing may overlap (--no-overlap). */
static int settle(const struct split_job *job, cl_command_queue queue, struct clmem_error *err)
{
    if (job->no_overlap)
        CLMEM_CHECK(err, clFinish(queue));
    return CLMEM_OK;
}

/* Tile t's inputs up (M's rows in the first column, N's columns at a
 * column's first tile) and its kernel, which waits for them and for the
 * copy down of the tile before it in its P buffer. */
static int split_tile_compute(struct split_job *job, struct split_block *b, size_t t,
                              cl_event *m_up, cl_event n_up[2], cl_event col_done[2],
                              cl_event p_down[2])
{
    struct matmul_problem *w = job->whole;
    struct clmem_ctx *ctx = b->run.ctx;
    struct split_tile x = tile_at(b, w, t);
    size_t ns = x.c % 2, ps = t % 2;
    int status;
    if (x.c == 0) {
        float *host_m = b->host_m.host;
        size_t row_bytes = w->inner * sizeof(float);
        struct clmem_block m = {b->dM[x.r], host_m + (x.row - b->first) * w->inner,
                                x.rows,     row_bytes,
                                row_bytes,  row_bytes};
        if ((status = clmem_enqueue_block(b->up, 1, &m, NULL, 0, &m_up[x.r], &b->err)))
            return status;
        clmem_event_keep(&b->ups[x.r], m_up[x.r]);
        b->last.up_bytes += (double)(x.rows * row_bytes);
    }
    if (x.r == 0) {
        /* Into the N buffer that the column two before used: after its last kernel. */
        struct clmem_block n = {b->dN[ns],
                                (float *)b->host_n.host + x.col,
                                w->inner,
                                x.cols * sizeof(float),
                                b->tile_cols * sizeof(float),
                                w->cols * sizeof(float)};
        cl_event done = NULL;
        if ((status = clmem_enqueue_block(b->up, 1, &n, &col_done[ns], 1, &done, &b->err)))
            return status;
        clmem_event_keep(&b->ups[b->n_row_tiles + x.c], done);
        b->last.up_bytes += (double)(w->inner * x.cols * sizeof(float));
        clmem_event_release(&n_up[ns]);
        n_up[ns] = done;
    }
    if ((status = settle(job, b->up, &b->err)))
        return status;
    cl_event wait[3] = {x.c == 0 ? m_up[x.r] : NULL, x.r == 0 ? n_up[ns] : NULL, p_down[ps]};
    if ((status = clmem_queue_wait(ctx->queue, wait, 3, &b->err)))
        return status;
    if ((status = matmul_block_launch(&b->run, job->variant, b->dM[x.r], b->dN[ns], b->dP[ps],
                                      &b->tiles[t], &b->err)))
        return status;
    if (x.r + 1 == b->n_row_tiles) {
        const struct clmem_timing *k = &b->tiles[t];
        clmem_event_keep(&col_done[ns], k->last ? k->last : k->first);
    }
    CLMEM_CHECK(&b->err, clFlush(ctx->queue));
    return settle(job, ctx->queue, &b->err);
}

/* Tile t's part of P down to the host, after its kernel. */
static int split_tile_down(struct split_job *job, struct split_block *b, size_t t,
                           cl_event p_down[2])
{
    struct matmul_problem *w = job->whole;
    struct split_tile x = tile_at(b, w, t);
    const struct clmem_timing *k = &b->tiles[t];
    cl_event kernel = k->last ? k->last : k->first, done = NULL;
    float *host_p = b->host_p.host;
    struct clmem_block p = {b->dP[t % 2],
                            host_p + (x.row - b->first) * w->cols + x.col,
                            x.rows,
                            x.cols * sizeof(float),
                            b->tile_cols * sizeof(float),
                            w->cols * sizeof(float)};
    int status = clmem_enqueue_block(b->down, 0, &p, &kernel, 1, &done, &b->err);
    if (status)
        return status;
    clmem_event_keep(&b->downs[t], done);
    b->last.down_bytes += (double)(x.rows * x.cols * sizeof(float));
    clmem_event_release(&p_down[t % 2]);
    p_down[t % 2] = done;
    CLMEM_CHECK(&b->err, clFlush(b->down));
    return settle(job, b->down, &b->err);
}

/* An event's start or end on the device's clock (ns), 0 where unknown. */
static double stamp(cl_event event, cl_profiling_info which)
{
    cl_ulong ns = 0;
    if (!event || clGetEventProfilingInfo(event, which, sizeof ns, &ns, NULL) != CL_SUCCESS)
        return 0.0;
    return (double)ns;
}

/* The sum of the commands' own spans (each start to end), in ms. */
static double spans_ms(const cl_event *events, size_t n)
{
    double ms = 0.0;
    for (size_t i = 0; i < n; i++)
        if (events[i])
            ms += (stamp(events[i], CL_PROFILING_COMMAND_END) -
                   stamp(events[i], CL_PROFILING_COMMAND_START)) *
                  1e-6;
    return ms;
}

/* The run's times from its events (all of one device: one clock), which
 * it then releases. Its first command is M's first chunk up, its first
 * kernel tile 0's, its last kernel and copy down the last tile's. */
static void split_block_times(struct split_block *b)
{
    size_t n_tiles = b->n_row_tiles * b->n_col_tiles, n_ups = b->n_row_tiles + b->n_col_tiles;
    const struct clmem_timing *k0 = &b->tiles[0], *kn = &b->tiles[n_tiles - 1];
    double first_up = stamp(b->ups[0], CL_PROFILING_COMMAND_START),
           first_kernel = stamp(k0->first, CL_PROFILING_COMMAND_START),
           last_kernel = stamp(kn->last ? kn->last : kn->first, CL_PROFILING_COMMAND_END),
           last_down = stamp(b->downs[n_tiles - 1], CL_PROFILING_COMMAND_END);
    b->last.fill = first_up > 0 && first_kernel > first_up ? (first_kernel - first_up) * 1e-6 : 0;
    b->last.drain =
        last_down > last_kernel && last_kernel > 0 ? (last_down - last_kernel) * 1e-6 : 0;
    double span = last_kernel > first_kernel ? (last_kernel - first_kernel) * 1e-6 : 0.0;
    b->last.idle = span > b->last.kernels ? span - b->last.kernels : 0.0;
    b->last.up = spans_ms(b->ups, n_ups);
    b->last.down = spans_ms(b->downs, n_tiles);
    for (size_t i = 0; i < n_ups; i++)
        clmem_event_release(&b->ups[i]);
    for (size_t t = 0; t < n_tiles; t++)
        clmem_event_release(&b->downs[t]);
}

/* One end-to-end run of the block: every tile's kernel enqueued before the
 * copy down of the tile before it, so that where a driver's copy holds the
 * host until it is done a kernel still runs meanwhile. */
static int split_block_run(struct split_job *job, struct split_block *b)
{
    size_t n_tiles = b->n_row_tiles * b->n_col_tiles;
    cl_event n_up[2] = {0}, col_done[2] = {0}, p_down[2] = {0}, *m_up;
    int status = CLMEM_OK;
    if (!(m_up = calloc(b->n_row_tiles, sizeof *m_up)))
        return clmem_fail(&b->err, CLMEM_ERR_CL, "out of host memory");
    memset(&b->last, 0, sizeof b->last);
    for (size_t t = 0; t <= n_tiles && status == CLMEM_OK; t++) {
        if (t < n_tiles)
            status = split_tile_compute(job, b, t, m_up, n_up, col_done, p_down);
        if (status == CLMEM_OK && t > 0)
            status = split_tile_down(job, b, t - 1, p_down);
    }
    /* Every queue drained, even after an error: no copy may outlive the run. */
    cl_int rc[3] = {clFinish(b->up), clFinish(b->run.ctx->queue), clFinish(b->down)};
    for (int i = 0; i < 3 && status == CLMEM_OK; i++)
        if (rc[i] != CL_SUCCESS)
            status = clmem_cl_fail(&b->err, rc[i], "clFinish", __func__, __LINE__);
    for (size_t t = 0; t < n_tiles; t++) {
        double ms = 0.0;
        if (status == CLMEM_OK && b->tiles[t].first &&
            (status = clmem_event_ms(b->tiles[t].first, b->tiles[t].last, &ms, &b->err)) == 0)
            b->last.kernels += ms;
    }
    if (status == CLMEM_OK)
        split_block_times(b);
    for (size_t t = 0; t < n_tiles; t++)
        clmem_timing_release(&b->tiles[t]);
    for (int i = 0; i < 2; i++) {
        clmem_event_release(&n_up[i]);
        clmem_event_release(&col_done[i]);
        clmem_event_release(&p_down[i]);
    }
    for (size_t r = 0; r < b->n_row_tiles; r++)
        clmem_event_release(&m_up[r]);
    free(m_up);
    return status;
}

/* What one device's thread does in each phase. */
static int split_block_step(void *arg, size_t i)
{
    struct split_job *job = arg;
    struct split_block *b = &job->blocks[i];
    struct clmem_run *run = &b->run;
    int status;
    if (b->count == 0)
        return CLMEM_OK;
    switch (job->phase) {
    case SPLIT_SETUP:
        /* The run's own buffers start with the first tile's worth of
         * whatever the inputs hold; every run writes them anew. */
        if ((status = matmul_block_setup(run, job->whole->M + b->first * job->whole->inner,
                                         job->whole->N, 0, &b->err)))
            return status;
        return split_block_setup(b, job->whole);
    case SPLIT_PREPARE: return clmem_workload_matmul.prepare(run, job->variant, &b->err);
    case SPLIT_EXECUTE: return split_block_run(job, b);
    case SPLIT_GATHER:
        memcpy(job->whole->P + b->first * job->whole->cols, b->host_p.host, b->host_p.bytes);
        return CLMEM_OK;
    }
    return CLMEM_OK;
}

/* Runs a phase on every device of the point at once; the worst status,
 * its message in err. */
static int split_phase(struct split_job *job, size_t k, enum split_phase phase,
                       struct clmem_error *err)
{
    int status[64], worst = CLMEM_OK;
    job->phase = phase;
    clmem_parallel(k, split_block_step, job, status);
    for (size_t i = 0; i < k; i++)
        if (clmem_status_worst(worst, status[i]) != worst) {
            worst = status[i];
            clmem_error_clear(err);
            *err = job->blocks[i].err;
            job->blocks[i].err.log = NULL;
        }
    return worst;
}

/* Times one scaling point (its blocks set up) and checks the P that the
 * last timed run brought back. */
static int split_measure(struct split_job *job, size_t k, const struct clmem_split_options *o,
                         struct clmem_result *r, double *slowest_kernel_ms, struct clmem_error *err)
{
    int status;
    unsigned reps = o->reps;
    if ((status = split_phase(job, k, SPLIT_PREPARE, err)))
        return status;
    for (unsigned i = 0; i < o->warmup; i++)
        if ((status = split_phase(job, k, SPLIT_EXECUTE, err)))
            return status;
    if (!(r->samples_ms = clmem_alloc_array(reps, sizeof(double), err)))
        return err->status;
    double *kernel = clmem_alloc_array(reps, sizeof(double), err);
    if (!kernel)
        return err->status;
    struct matmul_problem *w = job->whole;
    for (unsigned i = 0; i < reps; i++) {
        /* Rows no device wrote in the last run stay NaN and fail the check. */
        for (size_t d = 0; i + 1 == reps && d < k; d++) {
            float *p = job->blocks[d].host_p.host;
            for (size_t e = 0; e < job->blocks[d].host_p.bytes / sizeof(float); e++)
                p[e] = NAN;
        }
        /* Host wall time: from before the threads enqueue to after the last
         * device's last copy (thread start and join included). */
        double start = clmem_now_ms();
        if ((status = split_phase(job, k, SPLIT_EXECUTE, err))) {
            free(kernel);
            return status;
        }
        r->samples_ms[r->n_samples++] = clmem_now_ms() - start;
        kernel[i] = 0.0;
        for (size_t d = 0; d < k; d++) {
            struct split_block *b = &job->blocks[d];
            if (!b->count)
                continue;
            if (b->last.kernels > kernel[i])
                kernel[i] = b->last.kernels;
            double *sum = (double *)&b->sum;
            const double *last = (const double *)&b->last;
            for (size_t f = 0; f < sizeof b->sum / sizeof(double); f++)
                sum[f] += last[f];
        }
    }
    *slowest_kernel_ms = clmem_median(kernel, reps);
    free(kernel);
    clmem_result_summarise(r);
    /* Rows of no device stay NaN too. */
    for (size_t e = 0; e < w->rows * w->cols; e++)
        w->P[e] = NAN;
    if ((status = split_phase(job, k, SPLIT_GATHER, err)))
        return status;
    struct clmem_check check;
    matmul_problem_check(w, &check);
    clmem_result_set_check(r, &check);
    return CLMEM_OK;
}

/* The blocks' extra buffers and queues, then their runs. */
static void split_release(struct split_block *blocks, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct split_block *b = &blocks[i];
        clmem_release_mem(&b->dN[1]);
        clmem_release_mem(&b->dP[1]);
        for (size_t r = 1; b->dM && r < b->n_row_tiles; r++)
            clmem_release_mem(&b->dM[r]);
        free(b->dM);
        b->dM = NULL;
        for (size_t t = 0; b->tiles && t < b->n_row_tiles * b->n_col_tiles; t++)
            clmem_timing_release(&b->tiles[t]);
        free(b->tiles);
        b->tiles = NULL;
        for (size_t e = 0; b->ups && e < b->n_row_tiles + b->n_col_tiles; e++)
            clmem_event_release(&b->ups[e]);
        for (size_t e = 0; b->downs && e < b->n_row_tiles * b->n_col_tiles; e++)
            clmem_event_release(&b->downs[e]);
        free(b->ups);
        free(b->downs);
        b->ups = b->downs = NULL;
        clmem_release_queue(&b->up);
        clmem_release_queue(&b->down);
        if (b->run.ctx) {
            clmem_pinned_free(b->run.ctx, &b->host_m);
            clmem_pinned_free(b->run.ctx, &b->host_n);
            clmem_pinned_free(b->run.ctx, &b->host_p);
        }
        clmem_run_release(&b->run);
        clmem_error_clear(&b->err);
    }
}

/* The largest of the devices' mean fills over `reps` runs, in ms. */
static double slowest_fill(const struct split_block *blocks, size_t k, unsigned reps)
{
    double most = 0.0;
    for (size_t d = 0; d < k; d++)
        if (blocks[d].count && blocks[d].sum.fill / reps > most)
            most = blocks[d].sum.fill / reps;
    return most;
}

/* CLMEM_DEBUG=4: where each device's run went, by its events (the mean
 * of the timed runs), one line a device, on stderr. */
static void trace_times(const struct split_block *blocks, size_t k, const char *size,
                        double median_ms, unsigned reps)
{
    if (!clmem_debug_enabled(CLMEM_DEBUG_TIMING))
        return;
    fprintf(stderr,
            "clmem: split over %zu device%s, %s: %.2f ms end to end (median); per device, the "
            "mean of %u timed runs, by its events\n",
            k, k == 1 ? "" : "s", size, median_ms, reps);
    fprintf(stderr,
            "clmem: split device  kernels ms  idle ms  fill ms  drain ms     up ms    up MB  "
            "up GB/s   down ms  down MB  down GB/s\n");
    for (size_t d = 0; d < k; d++) {
        struct split_times t = blocks[d].sum;
        if (!blocks[d].count)
            continue;
        double *v = (double *)&t;
        for (size_t f = 0; f < sizeof t / sizeof(double); f++)
            v[f] /= reps;
        fprintf(stderr,
                "clmem: split %6zu %11.2f %8.2f %8.2f %9.2f %9.2f %8.1f %8.1f %9.2f %8.1f %10.1f\n",
                d + 1, t.kernels, t.idle, t.fill, t.drain, t.up, t.up_bytes * 1e-6,
                t.up > 0 ? t.up_bytes / t.up * 1e-6 : 0.0, t.down, t.down_bytes * 1e-6,
                t.down > 0 ? t.down_bytes / t.down * 1e-6 : 0.0);
    }
}

/* "rows 0-49 | 50-99" (an empty block: "-"). */
static void describe_rows(const struct split_block *blocks, size_t k, char *out, size_t size)
{
    size_t len = (size_t)snprintf(out, size, "rows");
    for (size_t d = 0; d < k && len < size; d++) {
        if (blocks[d].count)
            len += (size_t)snprintf(out + len, size - len, "%s%zu-%zu", d ? " | " : " ",
                                    blocks[d].first, blocks[d].first + blocks[d].count - 1);
        else
            len += (size_t)snprintf(out + len, size - len, "%s-", d ? " | " : " ");
    }
}

/* P's rows at scaling point k: all of them (strong), or k devices' worth (weak). */
static size_t point_rows(const struct clmem_split_options *o, size_t rows_one, size_t rows,
                         size_t k)
{
    return o->weak ? rows_one * k : rows;
}

/* A point's own reference (weak scaling); its inputs are the whole's. */
static void free_reference(struct matmul_problem *point)
{
    free(point->ref_row);
    free(point->ref);
    free(point->ref_magnitude);
    memset(point, 0, sizeof *point);
}

/* The one variant --split runs, or the usage error that says why not. */
static int split_variant(const struct clmem_split_options *o, size_t n,
                         const struct clmem_variant **variant, struct clmem_error *err)
{
    const struct clmem_workload *w = &clmem_workload_matmul;
    const struct clmem_variant *v = o->variant ? clmem_variant_find(w, o->variant) : NULL;
    if (!o->variant || strcmp(o->variant, "all") == 0)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--split runs one variant: name it with --variant (try 'clmem list "
                          "matmul')");
    if (!v)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "unknown variant '%s' of 'matmul' (try 'clmem list matmul')", o->variant);
    if (v->library)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "variant '%s' is a library's routine: --split runs clmem's kernels",
                          v->name);
    if (n == 0 || n > 64)
        return clmem_fail(err, CLMEM_ERR_USAGE, "--split takes 1 to 64 devices, not %zu", n);
    *variant = v;
    return CLMEM_OK;
}

/* Every point's blocks (point k: the first k devices, blocks[k(k-1)/2 ..])
 * planned before any work, so that usage errors come first; skip[k - 1]
 * where the first k weights sum to 0. */
static int split_plan(struct clmem_ctx *ctxs, size_t n, const struct clmem_split_options *o,
                      const struct clmem_variant *v, const struct matmul_problem *whole,
                      size_t rows_one, struct split_block *blocks, int *skip,
                      struct clmem_error *err)
{
    const struct clmem_workload *w = &clmem_workload_matmul;
    size_t first[64], count[64];
    int status;
    if (o->weights && (status = clmem_split_rows(whole->rows, n, o->weights, first, count, err)))
        return status;
    for (size_t k = 1, at = 0; k <= n; at += k, k++) {
        struct clmem_error ignored = {0};
        if (clmem_split_rows(point_rows(o, rows_one, whole->rows, k), k, o->weights, first, count,
                             &ignored)) {
            skip[k - 1] = 1; /* the first k weights sum to 0 */
            continue;
        }
        for (size_t d = 0; d < k; d++) {
            struct split_block *b = &blocks[at + d];
            b->first = first[d];
            b->count = count[d];
            if (!b->count)
                continue;
            b->tile_rows = tile_side(b->count);
            b->tile_cols = tile_side(whole->cols);
            b->n_row_tiles = (b->count + b->tile_rows - 1) / b->tile_rows;
            b->n_col_tiles = (whole->cols + b->tile_cols - 1) / b->tile_cols;
            char block_size[96];
            snprintf(block_size, sizeof block_size, "%zux%zux%zu", b->tile_rows, b->tile_cols,
                     whole->inner);
            struct clmem_run_options ro = {.size = block_size, .variant = v->name, .seed = o->seed};
            if ((status = clmem_run_plan(&b->run, w, &ctxs[d], &ro, err))) {
                char why[sizeof err->message];
                snprintf(why, sizeof why, "%s", err->message);
                return clmem_fail(
                    err, status, "split over %zu devices, rows %zu-%zu on '%s' (tiles of %s): %s",
                    k, b->first, b->first + b->count - 1, ctxs[d].device.name, block_size, why);
            }
        }
    }
    return CLMEM_OK;
}

/* A point's note: end to end, its speedup and efficiency (strong) or its
 * efficiency (weak), what the slowest device's kernels leave of the wall
 * time, and the rows each device took. */
static void split_note(struct clmem_result *r, const struct clmem_split_options *o,
                       const struct split_block *blocks, size_t k, size_t rows_one, double speedup,
                       double slowest_kernel)
{
    char described[96];
    describe_rows(blocks, k, described, sizeof described);
    char *note = r->note;
    size_t len = (size_t)snprintf(note, sizeof r->note, "end to end%s; ",
                                  o->no_overlap ? ", no overlap" : "");
    if (!isnan(speedup) && o->weak)
        len += (size_t)snprintf(note + len, sizeof r->note - len,
                                "weak scaling, %zu rows per device: efficiency %.2f; ", rows_one,
                                speedup);
    else if (!isnan(speedup))
        len += (size_t)snprintf(note + len, sizeof r->note - len, "speedup %.2f, efficiency %.2f; ",
                                speedup, speedup / (double)k);
    /* What the slowest device's kernels leave of the wall time: the
     * transfers (and launches) that no kernel hid. */
    double hidden = r->median_ms > 0 ? slowest_kernel / r->median_ms : 0.0;
    if (len < sizeof r->note)
        len += (size_t)snprintf(note + len, sizeof r->note - len,
                                "kernels %.4g ms, fill %.3g ms, %.0f%% not hidden; %s",
                                slowest_kernel, slowest_fill(blocks, k, o->reps),
                                hidden < 1.0 ? (1.0 - hidden) * 100.0 : 0.0, described);
}

int clmem_matmul_split(struct clmem_ctx *ctxs, size_t n, const struct clmem_split_options *given,
                       struct clmem_result **results, size_t *n_results, struct clmem_error *err)
{
    /* The options as the run takes them: reps's default applied below,
     * with the size's, by the harness. */
    struct clmem_split_options normalised = *given;
    const struct clmem_split_options *o = &normalised;
    const struct clmem_workload *w = &clmem_workload_matmul;
    const struct clmem_variant *v = NULL;
    int status = split_variant(o, n, &v, err);
    if (status)
        return status;

    struct clmem_run_settings settings;
    struct matmul_problem whole = {0}, point = {0};
    status = clmem_run_normalise(
        w, &(struct clmem_run_options){.size = given->size, .reps = given->reps}, &settings, err);
    if (status)
        return status;
    struct clmem_size size = settings.size;
    normalised.reps = settings.options.reps;
    if (size.ndims == 1)
        size.dim[1] = size.dim[2] = size.dim[0];
    else if (size.ndims == 2)
        size.dim[2] = size.dim[1];
    /* Weak scaling: k devices, k times the rows (M's and P's), the same N. */
    size_t rows_one = size.dim[0];
    whole.cols = size.dim[1];
    whole.inner = size.dim[2];
    if (!clmem_mul_size(rows_one, o->weak ? n : 1, &whole.rows) || whole.rows > 2147483647UL)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--weak: %zu rows on each of %zu devices are too many rows", rows_one, n);
    char size_text[64];
    clmem_size_format(&size, size_text, sizeof size_text);

    /* Every point's blocks planned before any work: usage errors first. */
    size_t n_points = n * (n + 1) / 2;
    struct split_block *blocks = calloc(n_points, sizeof *blocks);
    int *skip = calloc(n, sizeof *skip);
    int verify_failed = 0;
    double one_device_ms = NAN;
    if (!blocks || !skip) {
        status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
        goto cleanup;
    }
    if ((status = split_plan(ctxs, n, o, v, &whole, rows_one, blocks, skip, err)))
        goto cleanup;

    /* Weak: the inputs of the largest point; point k's M is its first
     * k * rows_one rows, the same values as a run of that size alone. */
    if ((status = matmul_problem_make(&whole, o->seed, err)))
        goto cleanup;
    for (size_t k = 1, at = 0; k <= n; at += k, k++) {
        /* The point's problem: the whole one, or (weak) its first rows with
         * a reference of their own. */
        struct matmul_problem *problem = &whole;
        size_t rows = point_rows(o, rows_one, whole.rows, k);
        if (rows != whole.rows) {
            point = whole;
            point.rows = rows;
            point.ref_row = NULL;
            point.ref = point.ref_magnitude = NULL;
            if ((status = matmul_problem_reference(&point, err)))
                goto cleanup;
            problem = &point;
        }
        if (o->cancelled && o->cancelled(o->cancelled_user)) {
            status = clmem_fail(err, CLMEM_ERR_INTERRUPTED, "interrupted");
            goto cleanup;
        }
        char device[64], point_size[64];
        snprintf(device, sizeof device, "split over %zu device%s", k, k == 1 ? "" : "s");
        if (o->weak)
            snprintf(point_size, sizeof point_size, "%zux%zux%zu", rows, whole.cols, whole.inner);
        else
            snprintf(point_size, sizeof point_size, "%s", size_text);
        struct clmem_result *r =
            clmem_result_append(results, n_results, w->name, v->name, device, point_size);
        if (!r) {
            status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
            goto cleanup;
        }
        snprintf(r->metric_unit, sizeof r->metric_unit, "%s", w->metric_unit);
        r->reps = o->reps;
        r->warmup = o->warmup;
        r->seed = o->seed;
        /* Of the whole product: the blocks add up to it. */
        r->flops_per_byte = matmul_flops_per_byte(rows, whole.cols, whole.inner);
        if (skip[k - 1]) {
            r->skipped = 1;
            snprintf(r->skip_reason, sizeof r->skip_reason,
                     "the split weights of the first %zu devices sum to 0", k);
            free_reference(&point);
            continue;
        }
        struct split_job job = {v, &blocks[at], problem, SPLIT_SETUP, o->no_overlap};
        double slowest_kernel = 0.0;
        if ((status = split_phase(&job, k, SPLIT_SETUP, err)) ||
            (status = split_measure(&job, k, o, r, &slowest_kernel, err)))
            goto cleanup;
        for (size_t d = 0; d < k; d++)
            if (blocks[at + d].count) {
                snprintf(r->params, sizeof r->params, "%s", blocks[at + d].run.params);
                break;
            }
        double work = 2.0 * (double)rows * (double)whole.cols * (double)whole.inner;
        r->metric = r->median_ms > 0 ? work / (r->median_ms * 1e-3) / 1e9 : NAN;
        /* End to end by the host's clock: a run of many milliseconds. */
        snprintf(r->timer, sizeof r->timer, "host");
        r->runs_per_sample = 1;
        if (k == 1)
            one_device_ms = r->median_ms;
        /* Strong: the speedup t(1)/t(k), efficiency speedup/k; weak: the
         * efficiency t(1)/t(k) itself, the work per device being fixed. */
        double speedup = one_device_ms / r->median_ms;
        if (!isnan(speedup))
            r->baseline_fraction = speedup;
        split_note(r, o, &blocks[at], k, rows_one, speedup, slowest_kernel);
        trace_times(&blocks[at], k, point_size, r->median_ms, o->reps);
        verify_failed |= !r->verified;
        /* This point's programs and buffers go before the next point's. */
        split_release(&blocks[at], k);
        free_reference(&point);
    }
    status = verify_failed ? CLMEM_ERR_VERIFY : CLMEM_OK;

cleanup:
    free_reference(&point);
    if (blocks)
        split_release(blocks, n_points);
    free(blocks);
    free(skip);
    matmul_problem_free(&whole);
    return status;
}
