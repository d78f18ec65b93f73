/* Long run: `clmem bench` repeated in one process keeps its memory flat.
 * Runs clmem_bench_run (transpose, reduce, atomics, 1 rep) RUNS times on the
 * test device (PoCL), reading VmRSS after each run, and the
 * context's reference count, which every buffer, program, kernel and queue
 * still alive holds (PoCL retains the context for each), before the first
 * run and after the last.
 *
 * usage: test_longrun [RUNS]    (default 50; meson test runs it with fewer)
 * Fails when RSS grows by CLMEM_LONGRUN_MAX_KIB or more from the lowest
 * reading of runs 1-5 to the lowest of the last five runs (not checked under ASan, whose
 * quarantine holds freed memory), or when the reference count changes (an
 * OpenCL object leaked). */
#include "pocl.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#define CLMEM_LONGRUN_MAX_KIB 4096 /* 4 MiB */
#define CLMEM_LONGRUN_FIRST   5    /* runs whose lowest reading is the baseline */

#if defined(__SANITIZE_ADDRESS__)
#define CLMEM_LONGRUN_CHECK_RSS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CLMEM_LONGRUN_CHECK_RSS 0
#endif
#endif
#ifndef CLMEM_LONGRUN_CHECK_RSS
#define CLMEM_LONGRUN_CHECK_RSS 1
#endif

static unsigned long runs = 50;

/* VmRSS of this process in KiB, from /proc/self/status. */
static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0)
            kib = strtol(line + 6, NULL, 10);
    if (f)
        fclose(f);
    return kib;
}

static cl_uint context_refs(const struct clmem_ctx *ctx)
{
    cl_uint refs = 0;
    assert_int_equal(
        clGetContextInfo(ctx->context, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, NULL),
        CL_SUCCESS);
    return refs;
}

/* The context's reference count once the work has settled: PoCL releases
 * the references of finished commands (events, kernels, buffers) from its
 * own threads, a little after clFinish returns, and later still when the
 * machine is loaded (seen: 2 before, 4 or 5 right after the last run). So
 * wait for the queue, then poll until the count is back to `expected`, for
 * at most CLMEM_LONGRUN_SETTLE_MS; a leak keeps it above for good. */
#define CLMEM_LONGRUN_SETTLE_MS 5000
#define CLMEM_LONGRUN_POLL_MS   50
static cl_uint settled_refs(const struct clmem_ctx *ctx, cl_uint expected, unsigned *waited_ms)
{
    assert_int_equal(clFinish(ctx->queue), CL_SUCCESS);
    cl_uint refs = context_refs(ctx);
    for (*waited_ms = 0; refs != expected && *waited_ms < CLMEM_LONGRUN_SETTLE_MS;
         *waited_ms += CLMEM_LONGRUN_POLL_MS) {
        struct timespec pause = {0, CLMEM_LONGRUN_POLL_MS * 1000000L};
        nanosleep(&pause, NULL);
        refs = context_refs(ctx);
    }
    return refs;
}

static void bench_memory_stays_flat(void **state)
{
    struct clmem_ctx *ctx = *state;
    const struct clmem_bench_options options = {
        .reps = 1, .seed = 42, .only = "transpose,reduce,atomics"};
    /* Programs built from source (PoCL's own kernel cache keeps that quick):
     * loaded from clmem's program cache instead, PoCL compiles their
     * work-group functions at each run and the RSS swings by up to 80 MiB
     * from one run to the next (measured: 30 runs with the cache, lowest of
     * the first and of the last five within 0.7 MiB), which a 10-run window
     * cannot tell from a leak. */
    ctx->no_cache = 1;
    cl_uint refs_before = context_refs(ctx);
    /* rss_first, rss_low: the lowest reading of the first five runs and of
     * the last five, so that one transient peak (seen: +26 MiB after one
     * run, gone after the next) cannot decide the check, while a leak
     * raises every later reading. */
    long rss_first = -1, rss_last = -1, rss_low = -1;
    for (unsigned long i = 1; i <= runs; i++) {
        struct clmem_error err = {0};
        struct clmem_result *results = NULL;
        size_t n = 0;
        struct clmem_peak peak;
        int status = clmem_bench_run(ctx, &options, &peak, &results, &n, &err);
        if (status != CLMEM_OK)
            fail_msg("bench run %lu: status %d: %s", i, status, err.message);
        assert_true(n > 0);
        clmem_results_free(results, n);
        clmem_error_clear(&err);
        rss_last = rss_kib();
        if (i <= CLMEM_LONGRUN_FIRST && (rss_first < 0 || rss_last < rss_first))
            rss_first = rss_last;
        if (i + 5 > runs && (rss_low < 0 || rss_last < rss_low))
            rss_low = rss_last;
        if (i % 10 == 0)
            print_message("longrun: run %lu: VmRSS %ld KiB\n", i, rss_last);
    }
    unsigned waited_ms;
    cl_uint refs_after = settled_refs(ctx, refs_before, &waited_ms);
    long growth = rss_low - rss_first;
    print_message("longrun: %lu bench runs: VmRSS lowest of runs 1-%d %ld KiB, after run %lu %ld "
                  "KiB, lowest of the last 5 %ld KiB (%+ld KiB); context references %u before, %u "
                  "after (settled in %u ms)\n",
                  runs, runs < CLMEM_LONGRUN_FIRST ? (int)runs : CLMEM_LONGRUN_FIRST, rss_first,
                  runs, rss_last, rss_low, growth, refs_before, refs_after, waited_ms);
    assert_true(rss_first > 0 && rss_last > 0);
    assert_int_equal(refs_after, refs_before);
    if (CLMEM_LONGRUN_CHECK_RSS && growth >= CLMEM_LONGRUN_MAX_KIB)
        fail_msg("VmRSS grew by %ld KiB over runs %d to %lu (limit %d KiB)", growth,
                 CLMEM_LONGRUN_FIRST, runs, CLMEM_LONGRUN_MAX_KIB);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        char *end;
        runs = strtoul(argv[1], &end, 10);
        if (*end || runs == 0 || runs > 100000) {
            fprintf(stderr, "usage: test_longrun [RUNS]\n");
            return 2;
        }
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(bench_memory_stays_flat, test_setup_device,
                                        test_teardown_device),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
