/* The harness: what runs workloads (a workload is given to it; it never
 * looks one up). One run loop (run.c), the suite at bench sizes
 * (bench.c), the device's peaks (device_peaks.c), several devices at
 * once (multi.c), the tuning database's entries (tuning_entries.c).
 * Above the OpenCL layer; below the workloads. */
#ifndef CLMEM_HARNESS_H
#define CLMEM_HARNESS_H

#include "harness/workload.h"

/* ---- a run's options, each default applied in one place (run.c) ---- */
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
/* The defaults of the options every caller shares: the CLI's option table
 * shows them (--reps, --warmup, --seed) and the runs the harness makes on
 * its own (peaks, the suite) take them. */
#define CLMEM_DEFAULT_REPS      5  /* timed runs */
#define CLMEM_DEFAULT_WARMUP    1  /* untimed runs before them */
#define CLMEM_DEFAULT_SEED      42 /* the inputs' */
#define CLMEM_DEFAULT_LOOP_REPS 20 /* passes inside the kernel of a looped timing */
/* Their ranges, the CLI's: a run of more is refused as a usage error. */
#define CLMEM_MAX_REPS   100000
#define CLMEM_MAX_WARMUP 100
/* reps and warmup in their ranges (reps 0 stands for 1); else a usage
 * error naming `who`. */
int clmem_run_counts_check(const char *who, unsigned reps, unsigned warmup,
                           struct clmem_error *err);
/* `given` with its defaults: reps at least 1, loop_reps
 * CLMEM_DEFAULT_LOOP_REPS where 0, variant NULL for all of them. The
 * size stays as given (NULL: the workload's default, which
 * clmem_run_normalise resolves). Applying it twice changes nothing. */
struct clmem_run_options clmem_run_options_defaults(const struct clmem_run_options *given);
/* A run's options as the run takes them: defaults applied, size parsed. */
struct clmem_run_settings {
    struct clmem_run_options options; /* clmem_run_options_defaults */
    const char *size_text;            /* options.size, or the workload's default */
    struct clmem_size size;           /* size_text parsed */
};
/* The one place a run's options are normalised: their defaults, the size
 * (the workload's default where none is given) parsed, and refused beside
 * an --input that gives it. Usage errors; no device needed, so that a
 * caller can check a run's options before it opens one. */
int clmem_run_normalise(const struct clmem_workload *workload,
                        const struct clmem_run_options *given, struct clmem_run_settings *settings,
                        struct clmem_error *err);

/* ---- one run (run.c) ---- */
/* Which level bounds a result (harness/traffic.h fills it): the amounts
 * its variant's design moves at each level (bytes at global, __local and
 * __constant memory; flops for compute), each level's predicted time from
 * the device's rates, the slowest one, and predicted / measured time.
 * All zero where the variant declares no traffic. */
#define CLMEM_BOUND_LEVELS    4
#define CLMEM_UNMODELLED_SIZE 96
struct clmem_bound {
    double amount[CLMEM_BOUND_LEVELS];       /* 0: the level is not used */
    double predicted_ms[CLMEM_BOUND_LEVELS]; /* NAN or 0 where the rate is unknown */
    int binding;                             /* the slowest level + 1; 0: none */
    double ratio;    /* predicted / measured ms (the fraction of the bound) */
    int model_error; /* ratio above 1 beyond the samples' spread: the model misses something */
    /* What the variant's design does that the amounts leave out, in a
     * phrase ("" where they count all that matters): an array, so that a
     * bound read back from a run file holds it too. */
    char unmodelled[CLMEM_UNMODELLED_SIZE];
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
    char note[CLMEM_NOTE_SIZE];
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
/* Plans a run: normalises the options (clmem_run_normalise), selects the
 * variants, checks the buffers fit the device. Errors here are usage
 * errors and nothing is allocated. */
int clmem_run_plan(struct clmem_run *run, const struct clmem_workload *workload,
                   struct clmem_ctx *ctx, const struct clmem_run_options *options,
                   struct clmem_error *err);
/* clmem_run_plan for options normalised already. */
int clmem_run_plan_normalised(struct clmem_run *run, const struct clmem_workload *workload,
                              struct clmem_ctx *ctx, const struct clmem_run_settings *settings,
                              struct clmem_error *err);
/* Runs every selected variant: set-up, warm-up, timed runs, verification.
 * Results are appended to *results (caller frees with clmem_results_free).
 * Returns CLMEM_ERR_VERIFY when a variant failed its check, and runs on. */
int clmem_run_execute(struct clmem_run *run, const struct clmem_run_options *options,
                      struct clmem_result **results, size_t *n_results, struct clmem_error *err);
/* clmem_run_execute in its two steps, for a caller that runs the variants
 * of one set-up run more than once (a tuning search, after the workload's
 * retune): the workload's setup and the device clock's check (an OpenCL
 * error leaves every variant's FAILED result), then the variants' loop. */
int clmem_run_setup(struct clmem_run *run, const struct clmem_run_options *options,
                    struct clmem_result **results, size_t *n_results, struct clmem_error *err);
int clmem_run_variants(struct clmem_run *run, const struct clmem_run_options *options,
                       struct clmem_result **results, size_t *n_results, struct clmem_error *err);
void clmem_run_release(struct clmem_run *run);
void clmem_result_free(struct clmem_result *result);
/* Median, min and max of a result's samples. */
void clmem_result_summarise(struct clmem_result *r);
/* A check's outcome into a result: verified, max error, scope, the first
 * mismatches as text. */
void clmem_result_set_check(struct clmem_result *r, const struct clmem_check *check);
/* Appends a result for the run's workload that no variant made (a size the
 * device cannot hold: bench lists it as skipped with the reason), with the
 * NaN defaults of a result that has no figures; NULL when out of memory. */
struct clmem_result *clmem_result_append(struct clmem_result **results, size_t *n_results,
                                         const char *workload, const char *variant,
                                         const char *device, const char *size);

/* ---- a result's energy (result_energy.c) ---- */
struct clmem_energy_meter;   /* power/power.h */
struct clmem_energy_reading; /* power/power.h */
/* A measured result's energy from the readings before and after its
 * `runs` runs: energy_j (per run: the span's energy over the runs),
 * power_w (over the span), energy_efficiency (the work of one run, metric
 * x median, per joule), span and runs, and energy_source; or energy_na
 * saying why not (no counter, a failed reading, a span shorter than the
 * counter resolves, a counter that did not advance, or one that moved
 * more than CLMEM_ENERGY_MAX_WATTS over the span). The metric and median
 * are set already. */
void clmem_energy_result(struct clmem_result *r, const struct clmem_energy_meter *m,
                         const struct clmem_energy_reading *before,
                         const struct clmem_energy_reading *after, unsigned long runs);

/* ---- samples long enough for their clock (sampling.c) ---- */
/* A sample lasts at least 1000 ticks of its clock and at least 1 ms by
 * the device's events, 10 ms by the host's clock (which also counts the
 * enqueues and clFinish's return); shorter runs are batched. */
#define CLMEM_MIN_SAMPLE_TICKS     1000.0
#define CLMEM_MIN_SAMPLE_EVENTS_MS 1.0
#define CLMEM_MIN_SAMPLE_HOST_MS   10.0
#define CLMEM_MAX_RUNS_PER_SAMPLE  (1u << 20)
/* A run of at least this many ticks is read to 1% alone: a batch of such
 * runs sums their own spans (at most CLMEM_MAX_RUN_SPANS runs, each
 * keeping its events), leaving out what runs between them; shorter runs
 * are timed by the batch's whole span. */
#define CLMEM_RUN_SPAN_TICKS 100.0
#define CLMEM_MAX_RUN_SPANS  1024u
/* Events may span this much of the host's interval around them, plus a tick each end. */
#define CLMEM_EVENT_WALL_RATIO 1.05
/* What one batch of back-to-back runs measured. */
struct clmem_batch {
    double wall_ms;           /* host clock, from before the first run to after clFinish */
    struct clmem_span events; /* their events: the first command's start to the last one's end */
};
/* Runs `runs` runs of a variant back to back and measures them. */
typedef int (*clmem_batch_fn)(void *user, unsigned runs, struct clmem_batch *batch,
                              struct clmem_error *err);
/* How the samples were timed. */
struct clmem_sampling {
    unsigned runs_per_sample;
    int host;      /* by the host's clock */
    char why[200]; /* why not by events, when the host's clock timed them */
};
/* The shortest sample the clock can time (events: of tick_ns). */
double clmem_min_sample_ms(int events, double tick_ns);
/* reps samples into samples_ms, each the time of one run: the batch
 * grows until it lasts clmem_min_sample_ms, then every sample times that
 * many runs and divides (by events, the runs' own spans summed where a run
 * spans CLMEM_RUN_SPAN_TICKS, else the batch's whole span). Events time them where `clock` passed
 * its check and the batch's events are usable (ordered, a positive span, within the host's
 * interval); else the host's clock, from the start. */
int clmem_sample(const struct clmem_clock *clock, unsigned reps, clmem_batch_fn measure, void *user,
                 double *samples_ms, struct clmem_sampling *out, struct clmem_error *err);

/* ---- the device's peaks (device_peaks.c) ---- */
/* Whether the workload's variants measure the device's peaks. */
int clmem_workload_is_peak(const struct clmem_workload *w);
/* Runs such a workload (every variant) and fills *peak from the variants'
 * roles; its results are appended to *results. */
int clmem_peak_run(struct clmem_ctx *ctx, const struct clmem_workload *peak_workload, unsigned reps,
                   struct clmem_peak *peak, struct clmem_result **results, size_t *n_results,
                   struct clmem_error *err);

/* Whether a result is above the roof it is measured against (its
 * peak_fraction above 1). */
int clmem_results_above_roof(const struct clmem_result *results, size_t n);
/* The peaks measured once more, where a result of the run came out above
 * them (a roof measured at a busier moment reads low): each of the n_peak
 * results of the first measurement is replaced by the second's where that
 * is higher, its note saying both, and *peak refilled from them. */
int clmem_peak_again(struct clmem_ctx *ctx, const struct clmem_workload *peak_workload,
                     unsigned reps, struct clmem_peak *peak, struct clmem_result *peak_results,
                     size_t n_peak, struct clmem_error *err);

/* ---- the suite (bench.c): clmem_bench_plan and _run over a list ---- */
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
struct clmem_suite {
    const struct clmem_workload *const *workloads;
    size_t n;
};
int clmem_suite_plan(const struct clmem_ctx *ctx, const struct clmem_suite *suite,
                     const struct clmem_bench_options *options, size_t *steps,
                     struct clmem_error *err);
int clmem_suite_run(struct clmem_ctx *ctx, const struct clmem_suite *suite,
                    const struct clmem_bench_options *options, struct clmem_peak *peak,
                    struct clmem_result **results, size_t *n_results, struct clmem_error *err);

/* ---- several devices (multi.c) ---- */
/* One workload on n open contexts, a thread each, the same options: the
 * results of device 0, 1, ... (named "#1 NAME", ...), then their totals. */
int clmem_run_multi(const struct clmem_workload *workload, struct clmem_ctx *ctxs, size_t n,
                    const struct clmem_run_options *options, struct clmem_result **results,
                    size_t *n_results, struct clmem_error *err);
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

/* ---- the tuning database's entries (tuning_entries.c) ---- */
/* Keeps the best values of tunable t for this device, workload and size
 * class (the file written whole or not at all). */
int clmem_tuning_store(struct clmem_ctx *ctx, const struct clmem_workload *w,
                       const struct clmem_tunable *t, const struct clmem_size *size,
                       const int values[], const struct clmem_tuning_outcome *outcome,
                       struct clmem_error *err);
/* The tunable of variant `name`, or NULL. */
const struct clmem_tunable *clmem_tunable_find(const struct clmem_workload *w, const char *name);

/* ---- the tuning search (tune.c): clmem tune ---- */
/* One candidate measured: its values, the -D parameters it ran with, its
 * metric (the median's) and how it ended (CLMEM_OK: ran and verified). */
struct clmem_tune_candidate {
    int values[CLMEM_MAX_PARAMS];
    char params[512];
    double metric;
    double min_ms, max_ms; /* its fastest and slowest sample */
    int status;
};
/* The smallest gain that counts, in percent: a candidate replaces the
 * built-in parameters only beyond it AND beyond both runs' sample ranges
 * (its slowest sample faster than the built-in's fastest), diff's rule. */
#define CLMEM_TUNE_THRESHOLD 5.0
/* Whether candidate c (measured, verified) beats the built-in parameters
 * by that rule. */
int clmem_tune_beats(const struct clmem_tune_candidate *c,
                     const struct clmem_tune_candidate *builtin);
struct clmem_tune_options {
    const char *size; /* NULL: the workload's default */
    unsigned reps, max_candidates;
    uint64_t seed;
    /* After each candidate (index 0: the built-in parameters; then 1 ..
     * count), for the table. */
    void (*measured)(void *user, size_t index, size_t count, const struct clmem_tune_candidate *c);
    void *user;
    int (*cancelled)(void *user); /* polled between candidates */
    void *cancelled_user;
    /* clmem_now_ms() past which no further candidate starts (0: none):
     * the best so far is kept, as when the candidates run out. */
    double deadline_ms;
};
struct clmem_tune_result {
    struct clmem_tune_candidate builtin, best; /* best: builtin when nothing beat it */
    size_t tried;                              /* candidates besides the built-in one */
    size_t candidates;                         /* of the space, that the device allows */
};
/* Searches tunable t of w on ctx's device: the built-in parameters first
 * (their failure is the search's: a usage error, an OpenCL error, a failed
 * check), then up to max_candidates candidates of the search space that
 * the device allows, spread evenly over it, each built, run `reps` times and
 * verified (a candidate that fails is passed over); keeps the best in the
 * tuning database (the built-in parameters winning is recorded, so that
 * runs keep them). Where w has a retune hook, the run is planned and set
 * up once, with the built-in parameters, and each candidate retunes it:
 * every candidate is checked against that one reference. Stopped
 * (cancelled), it returns CLMEM_ERR_INTERRUPTED and keeps nothing. */
int clmem_tune(struct clmem_ctx *ctx, const struct clmem_workload *w, const struct clmem_tunable *t,
               const struct clmem_tune_options *options, struct clmem_tune_result *result,
               struct clmem_error *err);

/* ---- a whole device fitted (tune_device.c): clmem tune with no workload ---- */
/* The plan: the device's peaks, then each workload's tunable variants
 * (clmem_tune at the workload's largest bench size for the device), each
 * followed, where the workload has one, by its model's fit (its planners'
 * rates and thresholds, measured with the tiles just tuned). Each step's
 * best goes to the tuning database and, as rows of the parameter
 * database's tables, to the user's fitted rows (clmem_fit_path), which
 * every later step and run then read. The budget is shared among the
 * steps left by their weights; a step already fitted on this device and
 * driver is passed over unless `fresh`. */
struct clmem_fit_options {
    double budget_s;
    unsigned reps;
    uint64_t seed;
    int fresh;
    const char *command; /* the provenance's: how to measure again */
    /* Before each step (from 0) and after it (outcome: what it kept, or
     * why nothing). */
    void (*step)(void *user, size_t index, size_t count, const char *what, double share_s,
                 double left_s);
    void (*done)(void *user, size_t index, size_t count, const char *what, const char *outcome);
    /* Each candidate of a search, as clmem_tune_options' measured. */
    void (*measured)(void *user, size_t index, size_t count, const struct clmem_tune_candidate *c);
    void *user;
    int (*cancelled)(void *user);
    void *cancelled_user;
};
struct clmem_fit_result {
    size_t steps, fitted, skipped, failed, rows;
    double seconds;
    char path[1024]; /* the fitted rows' file */
};
int clmem_fit_device(struct clmem_ctx *ctx, const struct clmem_workload *const *workloads,
                     size_t n_workloads, const struct clmem_workload *peak_workload,
                     const struct clmem_fit_options *options, struct clmem_fit_result *result,
                     struct clmem_error *err);
/* The file of the device's fitted rows: <fitted dir>/device-NAME.json,
 * NAME the device's name in lower case, each run of other characters a
 * '-'. */
int clmem_fit_path(const struct clmem_device *device, char *path, size_t size,
                   struct clmem_error *err);
/* The device's fitted rows (none: *n 0), read as a run reads them. */
int clmem_fit_rows(const struct clmem_device *device, struct clmem_pdb *rows,
                   struct clmem_error *err);
/* Writes the device's fitted rows at `path` in the shipped database's
 * format (level device, matching its name), ready for data/params/. */
int clmem_fit_export(const struct clmem_device *device, const char *path, size_t *n_rows,
                     struct clmem_error *err);

#endif
