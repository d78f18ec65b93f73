/* matmul's planners: splitk's tiles and K slices, chosen by a model of
 * the device's time (its rates from the parameter database), and
 * --variant auto's rules, which weigh that model and the edges' costs. */
#include "workloads/matmul_internal.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- splitk: the tiles and the K slices for a shape ---- */

/* A slice has at least this much of K, so that its loads outweigh the
 * sums it writes (TSM x TSN floats); and there are at most this many. */
#define SPLITK_MIN_SLICE  128
#define SPLITK_MAX_SLICES 64

/* The most slices whose workspace (slices x rows x cols floats) the device
 * can allocate and hold beside M, N and P. */
static size_t splitk_max_slices(const struct clmem_device *device, const size_t dim[3])
{
    double p = (double)dim[0] * (double)dim[1] * sizeof(float),
           inputs =
               ((double)dim[0] * (double)dim[2] + (double)dim[2] * (double)dim[1]) * sizeof(float),
           room = (double)device->global_mem - inputs - p;
    size_t most = SPLITK_MAX_SLICES;
    while (most > 1 && ((double)most * p > (double)device->max_alloc || (double)most * p > room))
        most--;
    return most;
}

/* Whether the model weighs the device as a CPU: a device that says it is
 * also a GPU (Oclgrind says it is every type) takes the GPU's rates. */
static int splitk_cpu(const struct clmem_device *device)
{
    return (device->type & CL_DEVICE_TYPE_CPU) && !(device->type & CL_DEVICE_TYPE_GPU);
}

/* Whether a row is for the kind of device the model weighs it as (its
 * rates are for that kind). */
static int splitk_row_kind(const struct clmem_device *device, const struct clmem_param_row *row)
{
    return !row->type ||
           (row->type & (splitk_cpu(device) ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU));
}

/* The model's time for P = M x N with the tile of `row` (a splitk_table
 * row) in `splits` K slices: the busiest unit's work-groups, each of
 * TSM x TSN x its slice's steps, at the rate the row gives for that many a
 * unit; then, where there are slices, the workspace written and read back
 * and P written ((2 x slices + 1) x rows x cols floats) and the second
 * launch. The slices' steps in *slice_steps. With `shared`, a part-full
 * last wave counts only its share (regblock's, where its stream-K shares
 * that wave's blocks among every unit). */
static double splitk_seconds(const struct clmem_device *device, const int *row, const size_t dim[3],
                             size_t splits, int shared, size_t *slice_steps)
{
    /* The rates of the kind of device the model weighs it as. */
    struct clmem_device kind = *device;
    kind.type = splitk_cpu(device) ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU;
    const double *rates = clmem_param_rates(param_row(&splitk_rates_table, &kind));
    double unit_flops = rates[SR_UNIT_FLOPS], mhz = rates[SR_MHZ], bytes = rates[SR_BYTES],
           launch_s = rates[SR_LAUNCH_S];
    if (device->clock_mhz)
        unit_flops *= device->clock_mhz / mhz;
    size_t tsm = (size_t)row[SPL_TSM], tsn = (size_t)row[SPL_TSN], tsk = (size_t)row[SPL_TSK];
    size_t blocks = (dim[0] + tsm - 1) / tsm * ((dim[1] + tsn - 1) / tsn),
           steps = (dim[2] + tsk - 1) / tsk,
           units = device->compute_units ? device->compute_units : 1;
    if (steps == 0)
        steps = 1;
    size_t per = (steps + splits - 1) / splits;
    *slice_steps = per;
    size_t groups = blocks * splits, busiest = (groups + units - 1) / units;
    double r1 = row[SPL_RATE1] / 1000.0, ru = row[SPL_RATEU] / 1000.0,
           u = row[SPL_UNITS] > 1 ? (double)row[SPL_UNITS] : 1.0;
    double rate = busiest >= u ? ru : r1 + (ru - r1) * ((double)busiest - 1.0) / (u - 1.0);
    /* Past UNITS a unit runs its groups in waves of UNITS: a part-full
     * last wave takes as long as a full one. */
    double waves = shared        ? (double)groups / (double)units
                   : busiest > u ? ceil((double)busiest / u) * u
                                 : (double)busiest;
    double seconds = waves * 2.0 * (double)(tsm * tsn * per * tsk) / (rate * unit_flops);
    if (splits > 1)
        seconds += launch_s + (2.0 * (double)splits + 1.0) * (double)dim[0] * (double)dim[1] *
                                  sizeof(float) / bytes;
    return seconds;
}

/* Weighs the tile of `row` (a splitk_table row: tile and rates) at
 * `first` to `last` slices (fewer where K has fewer steps, or where the
 * same slices come from fewer): where the model puts one faster than
 * *plan, it becomes the plan. */
static void splitk_consider(const struct clmem_device *device, const size_t dim[3], const int *row,
                            size_t first, size_t last, struct splitk_plan *plan)
{
    size_t tsk = (size_t)row[SPL_TSK], steps = (dim[2] + tsk - 1) / tsk;
    if (steps == 0)
        steps = 1;
    if (last > steps)
        last = steps;
    if (first > last)
        first = last;
    for (size_t s = first; s <= last; s++) {
        size_t per;
        double seconds = splitk_seconds(device, row, dim, s, 0, &per);
        size_t within = regblock_max_steps(device, row); /* the device's loop limit */
        if ((steps + per - 1) / per != s || (within && per > within) ||
            (plan->seconds >= 0 && seconds >= plan->seconds))
            continue;
        memcpy(plan->p, row, SPL_SPLITS * sizeof(int));
        plan->p[SPL_SPLITS] = (int)s;
        plan->steps = steps;
        plan->slice_steps = per;
        plan->blocks = (dim[0] + (size_t)row[SPL_TSM] - 1) / (size_t)row[SPL_TSM] *
                       ((dim[1] + (size_t)row[SPL_TSN] - 1) / (size_t)row[SPL_TSN]);
        plan->seconds = seconds;
        plan->rate = row[SPL_RATEU];
    }
}

/* A thin P's tile: row i of `rows`, when it is the smallest tile that
 * holds all of P's rows and P has fewer, cut to them, so that its
 * work-groups compute fewer rows that P lacks. Only on GPUs (the model's
 * CPU row is one work-group a core). Two ways:
 *  - P's rows fill at most 3/4 of the tile: rows rounded up to 4, a
 *    work-item taking 4 of them, where a work-group keeps 128 work-items
 *    or more (fewer leave a unit's latency bare).
 *  - P's rows fill more: rows rounded up to the row's own work-item's
 *    (WPTM), and K steps twice the row's, which the local memory the cut
 *    frees holds; only tiles 256 wide of 128 rows or more. The cut alone,
 *    or the longer steps alone, do not pay; narrower tiles lose more to
 *    the values each read serves than they gain.
 * Not P's columns: a cut across them leaves N's loads short of whole
 * vectors. The thresholds and what was measured for them:
 * bench/sgemm/shapes/. The cut tile keeps its
 * row's rates, so the model counts only the rows it no longer computes.
 * The fitted row in *out; 0 where there is none. */
static int splitk_fitted(const struct clmem_device *device, const size_t dim[3],
                         const struct clmem_param_row *const rows[], size_t n, size_t i, int *out)
{
    if (splitk_cpu(device))
        return 0;
    size_t smallest = 0; /* the fewest rows of a tile that holds P's */
    for (size_t j = 0; j < n; j++) {
        size_t t = (size_t)rows[j]->values[SPL_TSM];
        if (splitk_row_kind(device, rows[j]) && t >= dim[0] && (!smallest || t < smallest))
            smallest = t;
    }
    if (!smallest || (size_t)rows[i]->values[SPL_TSM] != smallest || dim[0] >= smallest)
        return 0;
    memcpy(out, rows[i]->values, CLMEM_MAX_PARAMS * sizeof(int));
    if (4 * dim[0] <= 3 * smallest) {
        out[SPL_TSM] = (int)((dim[0] + 3) / 4 * 4);
        out[SPL_WPTM] = 4;
        size_t items = (size_t)(out[SPL_TSM] / 4) * (size_t)(out[SPL_TSN] / out[SPL_WPTN]);
        return items >= 128 && regblock_valid(device, out);
    }
    size_t wptm = (size_t)out[SPL_WPTM];
    out[SPL_TSM] = (int)((dim[0] + wptm - 1) / wptm * wptm);
    out[SPL_TSK] *= 2;
    return smallest >= 128 && out[SPL_TSN] == 256 && (size_t)out[SPL_TSM] < smallest &&
           regblock_valid(device, out);
}

/* The plan: with `tuned` (the tuning database's or the tuner's tile and
 * slices), those, the slices cut to whole K steps each and to what the
 * workspace allows; else, of the device's rows that it can run, the tile
 * and number of slices that the model puts fastest (on a tie, the fewer
 * slices, then the earlier row). Slices take SPLITK_MIN_SLICE of K at
 * least. A device that can run no row takes the last, shrunk until it can
 * (as fit_regblock). */
void splitk_plan_of(const struct clmem_device *device, const size_t dim[3], const int *tuned,
                    struct splitk_plan *plan)
{
    size_t most = splitk_max_slices(device, dim);
    memset(plan, 0, sizeof *plan);
    plan->seconds = -1.0;
    int row[CLMEM_MAX_PARAMS];
    if (tuned) {
        memcpy(row, tuned, sizeof row);
        row[SPL_RATE1] = row[SPL_RATEU] = row[SPL_UNITS] = 1000; /* no model to weigh */
        size_t s = (size_t)tuned[SPL_SPLITS] < most ? (size_t)tuned[SPL_SPLITS] : most;
        /* Where K's steps do not fill s slices (33 steps in 8: slices of 5
         * fill 7), the most slices below s that they fill. */
        for (; s >= 1 && plan->seconds < 0; s--)
            splitk_consider(device, dim, row, s, s, plan);
        if (plan->seconds >= 0)
            return;
        memset(plan, 0, sizeof *plan); /* no slices fit the device's loop limit: the model's plan */
        plan->seconds = -1.0;
    }
    const struct clmem_param_row *rows[16];
    enum clmem_param_level level;
    size_t n = clmem_param_lookup(&splitk_table, device, rows, CLMEM_ARRAY_SIZE(rows), &level);
    size_t cap = dim[2] / SPLITK_MIN_SLICE < most ? dim[2] / SPLITK_MIN_SLICE : most;
    for (size_t i = 0; i < n; i++)
        if (regblock_valid(device, rows[i]->values) && splitk_row_kind(device, rows[i]))
            splitk_consider(device, dim, rows[i]->values, 1, cap ? cap : 1, plan);
    for (size_t i = 0; i < n; i++)
        if (splitk_row_kind(device, rows[i]) && splitk_fitted(device, dim, rows, n, i, row))
            splitk_consider(device, dim, row, 1, cap ? cap : 1, plan);
    if (plan->seconds >= 0 || n == 0)
        return;
    memcpy(row, rows[n - 1]->values, sizeof row);
    while (!regblock_valid(device, row) && row[SPL_TSM] > row[SPL_WPTM]) {
        row[SPL_TSM] /= 2;
        row[SPL_TSN] /= 2;
    }
    splitk_consider(device, dim, row, 1, cap ? cap : 1, plan);
}

/* What the plan is, as splitk's note and auto's reason say it: "64x128
 * tiles, 64 blocks, K in 8 slices of 128 steps: 512 work-groups". */
void splitk_describe(const struct splitk_plan *plan, char *out, size_t size)
{
    size_t slices = (size_t)plan->p[SPL_SPLITS];
    int len = snprintf(out, size, "%dx%d tiles, %zu block%s, ", plan->p[SPL_TSM], plan->p[SPL_TSN],
                       plan->blocks, plan->blocks == 1 ? "" : "s");
    if (len < 0 || (size_t)len >= size)
        return;
    if (slices > 1)
        snprintf(out + len, size - (size_t)len, "K in %zu slices of %zu step%s: %zu work-groups",
                 slices, plan->slice_steps, plan->slice_steps == 1 ? "" : "s",
                 plan->blocks * slices);
    else
        snprintf(out + len, size - (size_t)len, "K in one slice");
}

void auto_shape_of(const struct clmem_device *device, const size_t dim[3], const int rb[],
                   struct auto_shape *f)
{
    memset(f, 0, sizeof *f);
    memcpy(f->dim, dim, sizeof f->dim);
    const double *at = clmem_param_rates(param_row(&auto_thresholds_table, device)),
                 *rates = clmem_param_rates(param_row(&auto_rates_table, device));
    f->splitk_ratio = at[AT_SPLITK_RATIO];
    f->loss[AUTO_LOSS_UNALIGNED] = at[AT_UNALIGNED_LOSS];
    f->loss[AUTO_LOSS_ALIGNED] = at[AT_ALIGNED_LOSS];
    memcpy(f->rb, rb, sizeof f->rb);
    const size_t tile[3] = {(size_t)rb[P_TSM], (size_t)rb[P_TSN], (size_t)rb[P_TSK]};
    double m = (double)dim[0], n = (double)dim[1], k = (double)dim[2], padded[3];
    f->cut = -1;
    for (int d = 0; d < 3; d++) {
        padded[d] = (double)((dim[d] + tile[d] - 1) / tile[d] * tile[d]);
        if (f->cut < 0 && dim[d] % tile[d])
            f->cut = d;
    }
    f->unaligned = dim[2] % 4 ? 2 : dim[1] % 4 ? 1 : -1;
    struct stream_k_plan plan = stream_k_plan_of(device, rb, dim);
    f->blocks = plan.blocks;
    f->units = device->compute_units;
    splitk_plan_of(device, dim, NULL, &f->split);
    f->split_ratio = 0;
    if (f->split.p[SPL_SPLITS] > 1 || memcmp(f->split.p, rb, SPL_SPLITS * sizeof(int))) {
        const struct clmem_param_row *rows[16];
        enum clmem_param_level level;
        size_t n = clmem_param_lookup(&splitk_table, device, rows, CLMEM_ARRAY_SIZE(rows), &level),
               per;
        for (size_t i = 0; i < n && !f->split_ratio; i++)
            if (!memcmp(rows[i]->values, rb, SPL_SPLITS * sizeof(int))) {
                f->rb_rate = rows[i]->values[SPL_RATEU];
                f->split_ratio =
                    f->split.seconds / splitk_seconds(device, rows[i]->values, dim, 1,
                                                      plan.groups && plan.direct, &per);
            }
    }
    size_t groups = (size_t)device->compute_units * (size_t)(rb[P_SK_UNITS] ? rb[P_SK_UNITS] : 1);
    if (groups == 0)
        groups = 1;
    f->last_fill = plan.blocks % groups ? (double)(plan.blocks % groups) / (double)groups : 1.0;
    if (plan.groups && !plan.direct) {
        double waves = (double)plan.blocks / (double)groups;
        f->wave_gain = 1.0 - waves / ceil(waves);
    }
    /* Whole tiles: multiplied in place, no copies. Else M and N read and
     * written padded, P read back out of its padded copy: three launches
     * more, and the padded product's extra flops. */
    if (f->cut >= 0) {
        double flops = 2.0 * m * n * k,
               bytes = sizeof(float) * (m * k + padded[0] * padded[2] + k * n +
                                        padded[2] * padded[1] + 2.0 * m * n);
        f->pad_cost =
            padded[0] * padded[1] * padded[2] / (m * n * k) - 1.0 +
            (bytes / rates[AR_BYTES] + 3.0 * rates[AR_LAUNCH_S]) * rates[AR_FLOPS] / flops;
    }
}

/* ---- --variant auto: the variant the model puts fastest ----
 *
 * Which kernels are candidates is the device's kind: a CPU runs the CPU
 * kernels (cpu_blocked, a BLIS-style kernel that keeps the vector
 * registers full, and panel where its packed copies do not fit), a GPU the
 * GPU ones (regblock, regblock_padded, splitk), any other device regblock,
 * which has rows for any device (a device that says it is every type, as
 * Oclgrind does, is weighed as a CPU). Among a GPU's, the model weighs
 * each one's time (auto_estimates) from the size and the device's rates
 * and thresholds in the parameter database (auto_rates, auto_thresholds,
 * splitk's rows: what `clmem tune` fits), the same code for every GPU;
 * the fastest that can take the size runs. */
enum { AUTO_GPU_CANDIDATES = 3 };
/* In this order on a tie: splitk where the model puts it at its
 * threshold, regblock's kernel without copies before padded's. Where
 * regblock's blocks fill the units, splitk last: its sums and second
 * launch are costs the model's rates round away. */
static const int auto_gpu_candidates[AUTO_GPU_CANDIDATES] = {SPLITK, REGBLOCK, REGBLOCK_PADDED};
static const int auto_ties_idle[AUTO_GPU_CANDIDATES] = {0, 1, 2},
                 auto_ties_busy[AUTO_GPU_CANDIDATES] = {1, 2, 0};

/* What regblock loses at this size's edges, as a share of its time: where
 * a tile is cut, auto_thresholds' loss (unaligned where K or N is not a
 * multiple of 4: rows read by vload4 and checked float by float; aligned
 * else: only the edge blocks checked), plus the share of a part-full last
 * wave that its stream-K cannot share (the blocks it would share cross
 * P's edges). */
static double auto_edge_loss(const struct auto_shape *f)
{
    return f->cut < 0 ? 0.0
                      : f->loss[f->unaligned >= 0 ? AUTO_LOSS_UNALIGNED : AUTO_LOSS_ALIGNED] +
                            f->wave_gain;
}

/* splitk's plan differs from regblock's kernel, and either regblock's
 * blocks leave compute units idle, or its plan's tile runs at a higher
 * rate than regblock's (both splitk rows: regblock's tile weighed at its
 * own rate in as many waves as its blocks make, against the faster tile
 * in slices past one wave). With every unit busy and no faster tile,
 * slices only refill a last wave, which regblock's stream-K or padding
 * refill without the slices' sums (those weigh its edges). */
static int auto_splitk_candidate(const struct auto_shape *f)
{
    int other_tile = memcmp(f->split.p, f->rb, SPL_SPLITS * sizeof(int)),
        differs = f->split.p[SPL_SPLITS] > 1 || other_tile,
        faster_tile = other_tile && f->split_ratio > 0 && f->split.rate > f->rb_rate;
    return differs && (f->blocks < f->units || faster_tile);
}

/* Each GPU candidate's time (auto_gpu_candidates' order), in units of
 * the product's time at the device's SGEMM rate: regblock 1 plus its edge
 * loss; regblock_padded 1 plus its padding's cost (pad_cost: the copies,
 * their launches, the padded product's extra flops); splitk, where it is
 * a candidate, the better of those two times the split model's ratio of
 * its plan's time to regblock's, over splitk_ratio (the model's bias with
 * a margin, as `clmem tune` fits it). INFINITY: not a candidate. */
static void auto_estimates(const struct auto_shape *f, double est[AUTO_GPU_CANDIDATES])
{
    double regblock = 1.0 + auto_edge_loss(f), padded = 1.0 + (f->cut >= 0 ? f->pad_cost : 0.0),
           better = regblock < padded ? regblock : padded;
    est[0] = auto_splitk_candidate(f) && f->splitk_ratio > 0
                 ? better * f->split_ratio / f->splitk_ratio
                 : INFINITY;
    est[1] = regblock;
    est[2] = padded;
}

/* NULL where the variant can take the size on the device, else why not. */
const char *auto_misfit(const struct clmem_device *device, int variant, const size_t dim[3],
                        const int rb[], char *why, size_t size)
{
    switch (variant) {
    case REGBLOCK: return regblock_loop_misfit(device, rb, dim[2], why, size);
    case REGBLOCK_PADDED:
        return regblock_padded_misfit(device, dim, why, size)
                   ? why
                   : regblock_loop_misfit(device, rb, dim[2], why, size);
    case CPU_BLOCKED: return cpu_blocked_misfit(device, dim, why, size);
    default: return NULL;
    }
}

/* What the model weighed, as the note says it: "N=1000 not a multiple of
 * 128; last wave 45% full, regblock cannot share it; padding ~15% vs
 * regblock's loss ~34%". */
static void auto_describe(const struct clmem_device *device, int variant,
                          const struct auto_shape *f, const char *passed, char *why, size_t size)
{
    static const char dim_name[3] = {'M', 'N', 'K'};
    size_t len = 0;
    why[0] = '\0';
#define SAY(...)                                                                                   \
    do {                                                                                           \
        if (len < size)                                                                            \
            len += (size_t)snprintf(why + len, size - len, "%s", len ? "; " : "");                 \
        if (len < size)                                                                            \
            len += (size_t)snprintf(why + len, size - len, __VA_ARGS__);                           \
    } while (0)
    if (device->type & CL_DEVICE_TYPE_CPU)
        SAY("a CPU");
    else if (!(device->type & CL_DEVICE_TYPE_GPU))
        SAY("neither a CPU nor a GPU");
    else if (variant == SPLITK) {
        const int *k = f->split.p;
        SAY("%zu blocks of %dx%d for %zu compute units", f->blocks, f->rb[P_TSM], f->rb[P_TSN],
            f->units);
        if (k[SPL_SPLITS] > 1)
            SAY("%dx%d tiles in %d K slices: %zu work-groups", k[SPL_TSM], k[SPL_TSN],
                k[SPL_SPLITS], f->split.blocks * (size_t)k[SPL_SPLITS]);
        else
            SAY("%dx%d tiles: %zu work-groups", k[SPL_TSM], k[SPL_TSN], f->split.blocks);
        if (f->split_ratio)
            SAY("model: %.2fx regblock's time", f->split_ratio);
    } else if (f->cut < 0) {
        SAY("whole %dx%dx%d tiles", f->rb[P_TSM], f->rb[P_TSN], f->rb[P_TSK]);
    } else {
        SAY("%c=%zu not a multiple of %d", dim_name[f->cut], f->dim[f->cut], f->rb[P_TSM + f->cut]);
        if (f->unaligned >= 0)
            SAY("%c=%zu not a multiple of 4", dim_name[f->unaligned], f->dim[f->unaligned]);
        if (f->wave_gain > 0)
            SAY("last wave %.0f%% full, regblock cannot share it", 100.0 * f->last_fill);
        /* Padding's cost against what regblock loses: why padded, or why
         * not. */
        double loss = 100.0 * auto_edge_loss(f);
        if (f->pad_cost < 1.0)
            SAY("padding ~%.0f%% vs regblock's loss ~%.0f%%", 100.0 * f->pad_cost, loss);
        else
            SAY("padding ~%.0fx the product vs regblock's loss ~%.0f%%", f->pad_cost, loss);
    }
    if (passed)
        SAY("%s does not fit", passed);
#undef SAY
}

/* The variant the model chooses for a size on a device with regblock's
 * parameters rb (an index of `variants`, matmul's), and why. With
 * CLMEM_DEBUG, each GPU candidate's estimate beside the choice. */
int auto_decide(const struct clmem_device *device, const size_t dim[3], const int rb[],
                const struct clmem_variant *variants, char *why, size_t size)
{
    struct auto_shape f;
    auto_shape_of(device, dim, rb, &f);
    int order[AUTO_GPU_CANDIDATES + 1]; /* the kind's candidates, then regblock */
    double est[AUTO_GPU_CANDIDATES];
    size_t n = 0;
    if (device->type & CL_DEVICE_TYPE_CPU) {
        order[n++] = CPU_BLOCKED;
        order[n++] = PANEL;
    } else if (device->type & CL_DEVICE_TYPE_GPU) {
        double weighed[AUTO_GPU_CANDIDATES];
        auto_estimates(&f, weighed);
        /* The candidates by their estimates, ties in the order above (an
         * insertion sort of three). */
        const int *ties = f.blocks < f.units ? auto_ties_idle : auto_ties_busy;
        for (size_t i = 0; i < AUTO_GPU_CANDIDATES; i++) {
            double e = weighed[ties[i]];
            size_t at = n++;
            while (at > 0 && e < est[at - 1]) {
                order[at] = order[at - 1];
                est[at] = est[at - 1];
                at--;
            }
            order[at] = auto_gpu_candidates[ties[i]];
            est[at] = e;
        }
    }
    order[n++] = REGBLOCK; /* any device; and where none of a kind fits */
    if (clmem_debug_enabled(CLMEM_DEBUG_BUILD)) {
        fprintf(stderr,
                "clmem: auto at %zux%zux%zu: tiles %dx%dx%d, cut %d, unaligned %d, last wave "
                "%.2f full, wave gain %.3f, padding cost %.3f; %zu blocks on %zu units, splitk "
                "%dx%d in %d slices, %.1f us, %.3f of regblock's time\n",
                dim[0], dim[1], dim[2], rb[P_TSM], rb[P_TSN], rb[P_TSK], f.cut, f.unaligned,
                f.last_fill, f.wave_gain, f.pad_cost, f.blocks, f.units, f.split.p[SPL_TSM],
                f.split.p[SPL_TSN], f.split.p[SPL_SPLITS], 1e6 * f.split.seconds, f.split_ratio);
        if ((device->type & CL_DEVICE_TYPE_GPU) && !(device->type & CL_DEVICE_TYPE_CPU)) {
            fprintf(stderr, "clmem: auto's model (time over the product's at the SGEMM rate):");
            for (size_t i = 0; i < AUTO_GPU_CANDIDATES; i++)
                fprintf(stderr, " %s %.3f%s", variants[order[i]].name, est[i],
                        isinf(est[i]) ? " (not a candidate)" : "");
            fprintf(stderr, "\n");
        }
    }
    const char *passed = NULL;
    char misfit[256];
    for (size_t i = 0; i < n; i++) {
        if (i < AUTO_GPU_CANDIDATES && (device->type & CL_DEVICE_TYPE_GPU) &&
            !(device->type & CL_DEVICE_TYPE_CPU) && isinf(est[i]))
            continue;
        if (auto_misfit(device, order[i], dim, rb, misfit, sizeof misfit)) {
            passed = variants[order[i]].name;
            continue;
        }
        auto_describe(device, order[i], &f, passed, why, size);
        return order[i];
    }
    snprintf(why, size, "no variant fits");
    return REGBLOCK;
}
