/* Device buffers and the release helpers every owner uses. */
#include "clmem/clmem.h"

#include <stdlib.h>
#include <string.h>

int clmem_buffer_create(struct clmem_ctx *ctx, cl_mem_flags flags, size_t bytes, const void *host,
                        cl_mem *buffer, struct clmem_error *err)
{
    cl_int rc;
    if (bytes == 0)
        bytes = 1; /* OpenCL refuses empty buffers */
    if (host)
        flags |= CL_MEM_COPY_HOST_PTR;
    *buffer = clCreateBuffer(ctx->context, flags, bytes, (void *)host, &rc);
    if (rc != CL_SUCCESS) /* the message names the call, not `rc` */
        return clmem_cl_fail(err, rc, "clCreateBuffer", __func__, __LINE__);
    return CLMEM_OK;
}

int clmem_buffer_read(struct clmem_ctx *ctx, cl_mem buffer, size_t bytes, void *host,
                      struct clmem_error *err)
{
    CLMEM_CHECK(err,
                clEnqueueReadBuffer(ctx->queue, buffer, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
    return CLMEM_OK;
}

/* Fills [0, bytes) by blocking writes of a host block of `value`, at most
 * `piece` bytes each: a copy from the host instead of clEnqueueFillBuffer. */
int clmem_buffer_fill_pieces(struct clmem_ctx *ctx, cl_mem buffer, size_t bytes,
                             unsigned char value, size_t piece, struct clmem_error *err)
{
    if (piece == 0 || piece > bytes)
        piece = bytes;
    unsigned char *host = malloc(piece ? piece : 1);
    if (!host)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory filling %zu bytes", piece);
    memset(host, value, piece);
    cl_int rc = CL_SUCCESS;
    for (size_t at = 0; at < bytes && rc == CL_SUCCESS; at += piece) {
        size_t n = bytes - at < piece ? bytes - at : piece;
        rc = clEnqueueWriteBuffer(ctx->queue, buffer, CL_TRUE, at, n, host, 0, NULL, NULL);
    }
    free(host);
    if (rc != CL_SUCCESS)
        return clmem_cl_fail(err, rc, "clEnqueueWriteBuffer", __func__, __LINE__);
    return CLMEM_OK;
}

/* Two drivers' clEnqueueFillBuffer cannot be trusted with every buffer:
 * - NVIDIA's hangs, or fails, on fills of 2^31 bytes or more (pyopencl
 *   issue 395, "enqueue_fill_buffer issues on NVIDIA for nbytes >= 2**31";
 *   pyopencl fills such arrays its own way). matmul's P at 32768 is 4 GiB,
 *   2 GiB per device split over two: its poison never returned.
 * - Oclgrind 21.10's --uninitialized check replaces a buffer's shadow at
 *   each host store with one the size of that store, so after
 *   clEnqueueFillBuffer's pattern-sized stores the buffer reads as
 *   uninitialized even where kernels wrote it, and later stores overrun the
 *   shadow (Oclgrind crashes): there a fill is one whole-buffer write.
 * Both get writes from the host instead. */
int clmem_fill_by_writes(const struct clmem_device *device, size_t bytes)
{
    return bytes >= CLMEM_FILL_ENQUEUE_LIMIT || strcmp(device->platform_name, "Oclgrind") == 0;
}

int clmem_buffer_fill_byte(struct clmem_ctx *ctx, cl_mem buffer, size_t bytes, unsigned char value,
                           struct clmem_error *err)
{
    if (clmem_fill_by_writes(&ctx->device, bytes)) {
        /* Oclgrind: one write; a large fill: 64 MiB of host memory, reused. */
        size_t piece = strcmp(ctx->device.platform_name, "Oclgrind") == 0 ? 0 : (size_t)64 << 20;
        return clmem_buffer_fill_pieces(ctx, buffer, bytes, value, piece, err);
    }
    CLMEM_CHECK(err, clEnqueueFillBuffer(ctx->queue, buffer, &value, sizeof value, 0, bytes, 0,
                                         NULL, NULL));
    CLMEM_CHECK(err, clFinish(ctx->queue));
    return CLMEM_OK;
}

int clmem_buffer_fill_zero(struct clmem_ctx *ctx, cl_mem buffer, size_t bytes,
                           struct clmem_error *err)
{
    return clmem_buffer_fill_byte(ctx, buffer, bytes, 0x00, err);
}

int clmem_buffer_poison(struct clmem_ctx *ctx, cl_mem buffer, size_t bytes, struct clmem_error *err)
{
    return clmem_buffer_fill_byte(ctx, buffer, bytes, 0xFF, err);
}

void clmem_release_mem(cl_mem *buffer)
{
    if (*buffer)
        clReleaseMemObject(*buffer);
    *buffer = NULL;
}

void clmem_release_kernel(cl_kernel *kernel)
{
    if (*kernel)
        clReleaseKernel(*kernel);
    *kernel = NULL;
}

void clmem_release_program(cl_program *program)
{
    if (*program)
        clReleaseProgram(*program);
    *program = NULL;
}

int clmem_buffer_write(struct clmem_ctx *ctx, cl_mem buffer, size_t bytes, const void *host,
                       struct clmem_error *err)
{
    CLMEM_CHECK(err,
                clEnqueueWriteBuffer(ctx->queue, buffer, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
    return CLMEM_OK;
}

int clmem_buffer_write_rect(struct clmem_ctx *ctx, cl_mem buffer, size_t pitch, size_t row_bytes,
                            size_t rows, const void *host, struct clmem_error *err)
{
    const size_t origin[3] = {0, 0, 0}, region[3] = {row_bytes, rows, 1};
    CLMEM_CHECK(err, clEnqueueWriteBufferRect(ctx->queue, buffer, CL_TRUE, origin, origin, region,
                                              pitch, 0, row_bytes, 0, host, 0, NULL, NULL));
    return CLMEM_OK;
}

int clmem_buffer_read_rect(struct clmem_ctx *ctx, cl_mem buffer, size_t pitch, size_t row_bytes,
                           size_t rows, void *host, struct clmem_error *err)
{
    const size_t origin[3] = {0, 0, 0}, region[3] = {row_bytes, rows, 1};
    CLMEM_CHECK(err, clEnqueueReadBufferRect(ctx->queue, buffer, CL_TRUE, origin, origin, region,
                                             pitch, 0, row_bytes, 0, host, 0, NULL, NULL));
    return CLMEM_OK;
}

/* Fills the two zones of a guarded output with the pattern (only them:
 * an output of hundreds of MB costs nothing more). Never on Oclgrind, where
 * outputs have no zones. */
static int fill_zones(struct clmem_ctx *ctx, const struct clmem_guarded *g, struct clmem_error *err)
{
    /* Written from the host, not filled: NVIDIA's clEnqueueFillBuffer
     * fails (CL_INVALID_COMMAND_QUEUE) at offsets from 2^31 bytes on, where
     * the rear zone of a 2 GiB output starts. */
    unsigned char *pattern = malloc(g->guard);
    if (!pattern)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    memset(pattern, CLMEM_GUARD_BYTE, g->guard);
    cl_int rc =
        clEnqueueWriteBuffer(ctx->queue, g->parent, CL_TRUE, 0, g->guard, pattern, 0, NULL, NULL);
    if (rc == CL_SUCCESS)
        rc = clEnqueueWriteBuffer(ctx->queue, g->parent, CL_TRUE, g->guard + g->bytes, g->guard,
                                  pattern, 0, NULL, NULL);
    free(pattern);
    if (rc != CL_SUCCESS)
        return clmem_cl_fail(err, rc, "clEnqueueWriteBuffer", __func__, __LINE__);
    return CLMEM_OK;
}

/* Each guard zone: the device's base address alignment (a sub-buffer must
 * start on it), at least CLMEM_GUARD_MIN_BYTES. */
static size_t guard_bytes(const struct clmem_device *device)
{
    size_t align = device->base_addr_align_bits / 8;
    return clmem_round_up(CLMEM_GUARD_MIN_BYTES, align ? align : 1);
}

int clmem_run_output_buffer(struct clmem_run *run, const char *name, cl_mem_flags flags,
                            size_t bytes, cl_mem *buffer, struct clmem_error *err)
{
    struct clmem_ctx *ctx = run->ctx;
    size_t guard = guard_bytes(&ctx->device);
    *buffer = NULL;
    if (bytes == 0)
        bytes = 1; /* OpenCL refuses empty buffers */
    /* Oclgrind reports every access outside a buffer itself, and its
     * --uninitialized check (see fill_whole) takes a host store into a
     * sub-buffer for one at its parent's start: a counter zeroed inside the
     * zones would read as uninitialized there. So no zones on Oclgrind. */
    if (run->n_guarded == CLMEM_MAX_BUFFERS || bytes > SIZE_MAX - 2 * guard ||
        bytes + 2 * guard > ctx->device.max_alloc ||
        strcmp(ctx->device.platform_name, "Oclgrind") == 0)
        return clmem_buffer_create(ctx, flags, bytes, NULL, buffer, err);
    cl_int rc;
    int status;
    cl_mem parent = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, bytes + 2 * guard, NULL, &rc);
    if (rc != CL_SUCCESS)
        return clmem_cl_fail(err, rc, "clCreateBuffer", __func__, __LINE__);
    struct clmem_guarded g = {.parent = parent, .bytes = bytes, .guard = guard, .name = name};
    if ((status = fill_zones(ctx, &g, err))) {
        clReleaseMemObject(parent);
        return status;
    }
    const cl_buffer_region region = {guard, bytes};
    cl_mem_flags access = flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY);
    *buffer = clCreateSubBuffer(parent, access, CL_BUFFER_CREATE_TYPE_REGION, &region, &rc);
    if (rc != CL_SUCCESS) {
        *buffer = NULL;
        clReleaseMemObject(parent);
        return clmem_cl_fail(err, rc, "clCreateSubBuffer", __func__, __LINE__);
    }
    run->guarded[run->n_guarded++] = g;
    return CLMEM_OK;
}

/* The first byte of `zone` (n bytes) that is not the pattern, and how many
 * are not; n when all are. */
static size_t first_changed(const unsigned char *zone, size_t n, size_t *changed)
{
    size_t first = n;
    *changed = 0;
    for (size_t i = 0; i < n; i++)
        if (zone[i] != CLMEM_GUARD_BYTE) {
            if (first == n)
                first = i;
            (*changed)++;
        }
    return first;
}

int clmem_run_check_guards(struct clmem_run *run, struct clmem_check *check,
                           struct clmem_error *err)
{
    int status = CLMEM_OK;
    for (size_t i = 0; i < run->n_guarded && status == CLMEM_OK; i++) {
        const struct clmem_guarded *g = &run->guarded[i];
        unsigned char *zones = malloc(2 * g->guard);
        if (!zones)
            return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
        unsigned char *before = zones, *after = zones + g->guard;
        cl_int rc = clEnqueueReadBuffer(run->ctx->queue, g->parent, CL_TRUE, 0, g->guard, before, 0,
                                        NULL, NULL);
        if (rc == CL_SUCCESS)
            rc = clEnqueueReadBuffer(run->ctx->queue, g->parent, CL_TRUE, g->guard + g->bytes,
                                     g->guard, after, 0, NULL, NULL);
        if (rc != CL_SUCCESS) {
            free(zones);
            return clmem_cl_fail(err, rc, "clEnqueueReadBuffer", __func__, __LINE__);
        }
        size_t changed_before, changed_after;
        size_t first_before = first_changed(before, g->guard, &changed_before);
        size_t first_after = first_changed(after, g->guard, &changed_after);
        check->checked += 2;
        if (changed_after)
            clmem_check_mismatch(check,
                                 "%s: wrote past the end of its output (%zu bytes): %zu of the %zu "
                                 "guard bytes after it changed, the first at offset %zu",
                                 g->name, g->bytes, changed_after, g->guard,
                                 g->bytes + first_after);
        if (changed_before)
            clmem_check_mismatch(check,
                                 "%s: wrote before the start of its output (%zu bytes): %zu of "
                                 "the %zu guard bytes before it changed, the first at offset -%zu",
                                 g->name, g->bytes, changed_before, g->guard,
                                 g->guard - first_before);
        free(zones);
        /* The next variant starts from intact zones. */
        if (changed_before || changed_after)
            status = fill_zones(run->ctx, g, err);
    }
    return status;
}

void clmem_run_release_guards(struct clmem_run *run)
{
    for (size_t i = 0; i < run->n_guarded; i++)
        clmem_release_mem(&run->guarded[i].parent);
    run->n_guarded = 0;
}
