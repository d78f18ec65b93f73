/* Device buffers and the release helpers every owner uses. */
#include "opencl/opencl.h"

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

int clmem_buffer_wrap(struct clmem_ctx *ctx, cl_mem_flags flags, size_t bytes, void *host,
                      cl_mem *buffer, struct clmem_error *err)
{
    cl_int rc;
    *buffer = clCreateBuffer(ctx->context, flags | CL_MEM_USE_HOST_PTR, bytes, host, &rc);
    if (rc != CL_SUCCESS)
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
