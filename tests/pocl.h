/* Test fixture: the PoCL CPU device every test runs on. */
#ifndef CLMEM_TEST_POCL_H
#define CLMEM_TEST_POCL_H

#include "harness/harness.h"
#include "report/report.h"

/* Opens $CLMEM_TEST_DEVICE (default "cpu", PoCL in CI); fails the test
 * with the error's message when there is none, or exits 77 (meson's skip)
 * saying so where $CLMEM_TEST_SKIP_MISSING is set. */
void test_open_device(struct clmem_ctx *ctx);
/* clmem_run of the workload named WORKLOAD (a usage error when there is
 * none), one warm-up, seed 42, REPS timed runs; results appended. */
int clmem_run_workload(struct clmem_ctx *ctx, const char *workload, const char *variant,
                       const char *size, unsigned reps, struct clmem_result **results,
                       size_t *n_results, struct clmem_error *err);
/* Runs WORKLOAD VARIANT at SIZE (2 timed runs) and asserts it verified. */
void test_expect_verified(struct clmem_ctx *ctx, const char *workload, const char *variant,
                          const char *size);
/* The same at each size of a NULL-terminated list. */
void test_expect_verified_sizes(struct clmem_ctx *ctx, const char *workload, const char *variant,
                                const char *const *sizes);
/* Runs every variant of WORKLOAD at SIZE (REPS timed runs); fails the test
 * with the error's message unless they all ran and verified, named as in
 * the NULL-terminated `variants`, in order. The caller frees the *n results. */
struct clmem_result *test_run_all(struct clmem_ctx *ctx, const char *workload, const char *size,
                                  unsigned reps, const char *const *variants, size_t *n);
/* The result of `variant` among n (the first, for a sweep); fails the test
 * when there is none. Results are looked up by name, never by position. */
const struct clmem_result *test_find_result(const struct clmem_result *results, size_t n,
                                            const char *variant);
/* The median of n (1..64) samples, computed here, independently of
 * clmem_median: the middle one of the sorted samples, or the mean of the
 * middle two. */
double test_median_of(const double *samples, size_t n);
/* Asserts the result's median, min and max are those of its own samples
 * (computed here, not by clmem), and its metric is `work` (in the unit
 * times 1e9: bytes for GB/s) over that median, to 0.1%. */
void test_expect_metric(const struct clmem_result *result, double work);
/* Runs WORKLOAD VARIANT at SIZE and asserts it is refused as a usage error,
 * before any result, with a message that contains MESSAGE. */
void test_expect_refused(struct clmem_ctx *ctx, const char *workload, const char *variant,
                         const char *size, const char *message);
/* The text of the source tree's cl/FILE (malloc'd; the caller frees it). */
char *test_kernel_text(const char *file);
/* Writes cl/FILE with its one OLD made NEW_TEXT (a planted bug) into a
 * new temporary folder: `dir` ("/tmp/clmem_planted_XXXXXX", made here)
 * and the planted file's path in `planted`. */
void test_plant_kernel(const char *file, const char *old, const char *new_text, char *dir,
                       char *planted, size_t planted_size);
/* Runs VARIANT of WORKLOAD at SIZE (or on the image file INPUT, when not
 * NULL) with the parameters `values` (as clmem tune would) on the kernels
 * of cl/FILE with the one place that holds OLD made NEW_TEXT (a planted
 * bug, in a temporary kernel folder), then on cl/FILE as it is: the first
 * must fail its check, naming an element, the second verify; both must
 * have been built with `params` (a part of the result's parameters). For
 * kernel paths test_planted's runs (PoCL's built-in rows) do not take. */
void test_expect_planted_caught(struct clmem_ctx *ctx, const char *workload, const char *variant,
                                const char *size, const char *input, const int *values,
                                const char *params, const char *file, const char *old,
                                const char *new_text);
/* Every run of a kernel made here (clmem_run_workload, the test_expect_*
 * and test_run_all helpers, planted kernels) is bounded: when one variant,
 * its build and its runs, takes longer than test_run_limit_s(), the test
 * ends at once (exit 1), naming the run, instead of waiting for meson's
 * timeout. $CLMEM_TEST_RUN_LIMIT_S sets the limit (slow builds: ASan,
 * valgrind), else TEST_RUN_LIMIT_S. A test that calls clmem_run itself
 * brackets it with test_watch_begin/test_watch_end. The first variant's
 * span holds the workload's set-up, which builds every variant's program:
 * matmul's every variant at once, cold, took 316 s on 2 cores under a
 * load of 7 (ran past a limit of 180 s), so the limit is 10 minutes, still
 * a third of matmul's meson timeout. */
#define TEST_RUN_LIMIT_S 600
unsigned test_run_limit_s(void);
void test_watch_begin(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void test_watch_end(void);
/* cmocka state set-up/tear-down that open and close the device. */
int test_setup_device(void **state);
int test_teardown_device(void **state);

#endif
