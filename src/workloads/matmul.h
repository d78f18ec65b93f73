/* What matmul.c gives the runs that multiply over several devices
 * (matmul_split.c, and SUMMA in src/mpi/summa.c): the problem on the host
 * with its CPU reference, and blocks, matmul runs whose launches multiply
 * the buffers their caller gives. Not part of libclmem's interface. */
#ifndef CLMEM_WORKLOADS_MATMUL_H
#define CLMEM_WORKLOADS_MATMUL_H

#include "harness/workload.h"

extern const struct clmem_workload clmem_workload_matmul;

/* P = M x N on the host: M is rows x inner, N inner x cols, P rows x cols,
 * row-major; the CPU reference (in double, with the sum of the terms'
 * magnitudes the tolerance is relative to) of n_ref_rows rows spread
 * evenly over P: every row while that is at most 2^28 multiply-adds. */
struct matmul_problem {
    size_t rows, cols, inner;
    float *M, *N, *P;
    size_t n_ref_rows;
    size_t *ref_row;             /* which rows of P the reference holds */
    double *ref, *ref_magnitude; /* n_ref_rows x cols: sum M*N and sum |M*N| */
};
/* rows, cols and inner set: M and N from the seed, P allocated, and the
 * reference. */
int matmul_problem_make(struct matmul_problem *p, uint64_t seed, struct clmem_error *err);
/* The reference again, for p->rows rows of p->M (a previous one freed). */
int matmul_problem_reference(struct matmul_problem *p, struct clmem_error *err);
/* p->P against the reference. */
void matmul_problem_check(const struct matmul_problem *p, struct clmem_check *check);
void matmul_problem_free(struct matmul_problem *p);
/* Arithmetic intensity of P = M x N (rows x inner times inner x cols):
 * 2 * rows * cols * inner flops over the 4 * (rows * inner + inner * cols
 * + rows * cols) bytes of reading M and N and writing P once each, the
 * least traffic any kernel needs. */
double matmul_flops_per_byte(size_t rows, size_t cols, size_t inner);

/* A block: a run of matmul planned (clmem_run_plan) at the block's size
 * with one kernel variant, set up here from host inputs that the caller
 * keeps (its M, rows x inner, and N, inner x cols: copied into the run's
 * own buffers); P gets p_flags (0: write-only). The run is released as any
 * other (clmem_run_release), its inputs left to the caller. */
int matmul_block_setup(struct clmem_run *run, const float *M, const float *N, cl_mem_flags p_flags,
                       struct clmem_error *err);
/* The run's own buffers. */
void matmul_block_buffers(const struct clmem_run *run, cl_mem *M, cl_mem *N, cl_mem *P);
/* One multiplication with variant v of M by N into P, buffers of the
 * block's sizes (the run's own, or the caller's), timed in `timing`. */
int matmul_block_launch(struct clmem_run *run, const struct clmem_variant *v, cl_mem M, cl_mem N,
                        cl_mem P, struct clmem_timing *timing, struct clmem_error *err);

/* `--variant auto`: the variant that the rule table in matmul.c chooses
 * for P = M x N of rows x cols (K inner) on `device`, with regblock's
 * built-in parameters for it (a run also weighs the tuning database), and
 * why, as the result's note says it ("N=1000 not a multiple of 128; ...").
 * Reads what the parameter tables match (name, vendor, family, type), the
 * compute units, the work-group and local-memory limits and the memory
 * sizes: a device made up by hand will do. */
const char *matmul_auto_choose(const struct clmem_device *device, size_t rows, size_t cols,
                               size_t inner, char *why, size_t why_size);

/* `--variant splitk`'s plan for P = M x N of rows x cols (K inner) on
 * `device`, from its built-in rows (a run also weighs the tuning
 * database), as the result's note says it ("64x128 tiles, 64 blocks, K in
 * 8 slices of 128 steps: 512 work-groups"): the number of K slices. Reads
 * what matmul_auto_choose reads. */
int matmul_splitk_choose(const struct clmem_device *device, size_t rows, size_t cols, size_t inner,
                         char *plan, size_t plan_size);

/* A split block is cut into up to this many tiles of P a side
 * (matmul_split.c), each one matmul launch, so that copies overlap kernels. */
#define CLMEM_SPLIT_TILES 4

#endif
