/* What a workload author uses (the workload SDK): a workload is a static
 * table entry (struct clmem_workload) whose hooks the harness calls in one
 * loop: plan, set up, warm up, time, verify, tear down. Adding a workload
 * is its .c (defining clmem_workload_NAME), its .cl, its test, its row in
 * README's workload table and its name in meson.build's list `workloads`,
 * from which the build makes the list src/workloads/registry.c reads
 * (docs/development.md, "Adding a workload"). */
#ifndef CLMEM_HARNESS_WORKLOAD_H
#define CLMEM_HARNESS_WORKLOAD_H

#include "opencl/opencl.h"

/* ---- checking against the CPU reference (check.c) ---- */
/* What a result keeps of the mismatches (struct clmem_result.verify_detail). */
#define CLMEM_MAX_MISMATCH_LINES 10
/* Collects mismatches the BabelStream way: counts them all, keeps the first
 * few as text, tracks the largest relative error seen. */
/* A result's note: room for auto's choice and reason, the chosen
 * variant's own note (a stream-K or split-K plan), the tuned parameters'
 * mention and the model-error clause together. */
#define CLMEM_NOTE_SIZE 256

struct clmem_check {
    double max_rel_error;
    double tolerance;
    size_t checked, mismatches;
    char scope[64]; /* "" when every value was checked, else what was sampled */
    char note[CLMEM_NOTE_SIZE]; /* what the run produced, for the reader: an estimate, a count */
    char lines[CLMEM_MAX_MISMATCH_LINES][160];
};
void clmem_check_init(struct clmem_check *check, double tolerance);
/* Compares one value; `scale` is the magnitude the error is relative to. */
void clmem_check_value(struct clmem_check *check, double expected, double got, double scale,
                       const char *where_fmt, size_t a, size_t b);
int clmem_check_passed(const struct clmem_check *check);
/* Counts one mismatch that is not a value (a guard zone written, padding
 * touched), described by the format, kept among the first few lines. */
void clmem_check_mismatch(struct clmem_check *check, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Kahan-compensated sum of x[0..n) in double: the CPU reference of sums. */
double clmem_sum_kahan(const float *x, size_t n);

/* ---- the device's own peaks (workload "peak") ---- */
struct clmem_peak {
    double bandwidth;      /* GB/s of a float4 copy, read + write */
    double flops;          /* GFLOP/s of FP32 fused multiply-adds */
    double read_bandwidth; /* GB/s of float4 reads alone; 0 when not measured */
    double launch_us;      /* microseconds a kernel launch costs; 0 when not measured */
};

/* ---- a workload ---- */
struct clmem_run; /* one workload prepared on one device at one size */

#define CLMEM_MORE_KERNELS 3

/* How a sum's variant runs its passes (sum.c, struct clmem_sum). */
enum clmem_sum_shape {
    CLMEM_SUM_PASSES,      /* a work-item per value, pass after pass */
    CLMEM_SUM_GRID_STRIDE, /* a fixed number of groups, then one */
    CLMEM_SUM_ONE_LAUNCH,  /* the same in one launch: the last group sums */
};

/* What a variant of the peak workload measures (struct clmem_peak). */
enum clmem_peak_role {
    CLMEM_PEAK_NONE,
    CLMEM_PEAK_COPY,   /* bandwidth: GB/s read + written */
    CLMEM_PEAK_READ,   /* read_bandwidth */
    CLMEM_PEAK_FMA,    /* flops */
    CLMEM_PEAK_LAUNCH, /* launch_us, from launches per ns */
};

struct clmem_variant {
    const char *name;
    const char *summary; /* what it shows and which seed figure it follows */
    const char *kernel;  /* its kernel function, in `source` */
    /* NULL when the size suits the variant; else why not (the textbook kernels'
     * limits), pointing at the variant that handles any size. */
    const char *(*unsupported)(const struct clmem_run *run, char *why, size_t why_size);
    /* A variant may sweep one parameter (the coalescing offsets, strides):
     * it then runs once per value first..last, each a result of its own,
     * with run->sweep_value set. NULL sweep: one run. */
    const char *sweep;
    unsigned sweep_first, sweep_last;
    /* Some variants exist only on devices that report a feature (cl_khr_fp64). */
    const char *needs_extension;
    /* NULL: the workload's metric_unit; else this variant's own. */
    const char *metric_unit;
    /* Non-NULL for a vendor library's routine run on the same buffers
     * ("clblast"): left out of "all" unless the run compares with it. */
    const char *library;
    /* The peak a GB/s result is a fraction of: NULL for the copy's (read
     * and write), "read" for work that reads its data and writes next to
     * nothing (a reduction), whose roof is the read bandwidth; "none"
     * for a figure no device-memory peak bounds (a cache's or local
     * memory's bandwidth, a copy from the host): no fraction. */
    const char *roof;
    /* In the peak workload: which of the device's peaks this measures. */
    enum clmem_peak_role peak;
    /* The .cl file of its kernels; NULL: the workload's. The textbook
     * kernels share the workload's file and the optimised ones have files
     * of their own, so a run builds only the files of its variants. */
    const char *source;
    /* Other kernels of its source that it launches besides `kernel` (a
     * sum's later passes, a packing step), created with it. */
    const char *more_kernels[CLMEM_MORE_KERNELS];
    /* In a workload that sums on the device (reduce, dot): its passes. */
    enum clmem_sum_shape sum;
    /* Small sizes that reach every edge of its kernels (tiles cut short,
     * float4 tails); NULL: the workload's. Oclgrind checks the kernels at
     * each (tests/test_oclgrind.sh reads them from `clmem list --format csv`). */
    const char *check_sizes;
    /* The variant shows a failure by design (atomics' racy one loses
     * updates): reported, verified against what it should compute, never
     * ranked as a device's best. */
    int demonstrates_failure;
};

/* A tunable variant: its parameters (-D names of their own), the values
 * the search tries (as CLBlast keeps its tuners' search spaces as data),
 * and the constraints a candidate must meet on a device. The workload
 * builds its kernels with the values clmem_run_tuned gives, else with its
 * own choice for the device. */
#define CLMEM_MAX_TUNE_VALUES 8
#define CLMEM_MAX_PARAMS      8
struct clmem_tune_param {
    const char *name;
    int values[CLMEM_MAX_TUNE_VALUES]; /* 0 ends the list */
};
struct clmem_tunable {
    const char *variant;
    const struct clmem_tune_param *params;
    size_t n_params; /* at most CLMEM_MAX_PARAMS */
    int (*valid)(const struct clmem_device *device, const int values[]);
    /* What a whole-device fit (`clmem tune` with no workload) leaves out,
     * so its budget goes where `auto` looks: a design for other devices
     * (0: any device; else the types it is for, as a CPU kernel on a
     * GPU), or a variant whose rows the workload's model step fits (a
     * square search says nothing of the thin shapes split-K is for). */
    cl_device_type designed_for;
    int rows_from_model;
};

struct clmem_fit;
struct clmem_traffic;
struct clmem_workload {
    const char *name;
    const char *summary;
    const char *source;       /* the .cl file under cl/ */
    const char *default_size; /* used when --size is absent */
    const char *size_help;    /* what --size means here */
    /* How many parts --size may have: 1 (N), 2 (N or WxH), 0 or 3 (up to
     * MxNxK); the harness refuses more before the plan. */
    int max_dims;
    const char *check_sizes; /* the variants' check_sizes, where they give none */
    const struct clmem_variant *variants;
    size_t n_variants;
    const char *metric_unit; /* "GFLOP/s", "GB/s", ... */
    /* Non-NULL when the workload reads --input FILE and writes an image to
     * --output FILE.pgm|.ppm: what the input may be. */
    const char *input_help;
    size_t state_size; /* bytes of the workload's private state */
    /* Validates the size (usage errors) and fills run->buffer_bytes/n_buffers
     * without allocating, so limits are checked before any work. */
    int (*plan)(struct clmem_run *run, struct clmem_error *err);
    /* Makes inputs, the CPU reference, device buffers and the program. */
    int (*setup)(struct clmem_run *run, struct clmem_error *err);
    /* Optional: after setup, with run->tune_values set to another candidate
     * of a tunable (clmem_run_tuned gives it), derives again what depends
     * on the tuned parameters (a strip's shape, its launch) and builds the
     * program with them (clmem_run_rebuild), so that a tuning search sets
     * up once and runs every candidate on the same inputs. It may change
     * the parameter part of its state and the run's programs, kernels and
     * params; it must not touch the inputs, the CPU reference or the
     * buffers, whose sizes must not depend on the tuned values (a
     * workload whose buffers do has no retune). Outputs are poisoned
     * before each candidate by `prepare` as before any variant. */
    int (*retune)(struct clmem_run *run, struct clmem_error *err);
    /* One execution of a variant; kernels go through clmem_launch. */
    int (*execute)(struct clmem_run *run, const struct clmem_variant *variant,
                   struct clmem_timing *timing, struct clmem_error *err);
    /* Optional, untimed, before a variant's first run: reset its outputs
     * (clmem_buffer_poison) so nothing left by another variant is checked. */
    int (*prepare)(struct clmem_run *run, const struct clmem_variant *variant,
                   struct clmem_error *err);
    /* Reads back and compares with the CPU reference. */
    int (*verify)(struct clmem_run *run, const struct clmem_variant *variant,
                  struct clmem_check *check, struct clmem_error *err);
    /* Optional: the variant's result is final and verified (its values, the
     * loop-in-kernel run's and the guard zones around its outputs): save
     * the output the user asked for (blur: its image in --output FILE.pgm). */
    int (*save_output)(struct clmem_run *run, const struct clmem_variant *variant,
                       struct clmem_error *err);
    /* Work done by one execution, in the metric's unit times 1e9 (flops for
     * GFLOP/s, bytes for GB/s): work_per_element times the size's elements
     * (the product of the max_dims parts of --size: N, WxH, MxNxK), or,
     * where that is not how it counts (the variant's element type, an
     * input image's size), what the hook `work` computes. */
    double work_per_element;
    double (*work)(const struct clmem_run *run, const struct clmem_variant *variant);
    /* Floating-point operations per byte of device memory traffic of one
     * execution (the arithmetic intensity a roofline places a result at):
     * flops_per_byte, 0 for pure data movement, NAN where it means nothing
     * (the metric counts samples or updates); or, where it depends on the
     * size or the device, what the hook `intensity` computes. */
    double flops_per_byte;
    double (*intensity)(const struct clmem_run *run, const struct clmem_variant *variant);
    /* Optional: what one execution of the variant moves at each level and
     * computes, from its design at the run's size and parameters
     * (traffic.h); leaves *t zero for a variant it does not model. */
    void (*traffic)(const struct clmem_run *run, const struct clmem_variant *variant,
                    struct clmem_traffic *t);
    void (*teardown)(struct clmem_run *run);
    /* Optional: the variant whose time every other is compared with (transpose:
     * "copy"); results then carry their fraction of its metric. */
    const char *baseline;
    /* Optional: a second timing with the repetitions inside the kernel (the
     * CUDA transpose example's "loop in kernel" column): one launch doing
     * `loop_reps` passes; the result keeps its time per pass. */
    int (*execute_looped)(struct clmem_run *run, const struct clmem_variant *variant,
                          unsigned loop_reps, struct clmem_timing *timing, struct clmem_error *err);
    /* Sizes `clmem bench` runs (NULL-terminated), on GPUs and accelerators
     * and on CPUs; NULL: the default size. */
    const char *const *bench_sizes;
    const char *const *bench_sizes_cpu;
    /* Optional: what `clmem tune` searches, a variant each (tune.c). */
    const struct clmem_tunable *tunables;
    size_t n_tunables;
    /* The parameter database's tables it reads (clmem_params_check checks
     * them before a run). */
    const struct clmem_param_table *const *param_tables;
    size_t n_param_tables;
    /* Optional: fits the rates and thresholds its planners weigh, on the
     * device, after its tunables (whose fitted rows are in place):
     * measures with clmem_fit_measure and adds rows with clmem_fit_add
     * (tune_device.c). */
    int (*fit)(struct clmem_ctx *ctx, struct clmem_fit *fit, struct clmem_error *err);
};

/* A workload's model being fitted (clmem tune, tune_device.c). */
struct clmem_fit {
    const struct clmem_workload *workload;
    struct clmem_peak peak; /* the device's, measured first */
    unsigned reps;
    uint64_t seed;
    double deadline_ms; /* clmem_now_ms() past which no measurement starts */
    int (*cancelled)(void *user);
    void *cancelled_user;
    const char *command;
    struct clmem_pdb_row *rows; /* what clmem_fit_add added */
    size_t n_rows, cap;
};
/* One variant of the workload at `size` (tune_values: its tunable's
 * values, NULL for its own), verified: its metric and median time.
 * CLMEM_ERR_INTERRUPTED past the deadline or cancelled; a variant that
 * does not verify is CLMEM_ERR_VERIFY. */
int clmem_fit_measure(struct clmem_ctx *ctx, struct clmem_fit *fit, const char *variant,
                      const char *size, const int *tune_values, double *metric, double *median_ms,
                      struct clmem_error *err);
/* The rows added so far kept (the device's fitted rows of their tables
 * replaced by them) and read again, for the rest of the fit to weigh. */
int clmem_fit_keep(struct clmem_ctx *ctx, const struct clmem_fit *fit, struct clmem_error *err);
/* A row of table t for the device (its type), values[] in the table's
 * column order, its note saying what was measured. */
int clmem_fit_add(struct clmem_fit *fit, const struct clmem_device *device,
                  const struct clmem_param_table *t, const double values[], const char *note,
                  struct clmem_error *err);
/* The device's fitted rows of table t (a tunable's, fitted by an earlier
 * step) added to fit as they are, their provenance kept, in their order:
 * a model that sets one of their columns changes them in fit->rows and
 * keeps them. *adopted: how many (0 where the table has no fitted rows). */
int clmem_fit_adopt(struct clmem_fit *fit, const struct clmem_device *device,
                    const struct clmem_param_table *t, size_t *adopted, struct clmem_error *err);

/* The variant of that name, or NULL (run.c). */
const struct clmem_variant *clmem_variant_find(const struct clmem_workload *w, const char *name);

#define CLMEM_MAX_BUFFERS  8
#define CLMEM_MAX_VARIANTS 32
#define CLMEM_MAX_SOURCES  8

/* Guard zones around a run's outputs (clmem_run_output_buffer): the
 * output is a sub-buffer in the middle of a larger buffer whose `guard`
 * bytes before and after it hold CLMEM_GUARD_BYTE; a kernel that writes
 * past the end (or before the start) of its output changes them, and the
 * run reports it as a failed check. */
#define CLMEM_GUARD_BYTE      0xA5
#define CLMEM_GUARD_MIN_BYTES 256
struct clmem_guarded {
    cl_mem parent;    /* guard, output, guard: the run releases it */
    size_t bytes;     /* the output's */
    size_t guard;     /* each zone's: the device's base address alignment, at least the minimum */
    const char *name; /* as the workload's kernels call the output ("odata") */
};

struct clmem_run {
    const struct clmem_workload *workload;
    struct clmem_ctx *ctx;
    struct clmem_size size;
    uint64_t seed;
    size_t buffer_bytes[CLMEM_MAX_BUFFERS]; /* set by plan */
    size_t n_buffers;
    char params[512]; /* the -D parameters chosen for this device, as shown */
    void *state;      /* the workload's own, state_size bytes, zeroed */
    const struct clmem_variant *variants[CLMEM_MAX_VARIANTS]; /* selected */
    size_t n_variants;
    unsigned sweep_value;     /* the current point of a sweeping variant */
    const char *input;        /* --input FILE, for workloads that read one (blur) */
    const char *image_output; /* where such a workload writes its image, or NULL */
    /* The tuner's candidate, for the tunable of the one variant the run
     * selects; or NULL. */
    const int *tune_values;
    int ignore_tuning; /* use the built-in parameters, not the tuning database */
    /* Which variants got their parameters from the tuning database
     * (clmem_run_tuned): their results' notes say so. */
    unsigned char from_database[CLMEM_MAX_VARIANTS];
    /* The bytes of `input`, read once by clmem_run_plan, freed by clmem_run_release. */
    unsigned char *input_data;
    size_t input_size;
    struct clmem_guarded guarded[CLMEM_MAX_BUFFERS]; /* outputs with guard zones */
    size_t n_guarded;
    /* What clmem_run_build made, released by clmem_run_release: a program
     * per source the variants name, each variant's kernel and its passes'. */
    struct {
        const char *source;
        cl_program program;
    } programs[CLMEM_MAX_SOURCES];
    size_t n_programs;
    cl_kernel kernels[CLMEM_MAX_VARIANTS], more_kernels[CLMEM_MAX_VARIANTS][CLMEM_MORE_KERNELS];
};

/* ---- what the workloads' hooks share ---- */
/* Creates an output buffer of `bytes` for the run's kernels (flags as
 * clmem_buffer_create's, no host data), with guard zones before and after
 * it; `name` names it in messages. The workload releases *buffer as any
 * other; the zones go with clmem_run_release. Where the zones do not fit
 * (the device's largest allocation, or CLMEM_MAX_BUFFERS outputs already
 * guarded), and on Oclgrind (which reports accesses outside buffers
 * itself), it is a plain buffer (guards.c). */
int clmem_run_output_buffer(struct clmem_run *run, const char *name, cl_mem_flags flags,
                            size_t bytes, cl_mem *buffer, struct clmem_error *err);
/* Reads every guard zone of the run's outputs back: each zone counts as
 * one value checked, a changed one as a mismatch ("NAME: wrote past the
 * end of its output ..."), and is filled again. The run calls it after
 * each variant's verification. */
int clmem_run_check_guards(struct clmem_run *run, struct clmem_check *check,
                           struct clmem_error *err);
void clmem_run_release_guards(struct clmem_run *run);

/* Builds, with `options` (kept in run->params for the report), each .cl
 * file that a selected variant the device can run (needs_extension) names,
 * once, and creates those variants' kernels and more kernels; the run owns
 * them (run_programs.c). A workload's setup calls it once its parameters
 * are chosen. */
int clmem_run_build(struct clmem_run *run, const char *options, struct clmem_error *err);
/* clmem_run_build again, for a workload's retune: the run's programs and
 * kernels released first (clmem_run_release_programs), so that after a
 * build the driver refused the next one starts clean. */
int clmem_run_rebuild(struct clmem_run *run, const char *options, struct clmem_error *err);
/* The variant's kernel (NULL for a library's routine), and its more
 * kernel i (NULL where it names none). */
cl_kernel clmem_run_kernel(const struct clmem_run *run, const struct clmem_variant *v);
cl_kernel clmem_run_more_kernel(const struct clmem_run *run, const struct clmem_variant *v,
                                size_t i);
/* Finds (in kernel_dir, or the default places when it is NULL or "") and
 * checks readable, before any work, the .cl file of each
 * variant of w that has kernels (`variant` NULL or "all": every one, else
 * that one): a usage error naming the file otherwise. */
int clmem_sources_check(const char *kernel_dir, const struct clmem_workload *w, const char *variant,
                        struct clmem_error *err);
/* The program built from `source` (NULL: the workload's), or NULL. */
cl_program clmem_run_program(const struct clmem_run *run, const char *source);
/* Releases what clmem_run_build made (clmem_run_release calls it). */
void clmem_run_release_programs(struct clmem_run *run);

/* Kernel parameters as data (CLBlast's database, in small; params.c): the
 * shipped parameter database, data/params/ (*.json), one file per level
 * and match (a device "llvmpipe", a family, a vendor "NVIDIA", any), read
 * once per process. A row is for a device by name (`match` part of its
 * name), a family (`match` is struct clmem_device's family: an NVIDIA
 * GPU's compute capability, "cpu-simd512"), a vendor (`match` part of its
 * vendor or platform) or any device, of a type (0: any). The lookup takes
 * the most specific level that has rows for the device: device, then
 * family, then vendor, then any; several rows at one level are candidates
 * the workload chooses among (by size). Above them all, the rows `clmem
 * tune` fitted on this very device (the user's, paramdb_fitted.c: level
 * "fitted", `match` the device's whole name). With CLMEM_PARAMS_GENERIC
 * set (not "" or "0") every shipped row below the level any is ignored:
 * the device runs as one no shipped row knows (its fitted rows still
 * apply: what tune finds on a new GPU). */
enum clmem_param_level {
    CLMEM_PARAM_FITTED,
    CLMEM_PARAM_DEVICE,
    CLMEM_PARAM_FAMILY,
    CLMEM_PARAM_VENDOR,
    CLMEM_PARAM_ANY
};
struct clmem_param_row {
    enum clmem_param_level level;
    const char *match;
    cl_device_type type;
    int values[CLMEM_MAX_PARAMS]; /* a table of whole numbers' (the kernel's -D values) */
};
/* A table's schema, the workload's knowledge: its columns (the kernel's
 * -D names, or the model's rates) in values[] order, and the device types
 * it serves, each of which needs a row at the level any (a bit of
 * CL_DEVICE_TYPE_GPU, _CPU, _ACCELERATOR, and CLMEM_PARAM_UNTYPED for a
 * row of type any). */
#define CLMEM_PARAM_UNTYPED ((cl_device_type)1 << 40)
struct clmem_param_table {
    const char *workload, *name;
    const char *columns[CLMEM_MAX_PARAMS];
    size_t n_columns;
    int real; /* real numbers (rates[]), else whole numbers >= 0 (values[]) */
    cl_device_type serves;
};
/* The device's rows (at most max, in table order) at the most specific
 * level that has any; 0 when none (a table should end with rows for any
 * device of every type). With CLMEM_DEBUG's build bit, says once which
 * level and file the rows of a database table came from. */
size_t clmem_param_rows(const struct clmem_param_row *rows, size_t n,
                        const struct clmem_device *device, const struct clmem_param_row **out,
                        size_t max, enum clmem_param_level *level);
/* "fitted", "device", "family", "vendor", "any device". */
/* Where `clmem tune` keeps the rows it fits: $XDG_CACHE_HOME/clmem/params
 * (clmem_state_dir's); -1 and *why where there is no such place. */
int clmem_params_fitted_dir(char *dir, size_t size, const char **why);
const char *clmem_param_level_name(enum clmem_param_level level);
/* Table t's rows, in the database's order (its files by name, each
 * file's rows in order); only those at the level any under
 * CLMEM_PARAMS_GENERIC. The database is read and t checked on first use:
 * CLMEM_ERR_USAGE naming the file and row where it cannot be (missing,
 * not valid, a row with a column missing or unknown, a value of the wrong
 * type or range, no row at the level any for a type t serves). */
int clmem_param_table_get(const struct clmem_param_table *t, const struct clmem_param_row **rows,
                          size_t *n, struct clmem_error *err);
/* The same where no error can be returned: a run has checked its
 * workload's tables (clmem_params_check) first; one that could not be
 * read ends the process with the message and exit status 2. */
const struct clmem_param_row *clmem_param_table_rows(const struct clmem_param_table *t, size_t *n);
/* A database row's values in a table of real numbers (t->real), in
 * columns' order; NULL for a row that is not the database's. */
const double *clmem_param_rates(const struct clmem_param_row *row);
/* Where a database row came from: its file and its place there (from 1),
 * and its table ("matmul/regblock"); 0 for a row that is not the
 * database's (one written in C, in a test). */
int clmem_param_origin(const struct clmem_param_row *row, const char **file, size_t *index,
                       const char **table);
/* The device's rows of table t (clmem_param_rows over
 * clmem_param_table_rows). */
size_t clmem_param_lookup(const struct clmem_param_table *t, const struct clmem_device *device,
                          const struct clmem_param_row **out, size_t max,
                          enum clmem_param_level *level);
/* The same below the fitted level: the rows the device takes without a
 * fit. */
size_t clmem_param_lookup_shipped(const struct clmem_param_table *t,
                                  const struct clmem_device *device,
                                  const struct clmem_param_row **out, size_t max,
                                  enum clmem_param_level *level);
/* The database read and every table of w checked (clmem_param_table_get),
 * and no row of w's in a table w does not have: before a run's work. */
int clmem_params_check(const struct clmem_workload *w, struct clmem_error *err);
/* The same for every workload of `all` (the registry's), and no row of
 * the database for a workload none of them is. */
int clmem_params_check_all(const struct clmem_workload *const *all, size_t n,
                           struct clmem_error *err);
/* Whether CLMEM_PARAMS_GENERIC is set. */
int clmem_params_generic(void);
/* The database read from `dir` (data/params/) in place of the shipped
 * one, for tests: later lookups read it. */
int clmem_params_reload(const char *dir, struct clmem_error *err);

/* The tuned values of tunable t of w at this size class on this device
 * (tuning_entries.c): 1 and values[] when found and valid on it. An
 * unreadable database, or an entry with a value no parameter takes or a
 * setting the device cannot run, is ignored and described in
 * ctx->tuning_warning. */
int clmem_tuning_lookup(struct clmem_ctx *ctx, const struct clmem_workload *w,
                        const struct clmem_tunable *t, const struct clmem_size *size, int values[]);
/* The values a run builds tunable t's variant with (tuning_entries.c): the
 * tuner's candidate when the run tunes that variant, else the tuning
 * database's entry unless the run ignores it (the variant's result then
 * says "tuned parameters (clmem tune)"): 1 and values[]. 0: none, the
 * workload chooses. */
int clmem_run_tuned(struct clmem_run *run, const struct clmem_tunable *t, int values[]);

/* Whether a workload has a variant that runs `library` (libraries.c). */
int clmem_workload_has_library(const struct clmem_workload *w, const char *library);
/* Validates a --compare choice (usage errors): a library clmem knows, was
 * built with and, when `w` is given, that the workload can run. */
int clmem_compare_check(const struct clmem_workload *w, const char *library,
                        struct clmem_error *err);

/* ---- sums on the device (sum.c: reduce, dot) ---- */
/* A sum in passes, each launching work-groups of `group` work-items that
 * write one partial sum per group, until one value remains (every launch
 * through clmem_launch, so the timing covers all passes). The first pass
 * runs `first` over the n inputs: the caller sets its arguments before
 * first_out_arg, the passes set first_out_arg (the partials, a cl_mem) and
 * first_out_arg + 1 (the count, a cl_uint). Later passes run `sum`, whose
 * arguments are (input, partials, count), over the partials before them,
 * writing scratch[0], scratch[1], scratch[0], ... first_groups == 0: one
 * work-item per value in every pass (ceil(count / group) groups); else
 * the kernels loop over their values (grid-stride) and the first pass runs
 * first_groups groups, the second one group. With a `done` counter (a
 * zeroed uint; grid-stride kernels), one launch does both passes: `first`
 * also takes the total (scratch[1], at first_out_arg + 2) and the counter
 * (+ 3), and the group that finishes last sums the partials. */
struct clmem_sum {
    cl_kernel first, sum;
    cl_uint first_out_arg;
    size_t n, group, first_groups;
    cl_mem scratch[2];
    cl_mem done;
};
/* first_groups for float4 grid-stride kernels summing n values in groups
 * of `group`: per_unit groups per compute unit (0: the default, enough to
 * fill every unit with a few groups, few enough that one group sums their
 * partials quickly), but no more groups than give every work-item a float4
 * to add. */
#define CLMEM_SUM_GROUPS_PER_UNIT 8
size_t clmem_sum_first_groups(const struct clmem_device *device, size_t n, size_t group,
                              size_t per_unit);
/* What `clmem tune` searches in reduce and dot, measured on their
 * "one_pass" variant, the fastest: the grid-stride kernels' work-group
 * (SUM_WG_SIZE; the textbook kernels keep theirs) and groups per compute
 * unit. */
extern const struct clmem_tunable clmem_sum_tunables[1];
/* A workload that sums n values on the device (reduce, dot) keeps this as
 * the first member of its state, so that the harness's hooks below serve
 * as its prepare and verify: the work-groups (the textbook kernels', the
 * device's largest power of two up to CLMEM_GROUP_SIZE; the grid-stride
 * kernels', tuned apart, and their first pass's groups), the scratch
 * buffers, the one-launch counter, the last run's result, the reference
 * (a Kahan sum of inputs >= 0) and the check's extra depth. */
struct clmem_sum_run {
    size_t n, group, coarse_group, groups, per_unit;
    cl_uint first_out_arg; /* the first kernel's partials argument: after its inputs */
    double ref;
    size_t extra_depth;
    cl_mem scratch[2], done, result;
};
/* For plan: n (--size) floats in each of `inputs` vectors, then the two
 * scratch buffers (the most any variant needs) as the run's buffers, so
 * their fit on the device is checked before any work. */
int clmem_sum_plan(struct clmem_run *run, size_t inputs, struct clmem_error *err);
/* For setup, before clmem_run_build: the work-groups (tuned or not), the
 * scratch buffers (guarded) and the counter; `options` gets their -D
 * parameters. */
int clmem_sum_setup(struct clmem_run *run, struct clmem_sum_run *s, char *options, size_t size,
                    struct clmem_error *err);
/* Variant v's sum: its kernel first, the kernel of its later passes (its
 * first more kernel, else its own), its shape (v->sum). */
struct clmem_sum clmem_sum_of(const struct clmem_run *run, const struct clmem_sum_run *s,
                              const struct clmem_variant *v);
/* Variant v's traffic (struct clmem_traffic, traffic.h) summing `inputs`
 * vectors of s->n floats (their products where two): the workloads'
 * traffic hook. */
void clmem_sum_traffic(const struct clmem_run *run, const struct clmem_sum_run *s,
                       const struct clmem_variant *v, size_t inputs, struct clmem_traffic *t);
/* The hooks: prepare (clmem_sum_poison), verify (clmem_sum_check of the
 * last result), and the buffers' release for teardown. */
int clmem_sum_prepare(struct clmem_run *run, const struct clmem_variant *v,
                      struct clmem_error *err);
int clmem_sum_verify(struct clmem_run *run, const struct clmem_variant *v,
                     struct clmem_check *check, struct clmem_error *err);
void clmem_sum_release(struct clmem_sum_run *s);
/* Floats scratch[0] and scratch[1] must hold. */
void clmem_sum_scratch(const struct clmem_sum *sum, size_t counts[2]);
/* Untimed, before a variant runs: fills the floats of scratch[0] and
 * scratch[1] that its passes write with NaN (clmem_buffer_poison), so a
 * pass that writes nothing cannot pass as an earlier variant's sum; zeroes
 * the `done` counter. */
int clmem_sum_poison(struct clmem_ctx *ctx, const struct clmem_sum *sum, struct clmem_error *err);
/* Runs the passes; *result is the scratch buffer whose element 0 is the sum. */
int clmem_sum_passes(struct clmem_ctx *ctx, const struct clmem_sum *sum, cl_mem *result,
                     struct clmem_timing *timing, struct clmem_error *err);
/* The longest chain of float additions from an input to the sum (the
 * summation tree's height) for kernels of the shape above: for inputs >= 0
 * the relative error is at most about depth * FLT_EPSILON / 2 (Higham,
 * "Accuracy and Stability of Numerical Algorithms", 4.2). */
size_t clmem_sum_depth(const struct clmem_sum *sum);
/* Reads the sum in `result` and checks it against `ref` (a Kahan sum of
 * inputs >= 0): exactly while ref <= 2^24 (whole-number inputs), else
 * within the summation tree's height (+ extra_depth) times FLT_EPSILON;
 * the note gives both. */
int clmem_sum_check(struct clmem_ctx *ctx, const struct clmem_sum *sum, cl_mem result, double ref,
                    size_t extra_depth, struct clmem_check *check, struct clmem_error *err);

#endif
