/* Launching kernels and timing them with event profiling. */
#include "opencl/opencl.h"

#include <stdio.h>

int clmem_launch(struct clmem_ctx *ctx, cl_kernel kernel, cl_uint dims, const size_t *global,
                 const size_t *local, struct clmem_timing *timing, struct clmem_error *err)
{
    size_t rounded[3];
    for (cl_uint i = 0; i < dims; i++)
        rounded[i] = local ? clmem_round_up(global[i], local[i]) : global[i];
    if (clmem_debug_enabled(CLMEM_DEBUG_LAUNCH)) {
        char name[64] = "?";
        clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
        name[sizeof name - 1] = '\0';
        fprintf(stderr, "clmem: launch %s global %zu x %zu x %zu local %zu x %zu x %zu\n", name,
                rounded[0], dims > 1 ? rounded[1] : 1, dims > 2 ? rounded[2] : 1,
                local ? local[0] : 0, local && dims > 1 ? local[1] : 0,
                local && dims > 2 ? local[2] : 0);
    }
    cl_event event = NULL;
    CLMEM_CHECK(err, clEnqueueNDRangeKernel(ctx->queue, kernel, dims, NULL, rounded, local, 0, NULL,
                                            timing ? &event : NULL));
    if (timing)
        clmem_timing_add(timing, event);
    return CLMEM_OK;
}

void clmem_timing_add(struct clmem_timing *timing, cl_event event)
{
    if (!timing->first) {
        timing->first = event;
    } else {
        if (timing->last)
            clReleaseEvent(timing->last);
        timing->last = event;
    }
}

int clmem_timing_mark(struct clmem_ctx *ctx, struct clmem_timing *timing, struct clmem_error *err)
{
    cl_event event = NULL;
    CLMEM_CHECK(err, clEnqueueMarkerWithWaitList(ctx->queue, 0, NULL, &event));
    clmem_timing_add(timing, event);
    return CLMEM_OK;
}

void clmem_timing_release(struct clmem_timing *timing)
{
    if (timing->first)
        clReleaseEvent(timing->first);
    if (timing->last)
        clReleaseEvent(timing->last);
    timing->first = timing->last = NULL;
}

int clmem_timing_finish(struct clmem_ctx *ctx, struct clmem_timing *timing, double *ms,
                        struct clmem_error *err)
{
    int status = CLMEM_OK;
    *ms = 0;
    CLMEM_CHECK_GOTO(err, status, clFinish(ctx->queue));
    if (!timing->first && timing->host_ms > 0) {
        *ms = timing->host_ms;
        goto cleanup;
    }
    if (!timing->first) {
        status = clmem_fail(err, CLMEM_ERR_CL, "a variant launched no kernel to time");
        goto cleanup;
    }
    if ((status = clmem_event_ms(timing->first, timing->last, ms, err)))
        goto cleanup;
    if (clmem_debug_enabled(CLMEM_DEBUG_TIMING))
        fprintf(stderr, "clmem: timed %.6f ms\n", *ms);
cleanup:
    clmem_timing_release(timing);
    return status;
}
