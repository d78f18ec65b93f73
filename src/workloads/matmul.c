/* Matrix multiplication, the textbook family (Kirk & Hwu ch. 4-5):
 * P (rows x cols) = M (rows x inner) x N (inner x cols). */
#include "workloads/matmul.h"
#include "workloads/matmul_internal.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *tiled_unsupported(const struct clmem_run *run, char *why, size_t size)
{
    const struct matmul_state *s = run->state;
    size_t t = s ? s->tile : clmem_pick_tile(&run->ctx->device, 32, 2, sizeof(float));
    if (run->size.dim[0] % t == 0 && run->size.dim[1] % t == 0 && run->size.dim[2] % t == 0)
        return NULL;
    snprintf(why, size,
             "needs every dimension to be a multiple of TILE_WIDTH=%zu on this device, as the "
             "textbook kernel does (use 'tiled_bounds' for any size)",
             t);
    return why;
}

/* OpenBLAS runs on the host's cores: a fair comparison only with a device
 * that is those cores. */
static const char *openblas_unsupported(const struct clmem_run *run, char *why, size_t size)
{
    struct clmem_error err = {0};
    if (clmem_compare_fits("openblas", &run->ctx->device, &err) == CLMEM_OK)
        return NULL;
    snprintf(why, size, "%s", err.message);
    return why;
}

/* regblock's parameters for the run: those it chose, else (named alone,
 * before the plan) the built-in row for the size. */
static const int *run_regblock(const struct clmem_run *run, int rb[])
{
    const struct matmul_state *s = run->state;
    if (s)
        return s->rb;
    builtin_regblock(&run->ctx->device, run->size.dim[0], run->size.dim[1], rb);
    return rb;
}

static const char *regblock_unsupported(const struct clmem_run *run, char *why, size_t size)
{
    int rb[CLMEM_MAX_PARAMS] = {0};
    return regblock_loop_misfit(&run->ctx->device, run_regblock(run, rb), run->size.dim[2], why,
                                size);
}

static const char *regblock_padded_unsupported(const struct clmem_run *run, char *why, size_t size)
{
    int rb[CLMEM_MAX_PARAMS] = {0};
    if (regblock_padded_misfit(&run->ctx->device, run->size.dim, why, size))
        return why;
    return regblock_loop_misfit(&run->ctx->device, run_regblock(run, rb), run->size.dim[2], why,
                                size);
}

static const char *cpu_blocked_unsupported(const struct clmem_run *run, char *why, size_t size)
{
    return cpu_blocked_misfit(&run->ctx->device, run->size.dim, why, size);
}

/* splitk where no plan keeps a work-item's K steps within the device's
 * loop limit (llvmpipe: regblock_max_steps) is skipped, saying why. */
static const char *splitk_unsupported(const struct clmem_run *run, char *why, size_t size)
{
    const struct clmem_device *device = &run->ctx->device;
    if (!clmem_device_loop_limit(device))
        return NULL;
    struct splitk_plan plan;
    splitk_plan_of(device, run->size.dim, NULL, &plan);
    if (plan.seconds >= 0 && plan.slice_steps &&
        plan.slice_steps <= regblock_max_steps(device, plan.p))
        return NULL;
    snprintf(why, size,
             "'%s' ends a work-item's loops after %lu iterations (Mesa's loop limiter: the "
             "results would be wrong), and no split of K=%zu keeps a slice within it",
             device->name, clmem_device_loop_limit(device), run->size.dim[2]);
    return why;
}

const struct clmem_variant matmul_variants[] = {
    [NAIVE] = {"naive", "one work-item per P element, all reads from global memory (Fig 4.3)",
               "MatrixMulKernel", NULL},
    [TILED] = {"tiled", "local-memory tiles with barriers; sizes multiple of the tile (Fig 4.16)",
               "MatrixMulTiled", tiled_unsupported, .check_sizes = "64x32x96"},
    [TILED_BOUNDS] = {"tiled_bounds", "tiled with boundary checks, any size (Fig 4.20)",
                      "MatrixMulTiledBounds", NULL},
    [COARSENED] = {"coarsened",
                   "several P elements per work-item reuse each M tile, any size (Fig 5.17)",
                   "MatrixMulCoarsened", NULL},
    [REGBLOCK] = {"regblock",
                  "register blocking: a block of P per work-item, vector loads, any size "
                  "(beyond the seeds)",
                  "MatrixMulRegisterBlocked", regblock_unsupported, .source = "matmul_regblock.cl",
                  .more_kernels = {"MatrixMulStreamKChecked"},
                  /* Also where some work-groups' blocks lie wholly inside P
                   * and take the unchecked vector path: 130x66x35 (rows not
                   * float4-aligned, so vload4; K's last step partial),
                   * 130x66x34 (K and N even: float2s) and 132x68x36
                   * (aligned float4s). */
                  .check_sizes = "7x7x7 33x17x9 66x34x18 35x19x11 130x66x35 130x66x34 132x68x36"},
    [REGBLOCK_PADDED] = {"regblock_padded",
                         "regblock on copies of M, N and P padded to whole tiles, every check "
                         "compiled away, the copies timed with it; any size (beyond the seeds: "
                         "CLBlast's indirect GEMM)",
                         "MatrixMulPaddedRegisterBlocked", regblock_padded_unsupported,
                         .source = "matmul_regblock.cl",
                         .more_kernels = {"MatrixPad", "MatrixUnpad", "MatrixMulStreamKPadded"},
                         /* Padded in every dimension (7x7x7, 35x19x11), and
                          * whole tiles, multiplied in place (64x64x16 on
                          * Oclgrind's row, 64x64 by 16). */
                         .check_sizes = "7x7x7 35x19x11 64x64x16"},
    [SPLITK] = {"splitk",
                "split-K: blocks of P by slices of K, each slice's sums in a workspace, added in "
                "a fixed order by a second pass; tiles and slices chosen for the shape, for P of "
                "few blocks (thin, K-heavy, small); any size (beyond the seeds)",
                "MatrixMulSplitK", splitk_unsupported, .source = "matmul_splitk.cl",
                .more_kernels = {"MatrixSumSlices"},
                /* On Oclgrind's device (one compute unit at 1 MHz, the
                 * rows for any GPU): 7x7x7 one block, one slice; 33x65x9
                 * blocks across both edges; 7x9x301 one block of 32 x 32
                 * across both, in two K slices (K 1 mod 4 and not whole K
                 * steps: vload4, the last step checked, the slices'
                 * sums added one by one); 32x32x264 a whole block in two
                 * slices, aligned; 6x10x302 the same with K and N even
                 * (float2s; tests/test_matmul.c checks that these split). */
                .check_sizes = "7x7x7 33x65x9 7x9x301 32x32x264 6x10x302"},
    [PANEL] = {"panel",
               "for CPUs: row panels of 16-wide vector accumulators, no local memory, any size "
               "(beyond the seeds)",
               "MatrixMulPanel", NULL, .source = "matmul_panel.cl"},
    [CPU_BLOCKED] = {"cpu_blocked",
                     "for CPUs: M and N packed into micro-panels, an MR x NR micro-tile of "
                     "native-width vector accumulators per work-item, any size (beyond the seeds: "
                     "BLIS's design)",
                     "MatrixMulCpuBlocked", cpu_blocked_unsupported, .source = "matmul_cpu.cl",
                     .more_kernels = {"MatrixMulPackM", "MatrixMulPackN"},
                     /* Oclgrind takes the AVX2 row: micro-tiles of 6 x 16,
                      * packs of 8 values of k. 7x7x7 under one micro-tile
                      * and one block of k, 33x17x9 and 35x19x11 one to
                      * three past them (six panels of M: a whole block of 4
                      * and a cut one), 12x32x16 wholly inside (the
                      * unguarded vector stores, whole packing blocks). */
                     .check_sizes = "7x7x7 33x17x9 35x19x11 12x32x16"},
    [CLBLAST] = {"clblast", "CLBlast's SGEMM on the same buffers (with --compare clblast)", NULL,
                 NULL, .library = "clblast"},
    [OPENBLAS] = {"openblas",
                  "OpenBLAS's cblas_sgemm on the host's cores, the same inputs, host wall time "
                  "(with --compare openblas, CPU devices)",
                  NULL, openblas_unsupported, .library = "openblas"},
    [AUTO] = {"auto",
              "one kernel variant chosen for the device and the size by a table of rules, run as "
              "itself; only when named, not in 'all'; the note names the choice and why",
              NULL, NULL,
              /* Its choice's kernels are checked at their own sizes:
               * one size that cuts every tile. */
              .check_sizes = "33x17x9"},
};

/* "all" runs each variant once, so auto, which runs one of the others
 * again, runs only when named. The harness selects every variant but the
 * libraries' for "all", auto with them: selected beside another kernel
 * variant, it came with "all", and is taken out here. */
static void auto_only_when_named(struct clmem_run *run)
{
    int others = 0;
    for (size_t i = 0; i < run->n_variants; i++)
        others |= !run->variants[i]->library && run->variants[i] != &matmul_variants[AUTO];
    size_t kept = 0;
    for (size_t i = 0; i < run->n_variants; i++)
        if (!others || run->variants[i] != &matmul_variants[AUTO])
            run->variants[kept++] = run->variants[i];
    run->n_variants = kept;
}

static int matmul_plan(struct clmem_run *run, struct clmem_error *err)
{
    auto_only_when_named(run);
    size_t rows = run->size.dim[0], cols = run->size.dim[1], inner = run->size.dim[2];
    size_t m_elems, n_elems, p_elems;
    /* The kernels index with int, as the figures do. */
    if (!clmem_mul_size(rows, inner, &m_elems) || !clmem_mul_size(inner, cols, &n_elems) ||
        !clmem_mul_size(rows, cols, &p_elems) || m_elems > INT_MAX || n_elems > INT_MAX ||
        p_elems > INT_MAX)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "size %zux%zux%zu is too large (each matrix at most %d elements)", rows,
                          cols, inner, INT_MAX);
    run->buffer_bytes[0] = m_elems * sizeof(float);
    run->buffer_bytes[1] = n_elems * sizeof(float);
    run->buffer_bytes[2] = p_elems * sizeof(float);
    run->n_buffers = 3;
    return CLMEM_OK;
}

/* cpu_blocked's parameters: its family's row, with the micro-tile and the
 * blocking tuned where the database or the tuner says. */
static void choose_cpu_blocked(struct clmem_run *run, struct matmul_state *s)
{
    const int *row = cpu_blocked_row(&run->ctx->device);
    int tuned[CLMEM_MAX_PARAMS];
    for (int i = 0; i <= CB_WG; i++)
        s->cb[i] = row[i];
    if (clmem_run_tuned(run, &matmul_tunables[2], tuned)) {
        s->cb[CB_MR] = tuned[0];
        s->cb[CB_NV] = tuned[1];
        s->cb[CB_MT] = tuned[2];
    }
    while ((size_t)s->cb[CB_WG] > run->ctx->device.max_work_group)
        s->cb[CB_WG] /= 2;
}

/* Whether the run runs variant `which`, selected or as auto's choice
 * (cpu_blocked's packed copies and regblock_padded's padded ones are made
 * only then). */
static int variant_selected(const struct clmem_run *run, int which)
{
    const struct matmul_state *s = run->state;
    if (s->chosen == &matmul_variants[which])
        return 1;
    for (size_t i = 0; i < run->n_variants; i++)
        if (run->variants[i] == &matmul_variants[which])
            return 1;
    return 0;
}

/* The plan for the run, then the sums and the counters (zero, as the
 * kernel leaves them after each launch). */
static int stream_k_setup(struct clmem_run *run, struct matmul_state *s, struct clmem_error *err)
{
    const size_t dim[3] = {s->host.rows, s->host.cols, s->host.inner};
    struct stream_k_plan plan = stream_k_plan_of(&run->ctx->device, s->rb, dim);
    s->sk_groups = plan.groups;
    s->sk_tiles = plan.tiles;
    s->sk_direct = plan.direct;
    if (!plan.groups)
        return CLMEM_OK;
    int status;
    if ((status = clmem_buffer_create(run->ctx, CL_MEM_READ_WRITE, (size_t)plan.sums, NULL,
                                      &s->dPartial, err)) ||
        (status = clmem_buffer_create(run->ctx, CL_MEM_READ_WRITE, s->sk_tiles * sizeof(cl_uint),
                                      NULL, &s->dArrived, err)))
        return status;
    return clmem_buffer_fill_zero(run->ctx, s->dArrived, s->sk_tiles * sizeof(cl_uint), err);
}

/* regblock_padded's copies, where a dimension is not a whole number of
 * tiles: M (rows x inner) and N (inner x cols) padded with zeros, P
 * (rows x cols) written padded, then copied out. */
static int regblock_padded_setup(struct clmem_run *run, struct matmul_state *s,
                                 struct clmem_error *err)
{
    const size_t dims[3] = {s->host.rows, s->host.cols, s->host.inner},
                 tiles[3] = {(size_t)s->rb[P_TSM], (size_t)s->rb[P_TSN], (size_t)s->rb[P_TSK]};
    for (int d = 0; d < 3; d++)
        s->padded[d] = (dims[d] + tiles[d] - 1) / tiles[d] * tiles[d];
    const size_t *p = s->padded;
    if (p[0] == dims[0] && p[1] == dims[1] && p[2] == dims[2])
        return CLMEM_OK;
    int status;
    if ((status = clmem_buffer_create(run->ctx, CL_MEM_READ_WRITE, p[0] * p[2] * sizeof(float),
                                      NULL, &s->dMpad, err)) ||
        (status = clmem_buffer_create(run->ctx, CL_MEM_READ_WRITE, p[2] * p[1] * sizeof(float),
                                      NULL, &s->dNpad, err)))
        return status;
    return clmem_buffer_create(run->ctx, CL_MEM_READ_WRITE, p[0] * p[1] * sizeof(float), NULL,
                               &s->dPpad, err);
}

/* The tuner's candidate or the tuning database's entry, else the built-in
 * row. A tuned shape takes SK_UNITS from the row of the same shape, if any. */
static void choose_regblock(struct clmem_run *run, struct matmul_state *s)
{
    const struct clmem_device *device = &run->ctx->device;
    int tuned[CLMEM_MAX_PARAMS] = {0};
    if (!clmem_run_tuned(run, &matmul_tunables[0], tuned)) {
        builtin_regblock(device, s->host.rows, s->host.cols, s->rb);
        return;
    }
    const struct clmem_param_row *rows[8];
    enum clmem_param_level level;
    size_t n = clmem_param_lookup(&regblock_table, device, rows, CLMEM_ARRAY_SIZE(rows), &level);
    for (size_t i = 0; i < n; i++)
        if (!memcmp(rows[i]->values, tuned, (P_WPTN + 1) * sizeof(int)))
            tuned[P_SK_UNITS] = rows[i]->values[P_SK_UNITS];
    memcpy(s->rb, tuned, sizeof tuned);
}

int matmul_splitk_choose(const struct clmem_device *device, size_t rows, size_t cols, size_t inner,
                         char *plan, size_t plan_size)
{
    const size_t dim[3] = {rows, cols, inner};
    struct splitk_plan p;
    splitk_plan_of(device, dim, NULL, &p);
    splitk_describe(&p, plan, plan_size);
    return p.p[SPL_SPLITS];
}

const char *matmul_auto_choose(const struct clmem_device *device, size_t rows, size_t cols,
                               size_t inner, char *why, size_t why_size)
{
    const size_t dim[3] = {rows, cols, inner};
    int rb[CLMEM_MAX_PARAMS] = {0};
    builtin_regblock(device, rows, cols, rb);
    return matmul_variants[auto_decide(device, dim, rb, matmul_variants, why, why_size)].name;
}

/* What `clmem tune` measured on this device, with this driver, at this
 * very shape, refines the model: where it holds the model's choice and
 * another of matmul's tunable variants, the faster of them as measured.
 * Else (or where the run ignores the database) the model's choice. Only
 * the same shape: a size class holds square and thin shapes alike, and a
 * whole-device fit measures the square one. */
static int auto_refine(struct clmem_run *run, int choice, char *why, size_t size)
{
    const struct clmem_device *device = &run->ctx->device;
    const struct matmul_state *s = run->state;
    struct clmem_tuning_entry *entries = NULL;
    struct clmem_error err = {0};
    size_t n = 0;
    if (run->ignore_tuning || run->tune_values ||
        clmem_tuning_db_entries(device->name, &entries, &n, &err) != CLMEM_OK) {
        clmem_error_clear(&err);
        return choice;
    }
    char size_class[64], shape[64], misfit[256];
    clmem_size_class(&run->size, size_class, sizeof size_class);
    clmem_size_shape(&run->size, shape, sizeof shape);
    const struct clmem_tuning_entry *mine = NULL, *best = NULL;
    for (size_t i = 0; i < n; i++) {
        const struct clmem_tuning_entry *e = &entries[i];
        const struct clmem_variant *v = clmem_variant_find(run->workload, e->variant);
        if (!v || strcmp(e->workload, run->workload->name) || strcmp(e->driver, device->driver) ||
            strcmp(e->size_class, size_class) || strcmp(e->shape, shape) || !(e->metric > 0) ||
            v->library ||
            auto_misfit(device, (int)(v - matmul_variants), run->size.dim, s->rb, misfit,
                        sizeof misfit))
            continue;
        if (v == &matmul_variants[choice])
            mine = e;
        if (!best || e->metric > best->metric)
            best = e;
    }
    int chosen = choice;
    if (mine && best != mine) {
        chosen = (int)(clmem_variant_find(run->workload, best->variant) - matmul_variants);
        snprintf(why, size, "clmem tune measured %.4g %s here against %s's %.4g", best->metric,
                 best->unit, mine->variant, mine->metric);
    }
    free(entries);
    return chosen;
}

/* The widest float vector every row of M (K floats) and N (cols) starts
 * on: regblock's and splitk's loads and stores (VEC_ALIGNED,
 * SPLITK_ALIGNED in cl/matmul_regblock.cl). */
static int row_vector(size_t inner, size_t cols)
{
    return inner % 4 == 0 && cols % 4 == 0 ? 4 : inner % 2 == 0 && cols % 2 == 0 ? 2 : 1;
}

/* clmem_run_build makes the kernels of the run's selected variants: auto
 * has none of its own, so its choice stands in its place while they are
 * made. */
static int matmul_build(struct clmem_run *run, const char *options, struct clmem_error *err)
{
    const struct matmul_state *s = run->state;
    size_t slot = run->n_variants;
    for (size_t i = 0; i < run->n_variants; i++)
        if (run->variants[i] == &matmul_variants[AUTO])
            slot = i;
    if (slot < run->n_variants)
        run->variants[slot] = s->chosen;
    int status = clmem_run_build(run, options, err);
    if (slot < run->n_variants)
        run->variants[slot] = &matmul_variants[AUTO];
    return status;
}

static int matmul_setup(struct clmem_run *run, struct clmem_error *err)
{
    struct matmul_state *s = run->state;
    int status;
    s->host.rows = run->size.dim[0];
    s->host.cols = run->size.dim[1];
    s->host.inner = run->size.dim[2];
    s->tile = clmem_pick_tile(&run->ctx->device, 32, 2, sizeof(float));
    size_t m_elems = s->host.rows * s->host.inner, n_elems = s->host.inner * s->host.cols,
           p_elems = s->host.rows * s->host.cols;
    /* A block's inputs are its caller's (matmul_block_setup). */
    if (!s->block && (status = matmul_problem_make(&s->host, run->seed, err)))
        return status;

    choose_regblock(run, s);
    if (!clmem_run_tuned(run, &matmul_tunables[1], &s->panel_rows))
        s->panel_rows = PANEL_ROWS;
    choose_cpu_blocked(run, s);
    if (variant_selected(run, AUTO)) {
        const size_t dim[3] = {s->host.rows, s->host.cols, s->host.inner};
        int choice = auto_decide(&run->ctx->device, dim, s->rb, matmul_variants, s->chosen_why,
                                 sizeof s->chosen_why);
        s->chosen = &matmul_variants[auto_refine(run, choice, s->chosen_why, sizeof s->chosen_why)];
    }
    /* The flags a size sets only where their variant runs, so that one
     * program serves every size of the others; regblock's file holds only
     * the kernels of the variants that run (PoCL compiles every kernel of a
     * program whose binary clmem's cache reads). */
    int direct = variant_selected(run, REGBLOCK), padded = variant_selected(run, REGBLOCK_PADDED),
        panel = variant_selected(run, PANEL);
    int full_tiles = direct && s->host.rows % s->rb[P_TSM] == 0 &&
                     s->host.cols % s->rb[P_TSN] == 0 && s->host.inner % s->rb[P_TSK] == 0;
    char options[512];
    snprintf(options, sizeof options,
             "-DTILE_WIDTH=%zu -DCOARSE_FACTOR=%d -DTSM=%d -DTSN=%d -DTSK=%d -DWPTM=%d -DWPTN=%d "
             "-DREGBLOCK_DIRECT=%d -DREGBLOCK_PADDED=%d -DFULL_TILES=%d -DK_FULL=%d "
             "-DVEC_ALIGNED=%d -DPANEL_ROWS=%d -DPANEL_FULL=%d -DCPU_VEC=%d -DCPU_MR=%d "
             "-DCPU_NV=%d -DCPU_MT=%d -DCPU_WG=%d",
             s->tile, COARSE_FACTOR, s->rb[P_TSM], s->rb[P_TSN], s->rb[P_TSK], s->rb[P_WPTM],
             s->rb[P_WPTN], direct, padded, full_tiles, direct && s->host.inner % s->rb[P_TSK] == 0,
             direct ? row_vector(s->host.inner, s->host.cols) : 1, s->panel_rows,
             panel && s->host.rows % (size_t)s->panel_rows == 0 && s->host.cols % 16 == 0,
             s->cb[CB_VEC], s->cb[CB_MR], s->cb[CB_NV], s->cb[CB_MT], s->cb[CB_WG]);
    int split = variant_selected(run, SPLITK);
    if (split) {
        const size_t dim[3] = {s->host.rows, s->host.cols, s->host.inner};
        int tuned[CLMEM_MAX_PARAMS] = {0};
        splitk_plan_of(&run->ctx->device, dim,
                       clmem_run_tuned(run, &matmul_tunables[3], tuned) ? tuned : NULL, &s->split);
        const int *k = s->split.p;
        size_t len = strlen(options);
        snprintf(options + len, sizeof options - len,
                 " -DSPLITK_TSM=%d -DSPLITK_TSN=%d -DSPLITK_TSK=%d -DSPLITK_WPTM=%d "
                 "-DSPLITK_WPTN=%d -DSPLITK_SPLITS=%d -DSPLITK_K_FULL=%d -DSPLITK_ALIGNED=%d "
                 "-DSPLITK_EDGE=%d",
                 k[SPL_TSM], k[SPL_TSN], k[SPL_TSK], k[SPL_WPTM], k[SPL_WPTN], k[SPL_SPLITS],
                 s->host.inner % (size_t)k[SPL_TSK] == 0, row_vector(s->host.inner, s->host.cols),
                 s->host.rows % (size_t)k[SPL_TSM] || s->host.cols % (size_t)k[SPL_TSN]);
    }
    if ((status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, m_elems * sizeof(float),
                                      s->host.M, &s->dM, err)) ||
        (status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, n_elems * sizeof(float),
                                      s->host.N, &s->dN, err)) ||
        (status = clmem_run_output_buffer(run, "P", s->p_flags ? s->p_flags : CL_MEM_WRITE_ONLY,
                                          p_elems * sizeof(float), &s->dP, err)) ||
        (status = matmul_build(run, options, err)))
        return status;
    if ((direct || padded) && (status = stream_k_setup(run, s, err)))
        return status;
    if (padded && (status = regblock_padded_setup(run, s, err)))
        return status;
    /* splitk's workspace: a rows x cols slice per K slice (plan() bounded
     * P to INT_MAX elements, splitk_plan_of the slices to what fits). */
    if (split && s->split.p[SPL_SPLITS] > 1 &&
        (status = clmem_buffer_create(run->ctx, CL_MEM_READ_WRITE,
                                      (size_t)s->split.p[SPL_SPLITS] * p_elems * sizeof(float),
                                      NULL, &s->dWork, err)))
        return status;
    if (variant_selected(run, CPU_BLOCKED)) {
        size_t m_packed = 0, n_packed = 0;
        cpu_blocked_packed(s->cb, s->host.rows, s->host.cols, s->host.inner, &m_packed, &n_packed);
        if ((status = clmem_buffer_create(run->ctx, CL_MEM_READ_WRITE, m_packed * sizeof(float),
                                          NULL, &s->dMp, err)) ||
            (status = clmem_buffer_create(run->ctx, CL_MEM_READ_WRITE, n_packed * sizeof(float),
                                          NULL, &s->dNp, err)))
            return status;
    }
    return CLMEM_OK;
}

static int matmul_execute(struct clmem_run *run, const struct clmem_variant *v,
                          struct clmem_timing *timing, struct clmem_error *err)
{
    struct matmul_state *s = run->state;
    if (v == &matmul_variants[AUTO])
        v = s->chosen;
    if (v == &matmul_variants[OPENBLAS])
        return clmem_openblas_sgemm(s->host.rows, s->host.cols, s->host.inner, s->host.M, s->host.N,
                                    s->host.P, timing, err);
    if (v == &matmul_variants[CPU_BLOCKED])
        return cpu_blocked_execute(run, v, s, timing, err);
    if (v == &matmul_variants[REGBLOCK_PADDED])
        return regblock_padded_execute(run, v, s, timing, err);
    if (v == &matmul_variants[SPLITK])
        return splitk_execute(run, v, s, timing, err);
    if (v->library)
        return clmem_clblast_sgemm(run->ctx, s->host.rows, s->host.cols, s->host.inner, s->dM,
                                   s->dN, s->dP, timing, err);
    cl_kernel kernel = clmem_run_kernel(run, v);
    if (v == &matmul_variants[REGBLOCK])
        return regblock_gemm(run, kernel, s->sk_direct ? clmem_run_more_kernel(run, v, 0) : NULL,
                             s->dM, s->dN, s->dP, s->host.rows, s->host.cols, s->host.inner, timing,
                             err);
    cl_int rows = (cl_int)s->host.rows, cols = (cl_int)s->host.cols, inner = (cl_int)s->host.inner;
    int status =
        clmem_kernel_args(kernel, err, CLMEM_ARG(s->dM), CLMEM_ARG(s->dN), CLMEM_ARG(s->dP),
                          CLMEM_ARG(rows), CLMEM_ARG(cols), CLMEM_ARG(inner));
    if (status)
        return status;
    size_t global[2] = {s->host.cols, s->host.rows}, local[2] = {s->tile, s->tile};
    /* Each coarsened work-group covers COARSE_FACTOR tiles of columns. */
    if (v == &matmul_variants[COARSENED])
        global[0] =
            (s->host.cols + s->tile * COARSE_FACTOR - 1) / (s->tile * COARSE_FACTOR) * s->tile;
    if (v == &matmul_variants[PANEL]) {
        /* One work-item per PANEL_ROWS x 16 panel; the work-group is the
         * driver's choice (a CPU runs groups on its cores). */
        size_t rows = (size_t)s->panel_rows;
        size_t panels[2] = {(s->host.cols + 15) / 16, (s->host.rows + rows - 1) / rows};
        return clmem_launch(run->ctx, kernel, 2, panels, NULL, timing, err);
    }
    return clmem_launch(run->ctx, kernel, 2, global, local, timing, err);
}

static int matmul_prepare(struct clmem_run *run, const struct clmem_variant *v,
                          struct clmem_error *err)
{
    (void)v;
    struct matmul_state *s = run->state;
    return clmem_buffer_poison(run->ctx, s->dP, s->host.rows * s->host.cols * sizeof(float), err);
}

static int matmul_verify(struct clmem_run *run, const struct clmem_variant *v,
                         struct clmem_check *check, struct clmem_error *err)
{
    struct matmul_state *s = run->state;
    const struct clmem_variant *asked = v;
    if (v == &matmul_variants[AUTO])
        v = s->chosen;
    /* OpenBLAS wrote its P on the host. */
    int status =
        v == &matmul_variants[OPENBLAS]
            ? CLMEM_OK
            : clmem_buffer_read(run->ctx, s->dP, s->host.rows * s->host.cols * sizeof(float),
                                s->host.P, err);
    if (status)
        return status;
    matmul_problem_check(&s->host, check);
    if (v == &matmul_variants[OPENBLAS])
        clmem_openblas_describe(check->note, sizeof check->note);
    size_t tsm = (size_t)s->rb[P_TSM], tsn = (size_t)s->rb[P_TSN];
    if ((v == &matmul_variants[REGBLOCK] && s->sk_direct) ||
        (v == &matmul_variants[REGBLOCK_PADDED] && s->sk_groups))
        snprintf(check->note, sizeof check->note,
                 "stream-K: %zu work-groups share %zu of %zu blocks", s->sk_groups, s->sk_tiles,
                 (s->host.rows + tsm - 1) / tsm * ((s->host.cols + tsn - 1) / tsn));
    if (v == &matmul_variants[SPLITK]) {
        char plan[sizeof check->note - 16];
        splitk_describe(&s->split, plan, sizeof plan);
        snprintf(check->note, sizeof check->note, "split-K: %s", plan);
    }
    if (asked == &matmul_variants[AUTO]) {
        /* The choice first, so that a long note keeps it; its parameters
         * from the tuning database (regblock_padded takes regblock's). */
        size_t index = (size_t)(v - matmul_variants);
        int tuned = run->from_database[v == &matmul_variants[REGBLOCK_PADDED] ? REGBLOCK : index];
        char kept[sizeof check->note];
        memcpy(kept, check->note, sizeof kept);
        matmul_auto_note(check->note, sizeof check->note, v->name, s->chosen_why, tuned, kept);
    }
    return CLMEM_OK;
}

void matmul_auto_note(char *note, size_t size, const char *variant, const char *why, int tuned,
                      const char *kept)
{
    int len = snprintf(note, size, "auto: %s (%s)%s", variant, why,
                       tuned ? ", tuned parameters (clmem tune)" : "");
    /* The variant's own note after it, where it fits whole. */
    if (kept[0] && len > 0 && (size_t)len + 2 + strlen(kept) < size)
        snprintf(note + len, size - (size_t)len, "; %s", kept);
}

/* 2MNK / (4(MK + KN + MN)): matmul_flops_per_byte. */
static double matmul_intensity(const struct clmem_run *run, const struct clmem_variant *v)
{
    (void)v;
    return matmul_flops_per_byte(run->size.dim[0], run->size.dim[1], run->size.dim[2]);
}

int matmul_block_setup(struct clmem_run *run, const float *M, const float *N, cl_mem_flags p_flags,
                       struct clmem_error *err)
{
    struct matmul_state *s = run->state;
    s->block = 1;
    s->p_flags = p_flags;
    s->host.M = (float *)M; /* not written, not freed: the caller's */
    s->host.N = (float *)N;
    return matmul_setup(run, err);
}

void matmul_block_buffers(const struct clmem_run *run, cl_mem *M, cl_mem *N, cl_mem *P)
{
    const struct matmul_state *s = run->state;
    *M = s->dM;
    *N = s->dN;
    *P = s->dP;
}

int matmul_block_launch(struct clmem_run *run, const struct clmem_variant *v, cl_mem M, cl_mem N,
                        cl_mem P, struct clmem_timing *timing, struct clmem_error *err)
{
    struct matmul_state *s = run->state;
    cl_mem own[3] = {s->dM, s->dN, s->dP};
    s->dM = M;
    s->dN = N;
    s->dP = P;
    int status = matmul_execute(run, v, timing, err);
    s->dM = own[0];
    s->dN = own[1];
    s->dP = own[2];
    return status;
}

static void matmul_teardown(struct clmem_run *run)
{
    struct matmul_state *s = run->state;
    clmem_release_mem(&s->dM);
    clmem_release_mem(&s->dN);
    clmem_release_mem(&s->dP);
    clmem_release_mem(&s->dMp);
    clmem_release_mem(&s->dNp);
    clmem_release_mem(&s->dMpad);
    clmem_release_mem(&s->dNpad);
    clmem_release_mem(&s->dPpad);
    clmem_release_mem(&s->dPartial);
    clmem_release_mem(&s->dArrived);
    clmem_release_mem(&s->dWork);
    /* A block's inputs are its caller's. */
    if (s->block)
        s->host.M = s->host.N = NULL;
    matmul_problem_free(&s->host);
}

static const char *const matmul_bench_sizes[] = {"1024", "2048", "4096", "8192", NULL};
static const char *const matmul_bench_sizes_cpu[] = {"512", "1024", NULL};

const struct clmem_workload clmem_workload_matmul = {
    .name = "matmul",
    .summary = "matrix multiplication P = M x N, single precision",
    .source = "matmul.cl",
    .default_size = "1024",
    .bench_sizes = matmul_bench_sizes,
    .bench_sizes_cpu = matmul_bench_sizes_cpu,
    .tunables = matmul_tunables,
    .n_tunables = CLMEM_ARRAY_SIZE(matmul_tunables),
    .param_tables = matmul_param_tables,
    .n_param_tables = CLMEM_ARRAY_SIZE(matmul_param_tables),
    .fit = matmul_fit,
    .size_help = "N (square) or MxNxK: P is MxN, M is MxK, N is KxN",
    .max_dims = 3,
    /* Every dimension 3, 1 and 2 mod 4 (float4 edges) and cut by each tile
     * (TILE_WIDTH 32, regblock's TSM/TSN 64 and TSK 16 on Oclgrind, panel
     * 8x16): 7x7x7 under every tile, 33x17x9 one past 32 and 8, 66x34x18
     * two past 64, 32 and 16, 35x19x11 three past 32 and 8. (At 33x17x9
     * alone, a float4 load reading one float past a row passed.) */
    .check_sizes = "7x7x7 33x17x9 66x34x18 35x19x11",
    .variants = matmul_variants,
    .n_variants = CLMEM_ARRAY_SIZE(matmul_variants),
    .metric_unit = "GFLOP/s",
    .state_size = sizeof(struct matmul_state),
    .plan = matmul_plan,
    .setup = matmul_setup,
    .execute = matmul_execute,
    .prepare = matmul_prepare,
    .verify = matmul_verify,
    .work_per_element = 2.0, /* 2*M*N*K flops, as the seeds count them */
    .intensity = matmul_intensity,
    .traffic = matmul_traffic,
    .teardown = matmul_teardown,
};
