/* One device in use: its context and a profiling command queue. */
#include "opencl/opencl.h"

#include <stdlib.h>
#include <string.h>

int clmem_ctx_open(struct clmem_ctx *ctx, const struct clmem_device *device, const char *kernel_dir,
                   struct clmem_error *err)
{
    cl_int rc;
    memset(ctx, 0, sizeof *ctx);
    ctx->device = *device;
    if (kernel_dir) {
        if (strlen(kernel_dir) >= sizeof ctx->kernel_dir)
            return clmem_fail(err, CLMEM_ERR_USAGE, "kernel directory path too long");
        strcpy(ctx->kernel_dir, kernel_dir);
    }
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)device->platform,
                                     0};
    ctx->context = clCreateContext(props, 1, &device->id, NULL, NULL, &rc);
    if (rc != CL_SUCCESS) /* the message names the call, not `rc` */
        return clmem_cl_fail(err, rc, "clCreateContext", __func__, __LINE__);
    /* clCreateCommandQueue is deprecated in 2.0 but is the 1.2 call, which
     * every driver (NVIDIA's included) still offers. */
    ctx->queue = clCreateCommandQueue(ctx->context, device->id, CL_QUEUE_PROFILING_ENABLE, &rc);
    if (rc != CL_SUCCESS) {
        clReleaseContext(ctx->context);
        ctx->context = NULL;
        return clmem_cl_fail(err, rc, "clCreateCommandQueue", __func__, __LINE__);
    }
    return CLMEM_OK;
}

void clmem_ctx_close(struct clmem_ctx *ctx)
{
    if (!ctx)
        return;
    if (ctx->context)
        clmem_libraries_forget_context();
    if (ctx->queue)
        clReleaseCommandQueue(ctx->queue);
    if (ctx->context)
        clReleaseContext(ctx->context);
    ctx->queue = NULL;
    ctx->context = NULL;
}

int clmem_ctx_create(const struct clmem_device *device, const char *kernel_dir,
                     struct clmem_ctx **ctx, struct clmem_error *err)
{
    CLMEM_REFUSE_NULL(err, err);
    CLMEM_REFUSE_NULL(ctx, err);
    *ctx = NULL;
    CLMEM_REFUSE_NULL(device, err);
    struct clmem_ctx *made = malloc(sizeof *made);
    if (!made)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    int status = clmem_ctx_open(made, device, kernel_dir, err);
    if (status) {
        clmem_ctx_close(made);
        free(made);
        return status;
    }
    *ctx = made;
    return CLMEM_OK;
}

void clmem_ctx_release(struct clmem_ctx *ctx)
{
    clmem_ctx_close(ctx);
    free(ctx);
}
