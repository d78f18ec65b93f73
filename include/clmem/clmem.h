/* clmem: portable OpenCL suite of the GPU memory-hierarchy designs.
 * Public interface of libclmem, used by the CLI and the tests. */
#ifndef CLMEM_H
#define CLMEM_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CLMEM_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Status codes double as the CLI's exit codes (README, "Exit codes"). */
enum clmem_status {
    CLMEM_OK = 0,
    CLMEM_ERR_VERIFY = 1, /* a result did not match the CPU reference */
    CLMEM_ERR_USAGE = 2,  /* bad option, size, name, file */
    CLMEM_ERR_CL = 3,     /* no device, or an OpenCL call failed */
    /* Stopped on request (clmem_run_options.cancelled) between variants;
     * the CLI exits 128 + the signal's number (130 for Ctrl-C). */
    CLMEM_ERR_INTERRUPTED = 130,
};

/* What went wrong, carried back to the CLI, which alone prints it.
 * `log` holds a build log when there is one (heap, freed by clear). */
struct clmem_error {
    int status;
    cl_int cl_err;
    char message[2048]; /* a longer one keeps its start and its end (the reason) */
    char *log;
};

void clmem_error_clear(struct clmem_error *err);
/* Records a message; returns `status` so callers can `return clmem_fail(...)`. */
int clmem_fail(struct clmem_error *err, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "CL_INVALID_WORK_GROUP_SIZE" for -54; "CL_UNKNOWN_ERROR(-n)" otherwise. */
const char *clmem_cl_error_name(cl_int code);

/* Wraps one OpenCL call: on failure records the call, function, line and
 * the error's name in `err` and returns CLMEM_ERR_CL from the caller. */
#define CLMEM_CHECK(err, call)                                                                     \
    do {                                                                                           \
        cl_int clmem_rc_ = (call);                                                                 \
        if (clmem_rc_ != CL_SUCCESS)                                                               \
            return clmem_cl_fail((err), clmem_rc_, #call, __func__, __LINE__);                     \
    } while (0)
/* The same, jumping to a `cleanup` label with `status` set instead of returning. */
#define CLMEM_CHECK_GOTO(err, status, call)                                                        \
    do {                                                                                           \
        cl_int clmem_rc_ = (call);                                                                 \
        if (clmem_rc_ != CL_SUCCESS) {                                                             \
            (status) = clmem_cl_fail((err), clmem_rc_, #call, __func__, __LINE__);                 \
            goto cleanup;                                                                          \
        }                                                                                          \
    } while (0)
int clmem_cl_fail(struct clmem_error *err, cl_int code, const char *call, const char *func,
                  int line);

/* CLMEM_DEBUG=bitmask traces to stderr: 1 builds, 2 launches, 4 timings. */
enum { CLMEM_DEBUG_BUILD = 1, CLMEM_DEBUG_LAUNCH = 2, CLMEM_DEBUG_TIMING = 4 };
int clmem_debug_enabled(unsigned bits);

/* ---- devices ---- */
struct clmem_device {
    cl_platform_id platform;
    cl_device_id id;
    unsigned platform_index, device_index;
    char platform_name[128];
    char name[128];
    char vendor[128];
    char version[128];   /* CL_DEVICE_VERSION */
    char driver[128];    /* CL_DRIVER_VERSION */
    char c_version[128]; /* CL_DEVICE_OPENCL_C_VERSION */
    cl_device_type type;
    cl_uint compute_units;
    cl_uint clock_mhz;
    cl_ulong global_mem;
    cl_ulong local_mem;
    cl_ulong max_alloc;
    size_t max_work_group;
    cl_uint base_addr_align_bits; /* CL_DEVICE_MEM_BASE_ADDR_ALIGN */
    int has_fp64;
};

/* Every device of every platform. An empty list is not an error here. */
int clmem_devices_list(struct clmem_device **devices, size_t *count, struct clmem_error *err);
/* Chooses by spec: NULL/"" (first GPU, else first device), "P:D", a type
 * ("gpu", "cpu", "accelerator"), or a case-insensitive name substring. */
int clmem_devices_select(const char *spec, const struct clmem_device *devices, size_t count,
                         size_t *chosen, struct clmem_error *err);
/* Parses a device spec without looking at devices (usage errors only). */
int clmem_devices_parse_spec(const char *spec, struct clmem_error *err);
const char *clmem_device_type_name(cl_device_type type);
/* Whether CL_DEVICE_EXTENSIONS lists `name` (a whole word). */
int clmem_device_has_extension(const struct clmem_device *device, const char *name);

/* ---- one device in use: context, profiling queue, where kernels live ---- */
struct clmem_ctx {
    struct clmem_device device;
    cl_context context;
    cl_command_queue queue;
    char kernel_dir[1024]; /* --kernel-dir, or "" to search the default places */
    /* The compiled-program cache (src/runtime/cache.c): off with --no-cache;
     * what it did; a warning for the CLI when an entry had to be rebuilt. */
    int no_cache;
    unsigned cache_hits, cache_stored, cache_rebuilt;
    char cache_warning[1200];
    char tuning_warning[1200]; /* the tuning database was unreadable: ignored */
    /* Polled while a program builds (every 50 ms, the build on a thread of
     * its own): non-zero abandons the build, which returns
     * CLMEM_ERR_INTERRUPTED at once. NULL (clmem_ctx_open's): builds wait. */
    int (*cancelled)(void *user);
    void *cancelled_user;
};

int clmem_ctx_open(struct clmem_ctx *ctx, const struct clmem_device *device, const char *kernel_dir,
                   struct clmem_error *err);
void clmem_ctx_close(struct clmem_ctx *ctx);

/* ---- kernel sources and programs ---- */
/* Finds `file` in: kernel_dir, $CLMEM_KERNEL_DIR, the installed data dir,
 * the source tree. Writes the full path. */
int clmem_source_find(const char *kernel_dir, const char *file, char *path, size_t path_size,
                      struct clmem_error *err);
/* Loads and builds `file` for the context's device with `options`
 * (-D parameters). On a build failure err->log holds the whole log. */
int clmem_program_build(struct clmem_ctx *ctx, const char *file, const char *options,
                        cl_program *program, struct clmem_error *err);

/* The compiled-program cache: one file per (source, options, platform,
 * device, OpenCL and driver versions, clmem version), under
 * $XDG_CACHE_HOME/clmem/programs (else ~/.cache/clmem/programs). */
struct clmem_cache_entry {
    char key[2048]; /* the whole key, stored in the file and compared on load */
    char path[1024];
};
/* Names the entry of a program; -1 when there is no cache directory
 * (XDG_CACHE_HOME unset and HOME missing), -2 when the key is too long. */
int clmem_cache_entry(const struct clmem_ctx *ctx, const char *source, const char *options,
                      struct clmem_cache_entry *entry);
/* The binary an entry's file holds (malloc'd), after checking its magic,
 * whole key, length and checksum; NULL with *why NULL when there is no
 * file, or with *why saying what is wrong. */
unsigned char *clmem_cache_read(const struct clmem_cache_entry *entry, size_t *bin_size,
                                const char **why);
/* 1 and a built program on a hit; 0 on a miss. A stale, truncated or
 * corrupt entry is deleted, counted in ctx->cache_rebuilt and described in
 * ctx->cache_warning, and 0 returned so the caller builds from source. */
int clmem_cache_load(struct clmem_ctx *ctx, const struct clmem_cache_entry *entry,
                     const char *options, cl_program *program);
/* Keeps a program's binary, atomically; a failure only costs a rebuild. */
void clmem_cache_store(struct clmem_ctx *ctx, const struct clmem_cache_entry *entry,
                       cl_program program);

/* ---- buffers ---- */
int clmem_buffer_create(struct clmem_ctx *ctx, cl_mem_flags flags, size_t bytes, const void *host,
                        cl_mem *buffer, struct clmem_error *err);
int clmem_buffer_read(struct clmem_ctx *ctx, cl_mem buffer, size_t bytes, void *host,
                      struct clmem_error *err);
int clmem_buffer_fill_zero(struct clmem_ctx *ctx, cl_mem buffer, size_t bytes,
                           struct clmem_error *err);
/* Fills with 0xFF bytes (NaN as float, -1 as int), so an element a kernel
 * failed to write can never pass as a previous variant's correct value. */
int clmem_buffer_poison(struct clmem_ctx *ctx, cl_mem buffer, size_t bytes,
                        struct clmem_error *err);
/* Fills every byte with `value` (a poison of the caller's choosing). */
int clmem_buffer_fill_byte(struct clmem_ctx *ctx, cl_mem buffer, size_t bytes, unsigned char value,
                           struct clmem_error *err);
/* Fills of this many bytes or more are not given to clEnqueueFillBuffer:
 * NVIDIA's hangs on them (pyopencl issue 395; src/runtime/buffer.c). */
#define CLMEM_FILL_ENQUEUE_LIMIT ((size_t)1 << 31)
/* Whether clmem_buffer_fill_byte fills `bytes` on `device` by writes from
 * the host rather than clEnqueueFillBuffer (large fills, Oclgrind). */
int clmem_fill_by_writes(const struct clmem_device *device, size_t bytes);
/* Fills [0, bytes) by blocking writes of `value`, `piece` bytes at a time
 * (0: one write). */
int clmem_buffer_fill_pieces(struct clmem_ctx *ctx, cl_mem buffer, size_t bytes,
                             unsigned char value, size_t piece, struct clmem_error *err);
/* clEnqueueWriteBuffer of `bytes` from `host`, blocking. */
int clmem_buffer_write(struct clmem_ctx *ctx, cl_mem buffer, size_t bytes, const void *host,
                       struct clmem_error *err);
/* cudaMemcpy2D's twins (clEnqueueWriteBufferRect/ReadBufferRect), blocking:
 * `rows` rows of `row_bytes`, packed on the host, `pitch` bytes apart in the
 * buffer from its start (pitch >= row_bytes). */
int clmem_buffer_write_rect(struct clmem_ctx *ctx, cl_mem buffer, size_t pitch, size_t row_bytes,
                            size_t rows, const void *host, struct clmem_error *err);
int clmem_buffer_read_rect(struct clmem_ctx *ctx, cl_mem buffer, size_t pitch, size_t row_bytes,
                           size_t rows, void *host, struct clmem_error *err);
void clmem_release_mem(cl_mem *buffer);
void clmem_release_kernel(cl_kernel *kernel);
void clmem_release_program(cl_program *program);

/* ---- launching and timing ---- */
/* Enqueues one NDRange; global sizes are rounded up to the local size.
 * The event is kept in `timing` so the run's device time is measured. */
struct clmem_timing {
    cl_event first, last;
    /* Work done on the host instead (a CPU library's routine): its wall
     * time in ms, used when no event was added. */
    double host_ms;
};
int clmem_launch(struct clmem_ctx *ctx, cl_kernel kernel, cl_uint dims, const size_t *global,
                 const size_t *local, struct clmem_timing *timing, struct clmem_error *err);
/* Waits for the queue, then returns the time from the first launch's start
 * to the last one's end, in ms, and releases the events. */
int clmem_timing_finish(struct clmem_ctx *ctx, struct clmem_timing *timing, double *ms,
                        struct clmem_error *err);
/* The host's monotonic clock, in ms (wall times: split runs, host libraries). */
double clmem_now_ms(void);
void clmem_timing_release(struct clmem_timing *timing);
/* Times work the runtime did not launch (a library call): its event, or a
 * marker enqueued before it, join the run's timing. */
void clmem_timing_add(struct clmem_timing *timing, cl_event event);
int clmem_timing_mark(struct clmem_ctx *ctx, struct clmem_timing *timing, struct clmem_error *err);
/* The time from `first`'s start to `last`'s end (last NULL: first's own), in ms. */
int clmem_event_ms(cl_event first, cl_event last, double *ms, struct clmem_error *err);

/* ---- transfers beside the kernels (src/runtime/transfer.c) ----
 * matmul --split and SUMMA copy their inputs and results on queues of their
 * own while the context's queue runs kernels; events order them. */
int clmem_queue_open(struct clmem_ctx *ctx, cl_command_queue *queue, struct clmem_error *err);
void clmem_release_queue(cl_command_queue *queue);
/* *slot = event, retained (NULL clears it), releasing what *slot held. */
void clmem_event_keep(cl_event *slot, cl_event event);
void clmem_event_release(cl_event *event);
/* `rows` rows of `row_bytes`: `buffer_pitch` bytes apart in the buffer from
 * its start, `host_pitch` apart on the host from `host`. */
struct clmem_block {
    cl_mem buffer;
    void *host;
    size_t rows, row_bytes, buffer_pitch, host_pitch;
};
/* Enqueues the block's copy to the device (to_device) or to the host,
 * without blocking the host; it starts after the events of `wait` that are
 * not NULL (at most 8); *done (unless NULL) is its event. The host memory
 * must stay until it is done. */
int clmem_enqueue_block(cl_command_queue queue, int to_device, const struct clmem_block *block,
                        const cl_event *wait, cl_uint n_wait, cl_event *done,
                        struct clmem_error *err);
/* Host memory the device copies from and to at full speed (pinned): a
 * buffer of CL_MEM_ALLOC_HOST_PTR, mapped for as long as it is kept. Copies
 * between it and the context's buffers need no staging by the driver. */
struct clmem_pinned {
    cl_mem buffer;
    void *host;
    size_t bytes;
};
int clmem_pinned_alloc(struct clmem_ctx *ctx, size_t bytes, struct clmem_pinned *pinned,
                       struct clmem_error *err);
void clmem_pinned_free(struct clmem_ctx *ctx, struct clmem_pinned *pinned);
/* The queue's later commands wait for the events that are not NULL (at most 8). */
int clmem_queue_wait(cl_command_queue queue, const cl_event *events, cl_uint n,
                     struct clmem_error *err);
size_t clmem_round_up(size_t value, size_t multiple);
/* Greatest common divisor (pitches, the tuner's stride). */
size_t clmem_gcd(size_t a, size_t b);
/* a*b, or 0 and an error when it would overflow. */
int clmem_mul_size(size_t a, size_t b, size_t *out);

/* ---- sizes ---- */
/* "N" (square), "MxN" or "MxNxK". Each part 1..2^31-1. */
struct clmem_size {
    size_t dim[3];
    int ndims; /* how many the user gave */
};
int clmem_size_parse(const char *text, struct clmem_size *size, struct clmem_error *err);
void clmem_size_format(const struct clmem_size *size, char *out, size_t out_size);

/* ---- deterministic inputs ---- */
/* SplitMix64, so a --seed gives the same inputs on every host. */
uint64_t clmem_rng_next(uint64_t *state);
/* Philox4x32-10 (Salmon et al. 2011), as Random123's philox4x32_R(10, ...):
 * the host twin of the counter-based generator the pi kernels use. */
void clmem_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);
/* Uniform float in [lo, hi). */
void clmem_fill_uniform(float *out, size_t n, float lo, float hi, uint64_t seed);
/* Whole numbers lo..hi (small: exactly representable), uniform. */
void clmem_fill_integers(float *out, size_t n, int lo, int hi, uint64_t seed);
/* Sums of whole numbers are exact in float up to 2^24, in any order. */
#define CLMEM_FLOAT_EXACT_INTEGERS 16777216.0

/* ---- checking against the CPU reference ---- */
/* Collects mismatches the BabelStream way: counts them all, keeps the first
 * few as text, tracks the largest relative error seen. */
#define CLMEM_MAX_MISMATCH_LINES 10
struct clmem_check {
    double max_rel_error;
    double tolerance;
    size_t checked, mismatches;
    char scope[64]; /* "" when every value was checked, else what was sampled */
    char note[160]; /* what the run produced, for the reader: an estimate, a count */
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

/* ---- workloads ---- */
struct clmem_run; /* one workload prepared on one device at one size */

struct clmem_variant {
    const char *name;
    const char *summary; /* what it shows and which seed figure it follows */
    const char *kernel;  /* the kernel function in the workload's .cl file */
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
     * nothing (a reduction), whose roof is the read bandwidth. */
    const char *roof;
};

struct clmem_workload {
    const char *name;
    const char *summary;
    const char *source;       /* the .cl file under cl/ */
    const char *default_size; /* used when --size is absent */
    const char *size_help;    /* what --size means here */
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
    /* Work done by one execution, in the metric's unit times 1e9
     * (flops for GFLOP/s, bytes for GB/s). */
    double (*work)(const struct clmem_run *run, const struct clmem_variant *variant);
    /* Optional: floating-point operations per byte of device memory traffic
     * of one execution (the arithmetic intensity a roofline places a result
     * at); NULL where it means nothing (the metric counts samples or
     * updates): results then carry NAN. */
    double (*intensity)(const struct clmem_run *run, const struct clmem_variant *variant);
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
    /* Optional: the variant whose parameters `clmem tune` searches. */
    const struct clmem_tunable *tunable;
};

/* A tunable variant: its parameters, the values the search tries (as
 * CLBlast keeps its tuners' search spaces as data), and the constraints a
 * candidate must meet on a device. */
#define CLMEM_MAX_TUNE_VALUES 8
struct clmem_tune_param {
    const char *name;
    int values[CLMEM_MAX_TUNE_VALUES]; /* 0 ends the list */
};
struct clmem_tunable {
    const char *variant;
    const struct clmem_tune_param *params;
    size_t n_params; /* at most CLMEM_MAX_PARAMS */
    int (*valid)(const struct clmem_device *device, const int values[]);
};

#define CLMEM_MAX_BUFFERS  8
#define CLMEM_MAX_VARIANTS 16

/* Guard zones around a run's outputs (clmem_run_output_buffer): the
 * output is a sub-buffer in the middle of a larger buffer whose `guard`
 * bytes before and after it hold CLMEM_GUARD_BYTE; a kernel that writes
 * past the end (or before the start) of its output changes them, and the
 * run reports it as a failed check, instead of corrupting whatever the
 * driver keeps next to the buffer. */
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
    char params[256]; /* the -D parameters chosen for this device, as shown */
    void *state;      /* the workload's own, state_size bytes, zeroed */
    const struct clmem_variant *variants[CLMEM_MAX_VARIANTS]; /* selected */
    size_t n_variants;
    unsigned sweep_value;     /* the current point of a sweeping variant */
    const char *input;        /* --input FILE, for workloads that read one (blur) */
    const char *image_output; /* where such a workload writes its image, or NULL */
    const int *tune_values;   /* the tuner's candidate for the tunable variant, or NULL */
    int ignore_tuning;        /* use the built-in parameters, not the tuning database */
    /* The bytes of `input`, read once by clmem_run_plan, freed by clmem_run_release. */
    unsigned char *input_data;
    size_t input_size;
    struct clmem_guarded guarded[CLMEM_MAX_BUFFERS]; /* outputs with guard zones */
    size_t n_guarded;
};

/* Creates an output buffer of `bytes` for the run's kernels (flags as
 * clmem_buffer_create's, no host data), with guard zones before and after
 * it (struct clmem_guarded); `name` names it in messages. The workload
 * releases *buffer as any other; the zones go with clmem_run_release.
 * Where the zones do not fit (the device's largest allocation, or
 * CLMEM_MAX_BUFFERS outputs already guarded), and on Oclgrind (which
 * reports accesses outside buffers itself), it is a plain buffer. */
int clmem_run_output_buffer(struct clmem_run *run, const char *name, cl_mem_flags flags,
                            size_t bytes, cl_mem *buffer, struct clmem_error *err);
/* Reads every guard zone of the run's outputs back: each zone counts as
 * one value checked, a changed one as a mismatch ("NAME: wrote past the
 * end of its output ..."), and is filled again. The run calls it after
 * each variant's verification. */
int clmem_run_check_guards(struct clmem_run *run, struct clmem_check *check,
                           struct clmem_error *err);
void clmem_run_release_guards(struct clmem_run *run);

/* Shared by the workloads' set-up. */
/* Builds the workload's .cl with `options` (also kept in run->params for
 * the report) and creates the kernel of every selected variant the device
 * can run (needs_extension), at kernels[variant index in the workload's table]. */
int clmem_run_build(struct clmem_run *run, const char *options, cl_program *program,
                    cl_kernel kernels[CLMEM_MAX_VARIANTS], struct clmem_error *err);
void clmem_kernels_release(cl_kernel kernels[CLMEM_MAX_VARIANTS]);
/* clCreateKernel of `name` in a program built from `source` (for the
 * message: "clCreateKernel of NAME in SOURCE failed with CL_..."). */
int clmem_kernel_create(cl_program program, const char *source, const char *name, cl_kernel *kernel,
                        struct clmem_error *err);
/* Sets `n` arguments given as (size_t size, const void *value) pairs. */
int clmem_kernel_args(cl_kernel kernel, struct clmem_error *err, unsigned n, ...);
/* Largest power-of-two T <= max_tile whose T x T work-group the device
 * allows and whose `tiles` T x T tiles of `elem_bytes` fit its local memory. */
size_t clmem_pick_tile(const struct clmem_device *device, size_t max_tile, size_t tiles,
                       size_t elem_bytes);
/* Kernel parameters as data (CLBlast's database, in small): the first row
 * whose `match` is part of the device's name, vendor or platform (NULL: any)
 * and whose type includes the device's (0: any) gives the values. The last
 * row of a table should match every device. */
#define CLMEM_MAX_PARAMS 8
struct clmem_param_row {
    const char *match;
    cl_device_type type;
    int values[CLMEM_MAX_PARAMS];
};
const int *clmem_params_lookup(const struct clmem_param_row *rows, size_t n,
                               const struct clmem_device *device);
/* Whether a row applies to the device (a table may hold several rows for
 * one device, as candidates the workload chooses among by size). */
int clmem_param_row_matches(const struct clmem_param_row *row, const struct clmem_device *device);
/* Largest power-of-two work-group size <= max_group the device allows. */
size_t clmem_pick_group(const struct clmem_device *device, size_t max_group);
/* malloc of n * elem bytes with the multiplication checked. */
void *clmem_alloc_array(size_t n, size_t elem, struct clmem_error *err);

const struct clmem_workload *const *clmem_workloads(size_t *count);
const struct clmem_workload *clmem_workload_find(const char *name);
const struct clmem_variant *clmem_variant_find(const struct clmem_workload *w, const char *name);

/* ---- results ---- */
struct clmem_result {
    char workload[32];
    char variant[32];
    char device[128];
    char size[64];
    char sweep[16]; /* "" or the swept parameter's name, e.g. "offset" */
    unsigned sweep_value;
    char params[256];
    int skipped;
    char skip_reason[256];
    size_t n_samples;
    double *samples_ms;
    double median_ms, min_ms, max_ms;
    double metric; /* from the median */
    char metric_unit[16];
    char roof[8];             /* the variant's roof ("read"), "" for the unit's own peak */
    double baseline_fraction; /* metric / the baseline variant's; NAN when none */
    double peak_fraction;     /* metric / the device's measured peak; NAN when none */
    double looped_ms;         /* per pass with the loop in the kernel; NAN when none */
    char note[160];
    double max_rel_error;
    int verified;
    char verify_scope[64];
    char verify_detail[CLMEM_MAX_MISMATCH_LINES * 160 + 64];
    /* How it was measured, so a run file says what it holds: timed runs,
     * untimed runs before them, the inputs' seed (skipped results too). */
    unsigned reps, warmup;
    uint64_t seed;
    double flops_per_byte; /* the workload's intensity hook; NAN when none */
};
void clmem_result_free(struct clmem_result *result);
/* The median of n samples (NAN when none). */
double clmem_median(const double *samples, size_t n);
/* Median, min and max of a result's samples. */
void clmem_result_summarise(struct clmem_result *r);
/* A check's outcome into a result: verified, max error, scope, the first
 * mismatches as text. */
void clmem_result_set_check(struct clmem_result *r, const struct clmem_check *check);

struct clmem_run_options {
    const char *size;    /* NULL: the workload's default */
    const char *variant; /* NULL or "all" */
    unsigned reps;       /* timed runs */
    unsigned warmup;     /* untimed runs before them */
    uint64_t seed;
    const char *input;        /* --input FILE (blur) */
    const char *image_output; /* write the workload's image here (blur) */
    unsigned loop_reps;       /* passes inside the kernel for execute_looped; 0: 20 */
    const char *compare;      /* a library to run beside the kernels ("clblast") or NULL */
    const int *tune_values;   /* clmem tune: the candidate to run (see clmem_run) */
    int ignore_tuning;        /* clmem tune: the built-in parameters, for reference */
    /* Called before each variant runs (the CLI shows progress with it). */
    void (*progress)(void *user, const struct clmem_run *run, size_t index);
    void *progress_user;
    /* Optional: polled before each variant (and sweep point); when it returns
     * non-zero the run stops there with CLMEM_ERR_INTERRUPTED, keeping the
     * results of the variants that finished (the CLI's Ctrl-C). */
    int (*cancelled)(void *user);
    void *cancelled_user;
};

/* Plans a run: parses the size, selects the variants, checks the buffers
 * fit the device. Errors here are usage errors and nothing is allocated. */
int clmem_run_plan(struct clmem_run *run, const struct clmem_workload *workload,
                   struct clmem_ctx *ctx, const struct clmem_run_options *options,
                   struct clmem_error *err);
/* Runs every selected variant: set-up, warm-up, timed runs, verification.
 * Results are appended to *results (caller frees with clmem_results_free).
 * Returns CLMEM_ERR_VERIFY when a variant failed its check, and runs on. */
int clmem_run_execute(struct clmem_run *run, const struct clmem_run_options *options,
                      struct clmem_result **results, size_t *n_results, struct clmem_error *err);
void clmem_run_release(struct clmem_run *run);
void clmem_results_free(struct clmem_result *results, size_t n);

/* Convenience for tests: plan + execute + release on an open context. */
int clmem_run_workload(struct clmem_ctx *ctx, const char *workload, const char *variant,
                       const char *size, unsigned reps, struct clmem_result **results,
                       size_t *n_results, struct clmem_error *err);

/* ---- vendor libraries compared with (built in when found) ---- */
/* Whether clmem was built with `library` ("clblast"). */
int clmem_library_available(const char *library);
/* Whether a workload has a variant that runs `library`. */
int clmem_workload_has_library(const struct clmem_workload *w, const char *library);
/* Validates a --compare choice (usage errors): a library clmem knows, was
 * built with and, when `w` is given, that the workload can run. */
int clmem_compare_check(const struct clmem_workload *w, const char *library,
                        struct clmem_error *err);
/* Whether `library` may stand beside `device`'s work: OpenBLAS runs on the
 * host's cores, so only beside a CPU device; a usage error otherwise. */
int clmem_compare_fits(const char *library, const struct clmem_device *device,
                       struct clmem_error *err);
/* OpenBLAS's cblas_sgemm on the host's cores, P = M x N row-major from host
 * arrays, timed as wall time in timing->host_ms; the caller puts the
 * result where its check reads it. */
int clmem_openblas_sgemm(size_t rows, size_t cols, size_t inner, const float *m, const float *n,
                         float *p, struct clmem_timing *timing, struct clmem_error *err);
/* "OpenBLAS Haswell kernels ...": which kernels OpenBLAS chose for this CPU,
 * for the result's note. */
void clmem_openblas_describe(char *out, size_t size);
/* CLBlast's SGEMM, row-major P = M x N, timed from a marker before it. */
int clmem_clblast_sgemm(struct clmem_ctx *ctx, size_t rows, size_t cols, size_t inner, cl_mem m,
                        cl_mem n, cl_mem p, struct clmem_timing *timing, struct clmem_error *err);

/* ---- the device's own peaks (workload "peak") ---- */
struct clmem_peak {
    double bandwidth;      /* GB/s of a float4 copy, read + write */
    double flops;          /* GFLOP/s of FP32 fused multiply-adds */
    double read_bandwidth; /* GB/s of float4 reads alone; 0 when not measured */
    double launch_us;      /* microseconds a kernel launch costs; 0 when not measured */
};
/* Runs the peak workload; its results are appended to *results. */
int clmem_peak_measure(struct clmem_ctx *ctx, unsigned reps, struct clmem_peak *peak,
                       struct clmem_result **results, size_t *n_results, struct clmem_error *err);
/* Sets each result's peak_fraction from its roof: GB/s against the copy
 * bandwidth, or the read bandwidth for work that only reads (roof "read"),
 * GFLOP/s against the FMA throughput. */
void clmem_results_apply_peak(struct clmem_result *results, size_t n,
                              const struct clmem_peak *peak);

/* ---- the whole suite (clmem bench) ---- */
struct clmem_bench_options {
    unsigned reps;
    const char *compare; /* as clmem_run_options.compare */
    uint64_t seed;
    const char *only; /* comma-separated workloads, or NULL for all */
    /* Whose bench sizes: 0, the device's own (by its type); else those of
     * this type (CL_DEVICE_TYPE_CPU: the smaller ones), whatever the device. */
    cl_device_type sizes;
    /* Called before each workload and size (the CLI shows progress). */
    void (*progress)(void *user, size_t step, size_t steps, const char *workload, const char *size);
    void *progress_user;
    /* As clmem_run_options.cancelled: polled after the peaks, before each
     * workload and size and between variants. */
    int (*cancelled)(void *user);
    void *cancelled_user;
};
/* Counts the steps (workload x size) and validates `only` (usage errors). */
int clmem_bench_plan(const struct clmem_ctx *ctx, const struct clmem_bench_options *options,
                     size_t *steps, struct clmem_error *err);
/* Measures the peaks, then runs every workload at its bench sizes, all
 * variants. A workload that fails does not stop the others: the returned
 * status is the worst seen (an OpenCL error over a failed check), and
 * err keeps the first OpenCL error's message. Cancelled, it returns
 * CLMEM_ERR_INTERRUPTED with the results so far (peaks applied). */
int clmem_bench_run(struct clmem_ctx *ctx, const struct clmem_bench_options *options,
                    struct clmem_peak *peak, struct clmem_result **results, size_t *n_results,
                    struct clmem_error *err);

/* ---- the tuning database (clmem tune) ---- */
/* $XDG_CACHE_HOME/clmem/tuning.json (else ~/.cache/clmem/tuning.json):
 * the best parameters per device name, driver version, workload, variant
 * and size class. */
int clmem_tuning_path(char *path, size_t size);
/* "N<=1024": the power of two at or above the size's largest dimension. */
void clmem_size_class(const struct clmem_size *size, char *out, size_t out_size);
/* The tuned values of the workload's tunable variant at this run's size
 * class on this device: 1 and values[] when found. An unreadable database
 * is ignored and described in ctx->tuning_warning. */
int clmem_tuning_lookup(struct clmem_ctx *ctx, const struct clmem_workload *w,
                        const struct clmem_size *size, int values[]);
/* Keeps the best values (with their metric and the built-in parameters'
 * metric) for this device, workload and size class; the file is written
 * whole or not at all. A corrupt database is replaced, with a warning.
 * `builtin`: no candidate beat the built-in parameters; the entry records
 * it and lookups pass it over, so runs keep the built-in choice per size. */
/* Creates the database's directory and checks it can be written (usage
 * error otherwise): `clmem tune` calls it before any search. */
int clmem_tuning_prepare(struct clmem_error *err);
int clmem_tuning_store(struct clmem_ctx *ctx, const struct clmem_workload *w,
                       const struct clmem_size *size, const int values[], double metric,
                       double default_metric, const char *unit, int builtin,
                       struct clmem_error *err);

/* ---- several devices of one host at once (src/runtime/multi.c) ---- */
/* Runs fn(arg, i) for every i in [0, n), each on a thread of its own, all
 * at once; waits for them all and stores what each returned in status[i].
 * An item whose thread cannot start runs on the calling thread. */
void clmem_parallel(size_t n, int (*fn)(void *arg, size_t index), void *arg, int *status);
/* The status to report of two: an OpenCL error over a usage error over an
 * interruption over a failed check over ok. */
int clmem_status_worst(int a, int b);
/* That order as a number, 0 (ok) to 4 (an OpenCL error). */
int clmem_status_severity(int status);
/* Divides `rows` into n contiguous blocks, block i rows [first[i],
 * first[i] + count[i]), in order, every row in exactly one block, each
 * block's size within one row of rows * weights[i] / sum of weights
 * (weights NULL: equal). A block may be empty (rows < n, weight 0).
 * Usage error when n is 0, a weight is negative or not finite, or the
 * weights sum to 0. */
int clmem_split_rows(size_t rows, size_t n, const double *weights, size_t *first, size_t *count,
                     struct clmem_error *err);
/* Appends one result per variant (and sweep point) adding up the results
 * of n devices: device d's are results[first[d] .. first[d] + n_each[d]),
 * each device's in the same order. The total's metric is the sum of the
 * devices' metrics, its times those of the slowest device, verified when
 * every device's is; device "total (N devices)". */
int clmem_results_total(struct clmem_result **results, size_t *n_results, const size_t *first,
                        const size_t *n_each, size_t n_devices, struct clmem_error *err);
/* clmem_run_plan + clmem_run_execute of one workload on n open contexts at
 * once, a thread each, with the same options (variants, size, seed): every
 * device is planned first, so a usage error comes before any work. The
 * results are device 0's, then 1's, ... (named "#1 NAME", "#2 NAME", ...: a
 * list may name a device twice), then the totals
 * (clmem_results_total). Returns the worst status (clmem_status_worst),
 * err holding the first error of that status. */
int clmem_run_multi(const struct clmem_workload *workload, struct clmem_ctx *ctxs, size_t n,
                    const struct clmem_run_options *options, struct clmem_result **results,
                    size_t *n_results, struct clmem_error *err);

/* Matmul with the rows of P split over several devices (the workload's
 * own code, src/workloads/matmul.c). */
struct clmem_split_options {
    const char *variant;   /* one kernel variant of matmul, never a library's */
    const char *size;      /* NULL: matmul's default */
    const double *weights; /* one per context, NULL: equal shares */
    unsigned reps, warmup; /* as clmem_run_options */
    uint64_t seed;
    int weak;       /* weak scaling: k devices multiply k times size's rows (P's and M's) */
    int no_overlap; /* each transfer and kernel waits for the one before (to show the overlap) */
    int (*cancelled)(void *user); /* polled between scaling points */
    void *cancelled_user;
};
/* Strong scaling: for k = 1 .. n, P = M x N at the same size with P's rows
 * split (clmem_split_rows, the first k weights) over the first k contexts;
 * each device computes its block (its rows of M, all of N) with the
 * variant on a thread of its own, end to end: each timed run copies the
 * block's inputs from the host, multiplies and copies its rows of P back.
 * The block is cut into tiles of P (up to 4 x 4, CLMEM_SPLIT_TILES), each
 * one matmul launch; M's rows and N's columns go up, and P's tiles come
 * down, on queues of their own while the kernels of other tiles run
 * (double-buffered; N's columns stay on the device once up). The host
 * checks P against the CPU reference as a single-device run does.
 * One result per k, device "split over k devices"; its samples are host
 * wall times from before the first enqueue to after the last device's
 * last copy; baseline_fraction is the speedup over k = 1 and the note
 * gives the efficiency, the rows of each device, the slowest device's
 * profiled kernel time and the share of the wall time that is not kernel
 * time on that device (transfers not hidden). With `weak`, point k
 * multiplies k times size's rows (the first rows of the largest point's
 * inputs; N unchanged), split the same way, so each device keeps its share
 * of size's rows; baseline_fraction is then the weak-scaling efficiency
 * t(1)/t(k). A k whose weights sum to 0 is skipped. Usage errors (size,
 * variant, a tile a textbook kernel cannot take) come before any work. */
#define CLMEM_SPLIT_TILES 4
int clmem_matmul_split(struct clmem_ctx *ctxs, size_t n, const struct clmem_split_options *options,
                       struct clmem_result **results, size_t *n_results, struct clmem_error *err);

/* ---- the host a run file was written on (src/runtime/host.c) ---- */
struct clmem_host {
    char name[256];        /* gethostname */
    char os[256];          /* PRETTY_NAME of /etc/os-release, else uname's sysname */
    char kernel[256];      /* uname's release */
    char cpu[256];         /* "model name" of /proc/cpuinfo, else uname's machine */
    long cores;            /* processors online (at least 1) */
    uint64_t memory_bytes; /* physical memory; 0 when unknown */
};
/* Fills every field, each with a fallback ("unknown", 0): never fails on
 * a missing file; returns CLMEM_OK. */
int clmem_host_describe(struct clmem_host *h);

/* ---- several devices (clmem compare) ---- */
struct clmem_compare_device {
    struct clmem_device device;
    struct clmem_peak peak;       /* 0 where unknown */
    struct clmem_result *results; /* as clmem_bench_run returns them */
    size_t n_results;
    char host[256];              /* the machine's name; "" when the file did not say */
    struct clmem_host host_info; /* all the file said of it ("" and 0 where it did not) */
    char origin[1024];           /* the run file it was read from, "" for a live device */
    char created[40];            /* when the file was written (UTC, ISO 8601), or "" */
    char clmem_version[64];
    int rank; /* an MPI file's rank, else -1 */
};
void clmem_compare_devices_free(struct clmem_compare_device *runs, size_t n);

/* ---- saved runs (src/report/runfile.c): compare FILE..., diff ---- */
/* The run files' format, written as "schema_version" (schema/run.schema.json):
 * raised when a field changes meaning or goes; new optional fields keep it. */
#define CLMEM_SCHEMA_VERSION 1
/* Reads a run file clmem wrote (schema_version 1 up to CLMEM_SCHEMA_VERSION,
 * and clmem 0.1.0's files, which have none) and appends one entry per device
 * run it holds to *runs (an MPI file: one per rank with results). A file that
 * cannot be read, is empty, a directory, not JSON, of a newer or unknown
 * schema, malformed, or holds no results is a usage error naming the file and
 * the reason; *runs is then unchanged. */
int clmem_runfile_load(const char *path, struct clmem_compare_device **runs, size_t *n_runs,
                       struct clmem_error *err);

/* ---- numbers for people ---- */
/* "48.7 TFLOP/s", "2.74 TB/s", "355 Gsamples/s": three significant digits,
 * the unit's SI prefix rescaled (a unit starting k, M, G, T or P). "-" for NaN. */
void clmem_format_metric(double value, const char *unit, char *out, size_t size);

/* ---- the comparison report (src/report/compare.c) ---- */
/* Checks, before any device runs, that the report directory can be
 * written: `dir` absent with a writable parent directory, or an existing
 * writable directory; a usage error otherwise. Creates nothing. */
int clmem_compare_dir(const char *dir, struct clmem_error *err);
/* Writes the comparison report of n_devs entries (live devices and run
 * files alike) into `dir`: report.md and report.html (the devices, each
 * workload's best result per device at a glance, a table per workload of
 * the rows every entry has, then the rows only some have; entries named
 * "DEVICE on HOST", told apart by file name or creation time where that
 * is the same), results.csv, device-N.json (as bench's JSON), the plot
 * data and plots.gp, and, when gnuplot is installed, the SVG pictures
 * (coalescing curves, transpose bars, matmul against size, a roofline per
 * entry with each workload's best result on it), which report.html holds
 * inline. plots_note says why pictures are missing ("" when drawn).
 * The directory appears whole or not at all: everything is written into
 * DIR.tmp.XXXXXX beside it, renamed to DIR, or, when DIR exists, its files
 * renamed into DIR (other files there stay); on any failure the temporary
 * directory is removed and DIR is left as it was. */
int clmem_compare_report(const char *dir, const struct clmem_compare_device *devs, size_t n_devs,
                         char *plots_note, size_t note_size, struct clmem_error *err);

/* ---- reports ---- */
enum clmem_format { CLMEM_FORMAT_TABLE, CLMEM_FORMAT_CSV, CLMEM_FORMAT_JSON };
int clmem_format_parse(const char *text, enum clmem_format *format, struct clmem_error *err);
/* What a report says besides its results (both optional, NULL: absent). */
struct clmem_report_meta {
    const struct clmem_device *device;
    const struct clmem_peak *peak;
    /* A saved run written again (compare's device-N.json): its own host and
     * time rather than this machine's and now. NULL/"": this machine, now. */
    const struct clmem_host *host;
    const char *created;
    int interrupted; /* the run was stopped early: JSON says "interrupted": true */
};
int clmem_report_write(FILE *out, enum clmem_format format, const struct clmem_result *results,
                       size_t n, const struct clmem_report_meta *meta, struct clmem_error *err);
/* The writers behind it, one per format. */
int clmem_report_table(FILE *out, const struct clmem_result *results, size_t n);
int clmem_report_csv(FILE *out, const struct clmem_result *results, size_t n);
int clmem_report_json(FILE *out, const struct clmem_result *results, size_t n,
                      const struct clmem_report_meta *meta, struct clmem_error *err);
/* "ok", "FAILED" or "skipped". */
const char *clmem_result_status(const struct clmem_result *result);

/* Output files appear whole or not at all: written to .NAME.XXXXXX
 * beside the target, then renamed over it. Open checks writability early.
 * A symbolic link is followed (its target is written, the link stays); a
 * target that exists and is not a regular file (/dev/null, a pipe) is
 * written directly, never replaced, and /dev/stdout (/proc/self/fd/N) is
 * this process's own descriptor as it is (tmp_path is then ""). */
struct clmem_output {
    char path[1024];   /* as given, for messages */
    char target[1024]; /* what is written: path with its symbolic links followed */
    char tmp_path[1100];
    FILE *file;
};
int clmem_output_open(struct clmem_output *out, const char *path, struct clmem_error *err);
/* Whether `path` could be opened by clmem_output_open (the same message
 * when not), leaving nothing behind and opening no device or pipe. */
int clmem_output_check(const char *path, struct clmem_error *err);
int clmem_output_commit(struct clmem_output *out, struct clmem_error *err);
void clmem_output_abort(struct clmem_output *out);
/* Writes a report into an open output and commits it; any failure is
 * "cannot write 'PATH': REASON" (CLMEM_ERR_USAGE) and leaves no file. */
int clmem_output_report(struct clmem_output *out, enum clmem_format format,
                        const struct clmem_result *results, size_t n,
                        const struct clmem_report_meta *meta, struct clmem_error *err);

/* ---- sums on the device (reduce, dot) ---- */
/* Kahan-compensated sum of x[0..n) in double: the CPU reference of sums. */
double clmem_sum_kahan(const float *x, size_t n);
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
 * first_groups groups, the second one group. */
struct clmem_sum {
    cl_kernel first, sum;
    cl_uint first_out_arg;
    size_t n, group, first_groups;
    cl_mem scratch[2];
};
/* first_groups for float4 grid-stride kernels summing n values in groups
 * of `group`: a few groups per compute unit, but no more groups than give
 * every work-item a float4 to add. */
size_t clmem_sum_first_groups(const struct clmem_device *device, size_t n, size_t group);
/* Floats scratch[0] and scratch[1] must hold. */
void clmem_sum_scratch(const struct clmem_sum *sum, size_t counts[2]);
/* Untimed, before a variant runs: fills the floats of scratch[0] and
 * scratch[1] that its passes write with NaN (clmem_buffer_poison), so a
 * pass that writes nothing cannot pass as an earlier variant's sum. */
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

/* ---- images (src/runtime/netpbm.c): blur's --input and image output ---- */
/* An 8-bit image, rows of width pixels of `channels` interleaved bytes. */
struct clmem_image {
    size_t width, height;
    unsigned channels; /* 1 (grey, P5) or 3 (RGB, P6) */
    unsigned maxval;   /* 1..255 */
    unsigned char *pixels;
};
/* Reads a binary P5 or P6 file, maxval 1..255. Every malformed or truncated
 * file is a usage error naming the file and what is wrong. */
int clmem_netpbm_read(const char *path, struct clmem_image *image, struct clmem_error *err);
/* The whole of an input file (malloc'd), read once: a pipe, a FIFO,
 * /dev/stdin, a process substitution as well as a regular file. */
int clmem_input_read(const char *path, unsigned char **data, size_t *size, struct clmem_error *err);
/* clmem_netpbm_read of an image already read; `path` names it in messages. */
int clmem_netpbm_parse(const char *path, const unsigned char *data, size_t size,
                       struct clmem_image *image, struct clmem_error *err);
/* Writes P5 (1 channel) or P6 (3) whole or not at all (clmem_output_*). */
int clmem_netpbm_write(const char *path, const struct clmem_image *image, struct clmem_error *err);
void clmem_image_free(struct clmem_image *image);
/* The generated input: seeded random bytes, maxval 255. */
int clmem_image_generate(struct clmem_image *image, size_t width, size_t height, unsigned channels,
                         uint64_t seed, struct clmem_error *err);
/* Kirk & Hwu Fig 4.1's edge check: whether (row, col) is a pixel of the image. */
int clmem_image_inside(ptrdiff_t row, ptrdiff_t col, size_t height, size_t width);

/* ---- diff (src/report/diff.c): clmem diff BASE NEW, a gate for regressions ---- */
/* What became of one result between a base run and a new one. Every metric
 * clmem writes is higher-is-better (GFLOP/s, GB/s, Gsamples/s, Gupdates/s). */
enum clmem_verdict {
    CLMEM_VERDICT_SAME,    /* within the threshold, or inside the runs' own spread */
    CLMEM_VERDICT_FASTER,  /* beyond both, higher */
    CLMEM_VERDICT_SLOWER,  /* beyond both, lower */
    CLMEM_VERDICT_NEW,     /* only in NEW, or verified in NEW but not in BASE */
    CLMEM_VERDICT_GONE,    /* only in BASE, or ok in BASE and skipped in NEW */
    CLMEM_VERDICT_FAILED,  /* NEW did not verify */
    CLMEM_VERDICT_SKIPPED, /* skipped in NEW, with no verified value in BASE */
    CLMEM_N_VERDICTS
};
/* clmem diff's exit status when a result is slower, failed or gone; the
 * statuses of enum clmem_status never take it. */
#define CLMEM_DIFF_REGRESSION 4
/* --threshold's range, in percent, and its default. */
#define CLMEM_DIFF_MAX_THRESHOLD     1000.0
#define CLMEM_DIFF_DEFAULT_THRESHOLD 5.0

/* One result's verdict (either side NULL when absent). A change counts only
 * when the metric moved by more than `threshold` percent AND the two runs'
 * samples do not overlap: slower when NEW's fastest sample (min_ms) is slower
 * than BASE's slowest (max_ms), faster the other way round; else same.
 * *ratio: NEW's metric over BASE's when both verified, else NAN. */
enum clmem_verdict clmem_diff_verdict(const struct clmem_result *base,
                                      const struct clmem_result *newer, double threshold,
                                      double *ratio);
/* "same", "faster", "slower", "new", "gone", "failed", "skipped". */
const char *clmem_verdict_name(enum clmem_verdict verdict);

/* Two device runs diffed against each other; one side NULL when the other
 * file had no run to pair it with (its results are then all new or gone). */
struct clmem_diff_pair {
    const struct clmem_compare_device *base, *newer;
    const char *paired_by; /* "one run in each file", "rank", "device name", or "unpaired" */
};
/* One result of either run: a row of the report. */
struct clmem_diff_row {
    size_t pair;                             /* index in clmem_diff.pairs */
    const struct clmem_result *base, *newer; /* NULL where absent */
    double ratio;                            /* NEW's metric / BASE's, NAN when not compared */
    enum clmem_verdict verdict;
};
/* The rows point into the runs given to clmem_diff_runs: keep those until
 * clmem_diff_free. */
struct clmem_diff {
    double threshold; /* percent */
    struct clmem_diff_pair *pairs;
    size_t n_pairs;
    struct clmem_diff_row *rows;
    size_t n_rows;
    size_t counts[CLMEM_N_VERDICTS];
};
/* Pairs the runs (each file one run: those two, whatever their devices;
 * else by MPI rank, then by device name) and their results (by workload,
 * variant, size, sweep and sweep value), each with its verdict. Usage error
 * for a threshold outside 0..CLMEM_DIFF_MAX_THRESHOLD. */
int clmem_diff_runs(const struct clmem_compare_device *base, size_t n_base,
                    const struct clmem_compare_device *newer, size_t n_newer, double threshold,
                    struct clmem_diff *diff, struct clmem_error *err);
void clmem_diff_free(struct clmem_diff *diff);
/* Whether a result is slower, failed or gone. */
int clmem_diff_regressed(const struct clmem_diff *diff);
/* "12 same, 1 slower, 2 new": the verdicts that occur, in enum order. */
void clmem_diff_summary(const struct clmem_diff *diff, char *out, size_t size);
/* The report in one format; a failed write is a usage error (as
 * clmem_report_write's), errno kept for the caller's message. */
int clmem_diff_write(FILE *out, enum clmem_format format, const struct clmem_diff *diff,
                     struct clmem_error *err);
/* The writers behind it: table for people, CSV with one fixed header, JSON. */
int clmem_diff_table(FILE *out, const struct clmem_diff *diff);
int clmem_diff_csv(FILE *out, const struct clmem_diff *diff);
int clmem_diff_json(FILE *out, const struct clmem_diff *diff, struct clmem_error *err);

#endif
