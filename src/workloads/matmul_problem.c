/* matmul's problem on the host: M and N from the seed, the CPU reference
 * (in double, rows spread over P, on threads), its check. */
#include "workloads/matmul_problem.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Output values checked in full up to this many multiply-adds of CPU
 * reference work; past it, whole rows spread over P are checked, so large
 * GPU runs stay verifiable in seconds. */
#define REFERENCE_BUDGET (1UL << 28)

/* The host MatrixMul of the lecture, in double, for the chosen rows only;
 * also sums |M*N| so the tolerance is relative to the terms' magnitude.
 * Rows [n_ref_rows * part / parts, ...) of the reference: the parts run on
 * threads of their own (8 rows at 32768 are 2^33 multiply-adds). */
struct reference_job {
    struct matmul_problem *p;
    size_t parts;
};

static int reference_rows(void *arg, size_t part)
{
    const struct reference_job *job = arg;
    struct matmul_problem *p = job->p;
    for (size_t r = p->n_ref_rows * part / job->parts; r < p->n_ref_rows * (part + 1) / job->parts;
         r++) {
        size_t i = p->ref_row[r];
        double *ref = p->ref + r * p->cols, *mag = p->ref_magnitude + r * p->cols;
        for (size_t j = 0; j < p->cols; j++)
            ref[j] = mag[j] = 0.0;
        for (size_t k = 0; k < p->inner; k++) {
            double a = p->M[i * p->inner + k];
            const float *n_row = p->N + k * p->cols;
            for (size_t j = 0; j < p->cols; j++) {
                double term = a * n_row[j];
                ref[j] += term;
                mag[j] += fabs(term);
            }
        }
    }
    return CLMEM_OK;
}

int matmul_problem_make(struct matmul_problem *p, uint64_t seed, struct clmem_error *err)
{
    size_t m_elems = p->rows * p->inner, n_elems = p->inner * p->cols, p_elems = p->rows * p->cols;
    if (!(p->M = clmem_alloc_array(m_elems, sizeof(float), err)) ||
        !(p->N = clmem_alloc_array(n_elems, sizeof(float), err)) ||
        !(p->P = clmem_alloc_array(p_elems, sizeof(float), err)))
        return err->status;
    clmem_fill_uniform(p->M, m_elems, -1.0f, 1.0f, seed);
    clmem_fill_uniform(p->N, n_elems, -1.0f, 1.0f, seed + 1);
    return matmul_problem_reference(p, err);
}

int matmul_problem_reference(struct matmul_problem *p, struct clmem_error *err)
{
    free(p->ref_row);
    free(p->ref);
    free(p->ref_magnitude);
    p->ref_row = NULL;
    p->ref = p->ref_magnitude = NULL;
    /* cols * inner fits: plan() bounded each matrix to INT_MAX elements. */
    p->n_ref_rows = REFERENCE_BUDGET / (p->cols * p->inner);
    if (p->n_ref_rows < 8)
        p->n_ref_rows = 8;
    if (p->n_ref_rows > p->rows)
        p->n_ref_rows = p->rows;
    if (!(p->ref_row = clmem_alloc_array(p->n_ref_rows, sizeof(size_t), err)) ||
        !(p->ref = clmem_alloc_array(p->n_ref_rows * p->cols, sizeof(double), err)) ||
        !(p->ref_magnitude = clmem_alloc_array(p->n_ref_rows * p->cols, sizeof(double), err)))
        return err->status;
    /* Rows spread evenly from the first to the last. */
    for (size_t r = 0; r < p->n_ref_rows; r++)
        p->ref_row[r] = p->n_ref_rows > 1 ? r * (p->rows - 1) / (p->n_ref_rows - 1) : 0;
    /* A part per core (at most 64), each of at least 2^24 multiply-adds. */
    struct reference_job job = {p, p->n_ref_rows * p->cols * p->inner >> 24};
    if (job.parts > p->n_ref_rows)
        job.parts = p->n_ref_rows;
    job.parts = clmem_parallel_parts(job.parts);
    if (job.parts <= 1) {
        job.parts = 1;
        return reference_rows(&job, 0);
    }
    int status[CLMEM_PARALLEL_MAX];
    clmem_parallel(job.parts, reference_rows, &job, status);
    return CLMEM_OK;
}

void matmul_problem_check(const struct matmul_problem *p, struct clmem_check *check)
{
    /* Float accumulation of `inner` terms: the error bound grows with K. */
    clmem_check_init(check, (double)p->inner * FLT_EPSILON + 1e-6);
    if (p->n_ref_rows < p->rows)
        snprintf(check->scope, sizeof check->scope, "%zu of %zu rows", p->n_ref_rows, p->rows);
    for (size_t r = 0; r < p->n_ref_rows; r++) {
        size_t i = p->ref_row[r];
        for (size_t j = 0; j < p->cols; j++)
            clmem_check_value(check, p->ref[r * p->cols + j], p->P[i * p->cols + j],
                              p->ref_magnitude[r * p->cols + j], "P[row %zu][col %zu]", i, j);
    }
}

void matmul_problem_free(struct matmul_problem *p)
{
    free(p->M);
    free(p->N);
    free(p->P);
    free(p->ref_row);
    free(p->ref);
    free(p->ref_magnitude);
    memset(p, 0, sizeof *p);
}

double matmul_flops_per_byte(size_t rows, size_t cols, size_t inner)
{
    double m = (double)rows, n = (double)cols, k = (double)inner;
    return 2.0 * m * n * k / (sizeof(float) * (m * k + k * n + m * n));
}
