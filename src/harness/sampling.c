/* Samples long enough for the clock that times them: a run too short for
 * the clock's ticks is repeated back to back and the batch's time divided
 * (Google Benchmark's min_time, hyperfine's runs), by the device's events
 * where its clock passed the check, else by the host's monotonic clock. */
#include "harness/harness.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Whether a batch's events can time it: in order, a positive span, and
 * no longer than the host's interval around it (give or take two ticks). */
static int events_usable(const struct clmem_batch *b, double tick_ms, char *why, size_t why_size)
{
    if (!b->events.has_events) {
        snprintf(why, why_size, "timed on the host (no device command)");
        return 0;
    }
    if (!b->events.ordered || !(b->events.ms > 0)) {
        snprintf(why, why_size, "its event timestamps were out of order");
        return 0;
    }
    if (b->events.ms > CLMEM_EVENT_WALL_RATIO * b->wall_ms + 2 * tick_ms) {
        snprintf(why, why_size, "its events spanned %.3g ms, longer than the host's %.3g ms",
                 b->events.ms, b->wall_ms);
        return 0;
    }
    return 1;
}

double clmem_min_sample_ms(int events, double tick_ns)
{
    double floor_ms = events ? CLMEM_MIN_SAMPLE_EVENTS_MS : CLMEM_MIN_SAMPLE_HOST_MS;
    double ticks_ms = CLMEM_MIN_SAMPLE_TICKS * tick_ns * 1e-6;
    return ticks_ms > floor_ms ? ticks_ms : floor_ms;
}

int clmem_sample(const struct clmem_clock *clock, unsigned reps, clmem_batch_fn measure, void *user,
                 double *samples_ms, struct clmem_sampling *out, struct clmem_error *err)
{
    memset(out, 0, sizeof *out);
    int events = clock && clock->events_ok;
    double tick_ms = clock ? clock->tick_ns * 1e-6 : 0;
    if (clock && clock->checked && !clock->events_ok)
        snprintf(out->why, sizeof out->why, "the device's clock failed its check");
restart:;
    double min_ms = clmem_min_sample_ms(events, events ? clock->tick_ns : 0);
    struct clmem_batch b;
    unsigned runs = 1;
    double t;
    int status, per_run = 0;
    /* Grow the batch until it lasts min_ms: aim 20% past it, at most 100
     * times more runs a step. */
    for (;;) {
        if ((status = measure(user, runs, &b, err)))
            return status;
        if (events && !events_usable(&b, tick_ms, out->why, sizeof out->why)) {
            events = 0;
            goto restart;
        }
        /* A run long enough to be read to 1% alone, of which a batch needs
         * few: the runs' own spans are summed, leaving out what runs
         * between them (a counter reset, the next launch), as when each
         * run was timed alone. A shorter run: the batch's whole span. */
        if (events && runs == 1)
            per_run = b.events.ms >= CLMEM_RUN_SPAN_TICKS * tick_ms &&
                      b.events.ms * (CLMEM_MAX_RUN_SPANS / 2) >= min_ms;
        t = !events ? b.wall_ms : per_run ? b.events.runs_ms : b.events.ms;
        /* Runs that shrank after the first (a lazy compilation paid once)
         * may need more than the runs whose spans are kept: whole span. */
        if (per_run && t < min_ms && runs >= CLMEM_MAX_RUN_SPANS) {
            per_run = 0;
            t = b.events.ms;
        }
        if (t >= min_ms || runs >= CLMEM_MAX_RUNS_PER_SAMPLE)
            break;
        double grow = t > min_ms / 100 ? ceil(1.2 * min_ms / t) : 100;
        double next = grow * runs;
        unsigned cap = per_run ? CLMEM_MAX_RUN_SPANS : CLMEM_MAX_RUNS_PER_SAMPLE;
        runs = next > cap ? cap : (unsigned)next;
    }
    if (!(t >= min_ms))
        return clmem_fail(err, CLMEM_ERR_CL,
                          "%u runs took %.3g ms by the %s clock, less than the %.3g ms a sample "
                          "needs: the clock does not advance",
                          runs, t, events ? "device's" : "host's", min_ms);
    unsigned done = 0;
    /* A single run long enough is already a sample. */
    if (runs == 1)
        samples_ms[done++] = t;
    for (; done < reps; done++) {
        if ((status = measure(user, runs, &b, err)))
            return status;
        if (events && !events_usable(&b, tick_ms, out->why, sizeof out->why)) {
            events = 0;
            goto restart;
        }
        samples_ms[done] = (!events ? b.wall_ms : per_run ? b.events.runs_ms : b.events.ms) / runs;
    }
    out->runs_per_sample = runs;
    out->host = !events;
    if (events)
        out->why[0] = '\0';
    return CLMEM_OK;
}
