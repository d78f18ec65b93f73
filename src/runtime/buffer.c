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

/* Oclgrind 21.10's --uninitialized check replaces a buffer's shadow at each
 * host store with one the size of that store, so after clEnqueueFillBuffer's
 * pattern-sized stores the buffer reads as uninitialized even where kernels
 * wrote it, and later stores overrun the shadow (Oclgrind crashes). On
 * Oclgrind a fill is one whole-buffer write instead. */
static int fill_whole(struct clmem_ctx *ctx, cl_mem buffer, size_t bytes, cl_uchar value,
                      struct clmem_error *err)
{
    unsigned char *host = malloc(bytes);
    if (!host)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory filling %zu bytes", bytes);
    memset(host, value, bytes);
    cl_int rc = clEnqueueWriteBuffer(ctx->queue, buffer, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
    free(host);
    if (rc != CL_SUCCESS)
        return clmem_cl_fail(err, rc, "clEnqueueWriteBuffer", __func__, __LINE__);
    return CLMEM_OK;
}

int clmem_buffer_fill_byte(struct clmem_ctx *ctx, cl_mem buffer, size_t bytes, unsigned char value,
                           struct clmem_error *err)
{
    if (strcmp(ctx->device.platform_name, "Oclgrind") == 0)
        return fill_whole(ctx, buffer, bytes, value, err);
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
