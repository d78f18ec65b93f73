/* SUMMA's blocks between the ranks (summa_internal.h): M and N dealt out from rank
 * 0, P gathered back there, and the blocks a host's ranks read from each
 * other's shared memory rather than receive. */
#include "mpi/summa_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_M = 1, TAG_N, TAG_P };

/* A rows x cols block of a row-major matrix `pitch` floats wide, as one
 * MPI datatype (the caller frees it). Each matrix has at most INT_MAX
 * elements (matmul's plan), so the counts fit an int. */
MPI_Datatype summa_block_type(size_t rows, size_t cols, size_t pitch)
{
    MPI_Datatype t;
    MPI_Type_vector((int)rows, (int)cols, (int)pitch, MPI_FLOAT, &t);
    MPI_Type_commit(&t);
    return t;
}

void summa_copy_block(float *dst, size_t dst_pitch, const float *src, size_t src_pitch, size_t rows,
                      size_t cols)
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
        summa_copy_block(mine, cols, whole, pitch, rows, cols);
        return;
    }
    MPI_Datatype t = summa_block_type(rows, cols, pitch);
    MPI_Send(whole, 1, t, to, tag, m->world);
    MPI_Type_free(&t);
}

/* Rank 0 deals out the blocks of M and N; each rank keeps only its own. */
void summa_scatter_inputs(const struct clmem_mpi *m, const struct summa_plan *p,
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
void summa_share_blocks(const struct clmem_mpi *m, const struct summa_plan *p,
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

void summa_unpin_window(const struct summa_plan *p, struct summa_rank *me)
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
void summa_pin_window(struct clmem_ctx *ctx, const struct summa_plan *p, struct summa_rank *me)
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
        summa_unpin_window(p, me);
    me->pinned = ok;
}

/* Every block of P to rank 0, into the whole P (NaN first, so a block
 * never written fails the check). */
int summa_gather_p(const struct clmem_mpi *m, const struct summa_plan *p, struct summa_rank *me,
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
            summa_copy_block(at, p->cols, me->P, cols.count, rows.count, cols.count);
            continue;
        }
        MPI_Datatype t = summa_block_type(rows.count, cols.count, p->cols);
        MPI_Recv(at, 1, t, r, TAG_P, m->world, MPI_STATUS_IGNORE);
        MPI_Type_free(&t);
    }
    return CLMEM_OK;
}
