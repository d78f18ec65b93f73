/* Matrix transpose, the CUDA memory lecture's example ("Esempio: Matrix
 * Transpose"): copy as the bandwidth reference, then naive, coalesced and
 * bank-conflict-free transposes, each timed with the loop over kernel
 * launches and with the loop inside the kernel (the C1060 table's columns).
 * The input is height rows of width floats; the output width rows of height. */
#include "harness/traffic.h"
#include "harness/workload.h"

#include <limits.h>
#include <stdlib.h>

/* The largest TILE_DIM a run may use (the tuner's search space's);
 * plan() bounds the int indices with sizes rounded up to it, which covers
 * every smaller tile. */
#define MAX_TILE_DIM 64

enum { COPY, NAIVE, COALESCED, PADDED, VEC4 };

struct transpose_state {
    size_t width, height;
    size_t tile_dim, block_rows;
    size_t vec_tile;       /* vec4's tile side (VEC_TILE) */
    size_t vec_rows;       /* vec4's work-group rows (VEC_ROWS) */
    float *in, *ref, *out; /* ref: the CPU transpose of in */
    cl_mem d_in, d_out;
};

/* vec4's tile: VEC_TILE/4 x VEC_ROWS work-items (VEC_ROWS dividing
 * VEC_TILE), the padded tile in local memory. */
static int vec_tile_valid(const struct clmem_device *device, const int v[])
{
    size_t t = (size_t)v[0], rows = (size_t)v[1];
    return t >= 4 && t % 4 == 0 && rows >= 1 && rows <= t && t % rows == 0 &&
           t / 4 * rows <= device->max_work_group &&
           t * (t + 1) * sizeof(float) <= device->local_mem;
}

/* vec4's built-in tiles (VEC_TILE, VEC_ROWS), the parameter database's
 * candidate rows at the device's level, the first the device allows: a
 * larger tile keeps several float4 loads of each work-item in flight
 * before the barrier, a smaller one fits devices with smaller work-groups
 * and local memory (the last row, the smallest). */
static const struct clmem_param_table vec4_table = {"transpose", "vec4", {"VEC_TILE", "VEC_ROWS"},
                                                    2,           0,      CLMEM_PARAM_UNTYPED};
static const struct clmem_param_table *const transpose_param_tables[] = {&vec4_table};

/* The device's candidate vec4 tiles (at most 8), largest first. */
static size_t vec_settings(const struct clmem_device *device, const struct clmem_param_row *rows[8])
{
    enum clmem_param_level level;
    return clmem_param_lookup(&vec4_table, device, rows, 8, &level);
}

static const char *vec4_unsupported(const struct clmem_run *run, char *why, size_t size)
{
    /* Before setup (planning), the smaller built-in tile: a device that
     * cannot take it cannot take the larger one either. */
    const struct transpose_state *s = run->state;
    const struct clmem_param_row *rows[8];
    size_t n = vec_settings(&run->ctx->device, rows);
    int v[2] = {rows[n - 1]->values[0], rows[n - 1]->values[1]};
    if (s) {
        v[0] = (int)s->vec_tile;
        v[1] = (int)s->vec_rows;
    }
    if (vec_tile_valid(&run->ctx->device, v))
        return NULL;
    snprintf(why, size,
             "needs a work-group of VEC_TILE/4 x VEC_ROWS work-items (VEC_TILE=%d, VEC_ROWS=%d) "
             "and its tile in local memory, more than the device allows",
             v[0], v[1]);
    return why;
}

static const struct clmem_variant transpose_variants[] = {
    [COPY] = {"copy", "copy kernel, the bandwidth reference (slide \"Simple Copy Kernel\")", "copy",
              NULL},
    [NAIVE] = {"naive", "coalesced reads, strided writes (slide \"Naive Transpose\")",
               "transposeNaive", NULL},
    [COALESCED] = {"coalesced",
                   "local-memory tile, coalesced both ways (slide \"Coalesced Transpose\")",
                   "transposeCoalesced", NULL},
    [PADDED] = {"padded",
                "tile[TILE_DIM][TILE_DIM+1]: no local-memory bank conflicts (slide \"Avoiding "
                "Bank Conflict\")",
                "transposeNoBankConflicts", NULL},
    [VEC4] = {"vec4",
              "the padded tile moved by float4s: every global load and store 16 bytes, "
              "coalesced (beyond the lecture)",
              "transposeVec4", vec4_unsupported, .source = "transpose_vec4.cl",
              /* Float4s that cross both edges (33x17), none that do with
               * aligned float4s (32x16), and unaligned rows (35x18). */
              .check_sizes = "33x17 32x16 35x18"},
};

/* TILE_DIM x BLOCK_ROWS settings, the lecture's first; the first whose
 * work-group the device allows and whose padded tile fits its local
 * memory is used. BLOCK_ROWS divides TILE_DIM in each. */
static const struct {
    size_t tile_dim, block_rows;
} tile_settings[] = {
    {32, 8}, {32, 4}, {32, 2}, {32, 1}, {16, 8}, {16, 4}, {16, 2}, {16, 1}, {8, 8},
    {8, 4},  {8, 2},  {8, 1},  {4, 4},  {4, 2},  {4, 1},  {2, 2},  {2, 1},  {1, 1},
};

/* The tile a device allows: each work-item BLOCK_ROWS rows apart, the
 * padded tile in local memory. */
static int tile_valid(const struct clmem_device *device, const int v[])
{
    size_t t = (size_t)v[0], rows = (size_t)v[1];
    return t % rows == 0 && t * rows <= device->max_work_group &&
           t * (t + 1) * sizeof(float) <= device->local_mem;
}

/* `clmem tune transpose` measures the padded kernel, the lecture's best:
 * the tile it finds is every lecture variant's, as the lecture's table
 * compares them at one tile (each result's parameters say which); and
 * vec4's own tile. */
static const struct clmem_tune_param tile_space[] = {
    {"TILE_DIM", {8, 16, 32, 64}},
    {"BLOCK_ROWS", {1, 2, 4, 8, 16}},
};
static const struct clmem_tune_param vec_tile_space[] = {
    {"VEC_TILE", {8, 16, 32, 64}},
    {"VEC_ROWS", {2, 4, 8, 16, 32}},
};
static const struct clmem_tunable transpose_tunables[] = {
    {"padded", tile_space, CLMEM_ARRAY_SIZE(tile_space), tile_valid, 0, 0},
    {"vec4", vec_tile_space, CLMEM_ARRAY_SIZE(vec_tile_space), vec_tile_valid, 0, 0},
};

static void pick_tile(struct clmem_run *run, size_t *tile_dim, size_t *block_rows)
{
    const struct clmem_device *device = &run->ctx->device;
    int tuned[CLMEM_MAX_PARAMS];
    if (clmem_run_tuned(run, &transpose_tunables[0], tuned)) {
        *tile_dim = (size_t)tuned[0];
        *block_rows = (size_t)tuned[1];
        return;
    }
    size_t last = CLMEM_ARRAY_SIZE(tile_settings) - 1;
    for (size_t i = 0; i <= last; i++) {
        size_t t = tile_settings[i].tile_dim, rows = tile_settings[i].block_rows;
        if (i == last || tile_valid(device, (const int[]){(int)t, (int)rows})) {
            *tile_dim = t;
            *block_rows = rows;
            return;
        }
    }
}

static int transpose_plan(struct clmem_run *run, struct clmem_error *err)
{
    size_t width = run->size.dim[0], height = run->size.dim[1], elems, padded;
    /* The kernels index with int, as the lecture's do, also in the work-items
     * past the edges of the last tiles. */
    if (!clmem_mul_size(clmem_round_up(width, MAX_TILE_DIM), clmem_round_up(height, MAX_TILE_DIM),
                        &padded) ||
        padded > INT_MAX)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "size %zux%zu is too large (width and height rounded up to %d must "
                          "multiply to at most %d for the kernels' int indices)",
                          width, height, MAX_TILE_DIM, INT_MAX);
    elems = width * height;
    run->buffer_bytes[0] = elems * sizeof(float);
    run->buffer_bytes[1] = elems * sizeof(float);
    run->n_buffers = 2;
    return CLMEM_OK;
}

/* The tuned part: the lecture variants' tile and vec4's (tuned, else
 * chosen for the device) and the program built with them. Setup ends
 * with it; a tuning search calls it again for each candidate, on the same
 * matrix, reference and buffers. */
static int transpose_retune(struct clmem_run *run, struct clmem_error *err)
{
    struct transpose_state *s = run->state;
    pick_tile(run, &s->tile_dim, &s->block_rows);
    /* vec4: tuned, else the first of its built-in tiles the device allows,
     * else the lecture's tile and rows. */
    int vec[CLMEM_MAX_PARAMS] = {(int)s->tile_dim, (int)s->block_rows};
    const struct clmem_param_row *rows[8];
    size_t n = vec_settings(&run->ctx->device, rows);
    if (!clmem_run_tuned(run, &transpose_tunables[1], vec))
        for (size_t i = 0; i < n; i++)
            if (vec_tile_valid(&run->ctx->device, rows[i]->values)) {
                vec[0] = rows[i]->values[0];
                vec[1] = rows[i]->values[1];
                break;
            }
    s->vec_tile = (size_t)vec[0];
    s->vec_rows = (size_t)vec[1];
    char options[160];
    snprintf(options, sizeof options,
             "-DTILE_DIM=%zu -DBLOCK_ROWS=%zu -DVEC_TILE=%zu -DVEC_ROWS=%zu -DVEC_ALIGNED=%d",
             s->tile_dim, s->block_rows, s->vec_tile, s->vec_rows,
             s->width % 4 == 0 && s->height % 4 == 0);
    return clmem_run_rebuild(run, options, err);
}

static int transpose_setup(struct clmem_run *run, struct clmem_error *err)
{
    struct transpose_state *s = run->state;
    int status;
    s->width = run->size.dim[0];
    s->height = run->size.dim[1];
    size_t elems = s->width * s->height; /* bounded by plan() */
    if (!(s->in = clmem_alloc_array(elems, sizeof(float), err)) ||
        !(s->ref = clmem_alloc_array(elems, sizeof(float), err)) ||
        !(s->out = clmem_alloc_array(elems, sizeof(float), err)))
        return err->status;
    clmem_fill_uniform(s->in, elems, 1.0f, 2.0f, run->seed);
    for (size_t y = 0; y < s->height; y++)
        for (size_t x = 0; x < s->width; x++)
            s->ref[x * s->height + y] = s->in[y * s->width + x];

    if ((status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, elems * sizeof(float), s->in,
                                      &s->d_in, err)) ||
        (status = clmem_run_output_buffer(run, "odata", CL_MEM_READ_WRITE, elems * sizeof(float),
                                          &s->d_out, err)))
        return status;
    return transpose_retune(run, err);
}

/* One launch over the whole matrix, the body repeated nreps times. */
static int launch(struct clmem_run *run, const struct clmem_variant *v, cl_int nreps,
                  struct clmem_timing *timing, struct clmem_error *err)
{
    struct transpose_state *s = run->state;
    cl_kernel kernel = clmem_run_kernel(run, v);
    cl_int width = (cl_int)s->width, height = (cl_int)s->height;
    int status = clmem_kernel_args(kernel, err, CLMEM_ARG(s->d_in), CLMEM_ARG(s->d_out),
                                   CLMEM_ARG(width), CLMEM_ARG(height), CLMEM_ARG(nreps));
    if (status)
        return status;
    if (v == &transpose_variants[VEC4]) {
        /* A VEC_TILE/4 x VEC_ROWS work-group per tile, a float4 a row. */
        size_t t = s->vec_tile, rows = s->vec_rows;
        size_t tiles_x = (s->width + t - 1) / t, tiles_y = (s->height + t - 1) / t;
        size_t global[2] = {tiles_x * t / 4, tiles_y * rows};
        size_t local[2] = {t / 4, rows};
        return clmem_launch(run->ctx, kernel, 2, global, local, timing, err);
    }
    /* One TILE_DIM x BLOCK_ROWS work-group per tile. */
    size_t tiles_y = (s->height + s->tile_dim - 1) / s->tile_dim;
    size_t global[2] = {s->width, tiles_y * s->block_rows};
    size_t local[2] = {s->tile_dim, s->block_rows};
    return clmem_launch(run->ctx, kernel, 2, global, local, timing, err);
}

/* The lecture's "loop over kernel": one pass per launch. */
static int transpose_execute(struct clmem_run *run, const struct clmem_variant *v,
                             struct clmem_timing *timing, struct clmem_error *err)
{
    return launch(run, v, 1, timing, err);
}

/* The lecture's "loop inside kernel": loop_reps passes in one launch. */
static int transpose_execute_looped(struct clmem_run *run, const struct clmem_variant *v,
                                    unsigned loop_reps, struct clmem_timing *timing,
                                    struct clmem_error *err)
{
    if (loop_reps > INT_MAX)
        return clmem_fail(err, CLMEM_ERR_USAGE, "%u passes in one kernel is too many (at most %d)",
                          loop_reps, INT_MAX);
    return launch(run, v, (cl_int)loop_reps, timing, err);
}

/* Untimed, before each variant and each timing: an element a kernel never
 * writes stays NaN and fails the check. */
static int transpose_prepare(struct clmem_run *run, const struct clmem_variant *v,
                             struct clmem_error *err)
{
    (void)v;
    struct transpose_state *s = run->state;
    return clmem_buffer_poison(run->ctx, s->d_out, s->width * s->height * sizeof(float), err);
}

/* Compares one output, rows x cols, with `expected` exactly. */
static void check_output(struct clmem_check *check, const float *expected, const float *got,
                         size_t rows, size_t cols, const char *where_fmt)
{
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++)
            clmem_check_value(check, expected[r * cols + c], got[r * cols + c],
                              expected[r * cols + c], where_fmt, r, c);
}

static int transpose_verify(struct clmem_run *run, const struct clmem_variant *v,
                            struct clmem_check *check, struct clmem_error *err)
{
    struct transpose_state *s = run->state;
    size_t bytes = s->width * s->height * sizeof(float);
    int status = clmem_buffer_read(run->ctx, s->d_out, bytes, s->out, err);
    if (status)
        return status;
    /* copy keeps the input's shape; the transposes write width rows of height. */
    int is_copy = v == &transpose_variants[COPY];
    const float *expected = is_copy ? s->in : s->ref;
    size_t rows = is_copy ? s->height : s->width, cols = is_copy ? s->width : s->height;
    clmem_check_init(check, 0.0); /* a transpose moves values: exact equality */
    snprintf(check->note, sizeof check->note, "output %zux%zu (WxH)", cols, rows);
    check_output(check, expected, s->out, rows, cols, "odata[row %zu][col %zu]");
    return CLMEM_OK;
}

/* Every variant reads each element once and writes it once to global
 * memory (the lecture's count); the tiled ones also pass it through
 * __local: written to the tile once, read from it once. Where the writes
 * are strided (naive) the bytes are the same: what they cost beyond that
 * is the coalescing the model does not count. */
static void transpose_traffic(const struct clmem_run *run, const struct clmem_variant *v,
                              struct clmem_traffic *t)
{
    const struct transpose_state *s = run->state;
    double bytes = 2.0 * sizeof(float) * (double)s->width * (double)s->height;
    t->global_bytes = bytes;
    if (v == &transpose_variants[COALESCED] || v == &transpose_variants[PADDED] ||
        v == &transpose_variants[VEC4])
        t->local_bytes = bytes;
    /* What each design costs beyond its bytes; the copy nothing. */
    static const char *const unmodelled[] = {
        [NAIVE] = "a whole memory transaction for each float written down a column",
        [COALESCED] = "bank conflicts in the tile's column reads, two barriers a pass",
        [PADDED] = "two barriers a pass over the tile",
        [VEC4] = "two barriers a pass, float4s gathered from tile columns",
    };
    t->unmodelled = unmodelled[v - transpose_variants];
}

static void transpose_teardown(struct clmem_run *run)
{
    struct transpose_state *s = run->state;
    clmem_release_mem(&s->d_in);
    clmem_release_mem(&s->d_out);
    free(s->in);
    free(s->ref);
    free(s->out);
}

static const char *const transpose_bench_sizes[] = {"8192", NULL};
static const char *const transpose_bench_sizes_cpu[] = {"2048", NULL};

const struct clmem_workload clmem_workload_transpose = {
    .name = "transpose",
    .summary = "out-of-place matrix transpose, single precision, against a copy",
    .source = "transpose.cl",
    .default_size = "2048",
    .bench_sizes = transpose_bench_sizes,
    .bench_sizes_cpu = transpose_bench_sizes_cpu,
    .size_help = "N (square) or WxH: the input is H rows of W, the output W rows of H",
    .tunables = transpose_tunables,
    .n_tunables = CLMEM_ARRAY_SIZE(transpose_tunables),
    .param_tables = transpose_param_tables,
    .n_param_tables = CLMEM_ARRAY_SIZE(transpose_param_tables),
    .max_dims = 2,
    .check_sizes = "33x17",
    .variants = transpose_variants,
    .n_variants = CLMEM_ARRAY_SIZE(transpose_variants),
    .metric_unit = "GB/s",
    .state_size = sizeof(struct transpose_state),
    .plan = transpose_plan,
    .setup = transpose_setup,
    .retune = transpose_retune,
    .execute = transpose_execute,
    .prepare = transpose_prepare,
    .verify = transpose_verify,
    .traffic = transpose_traffic,
    /* Every element read once and written once, as the lecture counts it;
     * pure data movement. */
    .work_per_element = 2.0 * sizeof(float),
    .flops_per_byte = 0.0,
    .teardown = transpose_teardown,
    .baseline = "copy",
    .execute_looped = transpose_execute_looped,
};
