/* The strip-coarsened variants' host side, shared by blur and constmem
 * (strips.h): one way to choose, check, build and launch a strip. */
#include "strips.h"

#include <stdio.h>

int strips_valid(const int v[], int max_rows, int min_aligned_vec)
{
    int vec = v[STRIP_VEC], rows = v[STRIP_ROWS], load = v[STRIP_LOAD];
    return (vec == 1 || vec == 2 || vec == 4 || vec == 8 || vec == 16) && rows >= 1 &&
           rows <= max_rows && (load == 1 || (load == 2 && vec >= min_aligned_vec));
}

const int *strips_builtin(const struct clmem_param_row *rows, size_t n_rows,
                          const struct clmem_device *device, size_t row_len)
{
    const struct clmem_param_row *candidates[4];
    enum clmem_param_level level;
    /* Every table ends with a row for any device of any type and width:
     * one of the rows at the level found fits. */
    size_t n = clmem_param_rows(rows, n_rows, device, candidates, CLMEM_ARRAY_SIZE(candidates),
                                &level);
    for (size_t i = 0; i + 1 < n; i++)
        if (row_len / (size_t)candidates[i]->values[STRIP_VEC] >=
            (size_t)candidates[i]->values[STRIP_MIN_ACROSS])
            return candidates[i]->values;
    return candidates[n - 1]->values;
}

void strips_choose(struct clmem_run *run, const struct clmem_tunable *tunable,
                   const struct clmem_param_row *rows, size_t n_rows, size_t row_len,
                   struct strips *s)
{
    const struct clmem_device *device = &run->ctx->device;
    /* tunable's n_params is STRIP_PARAMS: the tuned values fit. */
    if (!clmem_run_tuned(run, tunable, s->values)) {
        const int *builtin = strips_builtin(rows, n_rows, device, row_len);
        for (int i = 0; i < STRIP_PARAMS; i++)
            s->values[i] = builtin[i];
    }
    s->local[0] = clmem_pick_group(device, 64);
    s->local[1] = clmem_pick_group(device, CLMEM_GROUP_SIZE) / s->local[0];
}

void strips_options(const struct strips *s, size_t row_len, char *out, size_t size)
{
    snprintf(out, size, "-DVEC=%d -DROWS=%d -DSTRIP_LOAD=%d -DALIGNED=%d", s->values[STRIP_VEC],
             s->values[STRIP_ROWS], s->values[STRIP_LOAD],
             row_len % (size_t)s->values[STRIP_VEC] == 0);
}

int strips_launch(struct clmem_run *run, cl_kernel kernel, const struct strips *s, size_t cols,
                  size_t rows, struct clmem_timing *timing, struct clmem_error *err)
{
    size_t vec = (size_t)s->values[STRIP_VEC], strip_rows = (size_t)s->values[STRIP_ROWS];
    size_t global[2] = {(cols + vec - 1) / vec, (rows + strip_rows - 1) / strip_rows};
    return clmem_launch(run->ctx, kernel, 2, global, s->local, timing, err);
}
