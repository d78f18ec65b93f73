/* SUMMA (van de Geijn & Watts, "SUMMA: scalable universal matrix
 * multiplication algorithm", 1997): P = M x N over a grid of MPI ranks, a
 * device each (clmem_summa, include/clmem/mpi.h). Each rank owns a block of
 * P, of M and of N. For each piece of the inner dimension the owner of M's
 * piece broadcasts it along its grid row and the owner of N's along its grid
 * column; every rank multiplies the two on its device with one of matmul's
 * kernels (an ordinary matmul run whose inputs are borrowed, as
 * matmul_split.c does) and adds the product into its block of P there. */
#include "clmem/mpi.h"

#include "../workloads/matmul.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The panel width when none is given: wide enough for the kernels' tiles
 * and few broadcasts, narrow enough that the panels stay small beside the
 * blocks. */
#define DEFAULT_PANEL 256

enum { TAG_M = 1, TAG_N, TAG_P };

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
    struct clmem_run whole; /* the whole problem's size; on rank 0 its inputs */
    char size_text[64];
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
    float *m_piece;              /* a broadcast piece of M: rows x width, packed */
    float *m_panel, *n_panel;    /* the run's inputs: rows x panel, panel x cols, zero-padded */
    struct clmem_run run;        /* matmul rows x cols x panel; its dP takes each product */
    cl_program program;
    cl_kernel accumulate;
    cl_mem dP;    /* the rank's block of P */
    double *busy; /* per timed run: this rank's own seconds, of them in broadcasts */
    double *comm;
};

static struct matmul_state *state_of(const struct clmem_run *run)
{
    return run->state;
}

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
    int status;
    p->whole.workload = w;
    if ((status = check_variant(o->variant, &p->variant, err)) ||
        (status = clmem_size_parse(o->size ? o->size : w->default_size, &p->whole.size, err)) ||
        (status = w->plan(&p->whole, err)) || (status = check_grid(m, o, p, err)))
        return status;
    p->rows = p->whole.size.dim[0];
    p->cols = p->whole.size.dim[1];
    p->inner = p->whole.size.dim[2];
    clmem_size_format(&p->whole.size, p->size_text, sizeof p->size_text);
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

/* The pieces: [0, inner) cut at every panel boundary and at every chunk
 * boundary of M and of N (the sorted union of the three). */
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
    return CLMEM_OK;
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
                      struct summa_rank *me, unsigned reps, struct clmem_error *err)
{
    struct matmul_state *s = state_of(&me->run), *whole = state_of(&p->whole);
    int status;
    if (!(me->M = clmem_alloc_array(me->rows * me->m_k.count, sizeof(float), err)) ||
        !(me->N = clmem_alloc_array(me->n_k.count * me->cols, sizeof(float), err)) ||
        !(me->P = clmem_alloc_array(me->rows * me->cols, sizeof(float), err)) ||
        !(me->m_piece = clmem_alloc_array(me->rows * p->panel, sizeof(float), err)) ||
        !(me->m_panel = clmem_alloc_array(me->rows * p->panel, sizeof(float), err)) ||
        !(me->n_panel = clmem_alloc_array(p->panel * me->cols, sizeof(float), err)) ||
        !(me->busy = clmem_alloc_array(2 * (size_t)reps, sizeof(double), err)))
        return err->status;
    me->comm = me->busy + reps;
    /* Each piece fills the panels whole; zeros until then (setup copies them). */
    memset(me->m_panel, 0, me->rows * p->panel * sizeof(float));
    memset(me->n_panel, 0, p->panel * me->cols * sizeof(float));
    if (m->rank == 0) {
        whole->rows = p->rows;
        whole->cols = p->cols;
        whole->inner = p->inner;
        if ((status = matmul_host_inputs(whole, o->seed, err)))
            return status;
    }
    /* The run's inputs are the panels, written anew for each piece. */
    s->M = me->m_panel;
    s->N = me->n_panel;
    if ((status = clmem_workload_matmul.setup(&me->run, err)))
        return status;
    /* matmul makes its P write-only (its kernels only write it); here the
     * accumulation kernel reads each product from it. */
    clmem_release_mem(&s->dP);
    if ((status = clmem_buffer_create(ctx, CL_MEM_READ_WRITE, me->rows * me->cols * sizeof(float),
                                      NULL, &s->dP, err)))
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
    const struct matmul_state *whole = state_of(&p->whole);
    for (int r = 0; r < m->size; r++) {
        struct span rows = p->p_rows[r / p->grid_cols], cols = p->p_cols[r % p->grid_cols];
        struct span mk = p->m_inner[r % p->grid_cols], nk = p->n_inner[r / p->grid_cols];
        send_block(m, r, TAG_M, whole->M + rows.first * p->inner + mk.first, p->inner, rows.count,
                   mk.count, me->M);
        send_block(m, r, TAG_N, whole->N + nk.first * p->cols + cols.first, p->cols, nk.count,
                   cols.count, me->N);
    }
}

/* Both pieces of one step, from their owners to the grid row (M's) and
 * the grid column (N's): M's into m_piece, N's into the top of n_panel. */
static void broadcast_piece(const struct piece *pc, struct summa_rank *me)
{
    if (me->grid_col == pc->m_owner)
        copy_block(me->m_piece, pc->width, me->M + (pc->first - me->m_k.first), me->m_k.count,
                   me->rows, pc->width);
    MPI_Bcast(me->m_piece, (int)(me->rows * pc->width), MPI_FLOAT, pc->m_owner, me->row_comm);
    if (me->grid_row == pc->n_owner)
        memcpy(me->n_panel, me->N + (pc->first - me->n_k.first) * me->cols,
               pc->width * me->cols * sizeof(float));
    MPI_Bcast(me->n_panel, (int)(pc->width * me->cols), MPI_FLOAT, pc->n_owner, me->col_comm);
}

/* T = M piece x N piece with the matmul kernel, then P (+)= T. A piece
 * narrower than the panel is zero-padded (M's extra columns, N's extra
 * rows), which adds exactly nothing. The first piece stores T rather than
 * adding it: P needs no clearing pass of its own in each multiplication. */
static int multiply_piece(const struct summa_plan *p, const struct piece *pc, int first,
                          struct summa_rank *me, struct clmem_error *err)
{
    struct clmem_ctx *ctx = me->run.ctx;
    struct matmul_state *s = state_of(&me->run);
    copy_block(me->m_panel, p->panel, me->m_piece, pc->width, me->rows, pc->width);
    if (pc->width < p->panel)
        for (size_t r = 0; r < me->rows; r++)
            memset(me->m_panel + r * p->panel + pc->width, 0,
                   (p->panel - pc->width) * sizeof(float));
    memset(me->n_panel + pc->width * me->cols, 0,
           (p->panel - pc->width) * me->cols * sizeof(float));
    int status;
    cl_uint n = (cl_uint)(me->rows * me->cols), store = (cl_uint)first;
    /* On a GPU a work-item per float; on a CPU a few groups per compute
     * unit, each item looping (cl/summa.cl says why). */
    size_t local = clmem_pick_group(&ctx->device, 256), global = n;
    if ((ctx->device.type & CL_DEVICE_TYPE_CPU) && global > 8 * ctx->device.compute_units * local)
        global = 8 * ctx->device.compute_units * local;
    global = clmem_round_up(global, local);
    if ((status = clmem_buffer_write(ctx, s->dM, me->rows * p->panel * sizeof(float), me->m_panel,
                                     err)) ||
        (status = clmem_buffer_write(ctx, s->dN, p->panel * me->cols * sizeof(float), me->n_panel,
                                     err)) ||
        (status = clmem_workload_matmul.execute(&me->run, p->variant, NULL, err)) ||
        (status = clmem_kernel_args(me->accumulate, err, 4, sizeof(cl_mem), &me->dP, sizeof(cl_mem),
                                    &s->dP, sizeof n, &n, sizeof store, &store)))
        return status;
    return clmem_launch(ctx, me->accumulate, 1, &global, &local, NULL, err);
}

/* One multiplication, every piece in order; *comm_s gets the seconds spent
 * broadcasting. A rank whose device fails keeps taking part in every
 * broadcast, so that no rank waits for it forever, and only skips its
 * device work: the ranks agree on the status after the multiplication
 * (this replaces an MPI_Abort on the first OpenCL error). */
static int multiply(const struct summa_plan *p, struct summa_rank *me, double *comm_s,
                    struct clmem_error *err)
{
    int status = CLMEM_OK;
    *comm_s = 0.0;
    for (size_t i = 0; i < p->n_pieces; i++) {
        double t0 = MPI_Wtime();
        broadcast_piece(&p->pieces[i], me);
        *comm_s += MPI_Wtime() - t0;
        if (status == CLMEM_OK)
            status = multiply_piece(p, &p->pieces[i], i == 0, me, err);
    }
    if (status == CLMEM_OK)
        CLMEM_CHECK(err, clFinish(me->run.ctx->queue));
    return status;
}

/* Warm-up runs, then `reps` timed ones: each from a barrier to the last
 * rank's end (the slowest rank's host wall time), in ms. */
static int measure(const struct clmem_mpi *m, const struct summa_plan *p, struct summa_rank *me,
                   const struct clmem_summa_options *o, unsigned reps, double *samples,
                   struct clmem_error *err)
{
    for (unsigned i = 0; i < o->warmup + reps; i++) {
        double comm_s, own_s, slowest_s;
        MPI_Barrier(m->world);
        double t0 = MPI_Wtime();
        int status = multiply(p, me, &comm_s, err);
        own_s = MPI_Wtime() - t0;
        MPI_Allreduce(&own_s, &slowest_s, 1, MPI_DOUBLE, MPI_MAX, m->world);
        if ((status = clmem_mpi_agree(m, status, err)))
            return status;
        if (i >= o->warmup) {
            samples[i - o->warmup] = slowest_s * 1e3;
            me->busy[i - o->warmup] = own_s;
            me->comm[i - o->warmup] = comm_s;
        }
    }
    return CLMEM_OK;
}

/* The share of its own time that the slowest rank (the longest own time,
 * summed over the timed runs) spent broadcasting, on every rank. */
static double comm_share(const struct clmem_mpi *m, const struct summa_rank *me, unsigned reps)
{
    double busy = 0.0, comm = 0.0;
    for (unsigned i = 0; i < reps; i++) {
        busy += me->busy[i];
        comm += me->comm[i];
    }
    struct {
        double seconds;
        int rank;
    } mine = {busy, m->rank}, slowest;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE_INT, MPI_MAXLOC, m->world);
    double share = busy > 0.0 ? comm / busy : 0.0;
    MPI_Bcast(&share, 1, MPI_DOUBLE, slowest.rank, m->world);
    return share;
}

/* Every block of P to rank 0, into the whole P (NaN first, so a block
 * never written fails the check). */
static int gather_p(const struct clmem_mpi *m, const struct summa_plan *p, struct summa_rank *me,
                    struct clmem_error *err)
{
    int status =
        clmem_buffer_read(me->run.ctx, me->dP, me->rows * me->cols * sizeof(float), me->P, err);
    if ((status = clmem_mpi_agree(m, status, err)))
        return status;
    if (m->rank != 0) {
        MPI_Send(me->P, (int)(me->rows * me->cols), MPI_FLOAT, 0, TAG_P, m->world);
        return CLMEM_OK;
    }
    float *P = state_of(&p->whole)->P;
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

/* Rank 0's result: the samples (taken over), the metric, the check. */
static int append_result(const struct clmem_mpi *m, const struct summa_plan *p,
                         const struct summa_rank *me, const struct clmem_summa_options *o,
                         double **samples, unsigned reps, double share,
                         struct clmem_result **results, size_t *n_results, struct clmem_error *err)
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
    r->metric = r->median_ms > 0 ? work / (r->median_ms * 1e-3) / 1e9 : 0.0;
    snprintf(r->note, sizeof r->note,
             "grid %dx%d, panel %zu, %zu pieces, comm %.0f%% (slowest rank); checked on rank 0",
             p->grid_rows, p->grid_cols, p->panel, p->n_pieces, share * 100.0);
    struct clmem_check check;
    matmul_check_host_p(state_of(&p->whole), p->variant, &check);
    clmem_result_set_check(r, &check);
    if (!r->verified)
        return clmem_fail(err, CLMEM_ERR_VERIFY,
                          "SUMMA matmul '%s' at '%s': P differs from the CPU reference (%s)",
                          p->variant->name, p->size_text, r->verify_detail);
    return CLMEM_OK;
}

/* Everything the rank made; matmul's teardown frees the run and, on rank 0,
 * the whole problem's host arrays (its device handles are none). */
static void release_all(struct summa_plan *p, struct summa_rank *me)
{
    struct matmul_state *s = state_of(&me->run);
    if (s)
        s->M = s->N = NULL; /* the panels are freed below */
    clmem_run_release(&me->run);
    clmem_release_kernel(&me->accumulate);
    clmem_release_program(&me->program);
    clmem_release_mem(&me->dP);
    if (me->row_comm != MPI_COMM_NULL)
        MPI_Comm_free(&me->row_comm);
    if (me->col_comm != MPI_COMM_NULL)
        MPI_Comm_free(&me->col_comm);
    free(me->M);
    free(me->N);
    free(me->P);
    free(me->m_piece);
    free(me->m_panel);
    free(me->n_panel);
    free(me->busy);
    clmem_run_release(&p->whole);
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
    if (m->rank == 0 && !(p->whole.state = calloc(1, sizeof(struct matmul_state))))
        status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
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
        status = setup_rank(m, ctx, o, p, me, reps, err);
    if (in_turn && m->local_rank == 0)
        MPI_Barrier(m->local);
    if ((status = clmem_mpi_agree(m, status, err)))
        return status;
    scatter_inputs(m, p, me);
    return CLMEM_OK;
}

/* Rank 0's result; its verdict (or its lack of memory) becomes every rank's. */
static int report(const struct clmem_mpi *m, const struct summa_plan *p,
                  const struct summa_rank *me, const struct clmem_summa_options *o,
                  double **samples, unsigned reps, struct clmem_result **results, size_t *n_results,
                  struct clmem_error *err)
{
    int status = CLMEM_OK;
    double share = comm_share(m, me, reps);
    if (m->rank == 0)
        status = append_result(m, p, me, o, samples, reps, share, results, n_results, err);
    return clmem_mpi_agree(m, status, err);
}

int clmem_summa(const struct clmem_mpi *m, struct clmem_ctx *ctx,
                const struct clmem_summa_options *o, struct clmem_result **results,
                size_t *n_results, struct clmem_error *err)
{
    struct summa_plan p = {0};
    struct summa_rank me = {.row_comm = MPI_COMM_NULL, .col_comm = MPI_COMM_NULL};
    unsigned reps = o->reps ? o->reps : 1;
    double *samples = NULL;
    int status = check_options(m, o, &p, err);
    if (status)
        return status;
    if (!(status = prepare(m, ctx, o, &p, &me, reps, &samples, err)) &&
        !(status = measure(m, &p, &me, o, reps, samples, err)) &&
        !(status = gather_p(m, &p, &me, err)))
        status = report(m, &p, &me, o, &samples, reps, results, n_results, err);
    free(samples);
    release_all(&p, &me);
    return status;
}
