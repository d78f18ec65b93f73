/* What matmul's files share (not part of libclmem's interface): matmul.c
 * (the variants, their set-up, run and check), matmul_params.c (the
 * parameter database's tables and what fits a device), matmul_model.c
 * (splitk's plan and --variant auto's rules), matmul_launch.c (the
 * multi-kernel variants' launches); matmul_problem.h the problem on the
 * host. matmul.c calls the others; model calls params; none calls up. */
#ifndef CLMEM_WORKLOADS_MATMUL_INTERNAL_H
#define CLMEM_WORKLOADS_MATMUL_INTERNAL_H

#include "workloads/matmul_problem.h"

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
    int rate;           /* its tile's row's RATEU (per mille of a unit's share) */
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

/* P elements per work-item in the coarsened kernel (Fig 5.17 uses 2; 4
 * reuses each M tile more and still fits every device's registers). */
#define COARSE_FACTOR 4

/* The traffic hook (matmul_traffic.c): what each kernel moves by design. */
struct clmem_traffic;
void matmul_traffic(const struct clmem_run *run, const struct clmem_variant *v,
                    struct clmem_traffic *t);

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
 * cl/matmul_regblock.cl); 0: a group per block. Not in regblock's search:
 * the whole-device fit times it (matmul_fit_stream_k); a tuned shape
 * takes the value of the row of the same shape, else 0. */
enum { P_TSM, P_TSN, P_TSK, P_WPTM, P_WPTN, P_SK_UNITS };

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

/* What a device does in a second, for splitk's model, by the kind of
 * device the model weighs it as (splitk_cpu): a compute unit's share of
 * regblock's SGEMM rate at a clock (scaled to the device's clock), the
 * copy bandwidth that the slices' sums go through, and a launch (the
 * second pass's). */
enum { SR_UNIT_FLOPS, SR_MHZ, SR_BYTES, SR_LAUNCH_S };

/* What a GPU does in a second, for auto's padding cost (pad_cost): the
 * SGEMM rate, the copy bandwidth and a launch. */
enum { AR_FLOPS, AR_BYTES, AR_LAUNCH_S };

/* auto's thresholds: splitk instead of regblock only where the model puts
 * splitk's time at most splitk_ratio of regblock's (a tie runs regblock,
 * whose kernel the host specialises more); what regblock loses to its
 * edges, as a share of its time, where K or N is not a multiple of 4
 * (unaligned_loss) and where they are but the tiles are cut
 * (aligned_loss): padding wins where it costs less than that. */
enum { AT_SPLITK_RATIO, AT_UNALIGNED_LOSS, AT_ALIGNED_LOSS };

/* Rows of P per work-item in the panel kernel (16 columns each): 8 float16
 * accumulators fill half of AVX-512's registers (a quarter of AVX2's in
 * pairs); tunable (PANEL_ROWS). */
#define PANEL_ROWS 8

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
    int rb_rate; /* regblock's tile's RATEU where split_ratio is weighed */
};

/* ---- matmul_params.c: the parameter database's tables, the rows a device gets, what fits it, what
 * `clmem tune` searches ---- */
extern const struct clmem_param_table regblock_table;
extern const struct clmem_param_table splitk_table;
extern const struct clmem_param_table splitk_rates_table;
extern const struct clmem_param_table auto_rates_table;
extern const struct clmem_param_table auto_thresholds_table;
extern const struct clmem_param_table *const matmul_param_tables[6]; /* sized, as matmul_tunables */
const struct clmem_param_row *param_row(const struct clmem_param_table *t,
                                        const struct clmem_device *device);
const int *cpu_blocked_row(const struct clmem_device *device);
int cpu_blocked_packed(const int *cb, size_t rows, size_t cols, size_t inner, size_t *m_elems,
                       size_t *n_elems);
size_t regblock_max_steps(const struct clmem_device *device, const int rb[]);
const char *regblock_loop_misfit(const struct clmem_device *device, const int rb[], size_t inner,
                                 char *why, size_t size);
const char *regblock_padded_misfit(const struct clmem_device *device, const size_t dim[3],
                                   char *why, size_t size);
const char *cpu_blocked_misfit(const struct clmem_device *device, const size_t dim[3], char *why,
                               size_t size);
void fit_regblock(const struct clmem_device *device, const int *row, int rb[]);
int regblock_valid(const struct clmem_device *device, const int v[]);
extern const struct clmem_tunable matmul_tunables[4]; /* sized: the workload's table counts them */
struct stream_k_plan stream_k_plan_of(const struct clmem_device *device, const int rb[],
                                      const size_t dim[3]);
void builtin_regblock(const struct clmem_device *device, size_t rows, size_t cols, int rb[]);

/* ---- matmul_model.c: splitk's plan (its model of a device's time) and the rules of --variant auto
 * ---- */
void splitk_plan_of(const struct clmem_device *device, const size_t dim[3], const int *tuned,
                    struct splitk_plan *plan);
void splitk_describe(const struct splitk_plan *plan, char *out, size_t size);
const char *auto_misfit(const struct clmem_device *device, int variant, const size_t dim[3],
                        const int rb[], char *why, size_t size);
int auto_decide(const struct clmem_device *device, const size_t dim[3], const int rb[],
                const struct clmem_variant *variants, char *why, size_t size);
/* What auto weighs about a size on a device with regblock's parameters rb. */
void auto_shape_of(const struct clmem_device *device, const size_t dim[3], const int rb[],
                   struct auto_shape *f);

/* ---- matmul_fit.c: the model's rates and thresholds measured on a device (clmem tune) ---- */
int matmul_fit(struct clmem_ctx *ctx, struct clmem_fit *fit, struct clmem_error *err);

/* ---- matmul_launch.c: the launches of the variants that take more than one kernel ---- */
int cpu_blocked_execute(struct clmem_run *run, const struct clmem_variant *v,
                        struct matmul_state *s, struct clmem_timing *timing,
                        struct clmem_error *err);
int regblock_gemm(struct clmem_run *run, cl_kernel gemm, cl_kernel sk, cl_mem M, cl_mem N, cl_mem P,
                  size_t rows, size_t cols, size_t inner, struct clmem_timing *timing,
                  struct clmem_error *err);
int regblock_padded_execute(struct clmem_run *run, const struct clmem_variant *v,
                            struct matmul_state *s, struct clmem_timing *timing,
                            struct clmem_error *err);
int splitk_execute(struct clmem_run *run, const struct clmem_variant *v, struct matmul_state *s,
                   struct clmem_timing *timing, struct clmem_error *err);

#endif
