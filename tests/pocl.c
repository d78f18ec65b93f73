#include "pocl.h"
#include "tmpdir.h"

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

/* ---- the watchdog ----
 * A wrong kernel can do worse than fail its check: one that writes out of
 * bounds can leave PoCL's heap so that the next run hangs, and the test
 * would wait for meson's timeout (15 minutes). Every run of a kernel made
 * here is bounded instead: a thread ends the test, naming the run, when
 * one variant (its build and its runs) takes longer than the limit. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int armed;
    struct timespec deadline; /* CLOCK_MONOTONIC */
    char what[256];
} watch = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, {0, 0}, ""};

unsigned test_run_limit_s(void)
{
    const char *env = getenv("CLMEM_TEST_RUN_LIMIT_S");
    long v = env ? atol(env) : 0;
    return v > 0 ? (unsigned)v : TEST_RUN_LIMIT_S;
}

static void *watchdog(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&watch.lock);
    for (;;) {
        if (!watch.armed) {
            pthread_cond_wait(&watch.changed, &watch.lock);
            continue;
        }
        struct timespec deadline = watch.deadline;
        int rc = pthread_cond_timedwait(&watch.changed, &watch.lock, &deadline);
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (rc == ETIMEDOUT && watch.armed &&
            (now.tv_sec > watch.deadline.tv_sec ||
             (now.tv_sec == watch.deadline.tv_sec && now.tv_nsec >= watch.deadline.tv_nsec))) {
            fprintf(stderr,
                    "test watchdog: %s ran past %u s (CLMEM_TEST_RUN_LIMIT_S): a kernel that "
                    "hangs, or a run this slow, fails the test here\n",
                    watch.what, test_run_limit_s());
            fflush(stderr);
            _exit(1);
        }
    }
    return NULL;
}

static pthread_once_t watch_once = PTHREAD_ONCE_INIT;
static void watch_start(void)
{
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_destroy(&watch.changed);
    pthread_cond_init(&watch.changed, &attr);
    pthread_condattr_destroy(&attr);
    pthread_t thread;
    if (pthread_create(&thread, NULL, watchdog, NULL) == 0)
        pthread_detach(thread);
}

/* (Re)starts the clock: the limit from now. Called with the lock held. */
static void watch_arm_locked(void)
{
    clock_gettime(CLOCK_MONOTONIC, &watch.deadline);
    watch.deadline.tv_sec += test_run_limit_s();
    watch.armed = 1;
    pthread_cond_signal(&watch.changed);
}

void test_watch_begin(const char *fmt, ...)
{
    pthread_once(&watch_once, watch_start);
    pthread_mutex_lock(&watch.lock);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(watch.what, sizeof watch.what, fmt, ap);
    va_end(ap);
    watch_arm_locked();
    pthread_mutex_unlock(&watch.lock);
}

void test_watch_end(void)
{
    pthread_mutex_lock(&watch.lock);
    watch.armed = 0;
    pthread_cond_signal(&watch.changed);
    pthread_mutex_unlock(&watch.lock);
}

/* clmem_run's progress: a variant begins, its own limit with it. */
static void watch_variant(void *user, const struct clmem_result *next, size_t index, size_t count)
{
    (void)user, (void)index, (void)count;
    pthread_mutex_lock(&watch.lock);
    if (watch.armed) {
        snprintf(watch.what, sizeof watch.what, "%s %s at %s", next->workload, next->variant,
                 next->size);
        watch_arm_locked();
    }
    pthread_mutex_unlock(&watch.lock);
}

int clmem_run_workload(struct clmem_ctx *ctx, const char *workload, const char *variant,
                       const char *size, unsigned reps, struct clmem_result **results,
                       size_t *n_results, struct clmem_error *err)
{
    const struct clmem_workload *w = clmem_workload_find(workload);
    if (!w)
        return clmem_fail(err, CLMEM_ERR_USAGE, "unknown workload '%s' (try 'clmem list')",
                          workload);
    struct clmem_run_options options = {.size = size,
                                        .variant = variant,
                                        .reps = reps,
                                        .warmup = 1,
                                        .seed = 42,
                                        .progress = watch_variant};
    test_watch_begin("%s %s at %s", workload, variant ? variant : "all", size ? size : "-");
    int status = clmem_run(ctx, w, &options, results, n_results, err);
    test_watch_end();
    return status;
}

void test_open_device(struct clmem_ctx *ctx)
{
    struct clmem_error err = {0};
    struct clmem_device *devices;
    size_t count, chosen;
    const char *spec = getenv("CLMEM_TEST_DEVICE");
    if (clmem_devices_list(&devices, &count, &err) ||
        clmem_devices_select(spec ? spec : "cpu", devices, count, &chosen, &err)) {
        /* A second implementation's run of the tests is skipped where it
         * is not installed (meson: exit 77), saying so. */
        if (getenv("CLMEM_TEST_SKIP_MISSING")) {
            fprintf(stderr, "skipped: no device '%s' here: %s\n", spec ? spec : "cpu", err.message);
            exit(77);
        }
        fail_msg("no test device: %s", err.message);
    }
    if (clmem_ctx_open(ctx, &devices[chosen], NULL, &err))
        fail_msg("no test device: %s", err.message);
    free(devices);
}

void test_expect_verified(struct clmem_ctx *ctx, const char *workload, const char *variant,
                          const char *size)
{
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    int status = clmem_run_workload(ctx, workload, variant, size, 2, &results, &n, &err);
    if (status != CLMEM_OK)
        fail_msg("%s %s at %s: status %d: %s%s%s", workload, variant, size, status, err.message,
                 n ? " " : "", n ? results[0].verify_detail : "");
    assert_int_equal(n, 1);
    assert_false(results[0].skipped);
    assert_true(results[0].verified);
    assert_true(results[0].n_samples == 2);
    assert_true(results[0].median_ms > 0.0);
    assert_true(results[0].metric > 0.0);
    clmem_results_free(results, n);
    clmem_error_clear(&err);
}

void test_expect_verified_sizes(struct clmem_ctx *ctx, const char *workload, const char *variant,
                                const char *const *sizes)
{
    for (size_t i = 0; sizes[i]; i++)
        test_expect_verified(ctx, workload, variant, sizes[i]);
}

struct clmem_result *test_run_all(struct clmem_ctx *ctx, const char *workload, const char *size,
                                  unsigned reps, const char *const *variants, size_t *n)
{
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    *n = 0;
    int status = clmem_run_workload(ctx, workload, "all", size, reps, &results, n, &err);
    if (status != CLMEM_OK)
        fail_msg("%s all at %s: status %d: %s", workload, size, status, err.message);
    size_t expected = 0;
    while (variants[expected])
        expected++;
    assert_int_equal(*n, expected);
    for (size_t i = 0; i < *n; i++) {
        assert_string_equal(results[i].variant, variants[i]);
        assert_true(results[i].verified);
    }
    clmem_error_clear(&err);
    return results;
}

const struct clmem_result *test_find_result(const struct clmem_result *results, size_t n,
                                            const char *variant)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(results[i].variant, variant) == 0)
            return &results[i];
    fail_msg("no result of variant '%s' among %zu", variant, n);
    return NULL;
}

double test_median_of(const double *samples, size_t n)
{
    /* Insertion sort of a copy, then the middle one or the mean of the
     * middle two: written apart from clmem_median, so a wrong median there
     * cannot pass through here. */
    double sorted[64];
    assert_true(n > 0 && n <= sizeof sorted / sizeof *sorted);
    for (size_t i = 0; i < n; i++) {
        size_t j = i;
        for (; j > 0 && sorted[j - 1] > samples[i]; j--)
            sorted[j] = sorted[j - 1];
        sorted[j] = samples[i];
    }
    return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
}

void test_expect_metric(const struct clmem_result *result, double work)
{
    /* The times first, from the samples themselves: the metric is only as
     * right as the median it comes from. */
    assert_true(result->n_samples > 0);
    assert_non_null(result->samples_ms);
    double lo = result->samples_ms[0], hi = result->samples_ms[0];
    for (size_t i = 1; i < result->n_samples; i++) {
        lo = result->samples_ms[i] < lo ? result->samples_ms[i] : lo;
        hi = result->samples_ms[i] > hi ? result->samples_ms[i] : hi;
    }
    double median = test_median_of(result->samples_ms, result->n_samples);
    if (result->median_ms != median || result->min_ms != lo || result->max_ms != hi)
        fail_msg("%s %s: median/min/max %g/%g/%g ms, but its %zu samples give %g/%g/%g",
                 result->workload, result->variant, result->median_ms, result->min_ms,
                 result->max_ms, result->n_samples, median, lo, hi);
    assert_true(median > 0.0);
    double expected = work / (median * 1e-3) / 1e9;
    if (!(result->metric > 0.999 * expected && result->metric < 1.001 * expected))
        fail_msg("%s %s: metric %g %s, but %g of work over the median %g ms is %g",
                 result->workload, result->variant, result->metric, result->metric_unit, work,
                 median, expected);
}

void test_expect_refused(struct clmem_ctx *ctx, const char *workload, const char *variant,
                         const char *size, const char *message)
{
    struct clmem_error err = {0};
    struct clmem_result *results = NULL;
    size_t n = 0;
    int status = clmem_run_workload(ctx, workload, variant, size, 1, &results, &n, &err);
    assert_int_equal(status, CLMEM_ERR_USAGE);
    assert_int_equal(n, 0);
    if (!strstr(err.message, message))
        fail_msg("%s %s at %s: message '%s' lacks '%s'", workload, variant, size, err.message,
                 message);
    clmem_results_free(results, n);
    clmem_error_clear(&err);
}

/* Runs the workload on the kernels of `kernel_dir` ("" the default ones). */
static struct clmem_result run_in(struct clmem_ctx *ctx, const char *kernel_dir,
                                  const char *workload, const char *variant, const char *size,
                                  const char *input, const int *values)
{
    char saved[sizeof ctx->kernel_dir];
    snprintf(saved, sizeof saved, "%s", ctx->kernel_dir);
    snprintf(ctx->kernel_dir, sizeof ctx->kernel_dir, "%s", kernel_dir);
    int saved_no_cache = ctx->no_cache;
    ctx->no_cache = 1; /* the planted source is built, never a cached program */
    struct clmem_run_options options = {.size = input ? NULL : size,
                                        .input = input,
                                        .variant = variant,
                                        .reps = 1,
                                        .seed = 42,
                                        .tune_values = values,
                                        .progress = watch_variant};
    struct clmem_error err = {0};
    struct clmem_result *r = NULL;
    size_t n = 0;
    test_watch_begin("%s %s at %s (kernels of '%s')", workload, variant, input ? input : size,
                     kernel_dir[0] ? kernel_dir : "cl/");
    int status = clmem_run(ctx, clmem_workload_find(workload), &options, &r, &n, &err);
    test_watch_end();
    snprintf(ctx->kernel_dir, sizeof ctx->kernel_dir, "%s", saved);
    ctx->no_cache = saved_no_cache;
    if (n != 1 || (status != CLMEM_OK && status != CLMEM_ERR_VERIFY))
        fail_msg("%s %s at %s: status %d, %zu results: %s", workload, variant, input ? input : size,
                 status, n, err.message);
    struct clmem_result result = r[0];
    result.samples_ms = NULL; /* freed with r: only the check and parameters are kept */
    clmem_results_free(r, n);
    return result;
}

char *test_kernel_text(const char *file)
{
    char path[1024];
    struct clmem_error err = {0};
    if (clmem_source_find(NULL, file, path, sizeof path, &err))
        fail_msg("%s: %s", file, err.message);
    char *text = test_read_file(path);
    if (!text)
        fail_msg("%s: cannot be read", path);
    return text;
}

void test_plant_kernel(const char *file, const char *old, const char *new_text, char *dir,
                       char *planted, size_t planted_size)
{
    char *text = test_kernel_text(file), *at = strstr(text, old);
    if (!at || strstr(at + 1, old))
        fail_msg("%s: expected one '%s'", file, old);
    assert_non_null(mkdtemp(dir));
    snprintf(planted, planted_size, "%s/%s", dir, file);
    FILE *out = fopen(planted, "wb");
    assert_non_null(out);
    fwrite(text, 1, (size_t)(at - text), out);
    fputs(new_text, out);
    fputs(at + strlen(old), out);
    assert_int_equal(fclose(out), 0);
    free(text);
}

void test_expect_planted_caught(struct clmem_ctx *ctx, const char *workload, const char *variant,
                                const char *size, const char *input, const int *values,
                                const char *params, const char *file, const char *old,
                                const char *new_text)
{
    char dir[] = "/tmp/clmem_planted_XXXXXX", planted[1100];
    test_plant_kernel(file, old, new_text, dir, planted, sizeof planted);

    struct clmem_result bad = run_in(ctx, dir, workload, variant, size, input, values);
    unlink(planted);
    rmdir(dir);
    struct clmem_result good = run_in(ctx, "", workload, variant, size, input, values);
    const char *where = input ? input : size;
    if (!strstr(bad.params, params) || !strstr(good.params, params))
        fail_msg("%s %s at %s built with '%s' / '%s', not '%s'", workload, variant, where,
                 bad.params, good.params, params);
    if (bad.verified || !strstr(bad.verify_detail, "expected"))
        fail_msg("%s %s at %s: the bug planted in %s ('%s') was not caught", workload, variant,
                 where, file, new_text);
    if (!good.verified)
        fail_msg("%s %s at %s without the bug: %s", workload, variant, where, good.verify_detail);
}

int test_setup_device(void **state)
{
    struct clmem_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return -1;
    test_open_device(ctx);
    *state = ctx;
    return 0;
}

int test_teardown_device(void **state)
{
    clmem_ctx_close(*state);
    free(*state);
    return 0;
}
