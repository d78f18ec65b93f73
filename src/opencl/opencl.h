/* The OpenCL layer: error names, devices, contexts, programs (built and
 * cached), buffers, launches and their timing, copies beside the kernels,
 * the vendor libraries run on the same data. Above base and io; it knows
 * nothing of workloads. */
#ifndef CLMEM_OPENCL_H
#define CLMEM_OPENCL_H

#include "base/base.h"
#include "io/io.h"

/* ---- errors (cl_error.c) ---- */
/* "CL_INVALID_WORK_GROUP_SIZE" for -54; "CL_UNKNOWN_ERROR" otherwise. */
const char *clmem_cl_error_name(cl_int code);
int clmem_cl_fail(struct clmem_error *err, cl_int code, const char *call, const char *func,
                  int line);
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

/* ---- devices (device.c) ---- */
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
    cl_ulong global_mem_cache; /* CL_DEVICE_GLOBAL_MEM_CACHE_SIZE as reported; 0: none (some
                                  drivers report their L1s' total, not the L2) */
    cl_ulong max_alloc;
    size_t max_work_group;
    cl_uint base_addr_align_bits; /* CL_DEVICE_MEM_BASE_ADDR_ALIGN */
    size_t timer_resolution_ns;   /* CL_DEVICE_PROFILING_TIMER_RESOLUTION, as reported */
    int has_fp64;
    /* Between the device and its vendor: a GPU's architecture as its
     * driver names it, "cpu-simd512" (a CPU's vector width); "". */
    char family[64];
};

/* A device spec (--device's, or one of a list's), parsed once without
 * looking at devices: NULL (the first GPU, else the first device), "P:D",
 * a type ("gpu", "cpu", "accelerator") or a case-insensitive part of a
 * name. text points into the caller's string, which must outlive it. */
struct clmem_device_spec {
    enum { CLMEM_SPEC_DEFAULT, CLMEM_SPEC_INDEX, CLMEM_SPEC_TYPE, CLMEM_SPEC_NAME } kind;
    const char *text; /* as written, len bytes (no NUL in a list): messages quote it */
    size_t len;
    unsigned long platform, device; /* CLMEM_SPEC_INDEX */
    cl_device_type type;            /* CLMEM_SPEC_TYPE */
};
/* text[0..len) into *spec (usage errors only); text NULL: the default. */
int clmem_device_spec_parse(const char *text, size_t len, struct clmem_device_spec *spec,
                            struct clmem_error *err);
/* The index in devices[0..count) of the first device that spec names. */
int clmem_device_spec_find(const struct clmem_device_spec *spec, const struct clmem_device *devices,
                           size_t count, size_t *chosen, struct clmem_error *err);
/* Whether CL_DEVICE_EXTENSIONS lists `name` (a whole word). */
int clmem_device_has_extension(const struct clmem_device *device, const char *name);
/* How many loop iterations a work-item may run before the implementation
 * ends its loops (0: no such limit known). Mesa's llvmpipe, under rusticl
 * or Clover, counts every loop of a work-item against 65535 (gallivm's
 * LP_MAX_TGSI_LOOP_ITERATIONS, a guard against hung shaders) and then
 * leaves them, silently: measured with Mesa 22.3 (bench/rusticl-loop-limit/). */
unsigned long clmem_device_loop_limit(const struct clmem_device *device);

/* ---- contexts (context.c) ---- */
/* The device's event clock, checked once per context against the host's
 * monotonic clock (clmem_clock_check): a kernel timed both ways. */
struct clmem_clock {
    int checked;       /* the check ran */
    int events_ok;     /* event timestamps are used; else the host's clock times every sample */
    double tick_ns;    /* the clock's step: the reported resolution, or coarser where the
                          timestamps showed it */
    double wall_ratio; /* the check's best event time / host wall time (about 1 when right) */
    double check_ms;   /* the host wall time of one check run */
    char why[200];     /* why events are not used ("" when they are) */
};
/* One device in use: context, profiling queue, where kernels live. */
struct clmem_ctx {
    struct clmem_device device;
    cl_context context;
    cl_command_queue queue;
    char kernel_dir[1024]; /* --kernel-dir, or "" to search the default places */
    /* The compiled-program cache: off with no_cache; what it did; a
     * warning when an entry had to be rebuilt. */
    int no_cache;
    unsigned cache_hits, cache_stored, cache_rebuilt;
    char cache_warning[1200];
    char tuning_warning[1200]; /* the tuning database was unreadable: ignored */
    /* Polled while a program builds: non-zero abandons the build, which
     * returns CLMEM_ERR_INTERRUPTED at once. NULL: builds wait. */
    int (*cancelled)(void *user);
    void *cancelled_user;
    /* Called before a program is built from source that the program cache
     * will then keep (a first build, minutes on some drivers), so that the
     * caller can say so; NULL: nothing is said. */
    void (*building)(void *user, const struct clmem_device *device);
    void *building_user;
    struct clmem_clock clock; /* filled by the first timed run, or clmem_clock_check */
};
/* kernel_dir NULL or "": the kernels are looked for in $CLMEM_KERNEL_DIR,
 * the installed data directory, then the source tree (clmem_ctx_create
 * is this on a context of its own). Closing NULL does nothing. */
int clmem_ctx_open(struct clmem_ctx *ctx, const struct clmem_device *device, const char *kernel_dir,
                   struct clmem_error *err);
void clmem_ctx_close(struct clmem_ctx *ctx);

/* ---- kernel sources and programs (program.c, program_cache.c) ---- */
/* Finds `file` in: kernel_dir, $CLMEM_KERNEL_DIR, the installed data dir,
 * the source tree. Writes the full path. */
int clmem_source_find(const char *kernel_dir, const char *file, char *path, size_t path_size,
                      struct clmem_error *err);
/* The parameter database's folder (data/params/), found as the kernels
 * are: in $CLMEM_DATA_DIR alone when it is set, else the installed data
 * dir, then the source tree's data/. */
int clmem_params_dir_find(char *dir, size_t size, struct clmem_error *err);
/* Loads and builds `file` for the context's device with `options`
 * (-D parameters), through the compiled-program cache unless
 * ctx->no_cache. On a build failure err->log holds the whole log. */
int clmem_program_build(struct clmem_ctx *ctx, const char *file, const char *options,
                        cl_program *program, struct clmem_error *err);
/* The cache entry of a program: the device's identity and the options
 * (clmem_cache_name's -1 and -2). */
int clmem_cache_entry(const struct clmem_ctx *ctx, const char *source, const char *options,
                      struct clmem_cache_entry *entry);
/* 1 and a built program on a hit; 0 on a miss. A stale, truncated or
 * corrupt entry is deleted, counted in ctx->cache_rebuilt and described in
 * ctx->cache_warning, and 0 returned so the caller builds from source. */
int clmem_cache_load(struct clmem_ctx *ctx, const struct clmem_cache_entry *entry,
                     const char *options, cl_program *program);
/* Keeps a program's binary, atomically; a failure only costs a rebuild. */
void clmem_cache_store(struct clmem_ctx *ctx, const struct clmem_cache_entry *entry,
                       cl_program program);

/* ---- buffers (buffer.c) ---- */
int clmem_buffer_create(struct clmem_ctx *ctx, cl_mem_flags flags, size_t bytes, const void *host,
                        cl_mem *buffer, struct clmem_error *err);
/* A buffer whose storage is the host's memory at `host` (CL_MEM_USE_HOST_PTR:
 * a CPU device's driver may use it in place), kept by the caller until the
 * buffer is released. */
int clmem_buffer_wrap(struct clmem_ctx *ctx, cl_mem_flags flags, size_t bytes, void *host,
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
 * a driver has hung on them (buffer.c says where). */
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

/* ---- kernels (kernels.c) ---- */
/* clCreateKernel of `name` in a program built from `source` (for the
 * message: "clCreateKernel of NAME in SOURCE failed with CL_..."). */
int clmem_kernel_create(cl_program program, const char *source, const char *name, cl_kernel *kernel,
                        struct clmem_error *err);
/* One kernel argument: the bytes of its value and where they are, both
 * taken from the value by CLMEM_ARG so that neither can disagree with it. */
struct clmem_arg {
    size_t size;
    const void *value;
};
/* The argument x: an lvalue (an rvalue has no address: a compile error) of
 * a type a kernel parameter has. Any other type (a size_t where the kernel
 * takes an int, a host pointer where it takes a buffer) has no size here
 * and fails to compile; a kernel taking a new type adds one line. */
#define CLMEM_ARG(x) ((struct clmem_arg){CLMEM_ARG_SIZE(x), &(x)})
/* clang-format off */
#define CLMEM_ARG_SIZE(x)                                                                          \
    _Generic((x),                                                                                  \
        cl_mem: sizeof(cl_mem),                                                                    \
        cl_int: sizeof(cl_int),                                                                    \
        cl_uint: sizeof(cl_uint),                                                                  \
        cl_float: sizeof(cl_float))
/* clang-format on */
/* Sets a kernel's arguments 0, 1, ... from a list of CLMEM_ARG, counted by
 * the compiler: clmem_kernel_args(kernel, err, CLMEM_ARG(in), CLMEM_ARG(n)).
 * (A bare value in the list warns: missing braces.) */
#define clmem_kernel_args(kernel, err, ...)                                                        \
    clmem_kernel_args_n((kernel), (err), (const struct clmem_arg[]){__VA_ARGS__},                  \
                        sizeof((const struct clmem_arg[]){__VA_ARGS__}) /                          \
                            sizeof(struct clmem_arg))
int clmem_kernel_args_n(cl_kernel kernel, struct clmem_error *err, const struct clmem_arg *args,
                        size_t n);
/* Largest power-of-two T <= max_tile whose T x T work-group the device
 * allows and whose `tiles` T x T tiles of `elem_bytes` fit its local memory. */
size_t clmem_pick_tile(const struct clmem_device *device, size_t max_tile, size_t tiles,
                       size_t elem_bytes);
/* Largest power-of-two work-group size <= max_group the device allows. */
size_t clmem_pick_group(const struct clmem_device *device, size_t max_group);
/* The work-group size the workloads ask for at most (a power of two every
 * device clmem met allows; clmem_pick_group lowers it where needed). */
#define CLMEM_GROUP_SIZE 256

/* ---- launching and timing (launch.c) ---- */
/* The events of the launches of one timed run. */
struct clmem_timing {
    cl_event first, last;
    /* Work done on the host instead (a CPU library's routine): its wall
     * time in ms, used when no event was added. */
    double host_ms;
    /* A run repeated in a batch after its first: its launches are not
     * traced (CLMEM_DEBUG=2 would print them thousands of times). */
    int untraced;
    /* Launches after a run's first CLMEM_EVENTED_LAUNCHES take no event
     * when the caller ends the timing with a marker (clmem_timing_end):
     * an event on every launch made back-to-back launches cost several
     * times as much on a GPU, and a marker's own end reads late, so runs
     * of a few launches keep an event on each (bench/launch/). */
    int end_by_marker;
    unsigned evented, unevented;
};
/* Enqueues one NDRange (local NULL: the driver's choice); the event is
 * kept in `timing` (NULL: not timed) so the run's device time is measured. */
int clmem_launch(struct clmem_ctx *ctx, cl_kernel kernel, cl_uint dims, const size_t *global,
                 const size_t *local, struct clmem_timing *timing, struct clmem_error *err);
/* What the events of a timed batch of runs say. */
struct clmem_span {
    int has_events; /* the runs launched timed commands; else ms is a library's host time */
    int ordered;    /* every timestamp read in order, the runs one after the other */
    double ms;      /* the first run's first command's start to the last run's last one's end */
    double runs_ms; /* the sum of each run's own span (its first command's start to its last
                       one's end): ms without what runs between the runs (0 unless ordered) */
};
/* Waits for the queue, then reads the spans of n runs' events (each run's
 * own clmem_timing, in the order they ran) and releases them. */
int clmem_timing_finish(struct clmem_ctx *ctx, struct clmem_timing *runs, size_t n,
                        struct clmem_span *span, struct clmem_error *err);
void clmem_timing_release(struct clmem_timing *timing);
/* Times work the runtime did not launch (a library call): its event, or a
 * marker enqueued before it, join the run's timing. */
void clmem_timing_add(struct clmem_timing *timing, cl_event event);
int clmem_timing_mark(struct clmem_ctx *ctx, struct clmem_timing *timing, struct clmem_error *err);
/* Ends a timing begun with end_by_marker set: a marker after its last
 * launch, where some launch took no event, becomes its last event. */
int clmem_timing_end(struct clmem_ctx *ctx, struct clmem_timing *timing, struct clmem_error *err);
#define CLMEM_EVENTED_LAUNCHES 4
/* The time from `first`'s start to `last`'s end (last NULL: first's own), in ms. */
int clmem_event_ms(cl_event first, cl_event last, double *ms, struct clmem_error *err);

/* ---- the device's event clock (clock.c) ---- */
/* One run of the check's kernel: its event's timestamps (ns) and the
 * host's monotonic time around its enqueue and clFinish. */
struct clmem_clock_reading {
    cl_ulong queued, submit, start, end;
    double wall_ns;
};
/* The verdict on n readings (clmem_clock_check's; a test gives made-up
 * ones): events are used when every reading is ordered (queued <= submit <=
 * start <= end), none spans more than 1.05 of its wall time plus two ticks,
 * and the best spans at least half of it. The tick is the reported
 * resolution, or the largest power of ten dividing every timestamp. */
void clmem_clock_judge(const struct clmem_clock_reading *r, size_t n, double resolution_ns,
                       struct clmem_clock *clock);
/* Checks the device's event clock once (ctx->clock; again only when
 * ctx->clock.checked is 0): a kernel of growing work timed by its event and
 * by the host around clFinish, until a run lasts CLMEM_CLOCK_CHECK_MS
 * (then every judged run lasts at least half of it).
 * Timestamps out of order, zero durations, event times longer than the
 * host's or far shorter leave events_ok 0: samples are then host-timed. */
int clmem_clock_check(struct clmem_ctx *ctx, struct clmem_error *err);
#define CLMEM_CLOCK_CHECK_MS 20.0

/* ---- copies beside the kernels (transfer.c) ----
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
/* The queue's later commands wait for the events that are not NULL (at most 8). */
int clmem_queue_wait(cl_command_queue queue, const cl_event *events, cl_uint n,
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

/* ---- vendor libraries compared with, built in when found (library.c) ---- */
/* Whether clmem was built with `library` ("clblast", "openblas"). */
int clmem_library_available(const char *library);
/* A --compare choice (usage errors): NULL, or a library clmem knows and
 * was built with. */
int clmem_library_check(const char *library, struct clmem_error *err);
/* Whether `library` may stand beside `device`'s work: OpenBLAS runs on the
 * host's cores, so only beside a CPU device; a usage error otherwise. */
int clmem_compare_fits(const char *library, const struct clmem_device *device,
                       struct clmem_error *err);
/* OpenBLAS's cblas_sgemm on the host's cores, P = M x N row-major from host
 * arrays, timed as wall time in timing->host_ms. */
int clmem_openblas_sgemm(size_t rows, size_t cols, size_t inner, const float *m, const float *n,
                         float *p, struct clmem_timing *timing, struct clmem_error *err);
/* "OpenBLAS Haswell kernels ...": which kernels OpenBLAS chose for this CPU. */
void clmem_openblas_describe(char *out, size_t size);
/* Drops what the libraries keep per context (CLBlast's programs), before
 * a context is released. */
void clmem_libraries_forget_context(void);
/* CLBlast's SGEMM, row-major P = M x N, timed from a marker before it. */
int clmem_clblast_sgemm(struct clmem_ctx *ctx, size_t rows, size_t cols, size_t inner, cl_mem m,
                        cl_mem n, cl_mem p, struct clmem_timing *timing, struct clmem_error *err);

#endif
