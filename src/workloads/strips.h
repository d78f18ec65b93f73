/* The strip-coarsened variants (blur's and constmem's `coarsened`): a
 * work-item computes a strip of VEC outputs of a row by ROWS rows, each
 * input row read as vectors at every offset of the stencil (STRIP_LOAD 1)
 * or as one aligned load (2), no edge checks inside the image. The two
 * workloads differ in their kernels and their built-in rows; how a strip
 * is chosen, checked, built and launched is the same, and lives here once
 * (strips.c). */
#ifndef CLMEM_WORKLOADS_STRIPS_H
#define CLMEM_WORKLOADS_STRIPS_H

#include "harness/workload.h"

/* The tunable's parameters, in this order: VEC, ROWS, STRIP_LOAD; a
 * built-in row's values add after them the fewest strips across a row of
 * the input that it is taken for (strips_builtin). */
enum { STRIP_VEC, STRIP_ROWS, STRIP_LOAD, STRIP_PARAMS, STRIP_MIN_ACROSS = STRIP_PARAMS };

struct strips {
    int values[STRIP_PARAMS]; /* VEC, ROWS, STRIP_LOAD */
    size_t local[2];          /* the work-group */
};

/* Whether a candidate strip can run: VEC a vector width (1, 2, 4, 8, 16),
 * 1 <= ROWS <= max_rows, STRIP_LOAD 1, or 2 where VEC >= min_aligned_vec.
 * Any strip runs on any device (no local memory). */
int strips_valid(const int v[], int max_rows, int min_aligned_vec);

/* The built-in strip (VEC, ROWS, STRIP_LOAD) for a row of `row_len`
 * elements: of the device's rows of `rows` at its most specific level
 * (clmem_param_rows: device -> family -> vendor -> any), in table order,
 * the first whose row_len / VEC reaches its value STRIP_MIN_ACROSS (0 in
 * a row that fits any width), else the last. */
const int *strips_builtin(const struct clmem_param_row *rows, size_t n_rows,
                          const struct clmem_device *device, size_t row_len);

/* The run's strip: the tuned values of `tunable` (clmem_run_tuned), else
 * the built-in one for rows of `row_len` elements (strips_builtin); its
 * work-group up to 64 wide, CLMEM_GROUP_SIZE in all. */
void strips_choose(struct clmem_run *run, const struct clmem_tunable *tunable,
                   const struct clmem_param_row *rows, size_t n_rows, size_t row_len,
                   struct strips *s);

/* The strip's -D options ("-DVEC=.. -DROWS=.. -DSTRIP_LOAD=.. -DALIGNED=.."),
 * ALIGNED 1 where a row of `row_len` elements holds whole vectors. */
void strips_options(const struct strips *s, size_t row_len, char *out, size_t size);

/* Launches `kernel` with one work-item per strip over `cols` x `rows`. */
int strips_launch(struct clmem_run *run, cl_kernel kernel, const struct strips *s, size_t cols,
                  size_t rows, struct clmem_timing *timing, struct clmem_error *err);

#endif
