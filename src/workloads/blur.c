/* Image blur (Kirk & Hwu Fig 3.8, inner loop Fig 4.1): every output pixel
 * the integer average of the (2*BLUR_SIZE+1)^2 box around it, over the
 * pixels inside the image. The input is a seeded random grey W x H image,
 * or a P5/P6 file given with --input (its size then comes from the file);
 * with an --output FILE.pgm|.ppm the first verified variant's blurred image
 * is written there. Beside the figure's kernel and its local-memory tile,
 * `coarsened` shows how far the design goes: strips of VEC bytes by ROWS
 * rows a work-item, vector loads, no edge checks inside the image. */
#include "harness/traffic.h"
#include "strips.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The figure's radius, fixed: the kernels are built with -DBLUR_SIZE. */
#define BLUR_SIZE 1
/* Largest work-group side tried; plan() bounds the int indices with it. */
#define MAX_TILE 16

enum { NAIVE, TILED, COARSENED };

/* coarsened's strip: VEC bytes of a row by ROWS rows a work-item
 * (cl/blur.cl), read as vectors at every offset of the box (STRIP_LOAD 1)
 * or as one aligned load a row (2), looked up device -> family -> vendor
 * -> any in the parameter database (strips.h). A row's MIN_ACROSS is the
 * fewest strips across a row of the image it is taken for (0: any
 * width), so that a device may take a wider strip only where rows are
 * wide enough to keep every unit busy. The kernel is bound by its
 * arithmetic as much as by memory: wider strips are not always faster,
 * even as bare copies. */
static const struct clmem_param_table coarsened_table = {
    "blur", "coarsened", {"VEC", "ROWS", "STRIP_LOAD", "MIN_ACROSS"},
    4,      0,           CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_CPU | CLMEM_PARAM_UNTYPED};
static const struct clmem_param_table *const blur_param_tables[] = {&coarsened_table};

/* Up to 32 rows; STRIP_LOAD 2 (one aligned load a row) only where a
 * strip holds whole 32-bit words. */
static int coarsened_valid(const struct clmem_device *device, const int v[])
{
    (void)device;
    return strips_valid(v, 32, 4);
}

static const struct clmem_tune_param coarsened_space[] = {
    {"VEC", {1, 2, 4, 8, 16}},
    {"ROWS", {1, 2, 4, 8, 16, 32}},
    {"STRIP_LOAD", {1, 2}},
};
static const struct clmem_tunable blur_tunables[] = {
    {"coarsened", coarsened_space, CLMEM_ARRAY_SIZE(coarsened_space), coarsened_valid, 0, 0},
};

struct blur_state {
    size_t width, height, tile;
    struct strips strips;  /* coarsened's */
    struct clmem_image in; /* generated, or read from --input */
    unsigned char *ref, *out;
    int image_written;
    /* The output's poison: a byte value the reference does not hold, so an
     * unwritten byte always fails; `poison_used` when every value occurs. */
    unsigned char poison;
    int poison_used;
    cl_mem d_in, d_out;
};

static const struct clmem_variant blur_variants[] = {
    [NAIVE] = {"naive",
               "Fig 3.8/4.1 blurKernel: one work-item per output pixel and channel, edge-checked "
               "reads from global memory",
               "blurKernel", NULL},
    [TILED] = {"tiled",
               "input tile with a BLUR_SIZE halo in local memory, edge-checked loads, one barrier",
               "blurTiled", NULL},
    [COARSENED] = {"coarsened",
                   "beyond the figures: strips of VEC bytes by ROWS rows a work-item, each input "
                   "row loaded once (one aligned load on GPUs), sums in registers, no edge checks "
                   "inside the image",
                   /* Oclgrind builds it as a GPU (4 x 4 strips, one
                    * aligned load a row): at 17x9, strips at both edges,
                    * whole ones, one cut by the right edge, a strip row
                    * cut short; at 32x9 (rows of whole words) the aligned
                    * loads, their halo bytes, the top and bottom rows, and
                    * a strip (rows 4 to 7) with its boxes inside the image. */
                   "blurCoarsened", NULL, .check_sizes = "17x9 32x9"},
};

static size_t row_bytes(const struct blur_state *s)
{
    return s->width * s->in.channels;
}

static int blur_plan(struct clmem_run *run, struct clmem_error *err)
{
    char text[64];
    unsigned channels = 1;
    clmem_size_format(&run->size, text, sizeof text);
    if (run->input) {
        /* The file, read once by clmem_run_plan, is checked here before any
         * device work; setup() parses it again to keep it. */
        struct clmem_image image;
        int status = clmem_netpbm_parse(run->input, run->input_data, run->input_size, &image, err);
        if (status)
            return status;
        run->size.dim[0] = image.width;
        run->size.dim[1] = image.height;
        run->size.dim[2] = 1;
        run->size.ndims = 2;
        channels = image.channels;
        clmem_image_free(&image);
    }
    /* The image written is PGM for a grey input, PPM for RGB. */
    const char *kind = channels == 1 ? ".pgm" : ".ppm";
    size_t len = run->image_output ? strlen(run->image_output) : 0;
    if (len && (len < 4 || strcmp(run->image_output + len - 4, kind) != 0))
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "output '%s': the blurred image is %s, so its name must end in '%s'",
                          run->image_output, channels == 1 ? "grey" : "RGB", kind);
    size_t width = run->size.dim[0], height = run->size.dim[1], bytes, padded;
    /* The kernels index bytes with int, also in the work-items past the
     * edges of the last tiles and their halos. */
    if (!clmem_mul_size(width, channels, &bytes) ||
        !clmem_mul_size(clmem_round_up(bytes, MAX_TILE) + 2 * MAX_TILE,
                        clmem_round_up(height, MAX_TILE) + 2 * MAX_TILE, &padded) ||
        padded > INT_MAX)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "image %zux%zu with %u channel%s is too large for the kernels' int "
                          "indices (at most about %d bytes)",
                          width, height, channels, channels == 1 ? "" : "s", INT_MAX);
    bytes *= height; /* bounded by padded */
    run->buffer_bytes[0] = bytes;
    run->buffer_bytes[1] = bytes;
    run->n_buffers = 2;
    return CLMEM_OK;
}

/* Fig 4.1 on the CPU, the same integer arithmetic, for rows [first,
 * end) (blur_reference runs parts on threads: the largest images are
 * 2^28 pixels). */
static void blur_reference_rows(void *arg, size_t first, size_t end)
{
    struct blur_state *s = arg;
    size_t w = s->width, h = s->height, ch = s->in.channels;
    for (size_t row = first; row < end; row++)
        for (size_t col = 0; col < w; col++)
            for (size_t c = 0; c < ch; c++) {
                int pixVal = 0, pixels = 0;
                for (ptrdiff_t br = -BLUR_SIZE; br < BLUR_SIZE + 1; ++br)
                    for (ptrdiff_t bc = -BLUR_SIZE; bc < BLUR_SIZE + 1; ++bc) {
                        ptrdiff_t cur_row = (ptrdiff_t)row + br, cur_col = (ptrdiff_t)col + bc;
                        if (clmem_image_inside(cur_row, cur_col, h, w)) {
                            pixVal +=
                                s->in.pixels[((size_t)cur_row * w + (size_t)cur_col) * ch + c];
                            pixels++;
                        }
                    }
                s->ref[(row * w + col) * ch + c] = (unsigned char)(pixVal / pixels);
            }
}

/* Largest power-of-two tile whose work-group the device allows and whose
 * tile with halo fits its local memory. */
static size_t pick_tile(const struct clmem_device *device, unsigned channels)
{
    size_t t = MAX_TILE;
    while (t > 1 && (t * t > device->max_work_group ||
                     (t + 2 * BLUR_SIZE) * (t + 2 * BLUR_SIZE * channels) > device->local_mem))
        t /= 2;
    return t;
}

/* The tuned part: coarsened's strip (tuned, else built in) and the
 * program built with it. Setup ends with it; a tuning search calls it
 * again for each candidate, on the same image, reference and buffers. */
static int blur_retune(struct clmem_run *run, struct clmem_error *err)
{
    struct blur_state *s = run->state;
    size_t n_rows;
    const struct clmem_param_row *rows = clmem_param_table_rows(&coarsened_table, &n_rows);
    strips_choose(run, &blur_tunables[0], rows, n_rows, row_bytes(s), &s->strips);
    char strip_options[96], options[192];
    strips_options(&s->strips, row_bytes(s), strip_options, sizeof strip_options);
    snprintf(options, sizeof options, "-DBLUR_SIZE=%d -DCHANNELS=%u -DTILE=%zu %s", BLUR_SIZE,
             s->in.channels, s->tile, strip_options);
    return clmem_run_rebuild(run, options, err);
}

static int blur_setup(struct clmem_run *run, struct clmem_error *err)
{
    struct blur_state *s = run->state;
    int status;
    s->width = run->size.dim[0];
    s->height = run->size.dim[1];
    if (run->input) {
        if ((status =
                 clmem_netpbm_parse(run->input, run->input_data, run->input_size, &s->in, err)))
            return status;
    } else if ((status = clmem_image_generate(&s->in, s->width, s->height, 1, run->seed, err))) {
        return status;
    }
    size_t bytes = row_bytes(s) * s->height; /* bounded by plan() */
    if (!(s->ref = clmem_alloc_array(bytes, 1, err)) ||
        !(s->out = clmem_alloc_array(bytes, 1, err)))
        return err->status;
    clmem_parallel_rows(s->height, s->width * s->in.channels, CLMEM_PARALLEL_LEAST,
                        blur_reference_rows, s);
    size_t seen[256] = {0};
    for (size_t i = 0; i < bytes; i++)
        seen[s->ref[i]]++;
    s->poison = 0;
    for (int value = 255; value >= 0; value--)
        if (seen[value] < seen[s->poison])
            s->poison = (unsigned char)value;
    s->poison_used = seen[s->poison] != 0;

    s->tile = pick_tile(&run->ctx->device, s->in.channels);
    if ((status =
             clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, bytes, s->in.pixels, &s->d_in, err)) ||
        (status = clmem_run_output_buffer(run, "out", CL_MEM_READ_WRITE, bytes, &s->d_out, err)))
        return status;
    return blur_retune(run, err);
}

static int blur_execute(struct clmem_run *run, const struct clmem_variant *v,
                        struct clmem_timing *timing, struct clmem_error *err)
{
    struct blur_state *s = run->state;
    cl_kernel kernel = clmem_run_kernel(run, v);
    cl_int w = (cl_int)s->width, h = (cl_int)s->height;
    int status = clmem_kernel_args(kernel, err, CLMEM_ARG(s->d_in), CLMEM_ARG(s->d_out),
                                   CLMEM_ARG(w), CLMEM_ARG(h));
    if (status)
        return status;
    if (v == &blur_variants[COARSENED]) /* strips of VEC bytes by ROWS rows */
        return strips_launch(run, kernel, &s->strips, row_bytes(s), s->height, timing, err);
    /* One work-item per output byte (pixel and channel), TILE x TILE groups. */
    size_t global[2] = {row_bytes(s), s->height};
    size_t local[2] = {s->tile, s->tile};
    return clmem_launch(run->ctx, kernel, 2, global, local, timing, err);
}

/* Untimed: a byte no kernel writes keeps a value the reference never has
 * (set up), and fails the check. */
static int blur_prepare(struct clmem_run *run, const struct clmem_variant *v,
                        struct clmem_error *err)
{
    (void)v;
    struct blur_state *s = run->state;
    return clmem_buffer_fill_byte(run->ctx, s->d_out, row_bytes(s) * s->height, s->poison, err);
}

static int blur_verify(struct clmem_run *run, const struct clmem_variant *v,
                       struct clmem_check *check, struct clmem_error *err)
{
    (void)v;
    struct blur_state *s = run->state;
    size_t cols = row_bytes(s);
    int status = clmem_buffer_read(run->ctx, s->d_out, cols * s->height, s->out, err);
    if (status)
        return status;
    clmem_check_init(check, 0.0); /* the same integer arithmetic: exact */
    for (size_t r = 0; r < s->height; r++)
        for (size_t c = 0; c < cols; c++)
            clmem_check_value(check, s->ref[r * cols + c], s->out[r * cols + c], 255.0,
                              "out[row %zu][byte %zu]", r, c);
    snprintf(check->note, sizeof check->note, "%s %zux%zu, BLUR_SIZE %d",
             s->in.channels == 1 ? "grey" : "RGB", s->width, s->height, BLUR_SIZE);
    /* An image holding all 256 values leaves no free poison: say so. */
    if (s->poison_used)
        snprintf(check->scope, sizeof check->scope, "bytes of value %u: written or not", s->poison);
    return CLMEM_OK;
}

/* The first verified variant's image goes to --output FILE.pgm|.ppm, once
 * its result is final (out holds its output, checked). */
static int blur_save_output(struct clmem_run *run, const struct clmem_variant *v,
                            struct clmem_error *err)
{
    (void)v;
    struct blur_state *s = run->state;
    if (!run->image_output || s->image_written)
        return CLMEM_OK;
    struct clmem_image blurred = s->in;
    blurred.pixels = s->out;
    int status = clmem_netpbm_write(run->image_output, &blurred, err);
    s->image_written = status == CLMEM_OK;
    return status;
}

static double blur_work(const struct clmem_run *run, const struct clmem_variant *v)
{
    (void)v;
    const struct blur_state *s = run->state;
    /* The figure's minimal traffic: every byte read once and written once. */
    return 2.0 * (double)s->width * (double)s->height * (double)s->in.channels;
}

/* Bytes a run moves by design, B the image's bytes: the figure's kernel
 * loads the (2*BLUR_SIZE+1)^2 box of every output byte from global
 * memory (the caches catch the reuse, which the model leaves to them);
 * the tiled one loads each group's tile with its halo once and reads
 * the box from __local; the coarsened one loads each of a strip's input
 * rows once (as a vector at each of the box's offsets, or one load of
 * the strip and its halo). Every output byte is written once. The sums
 * are integer adds: no FP32 roof bounds them, no flops counted. */
static void blur_traffic(const struct clmem_run *run, const struct clmem_variant *v,
                         struct clmem_traffic *t)
{
    const struct blur_state *s = run->state;
    double c = (double)s->in.channels, w = (double)s->width, h = (double)s->height;
    double bytes = w * h * c, box = (2.0 * BLUR_SIZE + 1) * (2.0 * BLUR_SIZE + 1);
    t->global_bytes = bytes; /* the writes */
    if (v == &blur_variants[NAIVE]) {
        t->global_bytes += box * bytes;
        t->unmodelled = "caches serving the overlapping boxes, an edge check a read";
    } else if (v == &blur_variants[TILED]) {
        /* A byte read from __local costs a bank access as a word does. */
        t->unmodelled = "byte-wide __local reads, an edge check a tap, a barrier";
        double tile = (double)s->tile;
        double groups = ceil(w * c / tile) * ceil(h / tile);
        double loaded = groups * (tile + 2.0 * BLUR_SIZE) * (tile + 2.0 * BLUR_SIZE * c);
        t->global_bytes += loaded;
        t->local_bytes = loaded + box * bytes;
    } else {
        double vec = s->strips.values[STRIP_VEC], rows = s->strips.values[STRIP_ROWS];
        double strips = ceil(w * c / vec) * ceil(h / rows);
        double per_row = s->strips.values[STRIP_LOAD] == 2 ? vec + 2.0 * BLUR_SIZE * c
                                                           : (2.0 * BLUR_SIZE + 1) * vec;
        t->global_bytes += strips * (rows + 2.0 * BLUR_SIZE) * per_row;
        t->unmodelled = "caches serving the halo rows neighbouring strips share";
    }
}

static void blur_teardown(struct clmem_run *run)
{
    struct blur_state *s = run->state;
    clmem_release_mem(&s->d_in);
    clmem_release_mem(&s->d_out);
    clmem_image_free(&s->in);
    free(s->ref);
    free(s->out);
}

/* GPUs: an 8K frame, the figure's kind of image, and a 16384 x 16384 one.
 * The 8K frame moves 66 MB (33 MB each way), tens of microseconds at a
 * large GPU's bandwidth, where a launch's few microseconds and the last, partly filled wave of
 * work-groups cost a visible share: a kernel at the memory's roof reads
 * well under it there. The larger image moves 512 MiB, as the copy peak's
 * buffers do, so its fraction of that peak shows how near the roof a
 * kernel gets. CPUs: a 1080p frame (2 MB, within a server's cache). */
static const char *const blur_bench_sizes[] = {"7680x4320", "16384x16384", NULL};
static const char *const blur_bench_sizes_cpu[] = {"1920x1080", NULL};

const struct clmem_workload clmem_workload_blur = {
    .name = "blur",
    .summary = "image blur, Kirk & Hwu Fig 3.8/4.1 (BLUR_SIZE 1), global against local memory",
    .source = "blur.cl",
    .default_size = "1920x1080",
    .bench_sizes = blur_bench_sizes,
    .bench_sizes_cpu = blur_bench_sizes_cpu,
    .size_help = "N (square) or WxH, the generated grey image; with --input, the file's size",
    .max_dims = 2,
    .check_sizes = "17x9",
    .variants = blur_variants,
    .n_variants = CLMEM_ARRAY_SIZE(blur_variants),
    .metric_unit = "GB/s",
    .input_help = "a binary PGM (P5, grey) or PPM (P6, RGB) image, maxval 1..255; the blurred "
                  "image goes to an --output FILE.pgm|.ppm",
    .state_size = sizeof(struct blur_state),
    .plan = blur_plan,
    .setup = blur_setup,
    .retune = blur_retune,
    .execute = blur_execute,
    .prepare = blur_prepare,
    .verify = blur_verify,
    .traffic = blur_traffic,
    .save_output = blur_save_output,
    .work = blur_work,
    /* (2 * BLUR_SIZE + 1)^2 adds per output byte (inside the image; fewer at
     * its edges), integer adds rather than flops, over the 2 bytes blur_work
     * counts for it (read once, written once): 9 / 2 at BLUR_SIZE 1. */
    .flops_per_byte = (2.0 * BLUR_SIZE + 1) * (2.0 * BLUR_SIZE + 1) / 2.0,
    .teardown = blur_teardown,
    .tunables = blur_tunables,
    .n_tunables = CLMEM_ARRAY_SIZE(blur_tunables),
    .param_tables = blur_param_tables,
    .n_param_tables = CLMEM_ARRAY_SIZE(blur_param_tables),
};
