/* Matrix multiplication, the textbook family (Kirk & Hwu ch. 4-5):
 * P (rows x cols) = M (rows x inner) x N (inner x cols). */
#include "workloads/matmul.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* splitk's plan for a size on a device (splitk_plan_of): its tiles, as
 * regblock's parameters (SPL_TSM..SPL_WPTN), and the K slices
 * (SPL_SPLITS), with what they make of the size. */
enum { SPL_TSM, SPL_TSN, SPL_TSK, SPL_WPTM, SPL_WPTN, SPL_SPLITS };
struct splitk_plan {
    int p[CLMEM_MAX_PARAMS];
    size_t blocks;      /* of TSM x TSN over P */
    size_t steps;       /* K steps of TSK */
    size_t slice_steps; /* a slice's (the last may have fewer) */
    double seconds;     /* what the model estimates (splitk_seconds) */
};

/* A run's state: the problem on the host, the parameters chosen for the
 * device, the device's buffers. */
struct matmul_state {
    struct matmul_problem host;
    int block;                /* a block's run: its inputs are its caller's (matmul_block_setup) */
    cl_mem_flags p_flags;     /* P's, 0: write-only (its kernels only write it) */
    size_t tile;              /* TILE_WIDTH */
    int rb[CLMEM_MAX_PARAMS]; /* register-blocking parameters, P_TSM... */
    int panel_rows;           /* the panel kernel's PANEL_ROWS */
    int cb[CLMEM_MAX_PARAMS]; /* cpu_blocked's parameters, CB_VEC... */
    cl_mem dM, dN, dP;
    cl_mem dMp, dNp; /* cpu_blocked's packed copies of M and N */
    /* regblock_padded's: the dimensions rounded up to whole tiles (rows,
     * cols, inner), and its padded copies of M, N and P (none when the
     * dimensions are whole tiles already: it multiplies the run's own). */
    size_t padded[3];
    cl_mem dMpad, dNpad, dPpad;
    /* regblock_padded's stream-K plan (none: sk_groups 0), regblock's too
     * where sk_direct (the blocks it shares are whole blocks of P; both
     * have as many blocks): work-groups that share the K steps of the first
     * sk_tiles blocks, their sums of the blocks they share and a counter
     * per shared block. */
    size_t sk_groups, sk_tiles;
    int sk_direct;
    cl_mem dPartial, dArrived;
    /* splitk's plan (its tiles and K slices) and its workspace of the
     * slices' sums (none with one slice: it writes P). */
    struct splitk_plan split;
    cl_mem dWork;
    /* auto's choice where the run selects auto (else NULL), and why. */
    const struct clmem_variant *chosen;
    char chosen_why[128];
};

/* Output values checked in full up to this many multiply-adds of CPU
 * reference work; past it, whole rows spread over P are checked, so large
 * GPU runs stay verifiable in seconds. */
#define REFERENCE_BUDGET (1UL << 28)

enum {
    NAIVE,
    TILED,
    TILED_BOUNDS,
    COARSENED,
    REGBLOCK,
    REGBLOCK_PADDED,
    SPLITK,
    PANEL,
    CPU_BLOCKED,
    CLBLAST,
    OPENBLAS,
    AUTO
};

/* The parameter database's tables (data/params/; harness/params.c):
 * their columns, in values[] order, are the kernels' -D names.
 *
 * regblock's: P block per work-group (TSM x TSN), K step (TSK), P
 * elements per work-item (WPTM x WPTN; multiples of 4, as TSK, for the
 * kernel's float4s), looked up device -> family -> vendor -> any. Several
 * rows at a level are candidates, largest block first: the first that
 * gives at least half the compute units a work-group at the run's size is
 * used (a large block leaves most of a big GPU idle at small sizes, yet
 * beats smaller blocks once nearly every unit has one), else the last.
 * fit_regblock shrinks what a device cannot hold.
 * SK_UNITS: work-groups of the row's shape a compute unit runs at once,
 * where measured; regblock and regblock_padded then spread the blocks
 * past the last whole wave over that many groups per unit (stream-K, in
 * cl/matmul_regblock.cl); 0: a group per block. Not tuned: a tuned shape
 * takes the value of the row of the same shape, else 0. */
enum { P_TSM, P_TSN, P_TSK, P_WPTM, P_WPTN, P_SK_UNITS };
static const struct clmem_param_table regblock_table = {
    "matmul", "regblock", {"TSM", "TSN", "TSK", "WPTM", "WPTN", "SK_UNITS"},
    6,        0,          CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_CPU | CLMEM_PARAM_UNTYPED};

/* cpu_blocked's parameters (cl/matmul_cpu.cl): floats per vector (VEC:
 * the ISA's native width), rows of P per micro-tile (MR), vectors per
 * micro-tile row (NV: NR = VEC x NV columns), panels of M per block (MT:
 * the work-items that follow each other on a core share N's panel and,
 * block after block, M's MT panels in its L2 cache), work-items per
 * work-group (WG). The MR x NV accumulators, NV vectors of N and a
 * broadcast of M should fill the vector registers without spilling (as
 * BLIS's SGEMM micro-kernels do, seen from P's rows). Kept per CPU family,
 * which is the CPU's native vector width as its driver reports it (PoCL:
 * cpu-simd512, cpu-simd256, cpu-simd128); any other CPU takes the row
 * for any CPU (also Oclgrind, which says it is every type of device). */
enum { CB_VEC, CB_MR, CB_NV, CB_MT, CB_WG };
static const struct clmem_param_table cpu_blocked_table = {
    "matmul",
    "cpu_blocked",
    {"CPU_VEC", "CPU_MR", "CPU_NV", "CPU_MT", "CPU_WG"},
    5,
    0,
    CL_DEVICE_TYPE_CPU | CLMEM_PARAM_UNTYPED};

/* splitk's tiles (cl/matmul_splitk.cl: regblock's body), candidate rows
 * at the device's most specific level, as regblock's; the plan
 * (splitk_plan_of) takes the row and the number of K slices that its
 * model puts fastest at the size. With each tile, what the model weighs:
 * RATE1, how fast a compute unit multiplies running one work-group of the
 * tile, RATEU how fast running UNITS of them at once (its best; between
 * the two, in proportion), both per mille of a unit's share of the SGEMM
 * rate in splitk_rates. Several work-groups a unit hide the latency that
 * one leaves bare; smaller tiles reuse each value read less. regblock's
 * own rows are among them, so that auto can set its time beside
 * splitk's. */
enum { SPL_RATE1 = SPL_WPTN + 1, SPL_RATEU, SPL_UNITS };
static const struct clmem_param_table splitk_table = {
    "matmul",
    "splitk",
    {"SPLITK_TSM", "SPLITK_TSN", "SPLITK_TSK", "SPLITK_WPTM", "SPLITK_WPTN", "RATE1", "RATEU",
     "UNITS"},
    8,
    0,
    CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_CPU | CLMEM_PARAM_UNTYPED};

/* What a device does in a second, for splitk's model, by the kind of
 * device the model weighs it as (splitk_cpu): a compute unit's share of
 * regblock's SGEMM rate at a clock (scaled to the device's clock), the
 * copy bandwidth that the slices' sums go through, and a launch (the
 * second pass's). */
enum { SR_UNIT_FLOPS, SR_MHZ, SR_BYTES, SR_LAUNCH_S };
static const struct clmem_param_table splitk_rates_table = {
    "matmul",
    "splitk_rates",
    {"unit_flops", "mhz", "bytes", "launch_s"},
    4,
    1,
    CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_CPU};

/* What a GPU does in a second, for auto's padding cost (pad_cost): the
 * SGEMM rate, the copy bandwidth and a launch. */
enum { AR_FLOPS, AR_BYTES, AR_LAUNCH_S };
static const struct clmem_param_table auto_rates_table = {
    "matmul", "auto_rates", {"flops", "bytes", "launch_s"}, 3, 1, CLMEM_PARAM_UNTYPED};

/* auto's thresholds: splitk instead of regblock only where the model puts
 * splitk's time at most splitk_ratio of regblock's (a tie runs regblock,
 * whose kernel the host specialises more); what regblock loses to its
 * edges, as a share of its time, where K or N is not a multiple of 4
 * (unaligned_loss) and where they are but the tiles are cut
 * (aligned_loss): padding wins where it costs less than that. */
enum { AT_SPLITK_RATIO, AT_UNALIGNED_LOSS, AT_ALIGNED_LOSS };
static const struct clmem_param_table auto_thresholds_table = {
    "matmul", "auto_thresholds",  {"splitk_ratio", "unaligned_loss", "aligned_loss"}, 3,
    1,        CLMEM_PARAM_UNTYPED};

static const struct clmem_param_table *const matmul_param_tables[] = {
    &regblock_table,     &cpu_blocked_table, &splitk_table,
    &splitk_rates_table, &auto_rates_table,  &auto_thresholds_table,
};

/* The device's row of a table that has one for every device. */
static const struct clmem_param_row *param_row(const struct clmem_param_table *t,
                                               const struct clmem_device *device)
{
    const struct clmem_param_row *row;
    enum clmem_param_level level;
    clmem_param_lookup(t, device, &row, 1, &level);
    return row;
}

/* The device's cpu_blocked row. */
static const int *cpu_blocked_row(const struct clmem_device *device)
{
    return param_row(&cpu_blocked_table, device)->values;
}

/* Rows of P per work-item in the panel kernel (16 columns each): 8 float16
 * accumulators fill half of AVX-512's registers (a quarter of AVX2's in
 * pairs); tunable (PANEL_ROWS). */
#define PANEL_ROWS 8

/* P elements per work-item in the coarsened kernel (Fig 5.17 uses 2; 4
 * reuses each M tile more and still fits every device's registers). */
#define COARSE_FACTOR 4

static const char *tiled_unsupported(const struct clmem_run *run, char *why, size_t size)
{
    const struct matmul_state *s = run->state;
    size_t t = s ? s->tile : clmem_pick_tile(&run->ctx->device, 32, 2, sizeof(float));
    if (run->size.dim[0] % t == 0 && run->size.dim[1] % t == 0 && run->size.dim[2] % t == 0)
        return NULL;
    snprintf(why, size,
             "needs every dimension to be a multiple of TILE_WIDTH=%zu on this device, as the "
             "textbook kernel does (use 'tiled_bounds' for any size)",
             t);
    return why;
}

/* OpenBLAS runs on the host's cores: a fair comparison only with a device
 * that is those cores. */
static const char *openblas_unsupported(const struct clmem_run *run, char *why, size_t size)
{
    struct clmem_error err = {0};
    if (clmem_compare_fits("openblas", &run->ctx->device, &err) == CLMEM_OK)
        return NULL;
    snprintf(why, size, "%s", err.message);
    return why;
}

/* cpu_blocked's packed copies, in floats: M's rows and N's columns
 * rounded up to whole micro-panels (MR rows, VEC x NV columns). */
static int cpu_blocked_packed(const int *cb, size_t rows, size_t cols, size_t inner,
                              size_t *m_elems, size_t *n_elems)
{
    size_t mr = (size_t)cb[CB_MR], nr = (size_t)cb[CB_VEC] * (size_t)cb[CB_NV];
    return clmem_mul_size((rows + mr - 1) / mr * mr, inner, m_elems) &&
           clmem_mul_size((cols + nr - 1) / nr * nr, inner, n_elems);
}

static void builtin_regblock(const struct clmem_device *device, size_t rows, size_t cols, int rb[]);

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
static size_t regblock_max_steps(const struct clmem_device *device, const int rb[])
{
    unsigned long limit = clmem_device_loop_limit(device);
    return limit ? limit / regblock_step_loops(rb) : 0;
}

/* NULL where a work-item of regblock's or regblock_padded's kernels runs
 * the whole of K within the device's loop limit, else why not. */
static const char *regblock_loop_misfit(const struct clmem_device *device, const int rb[],
                                        size_t inner, char *why, size_t size)
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

/* regblock's parameters for the run: those it chose, else (named alone,
 * before the plan) the built-in row for the size. */
static const int *run_regblock(const struct clmem_run *run, int rb[])
{
    const struct matmul_state *s = run->state;
    if (s)
        return s->rb;
    builtin_regblock(&run->ctx->device, run->size.dim[0], run->size.dim[1], rb);
    return rb;
}

static const char *regblock_unsupported(const struct clmem_run *run, char *why, size_t size)
{
    int rb[CLMEM_MAX_PARAMS] = {0};
    return regblock_loop_misfit(&run->ctx->device, run_regblock(run, rb), run->size.dim[2], why,
                                size);
}

/* regblock_padded rounds each dimension up to a tile (TSM and TSN at most
 * 256, TSK 16 in every row and the tuner's space): its copies must stay
 * within the int indices the kernels use and the device's largest
 * allocation, and fit in its memory beside M, N and P (plan() counted
 * those). NULL where they do, else why not. Refused alone, skipped under
 * "all", before any work; auto chooses another variant. */
static const char *regblock_padded_misfit(const struct clmem_device *device, const size_t dim[3],
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

static const char *regblock_padded_unsupported(const struct clmem_run *run, char *why, size_t size)
{
    int rb[CLMEM_MAX_PARAMS] = {0};
    if (regblock_padded_misfit(&run->ctx->device, run->size.dim, why, size))
        return why;
    return regblock_loop_misfit(&run->ctx->device, run_regblock(run, rb), run->size.dim[2], why,
                                size);
}

/* cpu_blocked's packed copies must fit the device's largest allocation:
 * NULL where they do, else why not. */
static const char *cpu_blocked_misfit(const struct clmem_device *device, const size_t dim[3],
                                      char *why, size_t size)
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

static const char *cpu_blocked_unsupported(const struct clmem_run *run, char *why, size_t size)
{
    return cpu_blocked_misfit(&run->ctx->device, run->size.dim, why, size);
}

static void splitk_plan_of(const struct clmem_device *device, const size_t dim[3], const int *tuned,
                           struct splitk_plan *plan);

/* splitk where no plan keeps a work-item's K steps within the device's
 * loop limit (llvmpipe: regblock_max_steps) is skipped, saying why. */
static const char *splitk_unsupported(const struct clmem_run *run, char *why, size_t size)
{
    const struct clmem_device *device = &run->ctx->device;
    if (!clmem_device_loop_limit(device))
        return NULL;
    struct splitk_plan plan;
    splitk_plan_of(device, run->size.dim, NULL, &plan);
    if (plan.seconds >= 0 && plan.slice_steps &&
        plan.slice_steps <= regblock_max_steps(device, plan.p))
        return NULL;
    snprintf(why, size,
             "'%s' ends a work-item's loops after %lu iterations (Mesa's loop limiter: the "
             "results would be wrong), and no split of K=%zu keeps a slice within it",
             device->name, clmem_device_loop_limit(device), run->size.dim[2]);
    return why;
}

static const struct clmem_variant matmul_variants[] = {
    [NAIVE] = {"naive", "one work-item per P element, all reads from global memory (Fig 4.3)",
               "MatrixMulKernel", NULL},
    [TILED] = {"tiled", "local-memory tiles with barriers; sizes multiple of the tile (Fig 4.16)",
               "MatrixMulTiled", tiled_unsupported, .check_sizes = "64x32x96"},
    [TILED_BOUNDS] = {"tiled_bounds", "tiled with boundary checks, any size (Fig 4.20)",
                      "MatrixMulTiledBounds", NULL},
    [COARSENED] = {"coarsened",
                   "several P elements per work-item reuse each M tile, any size (Fig 5.17)",
                   "MatrixMulCoarsened", NULL},
    [REGBLOCK] = {"regblock",
                  "register blocking: a block of P per work-item, vector loads, any size "
                  "(beyond the seeds)",
                  "MatrixMulRegisterBlocked", regblock_unsupported, .source = "matmul_regblock.cl",
                  .more_kernels = {"MatrixMulStreamKChecked"},
                  /* Also where some work-groups' blocks lie wholly inside P
                   * and take the unchecked vector path: 130x66x35 (rows not
                   * float4-aligned, so vload4; K's last step partial),
                   * 130x66x34 (K and N even: float2s) and 132x68x36
                   * (aligned float4s). */
                  .check_sizes = "7x7x7 33x17x9 66x34x18 35x19x11 130x66x35 130x66x34 132x68x36"},
    [REGBLOCK_PADDED] = {"regblock_padded",
                         "regblock on copies of M, N and P padded to whole tiles, every check "
                         "compiled away, the copies timed with it; any size (beyond the seeds: "
                         "CLBlast's indirect GEMM)",
                         "MatrixMulPaddedRegisterBlocked", regblock_padded_unsupported,
                         .source = "matmul_regblock.cl",
                         .more_kernels = {"MatrixPad", "MatrixUnpad", "MatrixMulStreamKPadded"},
                         /* Padded in every dimension (7x7x7, 35x19x11), and
                          * whole tiles, multiplied in place (64x64x16 on
                          * Oclgrind's row, 64x64 by 16). */
                         .check_sizes = "7x7x7 35x19x11 64x64x16"},
    [SPLITK] = {"splitk",
                "split-K: blocks of P by slices of K, each slice's sums in a workspace, added in "
                "a fixed order by a second pass; tiles and slices chosen for the shape, for P of "
                "few blocks (thin, K-heavy, small); any size (beyond the seeds)",
                "MatrixMulSplitK", splitk_unsupported, .source = "matmul_splitk.cl",
                .more_kernels = {"MatrixSumSlices"},
                /* On Oclgrind's device (one compute unit at 1 MHz, the
                 * rows for any GPU): 7x7x7 one block, one slice; 33x65x9
                 * blocks across both edges; 7x9x301 one block of 32 x 32
                 * across both, in two K slices (K 1 mod 4 and not whole K
                 * steps: vload4, the last step checked, the slices'
                 * sums added one by one); 32x32x264 a whole block in two
                 * slices, aligned; 6x10x302 the same with K and N even
                 * (float2s; tests/test_matmul.c checks that these split). */
                .check_sizes = "7x7x7 33x65x9 7x9x301 32x32x264 6x10x302"},
    [PANEL] = {"panel",
               "for CPUs: row panels of 16-wide vector accumulators, no local memory, any size "
               "(beyond the seeds)",
               "MatrixMulPanel", NULL, .source = "matmul_panel.cl"},
    [CPU_BLOCKED] = {"cpu_blocked",
                     "for CPUs: M and N packed into micro-panels, an MR x NR micro-tile of "
                     "native-width vector accumulators per work-item, any size (beyond the seeds: "
                     "BLIS's design)",
                     "MatrixMulCpuBlocked", cpu_blocked_unsupported, .source = "matmul_cpu.cl",
                     .more_kernels = {"MatrixMulPackM", "MatrixMulPackN"},
                     /* Oclgrind takes the AVX2 row: micro-tiles of 6 x 16,
                      * packs of 8 values of k. 7x7x7 under one micro-tile
                      * and one block of k, 33x17x9 and 35x19x11 one to
                      * three past them (six panels of M: a whole block of 4
                      * and a cut one), 12x32x16 wholly inside (the
                      * unguarded vector stores, whole packing blocks). */
                     .check_sizes = "7x7x7 33x17x9 35x19x11 12x32x16"},
    [CLBLAST] = {"clblast", "CLBlast's SGEMM on the same buffers (with --compare clblast)", NULL,
                 NULL, .library = "clblast"},
    [OPENBLAS] = {"openblas",
                  "OpenBLAS's cblas_sgemm on the host's cores, the same inputs, host wall time "
                  "(with --compare openblas, CPU devices)",
                  NULL, openblas_unsupported, .library = "openblas"},
    [AUTO] = {"auto",
              "one kernel variant chosen for the device and the size by a table of rules, run as "
              "itself; only when named, not in 'all'; the note names the choice and why",
              NULL, NULL,
              /* Its choice's kernels are checked at their own sizes:
               * one size that cuts every tile. */
              .check_sizes = "33x17x9"},
};

/* "all" runs each variant once, so auto, which runs one of the others
 * again, runs only when named. The harness selects every variant but the
 * libraries' for "all", auto with them: selected beside another kernel
 * variant, it came with "all", and is taken out here. */
static void auto_only_when_named(struct clmem_run *run)
{
    int others = 0;
    for (size_t i = 0; i < run->n_variants; i++)
        others |= !run->variants[i]->library && run->variants[i] != &matmul_variants[AUTO];
    size_t kept = 0;
    for (size_t i = 0; i < run->n_variants; i++)
        if (!others || run->variants[i] != &matmul_variants[AUTO])
            run->variants[kept++] = run->variants[i];
    run->n_variants = kept;
}

static int matmul_plan(struct clmem_run *run, struct clmem_error *err)
{
    auto_only_when_named(run);
    size_t rows = run->size.dim[0], cols = run->size.dim[1], inner = run->size.dim[2];
    size_t m_elems, n_elems, p_elems;
    /* The kernels index with int, as the figures do. */
    if (!clmem_mul_size(rows, inner, &m_elems) || !clmem_mul_size(inner, cols, &n_elems) ||
        !clmem_mul_size(rows, cols, &p_elems) || m_elems > INT_MAX || n_elems > INT_MAX ||
        p_elems > INT_MAX)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "size %zux%zux%zu is too large (each matrix at most %d elements)", rows,
                          cols, inner, INT_MAX);
    run->buffer_bytes[0] = m_elems * sizeof(float);
    run->buffer_bytes[1] = n_elems * sizeof(float);
    run->buffer_bytes[2] = p_elems * sizeof(float);
    run->n_buffers = 3;
    return CLMEM_OK;
}

/* The host MatrixMul of the lecture, in double, for the chosen rows only;
 * also sums |M*N| so the tolerance is relative to the terms' magnitude.
 * Rows [n_ref_rows * part / parts, ...) of the reference: the parts run on
 * threads of their own (8 rows at 32768 are 2^33 multiply-adds). */
struct reference_job {
    struct matmul_problem *p;
    size_t parts;
};

static int reference_rows(void *arg, size_t part)
{
    const struct reference_job *job = arg;
    struct matmul_problem *p = job->p;
    for (size_t r = p->n_ref_rows * part / job->parts; r < p->n_ref_rows * (part + 1) / job->parts;
         r++) {
        size_t i = p->ref_row[r];
        double *ref = p->ref + r * p->cols, *mag = p->ref_magnitude + r * p->cols;
        for (size_t j = 0; j < p->cols; j++)
            ref[j] = mag[j] = 0.0;
        for (size_t k = 0; k < p->inner; k++) {
            double a = p->M[i * p->inner + k];
            const float *n_row = p->N + k * p->cols;
            for (size_t j = 0; j < p->cols; j++) {
                double term = a * n_row[j];
                ref[j] += term;
                mag[j] += fabs(term);
            }
        }
    }
    return CLMEM_OK;
}

int matmul_problem_make(struct matmul_problem *p, uint64_t seed, struct clmem_error *err)
{
    size_t m_elems = p->rows * p->inner, n_elems = p->inner * p->cols, p_elems = p->rows * p->cols;
    if (!(p->M = clmem_alloc_array(m_elems, sizeof(float), err)) ||
        !(p->N = clmem_alloc_array(n_elems, sizeof(float), err)) ||
        !(p->P = clmem_alloc_array(p_elems, sizeof(float), err)))
        return err->status;
    clmem_fill_uniform(p->M, m_elems, -1.0f, 1.0f, seed);
    clmem_fill_uniform(p->N, n_elems, -1.0f, 1.0f, seed + 1);
    return matmul_problem_reference(p, err);
}

int matmul_problem_reference(struct matmul_problem *p, struct clmem_error *err)
{
    free(p->ref_row);
    free(p->ref);
    free(p->ref_magnitude);
    p->ref_row = NULL;
    p->ref = p->ref_magnitude = NULL;
    /* cols * inner fits: plan() bounded each matrix to INT_MAX elements. */
    p->n_ref_rows = REFERENCE_BUDGET / (p->cols * p->inner);
    if (p->n_ref_rows < 8)
        p->n_ref_rows = 8;
    if (p->n_ref_rows > p->rows)
        p->n_ref_rows = p->rows;
    if (!(p->ref_row = clmem_alloc_array(p->n_ref_rows, sizeof(size_t), err)) ||
        !(p->ref = clmem_alloc_array(p->n_ref_rows * p->cols, sizeof(double), err)) ||
        !(p->ref_magnitude = clmem_alloc_array(p->n_ref_rows * p->cols, sizeof(double), err)))
        return err->status;
    /* Rows spread evenly from the first to the last. */
    for (size_t r = 0; r < p->n_ref_rows; r++)
        p->ref_row[r] = p->n_ref_rows > 1 ? r * (p->rows - 1) / (p->n_ref_rows - 1) : 0;
    /* A part per core (at most 64), each of at least 2^24 multiply-adds. */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    struct reference_job job = {p, p->n_ref_rows * p->cols * p->inner >> 24};
    if (job.parts > p->n_ref_rows)
        job.parts = p->n_ref_rows;
    if (cores > 0 && job.parts > (size_t)cores)
        job.parts = (size_t)cores;
    if (job.parts > 64)
        job.parts = 64;
    if (job.parts <= 1) {
        job.parts = 1;
        return reference_rows(&job, 0);
    }
    int status[64];
    clmem_parallel(job.parts, reference_rows, &job, status);
    return CLMEM_OK;
}

/* A row's parameters, shrunk until the device takes them (work-group
 * size, local memory). */
static void fit_regblock(const struct clmem_device *device, const int *row, int rb[])
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

static int regblock_valid(const struct clmem_device *device, const int v[])
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

static const struct clmem_tunable matmul_tunables[] = {
    {"regblock", regblock_space, CLMEM_ARRAY_SIZE(regblock_space), regblock_valid},
    {"panel", panel_space, CLMEM_ARRAY_SIZE(panel_space), panel_valid},
    {"cpu_blocked", cpu_blocked_space, CLMEM_ARRAY_SIZE(cpu_blocked_space), cpu_blocked_valid},
    {"splitk", splitk_space, CLMEM_ARRAY_SIZE(splitk_space), splitk_valid},
};

/* cpu_blocked's parameters: its family's row, with the micro-tile and the
 * blocking tuned where the database or the tuner says. */
static void choose_cpu_blocked(struct clmem_run *run, struct matmul_state *s)
{
    const int *row = cpu_blocked_row(&run->ctx->device);
    int tuned[CLMEM_MAX_PARAMS];
    for (int i = 0; i <= CB_WG; i++)
        s->cb[i] = row[i];
    if (clmem_run_tuned(run, &matmul_tunables[2], tuned)) {
        s->cb[CB_MR] = tuned[0];
        s->cb[CB_NV] = tuned[1];
        s->cb[CB_MT] = tuned[2];
    }
    while ((size_t)s->cb[CB_WG] > run->ctx->device.max_work_group)
        s->cb[CB_WG] /= 2;
}

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
 * launch. The slices' steps in *slice_steps. */
static double splitk_seconds(const struct clmem_device *device, const int *row, const size_t dim[3],
                             size_t splits, size_t *slice_steps)
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
    double waves = busiest > u ? ceil((double)busiest / u) * u : (double)busiest;
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
        double seconds = splitk_seconds(device, row, dim, s, &per);
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
 * bench/sgemm/shapes/ (h200-fitted/, h200-tsk/). The cut tile keeps its
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
static void splitk_plan_of(const struct clmem_device *device, const size_t dim[3], const int *tuned,
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
static void splitk_describe(const struct splitk_plan *plan, char *out, size_t size)
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

int matmul_splitk_choose(const struct clmem_device *device, size_t rows, size_t cols, size_t inner,
                         char *plan, size_t plan_size)
{
    const size_t dim[3] = {rows, cols, inner};
    struct splitk_plan p;
    splitk_plan_of(device, dim, NULL, &p);
    splitk_describe(&p, plan, plan_size);
    return p.p[SPL_SPLITS];
}

/* Whether the run runs variant `which`, selected or as auto's choice
 * (cpu_blocked's packed copies and regblock_padded's padded ones are made
 * only then). */
static int variant_selected(const struct clmem_run *run, int which)
{
    const struct matmul_state *s = run->state;
    if (s->chosen == &matmul_variants[which])
        return 1;
    for (size_t i = 0; i < run->n_variants; i++)
        if (run->variants[i] == &matmul_variants[which])
            return 1;
    return 0;
}

/* The stream-K plan (cl/matmul_regblock.cl) of regblock and
 * regblock_padded, whose grids have as many blocks of TSM x TSN: when the
 * last wave would be part full, the blocks of it and of the whole wave
 * before it are shared by as many work-groups as the device runs at once
 * (from 1 to 2 blocks each); none when the waves are whole, fewer than
 * one, the row says 0, or the groups' sums would not fit beside M, N and
 * P. regblock's kernel shares only whole blocks of P: it runs the plan
 * where they are enough (direct). */
struct stream_k_plan {
    size_t blocks;        /* of TSM x TSN over P */
    size_t groups, tiles; /* work-groups that share the first `tiles` blocks; 0: no plan */
    int direct;           /* regblock runs it too */
    double sums;          /* bytes of the groups' sums */
};

static struct stream_k_plan stream_k_plan_of(const struct clmem_device *device, const int rb[],
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

/* The plan for the run, then the sums and the counters (zero, as the
 * kernel leaves them after each launch). */
static int stream_k_setup(struct clmem_run *run, struct matmul_state *s, struct clmem_error *err)
{
    const size_t dim[3] = {s->host.rows, s->host.cols, s->host.inner};
    struct stream_k_plan plan = stream_k_plan_of(&run->ctx->device, s->rb, dim);
    s->sk_groups = plan.groups;
    s->sk_tiles = plan.tiles;
    s->sk_direct = plan.direct;
    if (!plan.groups)
        return CLMEM_OK;
    int status;
    if ((status = clmem_buffer_create(run->ctx, CL_MEM_READ_WRITE, (size_t)plan.sums, NULL,
                                      &s->dPartial, err)) ||
        (status = clmem_buffer_create(run->ctx, CL_MEM_READ_WRITE, s->sk_tiles * sizeof(cl_uint),
                                      NULL, &s->dArrived, err)))
        return status;
    return clmem_buffer_fill_zero(run->ctx, s->dArrived, s->sk_tiles * sizeof(cl_uint), err);
}

/* regblock_padded's copies, where a dimension is not a whole number of
 * tiles: M (rows x inner) and N (inner x cols) padded with zeros, P
 * (rows x cols) written padded, then copied out. */
static int regblock_padded_setup(struct clmem_run *run, struct matmul_state *s,
                                 struct clmem_error *err)
{
    const size_t dims[3] = {s->host.rows, s->host.cols, s->host.inner},
                 tiles[3] = {(size_t)s->rb[P_TSM], (size_t)s->rb[P_TSN], (size_t)s->rb[P_TSK]};
    for (int d = 0; d < 3; d++)
        s->padded[d] = (dims[d] + tiles[d] - 1) / tiles[d] * tiles[d];
    const size_t *p = s->padded;
    if (p[0] == dims[0] && p[1] == dims[1] && p[2] == dims[2])
        return CLMEM_OK;
    int status;
    if ((status = clmem_buffer_create(run->ctx, CL_MEM_READ_WRITE, p[0] * p[2] * sizeof(float),
                                      NULL, &s->dMpad, err)) ||
        (status = clmem_buffer_create(run->ctx, CL_MEM_READ_WRITE, p[2] * p[1] * sizeof(float),
                                      NULL, &s->dNpad, err)))
        return status;
    return clmem_buffer_create(run->ctx, CL_MEM_READ_WRITE, p[0] * p[1] * sizeof(float), NULL,
                               &s->dPpad, err);
}

/* regblock's built-in parameters for a P of rows x cols: the first of the
 * device's candidate rows (at its most specific level) whose work-groups
 * cover half its compute units at this size, else the last. */
static void builtin_regblock(const struct clmem_device *device, size_t rows, size_t cols, int rb[])
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

/* The tuner's candidate or the tuning database's entry, else the built-in
 * row. A tuned shape takes SK_UNITS from the row of the same shape, if any. */
static void choose_regblock(struct clmem_run *run, struct matmul_state *s)
{
    const struct clmem_device *device = &run->ctx->device;
    int tuned[CLMEM_MAX_PARAMS] = {0};
    if (!clmem_run_tuned(run, &matmul_tunables[0], tuned)) {
        builtin_regblock(device, s->host.rows, s->host.cols, s->rb);
        return;
    }
    const struct clmem_param_row *rows[8];
    enum clmem_param_level level;
    size_t n = clmem_param_lookup(&regblock_table, device, rows, CLMEM_ARRAY_SIZE(rows), &level);
    for (size_t i = 0; i < n; i++)
        if (!memcmp(rows[i]->values, tuned, (P_WPTN + 1) * sizeof(int)))
            tuned[P_SK_UNITS] = rows[i]->values[P_SK_UNITS];
    memcpy(s->rb, tuned, sizeof tuned);
}

/* ---- --variant auto: one variant chosen per device and size ----
 *
 * What the rules weigh about a size on a device: regblock's parameters
 * there (its tiles, and whether its stream-K runs), and what those make of
 * the size. regblock_padded multiplies with the same parameters. */
/* The rules' losses (auto_rule's direct_loss). */
enum auto_loss { AUTO_LOSS_NONE, AUTO_LOSS_UNALIGNED, AUTO_LOSS_ALIGNED };
struct auto_shape {
    size_t dim[3];            /* rows, cols, inner: P is M x N, K inner */
    int rb[CLMEM_MAX_PARAMS]; /* regblock's (and regblock_padded's) parameters */
    int cut;                  /* the first dimension not a whole tile (TSM, TSN, TSK), or -1 */
    int unaligned;            /* K or N (in that order) not a multiple of 4, or -1 */
    double last_fill;         /* the last wave's share of the groups the device runs at once */
    /* The share of regblock's time its units sit idle in a part-full last
     * wave that regblock_padded's stream-K shares out and regblock's
     * cannot (the blocks it would share cross P's edges); 0 where both or
     * neither share. */
    double wave_gain;
    double pad_cost; /* regblock_padded's copies and extra flops: a share of the product's time */
    /* The device's thresholds (auto_thresholds_table): splitk_ratio and
     * regblock's losses by the rules' `loss` (none, unaligned, aligned). */
    double splitk_ratio, loss[3];
    /* regblock's blocks and the device's compute units; splitk's plan
     * (its built-in rows) and the model's time for it over regblock's
     * (regblock's tile in one slice, where that tile is among splitk's
     * rows): 0 where it is not, or where the plan is regblock's own
     * kernel. */
    size_t blocks, units;
    struct splitk_plan split;
    double split_ratio;
};

static void auto_shape_of(const struct clmem_device *device, const size_t dim[3], const int rb[],
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
            if (!memcmp(rows[i]->values, rb, SPL_SPLITS * sizeof(int)))
                f->split_ratio =
                    f->split.seconds / splitk_seconds(device, rows[i]->values, dim, 1, &per);
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

/* A rule: where a device of `type` (0: any) meets every test it makes, it
 * chooses `variant`, unless the variant cannot take the size on the
 * device (its copies would not fit): then the next rule that holds. */
enum auto_test { AUTO_ANY, AUTO_YES, AUTO_NO };
struct auto_rule {
    cl_device_type type;
    enum auto_test whole;   /* every dimension a whole tile */
    enum auto_test aligned; /* K and N multiples of 4: rows of M and N start on a float4 */
    /* Not AUTO_LOSS_NONE: what regblock loses to its edges at such sizes
     * (auto_thresholds_table), as a share of its time; the rule holds
     * where padding costs less than that plus the wave_gain. */
    enum auto_loss direct_loss;
    int variant;
    /* regblock's blocks fewer than the compute units, and splitk's plan
     * other than regblock's kernel and, where the model knows regblock's
     * tile, at most auto_thresholds' splitk_ratio of its time. */
    enum auto_test few_blocks;
};

/* The rules, the first that holds chosen. They rest on how the variants'
 * kernels are built (float4 loads, checks at the edges, stream-K) and on
 * the model's rates and thresholds in the parameter database
 * (auto_rates, auto_thresholds, splitk's rows), measured where their
 * provenance says; a GPU no row knows takes the rows for any GPU. The
 * measurements behind each rule: bench/sgemm/, bench/cpu-openblas/,
 * bench/README.md ("Roofs and vendor libraries"). */
static const struct auto_rule auto_rules[] = {
    /* CPUs: cpu_blocked, a BLIS-style kernel that keeps the vector
     * registers full, faster than panel and regblock on every CPU
     * measured from small sizes up (below about 100x100x100 launches
     * outweigh flops and no variant wins every run). Where its packed
     * copies do not fit, panel. */
    {CL_DEVICE_TYPE_CPU, .variant = CPU_BLOCKED},
    {CL_DEVICE_TYPE_CPU, .variant = PANEL},
    /* GPUs where regblock's blocks leave compute units idle (few rows or
     * columns, a long K): splitk, its tiles and slices chosen by its
     * model (splitk_plan_of), as vendor libraries split K there. */
    {CL_DEVICE_TYPE_GPU, .variant = SPLITK, .few_blocks = AUTO_YES},
    /* GPUs, whole tiles: regblock_padded multiplies in place with the same
     * kernel and the two tie, so the one without copies. */
    {CL_DEVICE_TYPE_GPU, AUTO_YES, .variant = REGBLOCK},
    /* K or N not a multiple of 4: regblock reads rows that do not start on
     * a float4 by vload4 and checks each float (auto_thresholds'
     * unaligned_loss), where padded reads whole float4s: padded where its
     * copies cost less. */
    {CL_DEVICE_TYPE_GPU, AUTO_NO, AUTO_NO, AUTO_LOSS_UNALIGNED, .variant = REGBLOCK_PADDED},
    /* Aligned, tiles cut: regblock checks only its edge blocks
     * (aligned_loss); where it cannot share a part-full last wave by
     * stream-K (the blocks it would share cross P's edges), its idle units
     * add to that (wave_gain). */
    {CL_DEVICE_TYPE_GPU, AUTO_NO, AUTO_YES, AUTO_LOSS_ALIGNED, .variant = REGBLOCK_PADDED},
    {CL_DEVICE_TYPE_GPU, AUTO_NO, .variant = REGBLOCK},
    /* Any other device (an accelerator): regblock, which has parameters
     * for any device. */
    {0, .variant = REGBLOCK},
};

/* regblock's blocks leave compute units idle and splitk's plan does
 * better, as far as the model says (auto_rule's few_blocks). */
static int auto_few_blocks(const struct auto_shape *f)
{
    int differs = f->split.p[SPL_SPLITS] > 1 || memcmp(f->split.p, f->rb, SPL_SPLITS * sizeof(int));
    return f->blocks < f->units && differs &&
           (!f->split_ratio || f->split_ratio <= f->splitk_ratio);
}

static int auto_rule_holds(const struct auto_rule *r, const struct clmem_device *device,
                           const struct auto_shape *f)
{
    return (!r->type || (r->type & device->type)) &&
           (r->whole == AUTO_ANY || (r->whole == AUTO_YES) == (f->cut < 0)) &&
           (r->aligned == AUTO_ANY || (r->aligned == AUTO_YES) == (f->unaligned < 0)) &&
           (!r->direct_loss || f->pad_cost < f->loss[r->direct_loss] + f->wave_gain) &&
           (r->few_blocks == AUTO_ANY || (r->few_blocks == AUTO_YES) == auto_few_blocks(f));
}

/* NULL where the variant can take the size on the device, else why not. */
static const char *auto_misfit(const struct clmem_device *device, int variant, const size_t dim[3],
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

/* What the rule tested, as the note says it: "N=1000 not a multiple of
 * 128; last wave 45% full, regblock cannot share it; padding ~15% vs
 * regblock's loss ~34%". */
static void auto_describe(const struct auto_rule *r, const struct auto_shape *f, const char *passed,
                          char *why, size_t size)
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
    if (r->type == CL_DEVICE_TYPE_CPU)
        SAY("a CPU");
    else if (!r->type)
        SAY("neither a CPU nor a GPU");
    if (r->few_blocks == AUTO_YES) {
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
    }
    if (r->whole == AUTO_YES)
        SAY("whole %dx%dx%d tiles", f->rb[P_TSM], f->rb[P_TSN], f->rb[P_TSK]);
    else if (r->whole == AUTO_NO)
        SAY("%c=%zu not a multiple of %d", dim_name[f->cut], f->dim[f->cut], f->rb[P_TSM + f->cut]);
    if (r->aligned == AUTO_NO)
        SAY("%c=%zu not a multiple of 4", dim_name[f->unaligned], f->dim[f->unaligned]);
    if (r->whole == AUTO_NO && f->wave_gain > 0)
        SAY("last wave %.0f%% full, regblock cannot share it", 100.0 * f->last_fill);
    /* Padding's cost against what regblock loses: why padded, or why not
     * (the rules for regblock that follow those for padded). */
    if (r->whole == AUTO_NO) {
        const struct auto_rule *padded = r;
        for (const struct auto_rule *q = auto_rules; !padded->direct_loss && q < r; q++)
            if (q->direct_loss && q->type == r->type &&
                (q->aligned == AUTO_YES) == (f->unaligned < 0))
                padded = q;
        double loss = 100.0 * (f->loss[padded->direct_loss] + f->wave_gain);
        if (padded->direct_loss && f->pad_cost < 1.0)
            SAY("padding ~%.0f%% vs regblock's loss ~%.0f%%", 100.0 * f->pad_cost, loss);
        else if (padded->direct_loss)
            SAY("padding ~%.0fx the product vs regblock's loss ~%.0f%%", f->pad_cost, loss);
    }
    if (passed)
        SAY("%s does not fit", passed);
#undef SAY
}

/* The variant the rules choose for a size on a device with regblock's
 * parameters rb (an index of matmul_variants), and why. */
static int auto_decide(const struct clmem_device *device, const size_t dim[3], const int rb[],
                       char *why, size_t size)
{
    struct auto_shape f;
    auto_shape_of(device, dim, rb, &f);
    if (clmem_debug_enabled(CLMEM_DEBUG_BUILD))
        fprintf(stderr,
                "clmem: auto at %zux%zux%zu: tiles %dx%dx%d, cut %d, unaligned %d, last wave "
                "%.2f full, wave gain %.3f, padding cost %.3f; %zu blocks on %zu units, splitk "
                "%dx%d in %d slices, %.1f us, %.3f of regblock's time\n",
                dim[0], dim[1], dim[2], rb[P_TSM], rb[P_TSN], rb[P_TSK], f.cut, f.unaligned,
                f.last_fill, f.wave_gain, f.pad_cost, f.blocks, f.units, f.split.p[SPL_TSM],
                f.split.p[SPL_TSN], f.split.p[SPL_SPLITS], 1e6 * f.split.seconds, f.split_ratio);
    const char *passed = NULL;
    char misfit[256];
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(auto_rules); i++) {
        const struct auto_rule *r = &auto_rules[i];
        if (!auto_rule_holds(r, device, &f))
            continue;
        if (auto_misfit(device, r->variant, dim, rb, misfit, sizeof misfit)) {
            passed = matmul_variants[r->variant].name;
            continue;
        }
        auto_describe(r, &f, passed, why, size);
        return r->variant;
    }
    snprintf(why, size, "no rule holds");
    return REGBLOCK; /* not reached: the last rule holds for any device */
}

const char *matmul_auto_choose(const struct clmem_device *device, size_t rows, size_t cols,
                               size_t inner, char *why, size_t why_size)
{
    const size_t dim[3] = {rows, cols, inner};
    int rb[CLMEM_MAX_PARAMS] = {0};
    builtin_regblock(device, rows, cols, rb);
    return matmul_variants[auto_decide(device, dim, rb, why, why_size)].name;
}

/* What `clmem tune` measured on this device, with this driver, at this
 * size class, refines the rules: where it holds the rules' choice and
 * another of matmul's tunable variants, the faster of them as measured.
 * Else (or where the run ignores the database) the rules' choice. */
static int auto_refine(struct clmem_run *run, int choice, char *why, size_t size)
{
    const struct clmem_device *device = &run->ctx->device;
    const struct matmul_state *s = run->state;
    struct clmem_tuning_entry *entries = NULL;
    struct clmem_error err = {0};
    size_t n = 0;
    if (run->ignore_tuning || run->tune_values ||
        clmem_tuning_db_entries(device->name, &entries, &n, &err) != CLMEM_OK) {
        clmem_error_clear(&err);
        return choice;
    }
    char size_class[64], misfit[256];
    clmem_size_class(&run->size, size_class, sizeof size_class);
    const struct clmem_tuning_entry *mine = NULL, *best = NULL;
    for (size_t i = 0; i < n; i++) {
        const struct clmem_tuning_entry *e = &entries[i];
        const struct clmem_variant *v = clmem_variant_find(run->workload, e->variant);
        if (!v || strcmp(e->workload, run->workload->name) || strcmp(e->driver, device->driver) ||
            strcmp(e->size_class, size_class) || !(e->metric > 0) || v->library ||
            auto_misfit(device, (int)(v - matmul_variants), run->size.dim, s->rb, misfit,
                        sizeof misfit))
            continue;
        if (v == &matmul_variants[choice])
            mine = e;
        if (!best || e->metric > best->metric)
            best = e;
    }
    int chosen = choice;
    if (mine && best != mine) {
        chosen = (int)(clmem_variant_find(run->workload, best->variant) - matmul_variants);
        snprintf(why, size, "clmem tune measured %.4g %s here against %s's %.4g", best->metric,
                 best->unit, mine->variant, mine->metric);
    }
    free(entries);
    return chosen;
}

/* The widest float vector every row of M (K floats) and N (cols) starts
 * on: regblock's and splitk's loads and stores (VEC_ALIGNED,
 * SPLITK_ALIGNED in cl/matmul_regblock.cl). */
static int row_vector(size_t inner, size_t cols)
{
    return inner % 4 == 0 && cols % 4 == 0 ? 4 : inner % 2 == 0 && cols % 2 == 0 ? 2 : 1;
}

/* clmem_run_build makes the kernels of the run's selected variants: auto
 * has none of its own, so its choice stands in its place while they are
 * made. */
static int matmul_build(struct clmem_run *run, const char *options, struct clmem_error *err)
{
    const struct matmul_state *s = run->state;
    size_t slot = run->n_variants;
    for (size_t i = 0; i < run->n_variants; i++)
        if (run->variants[i] == &matmul_variants[AUTO])
            slot = i;
    if (slot < run->n_variants)
        run->variants[slot] = s->chosen;
    int status = clmem_run_build(run, options, err);
    if (slot < run->n_variants)
        run->variants[slot] = &matmul_variants[AUTO];
    return status;
}

static int matmul_setup(struct clmem_run *run, struct clmem_error *err)
{
    struct matmul_state *s = run->state;
    int status;
    s->host.rows = run->size.dim[0];
    s->host.cols = run->size.dim[1];
    s->host.inner = run->size.dim[2];
    s->tile = clmem_pick_tile(&run->ctx->device, 32, 2, sizeof(float));
    size_t m_elems = s->host.rows * s->host.inner, n_elems = s->host.inner * s->host.cols,
           p_elems = s->host.rows * s->host.cols;
    /* A block's inputs are its caller's (matmul_block_setup). */
    if (!s->block && (status = matmul_problem_make(&s->host, run->seed, err)))
        return status;

    choose_regblock(run, s);
    if (!clmem_run_tuned(run, &matmul_tunables[1], &s->panel_rows))
        s->panel_rows = PANEL_ROWS;
    choose_cpu_blocked(run, s);
    if (variant_selected(run, AUTO)) {
        const size_t dim[3] = {s->host.rows, s->host.cols, s->host.inner};
        int choice =
            auto_decide(&run->ctx->device, dim, s->rb, s->chosen_why, sizeof s->chosen_why);
        s->chosen = &matmul_variants[auto_refine(run, choice, s->chosen_why, sizeof s->chosen_why)];
    }
    /* The flags a size sets only where their variant runs, so that one
     * program serves every size of the others; regblock's file holds only
     * the kernels of the variants that run (PoCL compiles every kernel of a
     * program whose binary clmem's cache reads). */
    int direct = variant_selected(run, REGBLOCK), padded = variant_selected(run, REGBLOCK_PADDED),
        panel = variant_selected(run, PANEL);
    int full_tiles = direct && s->host.rows % s->rb[P_TSM] == 0 &&
                     s->host.cols % s->rb[P_TSN] == 0 && s->host.inner % s->rb[P_TSK] == 0;
    char options[512];
    snprintf(options, sizeof options,
             "-DTILE_WIDTH=%zu -DCOARSE_FACTOR=%d -DTSM=%d -DTSN=%d -DTSK=%d -DWPTM=%d -DWPTN=%d "
             "-DREGBLOCK_DIRECT=%d -DREGBLOCK_PADDED=%d -DFULL_TILES=%d -DK_FULL=%d "
             "-DVEC_ALIGNED=%d -DPANEL_ROWS=%d -DPANEL_FULL=%d -DCPU_VEC=%d -DCPU_MR=%d "
             "-DCPU_NV=%d -DCPU_MT=%d -DCPU_WG=%d",
             s->tile, COARSE_FACTOR, s->rb[P_TSM], s->rb[P_TSN], s->rb[P_TSK], s->rb[P_WPTM],
             s->rb[P_WPTN], direct, padded, full_tiles, direct && s->host.inner % s->rb[P_TSK] == 0,
             direct ? row_vector(s->host.inner, s->host.cols) : 1, s->panel_rows,
             panel && s->host.rows % (size_t)s->panel_rows == 0 && s->host.cols % 16 == 0,
             s->cb[CB_VEC], s->cb[CB_MR], s->cb[CB_NV], s->cb[CB_MT], s->cb[CB_WG]);
    int split = variant_selected(run, SPLITK);
    if (split) {
        const size_t dim[3] = {s->host.rows, s->host.cols, s->host.inner};
        int tuned[CLMEM_MAX_PARAMS] = {0};
        splitk_plan_of(&run->ctx->device, dim,
                       clmem_run_tuned(run, &matmul_tunables[3], tuned) ? tuned : NULL, &s->split);
        const int *k = s->split.p;
        size_t len = strlen(options);
        snprintf(options + len, sizeof options - len,
                 " -DSPLITK_TSM=%d -DSPLITK_TSN=%d -DSPLITK_TSK=%d -DSPLITK_WPTM=%d "
                 "-DSPLITK_WPTN=%d -DSPLITK_SPLITS=%d -DSPLITK_K_FULL=%d -DSPLITK_ALIGNED=%d "
                 "-DSPLITK_EDGE=%d",
                 k[SPL_TSM], k[SPL_TSN], k[SPL_TSK], k[SPL_WPTM], k[SPL_WPTN], k[SPL_SPLITS],
                 s->host.inner % (size_t)k[SPL_TSK] == 0, row_vector(s->host.inner, s->host.cols),
                 s->host.rows % (size_t)k[SPL_TSM] || s->host.cols % (size_t)k[SPL_TSN]);
    }
    if ((status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, m_elems * sizeof(float),
                                      s->host.M, &s->dM, err)) ||
        (status = clmem_buffer_create(run->ctx, CL_MEM_READ_ONLY, n_elems * sizeof(float),
                                      s->host.N, &s->dN, err)) ||
        (status = clmem_run_output_buffer(run, "P", s->p_flags ? s->p_flags : CL_MEM_WRITE_ONLY,
                                          p_elems * sizeof(float), &s->dP, err)) ||
        (status = matmul_build(run, options, err)))
        return status;
    if ((direct || padded) && (status = stream_k_setup(run, s, err)))
        return status;
    if (padded && (status = regblock_padded_setup(run, s, err)))
        return status;
    /* splitk's workspace: a rows x cols slice per K slice (plan() bounded
     * P to INT_MAX elements, splitk_plan_of the slices to what fits). */
    if (split && s->split.p[SPL_SPLITS] > 1 &&
        (status = clmem_buffer_create(run->ctx, CL_MEM_READ_WRITE,
                                      (size_t)s->split.p[SPL_SPLITS] * p_elems * sizeof(float),
                                      NULL, &s->dWork, err)))
        return status;
    if (variant_selected(run, CPU_BLOCKED)) {
        size_t m_packed = 0, n_packed = 0;
        cpu_blocked_packed(s->cb, s->host.rows, s->host.cols, s->host.inner, &m_packed, &n_packed);
        if ((status = clmem_buffer_create(run->ctx, CL_MEM_READ_WRITE, m_packed * sizeof(float),
                                          NULL, &s->dMp, err)) ||
            (status = clmem_buffer_create(run->ctx, CL_MEM_READ_WRITE, n_packed * sizeof(float),
                                          NULL, &s->dNp, err)))
            return status;
    }
    return CLMEM_OK;
}

/* Packs M and N (two launches), then the micro-kernel: one work-item per
 * MR x NR micro-tile, in one dimension (the kernel orders them in blocks
 * of MT panels of M). All three launches are the variant's time. */
static int cpu_blocked_execute(struct clmem_run *run, const struct clmem_variant *v,
                               struct matmul_state *s, struct clmem_timing *timing,
                               struct clmem_error *err)
{
    size_t vec = (size_t)s->cb[CB_VEC], mr = (size_t)s->cb[CB_MR], nv = (size_t)s->cb[CB_NV];
    size_t m_panels = (s->host.rows + mr - 1) / mr,
           n_panels = (s->host.cols + vec * nv - 1) / (vec * nv);
    cl_int rows = (cl_int)s->host.rows, cols = (cl_int)s->host.cols, inner = (cl_int)s->host.inner;
    size_t pack_m[2] = {(s->host.inner + vec - 1) / vec, m_panels},
           pack_n[2] = {n_panels * nv, s->host.inner};
    size_t tiles = m_panels * n_panels, local = (size_t)s->cb[CB_WG];
    cl_kernel micro = clmem_run_kernel(run, v), pack_m_kernel = clmem_run_more_kernel(run, v, 0),
              pack_n_kernel = clmem_run_more_kernel(run, v, 1);
    int status;
    if ((status = clmem_kernel_args(pack_m_kernel, err, CLMEM_ARG(s->dM), CLMEM_ARG(s->dMp),
                                    CLMEM_ARG(rows), CLMEM_ARG(inner))) ||
        (status = clmem_launch(run->ctx, pack_m_kernel, 2, pack_m, NULL, timing, err)) ||
        (status = clmem_kernel_args(pack_n_kernel, err, CLMEM_ARG(s->dN), CLMEM_ARG(s->dNp),
                                    CLMEM_ARG(cols), CLMEM_ARG(inner))) ||
        (status = clmem_launch(run->ctx, pack_n_kernel, 2, pack_n, NULL, timing, err)) ||
        (status =
             clmem_kernel_args(micro, err, CLMEM_ARG(s->dMp), CLMEM_ARG(s->dNp), CLMEM_ARG(s->dP),
                               CLMEM_ARG(rows), CLMEM_ARG(cols), CLMEM_ARG(inner))))
        return status;
    return clmem_launch(run->ctx, micro, 1, &tiles, &local, timing, err);
}

/* A regblock kernel whose arguments are set, over a rows x cols P: one
 * work-item per WPTM x WPTN block of it. */
static int regblock_launch(struct clmem_run *run, cl_kernel kernel, size_t rows, size_t cols,
                           struct clmem_timing *timing, struct clmem_error *err)
{
    const struct matmul_state *s = run->state;
    size_t tsm = (size_t)s->rb[P_TSM], tsn = (size_t)s->rb[P_TSN];
    size_t local[2] = {tsn / (size_t)s->rb[P_WPTN], tsm / (size_t)s->rb[P_WPTM]};
    size_t global[2] = {(cols + tsn - 1) / tsn * local[0], (rows + tsm - 1) / tsm * local[1]};
    return clmem_launch(run->ctx, kernel, 2, global, local, timing, err);
}

/* A copy kernel whose arguments are set, over rows x cols: work-groups of
 * 32 x 8 (as the device allows), the range rounded up to them. */
static int copy_launch(struct clmem_run *run, cl_kernel kernel, size_t rows, size_t cols,
                       struct clmem_timing *timing, struct clmem_error *err)
{
    size_t group = clmem_pick_group(&run->ctx->device, 256);
    size_t local[2] = {group < 32 ? group : 32, group < 32 ? 1 : group / 32};
    size_t global[2] = {(cols + local[0] - 1) / local[0] * local[0],
                        (rows + local[1] - 1) / local[1] * local[1]};
    return clmem_launch(run->ctx, kernel, 2, global, local, timing, err);
}

/* regblock's or regblock_padded's multiply of M by N into P (rows x cols,
 * K inner), its kernels' arguments the same: stream-K where given its
 * kernel `sk` (one dimension: the groups that share blocks, then a group
 * per remaining block), else `gemm`, a group per block. */
static int regblock_gemm(struct clmem_run *run, cl_kernel gemm, cl_kernel sk, cl_mem M, cl_mem N,
                         cl_mem P, size_t rows, size_t cols, size_t inner,
                         struct clmem_timing *timing, struct clmem_error *err)
{
    const struct matmul_state *s = run->state;
    cl_int r = (cl_int)rows, c = (cl_int)cols, k = (cl_int)inner;
    if (!sk) {
        int status = clmem_kernel_args(gemm, err, CLMEM_ARG(M), CLMEM_ARG(N), CLMEM_ARG(P),
                                       CLMEM_ARG(r), CLMEM_ARG(c), CLMEM_ARG(k));
        return status ? status : regblock_launch(run, gemm, rows, cols, timing, err);
    }
    cl_int groups = (cl_int)s->sk_groups, tiles = (cl_int)s->sk_tiles;
    size_t tsm = (size_t)s->rb[P_TSM], tsn = (size_t)s->rb[P_TSN];
    size_t local[2] = {tsn / (size_t)s->rb[P_WPTN], tsm / (size_t)s->rb[P_WPTM]};
    size_t blocks = (rows + tsm - 1) / tsm * ((cols + tsn - 1) / tsn);
    size_t global[2] = {(s->sk_groups + blocks - s->sk_tiles) * local[0], local[1]};
    int status = clmem_kernel_args(sk, err, CLMEM_ARG(M), CLMEM_ARG(N), CLMEM_ARG(P), CLMEM_ARG(r),
                                   CLMEM_ARG(c), CLMEM_ARG(k), CLMEM_ARG(s->dPartial),
                                   CLMEM_ARG(s->dArrived), CLMEM_ARG(groups), CLMEM_ARG(tiles));
    return status ? status : clmem_launch(run->ctx, sk, 2, global, local, timing, err);
}

/* regblock_padded: M and N padded (two launches), the unchecked kernel on
 * the padded copies, P copied out of its padded copy; all four launches are
 * the variant's time. Dimensions that are whole tiles: the kernel alone, on
 * the run's buffers. */
static int regblock_padded_execute(struct clmem_run *run, const struct clmem_variant *v,
                                   struct matmul_state *s, struct clmem_timing *timing,
                                   struct clmem_error *err)
{
    cl_kernel pad = clmem_run_more_kernel(run, v, 0), unpad = clmem_run_more_kernel(run, v, 1),
              gemm = clmem_run_kernel(run, v),
              sk = s->sk_groups ? clmem_run_more_kernel(run, v, 2) : NULL;
    cl_int rows = (cl_int)s->host.rows, cols = (cl_int)s->host.cols, inner = (cl_int)s->host.inner,
           prows = (cl_int)s->padded[0], pcols = (cl_int)s->padded[1],
           pinner = (cl_int)s->padded[2];
    int status;
    if (!s->dPpad)
        return regblock_gemm(run, gemm, sk, s->dM, s->dN, s->dP, s->host.rows, s->host.cols,
                             s->host.inner, timing, err);
    if ((status =
             clmem_kernel_args(pad, err, CLMEM_ARG(s->dM), CLMEM_ARG(s->dMpad), CLMEM_ARG(rows),
                               CLMEM_ARG(inner), CLMEM_ARG(prows), CLMEM_ARG(pinner))) ||
        (status = copy_launch(run, pad, s->padded[0], s->padded[2], timing, err)) ||
        (status =
             clmem_kernel_args(pad, err, CLMEM_ARG(s->dN), CLMEM_ARG(s->dNpad), CLMEM_ARG(inner),
                               CLMEM_ARG(cols), CLMEM_ARG(pinner), CLMEM_ARG(pcols))) ||
        (status = copy_launch(run, pad, s->padded[2], s->padded[1], timing, err)) ||
        (status = regblock_gemm(run, gemm, sk, s->dMpad, s->dNpad, s->dPpad, s->padded[0],
                                s->padded[1], s->padded[2], timing, err)) ||
        (status = clmem_kernel_args(unpad, err, CLMEM_ARG(s->dPpad), CLMEM_ARG(s->dP),
                                    CLMEM_ARG(rows), CLMEM_ARG(cols), CLMEM_ARG(pcols))))
        return status;
    return copy_launch(run, unpad, s->host.rows, s->host.cols, timing, err);
}

/* splitk: the blocks of P by K slices (one launch of three dimensions:
 * blocks across, blocks down, slices), each slice into its part of the
 * workspace, then the slices added into P (a launch of a float4 a
 * work-item); with one slice, the first launch alone, into P. */
static int splitk_execute(struct clmem_run *run, const struct clmem_variant *v,
                          struct matmul_state *s, struct clmem_timing *timing,
                          struct clmem_error *err)
{
    const int *k = s->split.p;
    cl_kernel gemm = clmem_run_kernel(run, v), sum = clmem_run_more_kernel(run, v, 0);
    cl_int rows = (cl_int)s->host.rows, cols = (cl_int)s->host.cols, inner = (cl_int)s->host.inner,
           slice = (cl_int)s->split.slice_steps, slices = (cl_int)k[SPL_SPLITS];
    cl_mem work = slices > 1 ? s->dWork : s->dP;
    size_t tsm = (size_t)k[SPL_TSM], tsn = (size_t)k[SPL_TSN];
    size_t local[3] = {tsn / (size_t)k[SPL_WPTN], tsm / (size_t)k[SPL_WPTM], 1};
    size_t global[3] = {(s->host.cols + tsn - 1) / tsn * local[0],
                        (s->host.rows + tsm - 1) / tsm * local[1], (size_t)slices};
    int status =
        clmem_kernel_args(gemm, err, CLMEM_ARG(s->dM), CLMEM_ARG(s->dN), CLMEM_ARG(work),
                          CLMEM_ARG(rows), CLMEM_ARG(cols), CLMEM_ARG(inner), CLMEM_ARG(slice));
    if (status || (status = clmem_launch(run->ctx, gemm, 3, global, local, timing, err)) ||
        slices == 1)
        return status;
    cl_int n = rows * cols;
    size_t group = clmem_pick_group(&run->ctx->device, CLMEM_GROUP_SIZE),
           items = ((size_t)n + 3) / 4;
    size_t sum_global = (items + group - 1) / group * group;
    if ((status = clmem_kernel_args(sum, err, CLMEM_ARG(s->dWork), CLMEM_ARG(s->dP), CLMEM_ARG(n),
                                    CLMEM_ARG(slices))))
        return status;
    return clmem_launch(run->ctx, sum, 1, &sum_global, &group, timing, err);
}

static int matmul_execute(struct clmem_run *run, const struct clmem_variant *v,
                          struct clmem_timing *timing, struct clmem_error *err)
{
    struct matmul_state *s = run->state;
    if (v == &matmul_variants[AUTO])
        v = s->chosen;
    if (v == &matmul_variants[OPENBLAS])
        return clmem_openblas_sgemm(s->host.rows, s->host.cols, s->host.inner, s->host.M, s->host.N,
                                    s->host.P, timing, err);
    if (v == &matmul_variants[CPU_BLOCKED])
        return cpu_blocked_execute(run, v, s, timing, err);
    if (v == &matmul_variants[REGBLOCK_PADDED])
        return regblock_padded_execute(run, v, s, timing, err);
    if (v == &matmul_variants[SPLITK])
        return splitk_execute(run, v, s, timing, err);
    if (v->library)
        return clmem_clblast_sgemm(run->ctx, s->host.rows, s->host.cols, s->host.inner, s->dM,
                                   s->dN, s->dP, timing, err);
    cl_kernel kernel = clmem_run_kernel(run, v);
    if (v == &matmul_variants[REGBLOCK])
        return regblock_gemm(run, kernel, s->sk_direct ? clmem_run_more_kernel(run, v, 0) : NULL,
                             s->dM, s->dN, s->dP, s->host.rows, s->host.cols, s->host.inner, timing,
                             err);
    cl_int rows = (cl_int)s->host.rows, cols = (cl_int)s->host.cols, inner = (cl_int)s->host.inner;
    int status =
        clmem_kernel_args(kernel, err, CLMEM_ARG(s->dM), CLMEM_ARG(s->dN), CLMEM_ARG(s->dP),
                          CLMEM_ARG(rows), CLMEM_ARG(cols), CLMEM_ARG(inner));
    if (status)
        return status;
    size_t global[2] = {s->host.cols, s->host.rows}, local[2] = {s->tile, s->tile};
    /* Each coarsened work-group covers COARSE_FACTOR tiles of columns. */
    if (v == &matmul_variants[COARSENED])
        global[0] =
            (s->host.cols + s->tile * COARSE_FACTOR - 1) / (s->tile * COARSE_FACTOR) * s->tile;
    if (v == &matmul_variants[PANEL]) {
        /* One work-item per PANEL_ROWS x 16 panel; the work-group is the
         * driver's choice (a CPU runs groups on its cores). */
        size_t rows = (size_t)s->panel_rows;
        size_t panels[2] = {(s->host.cols + 15) / 16, (s->host.rows + rows - 1) / rows};
        return clmem_launch(run->ctx, kernel, 2, panels, NULL, timing, err);
    }
    return clmem_launch(run->ctx, kernel, 2, global, local, timing, err);
}

static int matmul_prepare(struct clmem_run *run, const struct clmem_variant *v,
                          struct clmem_error *err)
{
    (void)v;
    struct matmul_state *s = run->state;
    return clmem_buffer_poison(run->ctx, s->dP, s->host.rows * s->host.cols * sizeof(float), err);
}

static int matmul_verify(struct clmem_run *run, const struct clmem_variant *v,
                         struct clmem_check *check, struct clmem_error *err)
{
    struct matmul_state *s = run->state;
    const struct clmem_variant *asked = v;
    if (v == &matmul_variants[AUTO])
        v = s->chosen;
    /* OpenBLAS wrote its P on the host. */
    int status =
        v == &matmul_variants[OPENBLAS]
            ? CLMEM_OK
            : clmem_buffer_read(run->ctx, s->dP, s->host.rows * s->host.cols * sizeof(float),
                                s->host.P, err);
    if (status)
        return status;
    matmul_problem_check(&s->host, check);
    if (v == &matmul_variants[OPENBLAS])
        clmem_openblas_describe(check->note, sizeof check->note);
    size_t tsm = (size_t)s->rb[P_TSM], tsn = (size_t)s->rb[P_TSN];
    if ((v == &matmul_variants[REGBLOCK] && s->sk_direct) ||
        (v == &matmul_variants[REGBLOCK_PADDED] && s->sk_groups))
        snprintf(check->note, sizeof check->note,
                 "stream-K: %zu work-groups share %zu of %zu blocks", s->sk_groups, s->sk_tiles,
                 (s->host.rows + tsm - 1) / tsm * ((s->host.cols + tsn - 1) / tsn));
    if (v == &matmul_variants[SPLITK]) {
        char plan[sizeof check->note - 16];
        splitk_describe(&s->split, plan, sizeof plan);
        snprintf(check->note, sizeof check->note, "split-K: %s", plan);
    }
    if (asked == &matmul_variants[AUTO]) {
        /* The choice first, so that a long note keeps it; its parameters
         * from the tuning database (regblock_padded takes regblock's). */
        size_t index = (size_t)(v - matmul_variants);
        int tuned = run->from_database[v == &matmul_variants[REGBLOCK_PADDED] ? REGBLOCK : index];
        char kept[sizeof check->note];
        memcpy(kept, check->note, sizeof kept);
        int len = snprintf(check->note, sizeof check->note, "auto: %s (%s)%s", v->name,
                           s->chosen_why, tuned ? ", tuned parameters (clmem tune)" : "");
        /* The variant's own note after it, where it fits whole. */
        if (kept[0] && len > 0 && (size_t)len + 2 + strlen(kept) < sizeof check->note)
            snprintf(check->note + len, sizeof check->note - (size_t)len, "; %s", kept);
    }
    return CLMEM_OK;
}

void matmul_problem_check(const struct matmul_problem *p, struct clmem_check *check)
{
    /* Float accumulation of `inner` terms: the error bound grows with K. */
    clmem_check_init(check, (double)p->inner * FLT_EPSILON + 1e-6);
    if (p->n_ref_rows < p->rows)
        snprintf(check->scope, sizeof check->scope, "%zu of %zu rows", p->n_ref_rows, p->rows);
    for (size_t r = 0; r < p->n_ref_rows; r++) {
        size_t i = p->ref_row[r];
        for (size_t j = 0; j < p->cols; j++)
            clmem_check_value(check, p->ref[r * p->cols + j], p->P[i * p->cols + j],
                              p->ref_magnitude[r * p->cols + j], "P[row %zu][col %zu]", i, j);
    }
}

void matmul_problem_free(struct matmul_problem *p)
{
    free(p->M);
    free(p->N);
    free(p->P);
    free(p->ref_row);
    free(p->ref);
    free(p->ref_magnitude);
    memset(p, 0, sizeof *p);
}

double matmul_flops_per_byte(size_t rows, size_t cols, size_t inner)
{
    double m = (double)rows, n = (double)cols, k = (double)inner;
    return 2.0 * m * n * k / (sizeof(float) * (m * k + k * n + m * n));
}

/* 2MNK / (4(MK + KN + MN)): matmul_flops_per_byte. */
static double matmul_intensity(const struct clmem_run *run, const struct clmem_variant *v)
{
    (void)v;
    return matmul_flops_per_byte(run->size.dim[0], run->size.dim[1], run->size.dim[2]);
}

int matmul_block_setup(struct clmem_run *run, const float *M, const float *N, cl_mem_flags p_flags,
                       struct clmem_error *err)
{
    struct matmul_state *s = run->state;
    s->block = 1;
    s->p_flags = p_flags;
    s->host.M = (float *)M; /* not written, not freed: the caller's */
    s->host.N = (float *)N;
    return matmul_setup(run, err);
}

void matmul_block_buffers(const struct clmem_run *run, cl_mem *M, cl_mem *N, cl_mem *P)
{
    const struct matmul_state *s = run->state;
    *M = s->dM;
    *N = s->dN;
    *P = s->dP;
}

int matmul_block_launch(struct clmem_run *run, const struct clmem_variant *v, cl_mem M, cl_mem N,
                        cl_mem P, struct clmem_timing *timing, struct clmem_error *err)
{
    struct matmul_state *s = run->state;
    cl_mem own[3] = {s->dM, s->dN, s->dP};
    s->dM = M;
    s->dN = N;
    s->dP = P;
    int status = matmul_execute(run, v, timing, err);
    s->dM = own[0];
    s->dN = own[1];
    s->dP = own[2];
    return status;
}

static void matmul_teardown(struct clmem_run *run)
{
    struct matmul_state *s = run->state;
    clmem_release_mem(&s->dM);
    clmem_release_mem(&s->dN);
    clmem_release_mem(&s->dP);
    clmem_release_mem(&s->dMp);
    clmem_release_mem(&s->dNp);
    clmem_release_mem(&s->dMpad);
    clmem_release_mem(&s->dNpad);
    clmem_release_mem(&s->dPpad);
    clmem_release_mem(&s->dPartial);
    clmem_release_mem(&s->dArrived);
    clmem_release_mem(&s->dWork);
    /* A block's inputs are its caller's. */
    if (s->block)
        s->host.M = s->host.N = NULL;
    matmul_problem_free(&s->host);
}

static const char *const matmul_bench_sizes[] = {"1024", "2048", "4096", "8192", NULL};
static const char *const matmul_bench_sizes_cpu[] = {"512", "1024", NULL};

const struct clmem_workload clmem_workload_matmul = {
    .name = "matmul",
    .summary = "matrix multiplication P = M x N, single precision",
    .source = "matmul.cl",
    .default_size = "1024",
    .bench_sizes = matmul_bench_sizes,
    .bench_sizes_cpu = matmul_bench_sizes_cpu,
    .tunables = matmul_tunables,
    .n_tunables = CLMEM_ARRAY_SIZE(matmul_tunables),
    .param_tables = matmul_param_tables,
    .n_param_tables = CLMEM_ARRAY_SIZE(matmul_param_tables),
    .size_help = "N (square) or MxNxK: P is MxN, M is MxK, N is KxN",
    .max_dims = 3,
    /* Every dimension 3, 1 and 2 mod 4 (float4 edges) and cut by each tile
     * (TILE_WIDTH 32, regblock's TSM/TSN 64 and TSK 16 on Oclgrind, panel
     * 8x16): 7x7x7 under every tile, 33x17x9 one past 32 and 8, 66x34x18
     * two past 64, 32 and 16, 35x19x11 three past 32 and 8. (At 33x17x9
     * alone, a float4 load reading one float past a row passed.) */
    .check_sizes = "7x7x7 33x17x9 66x34x18 35x19x11",
    .variants = matmul_variants,
    .n_variants = CLMEM_ARRAY_SIZE(matmul_variants),
    .metric_unit = "GFLOP/s",
    .state_size = sizeof(struct matmul_state),
    .plan = matmul_plan,
    .setup = matmul_setup,
    .execute = matmul_execute,
    .prepare = matmul_prepare,
    .verify = matmul_verify,
    .work_per_element = 2.0, /* 2*M*N*K flops, as the seeds count them */
    .intensity = matmul_intensity,
    .teardown = matmul_teardown,
};
