/* clmem: portable OpenCL suite of the GPU memory-hierarchy designs.
 * The public interface of libclmem (pkg-config clmem): devices, running
 * workloads and the suite, results, reports.
 *
 * Every struct that may grow is an opaque handle, made, read and released
 * through the functions below (as OpenCL's objects are); a field is read
 * by its name (the run files' name where they have it, schema/) and an
 * option set by the name and range of the clmem program's option. Only
 * struct clmem_error is the program's to allocate. A release that breaks a
 * program built against an older header changes libclmem's soname
 * (CHANGELOG.md).
 *
 * Misuse is an answer, not a crash: a function that returns a status
 * returns CLMEM_ERR_USAGE, its message naming the function and the
 * argument, for a NULL or out-of-range argument; one that returns a
 * pointer returns NULL, a number NAN; a release or free of NULL does
 * nothing, as free(NULL) does. The error record is not optional: every
 * function that takes `err` needs one, and called with err NULL does
 * nothing at all, however valid its other arguments, and returns
 * CLMEM_ERR_USAGE with no message (there is no record to hold one). */
#ifndef CLMEM_H
#define CLMEM_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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
    CLMEM_ERR_USAGE = 2,  /* bad option, size, name, file, argument */
    CLMEM_ERR_CL = 3,     /* no device, an OpenCL call failed, out of host memory */
    /* Stopped on request (a `cancelled` callback) between variants; the
     * CLI exits 128 + the signal's number (130 for Ctrl-C). */
    CLMEM_ERR_INTERRUPTED = 130,
};

/* What went wrong; `log` holds a build log when there is one (heap,
 * freed by clmem_error_clear). Zero it before its first use. */
struct clmem_error {
    int status;
    cl_int cl_err;
    char message[2048]; /* a longer one keeps its start and its end (the reason) */
    char *log;
};
CLMEM_API void clmem_error_clear(struct clmem_error *err);

/* ---- devices ---- */
struct clmem_device;
/* Every device of every platform, an array that free() releases. An empty
 * list is no error. */
CLMEM_API int clmem_devices_list(struct clmem_device **devices, size_t *count,
                                 struct clmem_error *err);
/* Chooses by spec: NULL/"" (first GPU, else first device), "P:D", a type
 * ("gpu", "cpu", "accelerator"), or a case-insensitive name substring. */
CLMEM_API int clmem_devices_select(const char *spec, const struct clmem_device *devices,
                                   size_t count, size_t *chosen, struct clmem_error *err);
/* Device i of the `count` that clmem_devices_list returned. */
CLMEM_API const struct clmem_device *clmem_device_at(const struct clmem_device *devices,
                                                     size_t count, size_t i);
/* "name", "platform", "vendor", "version", "driver", "opencl_c_version",
 * "family" ("sm_90", "gfx90a", "cpu-simd512" or ""); the rest through
 * clGetDeviceInfo on its id. */
CLMEM_API const char *clmem_device_text(const struct clmem_device *device, const char *field);
CLMEM_API cl_device_id clmem_device_id(const struct clmem_device *device);
CLMEM_API const char *clmem_device_type_name(cl_device_type type); /* "gpu", "cpu", ... */

/* ---- contexts: one device in use ---- */
struct clmem_ctx;
/* kernel_dir NULL or "": the kernels are looked for in $CLMEM_KERNEL_DIR,
 * the installed data directory, then the source tree. */
CLMEM_API int clmem_ctx_create(const struct clmem_device *device, const char *kernel_dir,
                               struct clmem_ctx **ctx, struct clmem_error *err);
CLMEM_API void clmem_ctx_release(struct clmem_ctx *ctx);

/* ---- workloads: the suite's list, by name ---- */
struct clmem_workload;
CLMEM_API const struct clmem_workload *const *clmem_workloads(size_t *count);
CLMEM_API const struct clmem_workload *clmem_workload_find(const char *name);
/* "name", "summary", "default_size", "size_help", "unit" (its metric's). */
CLMEM_API const char *clmem_workload_text(const struct clmem_workload *w, const char *field);
CLMEM_API size_t clmem_workload_variants(const struct clmem_workload *w);
/* Variant i's "name", "summary", "library" (a vendor library's routine:
 * "clblast"; NULL for the kernels). */
CLMEM_API const char *clmem_variant_text(const struct clmem_workload *w, size_t i,
                                         const char *field);

/* ---- results: arrays of them, appended to by the runs below ---- */
struct clmem_result;
CLMEM_API const struct clmem_result *clmem_result_at(const struct clmem_result *results, size_t n,
                                                     size_t i);
/* "workload", "variant", "device", "size", "params", "unit", "roof",
 * "sweep", "skip_reason", "error" (a FAILED result's OpenCL error: its
 * kernels did not build, a call failed; "" where it ran), "note",
 * "verify_scope", "verify_detail",
 * "timer" (the clock of the samples: "events" or "host"), "energy_source"
 * (the counter: "nvml", "rapl", ...), "energy_na" (why there is none). */
CLMEM_API const char *clmem_result_text(const struct clmem_result *result, const char *field);
/* "median_ms", "min_ms", "max_ms", "metric", "baseline_fraction",
 * "peak_fraction", "looped_ms", "max_rel_error", "flops_per_byte" (NAN
 * where they mean nothing), "sweep_value", "reps", "warmup", "seed",
 * "runs_per_sample", "samples", "verified", "skipped",
 * "demonstrates_failure" (1 or 0), "energy_j" (a run's), "power_w",
 * "energy_efficiency" (work per joule), "energy_span_s", "energy_runs". */
CLMEM_API double clmem_result_number(const struct clmem_result *result, const char *field);
/* "ok", "FAILED" or "skipped"; "pending" for a result not measured yet
 * (the one a progress callback is handed: no run returns one). */
CLMEM_API const char *clmem_result_status(const struct clmem_result *result);
CLMEM_API void clmem_results_free(struct clmem_result *results, size_t n);

/* Callbacks a run takes: before each variant, its result named but not yet
 * measured (status "pending", index of count); polled before each variant, non-zero stops
 * there with CLMEM_ERR_INTERRUPTED, keeping what finished (the CLI's
 * Ctrl-C); the suite's, before each workload and size; once a result is
 * finished (measured and checked, FAILED, or skipped with its reason; its
 * baseline and peak fractions not yet set), that result and the index of
 * count its variant had in the progress callback. A variant an OpenCL
 * error stopped, and each after it, is done as FAILED with that error
 * ("error"), the run still returning the error; one stopped by
 * `cancelled` is never done. On a list of devices each
 * device's thread calls them. */
typedef void clmem_progress_fn(void *user, const struct clmem_result *next, size_t index,
                               size_t count);
typedef int clmem_cancelled_fn(void *user);
typedef void clmem_bench_progress_fn(void *user, size_t step, size_t steps, const char *workload,
                                     const char *size);
typedef void clmem_done_fn(void *user, const struct clmem_result *done, size_t index, size_t count);

/* ---- running one workload ---- */
struct clmem_run_options;
/* The CLI's defaults: every variant at the workload's default size, reps
 * 5, warmup 1, seed 42. */
CLMEM_API int clmem_run_options_create(struct clmem_run_options **options, struct clmem_error *err);
/* One option by its name in 'clmem run', the value as its command line
 * takes it, in its range: "variant" (a name or "all"), "size" ("N",
 * "MxN", "MxNxK"), "reps" (1 to 100000), "warmup" (0 to 100), "seed",
 * "compare" ("clblast", "openblas"), "input" (an image file: blur),
 * "energy" (0 or 1: each variant runs on, untimed, until the device's
 * energy counter has had the span it reads well). The text is copied;
 * NULL resets a text option to its default. */
CLMEM_API int clmem_run_options_set(struct clmem_run_options *options, const char *name,
                                    const char *value, struct clmem_error *err);
/* Either callback may be NULL. */
CLMEM_API int clmem_run_options_set_callbacks(struct clmem_run_options *options,
                                              clmem_progress_fn *progress,
                                              clmem_cancelled_fn *cancelled, void *user,
                                              struct clmem_error *err);
/* Called with each result once it is done (NULL: none), with its own user. */
CLMEM_API int clmem_run_options_set_done(struct clmem_run_options *options, clmem_done_fn *done,
                                         void *user, struct clmem_error *err);
CLMEM_API void clmem_run_options_release(struct clmem_run_options *options);
/* Plans (usage errors before anything is allocated), sets up, runs every
 * selected variant (warm-up, timed runs, verification against the CPU
 * reference) and appends one result per variant to *results (options
 * NULL: the defaults). Returns CLMEM_ERR_VERIFY when a variant failed its
 * check, after running on. */
CLMEM_API int clmem_run(struct clmem_ctx *ctx, const struct clmem_workload *w,
                        const struct clmem_run_options *options, struct clmem_result **results,
                        size_t *n_results, struct clmem_error *err);

/* ---- the device's own peaks (workload "peak") ---- */
struct clmem_peak;
CLMEM_API int clmem_peak_create(struct clmem_peak **peak, struct clmem_error *err);
/* "bandwidth_gbs" (a float4 copy, read + write), "fp32_gflops" (FMA),
 * "read_bandwidth_gbs", "launch_us" (0 until measured). */
CLMEM_API double clmem_peak_number(const struct clmem_peak *peak, const char *field);
CLMEM_API void clmem_peak_release(struct clmem_peak *peak);
/* Runs the peak workload (reps 1 to 100000) into *peak; its results are
 * appended to *results. */
CLMEM_API int clmem_peak_measure(struct clmem_ctx *ctx, unsigned reps, struct clmem_peak *peak,
                                 struct clmem_result **results, size_t *n_results,
                                 struct clmem_error *err);
/* Each result's peak_fraction, against its roof's peak; CLMEM_ERR_USAGE
 * (no message) for NULL results or peak. */
CLMEM_API int clmem_results_apply_peak(struct clmem_result *results, size_t n,
                                       const struct clmem_peak *peak);

/* ---- the whole suite (clmem bench) ---- */
struct clmem_bench_options;
CLMEM_API int clmem_bench_options_create(struct clmem_bench_options **options,
                                         struct clmem_error *err);
/* As clmem_run_options_set, by 'clmem bench' option names: "reps",
 * "seed", "compare", "workloads" (comma-separated: those alone), "sizes"
 * ("gpu", "cpu", "accelerator": whose bench sizes; NULL: the device's),
 * "energy" (0 or 1, as a run's). */
CLMEM_API int clmem_bench_options_set(struct clmem_bench_options *options, const char *name,
                                      const char *value, struct clmem_error *err);
CLMEM_API int clmem_bench_options_set_callbacks(struct clmem_bench_options *options,
                                                clmem_bench_progress_fn *progress,
                                                clmem_cancelled_fn *cancelled, void *user,
                                                struct clmem_error *err);
/* As clmem_run_options_set_done, for every result of the suite, the
 * peaks' first: index of count among its workload's variants at its size
 * (a size the device cannot hold: one skipped result, 0 of 1). */
CLMEM_API int clmem_bench_options_set_done(struct clmem_bench_options *options, clmem_done_fn *done,
                                           void *user, struct clmem_error *err);
CLMEM_API void clmem_bench_options_release(struct clmem_bench_options *options);
/* Counts the steps (workload x size) and validates the workloads (usage
 * errors). options NULL: the defaults, in both. */
CLMEM_API int clmem_bench_plan(const struct clmem_ctx *ctx,
                               const struct clmem_bench_options *options, size_t *steps,
                               struct clmem_error *err);
/* The peaks, then every workload at its bench sizes, all variants. A
 * workload that fails does not stop the others: the status is the worst
 * seen; cancelled, CLMEM_ERR_INTERRUPTED with the results so far. */
CLMEM_API int clmem_bench_run(struct clmem_ctx *ctx, const struct clmem_bench_options *options,
                              struct clmem_peak *peak, struct clmem_result **results,
                              size_t *n_results, struct clmem_error *err);

/* ---- reports ---- */
enum clmem_format { CLMEM_FORMAT_TABLE, CLMEM_FORMAT_CSV, CLMEM_FORMAT_JSON };
/* "table", "csv" or "json". */
CLMEM_API int clmem_format_parse(const char *text, enum clmem_format *format,
                                 struct clmem_error *err);
/* What a report says besides its results: the device and its peaks (each
 * copied; NULL: not said), this machine, now. */
struct clmem_report_meta;
CLMEM_API int clmem_report_meta_create(const struct clmem_device *device,
                                       const struct clmem_peak *peak,
                                       struct clmem_report_meta **meta, struct clmem_error *err);
CLMEM_API void clmem_report_meta_release(struct clmem_report_meta *meta);
/* A table for people, CSV with one fixed header, or JSON as
 * schema/run.schema.json describes it (meta may be NULL). */
CLMEM_API int clmem_report_write(FILE *out, enum clmem_format format,
                                 const struct clmem_result *results, size_t n,
                                 const struct clmem_report_meta *meta, struct clmem_error *err);

/* ---- run files ---- */
/* A device's run read back from a run file (clmem compare, diff). */
struct clmem_compare_device;
/* Appends one entry per device run the file holds; a file that cannot be
 * read, is not clmem's, or holds no results is a usage error naming it. */
CLMEM_API int clmem_runfile_load(const char *path, struct clmem_compare_device **runs,
                                 size_t *n_runs, struct clmem_error *err);
/* The results of run i of n_runs, *n_results of them. */
CLMEM_API const struct clmem_result *clmem_runfile_results(const struct clmem_compare_device *runs,
                                                           size_t n_runs, size_t i,
                                                           size_t *n_results);
CLMEM_API void clmem_compare_devices_free(struct clmem_compare_device *runs, size_t n);

#endif
