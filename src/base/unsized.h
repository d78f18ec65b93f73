/* clmem.h's functions under their own names, for libclmem's layers and
 * the programs built with them (the clmem program, the tests): their
 * structs are this header's, so the sizes need no passing. clmem.h makes
 * each name a macro that passes a program's sizes to the exported
 * NAME_sized (src/api/api.c), which lays out what that program's header
 * knows as these functions expect, calls them, and lays back out what they
 * return. Included by base.h, so every file of the layers sees these. */
#ifndef CLMEM_BASE_UNSIZED_H
#define CLMEM_BASE_UNSIZED_H

#include "clmem/clmem.h"

#undef clmem_error_clear
void clmem_error_clear(struct clmem_error *err);
#undef clmem_devices_list
int clmem_devices_list(struct clmem_device **devices, size_t *count, struct clmem_error *err);
#undef clmem_devices_select
int clmem_devices_select(const char *spec, const struct clmem_device *devices, size_t count,
                         size_t *chosen, struct clmem_error *err);
#undef clmem_ctx_open
int clmem_ctx_open(struct clmem_ctx *ctx, const struct clmem_device *device, const char *kernel_dir,
                   struct clmem_error *err);
#undef clmem_ctx_close
void clmem_ctx_close(struct clmem_ctx *ctx);
#undef clmem_clock_check
int clmem_clock_check(struct clmem_ctx *ctx, struct clmem_error *err);
#undef clmem_workload_describe
void clmem_workload_describe(const struct clmem_workload *w, struct clmem_workload_info *info);
#undef clmem_variant_describe
void clmem_variant_describe(const struct clmem_workload *w, size_t i,
                            struct clmem_variant_info *info);
#undef clmem_results_free
void clmem_results_free(struct clmem_result *results, size_t n);
#undef clmem_result_status
const char *clmem_result_status(const struct clmem_result *result);
#undef clmem_run
int clmem_run(struct clmem_ctx *ctx, const struct clmem_workload *w,
              const struct clmem_run_options *options, struct clmem_result **results,
              size_t *n_results, struct clmem_error *err);
#undef clmem_peak_measure
int clmem_peak_measure(struct clmem_ctx *ctx, unsigned reps, struct clmem_peak *peak,
                       struct clmem_result **results, size_t *n_results, struct clmem_error *err);
#undef clmem_results_apply_peak
void clmem_results_apply_peak(struct clmem_result *results, size_t n,
                              const struct clmem_peak *peak);
#undef clmem_bench_plan
int clmem_bench_plan(const struct clmem_ctx *ctx, const struct clmem_bench_options *options,
                     size_t *steps, struct clmem_error *err);
#undef clmem_bench_run
int clmem_bench_run(struct clmem_ctx *ctx, const struct clmem_bench_options *options,
                    struct clmem_peak *peak, struct clmem_result **results, size_t *n_results,
                    struct clmem_error *err);
#undef clmem_run_multi
int clmem_run_multi(const struct clmem_workload *workload, struct clmem_ctx *ctxs, size_t n,
                    const struct clmem_run_options *options, struct clmem_result **results,
                    size_t *n_results, struct clmem_error *err);
#undef clmem_matmul_split
int clmem_matmul_split(struct clmem_ctx *ctxs, size_t n, const struct clmem_split_options *options,
                       struct clmem_result **results, size_t *n_results, struct clmem_error *err);
#undef clmem_host_describe
int clmem_host_describe(struct clmem_host *h);
#undef clmem_format_parse
int clmem_format_parse(const char *text, enum clmem_format *format, struct clmem_error *err);
#undef clmem_report_write
int clmem_report_write(FILE *out, enum clmem_format format, const struct clmem_result *results,
                       size_t n, const struct clmem_report_meta *meta, struct clmem_error *err);
#undef clmem_compare_devices_free
void clmem_compare_devices_free(struct clmem_compare_device *runs, size_t n);
#undef clmem_runfile_load
int clmem_runfile_load(const char *path, struct clmem_compare_device **runs, size_t *n_runs,
                       struct clmem_error *err);
#undef clmem_compare_report
int clmem_compare_report(const char *dir, const struct clmem_compare_device *devs, size_t n_devs,
                         char *plots_note, size_t note_size, struct clmem_error *err);

#endif
