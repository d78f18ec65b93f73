/* Guard zones around a run's outputs (workload.h, struct clmem_guarded):
 * a kernel that writes outside its output fails its check instead of
 * corrupting whatever the driver keeps next to the buffer. */
#include "harness/workload.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* Each zone of an output's, up to this: zones as large as the output
 * itself catch a wrong index that reaches up to twice as far as the output
 * goes (width for height, a block past an edge) at the sizes tests use,
 * where a zone of a few hundred bytes let such a store land in the
 * driver's own memory (a CPU device's heap: a kernel argument overwritten,
 * a loop bound grown to billions, the run spinning until a timeout). */
#define GUARD_MAX_BYTES ((size_t)16 << 20)

/* Each guard zone of an output of `bytes`: as large as the output, from
 * CLMEM_GUARD_MIN_BYTES to GUARD_MAX_BYTES, a multiple of the device's base
 * address alignment (a sub-buffer must start on it); `small` asks for the
 * least, for an output that the larger zones would not let fit. */
static size_t guard_bytes(const struct clmem_device *device, size_t bytes, int small)
{
    size_t align = device->base_addr_align_bits / 8, want = CLMEM_GUARD_MIN_BYTES;
    if (!small)
        want = bytes < CLMEM_GUARD_MIN_BYTES ? CLMEM_GUARD_MIN_BYTES
               : bytes > GUARD_MAX_BYTES     ? GUARD_MAX_BYTES
                                             : bytes;
    return clmem_round_up(want, align ? align : 1);
}

/* Whether zones of `guard` bytes around an output of `bytes` fit in one
 * allocation of the device. */
static int zones_fit(const struct clmem_device *device, size_t bytes, size_t guard)
{
    return bytes <= SIZE_MAX - 2 * guard && bytes + 2 * guard <= device->max_alloc;
}

int clmem_run_output_buffer(struct clmem_run *run, const char *name, cl_mem_flags flags,
                            size_t bytes, cl_mem *buffer, struct clmem_error *err)
{
    struct clmem_ctx *ctx = run->ctx;
    *buffer = NULL;
    if (bytes == 0)
        bytes = 1; /* OpenCL refuses empty buffers */
    size_t guard = guard_bytes(&ctx->device, bytes, 0);
    if (!zones_fit(&ctx->device, bytes, guard))
        guard = guard_bytes(&ctx->device, bytes, 1);
    /* Oclgrind reports every access outside a buffer itself, and its
     * --uninitialized check (see fill_whole) takes a host store into a
     * sub-buffer for one at its parent's start: a counter zeroed inside the
     * zones would read as uninitialized there. So no zones on Oclgrind. */
    if (run->n_guarded == CLMEM_MAX_BUFFERS || !zones_fit(&ctx->device, bytes, guard) ||
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
