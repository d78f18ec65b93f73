/* clmem: portable OpenCL suite of the GPU memory-hierarchy designs.
 * The public interface of libclmem (pkg-config clmem): devices, running
 * workloads and the suite, results, reports. What clmem's own layers
 * share lives in their headers under src/ (README, "Layout").
 *
 * Compatibility, within a major version: a public struct only grows, at
 * its end. A field is never removed, reordered or resized; a field added
 * has a default (zero in the options structs); a struct ends at its last
 * field, never in padding (a field that would leave padding comes with an
 * explicit pad), so that a smaller, older struct holds whole fields only.
 * Every function below that takes or returns a public struct is a macro
 * passing the program's sizes of them all (CLMEM_SIZES) to the exported
 * function behind it, NAME_sized. libclmem then reads of a struct what the
 * program's header knows (the defaults for the rest), writes only that,
 * and lays out the arrays it returns at the program's stride: a program
 * built against an older header keeps working with a newer libclmem. One
 * built against a newer header than the library's gets CLMEM_ERR_USAGE,
 * naming the struct and both sizes, before any work. */
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

/* The size of each public struct as the program's header declares it, which
 * every macro below passes (CLMEM_SIZES) to the function it names. Passed
 * at each call rather than once at an init call: clmem_devices_list,
 * clmem_runfile_load, clmem_report_write and others run before any context
 * or without one, and libclmem keeps no global state. A newer header
 * appends the sizes of the structs it adds. */
struct clmem_sizes {
    size_t sizes; /* sizeof(struct clmem_sizes): which of the sizes below it holds */
    size_t error, device, clock, ctx, workload_info, variant_info, result, run_options, peak,
        bench_options, split_options, host, report_meta, compare_device;
};
#define CLMEM_SIZES                                                                                \
    (&(const struct clmem_sizes){                                                                  \
        sizeof(struct clmem_sizes), sizeof(struct clmem_error), sizeof(struct clmem_device),       \
        sizeof(struct clmem_clock), sizeof(struct clmem_ctx), sizeof(struct clmem_workload_info),  \
        sizeof(struct clmem_variant_info), sizeof(struct clmem_result),                            \
        sizeof(struct clmem_run_options), sizeof(struct clmem_peak),                               \
        sizeof(struct clmem_bench_options), sizeof(struct clmem_split_options),                    \
        sizeof(struct clmem_host), sizeof(struct clmem_report_meta),                               \
        sizeof(struct clmem_compare_device)})

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
CLMEM_API void clmem_error_clear_sized(struct clmem_error *err, const struct clmem_sizes *sizes);
#define clmem_error_clear(err) clmem_error_clear_sized(err, CLMEM_SIZES)

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
    char reserved[4]; /* zero: the struct ends at a field (see the top) */
};
/* Every device of every platform (malloc'd). An empty list is no error. */
CLMEM_API int clmem_devices_list_sized(struct clmem_device **devices, size_t *count,
                                       struct clmem_error *err, const struct clmem_sizes *sizes);
#define clmem_devices_list(devices, count, err)                                                    \
    clmem_devices_list_sized(devices, count, err, CLMEM_SIZES)
/* Chooses by spec: NULL/"" (first GPU, else first device), "P:D", a type
 * ("gpu", "cpu", "accelerator"), or a case-insensitive name substring. */
CLMEM_API int clmem_devices_select_sized(const char *spec, const struct clmem_device *devices,
                                         size_t count, size_t *chosen, struct clmem_error *err,
                                         const struct clmem_sizes *sizes);
#define clmem_devices_select(spec, devices, count, chosen, err)                                    \
    clmem_devices_select_sized(spec, devices, count, chosen, err, CLMEM_SIZES)
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
CLMEM_API int clmem_ctx_open_sized(struct clmem_ctx *ctx, const struct clmem_device *device,
                                   const char *kernel_dir, struct clmem_error *err,
                                   const struct clmem_sizes *sizes);
#define clmem_ctx_open(ctx, device, kernel_dir, err)                                               \
    clmem_ctx_open_sized(ctx, device, kernel_dir, err, CLMEM_SIZES)
CLMEM_API void clmem_ctx_close_sized(struct clmem_ctx *ctx, const struct clmem_sizes *sizes);
#define clmem_ctx_close(ctx) clmem_ctx_close_sized(ctx, CLMEM_SIZES)
/* Checks the device's event clock once (ctx->clock; again only when
 * ctx->clock.checked is 0): a kernel of growing work timed by its event and
 * by the host around clFinish, until a run lasts CLMEM_CLOCK_CHECK_MS
 * (then every judged run lasts at least half of it).
 * Timestamps out of order, zero durations, event times longer than the
 * host's or far shorter leave events_ok 0: samples are then host-timed. */
CLMEM_API int clmem_clock_check_sized(struct clmem_ctx *ctx, struct clmem_error *err,
                                      const struct clmem_sizes *sizes);
#define clmem_clock_check(ctx, err) clmem_clock_check_sized(ctx, err, CLMEM_SIZES)

#define CLMEM_CLOCK_CHECK_MS 20.0

/* ---- workloads: the suite's list, by name ---- */
struct clmem_workload; /* defined for workload authors in src/harness/workload.h */
CLMEM_API const struct clmem_workload *const *clmem_workloads(size_t *count);
CLMEM_API const struct clmem_workload *clmem_workload_find(const char *name);
struct clmem_workload_info {
    const char *name, *summary, *default_size, *size_help, *metric_unit;
    size_t n_variants;
};
CLMEM_API void clmem_workload_describe_sized(const struct clmem_workload *w,
                                             struct clmem_workload_info *info,
                                             const struct clmem_sizes *sizes);
#define clmem_workload_describe(w, info) clmem_workload_describe_sized(w, info, CLMEM_SIZES)
struct clmem_variant_info {
    const char *name, *summary;
    const char *library; /* a vendor library's routine ("clblast"), else NULL */
};
/* Variant i (< n_variants) of the workload. */
CLMEM_API void clmem_variant_describe_sized(const struct clmem_workload *w, size_t i,
                                            struct clmem_variant_info *info,
                                            const struct clmem_sizes *sizes);
#define clmem_variant_describe(w, i, info) clmem_variant_describe_sized(w, i, info, CLMEM_SIZES)

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
    /* Energy: what the device's own counter read over the variant's sampled
     * runs (every run clmem_sample made, the batches that sized them too).
     * energy_source names the counter ("nvml", "rapl", "amdsmi", "sysman"),
     * "" when the device has none; the figures hold where energy_na is "",
     * else energy_na says why there are none (no counter, a span shorter
     * than the counter resolves). Both "": not measured (skipped results,
     * totals over devices, files written before energy was read). */
    double energy_j;          /* per run: the span's joules over energy_runs */
    double power_w;           /* the span's joules over its seconds */
    double energy_efficiency; /* one run's work per joule (metric x median over energy_j:
                                 GFLOP/J, GB/J); NAN when the metric is no rate */
    double energy_span_s;     /* the metered span, seconds */
    uint64_t energy_runs;     /* the runs it held */
    char energy_source[8];
    char energy_na[120];
};
CLMEM_API void clmem_results_free_sized(struct clmem_result *results, size_t n,
                                        const struct clmem_sizes *sizes);
#define clmem_results_free(results, n) clmem_results_free_sized(results, n, CLMEM_SIZES)
/* "ok", "FAILED" or "skipped". */
CLMEM_API const char *clmem_result_status_sized(const struct clmem_result *result,
                                                const struct clmem_sizes *sizes);
#define clmem_result_status(result) clmem_result_status_sized(result, CLMEM_SIZES)

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
CLMEM_API int clmem_run_sized(struct clmem_ctx *ctx, const struct clmem_workload *w,
                              const struct clmem_run_options *options,
                              struct clmem_result **results, size_t *n_results,
                              struct clmem_error *err, const struct clmem_sizes *sizes);
#define clmem_run(ctx, w, options, results, n_results, err)                                        \
    clmem_run_sized(ctx, w, options, results, n_results, err, CLMEM_SIZES)

/* ---- the device's own peaks (workload "peak") ---- */
struct clmem_peak {
    double bandwidth;      /* GB/s of a float4 copy, read + write */
    double flops;          /* GFLOP/s of FP32 fused multiply-adds */
    double read_bandwidth; /* GB/s of float4 reads alone; 0 when not measured */
    double launch_us;      /* microseconds a kernel launch costs; 0 when not measured */
};
/* Runs the peak workload; its results are appended to *results. */
CLMEM_API int clmem_peak_measure_sized(struct clmem_ctx *ctx, unsigned reps,
                                       struct clmem_peak *peak, struct clmem_result **results,
                                       size_t *n_results, struct clmem_error *err,
                                       const struct clmem_sizes *sizes);
#define clmem_peak_measure(ctx, reps, peak, results, n_results, err)                               \
    clmem_peak_measure_sized(ctx, reps, peak, results, n_results, err, CLMEM_SIZES)
/* Each result's peak_fraction, against its roof's peak. */
CLMEM_API void clmem_results_apply_peak_sized(struct clmem_result *results, size_t n,
                                              const struct clmem_peak *peak,
                                              const struct clmem_sizes *sizes);
#define clmem_results_apply_peak(results, n, peak)                                                 \
    clmem_results_apply_peak_sized(results, n, peak, CLMEM_SIZES)

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
CLMEM_API int clmem_bench_plan_sized(const struct clmem_ctx *ctx,
                                     const struct clmem_bench_options *options, size_t *steps,
                                     struct clmem_error *err, const struct clmem_sizes *sizes);
#define clmem_bench_plan(ctx, options, steps, err)                                                 \
    clmem_bench_plan_sized(ctx, options, steps, err, CLMEM_SIZES)
/* The peaks, then every workload at its bench sizes, all variants. A
 * workload that fails does not stop the others: the status is the worst
 * seen; cancelled, CLMEM_ERR_INTERRUPTED with the results so far. */
CLMEM_API int clmem_bench_run_sized(struct clmem_ctx *ctx,
                                    const struct clmem_bench_options *options,
                                    struct clmem_peak *peak, struct clmem_result **results,
                                    size_t *n_results, struct clmem_error *err,
                                    const struct clmem_sizes *sizes);
#define clmem_bench_run(ctx, options, peak, results, n_results, err)                               \
    clmem_bench_run_sized(ctx, options, peak, results, n_results, err, CLMEM_SIZES)

/* ---- several devices of one host at once ---- */
/* One workload on n open contexts, a thread each, the same options: the
 * results of device 0, 1, ... (named "#1 NAME", ...), then their totals. */
CLMEM_API int clmem_run_multi_sized(const struct clmem_workload *workload, struct clmem_ctx *ctxs,
                                    size_t n, const struct clmem_run_options *options,
                                    struct clmem_result **results, size_t *n_results,
                                    struct clmem_error *err, const struct clmem_sizes *sizes);
#define clmem_run_multi(workload, ctxs, n, options, results, n_results, err)                       \
    clmem_run_multi_sized(workload, ctxs, n, options, results, n_results, err, CLMEM_SIZES)
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
CLMEM_API int clmem_matmul_split_sized(struct clmem_ctx *ctxs, size_t n,
                                       const struct clmem_split_options *options,
                                       struct clmem_result **results, size_t *n_results,
                                       struct clmem_error *err, const struct clmem_sizes *sizes);
#define clmem_matmul_split(ctxs, n, options, results, n_results, err)                              \
    clmem_matmul_split_sized(ctxs, n, options, results, n_results, err, CLMEM_SIZES)

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
CLMEM_API int clmem_host_describe_sized(struct clmem_host *h, const struct clmem_sizes *sizes);
#define clmem_host_describe(h) clmem_host_describe_sized(h, CLMEM_SIZES)

enum clmem_format { CLMEM_FORMAT_TABLE, CLMEM_FORMAT_CSV, CLMEM_FORMAT_JSON };
CLMEM_API int clmem_format_parse_sized(const char *text, enum clmem_format *format,
                                       struct clmem_error *err, const struct clmem_sizes *sizes);
#define clmem_format_parse(text, format, err)                                                      \
    clmem_format_parse_sized(text, format, err, CLMEM_SIZES)
/* What a report says besides its results (each optional). */
struct clmem_report_meta {
    const struct clmem_device *device;
    const struct clmem_peak *peak;
    const struct clmem_host *host; /* NULL: this machine */
    const char *created;           /* NULL/"": now */
    int interrupted;               /* JSON says "interrupted": true */
    int reserved;                  /* zero: the struct ends at a field (see the top) */
};
/* A table for people, CSV with one fixed header, or JSON as
 * schema/run.schema.json describes it. */
CLMEM_API int clmem_report_write_sized(FILE *out, enum clmem_format format,
                                       const struct clmem_result *results, size_t n,
                                       const struct clmem_report_meta *meta,
                                       struct clmem_error *err, const struct clmem_sizes *sizes);
#define clmem_report_write(out, format, results, n, meta, err)                                     \
    clmem_report_write_sized(out, format, results, n, meta, err, CLMEM_SIZES)

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
CLMEM_API void clmem_compare_devices_free_sized(struct clmem_compare_device *runs, size_t n,
                                                const struct clmem_sizes *sizes);
#define clmem_compare_devices_free(runs, n) clmem_compare_devices_free_sized(runs, n, CLMEM_SIZES)
/* Appends one entry per device run the file holds; a file that cannot be
 * read, is not clmem's, or holds no results is a usage error naming it. */
CLMEM_API int clmem_runfile_load_sized(const char *path, struct clmem_compare_device **runs,
                                       size_t *n_runs, struct clmem_error *err,
                                       const struct clmem_sizes *sizes);
#define clmem_runfile_load(path, runs, n_runs, err)                                                \
    clmem_runfile_load_sized(path, runs, n_runs, err, CLMEM_SIZES)
/* The comparison report of n_devs runs into `dir` (report.md, report.html,
 * results.csv, device-N.json, plots), whole or not at all; plots_note says
 * why pictures are missing ("" when drawn). */
CLMEM_API int clmem_compare_report_sized(const char *dir, const struct clmem_compare_device *devs,
                                         size_t n_devs, char *plots_note, size_t note_size,
                                         struct clmem_error *err, const struct clmem_sizes *sizes);
#define clmem_compare_report(dir, devs, n_devs, plots_note, note_size, err)                        \
    clmem_compare_report_sized(dir, devs, n_devs, plots_note, note_size, err, CLMEM_SIZES)

#endif
