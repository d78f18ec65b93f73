/* matmul's parameters: the parameter database's tables (data/params/,
 * their columns the kernels' -D names), the rows a device gets, shrunk to
 * what it holds, what fits it, and what `clmem tune matmul` searches. */
#include "workloads/matmul_internal.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
const struct clmem_param_table regblock_table = {
    "matmul", "regblock", {"TSM", "TSN", "TSK", "WPTM", "WPTN", "SK_UNITS"},
    6,        0,          CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_CPU | CLMEM_PARAM_UNTYPED};
static const struct clmem_param_table cpu_blocked_table = {
    "matmul",
    "cpu_blocked",
    {"CPU_VEC", "CPU_MR", "CPU_NV", "CPU_MT", "CPU_WG"},
    5,
    0,
    CL_DEVICE_TYPE_CPU | CLMEM_PARAM_UNTYPED};
const struct clmem_param_table splitk_table = {
    "matmul",
    "splitk",
    {"SPLITK_TSM", "SPLITK_TSN", "SPLITK_TSK", "SPLITK_WPTM", "SPLITK_WPTN", "RATE1", "RATEU",
     "UNITS"},
    8,
    0,
    CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_CPU | CLMEM_PARAM_UNTYPED};
const struct clmem_param_table splitk_rates_table = {"matmul",
                                                     "splitk_rates",
                                                     {"unit_flops", "mhz", "bytes", "launch_s"},
                                                     4,
                                                     1,
                                                     CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_CPU};
const struct clmem_param_table auto_rates_table = {
    "matmul", "auto_rates", {"flops", "bytes", "launch_s"}, 3, 1, CLMEM_PARAM_UNTYPED};
const struct clmem_param_table auto_thresholds_table = {
    "matmul", "auto_thresholds",  {"splitk_ratio", "unaligned_loss", "aligned_loss"}, 3,
    1,        CLMEM_PARAM_UNTYPED};

const struct clmem_param_table *const matmul_param_tables[] = {
    &regblock_table,     &cpu_blocked_table, &splitk_table,
    &splitk_rates_table, &auto_rates_table,  &auto_thresholds_table,
};

/* The device's row of a table that has one for every device. */
const struct clmem_param_row *param_row(const struct clmem_param_table *t,
                                        const struct clmem_device *device)
{
    const struct clmem_param_row *row;
    enum clmem_param_level level;
    clmem_param_lookup(t, device, &row, 1, &level);
    return row;
}

/* The device's cpu_blocked row. */
const int *cpu_blocked_row(const struct clmem_device *device)
{
    return param_row(&cpu_blocked_table, device)->values;
}

/* cpu_blocked's packed copies, in floats: M's rows and N's columns
 * rounded up to whole micro-panels (MR rows, VEC x NV columns). */
int cpu_blocked_packed(const int *cb, size_t rows, size_t cols, size_t inner, size_t *m_elems,
                       size_t *n_elems)
{
    size_t mr = (size_t)cb[CB_MR], nr = (size_t)cb[CB_VEC] * (size_t)cb[CB_NV];
    return clmem_mul_size((rows + mr - 1) / mr * mr, inner, m_elems) &&
           clmem_mul_size((cols + nr - 1) / nr * nr, inner, n_elems);
}

/* Loop iterations a work-item of regblock's kernels runs per K step,
 * counted as if no loop were unrolled (llvmpipe unrolls few), plus a
 * quarter: the count runs a little below what llvmpipe's loop limiter
 * counts (bench/rusticl-loop-limit/), and the margin keeps a run inside
 * the limit. */
static unsigned long regblock_step_loops(const int rb[])
{
    unsigned long wg = (unsigned long)(rb[P_TSM] / rb[P_WPTM]) *
                       (unsigned long)(rb[P_TSN] / rb[P_WPTN]),
                  a = ((unsigned long)rb[P_TSM] * (unsigned long)rb[P_TSK] / 4 + wg - 1) / wg,
                  b = ((unsigned long)rb[P_TSK] * (unsigned long)rb[P_TSN] / 4 + wg - 1) / wg,
                  m = (unsigned long)rb[P_WPTM] / 4, n = (unsigned long)rb[P_WPTN] / 4;
    /* A step: fetch and store the next tiles' shares (a + b twice), then
     * per k the loads of a and b and the multiply-adds of each of m
     * float4s of M's column, 4 values, n float4s of N's row. */
    unsigned long step =
        1 + 2 * (a + b) + (unsigned long)rb[P_TSK] * (1 + m + n + m * (1 + 4 * (1 + n)));
    return step + step / 4;
}

/* The K steps a work-item of regblock's kernels may run on the device
 * (its loop limit over regblock_step_loops); 0: no limit. */
size_t regblock_max_steps(const struct clmem_device *device, const int rb[])
{
    unsigned long limit = clmem_device_loop_limit(device);
    return limit ? limit / regblock_step_loops(rb) : 0;
}

/* NULL where a work-item of regblock's or regblock_padded's kernels runs
 * the whole of K within the device's loop limit, else why not. */
const char *regblock_loop_misfit(const struct clmem_device *device, const int rb[], size_t inner,
                                 char *why, size_t size)
{
    size_t most = regblock_max_steps(device, rb), tsk = (size_t)rb[P_TSK];
    if (!most || (inner + tsk - 1) / tsk <= most)
        return NULL;
    snprintf(why, size,
             "'%s' ends a work-item's loops after %lu iterations (Mesa's loop limiter: the "
             "results would be wrong), and K=%zu takes about %lu; K up to %zu runs here",
             device->name, clmem_device_loop_limit(device), inner,
             (unsigned long)((inner + tsk - 1) / tsk) * regblock_step_loops(rb), most * tsk);
    return why;
}

/* regblock_padded rounds each dimension up to a tile (TSM and TSN at most
 * 256, TSK 16 in every row and the tuner's space): its copies must stay
 * within the int indices the kernels use and the device's largest
 * allocation, and fit in its memory beside M, N and P (plan() counted
 * those). NULL where they do, else why not. Refused alone, skipped under
 * "all", before any work; auto chooses another variant. */
const char *regblock_padded_misfit(const struct clmem_device *device, const size_t dim[3],
                                   char *why, size_t size)
{
    size_t rows = dim[0] + 255, cols = dim[1] + 255, inner = dim[2] + 15,
           most = device->max_alloc / sizeof(float);
    if (most > INT_MAX)
        most = INT_MAX;
    size_t m_elems, n_elems, p_elems;
    if (!clmem_mul_size(rows, inner, &m_elems) || !clmem_mul_size(inner, cols, &n_elems) ||
        !clmem_mul_size(rows, cols, &p_elems) || m_elems > most || n_elems > most ||
        p_elems > most) {
        snprintf(why, size,
                 "its copies padded to whole tiles would pass the largest matrix it can index or "
                 "allocate (%zu floats); 'regblock' runs this size unpadded",
                 most);
        return why;
    }
    /* Stream-K's sums: two blocks per work-group, a group per unit. */
    double bytes =
        (double)sizeof(float) *
        ((double)m_elems + (double)n_elems + (double)p_elems +
         2.0 * 256 * 256 * (double)device->compute_units + (double)dim[0] * (double)dim[2] +
         (double)dim[2] * (double)dim[1] + (double)dim[0] * (double)dim[1]);
    if (bytes <= (double)device->global_mem)
        return NULL;
    snprintf(why, size,
             "its copies padded to whole tiles and M, N and P need up to %.0f bytes, more than "
             "the %llu bytes '%s' has; 'regblock' runs this size unpadded",
             bytes, (unsigned long long)device->global_mem, device->name);
    return why;
}

/* cpu_blocked's packed copies must fit the device's largest allocation:
 * NULL where they do, else why not. */
const char *cpu_blocked_misfit(const struct clmem_device *device, const size_t dim[3], char *why,
                               size_t size)
{
    size_t m_elems, n_elems, most = device->max_alloc / sizeof(float);
    if (cpu_blocked_packed(cpu_blocked_row(device), dim[0], dim[1], dim[2], &m_elems, &n_elems) &&
        m_elems <= most && n_elems <= most)
        return NULL;
    snprintf(why, size,
             "its packed copies of M and N need more than the device's largest allocation "
             "(%llu bytes)",
             (unsigned long long)device->max_alloc);
    return why;
}

/* A row's parameters, shrunk until the device takes them (work-group
 * size, local memory). */
void fit_regblock(const struct clmem_device *device, const int *row, int rb[])
{
    for (int i = 0; i <= P_SK_UNITS; i++)
        rb[i] = row[i];
    for (;;) {
        size_t wg = (size_t)(rb[P_TSM] / rb[P_WPTM]) * (size_t)(rb[P_TSN] / rb[P_WPTN]);
        /* Two buffers of each tile (double buffering). */
        size_t local = 2 * (size_t)rb[P_TSK] * (size_t)(rb[P_TSM] + rb[P_TSN]) * sizeof(float);
        if ((wg <= device->max_work_group && local <= device->local_mem) || rb[P_TSM] <= rb[P_WPTM])
            return;
        rb[P_TSM] /= 2;
        rb[P_TSN] /= 2;
        rb[P_SK_UNITS] = 0; /* measured for the row's shape only */
    }
}

/* What `clmem tune matmul` searches: regblock's parameters, and what a
 * device must allow for a candidate to run. */
static const struct clmem_tune_param regblock_space[] = {
    {"TSM", {16, 32, 64, 128, 256}},
    {"TSN", {32, 64, 128, 256}},
    {"TSK", {4, 8, 16}},
    {"WPTM", {4, 8, 16}},
    {"WPTN", {4, 8, 16, 32}},
};

int regblock_valid(const struct clmem_device *device, const int v[])
{
    if (v[P_TSM] % v[P_WPTM] || v[P_TSN] % v[P_WPTN] || v[P_TSK] % 4 || v[P_WPTM] % 4 ||
        v[P_WPTN] % 4 || v[P_WPTM] * v[P_WPTN] > 512)
        return 0;
    size_t wg = (size_t)(v[P_TSM] / v[P_WPTM]) * (size_t)(v[P_TSN] / v[P_WPTN]);
    size_t local = 2 * (size_t)v[P_TSK] * (size_t)(v[P_TSM] + v[P_TSN]) * sizeof(float);
    return wg <= device->max_work_group && local <= device->local_mem;
}

static const struct clmem_tune_param panel_space[] = {
    {"PANEL_ROWS", {1, 2, 4, 6, 8, 12, 16}},
};

/* Any panel height runs everywhere: no local memory, the driver's groups. */
static int panel_valid(const struct clmem_device *device, const int v[])
{
    (void)device;
    return v[0] >= 1 && v[0] <= 32;
}

/* cpu_blocked's micro-tile and blocking (its vector width and work-group
 * stay its family's row's): a micro-tile that spills registers is only
 * slower, so every one is a candidate. */
static const struct clmem_tune_param cpu_blocked_space[] = {
    {"CPU_MR", {4, 6, 8, 12, 14, 16}},
    {"CPU_NV", {1, 2, 3, 4}},
    {"CPU_MT", {1, 2, 4, 8, 16}},
};

static int cpu_blocked_valid(const struct clmem_device *device, const int v[])
{
    (void)device;
    return v[0] > 0 && v[1] > 0 && v[2] > 0;
}

/* splitk's tiles, as regblock's, and its K slices: a tuned setting fixes
 * both (where the shape leaves fewer K steps than slices, fewer). */
static const struct clmem_tune_param splitk_space[] = {
    {"SPLITK_TSM", {16, 32, 64, 128, 256}},
    {"SPLITK_TSN", {32, 64, 128, 256}},
    {"SPLITK_TSK", {4, 8, 16}},
    {"SPLITK_WPTM", {4, 8, 16}},
    {"SPLITK_WPTN", {4, 8, 16, 32}},
    {"SPLITK_SPLITS", {1, 2, 4, 6, 8, 12, 16, 32}},
};

static int splitk_valid(const struct clmem_device *device, const int v[])
{
    return regblock_valid(device, v) && v[SPL_SPLITS] >= 1;
}

const struct clmem_tunable matmul_tunables[] = {
    {"regblock", regblock_space, CLMEM_ARRAY_SIZE(regblock_space), regblock_valid, 0, 0},
    {"panel", panel_space, CLMEM_ARRAY_SIZE(panel_space), panel_valid, CL_DEVICE_TYPE_CPU, 0},
    {"cpu_blocked", cpu_blocked_space, CLMEM_ARRAY_SIZE(cpu_blocked_space), cpu_blocked_valid,
     CL_DEVICE_TYPE_CPU, 0},
    {"splitk", splitk_space, CLMEM_ARRAY_SIZE(splitk_space), splitk_valid, 0, 1},
};

struct stream_k_plan stream_k_plan_of(const struct clmem_device *device, const int rb[],
                                      const size_t dim[3])
{
    size_t tsm = (size_t)rb[P_TSM], tsn = (size_t)rb[P_TSN];
    size_t groups = (size_t)device->compute_units * (size_t)rb[P_SK_UNITS];
    struct stream_k_plan plan = {(dim[0] + tsm - 1) / tsm * ((dim[1] + tsn - 1) / tsn), 0, 0, 0, 0};
    if (groups == 0 || plan.blocks <= groups || plan.blocks % groups == 0)
        return plan;
    double sums = (double)groups * 2.0 * (double)(tsm * tsn) * sizeof(float);
    if (sums > (double)device->max_alloc ||
        sums + (double)sizeof(float) *
                    ((double)dim[0] * (double)dim[2] + (double)dim[2] * (double)dim[1] +
                     (double)dim[0] * (double)dim[1]) >
            (double)device->global_mem)
        return plan;
    /* A group's steps, in the blocks it shares, within the device's loop
     * limit (regblock_max_steps); else a group per block. */
    size_t steps = (dim[2] + (size_t)rb[P_TSK] - 1) / (size_t)rb[P_TSK],
           most = regblock_max_steps(device, rb), tiles = groups + plan.blocks % groups;
    if (most && (tiles * steps + groups - 1) / groups > most)
        return plan;
    plan.groups = groups;
    plan.tiles = tiles;
    plan.direct = plan.tiles <= dim[0] / tsm * (dim[1] / tsn);
    plan.sums = sums;
    return plan;
}

/* regblock's built-in parameters for a P of rows x cols: the first of the
 * device's candidate rows (at its most specific level) whose work-groups
 * cover half its compute units at this size, else the last. */
void builtin_regblock(const struct clmem_device *device, size_t rows, size_t cols, int rb[])
{
    const struct clmem_param_row *candidates[8];
    enum clmem_param_level level;
    size_t n = clmem_param_lookup(&regblock_table, device, candidates, CLMEM_ARRAY_SIZE(candidates),
                                  &level);
    for (size_t i = 0; i < n; i++) {
        fit_regblock(device, candidates[i]->values, rb);
        size_t groups = (rows + (size_t)rb[P_TSM] - 1) / (size_t)rb[P_TSM] *
                        ((cols + (size_t)rb[P_TSN] - 1) / (size_t)rb[P_TSN]);
        if (2 * groups >= device->compute_units)
            break;
    }
}
