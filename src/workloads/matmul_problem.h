/* matmul's problem on the host and its CPU reference (matmul_problem.c),
 * which matmul.c, its blocks (matmul_split.c) and SUMMA (src/mpi/summa.c)
 * check against. */
#ifndef CLMEM_WORKLOADS_MATMUL_PROBLEM_H
#define CLMEM_WORKLOADS_MATMUL_PROBLEM_H

#include "harness/workload.h"

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

#endif
