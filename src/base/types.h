/* The structs behind clmem.h's handles, in full, and the functions on them
 * that the layers share but libclmem does not export. clmem.h declares
 * these structs opaque, so that each can grow without touching a program
 * built against it; the layers (and the clmem program and the tests, which
 * link them) use their fields directly. Included by base.h. */
#ifndef CLMEM_BASE_TYPES_H
#define CLMEM_BASE_TYPES_H

#include "clmem/clmem.h"

#include <stddef.h>

#define CLMEM_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

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
    cl_ulong global_mem_cache; /* CL_DEVICE_GLOBAL_MEM_CACHE_SIZE as reported; 0: none (NVIDIA's
                                  is its L1s' total, not its L2) */
    cl_ulong max_alloc;
    size_t max_work_group;
    cl_uint base_addr_align_bits; /* CL_DEVICE_MEM_BASE_ADDR_ALIGN */
    size_t timer_resolution_ns;   /* CL_DEVICE_PROFILING_TIMER_RESOLUTION, as reported */
    int has_fp64;
    /* Between the device and its vendor: "sm_90" (an NVIDIA GPU's compute
     * capability), "gfx90a", "cpu-simd512" (a CPU's vector width); "". */
    char family[64];
};

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
/* Checks the device's event clock once (ctx->clock; again only when
 * ctx->clock.checked is 0): a kernel of growing work timed by its event and
 * by the host around clFinish, until a run lasts CLMEM_CLOCK_CHECK_MS
 * (then every judged run lasts at least half of it).
 * Timestamps out of order, zero durations, event times longer than the
 * host's or far shorter leave events_ok 0: samples are then host-timed. */
int clmem_clock_check(struct clmem_ctx *ctx, struct clmem_error *err);
#define CLMEM_CLOCK_CHECK_MS 20.0

/* ---- workloads ---- */
struct clmem_workload_info {
    const char *name, *summary, *default_size, *size_help, *metric_unit;
    size_t n_variants;
};
void clmem_workload_describe(const struct clmem_workload *w, struct clmem_workload_info *info);
struct clmem_variant_info {
    const char *name, *summary;
    const char *library; /* a vendor library's routine ("clblast"), else NULL */
};
/* Variant i (< n_variants) of the workload; all NULL past them. */
void clmem_variant_describe(const struct clmem_workload *w, size_t i,
                            struct clmem_variant_info *info);

/* ---- results ---- */
#define CLMEM_MAX_MISMATCH_LINES 10
/* Which level bounds a result (harness/traffic.h fills it): the amounts
 * its variant's design moves at each level (bytes at global, __local and
 * __constant memory; flops for compute), each level's predicted time from
 * the device's rates, the slowest one, and predicted / measured time.
 * All zero where the variant declares no traffic. */
#define CLMEM_BOUND_LEVELS 4
struct clmem_bound {
    double amount[CLMEM_BOUND_LEVELS];       /* 0: the level is not used */
    double predicted_ms[CLMEM_BOUND_LEVELS]; /* NAN or 0 where the rate is unknown */
    int binding;                             /* the slowest level + 1; 0: none */
    double ratio;    /* predicted / measured ms (the fraction of the bound) */
    int model_error; /* ratio above 1 beyond the samples' spread: the model misses something */
};

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
    /* Why a FAILED result has no measurement: the OpenCL error that stopped
     * it (its kernels did not build, a call failed); "" when it ran. */
    char error[256];
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
    struct clmem_bound bound; /* the variant's traffic and the level that bounds it */
};

/* ---- running one workload ---- */
struct clmem_run_options {
    const char *size;    /* NULL: the workload's default */
    const char *variant; /* NULL or "all" */
    unsigned reps;       /* timed runs (0: 1) */
    unsigned warmup;     /* untimed runs before them */
    uint64_t seed;
    const char *input;        /* an input file (blur's image) */
    const char *image_output; /* where the workload writes its image (blur) */
    unsigned loop_reps;       /* passes inside the kernel for looped timings; 0: 20 */
    const char *compare;      /* a library to run beside the kernels ("clblast") or NULL */
    const int *tune_values;   /* clmem tune: the candidate to run */
    int ignore_tuning;        /* the built-in parameters, not the tuning database's */
    /* 1: under "all", only the variants that measure one of the device's
     * peaks (struct clmem_peak): the peak workload's others, its typed
     * throughputs, are no roof and are left out of --peak. */
    int peaks_only;
    /* 1: each variant runs on, untimed, until the device's energy counter
     * has had the span it reads well (clmem_energy_min_span_ms: 1 s with
     * NVML), so that every result has its energy where there is a counter;
     * 0: energy only where the timed runs were that long. */
    unsigned energy;
    clmem_progress_fn *progress;
    void *progress_user;
    clmem_cancelled_fn *cancelled; /* polled before each variant */
    void *cancelled_user;
    clmem_done_fn *done; /* after each result is finished */
    void *done_user;
};

/* ---- the device's own peaks (workload "peak") ---- */
struct clmem_peak {
    double bandwidth;      /* GB/s of a float4 copy, read + write */
    double flops;          /* GFLOP/s of FP32 fused multiply-adds */
    double read_bandwidth; /* GB/s of float4 reads alone; 0 when not measured */
    double launch_us;      /* microseconds a kernel launch costs; 0 when not measured */
};

/* ---- the whole suite (clmem bench) ---- */
struct clmem_bench_options {
    unsigned reps;
    const char *compare; /* as clmem_run_options.compare */
    uint64_t seed;
    const char *only; /* comma-separated workloads, or NULL for all */
    unsigned energy;  /* as clmem_run_options.energy */
    /* Whose bench sizes: 0, the device's own; else this type's. */
    cl_device_type sizes;
    clmem_bench_progress_fn *progress; /* before each workload and size */
    void *progress_user;
    clmem_cancelled_fn *cancelled; /* as clmem_run_options.cancelled */
    void *cancelled_user;
    clmem_done_fn *done; /* as clmem_run_options.done, for every result */
    void *done_user;
};

/* ---- several devices of one host at once ---- */
/* One workload on n open contexts, a thread each, the same options: the
 * results of device 0, 1, ... (named "#1 NAME", ...), then their totals. */
int clmem_run_multi(const struct clmem_workload *workload, struct clmem_ctx *ctxs, size_t n,
                    const struct clmem_run_options *options, struct clmem_result **results,
                    size_t *n_results, struct clmem_error *err);
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
int clmem_matmul_split(struct clmem_ctx *ctxs, size_t n, const struct clmem_split_options *options,
                       struct clmem_result **results, size_t *n_results, struct clmem_error *err);

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
int clmem_host_describe(struct clmem_host *h);
/* What a report says besides its results (each optional). */
struct clmem_report_meta {
    const struct clmem_device *device;
    const struct clmem_peak *peak;
    const struct clmem_host *host; /* NULL: this machine */
    const char *created;           /* NULL/"": now */
    int interrupted;               /* JSON says "interrupted": true */
    /* clmem hierarchy's levels read back from a run file, written again
     * as its "hierarchy" (compare's device-N.json); NULL: none. */
    const struct clmem_saved_hierarchy *hierarchy;
};
/* What `clmem hierarchy` saved in its run file ("hierarchy"), as compare
 * reads it back: the levels named from the chase's staircase and the
 * curves they came from (schema/run.schema.json). */
#define CLMEM_SAVED_LEVELS 8
struct clmem_saved_level {
    char name[40];          /* "L1", "L2 (last-level cache)", "device memory" */
    int is_memory;          /* the last plateau, past every cache */
    double size_bytes;      /* detected size; 0 for memory */
    double first_bytes;     /* the plateau's smallest working set */
    double latency_ns;      /* the plateau's median (memory: at the largest working set) */
    double latency_cycles;  /* NAN when the clock is unknown */
    double bandwidth_gbs;   /* the read plateau matched to it; NAN when none */
    double bandwidth_bytes; /* that plateau's largest working set; NAN when none */
};
struct clmem_saved_point {
    double bytes, value; /* a working set and its ns (latency) or GB/s (bandwidth) */
};
struct clmem_saved_hierarchy {
    double extent;       /* the largest working set swept */
    double cache_bytes;  /* the largest cache known before the sweep (reported); 0: none */
    char cache_from[96]; /* where that came from */
    double clock_mhz;    /* 0: none */
    size_t n_levels;
    struct clmem_saved_level levels[CLMEM_SAVED_LEVELS];
    /* Ascending bytes; unmatched: read plateaus that matched no level. */
    struct clmem_saved_point *latency, *local_latency, *bandwidth, *unmatched;
    size_t n_latency, n_local_latency, n_bandwidth, n_unmatched;
};
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
    char clmem_git[64]; /* the build's git describe ("8484219-dirty"); "" when not recorded */
    int rank;           /* an MPI file's rank, else -1 */
    int interrupted;    /* a signal stopped its run early: what finished */
    /* The file's "hierarchy" (clmem hierarchy's run files), owned by the
     * entry (clmem_compare_devices_free); NULL when it has none. */
    struct clmem_saved_hierarchy *hierarchy;
};

/* ---- fields by name (handles.c) ---- */
/* A member of one of these structs by the name the run files give it: what
 * clmem.h's accessors read (clmem_result_number(r, "median_ms")) and its
 * options' setters write, each struct's members in one table. */
enum clmem_member_kind {
    CLMEM_MEMBER_CHARS,       /* char[] */
    CLMEM_MEMBER_STRING,      /* const char *: a setter's copy, owned by the options */
    CLMEM_MEMBER_DOUBLE,      /* double */
    CLMEM_MEMBER_SIGNED,      /* int, long */
    CLMEM_MEMBER_UNSIGNED,    /* an unsigned whole number of 4 or 8 bytes */
    CLMEM_MEMBER_DEVICE_TYPE, /* cl_device_type, set by its name ("gpu") */
};
struct clmem_member {
    enum clmem_member_kind kind;
    size_t offset, size;
    const char *name;
    unsigned long long min, max; /* the range a setter takes (CLMEM_MEMBER_UNSIGNED) */
};
/* The member `field` of struct `type` named `name`, its kind from its C
 * type; an option's with the range its setter takes. */
#define CLMEM_MEMBER(type, field, name)                                                            \
    CLMEM_MEMBER_AS(CLMEM_MEMBER_KIND(type, field), type, field, name, 0, 0)
#define CLMEM_OPTION(type, field, name, min, max)                                                  \
    CLMEM_MEMBER_AS(CLMEM_MEMBER_KIND(type, field), type, field, name, min, max)
#define CLMEM_MEMBER_AS(kind, type, field, name, min, max)                                         \
    {                                                                                              \
        kind, offsetof(struct type, field), sizeof(((struct type *)0)->field), name, min, max      \
    }
#define CLMEM_MEMBER_KIND(type, field)                                                             \
    _Generic(((struct type *)0)->field,                                                            \
        char *: CLMEM_MEMBER_CHARS,                                                                \
        const char *: CLMEM_MEMBER_STRING,                                                         \
        double: CLMEM_MEMBER_DOUBLE,                                                               \
        int: CLMEM_MEMBER_SIGNED,                                                                  \
        long: CLMEM_MEMBER_SIGNED,                                                                 \
        default: CLMEM_MEMBER_UNSIGNED)
const struct clmem_member *clmem_member_find(const struct clmem_member *members, size_t n,
                                             const char *name);
/* The text or number `name` of `object` (whose table is members): NULL,
 * NAN for a NULL object, an unknown name, or a member of the other kind. */
const char *clmem_member_text(const void *object, const struct clmem_member *members, size_t n,
                              const char *name);
double clmem_member_number(const void *object, const struct clmem_member *members, size_t n,
                           const char *name);
/* Sets option `name` of `object` from its text as the CLI takes it: a
 * whole number in the member's range, a device type's name, or a text,
 * copied into owned[the member's index] (a slot per member, freed by the
 * caller; NULL resets it). Usage errors name `who`, the public function. */
int clmem_member_set(void *object, char **owned, const struct clmem_member *members, size_t n,
                     const char *name, const char *value, const char *who, struct clmem_error *err);

/* ---- the public functions' checks of their arguments ---- */
/* A usage error naming the function, where `bad` holds: what a public
 * function returns for a NULL or out-of-range argument. */
#define CLMEM_REFUSE_IF(bad, err, ...)                                                             \
    do {                                                                                           \
        if (bad)                                                                                   \
            return clmem_fail(err, CLMEM_ERR_USAGE, __VA_ARGS__);                                  \
    } while (0)
#define CLMEM_REFUSE_NULL(arg, err) CLMEM_REFUSE_IF(!(arg), err, "%s: '%s' is NULL", __func__, #arg)

#endif
