/* SUMMA (van de Geijn & Watts, "SUMMA: scalable universal matrix
 * multiplication algorithm", 1997): P = M x N over a grid of MPI ranks, a
 * device each (clmem_summa, src/mpi/job.h). Each rank owns a block of
 * P, of M and of N. For each piece of the inner dimension the owner of M's
 * piece broadcasts it along its grid row and the owner of N's along its grid
 * column; every rank multiplies the two on its device with one of matmul's
 * kernels (an ordinary matmul run whose inputs are borrowed, as
 * matmul_split.c does) and adds the product into its block of P there.
 * Pipelined: while the device multiplies piece i, the next pieces are
 * exchanged and copied up (a queue of its own, into other device panels).
 * Where a grid row's ranks share a host, M's pieces are not broadcast:
 * each rank copies them up from the owner's block in shared memory
 * (MPI_Win_allocate_shared), pinned for the device where the driver pins
 * memory it did not allocate (pin_window), else copied on the host into
 * pinned panels first, with a few threads; likewise N's along a grid
 * column. Elsewhere they are broadcast (MPI_Ibcast). The pieces take their
 * owners in turn, so that no rank receives a long run of them. */
#include "harness/harness.h"
#include "mpi/ranks.h"

#include "workloads/matmul.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The panel width when none is given: wide enough for the kernels' tiles
 * and few broadcasts, narrow enough that the panels stay small beside the
 * blocks. */
#define DEFAULT_PANEL 256

/* Pieces in flight: piece i's host and device panels are slot i % SLOTS,
 * so while the device multiplies piece i, pieces up to i + SLOTS - 1 are
 * exchanged and copied up. Three absorb a piece that takes longer to
 * arrive than one to multiply (a rank receiving both M's and N's), as
 * long as its neighbours take less. */
#define SLOTS 3

/* The most threads copying a piece from shared memory on a rank, and the
 * fewest floats one of them copies (1 MiB). */
#define MAX_COPY_THREADS 4
#define COPY_PART        ((size_t)1 << 18)

enum { TAG_M = 1, TAG_N, TAG_P };

/* Where one multiplication's time went on a rank, in seconds (bytes for
 * the last two): summed over the timed runs, gathered on rank 0 for the
 * note and the CLMEM_DEBUG=4 trace. Only doubles: it travels as an array. */
struct summa_times {
    double wall;    /* the rank's own time, from the barrier to its last piece's end */
    double kernels; /* its device's kernels (their events) */
    double idle;  /* its device between its first kernel's start and last one's end, less kernels */
    double up;    /* its device's copies of the panels up (their events) */
    double bcast; /* the host waiting for broadcasts (MPI_Waitall) */
    double copy;  /* the host copying panels on the host */
    double wait;  /* the host waiting for its device: a panel still in use, the last piece */
    double bytes_in; /* panel bytes that came from other ranks */
    double bytes_up; /* panel bytes copied up */
};
#define N_TIMES (sizeof(struct summa_times) / sizeof(double))

/* A contiguous range of rows, columns or inner indices. */
struct span {
    size_t first, count;
};

/* One step of the panel loop: inner indices [first, first + width), inside
 * one panel, one of M's inner chunks (held by grid column m_owner) and one
 * of N's (held by grid row n_owner), so each piece has one sender each way. */
struct piece {
    size_t first, width;
    int m_owner, n_owner;
};

/* What every rank knows alike: the problem, the grid and how both are cut. */
struct summa_plan {
    const struct clmem_variant *variant;
    struct matmul_problem whole; /* on rank 0: the inputs, P gathered, the reference */
    char size_text[64];
    unsigned reps; /* the run's, its default applied */
    size_t rows, cols, inner, panel;
    int grid_rows, grid_cols;
    struct span *p_rows;  /* P's (and M's) rows of each grid row */
    struct span *p_cols;  /* P's (and N's) columns of each grid column */
    struct span *m_inner; /* M's inner columns held by each grid column */
    struct span *n_inner; /* N's inner rows held by each grid row */
    struct piece *pieces;
    size_t n_pieces;
};

/* One rank's part of the work. */
struct summa_rank {
    int grid_row, grid_col;
    MPI_Comm row_comm, col_comm; /* its rank in row_comm is grid_col, in col_comm grid_row */
    size_t rows, cols;           /* its block of P */
    struct span m_k, n_k;        /* its inner chunk of M (columns) and of N (rows) */
    float *M, *N, *P;            /* its blocks: rows x m_k.count, n_k.count x cols, rows x cols */
    struct clmem_pinned m_block, n_block; /* M and N, pinned: copied up as they are */
    /* SLOTS of each, piece i in [i % SLOTS]: on the host, received into
     * (rows x panel and panel x cols, zero-padded; pinned, so that their
     * copies up need no staging); on the device, the run's inputs ([0] the
     * run's own). */
    struct clmem_pinned m_pinned[SLOTS], n_pinned[SLOTS];
    float *m_panel[SLOTS], *n_panel[SLOTS];
    cl_mem dM[SLOTS], dN[SLOTS];
    cl_mem product;              /* the run's own P: each piece's product, accumulated into dP */
    MPI_Request bcast[SLOTS][2]; /* the pieces' broadcasts of M and of N */
    cl_command_queue up;         /* the panels' copies to the device */
    cl_event uploaded[SLOTS];    /* a slot's last copy up: its host panels are free after it */
    cl_event multiplied[SLOTS];  /* a slot's last kernels: its device panels are free after them */
    /* M's pieces (m_shared) and N's (n_shared) copied from their owners'
     * blocks in shared memory rather than broadcast: the grid row's (the
     * grid column's) ranks share this host. The window holds each rank's
     * M then N block; m_from[c] is grid column c's M block (in this grid
     * row), n_from[r] grid row r's N block (in this grid column). */
    int m_shared, n_shared;
    MPI_Win window;
    const float **m_from, **n_from;
    /* m_from's and n_from's blocks pinned (pin_window): a buffer over each
     * (none over the rank's own), never used in a command; pinned, whether
     * all were made, so that pieces go up from there. */
    cl_mem *m_pins, *n_pins;
    int pinned;
    size_t copy_threads;
    int *shared_all;              /* on rank 0, every rank's m_shared, n_shared and pinned */
    struct clmem_timing *kernels; /* each piece's multiply and accumulate */
    cl_event *ups;                /* each piece's two copies up, the current run */
    struct clmem_run run;         /* matmul rows x cols x panel; its dP takes each product */
    cl_program program;
    cl_kernel accumulate;
    cl_mem dP;               /* the rank's block of P */
    struct summa_times sum;  /* over the timed runs */
    struct summa_times *all; /* on rank 0, every rank's sum (gather_times) */
    double read_p;           /* seconds to read P back after the timed runs (not timed) */
    /* Its device's event times pass the clock check (clmem_clock_check):
     * else kernels, idle and copies up are not measured (NaN; llvmpipe's
     * events read 0 for every command). */
    int events_ok;
};

/* The variant: one of matmul's kernels, named. */
static int check_variant(const char *name, const struct clmem_variant **v, struct clmem_error *err)
{
    const struct clmem_workload *w = &clmem_workload_matmul;
    if (!name || strcmp(name, "all") == 0)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "SUMMA runs one variant: name it with --variant (try 'clmem list "
                          "matmul')");
    if (!(*v = clmem_variant_find(w, name)))
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "unknown variant '%s' of 'matmul' (try 'clmem list matmul')", name);
    if ((*v)->library)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "variant '%s' is a library's routine: SUMMA runs clmem's kernels",
                          (*v)->name);
    return CLMEM_OK;
}

/* The grid: as given, or the squarest factorisation of the ranks (rows <=
 * cols), whose broadcasts carry the fewest words per rank. */
static int check_grid(const struct clmem_mpi *m, const struct clmem_summa_options *o,
                      struct summa_plan *p, struct clmem_error *err)
{
    if (o->grid_rows == 0 && o->grid_cols == 0) {
        p->grid_rows = 1;
        for (int d = 1; (long long)d * d <= m->size; d++)
            if (m->size % d == 0)
                p->grid_rows = d;
        p->grid_cols = m->size / p->grid_rows;
        return CLMEM_OK;
    }
    if (o->grid_rows <= 0 || o->grid_cols <= 0)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "grid %dx%d: give rows and columns, each at least 1 (or neither, for "
                          "the squarest grid of the ranks)",
                          o->grid_rows, o->grid_cols);
    if ((long long)o->grid_rows * o->grid_cols != m->size)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "grid %dx%d has %lld places but %d ranks run: rows x columns must be "
                          "the number of ranks (mpirun -n)",
                          o->grid_rows, o->grid_cols, (long long)o->grid_rows * o->grid_cols,
                          m->size);
    p->grid_rows = o->grid_rows;
    p->grid_cols = o->grid_cols;
    return CLMEM_OK;
}

/* Usage errors, from the options and the number of ranks alone, so every
 * rank finds the same ones before any allocation or communication. */
static int check_options(const struct clmem_mpi *m, const struct clmem_summa_options *o,
                         struct summa_plan *p, struct clmem_error *err)
{
    const struct clmem_workload *w = &clmem_workload_matmul;
    /* The whole size, planned as a run of it would be (matmul's limits). */
    struct clmem_run whole = {.workload = w};
    struct clmem_run_settings settings;
    int status;
    if ((status = check_variant(o->variant, &p->variant, err)) ||
        (status = clmem_run_normalise(
             w, &(struct clmem_run_options){.size = o->size, .reps = o->reps}, &settings, err)))
        return status;
    whole.size = settings.size;
    p->reps = settings.options.reps;
    if ((status = w->plan(&whole, err)) || (status = check_grid(m, o, p, err)))
        return status;
    p->rows = p->whole.rows = whole.size.dim[0];
    p->cols = p->whole.cols = whole.size.dim[1];
    p->inner = p->whole.inner = whole.size.dim[2];
    clmem_size_format(&whole.size, p->size_text, sizeof p->size_text);
    /* An empty block of P would leave a rank with nothing to multiply. */
    if ((size_t)p->grid_rows > p->rows || (size_t)p->grid_cols > p->cols)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "grid %dx%d is larger than P (%zu x %zu) at size '%s': every rank needs "
                          "a block of P",
                          p->grid_rows, p->grid_cols, p->rows, p->cols, p->size_text);
    if (o->panel > p->inner)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "panel %zu is wider than the inner dimension %zu at size '%s'", o->panel,
                          p->inner, p->size_text);
    p->panel = o->panel ? o->panel : p->inner < DEFAULT_PANEL ? p->inner : DEFAULT_PANEL;
    return CLMEM_OK;
}

/* `n` items in `parts` contiguous spans, as clmem_split_rows cuts them. */
static int split_spans(size_t n, int parts, struct span **spans, struct clmem_error *err)
{
    size_t k = (size_t)parts;
    size_t *first = clmem_alloc_array(2 * k, sizeof *first, err);
    int status = first && (*spans = clmem_alloc_array(k, sizeof **spans, err))
                     ? clmem_split_rows(n, k, NULL, first, first + k, err)
                     : err->status;
    for (size_t i = 0; status == CLMEM_OK && i < k; i++)
        (*spans)[i] = (struct span){first[i], first[k + i]};
    free(first);
    return status;
}

/* The end of the chunk holding inner index `at`, and which one it is. */
static size_t chunk_end(const struct span *chunks, int n, size_t at, int *owner)
{
    for (int i = 0; i < n; i++)
        if (at >= chunks[i].first && at < chunks[i].first + chunks[i].count) {
            *owner = i;
            return chunks[i].first + chunks[i].count;
        }
    return at; /* not reached: the chunks cover [0, inner) */
}

/* The pieces in the order they are multiplied: a run of consecutive
 * pieces with the same owners is a segment; the order takes every
 * segment's first piece, then every segment's second, and so on. In
 * inner order a rank that owns neither part of a segment would receive
 * both at every piece of it, its neighbours none; in turns each rank's
 * share evens out over the pieces in flight, and the owners of
 * consecutive pieces send at once. */
static int take_turns(struct summa_plan *p, struct clmem_error *err)
{
    size_t n = p->n_pieces, *start = clmem_alloc_array(n + 1, sizeof *start, err), segments = 0;
    struct piece *order = start ? clmem_alloc_array(n, sizeof *order, err) : NULL;
    if (!order) {
        free(start);
        return err->status;
    }
    for (size_t i = 0; i < n; i++)
        if (i == 0 || p->pieces[i].m_owner != p->pieces[i - 1].m_owner ||
            p->pieces[i].n_owner != p->pieces[i - 1].n_owner)
            start[segments++] = i;
    start[segments] = n;
    size_t taken = 0;
    for (size_t turn = 0; taken < n; turn++)
        for (size_t s = 0; s < segments; s++)
            if (start[s] + turn < start[s + 1])
                order[taken++] = p->pieces[start[s] + turn];
    free(p->pieces);
    p->pieces = order;
    free(start);
    return CLMEM_OK;
}

/* The pieces: [0, inner) cut at every panel boundary and at every chunk
 * boundary of M and of N (the sorted union of the three), in turns. */
static int cut_pieces(struct summa_plan *p, struct clmem_error *err)
{
    size_t most =
        (p->inner + p->panel - 1) / p->panel + (size_t)p->grid_rows + (size_t)p->grid_cols;
    if (!(p->pieces = clmem_alloc_array(most, sizeof *p->pieces, err)))
        return err->status;
    for (size_t at = 0; at < p->inner;) {
        struct piece *pc = &p->pieces[p->n_pieces++];
        size_t end = (at / p->panel + 1) * p->panel, m_end, n_end;
        m_end = chunk_end(p->m_inner, p->grid_cols, at, &pc->m_owner);
        n_end = chunk_end(p->n_inner, p->grid_rows, at, &pc->n_owner);
        end = end < m_end ? end : m_end;
        end = end < n_end ? end : n_end;
        end = end < p->inner ? end : p->inner;
        pc->first = at;
        pc->width = end - at;
        at = end;
    }
    return take_turns(p, err);
}

/* How the problem is cut over the grid, alike on every rank. */
static int cut_problem(struct summa_plan *p, struct clmem_error *err)
{
    int status;
    if ((status = split_spans(p->rows, p->grid_rows, &p->p_rows, err)) ||
        (status = split_spans(p->cols, p->grid_cols, &p->p_cols, err)) ||
        (status = split_spans(p->inner, p->grid_cols, &p->m_inner, err)) ||
        (status = split_spans(p->inner, p->grid_rows, &p->n_inner, err)))
        return status;
    return cut_pieces(p, err);
}

/* The rank's block and its matmul run of rows x cols x panel, planned on
 * its device (a textbook kernel may refuse the block's size there). */
static int plan_rank(const struct clmem_mpi *m, struct clmem_ctx *ctx,
                     const struct clmem_summa_options *o, const struct summa_plan *p,
                     struct summa_rank *me, struct clmem_error *err)
{
    me->grid_row = m->rank / p->grid_cols;
    me->grid_col = m->rank % p->grid_cols;
    me->rows = p->p_rows[me->grid_row].count;
    me->cols = p->p_cols[me->grid_col].count;
    me->m_k = p->m_inner[me->grid_col];
    me->n_k = p->n_inner[me->grid_row];
    char block[96];
    snprintf(block, sizeof block, "%zux%zux%zu", me->rows, me->cols, p->panel);
    struct clmem_run_options ro = {.size = block, .variant = p->variant->name, .seed = o->seed};
    int status = clmem_run_plan(&me->run, &clmem_workload_matmul, ctx, &ro, err);
    if (status) {
        char why[sizeof err->message];
        snprintf(why, sizeof why, "%s", err->message);
        clmem_fail(err, status, "SUMMA block %s of rank %d on '%s': %s", block, m->rank,
                   ctx->device.name, why);
    }
    return status;
}

/* The accumulation kernel (cl/summa.cl), and the rank's block of P. */
static int build_accumulate(struct clmem_ctx *ctx, struct summa_rank *me, struct clmem_error *err)
{
    int status;
    if ((status = clmem_buffer_create(ctx, CL_MEM_READ_WRITE, me->rows * me->cols * sizeof(float),
                                      NULL, &me->dP, err)) ||
        (status = clmem_program_build(ctx, "summa.cl", "", &me->program, err)) ||
        (status = clmem_kernel_create(me->program, "summa.cl", "accumulate", &me->accumulate, err)))
        return status;
    /* NaN until the first piece stores: an element never written fails the check. */
    return clmem_buffer_poison(ctx, me->dP, me->rows * me->cols * sizeof(float), err);
}

/* Host blocks, panels and samples; the matmul run set up on the borrowed
 * panels; the accumulation kernel. Rank 0 also makes the whole problem. */
static int setup_rank(const struct clmem_mpi *m, struct clmem_ctx *ctx,
                      const struct clmem_summa_options *o, struct summa_plan *p,
                      struct summa_rank *me, struct clmem_error *err)
{
    int status;
    size_t m_bytes = me->rows * p->panel * sizeof(float),
           n_bytes = p->panel * me->cols * sizeof(float);
    size_t m_elems = me->rows * me->m_k.count, n_elems = me->n_k.count * me->cols;
    if ((status = clmem_pinned_alloc(ctx, m_elems * sizeof(float), &me->m_block, err)) ||
        (status = clmem_pinned_alloc(ctx, n_elems * sizeof(float), &me->n_block, err)))
        return status;
    me->M = me->m_block.host;
    me->N = me->n_block.host;
    if (!(me->P = clmem_alloc_array(me->rows * me->cols, sizeof(float), err)) ||
        !(me->kernels = clmem_alloc_array(p->n_pieces, sizeof *me->kernels, err)) ||
        !(me->ups = clmem_alloc_array(2 * p->n_pieces, sizeof *me->ups, err)))
        return err->status;
    for (int i = 0; i < SLOTS; i++) {
        if ((status = clmem_pinned_alloc(ctx, m_bytes, &me->m_pinned[i], err)) ||
            (status = clmem_pinned_alloc(ctx, n_bytes, &me->n_pinned[i], err)))
            return status;
        me->m_panel[i] = me->m_pinned[i].host;
        me->n_panel[i] = me->n_pinned[i].host;
    }
    memset(me->kernels, 0, p->n_pieces * sizeof *me->kernels);
    memset(me->ups, 0, 2 * p->n_pieces * sizeof *me->ups);
    if (!(me->m_from = clmem_alloc_array((size_t)p->grid_cols, sizeof *me->m_from, err)) ||
        !(me->n_from = clmem_alloc_array((size_t)p->grid_rows, sizeof *me->n_from, err)))
        return err->status;
    if (m->rank == 0 &&
        (!(me->all = clmem_alloc_array((size_t)m->size, sizeof *me->all, err)) ||
         !(me->shared_all = clmem_alloc_array(3 * (size_t)m->size, sizeof(int), err))))
        return err->status;
    /* Threads to copy pieces from shared memory: the host's cores shared
     * among its ranks, at least two. */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    me->copy_threads = cores > 0 ? (size_t)cores / (size_t)m->local_size : 1;
    me->copy_threads = me->copy_threads < 2                  ? 2
                       : me->copy_threads > MAX_COPY_THREADS ? MAX_COPY_THREADS
                                                             : me->copy_threads;
    /* Each piece fills the panels whole; zeros until then (setup copies them). */
    for (int i = 0; i < SLOTS; i++) {
        memset(me->m_panel[i], 0, m_bytes);
        memset(me->n_panel[i], 0, n_bytes);
    }
    if (m->rank == 0 && (status = matmul_problem_make(&p->whole, o->seed, err)))
        return status;
    /* The run's inputs are the panels, written anew for each piece; its P
     * takes each product, which the accumulation kernel reads. */
    if ((status =
             matmul_block_setup(&me->run, me->m_panel[0], me->n_panel[0], CL_MEM_READ_WRITE, err)))
        return status;
    matmul_block_buffers(&me->run, &me->dM[0], &me->dN[0], &me->product);
    for (int i = 1; i < SLOTS; i++)
        if ((status = clmem_buffer_create(ctx, CL_MEM_READ_ONLY, m_bytes, me->m_panel[i],
                                          &me->dM[i], err)) ||
            (status = clmem_buffer_create(ctx, CL_MEM_READ_ONLY, n_bytes, me->n_panel[i],
                                          &me->dN[i], err)))
            return status;
    if ((status = clmem_queue_open(ctx, &me->up, err)))
        return status;
    return build_accumulate(ctx, me, err);
}

/* A rows x cols block of a row-major matrix `pitch` floats wide, as one
 * MPI datatype (the caller frees it). Each matrix has at most INT_MAX
 * elements (matmul's plan), so the counts fit an int. */
static MPI_Datatype block_type(size_t rows, size_t cols, size_t pitch)
{
    MPI_Datatype t;
    MPI_Type_vector((int)rows, (int)cols, (int)pitch, MPI_FLOAT, &t);
    MPI_Type_commit(&t);
    return t;
}

static void copy_block(float *dst, size_t dst_pitch, const float *src, size_t src_pitch,
                       size_t rows, size_t cols)
{
    for (size_t r = 0; r < rows; r++)
        memcpy(dst + r * dst_pitch, src + r * src_pitch, cols * sizeof(float));
}

/* Rank 0's block of a whole matrix to rank `to` (its own by a copy). */
static void send_block(const struct clmem_mpi *m, int to, int tag, const float *whole, size_t pitch,
                       size_t rows, size_t cols, float *mine)
{
    if (rows * cols == 0)
        return;
    if (to == 0) {
        copy_block(mine, cols, whole, pitch, rows, cols);
        return;
    }
    MPI_Datatype t = block_type(rows, cols, pitch);
    MPI_Send(whole, 1, t, to, tag, m->world);
    MPI_Type_free(&t);
}

/* Rank 0 deals out the blocks of M and N; each rank keeps only its own. */
static void scatter_inputs(const struct clmem_mpi *m, const struct summa_plan *p,
                           struct summa_rank *me)
{
    if (m->rank != 0) {
        if (me->m_k.count)
            MPI_Recv(me->M, (int)(me->rows * me->m_k.count), MPI_FLOAT, 0, TAG_M, m->world,
                     MPI_STATUS_IGNORE);
        if (me->n_k.count)
            MPI_Recv(me->N, (int)(me->n_k.count * me->cols), MPI_FLOAT, 0, TAG_N, m->world,
                     MPI_STATUS_IGNORE);
        return;
    }
    const struct matmul_problem *whole = &p->whole;
    for (int r = 0; r < m->size; r++) {
        struct span rows = p->p_rows[r / p->grid_cols], cols = p->p_cols[r % p->grid_cols];
        struct span mk = p->m_inner[r % p->grid_cols], nk = p->n_inner[r / p->grid_cols];
        send_block(m, r, TAG_M, whole->M + rows.first * p->inner + mk.first, p->inner, rows.count,
                   mk.count, me->M);
        send_block(m, r, TAG_N, whole->N + nk.first * p->cols + cols.first, p->cols, nk.count,
                   cols.count, me->N);
    }
}

/* Whether every rank of `comm` is on this host. */
static int on_this_host(MPI_Comm comm)
{
    MPI_Comm host;
    int size, on_host;
    MPI_Comm_size(comm, &size);
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
    MPI_Comm_size(host, &on_host);
    MPI_Comm_free(&host);
    return on_host == size;
}

/* Whether the ranks of a host may exchange pieces through shared memory:
 * yes unless CLMEM_SUMMA_EXCHANGE=mpi on any rank (broadcasts everywhere,
 * to compare the two). */
static int sharing_allowed(const struct clmem_mpi *m)
{
    const char *env = getenv("CLMEM_SUMMA_EXCHANGE");
    int mine = !(env && strcmp(env, "mpi") == 0), all;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, m->world);
    return all;
}

/* The start of world rank `rank`'s part of the window. */
static const float *shared_part(const struct clmem_mpi *m, MPI_Win window, int rank)
{
    MPI_Group world, local;
    int on_host;
    MPI_Comm_group(m->world, &world);
    MPI_Comm_group(m->local, &local);
    MPI_Group_translate_ranks(world, 1, &rank, local, &on_host);
    MPI_Group_free(&world);
    MPI_Group_free(&local);
    MPI_Aint size;
    int unit;
    float *base = NULL;
    MPI_Win_shared_query(window, on_host, &size, &unit, &base);
    return base;
}

/* Collective: where a grid row's ranks (a grid column's) share a host,
 * each rank's M block (N block) in a window of shared memory on that
 * host, its readers' pointers to it set. The blocks stay as they are for
 * the rest of the run: one synchronisation here is all it takes. */
static void share_blocks(const struct clmem_mpi *m, const struct summa_plan *p,
                         struct summa_rank *me)
{
    if (!sharing_allowed(m))
        return;
    me->m_shared = on_this_host(me->row_comm);
    me->n_shared = on_this_host(me->col_comm);
    /* Both blocks where either is shared, so that N's offset is known to its readers. */
    size_t m_elems = me->rows * me->m_k.count, n_elems = me->n_k.count * me->cols;
    size_t elems = me->m_shared || me->n_shared ? m_elems + n_elems : 0;
    float *mine = NULL;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true"); /* each part near its rank */
    MPI_Win_allocate_shared((MPI_Aint)(elems * sizeof(float)), (int)sizeof(float), info, m->local,
                            &mine, &me->window);
    MPI_Info_free(&info);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, me->window);
    if (elems) {
        memcpy(mine, me->M, m_elems * sizeof(float));
        memcpy(mine + m_elems, me->N, n_elems * sizeof(float));
    }
    MPI_Win_sync(me->window);
    MPI_Barrier(m->local);
    MPI_Win_sync(me->window);
    for (int c = 0; me->m_shared && c < p->grid_cols; c++)
        me->m_from[c] = shared_part(m, me->window, me->grid_row * p->grid_cols + c);
    for (int r = 0; me->n_shared && r < p->grid_rows; r++)
        me->n_from[r] = shared_part(m, me->window, r * p->grid_cols + me->grid_col) +
                        p->p_rows[r].count * p->m_inner[me->grid_col].count;
}

/* A buffer over `elems` floats of shared memory from `part` on, made only
 * to pin them: NVIDIA's driver page-locks the memory of a
 * CL_MEM_USE_HOST_PTR buffer, and a copy up from that memory then runs at
 * the pinned rate, several times that from memory it did not pin and
 * as fast as from its own pinned memory (bench/multi-gpu/host-ptr/).
 * Whether it was made (no elements: nothing to pin). */
static int pin_part(struct clmem_ctx *ctx, const float *part, size_t elems, cl_mem *pin)
{
    cl_int rc = CL_SUCCESS;
    if (elems)
        *pin = clCreateBuffer(ctx->context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR,
                              elems * sizeof(float), (void *)part, &rc);
    return rc == CL_SUCCESS;
}

static void unpin_window(const struct summa_plan *p, struct summa_rank *me)
{
    for (int c = 0; me->m_pins && c < p->grid_cols; c++)
        clmem_release_mem(&me->m_pins[c]);
    for (int r = 0; me->n_pins && r < p->grid_rows; r++)
        clmem_release_mem(&me->n_pins[r]);
    free(me->m_pins);
    free(me->n_pins);
    me->m_pins = me->n_pins = NULL;
    me->pinned = 0;
}

/* The other ranks' blocks this rank reads from shared memory, pinned, so
 * that their pieces go up from there with no copy on the host (one pass
 * over the host's memory a byte instead of three: at 16384 on 4 GPUs the
 * copies had the host's memory at its rate, bench/multi-gpu/MODEL.md).
 * Where a buffer cannot be made, none is kept and pieces are copied into
 * the pinned panels as before; CLMEM_SUMMA_EXCHANGE=copy does that too,
 * to compare the two. Nothing collective: each rank decides alone. */
static void pin_window(struct clmem_ctx *ctx, const struct summa_plan *p, struct summa_rank *me)
{
    const char *env = getenv("CLMEM_SUMMA_EXCHANGE");
    if ((env && strcmp(env, "copy") == 0) || !(me->m_shared || me->n_shared))
        return;
    me->m_pins = calloc((size_t)p->grid_cols, sizeof *me->m_pins);
    me->n_pins = calloc((size_t)p->grid_rows, sizeof *me->n_pins);
    int ok = me->m_pins && me->n_pins;
    for (int c = 0; ok && me->m_shared && c < p->grid_cols; c++)
        ok = c == me->grid_col ||
             pin_part(ctx, me->m_from[c], me->rows * p->m_inner[c].count, &me->m_pins[c]);
    for (int r = 0; ok && me->n_shared && r < p->grid_rows; r++)
        ok = r == me->grid_row ||
             pin_part(ctx, me->n_from[r], p->n_inner[r].count * me->cols, &me->n_pins[r]);
    if (!ok)
        unpin_window(p, me);
    me->pinned = ok;
}

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
            t = block_type(me->rows, pc->width, me->m_k.count);
        } else {
            if (me->grid_col == pc->m_owner)
                copy_block(me->m_panel[slot], p->panel, m_in_block(pc, me), me->m_k.count, me->rows,
                           pc->width);
            t = block_type(me->rows, pc->width, p->panel);
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
    copy_block(c->dst + first * c->dst_pitch, c->dst_pitch, c->src + first * c->src_pitch,
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
static int multiply(const struct summa_plan *p, struct summa_rank *me, int no_overlap,
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

static void add_times(struct summa_times *sum, const struct summa_times *t)
{
    double *to = (double *)sum;
    const double *from = (const double *)t;
    for (size_t i = 0; i < N_TIMES; i++)
        to[i] += from[i];
}

/* Warm-up runs, then `reps` timed ones: each from a barrier to the last
 * rank's end (the slowest rank's host wall time), in ms; each rank's own
 * times summed in me->sum. */
static int measure(const struct clmem_mpi *m, const struct summa_plan *p, struct summa_rank *me,
                   const struct clmem_summa_options *o, unsigned reps, double *samples,
                   struct clmem_error *err)
{
    for (unsigned i = 0; i < o->warmup + reps; i++) {
        struct summa_times t;
        double slowest_s;
        MPI_Barrier(m->world);
        double t0 = MPI_Wtime();
        int status = multiply(p, me, o->no_overlap, &t, err);
        t.wall = MPI_Wtime() - t0;
        MPI_Allreduce(&t.wall, &slowest_s, 1, MPI_DOUBLE, MPI_MAX, m->world);
        if ((status = clmem_mpi_agree(m, status, err)))
            return status;
        if (i >= o->warmup) {
            samples[i - o->warmup] = slowest_s * 1e3;
            add_times(&me->sum, &t);
        }
    }
    return CLMEM_OK;
}

/* Every rank's sums to rank 0's me->all. */
static void gather_times(const struct clmem_mpi *m, struct summa_rank *me)
{
    int shared[3] = {me->m_shared, me->n_shared, me->pinned};
    MPI_Gather(&me->sum, (int)N_TIMES, MPI_DOUBLE, me->all, (int)N_TIMES, MPI_DOUBLE, 0, m->world);
    MPI_Gather(shared, 3, MPI_INT, me->shared_all, 3, MPI_INT, 0, m->world);
}

/* A rank's share of its time not computing (its time less its device's
 * kernels': the broadcasts, copies and launches that no kernel hid), and
 * spent exchanging panels on the host (waiting for broadcasts, copying). */
static double not_computing(const struct summa_times *t)
{
    if (isnan(t->kernels))
        return NAN;
    return t->wall > t->kernels ? (t->wall - t->kernels) / t->wall : 0.0;
}

static double exchanging(const struct summa_times *t)
{
    return t->wall > 0.0 ? (t->bcast + t->copy) / t->wall : 0.0;
}

/* Every block of P to rank 0, into the whole P (NaN first, so a block
 * never written fails the check). */
static int gather_p(const struct clmem_mpi *m, const struct summa_plan *p, struct summa_rank *me,
                    struct clmem_error *err)
{
    double t0 = MPI_Wtime();
    int status =
        clmem_buffer_read(me->run.ctx, me->dP, me->rows * me->cols * sizeof(float), me->P, err);
    me->read_p = MPI_Wtime() - t0;
    if ((status = clmem_mpi_agree(m, status, err)))
        return status;
    if (m->rank != 0) {
        MPI_Send(me->P, (int)(me->rows * me->cols), MPI_FLOAT, 0, TAG_P, m->world);
        return CLMEM_OK;
    }
    float *P = p->whole.P;
    for (size_t i = 0; i < p->rows * p->cols; i++)
        P[i] = NAN;
    for (int r = 0; r < m->size; r++) {
        struct span rows = p->p_rows[r / p->grid_cols], cols = p->p_cols[r % p->grid_cols];
        float *at = P + rows.first * p->cols + cols.first;
        if (r == 0) {
            copy_block(at, p->cols, me->P, cols.count, rows.count, cols.count);
            continue;
        }
        MPI_Datatype t = block_type(rows.count, cols.count, p->cols);
        MPI_Recv(at, 1, t, r, TAG_P, m->world, MPI_STATUS_IGNORE);
        MPI_Type_free(&t);
    }
    return CLMEM_OK;
}

/* How the pieces went between the ranks: "shared memory" (every rank
 * copied them from its neighbours' blocks), "pinned shared memory" (every
 * rank copied them up from there), "MPI" (broadcast), or "shared memory
 * and MPI" (some of each: grid rows on one host, columns across hosts, or
 * the other way round). */
static const char *exchange_name(const struct clmem_mpi *m, const struct summa_rank *me)
{
    int shared = 0, pinned = 0;
    for (int r = 0; r < m->size; r++) {
        shared += me->shared_all[3 * r] + me->shared_all[3 * r + 1];
        pinned += me->shared_all[3 * r + 2];
    }
    return shared == 0             ? "MPI"
           : shared != 2 * m->size ? "shared memory and MPI"
           : pinned == m->size     ? "pinned shared memory"
                                   : "shared memory";
}

/* "grid 1x2, panel 256, 64 pieces, overlapped, shared memory; not
 * computing per rank: 3% 4%; exchanging up to 1%; checked on rank 0". */
static void describe_shares(const struct clmem_mpi *m, const struct summa_plan *p,
                            const struct summa_rank *me, const struct clmem_summa_options *o,
                            char *note, size_t size)
{
    size_t len = (size_t)snprintf(
        note, size,
        "grid %dx%d, panel %zu, %zu pieces, %s, %s; not computing per rank:", p->grid_rows,
        p->grid_cols, p->panel, p->n_pieces, o->no_overlap ? "no overlap" : "overlapped",
        exchange_name(m, me));
    double most = 0.0;
    for (int r = 0; r < m->size; r++) {
        double share = not_computing(&me->all[r]);
        if (len < size)
            len +=
                (size_t)(isnan(share) ? snprintf(note + len, size - len, " -")
                                      : snprintf(note + len, size - len, " %.0f%%", share * 100.0));
        if (exchanging(&me->all[r]) > most)
            most = exchanging(&me->all[r]);
    }
    if (len < size)
        snprintf(note + len, size - len, "; exchanging up to %.0f%%; checked on rank 0",
                 most * 100.0);
}

/* CLMEM_DEBUG=4: where each rank's time went, per timed run (the mean),
 * one line a rank, on rank 0's stderr. M and N say how each rank got
 * those pieces (pin: up from pinned shared memory, shm: copied from shared
 * memory on the host, mpi: broadcast). */
static void trace_times(const struct clmem_mpi *m, const struct summa_plan *p,
                        const struct summa_rank *me, unsigned reps)
{
    if (!clmem_debug_enabled(CLMEM_DEBUG_TIMING))
        return;
    fprintf(stderr,
            "clmem: summa %dx%d grid, %s, panel %zu, %zu pieces, %d in flight, %zu copy threads "
            "on rank 0 (where a piece is copied on the host); per rank, the mean of %u timed "
            "runs; P read back after them in %.1f ms on rank 0\n",
            p->grid_rows, p->grid_cols, p->size_text, p->panel, p->n_pieces, SLOTS,
            me->copy_threads, reps, me->read_p * 1e3);
    fprintf(stderr, "clmem: summa rank  grid    M   N    wall ms  kernels ms  idle ms     up ms  "
                    "up GB/s  bcast ms   copy ms   wait ms  other ms     in MB  not computing\n");
    for (int r = 0; r < m->size; r++) {
        struct summa_times t = me->all[r];
        double *v = (double *)&t;
        for (size_t i = 0; i < N_TIMES; i++)
            v[i] /= reps;
        double other = t.wall - t.bcast - t.copy - t.wait;
        static const char *const how[] = {"mpi", "shm", "pin"};
        int pin = me->shared_all[3 * r + 2] ? 2 : 1;
        fprintf(stderr,
                "clmem: summa %4d %3d,%-3d %3s %3s %10.2f %11.2f %8.2f %9.2f %8.1f %9.2f %9.2f "
                "%9.2f %9.2f %9.1f %13.0f%%\n",
                r, r / p->grid_cols, r % p->grid_cols, how[me->shared_all[3 * r] ? pin : 0],
                how[me->shared_all[3 * r + 1] ? pin : 0], t.wall * 1e3, t.kernels * 1e3,
                t.idle * 1e3, t.up * 1e3,
                isnan(t.up)  ? NAN
                : t.up > 0.0 ? t.bytes_up / t.up * 1e-9
                             : 0.0,
                t.bcast * 1e3, t.copy * 1e3, t.wait * 1e3, other * 1e3, t.bytes_in * 1e-6,
                not_computing(&t) * 100.0);
    }
}

/* Rank 0's result: the samples (taken over), the metric, the check. */
static int append_result(const struct clmem_mpi *m, const struct summa_plan *p,
                         const struct summa_rank *me, const struct clmem_summa_options *o,
                         double **samples, unsigned reps, struct clmem_result **results,
                         size_t *n_results, struct clmem_error *err)
{
    struct clmem_result *grown = realloc(*results, (*n_results + 1) * sizeof *grown);
    if (!grown)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    *results = grown;
    struct clmem_result *r = &grown[(*n_results)++];
    memset(r, 0, sizeof *r);
    snprintf(r->workload, sizeof r->workload, "%s", clmem_workload_matmul.name);
    snprintf(r->variant, sizeof r->variant, "%s", p->variant->name);
    snprintf(r->device, sizeof r->device, "SUMMA %dx%d grid, %d rank%s", p->grid_rows, p->grid_cols,
             m->size, m->size == 1 ? "" : "s");
    snprintf(r->size, sizeof r->size, "%s", p->size_text);
    snprintf(r->params, sizeof r->params, "%s", me->run.params);
    snprintf(r->metric_unit, sizeof r->metric_unit, "%s", clmem_workload_matmul.metric_unit);
    r->baseline_fraction = r->peak_fraction = r->looped_ms = NAN;
    r->reps = reps;
    r->warmup = o->warmup;
    r->seed = o->seed;
    /* Of the whole product; the panels' broadcasts are not device traffic. */
    r->flops_per_byte = matmul_flops_per_byte(p->rows, p->cols, p->inner);
    r->samples_ms = *samples;
    r->n_samples = reps;
    *samples = NULL;
    clmem_result_summarise(r);
    double work = 2.0 * (double)p->rows * (double)p->cols * (double)p->inner;
    r->metric = r->median_ms > 0 ? work / (r->median_ms * 1e-3) / 1e9 : NAN;
    /* End to end by the host's clock: a run of many milliseconds. */
    snprintf(r->timer, sizeof r->timer, "host");
    r->runs_per_sample = 1;
    describe_shares(m, p, me, o, r->note, sizeof r->note);
    struct clmem_check check;
    matmul_problem_check(&p->whole, &check);
    clmem_result_set_check(r, &check);
    if (!r->verified)
        return clmem_fail(err, CLMEM_ERR_VERIFY,
                          "SUMMA matmul '%s' at '%s': P differs from the CPU reference (%s)",
                          p->variant->name, p->size_text, r->verify_detail);
    return CLMEM_OK;
}

/* Everything the rank made, and on rank 0 the whole problem. */
static void release_all(struct summa_plan *p, struct summa_rank *me)
{
    for (int i = 0; i < SLOTS && me->run.ctx; i++) {
        clmem_pinned_free(me->run.ctx, &me->m_pinned[i]);
        clmem_pinned_free(me->run.ctx, &me->n_pinned[i]);
    }
    if (me->run.ctx) {
        clmem_pinned_free(me->run.ctx, &me->m_block);
        clmem_pinned_free(me->run.ctx, &me->n_block);
    }
    clmem_run_release(&me->run);
    clmem_release_kernel(&me->accumulate);
    clmem_release_program(&me->program);
    clmem_release_mem(&me->dP);
    for (int i = 1; i < SLOTS; i++) {
        clmem_release_mem(&me->dM[i]);
        clmem_release_mem(&me->dN[i]);
    }
    for (int i = 0; i < SLOTS; i++) {
        clmem_event_release(&me->uploaded[i]);
        clmem_event_release(&me->multiplied[i]);
    }
    clmem_release_queue(&me->up);
    unpin_window(p, me);
    if (me->window != MPI_WIN_NULL) {
        MPI_Win_unlock_all(me->window);
        MPI_Win_free(&me->window);
    }
    free(me->m_from);
    free(me->n_from);
    free(me->shared_all);
    if (me->row_comm != MPI_COMM_NULL)
        MPI_Comm_free(&me->row_comm);
    if (me->col_comm != MPI_COMM_NULL)
        MPI_Comm_free(&me->col_comm);
    free(me->P);
    if (me->kernels)
        for (size_t i = 0; i < p->n_pieces; i++)
            clmem_timing_release(&me->kernels[i]);
    free(me->kernels);
    if (me->ups)
        for (size_t i = 0; i < 2 * p->n_pieces; i++)
            clmem_event_release(&me->ups[i]);
    free(me->ups);
    free(me->all);
    matmul_problem_free(&p->whole);
    free(p->p_rows);
    free(p->p_cols);
    free(p->m_inner);
    free(p->n_inner);
    free(p->pieces);
}

/* Everything up to the first multiplication, on every rank alike: each
 * step's failure is agreed on (clmem_mpi_agree) before the next collective
 * one. The block's plan comes first, so that a size the device or the
 * kernel refuses is a usage error before any work. */
static int prepare(const struct clmem_mpi *m, struct clmem_ctx *ctx,
                   const struct clmem_summa_options *o, struct summa_plan *p, struct summa_rank *me,
                   unsigned reps, double **samples, struct clmem_error *err)
{
    int status = cut_problem(p, err);
    if (!status)
        status = plan_rank(m, ctx, o, p, me, err);
    if ((status = clmem_mpi_agree(m, status, err)))
        return status;
    MPI_Comm_split(m->world, me->grid_row, me->grid_col, &me->row_comm);
    MPI_Comm_split(m->world, me->grid_col, me->grid_row, &me->col_comm);
    if (!status && !(*samples = clmem_alloc_array(reps, sizeof **samples, err)))
        status = err->status;
    /* The ranks of a host mostly build the same programs (same device
     * model, same options): the host's first rank builds them into the
     * program cache before the others set up and load them from there,
     * rather than all compiling at once. */
    int in_turn = !ctx->no_cache && m->local_size > 1;
    if (in_turn && m->local_rank > 0)
        MPI_Barrier(m->local);
    if (!status)
        status = setup_rank(m, ctx, o, p, me, err);
    if (!status && !ctx->clock.checked)
        status = clmem_clock_check(ctx, err);
    me->events_ok = ctx->clock.checked && ctx->clock.events_ok;
    if (in_turn && m->local_rank == 0)
        MPI_Barrier(m->local);
    if ((status = clmem_mpi_agree(m, status, err)))
        return status;
    scatter_inputs(m, p, me);
    share_blocks(m, p, me);
    pin_window(ctx, p, me);
    return CLMEM_OK;
}

/* Rank 0's result; its verdict (or its lack of memory) becomes every rank's. */
static int report(const struct clmem_mpi *m, const struct summa_plan *p, struct summa_rank *me,
                  const struct clmem_summa_options *o, double **samples, unsigned reps,
                  struct clmem_result **results, size_t *n_results, struct clmem_error *err)
{
    int status = CLMEM_OK;
    gather_times(m, me);
    if (m->rank == 0) {
        trace_times(m, p, me, reps);
        status = append_result(m, p, me, o, samples, reps, results, n_results, err);
    }
    return clmem_mpi_agree(m, status, err);
}

int clmem_summa(const struct clmem_mpi *m, struct clmem_ctx *ctx,
                const struct clmem_summa_options *o, struct clmem_result **results,
                size_t *n_results, struct clmem_error *err)
{
    struct summa_plan p = {0};
    struct summa_rank me = {
        .row_comm = MPI_COMM_NULL, .col_comm = MPI_COMM_NULL, .window = MPI_WIN_NULL};
    double *samples = NULL;
    int status = check_options(m, o, &p, err);
    if (status)
        return status;
    unsigned reps = p.reps;
    if (!(status = prepare(m, ctx, o, &p, &me, reps, &samples, err)) &&
        !(status = measure(m, &p, &me, o, reps, samples, err)) &&
        !(status = gather_p(m, &p, &me, err)))
        status = report(m, &p, &me, o, &samples, reps, results, n_results, err);
    free(samples);
    release_all(&p, &me);
    return status;
}
