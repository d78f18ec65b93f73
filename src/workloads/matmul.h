/* What matmul.c shares with matmul_split.c (P's rows over several
 * devices): the run's state, the inputs and the check against the CPU
 * reference. Not part of libclmem's interface. */
#ifndef CLMEM_WORKLOADS_MATMUL_H
#define CLMEM_WORKLOADS_MATMUL_H

#include "clmem/clmem.h"

struct matmul_state {
    size_t rows, cols, inner, tile;
    int tuned;                /* regblock's parameters came from the tuning database */
    int rb[CLMEM_MAX_PARAMS]; /* register-blocking parameters, P_TSM... */
    float *M, *N, *P;
    size_t n_ref_rows;
    size_t *ref_row;             /* which rows of P the reference holds */
    double *ref, *ref_magnitude; /* n_ref_rows x cols: sum M*N and sum |M*N| */
    cl_mem dM, dN, dP;
    cl_program program;
    cl_kernel kernels[CLMEM_MAX_VARIANTS];
    /* cpu_blocked's own program (cl/matmul_cpu.cl), built only when the
     * variant runs: its packing kernels, the packed copies of M and N, and
     * its parameters (CB_VEC...). Its micro-kernel is kernels[CPU_BLOCKED]. */
    cl_program cpu_program;
    cl_kernel pack_m, pack_n;
    cl_mem dMp, dNp;
    int cb[CLMEM_MAX_PARAMS];
};

extern const struct clmem_workload clmem_workload_matmul;

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
