/* What the probes of workload `hierarchy` left, checked against the
 * host: a chase's end and first return, every work-item's sum (or those
 * of CHECKED_ITEMS spread evenly), copies byte for byte, counters against
 * the updates made. Sattolo's single cycle, which the chases follow, is
 * made here too. */
#include "workloads/hierarchy_probes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void clmem_sattolo(cl_uint *perm, size_t n, uint64_t seed)
{
    uint64_t state = seed;
    for (size_t i = 0; i < n; i++)
        perm[i] = (cl_uint)i;
    /* Each i swaps with a j below it, never with itself: the result is one
     * cycle, every one of the (n-1)! cycles equally likely. */
    for (size_t i = n; i-- > 1;) {
        size_t j = (size_t)(clmem_rng_next(&state) % i);
        cl_uint t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

void clmem_chase_check(const cl_uint *perm, size_t n, size_t stride, uint64_t total,
                       const cl_uint state[3], struct clmem_check *check)
{
    size_t at = 0;
    for (uint64_t k = total % n; k > 0; k--)
        at = perm[at];
    double first = (double)state[1];
    clmem_check_value(check, (double)n, first, 1.0, "first return to element 0 (loads)", 0, 0);
    if (state[1] != n && check->mismatches <= CLMEM_MAX_MISMATCH_LINES) {
        size_t line = check->mismatches - 1;
        if (line < CLMEM_MAX_MISMATCH_LINES)
            snprintf(check->lines[line], sizeof check->lines[line],
                     "first return to element 0: expected after all %zu loads, got %u: the "
                     "chase is not one cycle through every element",
                     n, state[1]);
    }
    clmem_check_value(check, (double)(at * stride), (double)state[0], 1.0,
                      "where the chase ended (word)", 0, 0);
    clmem_check_value(check, (double)(cl_uint)total, (double)state[2], 1.0, "loads counted", 0, 0);
}

static int check_chase(struct clmem_run *run, cl_mem d_state, const cl_uint *perm, size_t n,
                       size_t stride, size_t steps, uint64_t total, struct clmem_check *check,
                       struct clmem_error *err)
{
    cl_uint state[3];
    int status = clmem_buffer_read(run->ctx, d_state, sizeof state, state, err);
    if (status)
        return status;
    clmem_chase_check(perm, n, stride, total, state, check);
    snprintf(check->note, sizeof check->note,
             "%zu elements %zu bytes apart, %zu loads a run; back at the start after %u", n,
             stride * sizeof(cl_uint), steps, state[1]);
    return CLMEM_OK;
}

/* Work-items to check: all, or CHECKED_ITEMS evenly spread and the last. */
static size_t check_stride(size_t items)
{
    return items > CHECKED_ITEMS ? items / CHECKED_ITEMS : 1;
}

static void check_scope(struct clmem_check *check, size_t checked, size_t items)
{
    if (checked < items)
        snprintf(check->scope, sizeof check->scope, "%zu of %zu work-items", checked, items);
}

static double read_reference(const struct hier_state *s, size_t gid)
{
    size_t i = s->contiguous ? (size_t)(((unsigned long long)gid * s->read_per_item) % s->read_n4)
                             : gid % s->read_n4;
    double sum = 0;
    for (size_t k = 0; k < s->read_per_item; k++) {
        const float *v = s->read_src + 4 * i;
        sum += (double)v[0] + v[1] + v[2] + v[3];
        i += s->read_step;
        if (i >= s->read_n4)
            i -= s->read_n4;
    }
    return sum;
}

static double texel_reference(const struct hier_state *s, size_t gid)
{
    size_t x = gid % s->width, y = (gid / s->width) % s->rows;
    double sum = 0;
    for (size_t k = 0; k < s->tex_per_item; k++) {
        const float *v = s->texels + 4 * (y * s->width + x);
        sum += (double)v[0] + v[1] + v[2] + v[3];
        y += s->tex_ystep;
        if (y >= s->rows)
            y -= s->rows;
    }
    return sum;
}

static double table_reference(const struct hier_state *s, size_t gid, size_t lid, int probe,
                              unsigned stride)
{
    size_t mask = s->table_n - 1, idx;
    switch (probe) {
    case LOCAL_STRIDE: idx = (lid * stride) & mask; break;
    case CONSTANT_SCATTERED:
    case GLOBAL_SCATTERED: idx = (gid * SCATTER_SPREAD) & mask; break;
    default: idx = 0; /* the broadcasts */
    }
    double sum = 0;
    for (size_t k = 0; k < s->onchip_reps; k++) {
        sum += s->table[idx];
        idx = (idx + 1) & mask;
    }
    return sum;
}

static cl_uint private_reference(const struct hier_state *s, size_t gid)
{
    cl_uint a[PRIVATE_N];
    for (cl_uint j = 0; j < PRIVATE_N; j++)
        a[j] = (cl_uint)gid * PRIVATE_N + j;
    for (cl_uint k = 0; k < s->private_reps; k++)
        for (cl_uint j = 0; j < PRIVATE_N; j++)
            a[j] = (cl_uint)((a[j] ^ (a[j] >> 7)) * 0x9E3779B1u + k);
    cl_uint sum = 0;
    for (cl_uint j = 0; j < PRIVATE_N; j++)
        sum += a[j] * (j + 1);
    return sum;
}

/* Floats of `out` (items) against the reference of each checked work-item. */
static int check_sums(struct clmem_run *run, const struct hier_state *s, int probe, cl_mem d_out,
                      float *out, size_t items, struct clmem_check *check, struct clmem_error *err)
{
    int status = clmem_buffer_read(run->ctx, d_out, items * sizeof(float), out, err);
    if (status)
        return status;
    size_t step = check_stride(items), checked = 0;
    for (size_t i = 0; i < items; i += step) {
        size_t gid = i + step >= items ? items - 1 : i; /* the last one too */
        double expected;
        switch (probe) {
        case READ_WS: expected = read_reference(s, gid); break;
        case IMAGE_READ:
        case BUFFER_READ: expected = texel_reference(s, gid); break;
        default: expected = table_reference(s, gid, gid % s->group, probe, run->sweep_value); break;
        }
        clmem_check_value(check, expected, out[gid], expected > 1 ? expected : 1, "out[%zu]", gid,
                          0);
        checked++;
    }
    check_scope(check, checked, items);
    return CLMEM_OK;
}

static int check_uints(struct clmem_run *run, struct hier_state *s, int probe,
                       struct clmem_check *check, struct clmem_error *err)
{
    size_t items = s->onchip_items, groups = items / s->group;
    int status =
        clmem_buffer_read(run->ctx, s->d_uint_out, items * sizeof(cl_uint), s->uint_out, err);
    if (status)
        return status;
    cl_uint runs = (cl_uint)s->atomic_runs, updates = (cl_uint)s->atomic_updates;
    switch (probe) {
    case ATOMIC_GLOBAL:
        for (size_t i = 0; i < items; i++)
            clmem_check_value(check, (double)(cl_uint)(runs * updates), s->uint_out[i], 1.0,
                              "counters[%zu]", i, 0);
        snprintf(check->note, sizeof check->note, "%zu counters, %u updates each", items,
                 runs * updates);
        return CLMEM_OK;
    case ATOMIC_CONTENDED: {
        cl_uint expected = (cl_uint)(runs * updates * (cl_uint)items);
        clmem_check_value(check, expected, s->uint_out[0], 1.0, "counter (mod 2^32)", 0, 0);
        snprintf(check->note, sizeof check->note, "%u updates of one counter (mod 2^32)", expected);
        return CLMEM_OK;
    }
    case ATOMIC_LOCAL:
        for (size_t g = 0; g < groups; g++)
            clmem_check_value(check, (double)(updates * (cl_uint)s->group), s->uint_out[g], 1.0,
                              "group %zu's count", g, 0);
        return CLMEM_OK;
    default: {
        size_t step = check_stride(items), checked = 0;
        for (size_t i = 0; i < items; i += step) {
            size_t gid = i + step >= items ? items - 1 : i;
            clmem_check_value(check, private_reference(s, gid), s->uint_out[gid], 1.0, "out[%zu]",
                              gid, 0);
            checked++;
        }
        check_scope(check, checked, items);
        return CLMEM_OK;
    }
    }
}

/* `got` against the pattern, byte for byte: the first differing bytes named. */
static void check_bytes(const unsigned char *expected, const unsigned char *got, size_t n,
                        const char *what, struct clmem_check *check)
{
    check->checked += n;
    if (memcmp(expected, got, n) == 0)
        return;
    for (size_t i = 0; i < n; i++)
        if (expected[i] != got[i]) {
            check->max_rel_error = INFINITY;
            clmem_check_mismatch(check, "%s byte %zu: expected 0x%02x, got 0x%02x", what, i,
                                 expected[i], got[i]);
        }
}

static int check_copy(struct clmem_run *run, struct hier_state *s, int probe,
                      struct clmem_check *check, struct clmem_error *err)
{
    struct clmem_ctx *ctx = run->ctx;
    int status;
    cl_int rc;
    switch (probe) {
    case H2D_PAGEABLE:
    case H2D_PINNED:
        if ((status = clmem_buffer_read(ctx, s->d_xfer, s->xfer, s->host_dst, err)))
            return status;
        check_bytes(s->host_src, s->host_dst, s->xfer, "the device's copy", check);
        return CLMEM_OK;
    case D2H_PAGEABLE:
        check_bytes(s->host_src, s->host_dst, s->xfer, "host", check);
        return CLMEM_OK;
    case D2H_PINNED:
        check_bytes(s->host_src, s->pinned.host, s->xfer, "pinned host", check);
        return CLMEM_OK;
    case D2D:
        if ((status = clmem_buffer_read(ctx, s->d_xfer2, s->xfer, s->host_dst, err)))
            return status;
        check_bytes(s->host_src, s->host_dst, s->xfer, "dst", check);
        return CLMEM_OK;
    default: { /* MAP: the mapping shows the buffer's bytes */
        void *p = clEnqueueMapBuffer(ctx->queue, s->d_xfer, CL_TRUE, CL_MAP_READ, 0, s->xfer, 0,
                                     NULL, NULL, &rc);
        if (rc != CL_SUCCESS)
            return clmem_cl_fail(err, rc, "clEnqueueMapBuffer", __func__, __LINE__);
        check_bytes(s->host_src, p, s->xfer, "mapped", check);
        CLMEM_CHECK(err, clEnqueueUnmapMemObject(ctx->queue, s->d_xfer, p, 0, NULL, NULL));
        CLMEM_CHECK(err, clFinish(ctx->queue));
        return CLMEM_OK;
    }
    }
}

int hier_verify(struct clmem_run *run, int probe, struct clmem_check *check,
                struct clmem_error *err)
{
    struct hier_state *s = run->state;
    clmem_check_init(check, 0.0);
    switch (probe) {
    case CHASE_GLOBAL:
    case CHASE_PAGE:
    case CHASE_LOCAL: {
        const struct hier_chase *c = hier_chase_of(s, probe);
        return check_chase(run, c->d_state, c->perm, c->n, c->stride, c->steps, c->total, check,
                           err);
    }
    case READ_WS:
        return check_sums(run, s, probe, s->d_read_out, s->read_out, s->read_items, check, err);
    case IMAGE_READ:
    case BUFFER_READ:
        return check_sums(run, s, probe, s->d_tex_out, s->tex_out, s->tex_items, check, err);
    case PRIVATE_DYNAMIC:
    case PRIVATE_REGISTERS:
    case ATOMIC_GLOBAL:
    case ATOMIC_CONTENDED:
    case ATOMIC_LOCAL: return check_uints(run, s, probe, check, err);
    case LOCAL_STRIDE:
    case LOCAL_BROADCAST:
    case CONSTANT_BROADCAST:
    case CONSTANT_SCATTERED:
    case GLOBAL_BROADCAST:
    case GLOBAL_SCATTERED:
        return check_sums(run, s, probe, s->d_onchip_out, s->onchip_out, s->onchip_items, check,
                          err);
    default: return check_copy(run, s, probe, check, err);
    }
}
