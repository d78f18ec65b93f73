/* Constant memory (CUDA course, seed 003, "La Constant Memory in CUDA"): a
 * 2D convolution of a float image with a (2R+1)x(2R+1) Gaussian-like
 * filter, R = 2, its coefficients read from __global or from __constant.
 * Both give the same output; the time shows what the constant cache buys.
 * The image is the generated grey image of the runtime (as blur's), scaled
 * to [0, 1]; outside its edges counts as zero. Beside the slides' two
 * kernels, `coarsened` shows how far the design goes: strips of VEC
 * outputs by ROWS rows a work-item, each input row loaded once as vectors,
 * no edge checks inside the image. */
#include "harness/traffic.h"
#include "strips.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

#define FILTER_RADIUS 2
#define FILTER_WIDTH  (2 * FILTER_RADIUS + 1)
/* Largest work-group side tried; plan() bounds the int indices with it. */
#define MAX_TILE 16

enum { GLOBAL_FILTER, CONSTANT_FILTER, COARSENED };

/* coarsened's strip: VEC outputs of a row by ROWS rows a work-item
 * (cl/constmem.cl), read as vectors at every offset of the filter
 * (STRIP_LOAD 1) or as one aligned load a row (2), looked up device ->
 * family -> vendor -> any in the parameter database (strips.h; its
 * MIN_ACROSS as blur's). Every row of a strip is loaded before its
 * arithmetic, so taller strips keep more loads in flight; a CPU wants
 * independent chains of multiply-adds as wide as its vectors. */
static const struct clmem_param_table coarsened_table = {
    "constmem", "coarsened", {"VEC", "ROWS", "STRIP_LOAD", "MIN_ACROSS"},
    4,          0,           CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_CPU | CLMEM_PARAM_UNTYPED};
static const struct clmem_param_table *const constmem_param_tables[] = {&coarsened_table};

/* Up to 16 rows: the unrolled kernel grows with ROWS * (ROWS + 4), and 32
 * rows' sums spill out of any device's registers. STRIP_LOAD 2 (one
 * aligned load a row) needs a vector. */
static int coarsened_valid(const struct clmem_device *device, const int v[])
{
    (void)device;
    return strips_valid(v, 16, 2);
}

static const struct clmem_tune_param coarsened_space[] = {
    {"VEC", {1, 2, 4, 8, 16}},
    {"ROWS", {1, 2, 4, 8, 16}},
    {"STRIP_LOAD", {1, 2}},
};
static const struct clmem_tunable constmem_tunables[] = {
    {"coarsened", coarsened_space, CLMEM_ARRAY_SIZE(coarsened_space), coarsened_valid, 0, 0},
};

struct constmem_state {
    size_t width, height, tile;
    struct strips strips; /* coarsened's */
    float filter[FILTER_WIDTH * FILTER_WIDTH];
    float *in, *ref, *out;
    cl_mem d_in, d_out, d_filter;
};

static const struct clmem_variant constmem_variants[] = {
    [GLOBAL_FILTER] = {"global_filter",
                       "5x5 convolution, coefficients read from __global (seed 003, constant "
                       "memory slides: the global-memory case)",
                       "convolutionGlobal", NULL},
    [CONSTANT_FILTER] = {"constant_filter",
                         "5x5 convolution, coefficients in __constant memory (seed 003, \"La "
                         "Constant Memory in CUDA\")",
                         "convolutionConstant", NULL},
    [COARSENED] = {"coarsened",
                   "beyond the slides: the __constant filter, strips of VEC outputs by ROWS rows "
                   "a work-item, each input row loaded once (one aligned load on GPUs), no edge "
                   "checks inside",
                   /* Oclgrind builds it as a GPU (4 x 3 strips, one
                    * aligned load a row): at 17x9, strips at both edges
                    * and inside, a strip row cut short, filters past
                    * every edge; at 24x9 (rows of whole vectors) the
                    * aligned loads and their halo. */
                   "convolutionCoarsened", NULL, .check_sizes = "17x9 24x9"},
};

static int constmem_plan(struct clmem_run *run, struct clmem_error *err)
{
    size_t width = run->size.dim[0], height = run->size.dim[1], padded, bytes;
    char text[64];
    clmem_size_format(&run->size, text, sizeof text);
    /* The kernels index with int, also in the work-items past the edges. */
    if (!clmem_mul_size(clmem_round_up(width, MAX_TILE) + 2 * FILTER_RADIUS,
                        clmem_round_up(height, MAX_TILE) + 2 * FILTER_RADIUS, &padded) ||
        padded > INT_MAX)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "size %zux%zu is too large for the kernels' int indices (width and "
                          "height rounded up to %d must multiply to under %d)",
                          width, height, MAX_TILE, INT_MAX);
    bytes = width * height * sizeof(float); /* padded <= INT_MAX: no overflow */
    run->buffer_bytes[0] = bytes;
    run->buffer_bytes[1] = bytes;
    run->buffer_bytes[2] = sizeof(float) * FILTER_WIDTH * FILTER_WIDTH;
    run->n_buffers = 3;
    return CLMEM_OK;
}

/* exp(-(x^2 + y^2) / 2), normalised so the weights add up to 1. */
static void make_filter(float *filter)
{
    double w[FILTER_WIDTH * FILTER_WIDTH], total = 0.0;
    for (int y = -FILTER_RADIUS; y <= FILTER_RADIUS; y++)
        for (int x = -FILTER_RADIUS; x <= FILTER_RADIUS; x++) {
            double v = exp(-(double)(x * x + y * y) / 2.0);
            w[(y + FILTER_RADIUS) * FILTER_WIDTH + x + FILTER_RADIUS] = v;
            total += v;
        }
    for (int i = 0; i < FILTER_WIDTH * FILTER_WIDTH; i++)
        filter[i] = (float)(w[i] / total);
}

/* The kernels' loop on the CPU, the same summation order, in float, for
 * rows [first, end) (parts on threads: clmem_parallel_rows). */
static void convolve_reference_rows(void *arg, size_t first, size_t end)
{
    struct constmem_state *s = arg;
    size_t w = s->width, h = s->height;
    for (size_t row = first; row < end; row++)
        for (size_t col = 0; col < w; col++) {
            float sum = 0.0f;
            for (ptrdiff_t fr = -FILTER_RADIUS; fr < FILTER_RADIUS + 1; ++fr)
                for (ptrdiff_t fc = -FILTER_RADIUS; fc < FILTER_RADIUS + 1; ++fc) {
                    ptrdiff_t cur_row = (ptrdiff_t)row + fr, cur_col = (ptrdiff_t)col + fc;
                    if (clmem_image_inside(cur_row, cur_col, h, w))
                        sum += s->filter[(fr + FILTER_RADIUS) * FILTER_WIDTH + fc + FILTER_RADIUS] *
                               s->in[(size_t)cur_row * w + (size_t)cur_col];
                }
            s->ref[row * w + col] = sum;
        }
}

/* The tuned part: coarsened's strip (tuned, else built in) and the
 * program built with it. Setup ends with it; a tuning search calls it
 * again for each candidate, on the same image, reference and buffers. */
static int constmem_retune(struct clmem_run *run, struct clmem_error *err)
{
    struct constmem_state *s = run->state;
    size_t n_rows;
    const struct clmem_param_row *rows = clmem_param_table_rows(&coarsened_table, &n_rows);
    strips_choose(run, &constmem_tunables[0], rows, n_rows, s->width, &s->strips);
    char strip_options[96], options[128];
    strips_options(&s->strips, s->width, strip_options, sizeof strip_options);
    snprintf(options, sizeof options, "-DFILTER_RADIUS=%d %s", FILTER_RADIUS, strip_options);
    return clmem_run_rebuild(run, options, err);
}

static int constmem_setup(struct clmem_run *run, struct clmem_error *err)
{
    struct constmem_state *s = run->state;
    struct clmem_image image;
    int status;
    s->width = run->size.dim[0];
    s->height = run->size.dim[1];
    size_t elems = s->width * s->height; /* bounded by plan() */
    if ((status = clmem_image_generate(&image, s->width, s->height, 1, run->seed, err)))
        return status;
    if (!(s->in = clmem_alloc_array(elems, sizeof(float), err)) ||
        !(s->ref = clmem_alloc_array(elems, sizeof(float), err)) ||
        !(s->out = clmem_alloc_array(elems, sizeof(float), err))) {
        clmem_image_free(&image);
        return err->status;
    }
    for (size_t i = 0; i < elems; i++)
        s->in[i] = (float)image.pixels[i] / 255.0f;
    clmem_image_free(&image);
    make_filter(s->filter);
    clmem_parallel_rows(s->height, s->width, CLMEM_PARALLEL_LEAST, convolve_reference_rows, s);

    s->tile = clmem_pick_tile(&run->ctx->device, MAX_TILE, 0, sizeof(float));
    if ((status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, elems * sizeof(float), s->in,
                                      &s->d_in, err)) ||
        (status = clmem_run_output_buffer(run, "out", CL_MEM_READ_WRITE, elems * sizeof(float),
                                          &s->d_out, err)) ||
        (status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, sizeof s->filter, s->filter,
                                      &s->d_filter, err)))
        return status;
    return constmem_retune(run, err);
}

static int constmem_execute(struct clmem_run *run, const struct clmem_variant *v,
                            struct clmem_timing *timing, struct clmem_error *err)
{
    struct constmem_state *s = run->state;
    cl_kernel kernel = clmem_run_kernel(run, v);
    cl_int w = (cl_int)s->width, h = (cl_int)s->height;
    int status = clmem_kernel_args(kernel, err, CLMEM_ARG(s->d_in), CLMEM_ARG(s->d_out),
                                   CLMEM_ARG(s->d_filter), CLMEM_ARG(w), CLMEM_ARG(h));
    if (status)
        return status;
    if (v == &constmem_variants[COARSENED]) /* strips of VEC outputs by ROWS rows */
        return strips_launch(run, kernel, &s->strips, s->width, s->height, timing, err);
    size_t global[2] = {s->width, s->height};
    size_t local[2] = {s->tile, s->tile};
    return clmem_launch(run->ctx, kernel, 2, global, local, timing, err);
}

/* Untimed: an element a kernel never writes stays NaN and fails the check. */
static int constmem_prepare(struct clmem_run *run, const struct clmem_variant *v,
                            struct clmem_error *err)
{
    (void)v;
    struct constmem_state *s = run->state;
    return clmem_buffer_poison(run->ctx, s->d_out, s->width * s->height * sizeof(float), err);
}

static int constmem_verify(struct clmem_run *run, const struct clmem_variant *v,
                           struct clmem_check *check, struct clmem_error *err)
{
    (void)v;
    struct constmem_state *s = run->state;
    size_t w = s->width;
    int status = clmem_buffer_read(run->ctx, s->d_out, w * s->height * sizeof(float), s->out, err);
    if (status)
        return status;
    /* Same order, but the device may fuse multiply-adds: relative to the
     * input's range [0, 1], within 1e-5. */
    clmem_check_init(check, 1e-5);
    for (size_t r = 0; r < s->height; r++)
        for (size_t c = 0; c < w; c++)
            clmem_check_value(check, s->ref[r * w + c], s->out[r * w + c], 1.0,
                              "out[row %zu][col %zu]", r, c);
    snprintf(check->note, sizeof check->note, "%dx%d filter, zero outside the image", FILTER_WIDTH,
             FILTER_WIDTH);
    return CLMEM_OK;
}

/* Bytes a run moves by design, N the image's floats: the slides' kernels
 * read the 5x5 neighbourhood of every output from global memory and the
 * 25 coefficients from global or from __constant (the caches catch the
 * neighbourhood's reuse, which the model leaves to them); the coarsened
 * one loads each input row of a strip once per filter column (or once,
 * with its halo, in one aligned load) and each work-item reads the
 * coefficients once. Every output is written once; 25 multiply-adds (50
 * flops) each. */
static void constmem_traffic(const struct clmem_run *run, const struct clmem_variant *v,
                             struct clmem_traffic *t)
{
    const struct constmem_state *s = run->state;
    double f = sizeof(float), w = (double)s->width, h = (double)s->height, n = w * h;
    double taps = FILTER_WIDTH * FILTER_WIDTH;
    t->flops = 2.0 * taps * n;
    t->global_bytes = f * n; /* the writes */
    if (v == &constmem_variants[GLOBAL_FILTER]) {
        t->global_bytes += 2.0 * taps * f * n;
        t->unmodelled = "caches serving the overlapping neighbourhoods and the filter";
    } else if (v == &constmem_variants[CONSTANT_FILTER]) {
        t->global_bytes += taps * f * n;
        t->constant_bytes = taps * f * n;
        t->unmodelled = "caches serving the overlapping neighbourhoods";
    } else {
        t->unmodelled = "caches serving a strip's repeated row loads and shared halo rows";
        double vec = s->strips.values[STRIP_VEC], rows = s->strips.values[STRIP_ROWS];
        double strips = ceil(w / vec) * ceil(h / rows);
        double per_row =
            s->strips.values[STRIP_LOAD] == 2 ? vec + 2.0 * FILTER_RADIUS : FILTER_WIDTH * vec;
        t->global_bytes += strips * (rows + 2.0 * FILTER_RADIUS) * per_row * f;
        t->constant_bytes = strips * taps * f;
    }
}

static void constmem_teardown(struct clmem_run *run)
{
    struct constmem_state *s = run->state;
    clmem_release_mem(&s->d_in);
    clmem_release_mem(&s->d_out);
    clmem_release_mem(&s->d_filter);
    free(s->in);
    free(s->ref);
    free(s->out);
}

/* GPUs: 8192 x 8192 floats, 256 MiB each way as the copy peak's buffers,
 * long enough (a hundred microseconds or more at a large GPU's
 * bandwidth) that a launch's cost is lost in it:
 * its fraction of the copy peak shows how near the roof a kernel gets.
 * CPUs: 2048 x 2048 (16 MiB each way). */
static const char *const constmem_bench_sizes[] = {"8192", NULL};
static const char *const constmem_bench_sizes_cpu[] = {"2048", NULL};

const struct clmem_workload clmem_workload_constmem = {
    .name = "constmem",
    .summary = "5x5 float convolution, filter in __global against __constant (seed 003, "
               "constant memory slides)",
    .source = "constmem.cl",
    .default_size = "2048",
    .bench_sizes = constmem_bench_sizes,
    .bench_sizes_cpu = constmem_bench_sizes_cpu,
    .size_help = "N (square) or WxH, the float image",
    .max_dims = 2,
    .check_sizes = "17x9",
    .variants = constmem_variants,
    .n_variants = CLMEM_ARRAY_SIZE(constmem_variants),
    .metric_unit = "GB/s",
    .state_size = sizeof(struct constmem_state),
    .plan = constmem_plan,
    .setup = constmem_setup,
    .retune = constmem_retune,
    .execute = constmem_execute,
    .prepare = constmem_prepare,
    .verify = constmem_verify,
    .traffic = constmem_traffic,
    /* Every pixel read once and written once (the filter is cached, not
     * counted); a multiply and an add per filter tap, FILTER_WIDTH^2 taps
     * per output pixel, over its 8 bytes: 2 * 25 / 8 at radius 2. */
    .work_per_element = 2.0 * sizeof(float),
    .flops_per_byte = 2.0 * FILTER_WIDTH * FILTER_WIDTH / (2.0 * sizeof(float)),
    .teardown = constmem_teardown,
    .tunables = constmem_tunables,
    .n_tunables = CLMEM_ARRAY_SIZE(constmem_tunables),
    .param_tables = constmem_param_tables,
    .n_param_tables = CLMEM_ARRAY_SIZE(constmem_param_tables),
};
