/* SUMMA's plan (summa_internal.h): the options checked before any work, then the
 * problem cut alike on every rank: P's rows and columns over the grid, the
 * inner dimension into M's and N's chunks and into pieces, in turns. */
#include "mpi/summa_internal.h"

#include <stdlib.h>
#include <string.h>

/* The panel width when none is given: wide enough for the kernels' tiles
 * and few broadcasts, narrow enough that the panels stay small beside the
 * blocks. */
#define DEFAULT_PANEL 256

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
int summa_check_options(const struct clmem_mpi *m, const struct clmem_summa_options *o,
                        struct summa_plan *p, struct clmem_error *err)
{
    const struct clmem_workload *w = &clmem_workload_matmul;
    /* The whole size, planned as a run of it would be (matmul's limits). */
    struct clmem_run whole = {.workload = w};
    struct clmem_run_settings settings;
    int status;
    if ((status = check_variant(o->variant, &p->variant, err)) ||
        (status = clmem_run_normalise(
             w, &(struct clmem_run_options){.size = o->size, .reps = o->reps}, &settings, err)))
        return status;
    whole.size = settings.size;
    p->reps = settings.options.reps;
    if ((status = w->plan(&whole, err)) || (status = check_grid(m, o, p, err)))
        return status;
    p->rows = p->whole.rows = whole.size.dim[0];
    p->cols = p->whole.cols = whole.size.dim[1];
    p->inner = p->whole.inner = whole.size.dim[2];
    clmem_size_format(&whole.size, p->size_text, sizeof p->size_text);
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

/* The pieces in the order they are multiplied: a run of consecutive
 * pieces with the same owners is a segment; the order takes every
 * segment's first piece, then every segment's second, and so on. In
 * inner order a rank that owns neither part of a segment would receive
 * both at every piece of it, its neighbours none; in turns each rank's
 * share evens out over the pieces in flight, and the owners of
 * consecutive pieces send at once. */
static int take_turns(struct summa_plan *p, struct clmem_error *err)
{
    size_t n = p->n_pieces, *start = clmem_alloc_array(n + 1, sizeof *start, err), segments = 0;
    struct piece *order = start ? clmem_alloc_array(n, sizeof *order, err) : NULL;
    if (!order) {
        free(start);
        return err->status;
    }
    for (size_t i = 0; i < n; i++)
        if (i == 0 || p->pieces[i].m_owner != p->pieces[i - 1].m_owner ||
            p->pieces[i].n_owner != p->pieces[i - 1].n_owner)
            start[segments++] = i;
    start[segments] = n;
    size_t taken = 0;
    for (size_t turn = 0; taken < n; turn++)
        for (size_t s = 0; s < segments; s++)
            if (start[s] + turn < start[s + 1])
                order[taken++] = p->pieces[start[s] + turn];
    free(p->pieces);
    p->pieces = order;
    free(start);
    return CLMEM_OK;
}

/* The pieces: [0, inner) cut at every panel boundary and at every chunk
 * boundary of M and of N (the sorted union of the three), in turns. */
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
    return take_turns(p, err);
}

/* How the problem is cut over the grid, alike on every rank. */
int summa_cut_problem(struct summa_plan *p, struct clmem_error *err)
{
    int status;
    if ((status = split_spans(p->rows, p->grid_rows, &p->p_rows, err)) ||
        (status = split_spans(p->cols, p->grid_cols, &p->p_cols, err)) ||
        (status = split_spans(p->inner, p->grid_cols, &p->m_inner, err)) ||
        (status = split_spans(p->inner, p->grid_rows, &p->n_inner, err)))
        return status;
    return cut_pieces(p, err);
}
