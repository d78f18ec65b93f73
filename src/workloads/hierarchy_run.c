/* The probes of workload `hierarchy` launched (hierarchy.c describes
 * them and sets a run up): each probe's state reset before its runs, then
 * one timed launch or copy a run. */
#include "workloads/hierarchy_probes.h"

#include <string.h>

static int launch_chase(struct clmem_run *run, struct hier_state *s, const struct clmem_variant *v,
                        int probe, size_t steps, struct clmem_timing *timing,
                        struct clmem_error *err);

/* The state reset, and a chase longer than a run walked once through every
 * element, untimed. */
static int prepare_chase(struct clmem_run *run, struct hier_state *s, const struct clmem_variant *v,
                         int probe, struct clmem_error *err)
{
    struct hier_chase *c = hier_chase_of(s, probe);
    c->total = 0;
    int status = clmem_buffer_fill_zero(run->ctx, c->d_state, 3 * sizeof(cl_uint), err);
    for (size_t done = 0; status == CLMEM_OK && c->n > c->steps && done < c->n; done += c->steps)
        status = launch_chase(run, s, v, probe, c->n - done < c->steps ? c->n - done : c->steps,
                              NULL, err);
    if (status == CLMEM_OK)
        CLMEM_CHECK(err, clFinish(run->ctx->queue));
    return status;
}

int hier_prepare(struct clmem_run *run, const struct clmem_variant *v, int probe,
                 struct clmem_error *err)
{
    struct hier_state *s = run->state;
    struct clmem_ctx *ctx = run->ctx;
    switch (probe) {
    case CHASE_GLOBAL:
    case CHASE_PAGE:
    case CHASE_LOCAL: return prepare_chase(run, s, v, probe, err);
    case READ_WS: return clmem_buffer_poison(ctx, s->d_read_out, s->read_items * 4, err);
    case IMAGE_READ:
    case BUFFER_READ: return clmem_buffer_poison(ctx, s->d_tex_out, s->tex_items * 4, err);
    case PRIVATE_DYNAMIC:
    case PRIVATE_REGISTERS:
        return clmem_buffer_poison(ctx, s->d_uint_out, s->onchip_items * 4, err);
    case ATOMIC_GLOBAL:
    case ATOMIC_CONTENDED:
    case ATOMIC_LOCAL:
        s->atomic_runs = 0;
        return clmem_buffer_fill_zero(ctx, s->d_uint_out, s->onchip_items * 4, err);
    case H2D_PAGEABLE:
    case H2D_PINNED:
        if (probe == H2D_PINNED)
            memcpy(s->pinned.host, s->host_src, s->xfer);
        return clmem_buffer_poison(ctx, s->d_xfer, s->xfer, err);
    case D2H_PAGEABLE: memset(s->host_dst, 0xFF, s->xfer); return CLMEM_OK;
    case D2H_PINNED: memset(s->pinned.host, 0xFF, s->xfer); return CLMEM_OK;
    case D2D: return clmem_buffer_poison(ctx, s->d_xfer2, s->xfer, err);
    case MAP: return CLMEM_OK;
    default: return clmem_buffer_poison(ctx, s->d_onchip_out, s->onchip_items * 4, err);
    }
}

/* A dynamic __local argument: its size, no value. */
static int local_arg(cl_kernel k, cl_uint index, size_t bytes, struct clmem_error *err)
{
    CLMEM_CHECK(err, clSetKernelArg(k, index, bytes, NULL));
    return CLMEM_OK;
}

static int run_copy(struct clmem_run *run, struct hier_state *s, int probe,
                    struct clmem_timing *timing, struct clmem_error *err)
{
    cl_command_queue q = run->ctx->queue;
    cl_event ev = NULL;
    cl_int rc;
    switch (probe) {
    case H2D_PAGEABLE:
    case H2D_PINNED: {
        const void *from = probe == H2D_PINNED ? s->pinned.host : s->host_src;
        CLMEM_CHECK(err,
                    clEnqueueWriteBuffer(q, s->d_xfer, CL_FALSE, 0, s->xfer, from, 0, NULL, &ev));
        break;
    }
    case D2H_PAGEABLE:
    case D2H_PINNED: {
        void *to = probe == D2H_PINNED ? s->pinned.host : s->host_dst;
        CLMEM_CHECK(err, clEnqueueReadBuffer(q, s->d_xfer, CL_FALSE, 0, s->xfer, to, 0, NULL, &ev));
        break;
    }
    case D2D:
        CLMEM_CHECK(err,
                    clEnqueueCopyBuffer(q, s->d_xfer, s->d_xfer2, 0, 0, s->xfer, 0, NULL, &ev));
        break;
    default: { /* MAP, blocking: as a program must wait before it reads the
                * bytes (and rusticl refuses to unmap a map not yet done) */
        void *p = clEnqueueMapBuffer(q, s->d_xfer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, s->xfer,
                                     0, NULL, &ev, &rc);
        if (rc != CL_SUCCESS)
            return clmem_cl_fail(err, rc, "clEnqueueMapBuffer", __func__, __LINE__);
        clmem_timing_add(timing, ev);
        ev = NULL;
        CLMEM_CHECK(err, clEnqueueUnmapMemObject(q, s->d_xfer, p, 0, NULL, &ev));
    }
    }
    clmem_timing_add(timing, ev);
    return CLMEM_OK;
}

/* A chase of `steps` loads on from where the last one stopped. */
static int launch_chase(struct clmem_run *run, struct hier_state *s, const struct clmem_variant *v,
                        int probe, size_t steps, struct clmem_timing *timing,
                        struct clmem_error *err)
{
    cl_kernel k = clmem_run_kernel(run, v);
    cl_uint count = (cl_uint)steps;
    size_t one = 1, group = s->group < 64 ? s->group : 64;
    int status;
    struct hier_chase *c = hier_chase_of(s, probe);
    c->total += steps;
    if (probe != CHASE_LOCAL) {
        if ((status = clmem_kernel_args(k, err, CLMEM_ARG(c->d_next), CLMEM_ARG(c->d_state),
                                        CLMEM_ARG(count))))
            return status;
        return clmem_launch(run->ctx, k, 1, &one, &one, timing, err);
    }
    cl_uint n = (cl_uint)c->n;
    if ((status = clmem_kernel_args(k, err, CLMEM_ARG(c->d_next), CLMEM_ARG(c->d_state),
                                    CLMEM_ARG(n), CLMEM_ARG(count))) ||
        (status = local_arg(k, 4, c->n * sizeof(cl_uint), err)))
        return status;
    return clmem_launch(run->ctx, k, 1, &group, &group, timing, err);
}

int hier_execute(struct clmem_run *run, const struct clmem_variant *v, int probe,
                 struct clmem_timing *timing, struct clmem_error *err)
{
    struct hier_state *s = run->state;
    struct clmem_ctx *ctx = run->ctx;
    cl_kernel k = clmem_run_kernel(run, v);
    int status;
    size_t global, local = s->group;
    switch (probe) {
    case CHASE_GLOBAL:
    case CHASE_PAGE:
    case CHASE_LOCAL:
        return launch_chase(run, s, v, probe, hier_chase_of(s, probe)->steps, timing, err);
    case READ_WS: {
        cl_uint n4 = (cl_uint)s->read_n4, per = (cl_uint)s->read_per_item,
                step = (cl_uint)s->read_step, contiguous = (cl_uint)s->contiguous;
        if ((status = clmem_kernel_args(k, err, CLMEM_ARG(s->d_read), CLMEM_ARG(s->d_read_out),
                                        CLMEM_ARG(n4), CLMEM_ARG(per), CLMEM_ARG(step),
                                        CLMEM_ARG(contiguous))))
            return status;
        return clmem_launch(ctx, k, 1, &s->read_items, &local, timing, err);
    }
    case LOCAL_STRIDE:
    case LOCAL_BROADCAST: {
        cl_uint n = (cl_uint)s->table_n, reps = (cl_uint)s->onchip_reps;
        cl_uint stride = probe == LOCAL_STRIDE ? run->sweep_value : 0;
        if ((status = clmem_kernel_args(k, err, CLMEM_ARG(s->d_table), CLMEM_ARG(s->d_onchip_out),
                                        CLMEM_ARG(n), CLMEM_ARG(stride), CLMEM_ARG(reps))) ||
            (status = local_arg(k, 5, s->table_n * sizeof(float), err)))
            return status;
        return clmem_launch(ctx, k, 1, &s->onchip_items, &local, timing, err);
    }
    case CONSTANT_BROADCAST:
    case CONSTANT_SCATTERED:
    case GLOBAL_BROADCAST:
    case GLOBAL_SCATTERED: {
        cl_uint n = (cl_uint)s->table_n, reps = (cl_uint)s->onchip_reps;
        cl_uint spread =
            probe == CONSTANT_SCATTERED || probe == GLOBAL_SCATTERED ? SCATTER_SPREAD : 0;
        if ((status = clmem_kernel_args(k, err, CLMEM_ARG(s->d_table), CLMEM_ARG(s->d_onchip_out),
                                        CLMEM_ARG(n), CLMEM_ARG(spread), CLMEM_ARG(reps))))
            return status;
        return clmem_launch(ctx, k, 1, &s->onchip_items, &local, timing, err);
    }
    case PRIVATE_DYNAMIC:
    case PRIVATE_REGISTERS: {
        cl_uint reps = (cl_uint)s->private_reps;
        if ((status = clmem_kernel_args(k, err, CLMEM_ARG(s->d_uint_out), CLMEM_ARG(reps))))
            return status;
        return clmem_launch(ctx, k, 1, &s->onchip_items, &local, timing, err);
    }
    case IMAGE_READ:
    case BUFFER_READ: {
        cl_uint width = (cl_uint)s->width, rows = (cl_uint)s->rows, per = (cl_uint)s->tex_per_item,
                ystep = (cl_uint)s->tex_ystep;
        cl_mem src = probe == IMAGE_READ ? s->d_image : s->d_texels;
        if ((status = clmem_kernel_args(k, err, CLMEM_ARG(src), CLMEM_ARG(s->d_tex_out),
                                        CLMEM_ARG(width), CLMEM_ARG(rows), CLMEM_ARG(per),
                                        CLMEM_ARG(ystep))))
            return status;
        return clmem_launch(ctx, k, 1, &s->tex_items, &local, timing, err);
    }
    case ATOMIC_GLOBAL:
    case ATOMIC_CONTENDED:
    case ATOMIC_LOCAL: {
        cl_uint updates = (cl_uint)s->atomic_updates;
        s->atomic_runs++;
        if ((status = clmem_kernel_args(k, err, CLMEM_ARG(s->d_uint_out), CLMEM_ARG(updates))))
            return status;
        global = s->onchip_items;
        return clmem_launch(ctx, k, 1, &global, &local, timing, err);
    }
    default: return run_copy(run, s, probe, timing, err);
    }
}
