/* The tuning search (clmem tune): a tunable variant's search space on one
 * device, the built-in parameters first, every candidate built, run and
 * verified, the best kept in the tuning database (CLBlast's tuners, in
 * small). Where the workload retunes, the inputs and the reference are
 * set up once for the whole search: on a GPU they cost far more than a
 * candidate's kernels. */
#include "harness/harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How many values parameter p tries. */
static size_t n_values(const struct clmem_tune_param *p)
{
    size_t k = 0;
    while (k < CLMEM_MAX_TUNE_VALUES && p->values[k])
        k++;
    return k;
}

/* Every combination of the search space that the device can run,
 * CLMEM_MAX_PARAMS ints each (malloc'd; NULL when out of memory). */
static int *candidates(const struct clmem_tunable *t, const struct clmem_device *device,
                       size_t *count)
{
    size_t total = 1, n = 0;
    for (size_t p = 0; p < t->n_params; p++)
        total *= n_values(&t->params[p]);
    int *all = malloc((total ? total : 1) * CLMEM_MAX_PARAMS * sizeof *all);
    if (!all)
        return NULL;
    for (size_t i = 0; i < total; i++) {
        int v[CLMEM_MAX_PARAMS] = {0};
        size_t rest = i;
        for (size_t p = 0; p < t->n_params; p++) {
            size_t k = n_values(&t->params[p]);
            v[p] = t->params[p].values[rest % k];
            rest /= k;
        }
        if (t->valid(device, v))
            memcpy(&all[n++ * CLMEM_MAX_PARAMS], v, sizeof v);
    }
    *count = n;
    return all;
}

/* One run of the tunable variant, as `options` ask. `shared` NULL: a
 * whole clmem_run. Else the search's one run, for a workload that
 * retunes: the built-in parameters (no tune_values) plan it and set it up,
 * and each candidate after them retunes it, so that every candidate runs
 * on the inputs and is checked against the reference set up once. */
static int run_once(struct clmem_ctx *ctx, const struct clmem_workload *w,
                    const struct clmem_run_options *options, struct clmem_run *shared,
                    struct clmem_result **results, size_t *n, struct clmem_error *err)
{
    if (!shared)
        return clmem_run(ctx, w, options, results, n, err);
    int status;
    if (!options->tune_values) {
        if ((status = clmem_run_plan(shared, w, ctx, options, err)) ||
            (status = clmem_run_setup(shared, options, results, n, err)))
            return status;
    } else {
        shared->tune_values = options->tune_values;
        if ((status = w->retune(shared, err)))
            return status;
    }
    return clmem_run_variants(shared, options, results, n, err);
}

/* One run of the tunable variant with `values` (NULL: the built-in
 * parameters): c's metric, params and status (err keeps the message). */
static void measure(struct clmem_ctx *ctx, const struct clmem_workload *w,
                    const struct clmem_tunable *t, const struct clmem_tune_options *o,
                    const int *values, struct clmem_run *shared, struct clmem_tune_candidate *c,
                    struct clmem_error *err)
{
    struct clmem_run_options options = {.size = o->size,
                                        .variant = t->variant,
                                        .reps = o->reps,
                                        .warmup = CLMEM_DEFAULT_WARMUP,
                                        .seed = o->seed,
                                        .tune_values = values,
                                        .ignore_tuning = 1,
                                        .cancelled = o->cancelled,
                                        .cancelled_user = o->cancelled_user};
    struct clmem_result *results = NULL;
    size_t n = 0;
    int status = run_once(ctx, w, &options, shared, &results, &n, err);
    if (status == CLMEM_OK && (n != 1 || !results[0].verified))
        status = clmem_fail(err, CLMEM_ERR_VERIFY, "'%s' did not verify", t->variant);
    c->status = status;
    c->metric = status == CLMEM_OK ? results[0].metric : -1;
    c->min_ms = status == CLMEM_OK ? results[0].min_ms : 0;
    c->max_ms = status == CLMEM_OK ? results[0].max_ms : 0;
    /* A retune the driver refused leaves no result: the run's params
     * name what it tried to build. */
    const char *params = shared ? shared->params : "";
    snprintf(c->params, sizeof c->params, "%s", n ? results[0].params : params);
    if (values)
        memcpy(c->values, values, sizeof c->values);
    clmem_results_free(results, n);
}

/* The tunable parameters' values in a result's -D options ("-DTSM=64 ..."). */
static int values_from_params(const struct clmem_tunable *t, const char *params, int values[])
{
    for (size_t i = 0; i < t->n_params; i++) {
        char key[64];
        snprintf(key, sizeof key, "-D%s=", t->params[i].name);
        const char *at = strstr(params, key);
        if (!at || (values[i] = atoi(at + strlen(key))) <= 0)
            return 0;
    }
    return 1;
}

int clmem_tune_beats(const struct clmem_tune_candidate *c,
                     const struct clmem_tune_candidate *builtin)
{
    if (c->status != CLMEM_OK || !(c->metric > 0) || !(builtin->metric > 0))
        return 0;
    /* Higher is better, and times go the other way: the candidate's
     * slowest sample must be faster than the built-in's fastest. */
    return c->metric > builtin->metric * (1 + CLMEM_TUNE_THRESHOLD / 100) &&
           c->max_ms < builtin->min_ms;
}

int clmem_tune(struct clmem_ctx *ctx, const struct clmem_workload *w, const struct clmem_tunable *t,
               const struct clmem_tune_options *o, struct clmem_tune_result *result,
               struct clmem_error *err)
{
    struct clmem_run_settings settings;
    size_t n_all = 0;
    memset(result, 0, sizeof *result);
    int status =
        clmem_run_normalise(w, &(struct clmem_run_options){.size = o->size}, &settings, err);
    if (status)
        return status;
    const struct clmem_size size = settings.size;
    int *all = candidates(t, &ctx->device, &n_all);
    if (!all)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    size_t take = n_all < o->max_candidates ? n_all : o->max_candidates;
    result->candidates = n_all;
    /* Where the workload can retune, one run set up for the whole search:
     * the inputs and the reference do not depend on the candidate. */
    struct clmem_run run_storage = {0}, *shared = w->retune ? &run_storage : NULL;
    /* The reference: the built-in parameters, planned as run would. */
    double last_ms = clmem_now_ms();
    measure(ctx, w, t, o, NULL, shared, &result->builtin, err);
    last_ms = clmem_now_ms() - last_ms;
    if ((status = result->builtin.status))
        goto done;
    if (!values_from_params(t, result->builtin.params, result->builtin.values)) {
        status = clmem_fail(err, CLMEM_ERR_CL, "the built-in parameters '%s' do not name %s's",
                            result->builtin.params, t->variant);
        goto done;
    }
    if (o->measured)
        o->measured(o->user, 0, take, &result->builtin);
    /* The built-in setting is the one to beat, and what is kept when no
     * candidate beats it: tuning improves or keeps. */
    result->best = result->builtin;
    /* A stride coprime with n_all visits every candidate once, spread over
     * all the parameters rather than along the last one. */
    size_t stride = n_all * 618 / 1000 + 1;
    while (n_all > 1 && clmem_gcd(stride, n_all) != 1)
        stride++;
    for (size_t i = 0; i < take; i++) {
        if (o->cancelled && o->cancelled(o->cancelled_user)) {
            status = clmem_fail(err, CLMEM_ERR_INTERRUPTED, "interrupted");
            goto done;
        }
        /* A candidate that would end past the deadline (the last one's
         * time ahead of it) does not start. */
        double now = clmem_now_ms();
        if (o->deadline_ms > 0 && now + last_ms > o->deadline_ms)
            break;
        struct clmem_tune_candidate c = {0};
        /* A candidate that fails (a build the driver refuses, a check) is
         * listed and passed over. */
        measure(ctx, w, t, o, &all[(i * stride % n_all) * CLMEM_MAX_PARAMS], shared, &c, err);
        result->tried++;
        last_ms = clmem_now_ms() - now;
        if (c.status == CLMEM_ERR_INTERRUPTED) {
            status = c.status;
            goto done;
        }
        clmem_error_clear(err);
        if (o->measured)
            o->measured(o->user, i + 1, take, &c);
        /* Noise is not a gain: only a candidate clearly faster than the
         * built-in parameters replaces them, the fastest of those kept. */
        if (c.status == CLMEM_OK && clmem_tune_beats(&c, &result->builtin) &&
            c.metric > result->best.metric)
            result->best = c;
    }
    char shape[64];
    clmem_size_shape(&size, shape, sizeof shape);
    const struct clmem_tuning_outcome outcome = {result->best.metric, result->builtin.metric,
                                                 w->metric_unit,
                                                 result->best.metric == result->builtin.metric,
                                                 shape};
    status = clmem_tuning_store(ctx, w, t, &size, result->best.values, &outcome, err);
done:
    if (shared)
        clmem_run_release(shared);
    free(all);
    return status;
}
