/* Pitched 2D arrays (CUDA course, seed 003, day 2, "Garantire
 * l'allineamento dei dati in memoria"): a W x H float array processed
 * with rows packed (clEnqueueWriteBuffer, cudaMalloc) and with rows padded
 * to the device's base address alignment (clEnqueueWriteBufferRect and
 * clEnqueueReadBufferRect, cudaMallocPitch and cudaMemcpy2D). Odd widths
 * are the point: packed rows then start unaligned. Beside the slides' two
 * kernels, `vec4` shows how far the pitched layout goes: a float4 per
 * work-item, every whole one aligned because every row is. */
#include "harness/traffic.h"
#include "harness/workload.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Work-group: up to 32 along a row, up to 256 work-items in all. */
#define MAX_GROUP_X 32

enum { UNPADDED, PITCHED, VEC4 };

struct pitched_state {
    size_t width, height, pitch; /* pitch in bytes */
    size_t local[2];
    float *in, *ref, *out; /* packed, height rows of width */
    unsigned char *raw;    /* the whole pitched output, pitch * height bytes */
    cl_mem d_in, d_out;    /* unpadded: width * height floats */
    cl_mem d_pin, d_pout;  /* pitched and vec4: height rows of pitch bytes */
};

static const struct clmem_variant pitched_variants[] = {
    [UNPADDED] = {"unpadded",
                  "rows packed, width*4 bytes apart, filled with clEnqueueWriteBuffer (cudaMalloc "
                  "on the slide 'Garantire l'allineamento dei dati in memoria')",
                  "unpadded", NULL},
    [PITCHED] = {"pitched",
                 "rows padded to the base address alignment, clEnqueueWrite/ReadBufferRect "
                 "(slides on cudaMallocPitch and cudaMemcpy2D)",
                 "pitched", NULL},
    [VEC4] = {"vec4",
              "beyond the slides: the pitched rows, a float4 per work-item, aligned 16-byte "
              "loads and stores (a row's last float4 float by float)",
              "vec4Pitched", NULL,
              /* Rows of whole float4s and one float, and rows shorter
               * than a float4. */
              .check_sizes = "33x7 3x2"},
};

/* The alignment rows are padded to, in bytes: the device's base address
 * alignment (128 bytes at least on a full-profile device), made a multiple
 * of 16 so the pitch is whole floats and vec4's float4s stay aligned. */
#define MIN_ROW_ALIGN (4 * sizeof(float))
static size_t row_alignment(const struct clmem_device *device)
{
    size_t align = device->base_addr_align_bits / 8;
    if (align == 0)
        align = MIN_ROW_ALIGN;
    return align / clmem_gcd(align, MIN_ROW_ALIGN) * MIN_ROW_ALIGN;
}

/* cudaMallocPitch's choice: a row's bytes rounded up to the alignment.
 * 0 when it overflows. */
static size_t pitch_bytes(const struct clmem_device *device, size_t width)
{
    size_t row, align = row_alignment(device);
    if (!clmem_mul_size(width, sizeof(float), &row) || row > SIZE_MAX - align)
        return 0;
    return clmem_round_up(row, align);
}

static int is_selected(const struct clmem_run *run, int which)
{
    for (size_t i = 0; i < run->n_variants; i++)
        if (run->variants[i] == &pitched_variants[which])
            return 1;
    return 0;
}

/* pitched and vec4 share the pitched buffers and their checks. */
static int uses_pitch(const struct clmem_variant *v)
{
    return v == &pitched_variants[PITCHED] || v == &pitched_variants[VEC4];
}

static int pitch_selected(const struct clmem_run *run)
{
    return is_selected(run, PITCHED) || is_selected(run, VEC4);
}

static int pitched_plan(struct clmem_run *run, struct clmem_error *err)
{
    char text[64];
    clmem_size_format(&run->size, text, sizeof text);
    size_t width = run->size.dim[0], height = run->size.dim[1];
    size_t pitch = pitch_bytes(&run->ctx->device, width), elems;
    /* The kernels index with int: y * pitch / 4 + x stays below pitch / 4 * height
     * (the work-items past the edges compute no index). */
    if (pitch == 0 || !clmem_mul_size(pitch / sizeof(float), height, &elems) || elems > INT_MAX)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "size '%s' is too large (rows padded to %zu bytes, height times the "
                          "pitch in floats must be at most %d for the kernels' int indices)",
                          text, row_alignment(&run->ctx->device), INT_MAX);
    size_t packed = width * height * sizeof(float), padded = pitch * height; /* <= 4 * INT_MAX */
    run->n_buffers = 0;
    if (is_selected(run, UNPADDED)) {
        run->buffer_bytes[run->n_buffers++] = packed;
        run->buffer_bytes[run->n_buffers++] = packed;
    }
    if (pitch_selected(run)) {
        run->buffer_bytes[run->n_buffers++] = padded;
        run->buffer_bytes[run->n_buffers++] = padded;
    }
    return CLMEM_OK;
}

static int pitched_setup(struct clmem_run *run, struct clmem_error *err)
{
    struct pitched_state *s = run->state;
    const struct clmem_device *device = &run->ctx->device;
    int status;
    s->width = run->size.dim[0];
    s->height = run->size.dim[1];
    s->pitch = pitch_bytes(device, s->width); /* checked by plan() */
    s->local[0] = clmem_pick_group(device, MAX_GROUP_X);
    s->local[1] = clmem_pick_group(device, CLMEM_GROUP_SIZE) / s->local[0];
    size_t elems = s->width * s->height, padded = s->pitch * s->height;
    if (!(s->in = clmem_alloc_array(elems, sizeof(float), err)) ||
        !(s->ref = clmem_alloc_array(elems, sizeof(float), err)) ||
        !(s->out = clmem_alloc_array(elems, sizeof(float), err)) ||
        !(s->raw = clmem_alloc_array(padded, 1, err)))
        return err->status;
    clmem_fill_uniform(s->in, elems, 1.0f, 2.0f, run->seed);
    /* 2 * in is exact, so one rounding whether or not the device fuses. */
    for (size_t y = 0; y < s->height; y++)
        for (size_t x = 0; x < s->width; x++)
            s->ref[y * s->width + x] = 2.0f * s->in[y * s->width + x] + (float)y;

    if (is_selected(run, UNPADDED) &&
        ((status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, elems * sizeof(float), NULL,
                                       &s->d_in, err)) ||
         (status = clmem_run_output_buffer(run, "out", CL_MEM_READ_WRITE, elems * sizeof(float),
                                           &s->d_out, err))))
        return status;
    if (pitch_selected(run) &&
        ((status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, padded, NULL, &s->d_pin, err)) ||
         (status = clmem_run_output_buffer(run, "out (pitched)", CL_MEM_READ_WRITE, padded,
                                           &s->d_pout, err))))
        return status;
    return clmem_run_build(run, "", err);
}

static int pitched_execute(struct clmem_run *run, const struct clmem_variant *v,
                           struct clmem_timing *timing, struct clmem_error *err)
{
    struct pitched_state *s = run->state;
    cl_kernel kernel = clmem_run_kernel(run, v);
    /* Bounded by plan(). */
    cl_int width = (cl_int)s->width, height = (cl_int)s->height;
    cl_int pitch = (cl_int)(s->pitch / sizeof(float));
    int status;
    if (uses_pitch(v))
        status = clmem_kernel_args(kernel, err, CLMEM_ARG(s->d_pin), CLMEM_ARG(s->d_pout),
                                   CLMEM_ARG(width), CLMEM_ARG(height), CLMEM_ARG(pitch));
    else
        status = clmem_kernel_args(kernel, err, CLMEM_ARG(s->d_in), CLMEM_ARG(s->d_out),
                                   CLMEM_ARG(width), CLMEM_ARG(height));
    if (status)
        return status;
    /* vec4: a work-item per float4 of a row, the last one perhaps cut. */
    size_t per_item = v == &pitched_variants[VEC4] ? 4 : 1;
    size_t global[2] = {(s->width + per_item - 1) / per_item, s->height};
    return clmem_launch(run->ctx, kernel, 2, global, s->local, timing, err);
}

/* Untimed, before the variant: its input goes up the variant's way, and
 * the output, padding included, is poisoned. The input's padding is zeroed,
 * not poisoned: a kernel that read it would write 2 * 0 + y, which the
 * checks see, where 2 * NaN + y could keep the poison's bits. */
static int pitched_prepare(struct clmem_run *run, const struct clmem_variant *v,
                           struct clmem_error *err)
{
    struct pitched_state *s = run->state;
    size_t row = s->width * sizeof(float), padded = s->pitch * s->height;
    int status;
    if (uses_pitch(v)) {
        if ((status = clmem_buffer_fill_zero(run->ctx, s->d_pin, padded, err)) ||
            (status =
                 clmem_buffer_write_rect(run->ctx, s->d_pin, s->pitch, row, s->height, s->in, err)))
            return status;
        return clmem_buffer_poison(run->ctx, s->d_pout, padded, err);
    }
    if ((status = clmem_buffer_write(run->ctx, s->d_in, row * s->height, s->in, err)))
        return status;
    return clmem_buffer_poison(run->ctx, s->d_out, row * s->height, err);
}

/* The padding of every row must still be poison, byte for byte. */
static void check_padding(struct pitched_state *s, struct clmem_check *check)
{
    size_t row = s->width * sizeof(float);
    for (size_t y = 0; y < s->height; y++) {
        const unsigned char *pad = s->raw + y * s->pitch + row;
        for (size_t b = 0; b < s->pitch - row; b += sizeof(float)) {
            check->checked++;
            if (pad[b] == 0xFF && pad[b + 1] == 0xFF && pad[b + 2] == 0xFF && pad[b + 3] == 0xFF)
                continue;
            if (check->mismatches < CLMEM_MAX_MISMATCH_LINES)
                snprintf(check->lines[check->mismatches], sizeof check->lines[0],
                         "out row %zu: padding float %zu (past the width) was written", y,
                         b / sizeof(float));
            check->mismatches++;
        }
    }
}

static int pitched_verify(struct clmem_run *run, const struct clmem_variant *v,
                          struct clmem_check *check, struct clmem_error *err)
{
    struct pitched_state *s = run->state;
    size_t row = s->width * sizeof(float);
    int is_pitched = uses_pitch(v);
    int status;
    if (is_pitched)
        status = clmem_buffer_read_rect(run->ctx, s->d_pout, s->pitch, row, s->height, s->out, err);
    else
        status = clmem_buffer_read(run->ctx, s->d_out, row * s->height, s->out, err);
    if (status)
        return status;
    clmem_check_init(check, 0.0); /* one rounding, the same on both sides */
    for (size_t y = 0; y < s->height; y++)
        for (size_t x = 0; x < s->width; x++)
            clmem_check_value(check, s->ref[y * s->width + x], s->out[y * s->width + x],
                              s->ref[y * s->width + x], "out[y %zu][x %zu]", y, x);
    if (is_pitched) {
        if ((status = clmem_buffer_read(run->ctx, s->d_pout, s->pitch * s->height, s->raw, err)))
            return status;
        check_padding(s, check);
        snprintf(check->note, sizeof check->note,
                 "pitch %zu B for width %zu (rows of %zu B, alignment %zu B)", s->pitch, s->width,
                 row, row_alignment(&run->ctx->device));
    } else {
        snprintf(check->note, sizeof check->note, "rows of %zu B, packed", row);
    }
    return CLMEM_OK;
}

/* Each float read once and written once, padded rows or packed: the
 * padding is never read. A copy's kernels: no arithmetic. */
static void pitched_traffic(const struct clmem_run *run, const struct clmem_variant *v,
                            struct clmem_traffic *t)
{
    const struct pitched_state *s = run->state;
    t->global_bytes = 2.0 * sizeof(float) * (double)s->width * (double)s->height;
    /* Aligned rows move what they ask for. */
    if (v == &pitched_variants[UNPADDED])
        t->unmodelled = "the extra memory transaction an unaligned row start touches";
    else if (v == &pitched_variants[VEC4])
        t->unmodelled = "each row's cut last float4 moved float by float";
}

static void pitched_teardown(struct clmem_run *run)
{
    struct pitched_state *s = run->state;
    clmem_release_mem(&s->d_in);
    clmem_release_mem(&s->d_out);
    clmem_release_mem(&s->d_pin);
    clmem_release_mem(&s->d_pout);
    free(s->in);
    free(s->ref);
    free(s->out);
    free(s->raw);
}

/* Odd widths, so that packed rows start unaligned. GPUs: 8191 x 8191
 * floats, 256 MiB each way as the copy peak's buffers, so its fraction
 * of that peak shows how near the roof a kernel gets; CPUs: 2049 x 2049. */
static const char *const pitched_bench_sizes[] = {"8191x8191", NULL};
static const char *const pitched_bench_sizes_cpu[] = {"2049x2049", NULL};

const struct clmem_workload clmem_workload_pitched = {
    .name = "pitched",
    .summary = "2D float array with packed rows against rows padded to the alignment (seed 003 "
               "cudaMallocPitch/cudaMemcpy2D)",
    .source = "pitched.cl",
    .default_size = "4097x1023",
    .bench_sizes = pitched_bench_sizes,
    .bench_sizes_cpu = pitched_bench_sizes_cpu,
    .size_help = "N (square) or WxH: H rows of W floats",
    .max_dims = 2,
    .check_sizes = "33x7",
    .variants = pitched_variants,
    .n_variants = CLMEM_ARRAY_SIZE(pitched_variants),
    .metric_unit = "GB/s",
    .state_size = sizeof(struct pitched_state),
    .plan = pitched_plan,
    .setup = pitched_setup,
    .execute = pitched_execute,
    .prepare = pitched_prepare,
    .verify = pitched_verify,
    .traffic = pitched_traffic,
    /* Every element read once and written once (the padding is not
     * counted); pure data movement. */
    .work_per_element = 2.0 * sizeof(float),
    .flops_per_byte = 0.0,
    .teardown = pitched_teardown,
};
