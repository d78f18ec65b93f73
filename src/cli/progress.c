/* Progress and informational lines on stderr: on with --progress or on a
 * terminal, never with --quiet or on the silent ranks; each result's line
 * wherever stderr goes, but with --quiet or on the silent ranks. */
#include "progress.h"

#include "common.h"
#include "report/report.h"

#include <time.h>
#include <unistd.h>

/* Set once the command line is parsed (cli_feedback_set); read-only after. */
static int feedback_progress = -1, feedback_quiet;
/* When the first counted step started: the ETA's origin. */
static double progress_origin, progress_start;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void cli_feedback_set(int progress, int quiet)
{
    feedback_quiet = quiet;
    feedback_progress = progress;
    progress_start = now_s();
    progress_origin = 0;
}

int cli_quiet(void)
{
    return feedback_quiet || cli_silent;
}

int cli_progress_on(void)
{
    if (cli_quiet())
        return 0;
    return feedback_progress > 0 || isatty(STDERR_FILENO);
}

/* "42 s", "3 min 05 s", "1 h 02 min". */
static void duration_text(double s, char *out, size_t size)
{
    unsigned long long t = s > 0 ? (unsigned long long)(s + 0.5) : 0;
    if (t < 60)
        snprintf(out, size, "%llu s", t);
    else if (t < 3600)
        snprintf(out, size, "%llu min %02llu s", t / 60, t % 60);
    else
        snprintf(out, size, "%llu h %02llu min", t / 3600, t / 60 % 60);
}

void cli_progress_step(size_t step, size_t steps, const char *what)
{
    if (!cli_progress_on())
        return;
    double now = now_s();
    /* Step 1 starts the count (a bench's peaks are step 0). */
    if (step <= 1 || progress_origin == 0)
        progress_origin = now;
    char elapsed[32], left[64] = "";
    duration_text(now - progress_start, elapsed, sizeof elapsed);
    size_t done = step > 0 ? step - 1 : 0;
    if (done > 0 && steps >= step) {
        char eta[32];
        duration_text((now - progress_origin) / (double)done * (double)(steps - done), eta,
                      sizeof eta);
        snprintf(left, sizeof left, ", about %s left", eta);
    }
    fprintf(stderr, "clmem: [%zu/%zu] %s (%s elapsed%s)\n", step, steps, what, elapsed, left);
    fflush(stderr);
}

void cli_progress_result(size_t step, size_t steps, const struct clmem_result *r)
{
    if (cli_quiet())
        return;
    char variant[200], outcome[400];
    if (r->sweep[0])
        snprintf(variant, sizeof variant, "%s %s=%u", r->variant, r->sweep, r->sweep_value);
    else
        snprintf(variant, sizeof variant, "%s", r->variant);
    if (r->skipped) {
        snprintf(outcome, sizeof outcome, "skipped: %s", r->skip_reason);
    } else if (r->error[0]) {
        snprintf(outcome, sizeof outcome, "FAILED: %.300s", r->error);
    } else {
        char metric[64];
        clmem_format_metric(r->metric, r->metric_unit, metric, sizeof metric);
        snprintf(outcome, sizeof outcome, "median %.4f ms, %s, %s", r->median_ms, metric,
                 r->verified ? "verified" : "FAILED");
    }
    fprintf(stderr, "clmem: [%zu/%zu] %s %s %s on %s: %s\n", step, steps, r->workload, r->size,
            variant, r->device, outcome);
    fflush(stderr);
}
