/* Transfers that overlap kernels (matmul --split, SUMMA): a queue of their
 * own beside the context's, blocks copied without blocking the host, and
 * events that order the queues against each other. */
#include "opencl/opencl.h"

#include <string.h>

int clmem_queue_open(struct clmem_ctx *ctx, cl_command_queue *queue, struct clmem_error *err)
{
    cl_int rc;
    *queue = clCreateCommandQueue(ctx->context, ctx->device.id, CL_QUEUE_PROFILING_ENABLE, &rc);
    if (rc != CL_SUCCESS) {
        *queue = NULL;
        return clmem_cl_fail(err, rc, "clCreateCommandQueue", __func__, __LINE__);
    }
    return CLMEM_OK;
}

void clmem_release_queue(cl_command_queue *queue)
{
    if (*queue)
        clReleaseCommandQueue(*queue);
    *queue = NULL;
}

void clmem_event_keep(cl_event *slot, cl_event event)
{
    if (event)
        clRetainEvent(event);
    clmem_event_release(slot);
    *slot = event;
}

void clmem_event_release(cl_event *event)
{
    if (*event)
        clReleaseEvent(*event);
    *event = NULL;
}

/* The most events a copy or a barrier waits for (the callers pass 3 at
 * most); more is the caller's error, never a dependency dropped. */
#define MAX_WAIT 8

/* The events of `wait` that are set, packed into `set` (MAX_WAIT long):
 * how many, or -1 when there are more than MAX_WAIT. */
static int pack_events(const cl_event *wait, cl_uint n, cl_event *set)
{
    int k = 0;
    for (cl_uint i = 0; i < n; i++)
        if (wait[i]) {
            if (k == MAX_WAIT)
                return -1;
            set[k++] = wait[i];
        }
    return k;
}

static int too_many(cl_uint n, struct clmem_error *err)
{
    return clmem_fail(err, CLMEM_ERR_CL, "%u events to wait for, more than the %d a copy takes", n,
                      MAX_WAIT);
}

int clmem_enqueue_block(cl_command_queue queue, int to_device, const struct clmem_block *b,
                        const cl_event *wait, cl_uint n_wait, cl_event *done,
                        struct clmem_error *err)
{
    cl_event set[MAX_WAIT];
    int packed = pack_events(wait, n_wait, set);
    if (packed < 0)
        return too_many(n_wait, err);
    cl_uint k = (cl_uint)packed;
    if (b->row_bytes == b->buffer_pitch && b->row_bytes == b->host_pitch) {
        size_t bytes = b->row_bytes * b->rows;
        if (to_device)
            CLMEM_CHECK(err, clEnqueueWriteBuffer(queue, b->buffer, CL_FALSE, 0, bytes, b->host, k,
                                                  k ? set : NULL, done));
        else
            CLMEM_CHECK(err, clEnqueueReadBuffer(queue, b->buffer, CL_FALSE, 0, bytes, b->host, k,
                                                 k ? set : NULL, done));
        return CLMEM_OK;
    }
    const size_t origin[3] = {0, 0, 0}, region[3] = {b->row_bytes, b->rows, 1};
    if (to_device)
        CLMEM_CHECK(err, clEnqueueWriteBufferRect(queue, b->buffer, CL_FALSE, origin, origin,
                                                  region, b->buffer_pitch, 0, b->host_pitch, 0,
                                                  b->host, k, k ? set : NULL, done));
    else
        CLMEM_CHECK(err, clEnqueueReadBufferRect(queue, b->buffer, CL_FALSE, origin, origin, region,
                                                 b->buffer_pitch, 0, b->host_pitch, 0, b->host, k,
                                                 k ? set : NULL, done));
    return CLMEM_OK;
}

int clmem_queue_wait(cl_command_queue queue, const cl_event *events, cl_uint n,
                     struct clmem_error *err)
{
    cl_event set[MAX_WAIT];
    int packed = pack_events(events, n, set);
    if (packed < 0)
        return too_many(n, err);
    cl_uint k = (cl_uint)packed;
    if (k)
        CLMEM_CHECK(err, clEnqueueBarrierWithWaitList(queue, k, set, NULL));
    return CLMEM_OK;
}

int clmem_event_ms(cl_event first, cl_event last, double *ms, struct clmem_error *err)
{
    cl_ulong start = 0, end = 0;
    CLMEM_CHECK(err, clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof start,
                                             &start, NULL));
    CLMEM_CHECK(err, clGetEventProfilingInfo(last ? last : first, CL_PROFILING_COMMAND_END,
                                             sizeof end, &end, NULL));
    *ms = end > start ? (double)(end - start) * 1e-6 : 0.0;
    return CLMEM_OK;
}

int clmem_pinned_alloc(struct clmem_ctx *ctx, size_t bytes, struct clmem_pinned *pinned,
                       struct clmem_error *err)
{
    cl_int rc;
    memset(pinned, 0, sizeof *pinned);
    int status = clmem_buffer_create(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL,
                                     &pinned->buffer, err);
    if (status)
        return status;
    /* An empty block still maps a byte: OpenCL maps nothing smaller. */
    pinned->host =
        clEnqueueMapBuffer(ctx->queue, pinned->buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                           bytes ? bytes : 1, 0, NULL, NULL, &rc);
    if (rc != CL_SUCCESS) {
        clmem_release_mem(&pinned->buffer);
        pinned->host = NULL;
        return clmem_cl_fail(err, rc, "clEnqueueMapBuffer", __func__, __LINE__);
    }
    pinned->bytes = bytes;
    return CLMEM_OK;
}

void clmem_pinned_free(struct clmem_ctx *ctx, struct clmem_pinned *pinned)
{
    if (pinned->host) {
        clEnqueueUnmapMemObject(ctx->queue, pinned->buffer, pinned->host, 0, NULL, NULL);
        clFinish(ctx->queue);
    }
    clmem_release_mem(&pinned->buffer);
    memset(pinned, 0, sizeof *pinned);
}
