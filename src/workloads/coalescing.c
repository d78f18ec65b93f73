/* Coalescing (CUDA course, seed 003, day 2): the offset and stride
 * bandwidth experiment. N work-items each read one element and write one;
 * `offset` shifts every index by s = 0..32 elements (misaligned but still
 * contiguous), `stride` spaces them s = 1..32 elements apart (each access
 * in a segment of its own once s is large). Each value of s is one result,
 * through the runtime's sweeps; float always, double where the device has
 * cl_khr_fp64 (the slide's "fp64" run). */
#include "harness/traffic.h"
#include "harness/workload.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The slide's blockSize; the device may allow less. */
/* Offsets 0..32 and strides 1..32, as the slide's loops. */
#define MAX_SHIFT 32

enum { OFFSET_FLOAT, STRIDE_FLOAT, OFFSET_DOUBLE, STRIDE_DOUBLE };

struct coalescing_state {
    size_t n, group;
    size_t out_bytes; /* the output buffer, sized for the largest selected variant */
    void *host;       /* out_bytes: inputs on their way up, outputs on their way back */
    cl_mem d_in32, d_in64, d_out;
};

static const struct clmem_variant coalescing_variants[] = {
    [OFFSET_FLOAT] = {"offset_float",
                      "b[i] = a[i] + 1, i shifted by 0..32 floats (slide 'Esempio', kernel offset; "
                      "plot 'Effective Bandwidth vs. Offset for Single Precision')",
                      "offset_float", NULL, "offset", 0, MAX_SHIFT},
    [STRIDE_FLOAT] = {"stride_float",
                      "b[i] = a[i] + 1, i = 1..32 floats apart (slide 'Esempio', kernel stride; "
                      "plot 'Effective Bandwidth vs. Stride for Single Precision')",
                      "stride_float", NULL, "stride", 1, MAX_SHIFT},
    [OFFSET_DOUBLE] = {"offset_double",
                       "offset kernel on doubles, the slide's fp64 run (slide 'Esempio')",
                       "offset_double", NULL, "offset", 0, MAX_SHIFT, "cl_khr_fp64"},
    [STRIDE_DOUBLE] = {"stride_double",
                       "stride kernel on doubles, the slide's fp64 run (slide 'Esempio')",
                       "stride_double", NULL, "stride", 1, MAX_SHIFT, "cl_khr_fp64"},
};

static int is_stride(const struct clmem_variant *v)
{
    return v == &coalescing_variants[STRIDE_FLOAT] || v == &coalescing_variants[STRIDE_DOUBLE];
}

static size_t elem_size(const struct clmem_variant *v)
{
    return v >= &coalescing_variants[OFFSET_DOUBLE] ? sizeof(cl_double) : sizeof(cl_float);
}

/* Variants the device can run; the others are skipped by the runtime. */
static int runs_here(const struct clmem_run *run, const struct clmem_variant *v)
{
    return !v->needs_extension || clmem_device_has_extension(&run->ctx->device, v->needs_extension);
}

/* Elements of the buffer a sweep point is checked over: the N+32 the slide's
 * offset run spans; for a stride s, the span of the N touched elements and
 * 32 past it (the buffer holds N*32). */
static size_t checked_elems(size_t n, const struct clmem_variant *v, unsigned s)
{
    if (!is_stride(v))
        return n + MAX_SHIFT;
    size_t span = n * s + MAX_SHIFT, all = n * MAX_SHIFT;
    return span < all ? span : all;
}

/* Input element j: a multiple of 1/4 below 16384 from a hash of j and the
 * seed, so neighbours differ and a[j] + 1 is exact as float and double. */
static double input_value(size_t j, uint64_t seed)
{
    uint32_t h = (uint32_t)(((uint64_t)j * 2654435761u + seed) >> 8);
    return (double)((h ^ (h >> 16)) & 0xFFFFu) / 4.0;
}

static int coalescing_plan(struct clmem_run *run, struct clmem_error *err)
{
    char text[64];
    clmem_size_format(&run->size, text, sizeof text);
    size_t n = run->size.dim[0], rounded = clmem_round_up(n, CLMEM_GROUP_SIZE);
    size_t elems32 = 0, elems64 = 0, out_bytes = 0;
    for (size_t i = 0; i < run->n_variants; i++) {
        const struct clmem_variant *v = run->variants[i];
        if (!runs_here(run, v))
            continue;
        /* The kernels index with int, as the slide's, also in the work-items
         * past N of the last group (rounded up to CLMEM_GROUP_SIZE covers any group). */
        size_t end, elems, bytes; /* n and rounded are at most about 2^31 (size parser) */
        if (!is_stride(v))
            end = rounded + MAX_SHIFT;
        else if (!clmem_mul_size(rounded, MAX_SHIFT, &end))
            end = SIZE_MAX;
        if (end > INT_MAX)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "size '%s' is too large for the kernels' int indices ('%s' "
                              "indexes up to %zu, more than %d)",
                              text, v->name, end, INT_MAX);
        elems = is_stride(v) ? n * MAX_SHIFT : n + MAX_SHIFT; /* below last_index */
        if (!clmem_mul_size(elems, elem_size(v), &bytes))
            return clmem_fail(err, CLMEM_ERR_USAGE, "size '%s' overflows the buffer size", text);
        size_t *in = elem_size(v) == sizeof(cl_float) ? &elems32 : &elems64;
        if (elems > *in)
            *in = elems;
        if (bytes > out_bytes)
            out_bytes = bytes;
    }
    /* a (float), a (double), b: the largest variant's N+32 or N*32 elements. */
    run->buffer_bytes[0] = elems32 * sizeof(cl_float);
    run->buffer_bytes[1] = elems64 * sizeof(cl_double);
    run->buffer_bytes[2] = out_bytes;
    run->n_buffers = 3;
    return CLMEM_OK;
}

/* Makes one input buffer of `elems` floats or doubles, through s->host. */
static int make_input(struct clmem_run *run, size_t elems, size_t size, cl_mem *buffer,
                      struct clmem_error *err)
{
    struct coalescing_state *s = run->state;
    for (size_t j = 0; j < elems; j++) {
        double value = input_value(j, run->seed);
        if (size == sizeof(cl_float))
            ((float *)s->host)[j] = (float)value;
        else
            ((double *)s->host)[j] = value;
    }
    return clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, elems * size, elems ? s->host : NULL,
                               buffer, err);
}

static int coalescing_setup(struct clmem_run *run, struct clmem_error *err)
{
    struct coalescing_state *s = run->state;
    int status;
    s->n = run->size.dim[0];
    s->group = clmem_pick_group(&run->ctx->device, CLMEM_GROUP_SIZE);
    s->out_bytes = run->buffer_bytes[2];
    if (!(s->host = clmem_alloc_array(s->out_bytes ? s->out_bytes : 1, 1, err)))
        return err->status;
    if ((status = make_input(run, run->buffer_bytes[0] / sizeof(cl_float), sizeof(cl_float),
                             &s->d_in32, err)) ||
        (status = make_input(run, run->buffer_bytes[1] / sizeof(cl_double), sizeof(cl_double),
                             &s->d_in64, err)) ||
        (status =
             clmem_run_output_buffer(run, "b", CL_MEM_READ_WRITE, s->out_bytes, &s->d_out, err)))
        return status;
    /* The work-group size is a launch setting, shown in each result's note. */
    return clmem_run_build(run, "", err);
}

static int coalescing_execute(struct clmem_run *run, const struct clmem_variant *v,
                              struct clmem_timing *timing, struct clmem_error *err)
{
    struct coalescing_state *s = run->state;
    cl_kernel kernel = clmem_run_kernel(run, v);
    cl_mem in = elem_size(v) == sizeof(cl_float) ? s->d_in32 : s->d_in64;
    cl_int shift = (cl_int)run->sweep_value, n = (cl_int)s->n; /* bounded by plan() */
    int status = clmem_kernel_args(kernel, err, CLMEM_ARG(in), CLMEM_ARG(s->d_out),
                                   CLMEM_ARG(shift), CLMEM_ARG(n));
    if (status)
        return status;
    size_t global = s->n, local = s->group;
    return clmem_launch(run->ctx, kernel, 1, &global, &local, timing, err);
}

/* Untimed, before each sweep point: every element checked starts poisoned
 * (0xFF bytes, NaN), so one the kernel should not write must stay so. */
static int coalescing_prepare(struct clmem_run *run, const struct clmem_variant *v,
                              struct clmem_error *err)
{
    struct coalescing_state *s = run->state;
    return clmem_buffer_poison(run->ctx, s->d_out,
                               checked_elems(s->n, v, run->sweep_value) * elem_size(v), err);
}

/* The value of element j of the read-back output. */
static double element(const void *host, size_t size, size_t j)
{
    return size == sizeof(cl_float) ? (double)((const float *)host)[j] : ((const double *)host)[j];
}

/* Elements from..to-1, which no work-item writes: their poison must be
 * intact, bit for bit. One pass over the bytes, no division per element. */
static void check_untouched(struct clmem_check *check, const void *host, size_t size, size_t from,
                            size_t to)
{
    const unsigned char *bytes = host;
    check->checked += to - from;
    for (size_t b = from * size; b < to * size; b++) {
        if (bytes[b] == 0xFF)
            continue;
        size_t j = b / size;
        if (check->mismatches < CLMEM_MAX_MISMATCH_LINES)
            snprintf(check->lines[check->mismatches], sizeof check->lines[0],
                     "b[%zu]: no work-item writes it, but it holds %.9g", j,
                     element(host, size, j));
        check->mismatches++;
        b = (j + 1) * size - 1; /* on to the next element */
    }
}

static int coalescing_verify(struct clmem_run *run, const struct clmem_variant *v,
                             struct clmem_check *check, struct clmem_error *err)
{
    struct coalescing_state *s = run->state;
    size_t size = elem_size(v), shift = run->sweep_value;
    size_t elems = checked_elems(s->n, v, run->sweep_value);
    size_t buffer_elems = is_stride(v) ? s->n * MAX_SHIFT : s->n + MAX_SHIFT;
    int status = clmem_buffer_read(run->ctx, s->d_out, elems * size, s->host, err);
    if (status)
        return status;
    clmem_check_init(check, 0.0); /* one exact addition: exact equality */
    size_t next = 0;              /* the first element not checked yet */
    for (size_t k = 0; k < s->n; k++) {
        /* Work-item k writes element j; the ones before it, no one. */
        size_t j = is_stride(v) ? k * shift : k + shift;
        check_untouched(check, s->host, size, next, j);
        /* The CPU reference: a[j] + 1 in the variant's type. */
        double a = input_value(j, run->seed);
        double expected = size == sizeof(cl_float) ? (double)((float)a + 1.0f) : a + 1.0;
        clmem_check_value(check, expected, element(s->host, size, j), expected,
                          "b[%zu] (work-item %zu)", j, k);
        next = j + 1;
    }
    check_untouched(check, s->host, size, next, elems);
    if (elems < buffer_elems)
        snprintf(check->scope, sizeof check->scope, "elements 0..%zu of %zu", elems - 1,
                 buffer_elems);
    if (is_stride(v))
        snprintf(check->note, sizeof check->note,
                 "b[k * %zu] for k < %zu written of %zu; "
                 "work-group %zu",
                 shift, s->n, buffer_elems, s->group);
    else
        snprintf(check->note, sizeof check->note, "b[%zu..%zu] written of %zu; work-group %zu",
                 shift, s->n - 1 + shift, buffer_elems, s->group);
    return CLMEM_OK;
}

static double coalescing_work(const struct clmem_run *run, const struct clmem_variant *v)
{
    /* One read and one write of N elements, as the slide's 2*nMB/ms counts it. */
    return (double)run->size.dim[0] * (double)elem_size(v) * 2.0;
}

/* b[i] = a[i] + 1: an element read and one written, and an add, per
 * work-item, at every offset and stride: the model counts the bytes the
 * kernel asks for, so the strided points' wasted parts of each line are
 * what it misses (and says it does). The add is on floats or doubles: counted as a flop. */
static void coalescing_traffic(const struct clmem_run *run, const struct clmem_variant *v,
                               struct clmem_traffic *t)
{
    t->global_bytes = coalescing_work(run, v);
    t->flops = (double)run->size.dim[0];
    /* Offset 0 and stride 1 are the coalesced copy: nothing left out. */
    if (is_stride(v) && run->sweep_value > 1)
        t->unmodelled = "a whole memory transaction for each strided element";
    else if (!is_stride(v) && run->sweep_value > 0)
        t->unmodelled = "the extra memory transaction a misaligned span touches";
}

static void coalescing_teardown(struct clmem_run *run)
{
    struct coalescing_state *s = run->state;
    clmem_release_mem(&s->d_in32);
    clmem_release_mem(&s->d_in64);
    clmem_release_mem(&s->d_out);
    free(s->host);
}

/* 4M elements: the stride points' output spans up to 32x that, read back
 * and checked on the host at each of the 32 points. */
static const char *const coalescing_bench_sizes[] = {"4194304", NULL};
static const char *const coalescing_bench_sizes_cpu[] = {"1048576", NULL};

const struct clmem_workload clmem_workload_coalescing = {
    .name = "coalescing",
    .summary = "effective bandwidth against access offset and stride (seed 003 offset/stride "
               "experiment)",
    .source = "coalescing.cl",
    .default_size = "1048576",
    .bench_sizes = coalescing_bench_sizes,
    .bench_sizes_cpu = coalescing_bench_sizes_cpu,
    .size_help = "N work-items, each reading and writing one element",
    .max_dims = 1,
    .check_sizes = "100",
    .variants = coalescing_variants,
    .n_variants = CLMEM_ARRAY_SIZE(coalescing_variants),
    .metric_unit = "GB/s",
    .state_size = sizeof(struct coalescing_state),
    .plan = coalescing_plan,
    .setup = coalescing_setup,
    .execute = coalescing_execute,
    .prepare = coalescing_prepare,
    .verify = coalescing_verify,
    .work = coalescing_work,
    .traffic = coalescing_traffic,
    .flops_per_byte = 0.0, /* pure data movement */
    .teardown = coalescing_teardown,
};
