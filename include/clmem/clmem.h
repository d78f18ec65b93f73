/* clmem: portable OpenCL suite of the GPU memory-hierarchy designs.
 * The public interface of libclmem (pkg-config clmem): devices, running
 * workloads and the suite, results, reports. What clmem's own layers
 * share lives in their headers under src/ (README, "Layout"). */
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

/* The version of libclmem this header describes (meson.build's project
 * version: tests/test_exports.sh checks that they agree). */
#define CLMEM_VERSION_MAJOR 0
#define CLMEM_VERSION_MINOR 1
#define CLMEM_VERSION_PATCH 0
#define CLMEM_VERSION_NUMBER                                                                       \
    (CLMEM_VERSION_MAJOR * 10000 + CLMEM_VERSION_MINOR * 100 + CLMEM_VERSION_PATCH)

/* What libclmem exports: the functions declared here and nothing else (its
 * layers are compiled with hidden visibility), so that its internals cannot
 * clash with a program that embeds it. */
#if defined(__GNUC__) || defined(__clang__)
#define CLMEM_API __attribute__((visibility("default")))
#else
#define CLMEM_API
#endif

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

/* What went wrong; `log` holds a build log when there is one (heap,
 * freed by clmem_error_clear). */
struct clmem_error {
    int status;
    cl_int cl_err;
    char message[2048]; /* a longer one keeps its start and its end (the reason) */
    char *log;
};
CLMEM_API void clmem_error_clear(struct clmem_error *err);

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
    size_t timer_resolution_ns;   /* CL_DEVICE_PROFILING_TIMER_RESOLUTION, as reported */
    int has_fp64;
    /* Between the device and its vendor: "sm_90" (an NVIDIA GPU's compute
     * capability), "gfx90a", "cpu-simd512" (a CPU's vector width); "". */
    char family[64];
};
/* Every device of every platform (malloc'd). An empty list is no error. */
CLMEM_API int clmem_devices_list(struct clmem_device **devices, size_t *count,
                                 struct clmem_error *err);
/* Chooses by spec: NULL/"" (first GPU, else first device), "P:D", a type
 * ("gpu", "cpu", "accelerator"), or a case-insensitive name substring. */
CLMEM_API int clmem_devices_select(const char *spec, const struct clmem_device *devices,
                                   size_t count, size_t *chosen, struct clmem_error *err);
CLMEM_API const char *clmem_device_type_name(cl_device_type type);

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
 * the installed data directory, then the source tree. */
CLMEM_API int clmem_ctx_open(struct clmem_ctx *ctx, const struct clmem_device *device,
                             const char *kernel_dir, struct clmem_error *err);
CLMEM_API void clmem_ctx_close(struct clmem_ctx *ctx);
/* Checks the device's event clock once (ctx->clock; again only when
 * ctx->clock.checked is 0): a kernel of growing work timed by its event and
 * by the host around clFinish, until a run lasts CLMEM_CLOCK_CHECK_MS
 * (then every judged run lasts at least half of it).
 * Timestamps out of order, zero durations, event times longer than the
 * host's or far shorter leave events_ok 0: samples are then host-timed. */
CLMEM_API int clmem_clock_check(struct clmem_ctx *ctx, struct clmem_error *err);
#define CLMEM_CLOCK_CHECK_MS 20.0

/* ---- workloads: the suite's list, by name ---- */
struct clmem_workload; /* defined for workload authors in src/harness/workload.h */
CLMEM_API const struct clmem_workload *const *clmem_workloads(size_t *count);
CLMEM_API const struct clmem_workload *clmem_workload_find(const char *name);
struct clmem_workload_info {
    const char *name, *summary, *default_size, *size_help, *metric_unit;
    size_t n_variants;
};
CLMEM_API void clmem_workload_describe(const struct clmem_workload *w,
                                       struct clmem_workload_info *info);
struct clmem_variant_info {
    const char *name, *summary;
    const char *library; /* a vendor library's routine ("clblast"), else NULL */
};
/* Variant i (< n_variants) of the workload. */
CLMEM_API void clmem_variant_describe(const struct clmem_workload *w, size_t i,
                                      struct clmem_variant_info *info);

/* ---- results ---- */
#define CLMEM_MAX_MISMATCH_LINES 10
struct clmem_result {
    char workload[32];
    char variant[32];
    char device[128];
    char size[64];
    char sweep[16]; /* "" or the swept parameter's name, e.g. "offset" */
    unsigned sweep_value;
    char params[512]; /* the -D parameters used */
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
    unsigned reps, warmup; /* timed runs, untimed runs before them */
    uint64_t seed;         /* the inputs' */
    double flops_per_byte; /* the arithmetic intensity; NAN when it means nothing */
    /* The clock that timed the samples: "events" (the device's profiling
     * timestamps) or "host" (the host's monotonic clock around clFinish);
     * "" for results read from files written before clocks were named. */
    char timer[8];
    unsigned runs_per_sample; /* back-to-back runs each sample holds (its time divided) */
    int demonstrates_failure; /* the variant shows a failure by design (atomics racy): never a
                                 device's best */
};
CLMEM_API void clmem_results_free(struct clmem_result *results, size_t n);
/* "ok", "FAILED" or "skipped". */
CLMEM_API const char *clmem_result_status(const struct clmem_result *result);

/* ---- running one workload ---- */
struct clmem_run_options {
    const char *size;    /* NULL: the workload's default */
    const char *variant; /* NULL or "all" */
    unsigned reps;       /* timed runs */
    unsigned warmup;     /* untimed runs before them */
    uint64_t seed;
    const char *input;        /* an input file (blur's image) */
    const char *image_output; /* where the workload writes its image (blur) */
    unsigned loop_reps;       /* passes inside the kernel for looped timings; 0: 20 */
    const char *compare;      /* a library to run beside the kernels ("clblast") or NULL */
    const int *tune_values;   /* clmem tune: the candidate to run */
    int ignore_tuning;        /* the built-in parameters, not the tuning database's */
    /* Before each variant runs (index of count): its result, named but not
     * yet measured (workload, variant, device, size), for progress. */
    void (*progress)(void *user, const struct clmem_result *next, size_t index, size_t count);
    void *progress_user;
    /* Polled before each variant: non-zero stops there with
     * CLMEM_ERR_INTERRUPTED, keeping what finished (the CLI's Ctrl-C). */
    int (*cancelled)(void *user);
    void *cancelled_user;
};
/* Plans (usage errors before anything is allocated), sets up, runs every
 * selected variant (warm-up, timed runs, verification against the CPU
 * reference) and appends one result per variant to *results. Returns
 * CLMEM_ERR_VERIFY when a variant failed its check, after running on. */
CLMEM_API int clmem_run(struct clmem_ctx *ctx, const struct clmem_workload *w,
                        const struct clmem_run_options *options, struct clmem_result **results,
                        size_t *n_results, struct clmem_error *err);

/* ---- the device's own peaks (workload "peak") ---- */
struct clmem_peak {
    double bandwidth;      /* GB/s of a float4 copy, read + write */
    double flops;          /* GFLOP/s of FP32 fused multiply-adds */
    double read_bandwidth; /* GB/s of float4 reads alone; 0 when not measured */
    double launch_us;      /* microseconds a kernel launch costs; 0 when not measured */
};
/* Runs the peak workload; its results are appended to *results. */
CLMEM_API int clmem_peak_measure(struct clmem_ctx *ctx, unsigned reps, struct clmem_peak *peak,
                                 struct clmem_result **results, size_t *n_results,
                                 struct clmem_error *err);
/* Each result's peak_fraction, against its roof's peak. */
CLMEM_API void clmem_results_apply_peak(struct clmem_result *results, size_t n,
                                        const struct clmem_peak *peak);

/* ---- the whole suite (clmem bench) ---- */
struct clmem_bench_options {
    unsigned reps;
    const char *compare; /* as clmem_run_options.compare */
    uint64_t seed;
    const char *only; /* comma-separated workloads, or NULL for all */
    /* Whose bench sizes: 0, the device's own; else this type's. */
    cl_device_type sizes;
    /* Before each workload and size, for progress. */
    void (*progress)(void *user, size_t step, size_t steps, const char *workload, const char *size);
    void *progress_user;
    int (*cancelled)(void *user); /* as clmem_run_options.cancelled */
    void *cancelled_user;
};
/* Counts the steps (workload x size) and validates `only` (usage errors). */
CLMEM_API int clmem_bench_plan(const struct clmem_ctx *ctx,
                               const struct clmem_bench_options *options, size_t *steps,
                               struct clmem_error *err);
/* The peaks, then every workload at its bench sizes, all variants. A
 * workload that fails does not stop the others: the status is the worst
 * seen; cancelled, CLMEM_ERR_INTERRUPTED with the results so far. */
CLMEM_API int clmem_bench_run(struct clmem_ctx *ctx, const struct clmem_bench_options *options,
                              struct clmem_peak *peak, struct clmem_result **results,
                              size_t *n_results, struct clmem_error *err);

/* ---- several devices of one host at once ---- */
/* One workload on n open contexts, a thread each, the same options: the
 * results of device 0, 1, ... (named "#1 NAME", ...), then their totals. */
CLMEM_API int clmem_run_multi(const struct clmem_workload *workload, struct clmem_ctx *ctxs,
                              size_t n, const struct clmem_run_options *options,
                              struct clmem_result **results, size_t *n_results,
                              struct clmem_error *err);
/* matmul with P's rows split over the contexts, end to end (README,
 * "Several devices"): one result per device count k = 1 .. n. */
struct clmem_split_options {
    const char *variant;   /* one kernel variant of matmul, never a library's */
    const char *size;      /* NULL: matmul's default */
    const double *weights; /* one per context, NULL: equal shares */
    unsigned reps, warmup;
    uint64_t seed;
    int weak;                     /* weak scaling: k devices multiply k times size's rows */
    int no_overlap;               /* each transfer and kernel waits for the one before */
    int (*cancelled)(void *user); /* polled between scaling points */
    void *cancelled_user;
};
CLMEM_API int clmem_matmul_split(struct clmem_ctx *ctxs, size_t n,
                                 const struct clmem_split_options *options,
                                 struct clmem_result **results, size_t *n_results,
                                 struct clmem_error *err);

/* ---- reports ---- */
/* The machine a run file was written on. */
struct clmem_host {
    char name[256];        /* gethostname */
    char os[256];          /* PRETTY_NAME of /etc/os-release, else uname's sysname */
    char kernel[256];      /* uname's release */
    char cpu[256];         /* "model name" of /proc/cpuinfo, else uname's machine */
    long cores;            /* processors online (at least 1) */
    uint64_t memory_bytes; /* physical memory; 0 when unknown */
};
/* This machine; never fails ("unknown" and 0 where nothing is known). */
CLMEM_API int clmem_host_describe(struct clmem_host *h);

enum clmem_format { CLMEM_FORMAT_TABLE, CLMEM_FORMAT_CSV, CLMEM_FORMAT_JSON };
CLMEM_API int clmem_format_parse(const char *text, enum clmem_format *format,
                                 struct clmem_error *err);
/* What a report says besides its results (each optional). */
struct clmem_report_meta {
    const struct clmem_device *device;
    const struct clmem_peak *peak;
    const struct clmem_host *host; /* NULL: this machine */
    const char *created;           /* NULL/"": now */
    int interrupted;               /* JSON says "interrupted": true */
};
/* A table for people, CSV with one fixed header, or JSON as
 * schema/run.schema.json describes it. */
CLMEM_API int clmem_report_write(FILE *out, enum clmem_format format,
                                 const struct clmem_result *results, size_t n,
                                 const struct clmem_report_meta *meta, struct clmem_error *err);

/* A device's run, live or read back from a run file (clmem compare, diff). */
struct clmem_compare_device {
    struct clmem_device device;
    struct clmem_peak peak;       /* 0 where unknown */
    struct clmem_result *results; /* as clmem_bench_run returns them */
    size_t n_results;
    char host[256];              /* the machine's name; "" when the file did not say */
    struct clmem_host host_info; /* all the file said of it */
    char origin[1024];           /* the run file it was read from, "" for a live device */
    char created[40];            /* when the file was written (UTC, ISO 8601), or "" */
    char clmem_version[64];
    int rank;        /* an MPI file's rank, else -1 */
    int interrupted; /* a signal stopped its run early: what finished */
};
CLMEM_API void clmem_compare_devices_free(struct clmem_compare_device *runs, size_t n);
/* Appends one entry per device run the file holds; a file that cannot be
 * read, is not clmem's, or holds no results is a usage error naming it. */
CLMEM_API int clmem_runfile_load(const char *path, struct clmem_compare_device **runs,
                                 size_t *n_runs, struct clmem_error *err);
/* The comparison report of n_devs runs into `dir` (report.md, report.html,
 * results.csv, device-N.json, plots), whole or not at all; plots_note says
 * why pictures are missing ("" when drawn). */
CLMEM_API int clmem_compare_report(const char *dir, const struct clmem_compare_device *devs,
                                   size_t n_devs, char *plots_note, size_t note_size,
                                   struct clmem_error *err);

#endif
