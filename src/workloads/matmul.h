/* What matmul.c shares with matmul_split.c (P's rows over several
 * devices): the run's state, the inputs and the check against the CPU
 * reference. Not part of libclmem's interface. */
#ifndef CLMEM_WORKLOADS_MATMUL_H
#define CLMEM_WORKLOADS_MATMUL_H

#include "harness/workload.h"

struct matmul_state {
    size_t rows, cols, inner, tile;
    int rb[CLMEM_MAX_PARAMS]; /* register-blocking parameters, P_TSM... */
    int panel_rows;           /* the panel kernel's PANEL_ROWS */
    int cb[CLMEM_MAX_PARAMS]; /* cpu_blocked's parameters, CB_VEC... */
    cl_mem dMp, dNp;          /* cpu_blocked's packed copies of M and N */
    float *M, *N, *P;
    size_t n_ref_rows;
    size_t *ref_row;             /* which rows of P the reference holds */
    double *ref, *ref_magnitude; /* n_ref_rows x cols: sum M*N and sum |M*N| */
    cl_mem dM, dN, dP;
};

extern const struct clmem_workload clmem_workload_matmul;

/* A split block is cut into up to this many tiles of P a side
 * (matmul_split.c), each one matmul launch, so that copies overlap kernels. */
#define CLMEM_SPLIT_TILES 4

/* M and N from the seed, and the CPU reference of the rows checked. */
int matmul_host_inputs(struct matmul_state *s, uint64_t seed, struct clmem_error *err);
/* The CPU reference of the rows checked, for s->rows rows of s->M (a
 * previous reference freed): rows spread evenly over P. */
int matmul_reference(struct matmul_state *s, struct clmem_error *err);
/* Arithmetic intensity of P = M x N (rows x inner times inner x cols):
 * 2 * rows * cols * inner flops over the 4 * (rows * inner + inner * cols
 * + rows * cols) bytes of reading M and N and writing P once each, the
 * least traffic any kernel needs (the roofline of src/report/compare.c). */
double matmul_flops_per_byte(size_t rows, size_t cols, size_t inner);
/* Compares s->P (on the host) with the CPU reference. */
void matmul_check_host_p(const struct matmul_state *s, const struct clmem_variant *v,
                         struct clmem_check *check);

#endif
