/* One SUMMA multiplication, piece by piece (summa_internal.h): each piece's parts
 * received (broadcast) or copied from shared memory into a slot's host
 * panels, copied up, multiplied and added into the rank's block of P,
 * SLOTS pieces in flight; then the queues drained and the time counted. */
#include "mpi/summa_internal.h"

#include <math.h>
#include <string.h>

/* The fewest floats one copying thread copies (1 MiB). */
#define COPY_PART ((size_t)1 << 18)

/* Whether this rank sends piece i's part of M (of N) from its block as
 * it is, copied up from there too: it owns the part and the part is as
 * wide as the panel (a narrower one is padded in the host panel). */
static int sends_m_from_block(const struct summa_plan *p, const struct piece *pc,
                              const struct summa_rank *me)
{
    return me->grid_col == pc->m_owner && pc->width == p->panel;
}

static int sends_n_from_block(const struct summa_plan *p, const struct piece *pc,
                              const struct summa_rank *me)
{
    return me->grid_row == pc->n_owner && pc->width == p->panel;
}

/* Where piece i's part of M starts in this rank's block (its owner's). */
static float *m_in_block(const struct piece *pc, const struct summa_rank *me)
{
    return me->M + (pc->first - me->m_k.first);
}

static float *n_in_block(const struct piece *pc, const struct summa_rank *me)
{
    return me->N + (pc->first - me->n_k.first) * me->cols;
}

/* Where piece i's part of M goes up from as it is, *pitch floats a row:
 * this rank's block (it owns the part), or its owner's in pinned shared
 * memory; NULL where it goes up from the host panel (received or copied
 * there, or narrower than the panel: padded there). */
static const float *m_source(const struct summa_plan *p, const struct piece *pc,
                             const struct summa_rank *me, size_t *pitch)
{
    if (pc->width != p->panel)
        return NULL;
    if (me->grid_col == pc->m_owner) {
        *pitch = me->m_k.count;
        return m_in_block(pc, me);
    }
    if (!me->m_shared || !me->pinned)
        return NULL;
    struct span k = p->m_inner[pc->m_owner];
    *pitch = k.count;
    return me->m_from[pc->m_owner] + (pc->first - k.first);
}

/* The same for N's part (rows of this grid column's width). */
static const float *n_source(const struct summa_plan *p, const struct piece *pc,
                             const struct summa_rank *me)
{
    if (pc->width != p->panel)
        return NULL;
    if (me->grid_row == pc->n_owner)
        return n_in_block(pc, me);
    if (!me->n_shared || !me->pinned)
        return NULL;
    struct span k = p->n_inner[pc->n_owner];
    return me->n_from[pc->n_owner] + (pc->first - k.first) * me->cols;
}

/* Posts piece i's broadcasts, from their owners to the grid row (M's) and
 * the grid column (N's), into slot i % SLOTS's host panels (M's into their
 * first columns, N's into their first rows); none for a part copied from
 * shared memory (fetch_piece). An owner sends from its block (MPI takes
 * M's columns as a strided datatype), or from the host panel where the
 * piece is narrower than the panel. */
static void post_piece(const struct summa_plan *p, size_t i, struct summa_rank *me)
{
    const struct piece *pc = &p->pieces[i];
    int slot = (int)(i % SLOTS);
    void *m_buffer = me->m_panel[slot], *n_buffer = me->n_panel[slot];
    me->bcast[slot][0] = me->bcast[slot][1] = MPI_REQUEST_NULL;
    if (!me->m_shared) {
        /* A pending operation keeps its datatype: freeing it here is allowed. */
        MPI_Datatype t;
        if (sends_m_from_block(p, pc, me)) {
            m_buffer = m_in_block(pc, me);
            t = summa_block_type(me->rows, pc->width, me->m_k.count);
        } else {
            if (me->grid_col == pc->m_owner)
                summa_copy_block(me->m_panel[slot], p->panel, m_in_block(pc, me), me->m_k.count,
                                 me->rows, pc->width);
            t = summa_block_type(me->rows, pc->width, p->panel);
        }
        MPI_Ibcast(m_buffer, 1, t, pc->m_owner, me->row_comm, &me->bcast[slot][0]);
        MPI_Type_free(&t);
    }
    if (!me->n_shared) {
        if (sends_n_from_block(p, pc, me))
            n_buffer = n_in_block(pc, me);
        else if (me->grid_row == pc->n_owner)
            memcpy(me->n_panel[slot], n_in_block(pc, me), pc->width * me->cols * sizeof(float));
        MPI_Ibcast(n_buffer, (int)(pc->width * me->cols), MPI_FLOAT, pc->n_owner, me->col_comm,
                   &me->bcast[slot][1]);
    }
}

/* Waits for the copy up that last read a slot's host panels. */
static int wait_uploaded(struct summa_rank *me, int slot, struct summa_times *t,
                         struct clmem_error *err)
{
    double t0 = MPI_Wtime();
    if (me->uploaded[slot])
        CLMEM_CHECK(err, clWaitForEvents(1, &me->uploaded[slot]));
    t->wait += MPI_Wtime() - t0;
    return CLMEM_OK;
}

/* A copy of `rows` rows of `cols` floats, cut into parts (by rows, or a
 * block of memory by its floats), each part on a thread of its own. */
struct copy_job {
    float *dst;
    const float *src;
    size_t dst_pitch, src_pitch, rows, cols, parts;
};

static int copy_whole(const struct copy_job *c)
{
    return c->dst_pitch == c->cols && c->src_pitch == c->cols;
}

static int copy_part(void *arg, size_t i)
{
    const struct copy_job *c = arg;
    if (copy_whole(c)) {
        size_t n = c->rows * c->cols, first = n * i / c->parts, end = n * (i + 1) / c->parts;
        memcpy(c->dst + first, c->src + first, (end - first) * sizeof(float));
        return CLMEM_OK;
    }
    size_t first = c->rows * i / c->parts, end = c->rows * (i + 1) / c->parts;
    summa_copy_block(c->dst + first * c->dst_pitch, c->dst_pitch, c->src + first * c->src_pitch,
                     c->src_pitch, end - first, c->cols);
    return CLMEM_OK;
}

/* Parts of whole rows (any floats of one block of memory), each of at
 * least COPY_PART floats: a thread's start costs more than a smaller copy. */
static void copy_in_parts(struct copy_job *c, size_t threads)
{
    int status[MAX_COPY_THREADS];
    size_t units = c->rows * c->cols / COPY_PART;
    if (!copy_whole(c) && units > c->rows)
        units = c->rows;
    c->parts = units < threads ? units : threads;
    if (c->parts <= 1) {
        c->parts = 1;
        copy_part(c, 0);
        return;
    }
    clmem_parallel(c->parts, copy_part, c, status);
}

/* Piece i's parts that come from shared memory into slot i % SLOTS's
 * host panels, once the slot's last copy up is done: from the owner's
 * block in shared memory, or an owner's own narrow part from its block.
 * None where the part goes up from a block as it is (m_source, n_source:
 * its own, or pinned shared memory). */
static int fetch_piece(const struct summa_plan *p, size_t i, struct summa_rank *me,
                       struct summa_times *t, struct clmem_error *err)
{
    const struct piece *pc = &p->pieces[i];
    int slot = (int)(i % SLOTS), status;
    size_t pitch;
    int m_copy = me->m_shared && !m_source(p, pc, me, &pitch);
    int n_copy = me->n_shared && !n_source(p, pc, me);
    if (!m_copy && !n_copy)
        return CLMEM_OK;
    if ((status = wait_uploaded(me, slot, t, err)))
        return status;
    double t0 = MPI_Wtime();
    if (m_copy) {
        /* The owner's M block: this grid row's rows, its inner chunk's columns. */
        struct span k = p->m_inner[pc->m_owner];
        struct copy_job c = {.dst = me->m_panel[slot],
                             .src = me->m_from[pc->m_owner] + (pc->first - k.first),
                             .dst_pitch = p->panel,
                             .src_pitch = k.count,
                             .rows = me->rows,
                             .cols = pc->width};
        copy_in_parts(&c, me->copy_threads);
    }
    if (n_copy) {
        /* The owner's N block: its inner chunk's rows, this grid column's columns. */
        struct span k = p->n_inner[pc->n_owner];
        struct copy_job c = {.dst = me->n_panel[slot],
                             .src = me->n_from[pc->n_owner] + (pc->first - k.first) * me->cols,
                             .dst_pitch = me->cols,
                             .src_pitch = me->cols,
                             .rows = pc->width,
                             .cols = me->cols};
        copy_in_parts(&c, me->copy_threads);
    }
    t->copy += MPI_Wtime() - t0;
    return CLMEM_OK;
}

/* A piece narrower than the panel is zero-padded (M's extra columns, N's
 * extra rows), which adds exactly nothing. */
static void pad_piece(const struct summa_plan *p, size_t i, struct summa_rank *me)
{
    size_t width = p->pieces[i].width;
    int slot = (int)(i % SLOTS);
    if (width == p->panel)
        return;
    for (size_t r = 0; r < me->rows; r++)
        memset(me->m_panel[slot] + r * p->panel + width, 0, (p->panel - width) * sizeof(float));
    memset(me->n_panel[slot] + width * me->cols, 0, (p->panel - width) * me->cols * sizeof(float));
}

/* Piece i on the device: its panels up (after the kernels of piece i - SLOTS,
 * which read the same device panels), then T = M piece x N piece with the
 * matmul kernel and P (+)= T (after the copies). The first piece stores T
 * rather than adding it: P needs no clearing pass of its own. */
static int enqueue_piece(const struct summa_plan *p, size_t i, struct summa_rank *me,
                         struct clmem_error *err)
{
    struct clmem_ctx *ctx = me->run.ctx;
    int slot = (int)(i % SLOTS), status;
    const struct piece *pc = &p->pieces[i];
    size_t m_bytes = me->rows * p->panel * sizeof(float),
           n_bytes = p->panel * me->cols * sizeof(float);
    struct clmem_block m = {me->dM[slot], me->m_panel[slot], 1, m_bytes, m_bytes, m_bytes};
    struct clmem_block n = {me->dN[slot], me->n_panel[slot], 1, n_bytes, n_bytes, n_bytes};
    size_t pitch;
    const float *m_from = m_source(p, pc, me, &pitch), *n_from = n_source(p, pc, me);
    if (m_from)
        m = (struct clmem_block){me->dM[slot],
                                 (void *)m_from,
                                 me->rows,
                                 p->panel * sizeof(float),
                                 p->panel * sizeof(float),
                                 pitch * sizeof(float)};
    if (n_from)
        n.host = (void *)n_from;
    /* The queue is in order: N's copy ends after M's. */
    cl_event *ups = &me->ups[2 * i], done;
    if ((status = clmem_enqueue_block(me->up, 1, &m, &me->multiplied[slot], 1, &ups[0], err)) ||
        (status = clmem_enqueue_block(me->up, 1, &n, &me->multiplied[slot], 1, &ups[1], err)))
        return status;
    done = ups[1];
    clmem_event_keep(&me->uploaded[slot], done);
    CLMEM_CHECK(err, clFlush(me->up));
    cl_uint cells = (cl_uint)(me->rows * me->cols), store = i == 0;
    /* On a GPU a work-item per float; on a CPU a few groups per compute
     * unit, each item looping (cl/summa.cl says why). */
    size_t local = clmem_pick_group(&ctx->device, CLMEM_GROUP_SIZE), global = cells;
    if ((ctx->device.type & CL_DEVICE_TYPE_CPU) && global > 8 * ctx->device.compute_units * local)
        global = 8 * ctx->device.compute_units * local;
    global = clmem_round_up(global, local);
    struct clmem_timing *k = &me->kernels[i];
    if ((status = clmem_queue_wait(ctx->queue, &done, 1, err)) ||
        (status = matmul_block_launch(&me->run, p->variant, me->dM[slot], me->dN[slot], me->product,
                                      k, err)) ||
        (status = clmem_kernel_args(me->accumulate, err, CLMEM_ARG(me->dP), CLMEM_ARG(me->product),
                                    CLMEM_ARG(cells), CLMEM_ARG(store))) ||
        (status = clmem_launch(ctx, me->accumulate, 1, &global, &local, k, err)))
        return status;
    clmem_event_keep(&me->multiplied[slot], k->last ? k->last : k->first);
    CLMEM_CHECK(err, clFlush(ctx->queue));
    return CLMEM_OK;
}

/* Waits for a piece's copies and kernels (--no-overlap). */
static int finish_piece(struct summa_rank *me, struct summa_times *t, struct clmem_error *err)
{
    double t0 = MPI_Wtime();
    CLMEM_CHECK(err, clFinish(me->up));
    CLMEM_CHECK(err, clFinish(me->run.ctx->queue));
    t->wait += MPI_Wtime() - t0;
    return CLMEM_OK;
}

/* The seconds of the commands of `events` (n of them, each its own span),
 * releasing them; NULL ones count nothing. */
static int event_seconds(cl_event *events, size_t n, int status, double *seconds,
                         struct clmem_error *err)
{
    for (size_t i = 0; i < n; i++) {
        double ms = 0.0;
        if (status == CLMEM_OK && events[i] &&
            (status = clmem_event_ms(events[i], NULL, &ms, err)) == CLMEM_OK)
            *seconds += ms * 1e-3;
        clmem_event_release(&events[i]);
    }
    return status;
}

/* Both queues drained, even after an error; the device's seconds of
 * kernels and of copies up summed from the pieces' events. */
static int drain(const struct summa_plan *p, struct summa_rank *me, int status,
                 struct summa_times *t, struct clmem_error *err)
{
    double t0 = MPI_Wtime();
    cl_int rc[2] = {clFinish(me->up), clFinish(me->run.ctx->queue)};
    t->wait += MPI_Wtime() - t0;
    for (int i = 0; i < 2 && status == CLMEM_OK; i++)
        if (rc[i] != CL_SUCCESS)
            status = clmem_cl_fail(err, rc[i], "clFinish", __func__, __LINE__);
    /* The pieces' kernels run one after another on the in-order queue. */
    const struct clmem_timing *first = &me->kernels[0], *last = &me->kernels[p->n_pieces - 1];
    double span_ms = 0.0;
    if (status == CLMEM_OK && first->first && last->first)
        status = clmem_event_ms(first->first, last->last ? last->last : last->first, &span_ms, err);
    for (size_t i = 0; i < p->n_pieces; i++) {
        double ms = 0.0;
        if (status == CLMEM_OK && me->kernels[i].first &&
            (status = clmem_event_ms(me->kernels[i].first, me->kernels[i].last, &ms, err)) == 0)
            t->kernels += ms * 1e-3;
        clmem_timing_release(&me->kernels[i]);
    }
    t->idle = span_ms * 1e-3 > t->kernels ? span_ms * 1e-3 - t->kernels : 0.0;
    status = event_seconds(me->ups, 2 * p->n_pieces, status, &t->up, err);
    if (!me->events_ok)
        t->kernels = t->idle = t->up = NAN;
    for (int i = 0; i < SLOTS; i++) {
        clmem_event_release(&me->uploaded[i]);
        clmem_event_release(&me->multiplied[i]);
    }
    return status;
}

/* The bytes of piece i that reach this rank from others, and that go up. */
static void count_bytes(const struct summa_plan *p, size_t i, const struct summa_rank *me,
                        struct summa_times *t)
{
    const struct piece *pc = &p->pieces[i];
    if (me->grid_col != pc->m_owner)
        t->bytes_in += (double)(me->rows * pc->width * sizeof(float));
    if (me->grid_row != pc->n_owner)
        t->bytes_in += (double)(pc->width * me->cols * sizeof(float));
    t->bytes_up += (double)((me->rows + me->cols) * p->panel * sizeof(float));
}

/* One multiplication, every piece in order. Piece i's parts arrive
 * (broadcasts waited for, shared ones copied), then go on the device's
 * queues; piece i + SLOTS - 1's broadcasts are posted next, into the slot
 * of piece i - 1 once its copy up is done, so that they go on while the
 * device works (they progress while this rank waits for the next piece).
 * *t gets where the time went (all but wall). With no_overlap each
 * piece's work is waited for before the next piece starts. A rank whose
 * device fails keeps taking part in every broadcast, so that no rank waits
 * for it forever, and only skips its device work: the ranks agree on the
 * status after the multiplication (this replaces an MPI_Abort on the
 * first OpenCL error). */
int summa_multiply(const struct summa_plan *p, struct summa_rank *me, int no_overlap,
                   struct summa_times *t, struct clmem_error *err)
{
    int status = CLMEM_OK;
    size_t ahead = no_overlap ? 1 : SLOTS - 1;
    memset(t, 0, sizeof *t);
    for (int slot = 0; slot < SLOTS; slot++)
        me->bcast[slot][0] = me->bcast[slot][1] = MPI_REQUEST_NULL;
    for (size_t j = 0; j < ahead && j < p->n_pieces; j++)
        post_piece(p, j, me);
    for (size_t i = 0; i < p->n_pieces; i++) {
        int slot = (int)(i % SLOTS);
        double t0 = MPI_Wtime();
        MPI_Waitall(2, me->bcast[slot], MPI_STATUSES_IGNORE);
        t->bcast += MPI_Wtime() - t0;
        count_bytes(p, i, me, t);
        if (status == CLMEM_OK)
            status = fetch_piece(p, i, me, t, err);
        if (status == CLMEM_OK) {
            pad_piece(p, i, me);
            status = enqueue_piece(p, i, me, err);
        }
        if (status == CLMEM_OK && no_overlap)
            status = finish_piece(me, t, err);
        /* Nothing to post where both parts come from shared memory. */
        size_t next = i + ahead;
        if (next >= p->n_pieces || (me->m_shared && me->n_shared))
            continue;
        /* Its slot is that of piece next - SLOTS: free once that one's copy up is done. */
        if (status == CLMEM_OK)
            status = wait_uploaded(me, (int)(next % SLOTS), t, err);
        else
            clFinish(me->up);
        post_piece(p, next, me);
    }
    return drain(p, me, status, t, err);
}
