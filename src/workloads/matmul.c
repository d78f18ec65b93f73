/* Matrix multiplication, the textbook family (Kirk & Hwu ch. 4-5):
 * P (rows x cols) = M (rows x inner) x N (inner x cols). */
#include "clmem/clmem.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Output values checked in full up to this many multiply-adds of CPU
 * reference work; past it, whole rows spread over P are checked, so large
 * GPU runs stay verifiable in seconds. */
#define REFERENCE_BUDGET (1UL << 28)

enum { NAIVE, TILED, TILED_BOUNDS, COARSENED, REGBLOCK, PANEL, CLBLAST };

/* Register-blocking parameters per device: P block per work-group (TSM x
 * TSN), K step (TSK), P elements per work-item (WPTM x WPTN; multiples of
 * 4, as TSK, for the kernel's float4s).
 * Several rows for one device are candidates, largest block first: the
 * first that gives at least half the compute units a work-group at the
 * run's size is used (a 256x128 block leaves most of an H100 idle at 1024;
 * at 2048 its 128 groups on 132 units still beat smaller blocks), else the
 * device's last. Measured on the H100 (bench/README.md): 256x128x8 with
 * 16x8 per work-item from 2048 up, 64x128x8 with 8x8 at 1024. PoCL on
 * CPUs: few work-items per group, each a wide block of float4s. */
enum { P_TSM, P_TSN, P_TSK, P_WPTM, P_WPTN };
static const struct clmem_param_row regblock_params[] = {
    {"NVIDIA", CL_DEVICE_TYPE_GPU, {256, 128, 8, 16, 8}},
    {"NVIDIA", CL_DEVICE_TYPE_GPU, {128, 128, 8, 8, 8}},
    {"NVIDIA", CL_DEVICE_TYPE_GPU, {64, 128, 8, 8, 8}},
    {NULL, CL_DEVICE_TYPE_GPU, {64, 64, 16, 4, 4}},
    {NULL, CL_DEVICE_TYPE_CPU, {16, 64, 8, 16, 32}},
    {NULL, 0, {32, 32, 8, 4, 4}},
};

/* Rows of P per work-item in the panel kernel (16 columns each). */
#define PANEL_ROWS 8

/* P elements per work-item in the coarsened kernel (Fig 5.17 uses 2; 4
 * reuses each M tile more and still fits every device's registers). */
#define COARSE_FACTOR 4

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
};

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

static const struct clmem_variant matmul_variants[] = {
    [NAIVE] = {"naive", "one work-item per P element, all reads from global memory (Fig 4.3)",
               "MatrixMulKernel", NULL},
    [TILED] = {"tiled", "local-memory tiles with barriers; sizes multiple of the tile (Fig 4.16)",
               "MatrixMulTiled", tiled_unsupported},
    [TILED_BOUNDS] = {"tiled_bounds", "tiled with boundary checks, any size (Fig 4.20)",
                      "MatrixMulTiledBounds", NULL},
    [COARSENED] = {"coarsened",
                   "several P elements per work-item reuse each M tile, any size (Fig 5.17)",
                   "MatrixMulCoarsened", NULL},
    [REGBLOCK] = {"regblock",
                  "register blocking: a block of P per work-item, vector loads, any size "
                  "(beyond the seeds)",
                  "MatrixMulRegisterBlocked", NULL},
    [PANEL] = {"panel",
               "for CPUs: row panels of 16-wide vector accumulators, no local memory, any size "
               "(beyond the seeds)",
               "MatrixMulPanel", NULL},
    [CLBLAST] = {"clblast", "CLBlast's SGEMM on the same buffers (with --compare clblast)", NULL,
                 NULL, .library = "clblast"},
};

static int matmul_plan(struct clmem_run *run, struct clmem_error *err)
{
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

/* The host MatrixMul of the lecture, in double, for the chosen rows only;
 * also sums |M*N| so the tolerance is relative to the terms' magnitude. */
static void reference_rows(struct matmul_state *s)
{
    for (size_t r = 0; r < s->n_ref_rows; r++) {
        size_t i = s->ref_row[r];
        double *ref = s->ref + r * s->cols, *mag = s->ref_magnitude + r * s->cols;
        for (size_t j = 0; j < s->cols; j++)
            ref[j] = mag[j] = 0.0;
        for (size_t k = 0; k < s->inner; k++) {
            double a = s->M[i * s->inner + k];
            const float *n_row = s->N + k * s->cols;
            for (size_t j = 0; j < s->cols; j++) {
                double term = a * n_row[j];
                ref[j] += term;
                mag[j] += fabs(term);
            }
        }
    }
}

/* The inputs from the seed and the CPU reference of the chosen rows. */
static int host_inputs(struct matmul_state *s, uint64_t seed, struct clmem_error *err)
{
    size_t m_elems = s->rows * s->inner, n_elems = s->inner * s->cols, p_elems = s->rows * s->cols;
    /* cols * inner fits: plan() bounded each matrix to INT_MAX elements. */
    s->n_ref_rows = REFERENCE_BUDGET / (s->cols * s->inner);
    if (s->n_ref_rows < 8)
        s->n_ref_rows = 8;
    if (s->n_ref_rows > s->rows)
        s->n_ref_rows = s->rows;
    if (!(s->M = clmem_alloc_array(m_elems, sizeof(float), err)) ||
        !(s->N = clmem_alloc_array(n_elems, sizeof(float), err)) ||
        !(s->P = clmem_alloc_array(p_elems, sizeof(float), err)) ||
        !(s->ref_row = clmem_alloc_array(s->n_ref_rows, sizeof(size_t), err)) ||
        !(s->ref = clmem_alloc_array(s->n_ref_rows * s->cols, sizeof(double), err)) ||
        !(s->ref_magnitude = clmem_alloc_array(s->n_ref_rows * s->cols, sizeof(double), err)))
        return err->status;
    /* Rows spread evenly from the first to the last. */
    for (size_t r = 0; r < s->n_ref_rows; r++)
        s->ref_row[r] = s->n_ref_rows > 1 ? r * (s->rows - 1) / (s->n_ref_rows - 1) : 0;
    clmem_fill_uniform(s->M, m_elems, -1.0f, 1.0f, seed);
    clmem_fill_uniform(s->N, n_elems, -1.0f, 1.0f, seed + 1);
    reference_rows(s);
    return CLMEM_OK;
}

/* A row's parameters, shrunk until the device takes them (work-group
 * size, local memory). */
static void fit_regblock(const struct clmem_device *device, const int *row, int rb[])
{
    for (int i = 0; i <= P_WPTN; i++)
        rb[i] = row[i];
    for (;;) {
        size_t wg = (size_t)(rb[P_TSM] / rb[P_WPTM]) * (size_t)(rb[P_TSN] / rb[P_WPTN]);
        /* Two buffers of each tile (double buffering). */
        size_t local = 2 * (size_t)rb[P_TSK] * (size_t)(rb[P_TSM] + rb[P_TSN]) * sizeof(float);
        if ((wg <= device->max_work_group && local <= device->local_mem) || rb[P_TSM] <= rb[P_WPTM])
            return;
        rb[P_TSM] /= 2;
        rb[P_TSN] /= 2;
    }
}

/* What `clmem tune matmul` searches: regblock's parameters, and what a
 * device must allow for a candidate to run. */
static const struct clmem_tune_param regblock_space[] = {
    {"TSM", {16, 32, 64, 128, 256}},
    {"TSN", {32, 64, 128, 256}},
    {"TSK", {4, 8, 16}},
    {"WPTM", {4, 8, 16}},
    {"WPTN", {4, 8, 16, 32}},
};

static int regblock_valid(const struct clmem_device *device, const int v[])
{
    if (v[P_TSM] % v[P_WPTM] || v[P_TSN] % v[P_WPTN] || v[P_TSK] % 4 || v[P_WPTM] % 4 ||
        v[P_WPTN] % 4 || v[P_WPTM] * v[P_WPTN] > 512)
        return 0;
    size_t wg = (size_t)(v[P_TSM] / v[P_WPTM]) * (size_t)(v[P_TSN] / v[P_WPTN]);
    size_t local = 2 * (size_t)v[P_TSK] * (size_t)(v[P_TSM] + v[P_TSN]) * sizeof(float);
    return wg <= device->max_work_group && local <= device->local_mem;
}

static const struct clmem_tunable matmul_tunable = {
    "regblock", regblock_space, CLMEM_ARRAY_SIZE(regblock_space), regblock_valid};

/* The tuner's candidate, else the tuning database's entry for this device
 * and size class, else the first of the device's candidate rows whose
 * work-groups cover half its compute units at this size, else its last. */
static void choose_regblock(struct clmem_run *run, struct matmul_state *s)
{
    const struct clmem_device *device = &run->ctx->device;
    if (run->tune_values) {
        for (int i = 0; i <= P_WPTN; i++)
            s->rb[i] = run->tune_values[i];
        return;
    }
    if (!run->ignore_tuning && clmem_tuning_lookup(run->ctx, run->workload, &run->size, s->rb)) {
        s->tuned = 1;
        return;
    }
    int found = 0;
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(regblock_params); i++) {
        if (!clmem_param_row_matches(&regblock_params[i], device))
            continue;
        fit_regblock(device, regblock_params[i].values, s->rb);
        found = 1;
        size_t groups = (s->rows + (size_t)s->rb[P_TSM] - 1) / (size_t)s->rb[P_TSM] *
                        ((s->cols + (size_t)s->rb[P_TSN] - 1) / (size_t)s->rb[P_TSN]);
        if (2 * groups >= device->compute_units)
            return;
    }
    if (!found)
        fit_regblock(device, regblock_params[CLMEM_ARRAY_SIZE(regblock_params) - 1].values, s->rb);
}

static int matmul_setup(struct clmem_run *run, struct clmem_error *err)
{
    struct matmul_state *s = run->state;
    int status;
    s->rows = run->size.dim[0];
    s->cols = run->size.dim[1];
    s->inner = run->size.dim[2];
    s->tile = clmem_pick_tile(&run->ctx->device, 32, 2, sizeof(float));
    size_t m_elems = s->rows * s->inner, n_elems = s->inner * s->cols, p_elems = s->rows * s->cols;
    /* A block of a split run borrows its inputs (clmem_matmul_split). */
    if (!s->M && (status = host_inputs(s, run->seed, err)))
        return status;

    choose_regblock(run, s);
    int full_tiles =
        s->rows % s->rb[P_TSM] == 0 && s->cols % s->rb[P_TSN] == 0 && s->inner % s->rb[P_TSK] == 0;
    char options[256];
    snprintf(options, sizeof options,
             "-DTILE_WIDTH=%zu -DCOARSE_FACTOR=%d -DTSM=%d -DTSN=%d -DTSK=%d -DWPTM=%d -DWPTN=%d "
             "-DFULL_TILES=%d -DPANEL_ROWS=%d -DPANEL_FULL=%d",
             s->tile, COARSE_FACTOR, s->rb[P_TSM], s->rb[P_TSN], s->rb[P_TSK], s->rb[P_WPTM],
             s->rb[P_WPTN], full_tiles, PANEL_ROWS, s->rows % PANEL_ROWS == 0 && s->cols % 16 == 0);
    if ((status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, m_elems * sizeof(float), s->M,
                                      &s->dM, err)) ||
        (status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, n_elems * sizeof(float), s->N,
                                      &s->dN, err)) ||
        (status = clmem_buffer_create(run->ctx, CL_MEM_WRITE_ONLY, p_elems * sizeof(float), NULL,
                                      &s->dP, err)) ||
        (status = clmem_run_build(run, options, &s->program, s->kernels, err)))
        return status;
    return CLMEM_OK;
}

static int matmul_execute(struct clmem_run *run, const struct clmem_variant *v,
                          struct clmem_timing *timing, struct clmem_error *err)
{
    struct matmul_state *s = run->state;
    if (v->library)
        return clmem_clblast_sgemm(run->ctx, s->rows, s->cols, s->inner, s->dM, s->dN, s->dP,
                                   timing, err);
    cl_kernel kernel = s->kernels[v - matmul_variants];
    cl_int rows = (cl_int)s->rows, cols = (cl_int)s->cols, inner = (cl_int)s->inner;
    int status = clmem_kernel_args(kernel, err, 6, sizeof(cl_mem), &s->dM, sizeof(cl_mem), &s->dN,
                                   sizeof(cl_mem), &s->dP, sizeof rows, &rows, sizeof cols, &cols,
                                   sizeof inner, &inner);
    if (status)
        return status;
    size_t global[2] = {s->cols, s->rows}, local[2] = {s->tile, s->tile};
    /* Each coarsened work-group covers COARSE_FACTOR tiles of columns. */
    if (v == &matmul_variants[COARSENED])
        global[0] = (s->cols + s->tile * COARSE_FACTOR - 1) / (s->tile * COARSE_FACTOR) * s->tile;
    if (v == &matmul_variants[PANEL]) {
        /* One work-item per PANEL_ROWS x 16 panel; the work-group is the
         * driver's choice (a CPU runs groups on its cores). */
        size_t panels[2] = {(s->cols + 15) / 16, (s->rows + PANEL_ROWS - 1) / PANEL_ROWS};
        return clmem_launch(run->ctx, kernel, 2, panels, NULL, timing, err);
    }
    if (v == &matmul_variants[REGBLOCK]) {
        /* One work-item per WPTM x WPTN block of P. */
        size_t tsm = (size_t)s->rb[P_TSM], tsn = (size_t)s->rb[P_TSN];
        local[0] = tsn / (size_t)s->rb[P_WPTN];
        local[1] = tsm / (size_t)s->rb[P_WPTM];
        global[0] = (s->cols + tsn - 1) / tsn * local[0];
        global[1] = (s->rows + tsm - 1) / tsm * local[1];
    }
    return clmem_launch(run->ctx, kernel, 2, global, local, timing, err);
}

static int matmul_prepare(struct clmem_run *run, const struct clmem_variant *v,
                          struct clmem_error *err)
{
    (void)v;
    struct matmul_state *s = run->state;
    return clmem_buffer_poison(run->ctx, s->dP, s->rows * s->cols * sizeof(float), err);
}

static void check_host_p(const struct matmul_state *s, const struct clmem_variant *v,
                         struct clmem_check *check);

static int matmul_verify(struct clmem_run *run, const struct clmem_variant *v,
                         struct clmem_check *check, struct clmem_error *err)
{
    struct matmul_state *s = run->state;
    int status = clmem_buffer_read(run->ctx, s->dP, s->rows * s->cols * sizeof(float), s->P, err);
    if (status)
        return status;
    check_host_p(s, v, check);
    return CLMEM_OK;
}

/* Compares s->P (on the host) with the CPU reference. */
static void check_host_p(const struct matmul_state *s, const struct clmem_variant *v,
                         struct clmem_check *check)
{
    /* Float accumulation of `inner` terms: the error bound grows with K. */
    clmem_check_init(check, (double)s->inner * FLT_EPSILON + 1e-6);
    if (s->n_ref_rows < s->rows)
        snprintf(check->scope, sizeof check->scope, "%zu of %zu rows", s->n_ref_rows, s->rows);
    if (s->tuned && v == &matmul_variants[REGBLOCK])
        snprintf(check->note, sizeof check->note, "tuned parameters (clmem tune)");
    for (size_t r = 0; r < s->n_ref_rows; r++) {
        size_t i = s->ref_row[r];
        for (size_t j = 0; j < s->cols; j++)
            clmem_check_value(check, s->ref[r * s->cols + j], s->P[i * s->cols + j],
                              s->ref_magnitude[r * s->cols + j], "P[row %zu][col %zu]", i, j);
    }
}

static double matmul_work(const struct clmem_run *run, const struct clmem_variant *v)
{
    (void)v;
    /* 2*M*N*K flops, as the seeds count them. */
    return 2.0 * (double)run->size.dim[0] * (double)run->size.dim[1] * (double)run->size.dim[2];
}

static void matmul_teardown(struct clmem_run *run)
{
    struct matmul_state *s = run->state;
    clmem_kernels_release(s->kernels);
    clmem_release_program(&s->program);
    clmem_release_mem(&s->dM);
    clmem_release_mem(&s->dN);
    clmem_release_mem(&s->dP);
    free(s->M);
    free(s->N);
    free(s->P);
    free(s->ref_row);
    free(s->ref);
    free(s->ref_magnitude);
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
    .tunable = &matmul_tunable,
    .size_help = "N (square) or MxNxK: P is MxN, M is MxK, N is KxN",
    .variants = matmul_variants,
    .n_variants = CLMEM_ARRAY_SIZE(matmul_variants),
    .metric_unit = "GFLOP/s",
    .state_size = sizeof(struct matmul_state),
    .plan = matmul_plan,
    .setup = matmul_setup,
    .execute = matmul_execute,
    .prepare = matmul_prepare,
    .verify = matmul_verify,
    .work = matmul_work,
    .teardown = matmul_teardown,
};

/* ---- P's rows split over several devices (clmem_matmul_split) ---- */

/* One device's block: rows [first, first + count) of P, a matmul run of
 * count x cols x inner whose inputs are borrowed from the whole problem. */
struct split_block {
    struct clmem_run run;
    size_t first, count;
    double kernel_ms; /* the block's profiled kernel time, the last run */
    struct clmem_error err;
};

enum split_phase { SPLIT_SETUP, SPLIT_PREPARE, SPLIT_EXECUTE, SPLIT_GATHER };

struct split_job {
    const struct clmem_variant *variant;
    struct split_block *blocks;
    struct matmul_state *whole; /* the host's M, N, P and CPU reference */
    enum split_phase phase;
};

/* What one device's thread does in each phase. */
static int split_block_step(void *arg, size_t i)
{
    struct split_job *job = arg;
    struct split_block *b = &job->blocks[i];
    struct clmem_run *run = &b->run;
    struct matmul_state *s = run->state;
    if (b->count == 0)
        return CLMEM_OK;
    switch (job->phase) {
    case SPLIT_SETUP:
        s->M = job->whole->M + b->first * job->whole->inner;
        s->N = job->whole->N;
        return matmul_setup(run, &b->err);
    case SPLIT_PREPARE: return matmul_prepare(run, job->variant, &b->err);
    case SPLIT_EXECUTE: {
        struct clmem_timing timing = {0};
        int status = matmul_execute(run, job->variant, &timing, &b->err);
        if (status) {
            clFinish(run->ctx->queue);
            clmem_timing_release(&timing);
            return status;
        }
        return clmem_timing_finish(run->ctx, &timing, &b->kernel_ms, &b->err);
    }
    case SPLIT_GATHER:
        return clmem_buffer_read(run->ctx, s->dP, b->count * s->cols * sizeof(float),
                                 job->whole->P + b->first * s->cols, &b->err);
    }
    return CLMEM_OK;
}

/* Runs a phase on every device of the point at once; the worst status,
 * its message in err. */
static int split_phase(struct split_job *job, size_t k, enum split_phase phase,
                       struct clmem_error *err)
{
    int status[64], worst = CLMEM_OK;
    job->phase = phase;
    clmem_parallel(k, split_block_step, job, status);
    for (size_t i = 0; i < k; i++)
        if (clmem_status_worst(worst, status[i]) != worst) {
            worst = status[i];
            clmem_error_clear(err);
            *err = job->blocks[i].err;
            job->blocks[i].err.log = NULL;
        }
    return worst;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int compare_ms(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_ms(const double *samples, size_t n)
{
    double sorted[1024];
    if (n > CLMEM_ARRAY_SIZE(sorted))
        n = CLMEM_ARRAY_SIZE(sorted);
    memcpy(sorted, samples, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, compare_ms);
    return n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

/* Times one scaling point (its blocks set up) and checks the gathered P. */
static int split_measure(struct split_job *job, size_t k, const struct clmem_split_options *o,
                         struct clmem_result *r, double *slowest_kernel_ms, struct clmem_error *err)
{
    int status;
    unsigned reps = o->reps ? o->reps : 1;
    if ((status = split_phase(job, k, SPLIT_PREPARE, err)))
        return status;
    for (unsigned i = 0; i < o->warmup; i++)
        if ((status = split_phase(job, k, SPLIT_EXECUTE, err)))
            return status;
    if (!(r->samples_ms = clmem_alloc_array(reps, sizeof(double), err)))
        return err->status;
    double *kernel = clmem_alloc_array(reps, sizeof(double), err);
    if (!kernel)
        return err->status;
    for (unsigned i = 0; i < reps; i++) {
        /* Host wall time: from before the threads enqueue to after the last
         * device finished (thread start and join included). */
        double start = now_ms();
        if ((status = split_phase(job, k, SPLIT_EXECUTE, err))) {
            free(kernel);
            return status;
        }
        r->samples_ms[r->n_samples++] = now_ms() - start;
        kernel[i] = 0.0;
        for (size_t d = 0; d < k; d++)
            if (job->blocks[d].count && job->blocks[d].kernel_ms > kernel[i])
                kernel[i] = job->blocks[d].kernel_ms;
    }
    *slowest_kernel_ms = median_ms(kernel, reps);
    free(kernel);
    r->median_ms = median_ms(r->samples_ms, r->n_samples);
    r->min_ms = r->max_ms = r->samples_ms[0];
    for (size_t i = 1; i < r->n_samples; i++) {
        if (r->samples_ms[i] < r->min_ms)
            r->min_ms = r->samples_ms[i];
        if (r->samples_ms[i] > r->max_ms)
            r->max_ms = r->samples_ms[i];
    }

    /* Rows no device wrote stay NaN on the host and fail the check. */
    struct matmul_state *w = job->whole;
    for (size_t i = 0; i < w->rows * w->cols; i++)
        w->P[i] = NAN;
    if ((status = split_phase(job, k, SPLIT_GATHER, err)))
        return status;
    struct clmem_check check;
    check_host_p(w, job->variant, &check);
    clmem_result_set_check(r, &check);
    return CLMEM_OK;
}

/* Gives the blocks their inputs back before a run's teardown frees them. */
static void split_release(struct split_block *blocks, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct matmul_state *s = blocks[i].run.state;
        if (s)
            s->M = s->N = NULL;
        clmem_run_release(&blocks[i].run);
        clmem_error_clear(&blocks[i].err);
    }
}

/* "rows 0-49 | 50-99" (an empty block: "-"). */
static void describe_rows(const struct split_block *blocks, size_t k, char *out, size_t size)
{
    size_t len = (size_t)snprintf(out, size, "rows");
    for (size_t d = 0; d < k && len < size; d++) {
        if (blocks[d].count)
            len += (size_t)snprintf(out + len, size - len, "%s%zu-%zu", d ? " | " : " ",
                                    blocks[d].first, blocks[d].first + blocks[d].count - 1);
        else
            len += (size_t)snprintf(out + len, size - len, "%s-", d ? " | " : " ");
    }
}

int clmem_matmul_split(struct clmem_ctx *ctxs, size_t n, const struct clmem_split_options *o,
                       struct clmem_result **results, size_t *n_results, struct clmem_error *err)
{
    const struct clmem_workload *w = &clmem_workload_matmul;
    const struct clmem_variant *v = o->variant ? clmem_variant_find(w, o->variant) : NULL;
    if (!o->variant || strcmp(o->variant, "all") == 0)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--split runs one variant: name it with --variant (try 'clmem list "
                          "matmul')");
    if (!v)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "unknown variant '%s' of 'matmul' (try 'clmem list matmul')", o->variant);
    if (v->library)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "variant '%s' is a library's routine: --split runs clmem's kernels",
                          v->name);
    if (n == 0 || n > 64)
        return clmem_fail(err, CLMEM_ERR_USAGE, "--split takes 1 to 64 devices, not %zu", n);

    struct clmem_size size;
    struct matmul_state whole = {0};
    int status = clmem_size_parse(o->size ? o->size : w->default_size, &size, err);
    if (status)
        return status;
    if (size.ndims == 1)
        size.dim[1] = size.dim[2] = size.dim[0];
    else if (size.ndims == 2)
        size.dim[2] = size.dim[1];
    whole.rows = size.dim[0];
    whole.cols = size.dim[1];
    whole.inner = size.dim[2];
    char size_text[64];
    clmem_size_format(&size, size_text, sizeof size_text);

    /* Every point's blocks planned before any work: usage errors first. */
    size_t n_points = n * (n + 1) / 2;
    struct split_block *blocks = calloc(n_points, sizeof *blocks);
    int *skip = calloc(n, sizeof *skip);
    size_t first[64], count[64];
    int verify_failed = 0;
    double one_device_ms = NAN;
    if (!blocks || !skip) {
        status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
        goto cleanup;
    }
    if (o->weights && (status = clmem_split_rows(whole.rows, n, o->weights, first, count, err)))
        goto cleanup;
    for (size_t k = 1, at = 0; k <= n; at += k, k++) {
        struct clmem_error ignored = {0};
        if (clmem_split_rows(whole.rows, k, o->weights, first, count, &ignored)) {
            skip[k - 1] = 1; /* the first k weights sum to 0 */
            continue;
        }
        for (size_t d = 0; d < k; d++) {
            struct split_block *b = &blocks[at + d];
            b->first = first[d];
            b->count = count[d];
            if (!b->count)
                continue;
            char block_size[96];
            snprintf(block_size, sizeof block_size, "%zux%zux%zu", b->count, whole.cols,
                     whole.inner);
            struct clmem_run_options ro = {.size = block_size, .variant = v->name, .seed = o->seed};
            if ((status = clmem_run_plan(&b->run, w, &ctxs[d], &ro, err))) {
                char why[sizeof err->message];
                snprintf(why, sizeof why, "%s", err->message);
                clmem_fail(err, status, "split over %zu devices, rows %zu-%zu on '%s': %s", k,
                           b->first, b->first + b->count - 1, ctxs[d].device.name, why);
                goto cleanup;
            }
        }
    }

    if ((status = host_inputs(&whole, o->seed, err)))
        goto cleanup;
    for (size_t k = 1, at = 0; k <= n; at += k, k++) {
        if (o->cancelled && o->cancelled(o->cancelled_user)) {
            status = clmem_fail(err, CLMEM_ERR_INTERRUPTED, "interrupted");
            goto cleanup;
        }
        struct clmem_result *grown = realloc(*results, (*n_results + 1) * sizeof *grown);
        if (!grown) {
            status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
            goto cleanup;
        }
        *results = grown;
        struct clmem_result *r = &grown[(*n_results)++];
        memset(r, 0, sizeof *r);
        snprintf(r->workload, sizeof r->workload, "%s", w->name);
        snprintf(r->variant, sizeof r->variant, "%s", v->name);
        snprintf(r->device, sizeof r->device, "split over %zu device%s", k, k == 1 ? "" : "s");
        snprintf(r->size, sizeof r->size, "%s", size_text);
        snprintf(r->metric_unit, sizeof r->metric_unit, "%s", w->metric_unit);
        r->baseline_fraction = r->peak_fraction = r->looped_ms = r->max_rel_error = NAN;
        if (skip[k - 1]) {
            r->skipped = 1;
            snprintf(r->skip_reason, sizeof r->skip_reason,
                     "the split weights of the first %zu devices sum to 0", k);
            continue;
        }
        struct split_job job = {v, &blocks[at], &whole, SPLIT_SETUP};
        double slowest_kernel = 0.0;
        if ((status = split_phase(&job, k, SPLIT_SETUP, err)) ||
            (status = split_measure(&job, k, o, r, &slowest_kernel, err)))
            goto cleanup;
        for (size_t d = 0; d < k; d++)
            if (blocks[at + d].count) {
                snprintf(r->params, sizeof r->params, "%s", blocks[at + d].run.params);
                break;
            }
        double work = 2.0 * (double)whole.rows * (double)whole.cols * (double)whole.inner;
        r->metric = r->median_ms > 0 ? work / (r->median_ms * 1e-3) / 1e9 : 0.0;
        if (k == 1)
            one_device_ms = r->median_ms;
        double speedup = one_device_ms / r->median_ms;
        if (!isnan(speedup))
            r->baseline_fraction = speedup;
        char rows[96];
        describe_rows(&blocks[at], k, rows, sizeof rows);
        char *note = r->note;
        size_t len = (size_t)snprintf(note, sizeof r->note, "host wall time; ");
        if (!isnan(speedup))
            len +=
                (size_t)snprintf(note + len, sizeof r->note - len,
                                 "speedup %.2f, efficiency %.2f; ", speedup, speedup / (double)k);
        if (len < sizeof r->note)
            snprintf(note + len, sizeof r->note - len, "slowest device's kernel %.4f ms; %s",
                     slowest_kernel, rows);
        verify_failed |= !r->verified;
        /* This point's programs and buffers go before the next point's. */
        split_release(&blocks[at], k);
    }
    status = verify_failed ? CLMEM_ERR_VERIFY : CLMEM_OK;

cleanup:
    if (blocks)
        split_release(blocks, n_points);
    free(blocks);
    free(skip);
    free(whole.M);
    free(whole.N);
    free(whole.P);
    free(whole.ref_row);
    free(whole.ref);
    free(whole.ref_magnitude);
    return status;
}
