/* Launching kernels and timing them with event profiling. */
#include "opencl/opencl.h"

#include <stdio.h>
#include <string.h>

int clmem_launch(struct clmem_ctx *ctx, cl_kernel kernel, cl_uint dims, const size_t *global,
                 const size_t *local, struct clmem_timing *timing, struct clmem_error *err)
{
    size_t rounded[3];
    for (cl_uint i = 0; i < dims; i++)
        rounded[i] = local ? clmem_round_up(global[i], local[i]) : global[i];
    if (clmem_debug_enabled(CLMEM_DEBUG_LAUNCH) && !(timing && timing->untraced)) {
        char name[64] = "?";
        clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
        name[sizeof name - 1] = '\0';
        fprintf(stderr, "clmem: launch %s global %zu x %zu x %zu local %zu x %zu x %zu\n", name,
                rounded[0], dims > 1 ? rounded[1] : 1, dims > 2 ? rounded[2] : 1,
                local ? local[0] : 0, local && dims > 1 ? local[1] : 0,
                local && dims > 2 ? local[2] : 0);
    }
    cl_event event = NULL;
    int evented =
        timing && !(timing->end_by_marker && timing->evented >= CLMEM_EVENTED_LAUNCHES);
    CLMEM_CHECK(err, clEnqueueNDRangeKernel(ctx->queue, kernel, dims, NULL, rounded, local, 0, NULL,
                                            evented ? &event : NULL));
    if (evented) {
        clmem_timing_add(timing, event);
        timing->evented++;
    }
    else if (timing)
        timing->unevented++;
    return CLMEM_OK;
}

int clmem_timing_end(struct clmem_ctx *ctx, struct clmem_timing *timing, struct clmem_error *err)
{
    if (!timing->unevented)
        return CLMEM_OK;
    timing->unevented = 0;
    return clmem_timing_mark(ctx, timing, err);
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

/* Reads one event's four timestamps; 1 when they are in order. */
static int read_stamps(cl_event event, cl_ulong t[4], struct clmem_error *err, int *status)
{
    const cl_profiling_info what[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                       CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
    for (int k = 0; k < 4; k++) {
        cl_int rc = clGetEventProfilingInfo(event, what[k], sizeof t[k], &t[k], NULL);
        if (rc != CL_SUCCESS) {
            *status = clmem_cl_fail(err, rc, "clGetEventProfilingInfo", __func__, __LINE__);
            return 0;
        }
    }
    return t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3];
}

int clmem_timing_finish(struct clmem_ctx *ctx, struct clmem_timing *runs, size_t n,
                        struct clmem_span *span, struct clmem_error *err)
{
    int status = CLMEM_OK;
    memset(span, 0, sizeof *span);
    CLMEM_CHECK_GOTO(err, status, clFinish(ctx->queue));
    if (!runs[0].first) {
        if (runs[n - 1].host_ms > 0)
            span->ms = runs[n - 1].host_ms; /* a library's own time (its last run) */
        else
            status = clmem_fail(err, CLMEM_ERR_CL, "a variant launched no kernel to time");
        goto cleanup;
    }
    span->has_events = 1;
    span->ordered = 1;
    cl_ulong begin = 0, end = 0;
    for (size_t i = 0; i < n && span->ordered; i++) {
        cl_ulong first[4], last[4];
        if (!runs[i].first) {
            span->ordered = 0;
            break;
        }
        span->ordered &= read_stamps(runs[i].first, first, err, &status);
        if (status)
            goto cleanup;
        if (runs[i].last) {
            span->ordered &= read_stamps(runs[i].last, last, err, &status);
            if (status)
                goto cleanup;
        } else {
            memcpy(last, first, sizeof last);
        }
        /* Each run's own span, from its first command's start to its last
         * one's end, and the batch's; a clock that wrapped or stood still
         * gives none. */
        span->ordered &= last[2] >= first[2] && last[3] > first[2] && (i == 0 || first[2] >= end);
        span->runs_ms += (double)(last[3] - first[2]) * 1e-6;
        if (i == 0)
            begin = first[2];
        end = last[3];
    }
    span->ms = span->ordered ? (double)(end - begin) * 1e-6 : 0.0;
    if (!span->ordered)
        span->runs_ms = 0;
    if (clmem_debug_enabled(CLMEM_DEBUG_TIMING))
        fprintf(stderr, "clmem: events %.6f ms (runs %.6f ms)%s\n", span->ms, span->runs_ms,
                span->ordered ? "" : " (timestamps out of order)");
cleanup:
    for (size_t i = 0; i < n; i++)
        clmem_timing_release(&runs[i]);
    return status;
}
