/* matmul's model fitted on a device (clmem tune, after its tiles): the
 * rates and thresholds that --variant auto and splitk's planner weigh
 * (matmul_model.c), each measured here with the device's own tiles (its
 * fitted regblock rows, in place when this runs), as rows of the
 * parameter database's tables. What each row means: matmul_internal.h. */
#include "workloads/matmul_internal.h"

#include "harness/harness.h"
#include "io/io.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The work-groups of a tile each compute unit runs at once in the rate
 * RATEU stands for, as the shipped rows count them. */
#define FIT_UNITS 4
/* The inner dimension of the shapes that time a tile's rates: long
 * enough that the K loop, not the launch, is the time. */
#define FIT_INNER_GPU 1024
#define FIT_INNER_CPU 256
/* The cube regblock's SGEMM rate and its edge losses are measured at. */
#define FIT_SIZE_GPU 4096
#define FIT_SIZE_CPU 512
/* The most tiles whose splitk rates are fitted (a GPU's; a CPU's one). */
#define FIT_MAX_TILES 8
/* A measured loss past this is no loss the model can weigh (a shape the
 * device runs another way): the shipped value stays. */
#define FIT_MAX_LOSS 2.0
/* The waves of regblock's blocks stream-K's units are weighed at (the
 * last one partly full, as at most shapes), and the groups a unit tried. */
static const double fit_sk_waves[] = {1.5, 2.5};
#define FIT_SK_MAX_UNITS 2
/* splitk_ratio's bounds: the margin the model's bias may move it to. */
#define FIT_MIN_SPLITK_RATIO 0.5
#define FIT_MAX_SPLITK_RATIO 1.5

static int is_cpu(const struct clmem_device *device)
{
    return (device->type & CL_DEVICE_TYPE_CPU) && !(device->type & CL_DEVICE_TYPE_GPU);
}

/* regblock at m x n x k: GFLOP/s (its metric). */
static int regblock_at(struct clmem_ctx *ctx, struct clmem_fit *fit, size_t m, size_t n, size_t k,
                       double *gflops, struct clmem_error *err)
{
    char size[96];
    double ms;
    snprintf(size, sizeof size, "%zux%zux%zu", m, n, k);
    return clmem_fit_measure(ctx, fit, "regblock", size, NULL, gflops, &ms, err);
}

/* A tile's rate with `per_unit` work-groups a compute unit, per mille of
 * a unit's share of `unit_flops`: splitk with the tile in one K slice,
 * over as many blocks as the units run at once. */
static int tile_rate(struct clmem_ctx *ctx, struct clmem_fit *fit, const int *tile, size_t per_unit,
                     double unit_flops, double *rate, struct clmem_error *err)
{
    const struct clmem_device *device = &ctx->device;
    size_t units = device->compute_units ? device->compute_units : 1, blocks = units * per_unit,
           across = (size_t)ceil(sqrt((double)blocks)), down = (blocks + across - 1) / across;
    size_t inner = is_cpu(device) ? FIT_INNER_CPU : FIT_INNER_GPU;
    int values[CLMEM_MAX_PARAMS] = {0};
    memcpy(values, tile, SPL_SPLITS * sizeof(int));
    values[SPL_SPLITS] = 1;
    char size[96];
    snprintf(size, sizeof size, "%zux%zux%zu", down * (size_t)tile[SPL_TSM],
             across * (size_t)tile[SPL_TSN], inner);
    double gflops, ms;
    int status = clmem_fit_measure(ctx, fit, "splitk", size, values, &gflops, &ms, err);
    if (status)
        return status;
    /* The blocks past units x per_unit (a rounded grid) are in the GFLOP/s:
     * a unit's rate is the metric over the units. */
    *rate = 1000.0 * gflops * 1e9 / (double)units / unit_flops;
    return CLMEM_OK;
}

/* Adds `tile` to tiles[0..*k) where it is new and there is room. */
static void fit_tile_add(const int *tile, int tiles[][CLMEM_MAX_PARAMS], size_t *k, size_t max)
{
    for (size_t j = 0; j < *k; j++)
        if (!memcmp(tiles[j], tile, SPL_SPLITS * sizeof(int)))
            return;
    if (*k < max)
        memcpy(tiles[(*k)++], tile, sizeof tiles[0]);
}

/* The thin tiles of a device's first regblock tile (its fitted one): its
 * rows or its columns cut by 2 and 4, and both by 2, each work-item's
 * share cut with them where the tile is narrower than it. A device no
 * shipped row knows has no thin tiles else, and thin shapes run on them
 * (P of few rows or columns in K slices). */
static void fit_thin_tiles(const struct clmem_device *device, const int *rb,
                           int tiles[][CLMEM_MAX_PARAMS], size_t *k, size_t max)
{
    static const int cuts[][2] = {{2, 1}, {1, 2}, {4, 1}, {1, 4}, {2, 2}};
    for (size_t c = 0; c < CLMEM_ARRAY_SIZE(cuts); c++) {
        int t[CLMEM_MAX_PARAMS] = {0};
        memcpy(t, rb, SPL_SPLITS * sizeof(int));
        t[SPL_TSM] /= cuts[c][0];
        t[SPL_TSN] /= cuts[c][1];
        if (t[SPL_WPTM] > t[SPL_TSM])
            t[SPL_WPTM] = t[SPL_TSM];
        if (t[SPL_WPTN] > t[SPL_TSN])
            t[SPL_WPTN] = t[SPL_TSN];
        if (t[SPL_TSM] >= 16 && t[SPL_TSN] >= 16 && regblock_valid(device, t))
            fit_tile_add(t, tiles, k, max);
    }
}

/* The tiles whose rates are fitted, at most `max`, distinct: the
 * device's regblock tiles (its fitted rows first), so that auto can set
 * regblock's time beside splitk's; on a GPU, the first one's thin tiles;
 * then the shipped splitk rows' tiles the device can run (the narrower
 * ones thin shapes take). */
static size_t fit_tiles(const struct clmem_device *device, int tiles[][CLMEM_MAX_PARAMS],
                        size_t max)
{
    const struct clmem_param_row *rows[16];
    enum clmem_param_level level;
    size_t k = 0;
    for (int table = 0; table < 2; table++) {
        if (table && k && !is_cpu(device)) {
            int first[CLMEM_MAX_PARAMS];
            memcpy(first, tiles[0], sizeof first);
            fit_thin_tiles(device, first, tiles, &k, max);
        }
        size_t n = table ? clmem_param_lookup_shipped(&splitk_table, device, rows,
                                                      CLMEM_ARRAY_SIZE(rows), &level)
                         : clmem_param_lookup(&regblock_table, device, rows, CLMEM_ARRAY_SIZE(rows),
                                              &level);
        for (size_t i = 0; i < n; i++) {
            int rb[CLMEM_MAX_PARAMS] = {0};
            if (table && !regblock_valid(device, rows[i]->values))
                continue;
            if (table)
                memcpy(rb, rows[i]->values, SPL_SPLITS * sizeof(int));
            else
                fit_regblock(device, rows[i]->values, rb);
            fit_tile_add(rb, tiles, &k, max);
        }
    }
    return k;
}

size_t matmul_fit_tiles(const struct clmem_device *device, char *out, size_t size)
{
    int tiles[FIT_MAX_TILES][CLMEM_MAX_PARAMS];
    size_t n = fit_tiles(device, tiles, is_cpu(device) ? 1 : FIT_MAX_TILES), len = 0;
    if (size)
        out[0] = '\0';
    for (size_t i = 0; i < n && len < size; i++)
        len += (size_t)snprintf(out + len, size - len, "%s%dx%dx%d/%dx%d", i ? " " : "",
                                tiles[i][SPL_TSM], tiles[i][SPL_TSN], tiles[i][SPL_TSK],
                                tiles[i][SPL_WPTM], tiles[i][SPL_WPTN]);
    return n;
}

/* auto's thresholds (auto_thresholds' row), with regblock's tile rb and
 * its rate at s cubed. */
static int fit_thresholds(struct clmem_ctx *ctx, struct clmem_fit *fit, const int *rb, size_t s,
                          double gflops, struct clmem_error *err)
{
    const struct clmem_device *device = &ctx->device;
    int status;
    char note[256];
    const double *shipped = clmem_param_rates(param_row(&auto_thresholds_table, device));
    double thresholds[3] = {shipped[AT_SPLITK_RATIO], shipped[AT_UNALIGNED_LOSS],
                            shipped[AT_ALIGNED_LOSS]};
    double unaligned, aligned;
    if ((status = regblock_at(ctx, fit, s, s, s + 1, &unaligned, err)) ||
        (status = regblock_at(ctx, fit, s, s, s + 4, &aligned, err)))
        return status;
    double loss_u = gflops / unaligned - 1, loss_a = gflops / aligned - 1;
    if (loss_u >= 0 && loss_u < FIT_MAX_LOSS)
        thresholds[AT_UNALIGNED_LOSS] = loss_u;
    if (loss_a >= 0 && loss_a < FIT_MAX_LOSS)
        thresholds[AT_ALIGNED_LOSS] = loss_a;
    /* splitk against regblock where regblock's blocks leave units idle:
     * the model's ratio of their times against the measured one. The
     * shape: regblock's blocks a quarter of the units, K twice the cube's,
     * where the plan takes a few slices, as at the shapes auto weighs it
     * at (a plan of tens of slices is one the model weighs far from any
     * other). Only GPUs (auto runs cpu_blocked on CPUs). */
    char split_note[160];
    {
        size_t units = device->compute_units ? device->compute_units : 1,
               side = (size_t)ceil(sqrt((double)units / 4.0));
        size_t dim[3] = {side * (size_t)rb[P_TSM], side * (size_t)rb[P_TSN], 2 * s};
        struct auto_shape f;
        auto_shape_of(device, dim, rb, &f);
        char size[96];
        snprintf(size, sizeof size, "%zux%zux%zu", dim[0], dim[1], dim[2]);
        double g_split, g_reg, ms;
        if ((status = clmem_fit_measure(ctx, fit, "splitk", size, NULL, &g_split, &ms, err)) ||
            (status = regblock_at(ctx, fit, dim[0], dim[1], dim[2], &g_reg, err)))
            return status;
        double measured = g_reg / g_split, bias = f.split_ratio > 0 ? measured / f.split_ratio : 0;
        if (bias > 0) {
            double ratio = shipped[AT_SPLITK_RATIO] / bias;
            thresholds[AT_SPLITK_RATIO] = ratio < FIT_MIN_SPLITK_RATIO   ? FIT_MIN_SPLITK_RATIO
                                          : ratio > FIT_MAX_SPLITK_RATIO ? FIT_MAX_SPLITK_RATIO
                                                                         : ratio;
        }
        snprintf(split_note, sizeof split_note,
                 "at %s splitk took %.2fx regblock's time, the model %.2fx", size, measured,
                 f.split_ratio);
    }
    snprintf(note, sizeof note, "%s; regblock at K=%zu and %zu: %.2f and %.2f of its rate",
             split_note, s + 1, s + 4, unaligned / gflops, aligned / gflops);
    return clmem_fit_add(fit, device, &auto_thresholds_table, thresholds, note, err);
}

/* regblock at the shapes stream-K is weighed at with the tile's row's
 * SK_UNITS set to sk (kept, so the run reads it): their times summed. */
static int stream_k_time(struct clmem_ctx *ctx, struct clmem_fit *fit, struct clmem_pdb_row *row,
                         int sk, char shapes[][96], size_t n_shapes, double *ms,
                         struct clmem_error *err)
{
    int status;
    row->values[P_SK_UNITS] = sk;
    if ((status = clmem_fit_keep(ctx, fit, err)))
        return status;
    *ms = 0;
    for (size_t i = 0; i < n_shapes; i++) {
        double gflops, t;
        if ((status = clmem_fit_measure(ctx, fit, "regblock", shapes[i], NULL, &gflops, &t, err)))
            return status;
        *ms += t;
    }
    return CLMEM_OK;
}

/* Stream-K's groups a unit (SK_UNITS) for regblock's tile rb, in its
 * fitted row (matmul.h): the regblock step searches tiles at a size of whole waves,
 * where stream-K changes nothing, and a device no shipped row knows has 0
 * (a group per block: the last wave's units idle). regblock timed at
 * shapes whose last wave is part full with 0 to FIT_SK_MAX_UNITS groups a
 * unit; the fastest kept where it beats 0 beyond the tuner's noise
 * threshold. Out of its share or cancelled, the row is put back. */
int matmul_fit_stream_k(struct clmem_ctx *ctx, struct clmem_fit *fit, const int *rb, size_t inner,
                        struct clmem_error *err)
{
    const struct clmem_device *device = &ctx->device;
    size_t first = fit->n_rows, adopted, units = device->compute_units ? device->compute_units : 1;
    int status = clmem_fit_adopt(fit, device, &regblock_table, &adopted, err);
    struct clmem_pdb_row *row = NULL;
    for (size_t i = first; i < first + adopted && !status && !row; i++) {
        int same = 1;
        for (int c = 0; c < P_SK_UNITS; c++)
            same = same && fit->rows[i].values[c] == rb[c];
        if (same)
            row = &fit->rows[i];
    }
    if (status || !row) {
        fit->n_rows = first; /* no fitted row of the tile: nothing to set */
        return status;
    }
    char shapes[CLMEM_ARRAY_SIZE(fit_sk_waves)][96];
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(fit_sk_waves); i++) {
        size_t blocks = (size_t)ceil(fit_sk_waves[i] * (double)units),
               across = (size_t)ceil(sqrt((double)blocks)), down = blocks / across;
        snprintf(shapes[i], sizeof shapes[i], "%zux%zux%zu", down * (size_t)rb[P_TSM],
                 across * (size_t)rb[P_TSN], inner);
    }
    const double before = row->values[P_SK_UNITS];
    double times[FIT_SK_MAX_UNITS + 1] = {0};
    int best = 0;
    for (int sk = 0; sk <= FIT_SK_MAX_UNITS && !status; sk++) {
        status = stream_k_time(ctx, fit, row, sk, shapes, CLMEM_ARRAY_SIZE(shapes), &times[sk], err);
        if (!status && times[sk] < times[best] * (1 - CLMEM_TUNE_THRESHOLD / 100))
            best = sk;
    }
    if (status) {
        struct clmem_error ignored = {0};
        row->values[P_SK_UNITS] = before;
        clmem_fit_keep(ctx, fit, &ignored);
        fit->n_rows = first;
        return status;
    }
    row->values[P_SK_UNITS] = best;
    char note[sizeof row->provenance.note];
    int len = snprintf(note, sizeof note,
                       "SK_UNITS %d: regblock at %s and %s took %.3f, %.3f, %.3f ms with 0, 1, 2 "
                       "(model step); ",
                       best, shapes[0], shapes[1], times[0], times[1], times[2]);
    /* The row's own note after it, as much as fits. */
    if (len > 0 && (size_t)len < sizeof note) {
        size_t take = strnlen(row->provenance.note, sizeof note - (size_t)len - 1);
        memmove(note + len, row->provenance.note, take);
        note[(size_t)len + take] = '\0';
    }
    memcpy(row->provenance.note, note, sizeof note);
    return clmem_fit_keep(ctx, fit, err);
}

/* splitk's rows, each tile's rates against unit_flops. */
static int fit_splitk_rows(struct clmem_ctx *ctx, struct clmem_fit *fit, double unit_flops,
                           struct clmem_error *err)
{
    const struct clmem_device *device = &ctx->device;
    int cpu = is_cpu(device), status;
    char note[256];
    /* splitk's rows: each of the device's tiles, its rate with one
     * work-group a unit and with FIT_UNITS. Out of its share of the
     * budget, the rows done stay. */
    int tiles[FIT_MAX_TILES][CLMEM_MAX_PARAMS];
    size_t n = fit_tiles(device, tiles, cpu ? 1 : FIT_MAX_TILES);
    for (size_t i = 0; i < n; i++) {
        double r1, ru;
        if ((status = tile_rate(ctx, fit, tiles[i], 1, unit_flops, &r1, err)) ||
            (status = tile_rate(ctx, fit, tiles[i], FIT_UNITS, unit_flops, &ru, err)))
            return status;
        double row[CLMEM_MAX_PARAMS] = {0};
        for (int c = 0; c < SPL_SPLITS; c++)
            row[c] = tiles[i][c];
        row[SPL_RATE1] = round(r1);
        row[SPL_RATEU] = round(ru > r1 ? ru : r1);
        row[SPL_UNITS] = cpu ? 1 : FIT_UNITS;
        snprintf(note, sizeof note, "splitk %dx%dx%d in one slice, 1 and %d work-groups a unit",
                 tiles[i][SPL_TSM], tiles[i][SPL_TSN], tiles[i][SPL_TSK], FIT_UNITS);
        if ((status = clmem_fit_add(fit, device, &splitk_table, row, note, err)))
            return status;
    }
    return CLMEM_OK;
}

int matmul_fit(struct clmem_ctx *ctx, struct clmem_fit *fit, struct clmem_error *err)
{
    const struct clmem_device *device = &ctx->device;
    int cpu = is_cpu(device), status;
    size_t units = device->compute_units ? device->compute_units : 1;
    double bytes = fit->peak.bandwidth * 1e9, launch_s = fit->peak.launch_us * 1e-6;
    if (!(bytes > 0) || !(launch_s > 0))
        return clmem_fail(err, CLMEM_ERR_VERIFY, "the device's peaks were not measured");
    /* The SGEMM rate: regblock, whole tiles, at a size that fills a GPU
     * many times over (a CPU's, where auto runs cpu_blocked and weighs
     * these rates only for padding, one whose check takes seconds), rounded
     * to its tile. */
    int rb[CLMEM_MAX_PARAMS];
    size_t s = cpu ? FIT_SIZE_CPU : FIT_SIZE_GPU;
    builtin_regblock(device, s, s, rb);
    s = s / (size_t)rb[P_TSM] * (size_t)rb[P_TSM];
    s = s / (size_t)rb[P_TSN] * (size_t)rb[P_TSN];
    double gflops;
    if ((status = regblock_at(ctx, fit, s, s, s, &gflops, err)))
        return status;
    double flops = gflops * 1e9, unit_flops = flops / (double)units;
    char note[256];
    snprintf(note, sizeof note,
             "regblock %dx%dx%d at %zu cubed: %.1f GFLOP/s; copy %.1f GB/s and a launch %.2f us "
             "(peak)",
             rb[P_TSM], rb[P_TSN], rb[P_TSK], s, gflops, fit->peak.bandwidth, fit->peak.launch_us);
    if ((status = clmem_fit_add(fit, device, &auto_rates_table,
                                (const double[]){flops, bytes, launch_s}, note, err)))
        return status;
    double mhz = device->clock_mhz ? device->clock_mhz : 1;
    snprintf(note, sizeof note,
             "a compute unit's share of %.1f GFLOP/s over %zu units, at %.0f MHz", gflops, units,
             mhz);
    if ((status = clmem_fit_add(fit, device, &splitk_rates_table,
                                (const double[]){unit_flops, mhz, bytes, launch_s}, note, err)))
        return status;

    /* splitk's tiles, then, with those rates in place (kept and read
     * again), regblock's losses at its edges and the split model's bias.
     * Only GPUs weigh the thresholds (auto runs the CPU kernels on CPUs). */
    if ((status = fit_splitk_rows(ctx, fit, unit_flops, err)) || cpu ||
        (status = clmem_fit_keep(ctx, fit, err)) ||
        (status = matmul_fit_stream_k(ctx, fit, rb, s, err)))
        return status;
    return fit_thresholds(ctx, fit, rb, s, gflops, err);
}
