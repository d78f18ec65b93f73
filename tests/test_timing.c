/* Timing that checks the clock it uses: the clock check's verdict on
 * made-up timestamps, and samples taken through a fake clock (zero
 * timestamps, a 1 ms tick, start after end, events longer than the host's
 * time), each giving the run's true time or the host's, never a figure
 * from a bad duration; then the check on the real PoCL device. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "pocl.h"

/* ---- the clock check's verdict ---- */

/* n readings of a kernel of `ms` by a clock of `tick_ns` steps starting at
 * `origin` ns, the host's wall time `overhead_ms` more. */
static void readings(struct clmem_clock_reading *r, size_t n, double ms, double tick_ns,
                     double origin, double overhead_ms)
{
    for (size_t i = 0; i < n; i++) {
        double start = origin + (double)i * 1.37e9 + 123456789.0;
        double end = start + ms * 1e6;
        r[i].queued = (cl_ulong)(floor((start - 5000) / tick_ns) * tick_ns);
        r[i].submit = (cl_ulong)(floor((start - 2000) / tick_ns) * tick_ns);
        r[i].start = (cl_ulong)(floor(start / tick_ns) * tick_ns);
        r[i].end = (cl_ulong)(floor(end / tick_ns) * tick_ns);
        r[i].wall_ns = (ms + overhead_ms) * 1e6;
    }
}

static void good_clock_passes(void **state)
{
    (void)state;
    struct clmem_clock_reading r[3];
    struct clmem_clock c;
    readings(r, 3, 20, 1, 4e12, 0.05);
    clmem_clock_judge(r, 3, 1, &c);
    assert_true(c.checked);
    assert_true(c.events_ok);
    assert_true(c.wall_ratio > 0.99 && c.wall_ratio <= 1.0);
    assert_true(c.tick_ns == 1);
    assert_string_equal(c.why, "");
}

/* rusticl on llvmpipe: timestamps 0, 1, 2, 3 whatever the kernel did. */
static void counting_timestamps_fail(void **state)
{
    (void)state;
    struct clmem_clock_reading r[3];
    for (int i = 0; i < 3; i++)
        r[i] = (struct clmem_clock_reading){0, 1, 2, 3, 50e6};
    struct clmem_clock c;
    clmem_clock_judge(r, 3, 0, &c);
    assert_false(c.events_ok);
    assert_non_null(strstr(c.why, "of the host's wall time"));
}

static void zero_timestamps_fail(void **state)
{
    (void)state;
    struct clmem_clock_reading r[3] = {{0, 0, 0, 0, 30e6}, {0, 0, 0, 0, 30e6}, {0, 0, 0, 0, 30e6}};
    struct clmem_clock c;
    clmem_clock_judge(r, 3, 1, &c);
    assert_false(c.events_ok);
}

static void start_after_end_fails(void **state)
{
    (void)state;
    struct clmem_clock_reading r[3];
    struct clmem_clock c;
    readings(r, 3, 20, 1, 4e12, 0.05);
    r[1].end = r[1].start - 1000; /* a wrap */
    clmem_clock_judge(r, 3, 1, &c);
    assert_false(c.events_ok);
    assert_non_null(strstr(c.why, "out of order"));
}

static void event_longer_than_wall_fails(void **state)
{
    (void)state;
    struct clmem_clock_reading r[3];
    struct clmem_clock c;
    readings(r, 3, 20, 1, 4e12, 0.05);
    r[2].wall_ns = 10e6; /* 20 ms of events inside 10 ms of the host's */
    clmem_clock_judge(r, 3, 1, &c);
    assert_false(c.events_ok);
    assert_non_null(strstr(c.why, "longer than the host's"));
}

/* A clock that reports 1 ns but steps in milliseconds: its timestamps say so. */
static void coarse_tick_is_found(void **state)
{
    (void)state;
    struct clmem_clock_reading r[3];
    struct clmem_clock c;
    readings(r, 3, 20.3, 1e6, 4e12, 0.05);
    clmem_clock_judge(r, 3, 1, &c);
    assert_true(c.events_ok);
    assert_true(c.tick_ns == 1e6);
    /* A 1 ms tick: a sample must last 1000 of them. */
    assert_true(clmem_min_sample_ms(1, c.tick_ns) == 1000.0);
    assert_true(clmem_min_sample_ms(1, 1) == CLMEM_MIN_SAMPLE_EVENTS_MS);
    assert_true(clmem_min_sample_ms(0, 0) == CLMEM_MIN_SAMPLE_HOST_MS);
}

/* ---- samples through a fake clock ---- */

enum fault { NONE, ZERO, TICK_1MS, START_AFTER_END, LONGER_THAN_WALL, NO_EVENTS };

struct fake {
    double run_ms;      /* what one run truly takes on the device */
    double gap_ms;      /* what runs between two runs (a reset, the next launch) */
    double overhead_ms; /* the host's extra per batch */
    enum fault fault;
    double first_ms; /* the first batch's run, where it was slower (a lazy compilation) */
    unsigned batches, max_runs;
};

static int fake_batch(void *user, unsigned runs, struct clmem_batch *b, struct clmem_error *err)
{
    (void)err;
    struct fake *f = user;
    f->batches++;
    if (runs > f->max_runs)
        f->max_runs = runs;
    double run_ms = f->batches == 1 && f->first_ms > 0 ? f->first_ms : f->run_ms;
    double truth = runs * run_ms + (runs - 1) * f->gap_ms;
    b->wall_ms = truth + f->overhead_ms;
    b->events = (struct clmem_span){1, 1, truth, runs * run_ms};
    switch (f->fault) {
    case NONE: break;
    case ZERO: b->events.ms = 0; break;
    case TICK_1MS: b->events.ms = floor(truth); break;
    case START_AFTER_END: b->events = (struct clmem_span){1, 0, 0, 0}; break;
    case LONGER_THAN_WALL: b->events.ms = 2 * b->wall_ms; break;
    case NO_EVENTS: b->events = (struct clmem_span){0, 0, truth, 0}; break;
    }
    return CLMEM_OK;
}

static void sample_with(const struct clmem_clock *clock, struct fake *f, double *samples,
                        struct clmem_sampling *how)
{
    struct clmem_error err = {0};
    assert_int_equal(clmem_sample(clock, 5, fake_batch, f, samples, how, &err), CLMEM_OK);
}

static const struct clmem_clock good = {.checked = 1, .events_ok = 1, .tick_ns = 1};

static void short_runs_are_batched_and_divided(void **state)
{
    (void)state;
    struct fake f = {.run_ms = 0.004, .overhead_ms = 0.03};
    double samples[5];
    struct clmem_sampling how;
    sample_with(&good, &f, samples, &how);
    assert_false(how.host);
    /* 1 ms of events at least: 250 runs of 4 us. */
    assert_true(how.runs_per_sample >= 250);
    assert_true(how.runs_per_sample * f.run_ms >= CLMEM_MIN_SAMPLE_EVENTS_MS);
    for (int i = 0; i < 5; i++)
        assert_true(fabs(samples[i] - f.run_ms) < 1e-12);
}

/* Runs read to 1% alone (100 ticks) sum their own spans: what runs between
 * them is left out. Shorter ones: the batch's whole span, gaps and all. */
static void runs_spans_summed_where_each_is_long_enough(void **state)
{
    (void)state;
    struct fake f = {.run_ms = 0.2, .gap_ms = 0.015, .overhead_ms = 0.03};
    double samples[5];
    struct clmem_sampling how;
    const struct clmem_clock us = {.checked = 1, .events_ok = 1, .tick_ns = 1000};
    sample_with(&us, &f, samples, &how);
    assert_true(how.runs_per_sample >= 5);
    for (int i = 0; i < 5; i++)
        assert_true(fabs(samples[i] - f.run_ms) < 1e-12);
    /* 8 us at a 1 us tick: 8 ticks alone; the batch's span holds the gaps. */
    struct fake g = {.run_ms = 0.008, .gap_ms = 0.003, .overhead_ms = 0.03};
    sample_with(&us, &g, samples, &how);
    double n = how.runs_per_sample;
    assert_true(n * g.run_ms + (n - 1) * g.gap_ms >= 1.0);
    for (int i = 0; i < 5; i++)
        assert_true(fabs(samples[i] - (n * g.run_ms + (n - 1) * g.gap_ms) / n) < 1e-12);
}

/* A first run slow enough to choose the runs' own spans, then runs too
 * short for the spans kept: the batch's whole span, never an error. */
static void runs_that_shrink_fall_back_to_the_whole_span(void **state)
{
    (void)state;
    struct fake f = {.run_ms = 0.0005, .gap_ms = 0.0001, .first_ms = 0.05, .overhead_ms = 0.03};
    double samples[5];
    struct clmem_sampling how;
    sample_with(&good, &f, samples, &how);
    double n = how.runs_per_sample;
    assert_true(n > CLMEM_MAX_RUN_SPANS);
    for (int i = 0; i < 5; i++)
        assert_true(fabs(samples[i] - (n * f.run_ms + (n - 1) * f.gap_ms) / n) < 1e-12);
}

static void long_runs_are_one_a_sample(void **state)
{
    (void)state;
    struct fake f = {.run_ms = 30, .overhead_ms = 0.03};
    double samples[5];
    struct clmem_sampling how;
    sample_with(&good, &f, samples, &how);
    assert_int_equal(how.runs_per_sample, 1);
    /* The first run, long enough, is the first sample. */
    assert_int_equal(f.batches, 5);
    for (int i = 0; i < 5; i++)
        assert_true(samples[i] == 30);
}

/* A clock whose batches stay under the minimum sample even at the largest
 * batch (CLMEM_MAX_RUNS_PER_SAMPLE runs): refused, "the clock does not
 * advance", never a sample of what it read. By events (runs of 1e-9 ms:
 * 2^20 of them span 0.001 ms of the 1 ms needed) and by the host (runs
 * that take no time at all). */
static void a_clock_that_does_not_advance_is_refused(void **state)
{
    (void)state;
    const struct fake clocks[] = {
        {.run_ms = 1e-9},                  /* events that advance, far too little */
        {.run_ms = 0, .fault = NO_EVENTS}, /* the host's clock, standing still */
    };
    for (size_t i = 0; i < sizeof clocks / sizeof *clocks; i++) {
        struct fake f = clocks[i];
        double samples[5] = {0};
        struct clmem_sampling how;
        struct clmem_error err = {0};
        int status = clmem_sample(&good, 5, fake_batch, &f, samples, &how, &err);
        if (status != CLMEM_ERR_CL || !strstr(err.message, "the clock does not advance"))
            fail_msg("clock %zu: status %d, '%s', first sample %g ms", i, status, err.message,
                     samples[0]);
        /* Refused at the largest batch, not before. */
        assert_int_equal(f.max_runs, CLMEM_MAX_RUNS_PER_SAMPLE);
        clmem_error_clear(&err);
    }
}

/* Events that fail on a batch: the host's clock times every sample of it,
 * batched for its own longer minimum. */
static void expect_host(enum fault fault, const char *why)
{
    struct fake f = {.run_ms = 0.004, .overhead_ms = 0.03, .fault = fault};
    double samples[5];
    struct clmem_sampling how;
    sample_with(&good, &f, samples, &how);
    assert_true(how.host);
    if (!strstr(how.why, why))
        fail_msg("why '%s', expected '%s'", how.why, why);
    double wall = how.runs_per_sample * f.run_ms + f.overhead_ms;
    assert_true(wall >= CLMEM_MIN_SAMPLE_HOST_MS);
    for (int i = 0; i < 5; i++) {
        assert_true(samples[i] > 0);
        assert_true(fabs(samples[i] - wall / how.runs_per_sample) < 1e-12);
        /* The host's per-batch overhead, shared by the runs: within 1%. */
        assert_true(fabs(samples[i] / f.run_ms - 1) < 0.01);
    }
}

static void zero_events_fall_back_to_the_host(void **state)
{
    (void)state;
    expect_host(ZERO, "out of order");
}

static void start_after_end_falls_back_to_the_host(void **state)
{
    (void)state;
    expect_host(START_AFTER_END, "out of order");
}

static void events_longer_than_wall_fall_back_to_the_host(void **state)
{
    (void)state;
    expect_host(LONGER_THAN_WALL, "longer than the host's");
}

static void host_library_is_host_timed(void **state)
{
    (void)state;
    expect_host(NO_EVENTS, "no device command");
}

/* A clock that failed its check: the host times everything, from the start. */
static void failed_clock_times_by_the_host(void **state)
{
    (void)state;
    const struct clmem_clock failed = {.checked = 1, .tick_ns = 1, .why = "counting"};
    struct fake f = {.run_ms = 0.5, .overhead_ms = 0.03};
    double samples[5];
    struct clmem_sampling how;
    sample_with(&failed, &f, samples, &how);
    assert_true(how.host);
    assert_non_null(strstr(how.why, "failed its check"));
    assert_true(how.runs_per_sample * f.run_ms + f.overhead_ms >= CLMEM_MIN_SAMPLE_HOST_MS);
}

/* A 1 ms tick: 1.3 ms reads 1 or 2 alone; 1000 ticks of batch read it to 0.1%. */
static void coarse_tick_batches_to_a_thousand_ticks(void **state)
{
    (void)state;
    const struct clmem_clock coarse = {.checked = 1, .events_ok = 1, .tick_ns = 1e6};
    struct fake f = {.run_ms = 1.3, .overhead_ms = 0.03, .fault = TICK_1MS};
    double samples[5];
    struct clmem_sampling how;
    sample_with(&coarse, &f, samples, &how);
    assert_false(how.host);
    assert_true(how.runs_per_sample * f.run_ms >= 1000);
    for (int i = 0; i < 5; i++)
        assert_true(fabs(samples[i] / f.run_ms - 1) < 0.001);
}

/* ---- figures that cannot be right ---- */

static void above_the_roof_is_flagged(void **state)
{
    (void)state;
    struct clmem_result r[3] = {0};
    for (int i = 0; i < 3; i++) {
        snprintf(r[i].metric_unit, sizeof r[i].metric_unit, "GB/s");
        r[i].n_samples = 3;
        r[i].median_ms = 1;
        r[i].min_ms = 0.99;
        r[i].max_ms = 1.01;
    }
    r[0].metric = 200; /* twice the copy peak */
    r[1].metric = 103; /* within 5% */
    r[2].metric = 130; /* above, but its samples spread 40% */
    r[2].min_ms = 0.8;
    r[2].max_ms = 1.2;
    const struct clmem_peak peak = {.bandwidth = 100, .flops = 1000};
    clmem_results_apply_peak(r, 3, &peak);
    assert_non_null(strstr(r[0].note, "above its roof: 2.00x the copy peak"));
    assert_string_equal(r[1].note, "");
    assert_string_equal(r[2].note, "");
}

/* ---- the real device ---- */

static void pocl_clock_passes_its_check(void **state)
{
    (void)state;
    struct clmem_ctx ctx;
    struct clmem_error err = {0};
    test_open_device(&ctx);
    assert_int_equal(clmem_clock_check(&ctx, &err), CLMEM_OK);
    assert_true(ctx.clock.checked);
    if (!ctx.clock.events_ok)
        fail_msg("%s's clock failed: %s", ctx.device.name, ctx.clock.why);
    /* Every judged run lasts at least half the target, however loaded
     * the machine was while the length was searched. */
    assert_true(ctx.clock.check_ms >= CLMEM_CLOCK_CHECK_MS / 2);
    /* A result says which clock timed it, and how many runs a sample held. */
    struct clmem_result *results = NULL;
    size_t n = 0;
    assert_int_equal(clmem_run_workload(&ctx, "reduce", "one_pass", "1000", 3, &results, &n, &err),
                     CLMEM_OK);
    assert_string_equal(results[0].timer, "events");
    assert_true(results[0].runs_per_sample >= 1);
    assert_true(results[0].runs_per_sample * results[0].median_ms >=
                0.5 * CLMEM_MIN_SAMPLE_EVENTS_MS);
    clmem_results_free(results, n);
    clmem_ctx_close(&ctx);
}

int main(int argc, char **argv)
{
    /* One test by name (or a pattern): test_NAME TEST. */
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(good_clock_passes),
        cmocka_unit_test(counting_timestamps_fail),
        cmocka_unit_test(zero_timestamps_fail),
        cmocka_unit_test(start_after_end_fails),
        cmocka_unit_test(event_longer_than_wall_fails),
        cmocka_unit_test(coarse_tick_is_found),
        cmocka_unit_test(short_runs_are_batched_and_divided),
        cmocka_unit_test(runs_spans_summed_where_each_is_long_enough),
        cmocka_unit_test(runs_that_shrink_fall_back_to_the_whole_span),
        cmocka_unit_test(long_runs_are_one_a_sample),
        cmocka_unit_test(a_clock_that_does_not_advance_is_refused),
        cmocka_unit_test(zero_events_fall_back_to_the_host),
        cmocka_unit_test(start_after_end_falls_back_to_the_host),
        cmocka_unit_test(events_longer_than_wall_fall_back_to_the_host),
        cmocka_unit_test(host_library_is_host_timed),
        cmocka_unit_test(failed_clock_times_by_the_host),
        cmocka_unit_test(coarse_tick_batches_to_a_thousand_ticks),
        cmocka_unit_test(above_the_roof_is_flagged),
        cmocka_unit_test(pocl_clock_passes_its_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
