/* What libclmem exports: clmem.h's NAME_sized, which its macros call with
 * the program's struct sizes. With the library's own sizes (the clmem
 * program, any program built against this header) each calls NAME at once;
 * otherwise it reads the program's structs into the library's layout
 * (layout.c), calls NAME, and writes back what NAME changed or returned at
 * the program's sizes: its error record, context, peaks, and the arrays of
 * results, devices and runs, at its stride. */
#include "api/api.h"
#include "harness/harness.h" /* clmem_result_free */

#include <stdlib.h>

/* One call for a program of other sizes: its sizes, and the library's own
 * error record, which the program's gets its part of at the end. */
struct call {
    struct clmem_api api;
    struct clmem_error err;
    struct clmem_error *e; /* &err, or NULL where the program passed none */
};

/* The program's sizes and error record read in; non-zero when the sizes
 * are none this library can serve (a newer header's): say so through
 * finish. */
static int begin(struct call *c, const struct clmem_sizes *sizes, const struct clmem_error *err)
{
    c->err = (struct clmem_error){0};
    c->e = err ? &c->err : NULL;
    int status = clmem_api_read(&c->api, sizes, &c->err);
    if (status == CLMEM_OK && err)
        clmem_api_in(&c->api, CLMEM_API_ERROR, &c->err, err);
    return status;
}

static int finish(struct call *c, struct clmem_error *err, int status)
{
    if (err)
        clmem_api_out(&c->api, CLMEM_API_ERROR, err, &c->err);
    return status;
}

/* `theirs` read into `mine`: mine, or NULL for NULL. */
static void *in(const struct call *c, enum clmem_api_type type, void *mine, const void *theirs)
{
    if (!theirs)
        return NULL;
    clmem_api_in(&c->api, type, mine, theirs);
    return mine;
}

static void out(const struct call *c, enum clmem_api_type type, void *theirs, const void *mine)
{
    if (theirs)
        clmem_api_out(&c->api, type, theirs, mine);
}

static int out_of_memory(struct call *c, int status)
{
    return clmem_status_worst(status, clmem_fail(c->e, CLMEM_ERR_CL, "out of host memory"));
}

/* The library's n results `got` appended to the program's array. */
static int give_results(struct call *c, int status, struct clmem_result **results,
                        size_t *n_results, struct clmem_result *got, size_t n)
{
    if (n) {
        void *grown = clmem_api_append(&c->api, CLMEM_API_RESULT, *results, *n_results, got, n);
        if (!grown) {
            clmem_results_free(got, n);
            return out_of_memory(c, status);
        }
        *results = grown;
        *n_results += n;
    }
    free(got); /* what its results point to is the program's now */
    return status;
}

/* The program's results: each one's memory, then the array. */
static void free_results(const struct clmem_api *api, void *results, size_t n)
{
    for (size_t i = 0; results && i < n; i++) {
        struct clmem_result r;
        clmem_api_in(api, CLMEM_API_RESULT, &r, clmem_api_item(api, CLMEM_API_RESULT, results, i));
        clmem_result_free(&r);
    }
    free(results);
}

/* The program's contexts read in (a new array); NULL when out of memory. */
static struct clmem_ctx *ctxs_in(struct call *c, const struct clmem_ctx *ctxs, size_t n)
{
    return clmem_api_array_in(&c->api, CLMEM_API_CTX, ctxs, n);
}

/* And written back, the array freed. */
static void ctxs_out(struct call *c, struct clmem_ctx *ctxs, struct clmem_ctx *mine, size_t n)
{
    for (size_t i = 0; i < n; i++)
        clmem_api_out(&c->api, CLMEM_API_CTX, clmem_api_item(&c->api, CLMEM_API_CTX, ctxs, i),
                      &mine[i]);
    free(mine);
}

/* ---- errors, devices, contexts ---- */

void clmem_error_clear_sized(struct clmem_error *err, const struct clmem_sizes *sizes)
{
    struct clmem_api api;
    if (clmem_api_native(sizes)) {
        clmem_error_clear(err);
        return;
    }
    clmem_api_read(&api, sizes, NULL);
    if (!err || !clmem_api_usable(&api, CLMEM_API_ERROR))
        return;
    struct clmem_error mine;
    clmem_api_in(&api, CLMEM_API_ERROR, &mine, err);
    clmem_error_clear(&mine);
    clmem_api_out(&api, CLMEM_API_ERROR, err, &mine);
}

int clmem_devices_list_sized(struct clmem_device **devices, size_t *count, struct clmem_error *err,
                             const struct clmem_sizes *sizes)
{
    if (clmem_api_native(sizes))
        return clmem_devices_list(devices, count, err);
    struct call c;
    *devices = NULL;
    *count = 0;
    if (begin(&c, sizes, err))
        return finish(&c, err, c.err.status);
    struct clmem_device *got = NULL;
    size_t n = 0;
    int status = clmem_devices_list(&got, &n, c.e);
    if (n) {
        *devices = clmem_api_append(&c.api, CLMEM_API_DEVICE, NULL, 0, got, n);
        if (*devices)
            *count = n;
        else
            status = out_of_memory(&c, status);
    }
    free(got);
    return finish(&c, err, status);
}

int clmem_devices_select_sized(const char *spec, const struct clmem_device *devices, size_t count,
                               size_t *chosen, struct clmem_error *err,
                               const struct clmem_sizes *sizes)
{
    if (clmem_api_native(sizes))
        return clmem_devices_select(spec, devices, count, chosen, err);
    struct call c;
    if (begin(&c, sizes, err))
        return finish(&c, err, c.err.status);
    struct clmem_device *mine = clmem_api_array_in(&c.api, CLMEM_API_DEVICE, devices, count);
    int status =
        mine ? clmem_devices_select(spec, mine, count, chosen, c.e) : out_of_memory(&c, CLMEM_OK);
    free(mine);
    return finish(&c, err, status);
}

int clmem_ctx_open_sized(struct clmem_ctx *ctx, const struct clmem_device *device,
                         const char *kernel_dir, struct clmem_error *err,
                         const struct clmem_sizes *sizes)
{
    if (clmem_api_native(sizes))
        return clmem_ctx_open(ctx, device, kernel_dir, err);
    struct call c;
    if (begin(&c, sizes, err))
        return finish(&c, err, c.err.status);
    struct clmem_ctx mine;
    struct clmem_device dev;
    clmem_api_in(&c.api, CLMEM_API_DEVICE, &dev, device);
    int status = clmem_ctx_open(&mine, &dev, kernel_dir, c.e);
    clmem_api_out(&c.api, CLMEM_API_CTX, ctx, &mine);
    return finish(&c, err, status);
}

void clmem_ctx_close_sized(struct clmem_ctx *ctx, const struct clmem_sizes *sizes)
{
    struct clmem_api api;
    if (clmem_api_native(sizes)) {
        clmem_ctx_close(ctx);
        return;
    }
    clmem_api_read(&api, sizes, NULL);
    if (!clmem_api_usable(&api, CLMEM_API_CTX) || !clmem_api_usable(&api, CLMEM_API_DEVICE) ||
        !clmem_api_usable(&api, CLMEM_API_CLOCK))
        return;
    struct clmem_ctx mine;
    clmem_api_in(&api, CLMEM_API_CTX, &mine, ctx);
    clmem_ctx_close(&mine);
    clmem_api_out(&api, CLMEM_API_CTX, ctx, &mine);
}

int clmem_clock_check_sized(struct clmem_ctx *ctx, struct clmem_error *err,
                            const struct clmem_sizes *sizes)
{
    if (clmem_api_native(sizes))
        return clmem_clock_check(ctx, err);
    struct call c;
    if (begin(&c, sizes, err))
        return finish(&c, err, c.err.status);
    struct clmem_ctx mine;
    clmem_api_in(&c.api, CLMEM_API_CTX, &mine, ctx);
    int status = clmem_clock_check(&mine, c.e);
    clmem_api_out(&c.api, CLMEM_API_CTX, ctx, &mine);
    return finish(&c, err, status);
}

/* ---- workloads ---- */

void clmem_workload_describe_sized(const struct clmem_workload *w, struct clmem_workload_info *info,
                                   const struct clmem_sizes *sizes)
{
    struct clmem_api api;
    if (clmem_api_native(sizes)) {
        clmem_workload_describe(w, info);
        return;
    }
    clmem_api_read(&api, sizes, NULL);
    if (!clmem_api_usable(&api, CLMEM_API_WORKLOAD_INFO))
        return;
    struct clmem_workload_info mine;
    clmem_workload_describe(w, &mine);
    clmem_api_out(&api, CLMEM_API_WORKLOAD_INFO, info, &mine);
}

void clmem_variant_describe_sized(const struct clmem_workload *w, size_t i,
                                  struct clmem_variant_info *info, const struct clmem_sizes *sizes)
{
    struct clmem_api api;
    if (clmem_api_native(sizes)) {
        clmem_variant_describe(w, i, info);
        return;
    }
    clmem_api_read(&api, sizes, NULL);
    if (!clmem_api_usable(&api, CLMEM_API_VARIANT_INFO))
        return;
    struct clmem_variant_info mine;
    clmem_variant_describe(w, i, &mine);
    clmem_api_out(&api, CLMEM_API_VARIANT_INFO, info, &mine);
}

/* ---- results, runs ---- */

void clmem_results_free_sized(struct clmem_result *results, size_t n,
                              const struct clmem_sizes *sizes)
{
    struct clmem_api api;
    if (clmem_api_native(sizes)) {
        clmem_results_free(results, n);
        return;
    }
    clmem_api_read(&api, sizes, NULL);
    if (clmem_api_usable(&api, CLMEM_API_RESULT))
        free_results(&api, results, n);
}

const char *clmem_result_status_sized(const struct clmem_result *result,
                                      const struct clmem_sizes *sizes)
{
    struct clmem_api api;
    if (clmem_api_native(sizes))
        return clmem_result_status(result);
    clmem_api_read(&api, sizes, NULL);
    if (!clmem_api_usable(&api, CLMEM_API_RESULT))
        return "FAILED";
    struct clmem_result mine;
    clmem_api_in(&api, CLMEM_API_RESULT, &mine, result);
    return clmem_result_status(&mine);
}

int clmem_run_sized(struct clmem_ctx *ctx, const struct clmem_workload *w,
                    const struct clmem_run_options *options, struct clmem_result **results,
                    size_t *n_results, struct clmem_error *err, const struct clmem_sizes *sizes)
{
    if (clmem_api_native(sizes))
        return clmem_run(ctx, w, options, results, n_results, err);
    struct call c;
    if (begin(&c, sizes, err))
        return finish(&c, err, c.err.status);
    struct clmem_ctx mine;
    struct clmem_run_options opts;
    struct clmem_result *got = NULL;
    size_t n = 0;
    clmem_api_in(&c.api, CLMEM_API_CTX, &mine, ctx);
    int status = clmem_run(&mine, w, in(&c, CLMEM_API_RUN_OPTIONS, &opts, options), &got, &n, c.e);
    clmem_api_out(&c.api, CLMEM_API_CTX, ctx, &mine);
    status = give_results(&c, status, results, n_results, got, n);
    return finish(&c, err, status);
}

int clmem_peak_measure_sized(struct clmem_ctx *ctx, unsigned reps, struct clmem_peak *peak,
                             struct clmem_result **results, size_t *n_results,
                             struct clmem_error *err, const struct clmem_sizes *sizes)
{
    if (clmem_api_native(sizes))
        return clmem_peak_measure(ctx, reps, peak, results, n_results, err);
    struct call c;
    if (begin(&c, sizes, err))
        return finish(&c, err, c.err.status);
    struct clmem_ctx mine;
    struct clmem_peak my_peak;
    struct clmem_result *got = NULL;
    size_t n = 0;
    clmem_api_in(&c.api, CLMEM_API_CTX, &mine, ctx);
    int status =
        clmem_peak_measure(&mine, reps, in(&c, CLMEM_API_PEAK, &my_peak, peak), &got, &n, c.e);
    clmem_api_out(&c.api, CLMEM_API_CTX, ctx, &mine);
    out(&c, CLMEM_API_PEAK, peak, &my_peak);
    status = give_results(&c, status, results, n_results, got, n);
    return finish(&c, err, status);
}

void clmem_results_apply_peak_sized(struct clmem_result *results, size_t n,
                                    const struct clmem_peak *peak, const struct clmem_sizes *sizes)
{
    struct clmem_api api;
    if (clmem_api_native(sizes)) {
        clmem_results_apply_peak(results, n, peak);
        return;
    }
    clmem_api_read(&api, sizes, NULL);
    if (!clmem_api_usable(&api, CLMEM_API_RESULT) || !clmem_api_usable(&api, CLMEM_API_PEAK))
        return;
    struct clmem_peak my_peak;
    clmem_api_in(&api, CLMEM_API_PEAK, &my_peak, peak);
    for (size_t i = 0; i < n; i++) {
        struct clmem_result r;
        void *theirs = clmem_api_item(&api, CLMEM_API_RESULT, results, i);
        clmem_api_in(&api, CLMEM_API_RESULT, &r, theirs);
        clmem_results_apply_peak(&r, 1, &my_peak);
        clmem_api_out(&api, CLMEM_API_RESULT, theirs, &r);
    }
}

int clmem_bench_plan_sized(const struct clmem_ctx *ctx, const struct clmem_bench_options *options,
                           size_t *steps, struct clmem_error *err, const struct clmem_sizes *sizes)
{
    if (clmem_api_native(sizes))
        return clmem_bench_plan(ctx, options, steps, err);
    struct call c;
    if (begin(&c, sizes, err))
        return finish(&c, err, c.err.status);
    struct clmem_ctx mine;
    struct clmem_bench_options opts;
    int status = clmem_bench_plan(in(&c, CLMEM_API_CTX, &mine, ctx),
                                  in(&c, CLMEM_API_BENCH_OPTIONS, &opts, options), steps, c.e);
    return finish(&c, err, status);
}

int clmem_bench_run_sized(struct clmem_ctx *ctx, const struct clmem_bench_options *options,
                          struct clmem_peak *peak, struct clmem_result **results, size_t *n_results,
                          struct clmem_error *err, const struct clmem_sizes *sizes)
{
    if (clmem_api_native(sizes))
        return clmem_bench_run(ctx, options, peak, results, n_results, err);
    struct call c;
    if (begin(&c, sizes, err))
        return finish(&c, err, c.err.status);
    struct clmem_ctx mine;
    struct clmem_bench_options opts;
    struct clmem_peak my_peak;
    struct clmem_result *got = NULL;
    size_t n = 0;
    clmem_api_in(&c.api, CLMEM_API_CTX, &mine, ctx);
    int status = clmem_bench_run(&mine, in(&c, CLMEM_API_BENCH_OPTIONS, &opts, options),
                                 in(&c, CLMEM_API_PEAK, &my_peak, peak), &got, &n, c.e);
    clmem_api_out(&c.api, CLMEM_API_CTX, ctx, &mine);
    out(&c, CLMEM_API_PEAK, peak, &my_peak);
    status = give_results(&c, status, results, n_results, got, n);
    return finish(&c, err, status);
}

/* ---- several devices ---- */

int clmem_run_multi_sized(const struct clmem_workload *workload, struct clmem_ctx *ctxs, size_t n,
                          const struct clmem_run_options *options, struct clmem_result **results,
                          size_t *n_results, struct clmem_error *err,
                          const struct clmem_sizes *sizes)
{
    if (clmem_api_native(sizes))
        return clmem_run_multi(workload, ctxs, n, options, results, n_results, err);
    struct call c;
    if (begin(&c, sizes, err))
        return finish(&c, err, c.err.status);
    struct clmem_ctx *mine = ctxs_in(&c, ctxs, n);
    if (!mine)
        return finish(&c, err, out_of_memory(&c, CLMEM_OK));
    struct clmem_run_options opts;
    struct clmem_result *got = NULL;
    size_t n_got = 0;
    int status = clmem_run_multi(workload, mine, n, in(&c, CLMEM_API_RUN_OPTIONS, &opts, options),
                                 &got, &n_got, c.e);
    ctxs_out(&c, ctxs, mine, n);
    status = give_results(&c, status, results, n_results, got, n_got);
    return finish(&c, err, status);
}

int clmem_matmul_split_sized(struct clmem_ctx *ctxs, size_t n,
                             const struct clmem_split_options *options,
                             struct clmem_result **results, size_t *n_results,
                             struct clmem_error *err, const struct clmem_sizes *sizes)
{
    if (clmem_api_native(sizes))
        return clmem_matmul_split(ctxs, n, options, results, n_results, err);
    struct call c;
    if (begin(&c, sizes, err))
        return finish(&c, err, c.err.status);
    struct clmem_ctx *mine = ctxs_in(&c, ctxs, n);
    if (!mine)
        return finish(&c, err, out_of_memory(&c, CLMEM_OK));
    struct clmem_split_options opts;
    struct clmem_result *got = NULL;
    size_t n_got = 0;
    int status = clmem_matmul_split(mine, n, in(&c, CLMEM_API_SPLIT_OPTIONS, &opts, options), &got,
                                    &n_got, c.e);
    ctxs_out(&c, ctxs, mine, n);
    status = give_results(&c, status, results, n_results, got, n_got);
    return finish(&c, err, status);
}

/* ---- reports ---- */

int clmem_host_describe_sized(struct clmem_host *h, const struct clmem_sizes *sizes)
{
    struct clmem_api api;
    if (clmem_api_native(sizes))
        return clmem_host_describe(h);
    clmem_api_read(&api, sizes, NULL);
    if (!clmem_api_usable(&api, CLMEM_API_HOST))
        return CLMEM_ERR_USAGE;
    struct clmem_host mine;
    int status = clmem_host_describe(&mine);
    clmem_api_out(&api, CLMEM_API_HOST, h, &mine);
    return status;
}

int clmem_format_parse_sized(const char *text, enum clmem_format *format, struct clmem_error *err,
                             const struct clmem_sizes *sizes)
{
    if (clmem_api_native(sizes))
        return clmem_format_parse(text, format, err);
    struct call c;
    if (begin(&c, sizes, err))
        return finish(&c, err, c.err.status);
    return finish(&c, err, clmem_format_parse(text, format, c.e));
}

int clmem_report_write_sized(FILE *out_file, enum clmem_format format,
                             const struct clmem_result *results, size_t n,
                             const struct clmem_report_meta *meta, struct clmem_error *err,
                             const struct clmem_sizes *sizes)
{
    if (clmem_api_native(sizes))
        return clmem_report_write(out_file, format, results, n, meta, err);
    struct call c;
    if (begin(&c, sizes, err))
        return finish(&c, err, c.err.status);
    struct clmem_result *mine = clmem_api_array_in(&c.api, CLMEM_API_RESULT, results, n);
    if (!mine)
        return finish(&c, err, out_of_memory(&c, CLMEM_OK));
    struct clmem_report_meta my_meta;
    struct clmem_device device;
    struct clmem_peak peak;
    struct clmem_host host;
    if (in(&c, CLMEM_API_REPORT_META, &my_meta, meta)) {
        my_meta.device = in(&c, CLMEM_API_DEVICE, &device, my_meta.device);
        my_meta.peak = in(&c, CLMEM_API_PEAK, &peak, my_meta.peak);
        my_meta.host = in(&c, CLMEM_API_HOST, &host, my_meta.host);
    }
    int status = clmem_report_write(out_file, format, mine, n, meta ? &my_meta : NULL, c.e);
    free(mine); /* copies: the samples are the program's */
    return finish(&c, err, status);
}

void clmem_compare_devices_free_sized(struct clmem_compare_device *runs, size_t n,
                                      const struct clmem_sizes *sizes)
{
    struct clmem_api api;
    if (clmem_api_native(sizes)) {
        clmem_compare_devices_free(runs, n);
        return;
    }
    clmem_api_read(&api, sizes, NULL);
    if (!clmem_api_usable(&api, CLMEM_API_COMPARE_DEVICE) ||
        !clmem_api_usable(&api, CLMEM_API_RESULT))
        return;
    for (size_t i = 0; runs && i < n; i++) {
        struct clmem_compare_device run;
        clmem_api_in(&api, CLMEM_API_COMPARE_DEVICE, &run,
                     clmem_api_item(&api, CLMEM_API_COMPARE_DEVICE, runs, i));
        free_results(&api, run.results, run.n_results);
    }
    free(runs);
}

int clmem_runfile_load_sized(const char *path, struct clmem_compare_device **runs, size_t *n_runs,
                             struct clmem_error *err, const struct clmem_sizes *sizes)
{
    if (clmem_api_native(sizes))
        return clmem_runfile_load(path, runs, n_runs, err);
    struct call c;
    if (begin(&c, sizes, err))
        return finish(&c, err, c.err.status);
    struct clmem_compare_device *got = NULL;
    size_t n = 0;
    int status = clmem_runfile_load(path, &got, &n, c.e);
    /* Each run's results at the program's stride, then the runs. */
    for (size_t i = 0; i < n; i++) {
        void *theirs = NULL;
        if (got[i].n_results) {
            theirs = clmem_api_append(&c.api, CLMEM_API_RESULT, NULL, 0, got[i].results,
                                      got[i].n_results);
            if (!theirs) {
                for (size_t j = 0; j < n; j++) {
                    if (j < i)
                        free_results(&c.api, got[j].results, got[j].n_results);
                    else
                        clmem_results_free(got[j].results, got[j].n_results);
                }
                free(got);
                return finish(&c, err, out_of_memory(&c, status));
            }
        }
        free(got[i].results);
        got[i].results = theirs; /* in the program's layout */
    }
    if (n) {
        void *grown = clmem_api_append(&c.api, CLMEM_API_COMPARE_DEVICE, *runs, *n_runs, got, n);
        if (!grown) {
            for (size_t i = 0; i < n; i++)
                free_results(&c.api, got[i].results, got[i].n_results);
            status = out_of_memory(&c, status);
        } else {
            *runs = grown;
            *n_runs += n;
        }
    }
    free(got);
    return finish(&c, err, status);
}

int clmem_compare_report_sized(const char *dir, const struct clmem_compare_device *devs,
                               size_t n_devs, char *plots_note, size_t note_size,
                               struct clmem_error *err, const struct clmem_sizes *sizes)
{
    if (clmem_api_native(sizes))
        return clmem_compare_report(dir, devs, n_devs, plots_note, note_size, err);
    struct call c;
    if (begin(&c, sizes, err))
        return finish(&c, err, c.err.status);
    struct clmem_compare_device *mine =
        clmem_api_array_in(&c.api, CLMEM_API_COMPARE_DEVICE, devs, n_devs);
    size_t ready = 0; /* devices whose results are read in */
    int status = mine ? CLMEM_OK : out_of_memory(&c, CLMEM_OK);
    while (status == CLMEM_OK && ready < n_devs) {
        struct clmem_result *results = clmem_api_array_in(
            &c.api, CLMEM_API_RESULT, mine[ready].results, mine[ready].n_results);
        if (results)
            mine[ready++].results = results;
        else
            status = out_of_memory(&c, CLMEM_OK);
    }
    if (status == CLMEM_OK)
        status = clmem_compare_report(dir, mine, n_devs, plots_note, note_size, c.e);
    for (size_t i = 0; i < ready; i++)
        free(mine[i].results); /* copies: the samples are the program's */
    free(mine);
    return finish(&c, err, status);
}
