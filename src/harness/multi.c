/* Several devices of one host at once: a thread per device, the row split
 * of a problem divided among them, and the totals of their results. */
#include "harness/harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int clmem_split_rows(size_t rows, size_t n, const double *weights, size_t *first, size_t *count,
                     struct clmem_error *err)
{
    if (n == 0)
        return clmem_fail(err, CLMEM_ERR_USAGE, "no device to split %zu rows over", rows);
    double largest = 0.0, total = 0.0;
    for (size_t i = 0; weights && i < n; i++) {
        if (!isfinite(weights[i]) || weights[i] < 0.0)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "split weight %g of device %zu is not a number >= 0", weights[i],
                              i + 1);
        if (weights[i] > largest)
            largest = weights[i];
    }
    if (weights && !(largest > 0.0))
        return clmem_fail(err, CLMEM_ERR_USAGE, "split weights sum to 0: give a device some rows");
    /* Shares of the largest weight, each in [0, 1]: their sum stays finite
     * (1e308 twice overflowed, and every row went to the last device). */
    for (size_t i = 0; weights && i < n; i++)
        total += weights[i] / largest;
    /* Block i ends where the weights before it and its own end: rounding
     * the cumulative share keeps the blocks contiguous and covering every
     * row once, each within one row of its exact share. */
    double before = 0.0;
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        size_t end;
        if (i + 1 == n)
            end = rows;
        else if (!weights)
            end = (size_t)((unsigned long long)rows * (i + 1) / n);
        else {
            before += weights[i] / largest;
            double exact = (double)rows * (before / total);
            end = (size_t)floor(exact + 0.5);
            if (end > rows)
                end = rows;
            if (end < start)
                end = start;
        }
        first[i] = start;
        count[i] = end - start;
        start = end;
    }
    return CLMEM_OK;
}

int clmem_results_total(struct clmem_result **results, size_t *n_results, const size_t *first,
                        const size_t *n_each, size_t n_devices, struct clmem_error *err)
{
    if (n_devices == 0)
        return CLMEM_OK;
    size_t n = n_each[0];
    for (size_t d = 1; d < n_devices; d++)
        if (n_each[d] < n)
            n = n_each[d]; /* interrupted: the variants every device finished */
    for (size_t j = 0; j < n; j++) {
        struct clmem_result total, *t = &total;
        const struct clmem_result *r0 = &(*results)[first[0] + j];
        memset(t, 0, sizeof *t);
        snprintf(t->workload, sizeof t->workload, "%s", r0->workload);
        snprintf(t->variant, sizeof t->variant, "%s", r0->variant);
        snprintf(t->device, sizeof t->device, "total (%zu device%s)", n_devices,
                 n_devices == 1 ? "" : "s");
        snprintf(t->size, sizeof t->size, "%s", r0->size);
        snprintf(t->sweep, sizeof t->sweep, "%s", r0->sweep);
        t->sweep_value = r0->sweep_value;
        snprintf(t->metric_unit, sizeof t->metric_unit, "%s", r0->metric_unit);
        t->baseline_fraction = t->peak_fraction = t->looped_ms = NAN;
        /* Every device ran the same variant, size and options. */
        t->reps = r0->reps;
        t->warmup = r0->warmup;
        t->seed = r0->seed;
        t->flops_per_byte = r0->flops_per_byte;
        snprintf(t->timer, sizeof t->timer, "%s", r0->timer);
        t->runs_per_sample = r0->runs_per_sample;
        t->skipped = 1;
        t->verified = 1;
        size_t ran = 0;
        for (size_t d = 0; d < n_devices; d++) {
            const struct clmem_result *r = &(*results)[first[d] + j];
            if (r->skipped) {
                if (!t->skip_reason[0])
                    snprintf(t->skip_reason, sizeof t->skip_reason, "%s", r->skip_reason);
                continue;
            }
            t->skipped = 0;
            /* A device's error makes the total one too: no figure. */
            if (r->error[0] && !t->error[0])
                snprintf(t->error, sizeof t->error, "%s", r->error);
            ran++;
            t->metric += r->metric;
            if (r->median_ms > t->median_ms)
                t->median_ms = r->median_ms;
            if (r->min_ms > t->min_ms)
                t->min_ms = r->min_ms;
            if (r->max_ms > t->max_ms)
                t->max_ms = r->max_ms;
            if (r->max_rel_error > t->max_rel_error)
                t->max_rel_error = r->max_rel_error;
            t->verified &= r->verified;
        }
        if (t->skipped)
            t->max_rel_error = NAN;
        else
            t->skip_reason[0] = '\0';
        snprintf(t->note, sizeof t->note, "sum over %zu devices at once; slowest device's times",
                 ran);
        struct clmem_result *grown = realloc(*results, (*n_results + 1) * sizeof *grown);
        if (!grown)
            return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
        *results = grown;
        grown[(*n_results)++] = total;
    }
    return CLMEM_OK;
}

struct multi_job {
    const struct clmem_run_options *options;
    struct clmem_run *runs;
    struct clmem_result **results;
    size_t *n_results;
    struct clmem_error *errs;
};

/* A device's results are done under the name the report gives them. */
struct multi_done {
    const struct clmem_run_options *options;
    size_t device;
    const char *name;
};

static void multi_done(void *user, const struct clmem_result *done, size_t index, size_t count)
{
    const struct multi_done *d = user;
    struct clmem_result named = *done;
    snprintf(named.device, sizeof named.device, "#%zu %.100s", d->device + 1, d->name);
    d->options->done(d->options->done_user, &named, index, count);
}

static int multi_execute(void *arg, size_t i)
{
    struct multi_job *job = arg;
    struct clmem_run_options options = *job->options;
    struct multi_done done = {job->options, i, job->runs[i].ctx->device.name};
    if (options.done) {
        options.done = multi_done;
        options.done_user = &done;
    }
    return clmem_run_execute(&job->runs[i], &options, &job->results[i], &job->n_results[i],
                             &job->errs[i]);
}

/* Keeps the first error of the worst status in `err`, its build log moved. */
static void take_error(struct clmem_error *err, int *worst, int status, struct clmem_error *from)
{
    if (status == CLMEM_OK || status == CLMEM_ERR_VERIFY)
        return;
    if (clmem_status_severity(status) > clmem_status_severity(*worst)) {
        clmem_error_clear(err);
        *err = *from;
        from->log = NULL;
    }
    *worst = clmem_status_worst(*worst, status);
}

int clmem_run_multi(const struct clmem_workload *workload, struct clmem_ctx *ctxs, size_t n,
                    const struct clmem_run_options *options, struct clmem_result **results,
                    size_t *n_results, struct clmem_error *err)
{
    struct clmem_run *runs = calloc(n, sizeof *runs);
    struct clmem_result **each = calloc(n, sizeof *each);
    size_t *n_each = calloc(n, sizeof *n_each), *first = calloc(n, sizeof *first);
    struct clmem_error *errs = calloc(n, sizeof *errs);
    int *status = calloc(n, sizeof *status);
    int worst = CLMEM_OK, verify_failed = 0;
    if (!runs || !each || !n_each || !first || !errs || !status) {
        worst = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
        goto cleanup;
    }
    /* Every device's plan first: a size one of them cannot hold is a usage
     * error before any work. */
    for (size_t i = 0; i < n; i++)
        if ((worst = clmem_run_plan(&runs[i], workload, &ctxs[i], options, err)))
            goto cleanup;
    struct multi_job job = {options, runs, each, n_each, errs};
    clmem_parallel(n, multi_execute, &job, status);
    for (size_t i = 0; i < n; i++) {
        verify_failed |= status[i] == CLMEM_ERR_VERIFY;
        take_error(err, &worst, status[i], &errs[i]);
    }
    /* An OpenCL error leaves its FAILED results (clmem_run_execute's):
     * kept, as a run on one device keeps them. */
    if (worst != CLMEM_OK && worst != CLMEM_ERR_INTERRUPTED && worst != CLMEM_ERR_CL)
        goto cleanup;
    /* Device 0's results, then 1's, ..., then the totals. */
    for (size_t i = 0; i < n; i++) {
        first[i] = *n_results;
        struct clmem_result *grown =
            n_each[i] ? realloc(*results, (*n_results + n_each[i]) * sizeof *grown) : *results;
        if (n_each[i] && !grown) {
            worst = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
            goto cleanup;
        }
        *results = grown;
        /* "#2 NAME": the same device may be in the list twice (as multi_done). */
        for (size_t j = 0; j < n_each[i]; j++) {
            grown[*n_results + j] = each[i][j];
            snprintf(grown[*n_results + j].device, sizeof grown->device, "#%zu %.100s", i + 1,
                     ctxs[i].device.name);
        }
        *n_results += n_each[i];
        free(each[i]); /* the samples now belong to *results */
        each[i] = NULL;
        n_each[i] = *n_results - first[i];
    }
    int total = clmem_results_total(results, n_results, first, n_each, n, err);
    if (total)
        worst = total;
    if (worst == CLMEM_OK && verify_failed)
        worst = CLMEM_ERR_VERIFY;
cleanup:
    for (size_t i = 0; i < n && runs && each && n_each && errs; i++) {
        clmem_run_release(&runs[i]); /* also those never planned: zeroed */
        if (each[i])
            clmem_results_free(each[i], n_each[i]);
        clmem_error_clear(&errs[i]);
    }
    free(runs);
    free(each);
    free(n_each);
    free(first);
    free(errs);
    free(status);
    return worst;
}
