/* What the files of SUMMA (clmem_summa, summa.c) share: the plan every
 * rank holds alike, one rank's part of the work, and the steps each file
 * takes: cutting the problem (summa_plan.c), a rank's set-up and release
 * (summa_rank.c), moving blocks between ranks (summa_exchange.c), one
 * multiplication piece by piece (summa_pieces.c), the result and its note
 * (summa_result.c). MPI builds only, as ranks.h. */
#ifndef CLMEM_MPI_SUMMA_INTERNAL_H
#define CLMEM_MPI_SUMMA_INTERNAL_H

#include "harness/harness.h"
#include "mpi/ranks.h"

#include "workloads/matmul.h"

/* Pieces in flight: piece i's host and device panels are slot i % SLOTS,
 * so while the device multiplies piece i, pieces up to i + SLOTS - 1 are
 * exchanged and copied up. Three absorb a piece that takes longer to
 * arrive than one to multiply (a rank receiving both M's and N's), as
 * long as its neighbours take less. */
#define SLOTS 3

/* The most threads copying a piece from shared memory on a rank (the
 * fewest floats one of them copies: summa_pieces.c's COPY_PART). */
#define MAX_COPY_THREADS 4

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

/* ---- summa_plan.c: the options checked, the problem cut ---- */
/* Usage errors, from the options and the number of ranks alone, so every
 * rank finds the same ones before any allocation or communication. */
int summa_check_options(const struct clmem_mpi *m, const struct clmem_summa_options *o,
                        struct summa_plan *p, struct clmem_error *err);
/* How the problem is cut over the grid, alike on every rank. */
int summa_cut_problem(struct summa_plan *p, struct clmem_error *err);

/* ---- summa_rank.c: a rank's set-up and release ---- */
/* Everything up to the first multiplication, on every rank alike. */
int summa_prepare(const struct clmem_mpi *m, struct clmem_ctx *ctx,
                  const struct clmem_summa_options *o, struct summa_plan *p, struct summa_rank *me,
                  unsigned reps, double **samples, struct clmem_error *err);
/* Everything the rank made, and on rank 0 the whole problem. */
void summa_release(struct summa_plan *p, struct summa_rank *me);

/* ---- summa_exchange.c: blocks between the ranks ---- */
/* A rows x cols block of a row-major matrix `pitch` floats wide, as one
 * MPI datatype (the caller frees it). */
MPI_Datatype summa_block_type(size_t rows, size_t cols, size_t pitch);
void summa_copy_block(float *dst, size_t dst_pitch, const float *src, size_t src_pitch, size_t rows,
                      size_t cols);
/* Rank 0 deals out the blocks of M and N; each rank keeps only its own. */
void summa_scatter_inputs(const struct clmem_mpi *m, const struct summa_plan *p,
                          struct summa_rank *me);
/* Collective: each rank's blocks in shared memory where its grid row's
 * (grid column's) ranks share a host. */
void summa_share_blocks(const struct clmem_mpi *m, const struct summa_plan *p,
                        struct summa_rank *me);
/* The blocks this rank reads from shared memory, pinned where the driver
 * allows; unpinned again. */
void summa_pin_window(struct clmem_ctx *ctx, const struct summa_plan *p, struct summa_rank *me);
void summa_unpin_window(const struct summa_plan *p, struct summa_rank *me);
/* Every block of P to rank 0, into the whole P. */
int summa_gather_p(const struct clmem_mpi *m, const struct summa_plan *p, struct summa_rank *me,
                   struct clmem_error *err);

/* ---- summa_pieces.c: one multiplication ---- */
/* Every piece in order, *t where the time went (all but wall). */
int summa_multiply(const struct summa_plan *p, struct summa_rank *me, int no_overlap,
                   struct summa_times *t, struct clmem_error *err);

/* ---- summa_result.c: the result ---- */
/* Rank 0's result; its verdict (or its lack of memory) becomes every rank's. */
int summa_report(const struct clmem_mpi *m, const struct summa_plan *p, struct summa_rank *me,
                 const struct clmem_summa_options *o, double **samples, unsigned reps,
                 struct clmem_result **results, size_t *n_results, struct clmem_error *err);

#endif
