/* What matmul.c gives the runs that multiply over several devices
 * (matmul_split.c, and SUMMA in src/mpi/summa.c): the problem on the host
 * with its CPU reference, and blocks, matmul runs whose launches multiply
 * the buffers their caller gives. Not part of libclmem's interface. */
#ifndef CLMEM_WORKLOADS_MATMUL_H
#define CLMEM_WORKLOADS_MATMUL_H

#include "workloads/matmul_problem.h"

extern const struct clmem_workload clmem_workload_matmul;

/* A block: a run of matmul planned (clmem_run_plan) at the block's size
 * with one kernel variant, set up here from host inputs that the caller
 * keeps (its M, rows x inner, and N, inner x cols: copied into the run's
 * own buffers); P gets p_flags (0: write-only). The run is released as any
 * other (clmem_run_release), its inputs left to the caller. */
int matmul_block_setup(struct clmem_run *run, const float *M, const float *N, cl_mem_flags p_flags,
                       struct clmem_error *err);
/* The run's own buffers. */
void matmul_block_buffers(const struct clmem_run *run, cl_mem *M, cl_mem *N, cl_mem *P);
/* One multiplication with variant v of M by N into P, buffers of the
 * block's sizes (the run's own, or the caller's), timed in `timing`. */
int matmul_block_launch(struct clmem_run *run, const struct clmem_variant *v, cl_mem M, cl_mem N,
                        cl_mem P, struct clmem_timing *timing, struct clmem_error *err);

/* `--variant auto`: the variant that the rule table in matmul.c chooses
 * for P = M x N of rows x cols (K inner) on `device`, with regblock's
 * built-in parameters for it (a run also weighs the tuning database), and
 * why, as the result's note says it ("N=1000 not a multiple of 128; ...").
 * Reads what the parameter tables match (name, vendor, family, type), the
 * compute units, the work-group and local-memory limits and the memory
 * sizes: a device made up by hand will do. */
const char *matmul_auto_choose(const struct clmem_device *device, size_t rows, size_t cols,
                               size_t inner, char *why, size_t why_size);

/* The note of an auto run into note (size bytes): "auto: VARIANT (WHY)",
 * ", tuned parameters (clmem tune)" where the tuning database gave them,
 * then the chosen variant's own note (`kept`: its stream-K or split-K
 * plan, "" for none) where it fits whole. */
void matmul_auto_note(char *note, size_t size, const char *variant, const char *why, int tuned,
                      const char *kept);

/* `--variant splitk`'s plan for P = M x N of rows x cols (K inner) on
 * `device`, from its built-in rows (a run also weighs the tuning
 * database), as the result's note says it ("64x128 tiles, 64 blocks, K in
 * 8 slices of 128 steps: 512 work-groups"): the number of K slices. Reads
 * what matmul_auto_choose reads. */
int matmul_splitk_choose(const struct clmem_device *device, size_t rows, size_t cols, size_t inner,
                         char *plan, size_t plan_size);

/* The tiles whose rates `clmem tune` fits as splitk's rows on `device`
 * (its regblock rows' tiles, a GPU's thin tiles of its first, the shipped
 * splitk tiles), as "TSMxTSNxTSK/WPTMxWPTN" words in `out`: how many. */
size_t matmul_fit_tiles(const struct clmem_device *device, char *out, size_t size);
/* `clmem tune`'s model step sets SK_UNITS (stream-K's work-groups a
 * compute unit) in the device's fitted regblock row of tile rb (TSM, TSN,
 * TSK, WPTM, WPTN), by regblock's times at shapes whose last wave is part
 * full, K = inner; kept in the fitted rows (the row's note says the
 * times). No fitted row of the tile: nothing done. Interrupted or out of
 * the fit's deadline: the row as it was. */
int matmul_fit_stream_k(struct clmem_ctx *ctx, struct clmem_fit *fit, const int *rb, size_t inner,
                        struct clmem_error *err);

/* A split block is cut into up to this many tiles of P a side
 * (matmul_split.c), each one matmul launch, so that copies overlap kernels. */
#define CLMEM_SPLIT_TILES 4

#endif
