/* The device's event clock, checked against the host's once per context.
 * Drivers differ: some timestamps read zero or count 0, 1, 2, 3 (Mesa's
 * rusticl on llvmpipe), some tick in microseconds or coarser, some run
 * backwards across a wrap. A figure is only as good as the clock that
 * timed it, so the clock is tried on a kernel of known work first. */
#include "opencl/opencl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Each work-item steps a xorshift generator `steps` times: work no
 * compiler folds (one folded a linear congruential generator's loop),
 * whose time grows with `steps`. Kept here,
 * not in cl/, so that the check needs no --kernel-dir file. */
static const char spin_source[] = "__kernel void clmem_clock_spin(__global uint *out, uint steps)\n"
                                  "{\n"
                                  "    uint x = (uint)get_global_id(0) + 1u;\n"
                                  "    for (uint i = 0; i < steps; i++) {\n"
                                  "        x ^= x << 13;\n"
                                  "        x ^= x >> 17;\n"
                                  "        x ^= x << 5;\n"
                                  "    }\n"
                                  "    out[get_global_id(0)] = x;\n"
                                  "}\n";

#define SPIN_ITEMS 1024
#define MAX_STEPS  (1u << 26)
/* The host may lose the processor between enqueue and clFinish on a
 * loaded machine: the best of these runs is compared. */
#define CHECK_RUNS 3
/* Rounds of judged runs, each four times longer than the last. */
#define MAX_ROUNDS 4
/* Event time over host wall time: at most this much above 1 (the event
 * lies inside the host's interval), at least this fraction of it. */
#define RATIO_ABOVE 1.05
#define RATIO_BELOW 0.5

/* The largest power of ten (at most 1 s) dividing every timestamp: a
 * clock that reports 1 ns but steps in milliseconds shows it here. */
static double timestamp_step(const struct clmem_clock_reading *r, size_t n)
{
    double step = 1;
    for (cl_ulong p = 10; p <= 1000000000ULL; p *= 10) {
        int all = 1, any = 0;
        for (size_t i = 0; i < n && all; i++) {
            const cl_ulong t[4] = {r[i].queued, r[i].submit, r[i].start, r[i].end};
            for (int k = 0; k < 4; k++) {
                any |= t[k] != 0;
                all &= t[k] % p == 0;
            }
        }
        if (!all || !any)
            break;
        step = (double)p;
    }
    return step;
}

void clmem_clock_judge(const struct clmem_clock_reading *r, size_t n, double resolution_ns,
                       struct clmem_clock *clock)
{
    memset(clock, 0, sizeof *clock);
    clock->checked = 1;
    if (n == 0) {
        snprintf(clock->why, sizeof clock->why, "no event to check");
        return;
    }
    double tick = timestamp_step(r, n);
    clock->tick_ns = resolution_ns > tick ? resolution_ns : tick;
    for (size_t i = 0; i < n; i++) {
        if (!(r[i].queued <= r[i].submit && r[i].submit <= r[i].start && r[i].start <= r[i].end)) {
            snprintf(clock->why, sizeof clock->why,
                     "event timestamps out of order (queued %llu, submit %llu, start %llu, end "
                     "%llu ns)",
                     (unsigned long long)r[i].queued, (unsigned long long)r[i].submit,
                     (unsigned long long)r[i].start, (unsigned long long)r[i].end);
            return;
        }
        double span = (double)(r[i].end - r[i].start);
        /* An event spans no more than the host's interval around it, give
         * or take a tick at each end. */
        if (span > RATIO_ABOVE * r[i].wall_ns + 2 * clock->tick_ns) {
            snprintf(clock->why, sizeof clock->why,
                     "event time %.3g ms longer than the host's %.3g ms around the same kernel",
                     span * 1e-6, r[i].wall_ns * 1e-6);
            return;
        }
        double ratio = r[i].wall_ns > 0 ? span / r[i].wall_ns : 0;
        if (i == 0 || ratio > clock->wall_ratio) {
            clock->wall_ratio = ratio;
            clock->check_ms = r[i].wall_ns * 1e-6;
        }
    }
    if (clock->wall_ratio < RATIO_BELOW) {
        snprintf(clock->why, sizeof clock->why,
                 "event time %.3g of the host's wall time (%.3g ms) around the same kernel",
                 clock->wall_ratio, clock->check_ms);
        return;
    }
    clock->events_ok = 1;
}

/* One run of the spin kernel: its timestamps and the host's time. */
static int spin_once(struct clmem_ctx *ctx, cl_kernel kernel, cl_uint steps,
                     struct clmem_clock_reading *r, struct clmem_error *err)
{
    int status = CLMEM_OK;
    size_t global = SPIN_ITEMS;
    cl_event event = NULL;
    CLMEM_CHECK(err, clSetKernelArg(kernel, 1, sizeof steps, &steps));
    double t0 = clmem_now_ms();
    CLMEM_CHECK(
        err, clEnqueueNDRangeKernel(ctx->queue, kernel, 1, NULL, &global, NULL, 0, NULL, &event));
    CLMEM_CHECK_GOTO(err, status, clFinish(ctx->queue));
    r->wall_ns = (clmem_now_ms() - t0) * 1e6;
    const cl_profiling_info what[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                       CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
    cl_ulong *to[4] = {&r->queued, &r->submit, &r->start, &r->end};
    for (int k = 0; k < 4; k++)
        CLMEM_CHECK_GOTO(err, status,
                         clGetEventProfilingInfo(event, what[k], sizeof *to[k], to[k], NULL));
cleanup:
    clReleaseEvent(event);
    return status;
}

int clmem_clock_check(struct clmem_ctx *ctx, struct clmem_error *err)
{
    if (ctx->clock.checked)
        return CLMEM_OK;
    int status = CLMEM_OK;
    cl_int rc;
    cl_kernel kernel = NULL;
    cl_mem out = NULL;
    const char *sources[] = {spin_source};
    cl_program program = clCreateProgramWithSource(ctx->context, 1, sources, NULL, &rc);
    if (rc != CL_SUCCESS)
        return clmem_cl_fail(err, rc, "clCreateProgramWithSource", __func__, __LINE__);
    CLMEM_CHECK_GOTO(err, status, clBuildProgram(program, 1, &ctx->device.id, "", NULL, NULL));
    kernel = clCreateKernel(program, "clmem_clock_spin", &rc);
    CLMEM_CHECK_GOTO(err, status, rc);
    out = clCreateBuffer(ctx->context, CL_MEM_WRITE_ONLY, SPIN_ITEMS * sizeof(cl_uint), NULL, &rc);
    CLMEM_CHECK_GOTO(err, status, rc);
    CLMEM_CHECK_GOTO(err, status, clSetKernelArg(kernel, 0, sizeof out, &out));

    /* A first run pays for any lazy compilation (PoCL's work-group
     * functions): not kept. Then four times the steps until a run lasts
     * long enough for both clocks. */
    struct clmem_clock_reading r[CHECK_RUNS];
    cl_uint steps = 64;
    if ((status = spin_once(ctx, kernel, 1, &r[0], err)))
        goto cleanup;
    for (;;) {
        if ((status = spin_once(ctx, kernel, steps, &r[0], err)))
            goto cleanup;
        if (r[0].wall_ns >= CLMEM_CLOCK_CHECK_MS * 1e6 || steps >= MAX_STEPS)
            break;
        steps *= 4;
    }
    /* On a loaded machine the search's last run may have waited for the
     * processor and the judged runs come out much shorter: then longer
     * runs, so that every judged run lasts at least half the target. */
    for (int round = 0; round < MAX_ROUNDS; round++) {
        double shortest = 0;
        for (int i = 0; i < CHECK_RUNS; i++) {
            if ((status = spin_once(ctx, kernel, steps, &r[i], err)))
                goto cleanup;
            if (i == 0 || r[i].wall_ns < shortest)
                shortest = r[i].wall_ns;
        }
        if (shortest >= CLMEM_CLOCK_CHECK_MS * 1e6 / 2 || steps >= MAX_STEPS)
            break;
        steps *= 4;
    }
    clmem_clock_judge(r, CHECK_RUNS, (double)ctx->device.timer_resolution_ns, &ctx->clock);
    if (clmem_debug_enabled(CLMEM_DEBUG_TIMING))
        fprintf(stderr,
                "clmem: clock of '%s': resolution %zu ns, step %.0f ns, event/wall %.4f over "
                "%.2f ms: %s%s\n",
                ctx->device.name, ctx->device.timer_resolution_ns, ctx->clock.tick_ns,
                ctx->clock.wall_ratio, ctx->clock.check_ms,
                ctx->clock.events_ok ? "events used" : "host clock used: ", ctx->clock.why);
cleanup:
    if (out)
        clReleaseMemObject(out);
    if (kernel)
        clReleaseKernel(kernel);
    clReleaseProgram(program);
    return status;
}
