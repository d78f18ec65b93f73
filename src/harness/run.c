/* The one loop every workload goes through: plan, set up, warm up, time,
 * verify, summarise. Workloads only describe what differs. */
#include "harness/harness.h"
#include "harness/traffic.h"
#include "power/power.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The parts --size may have (struct clmem_workload's max_dims: 1 or 2;
 * every size has at most 3). */
static int check_dims(const struct clmem_run *run, struct clmem_error *err)
{
    int max = run->workload->max_dims ? run->workload->max_dims : 3;
    if (run->size.ndims <= max)
        return CLMEM_OK;
    char text[64];
    clmem_size_format(&run->size, text, sizeof text);
    if (max == 1)
        return clmem_fail(err, CLMEM_ERR_USAGE, "size '%s' of '%s' must be one number, %s", text,
                          run->workload->name, run->workload->size_help);
    return clmem_fail(err, CLMEM_ERR_USAGE,
                      "size '%s' of '%s' has %d parts: it takes N or WxH (%s)", text,
                      run->workload->name, run->size.ndims, run->workload->size_help);
}

/* The size's elements: the product of the parts the workload takes (a
 * single N stands for each of them: N x N for a WxH workload). */
static double elements(const struct clmem_run *run)
{
    int dims = run->workload->max_dims ? run->workload->max_dims : 3;
    double n = 1.0;
    for (int i = 0; i < dims; i++)
        n *= (double)run->size.dim[i];
    return n;
}

struct clmem_run_options clmem_run_options_defaults(const struct clmem_run_options *given)
{
    struct clmem_run_options o = *given;
    if (o.reps == 0)
        o.reps = 1;
    if (o.loop_reps == 0)
        o.loop_reps = CLMEM_DEFAULT_LOOP_REPS;
    if (o.variant && strcmp(o.variant, "all") == 0)
        o.variant = NULL;
    return o;
}

int clmem_run_counts_check(const char *who, unsigned reps, unsigned warmup, struct clmem_error *err)
{
    CLMEM_REFUSE_IF(reps > CLMEM_MAX_REPS, err, "%s: reps %u is out of range (1 to %u)", who, reps,
                    CLMEM_MAX_REPS);
    CLMEM_REFUSE_IF(warmup > CLMEM_MAX_WARMUP, err, "%s: warmup %u is out of range (0 to %u)", who,
                    warmup, CLMEM_MAX_WARMUP);
    return CLMEM_OK;
}

int clmem_run_normalise(const struct clmem_workload *workload,
                        const struct clmem_run_options *given, struct clmem_run_settings *settings,
                        struct clmem_error *err)
{
    memset(settings, 0, sizeof *settings);
    int status = clmem_run_counts_check("clmem_run", given->reps, given->warmup, err);
    if (status)
        return status;
    settings->options = clmem_run_options_defaults(given);
    settings->size_text = given->size ? given->size : workload->default_size;
    if (given->input && !workload->input_help)
        return clmem_fail(err, CLMEM_ERR_USAGE, "workload '%s' takes no --input", workload->name);
    /* An input file (blur's image) gives the size itself. */
    if (given->input && given->size)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--size '%s' and --input '%s' both give the size: leave out --size",
                          given->size, given->input);
    return clmem_size_parse(settings->size_text, &settings->size, err);
}

int clmem_run_plan(struct clmem_run *run, const struct clmem_workload *workload,
                   struct clmem_ctx *ctx, const struct clmem_run_options *options,
                   struct clmem_error *err)
{
    struct clmem_run_settings settings;
    memset(run, 0, sizeof *run);
    int status = clmem_run_normalise(workload, options, &settings, err);
    return status ? status : clmem_run_plan_normalised(run, workload, ctx, &settings, err);
}

int clmem_run_plan_normalised(struct clmem_run *run, const struct clmem_workload *workload,
                              struct clmem_ctx *ctx, const struct clmem_run_settings *settings,
                              struct clmem_error *err)
{
    const struct clmem_run_options *options = &settings->options;
    int status;
    memset(run, 0, sizeof *run);
    run->workload = workload;
    run->ctx = ctx;
    run->seed = options->seed;
    run->input = options->input;
    run->image_output = options->image_output;
    run->tune_values = options->tune_values;
    run->ignore_tuning = options->ignore_tuning;
    run->size = settings->size;
    if ((status = clmem_params_check(workload, err)) ||
        (status = clmem_compare_check(workload, options->compare, err)) ||
        (status = clmem_compare_fits(options->compare, &ctx->device, err)))
        return status;

    if (!options->variant) {
        /* A library's routine runs only when the run compares with it. */
        for (size_t i = 0; i < workload->n_variants && i < CLMEM_MAX_VARIANTS; i++) {
            const struct clmem_variant *v = &workload->variants[i];
            if (options->peaks_only && v->peak == CLMEM_PEAK_NONE)
                continue;
            if (!v->library || (options->compare && strcmp(v->library, options->compare) == 0))
                run->variants[run->n_variants++] = v;
        }
    } else {
        const struct clmem_variant *v = clmem_variant_find(workload, options->variant);
        if (!v)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "unknown variant '%s' of '%s' (try 'clmem list %s')",
                              options->variant, workload->name, workload->name);
        if (v->library && (status = clmem_compare_check(workload, v->library, err)))
            return status;
        /* Named alone, a variant the device cannot run is refused; under
         * "all" it is listed as skipped. */
        if (v->needs_extension && !clmem_device_has_extension(&ctx->device, v->needs_extension))
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "variant '%s' of '%s' needs %s, which '%s' "
                              "does not report",
                              v->name, workload->name, v->needs_extension, ctx->device.name);
        char why[256];
        /* Named alone, a variant that cannot take this size is a usage error;
         * under "all" it is only skipped (see clmem_run_execute). */
        if (v->unsupported && v->unsupported(run, why, sizeof why))
            return clmem_fail(err, CLMEM_ERR_USAGE, "variant '%s' of '%s': %s", v->name,
                              workload->name, why);
        run->variants[run->n_variants++] = v;
        /* --compare LIB with one variant: LIB's routine runs beside it, so
         * the ratio the option promises is there. */
        for (size_t i = 0; options->compare && !v->library && i < workload->n_variants; i++) {
            const struct clmem_variant *lib = &workload->variants[i];
            if (lib->library && strcmp(lib->library, options->compare) == 0)
                run->variants[run->n_variants++] = lib;
        }
    }
    /* Read once, here: a pipe or /dev/stdin has no second reading. */
    if (options->input &&
        (status = clmem_input_read(options->input, &run->input_data, &run->input_size, err)))
        return status;
    if ((status = check_dims(run, err)) || (status = workload->plan(run, err)))
        return status;

    /* Refuse what the device cannot hold, before anything is allocated. */
    cl_ulong total = 0;
    char size_str[64];
    clmem_size_format(&run->size, size_str, sizeof size_str);
    for (size_t i = 0; i < run->n_buffers; i++) {
        if (run->buffer_bytes[i] > ctx->device.max_alloc)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "size '%s' needs a buffer of %zu bytes, more than the %llu bytes "
                              "'%s' can allocate at once",
                              size_str, run->buffer_bytes[i],
                              (unsigned long long)ctx->device.max_alloc, ctx->device.name);
        total += run->buffer_bytes[i];
    }
    if (total > ctx->device.global_mem)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "size '%s' needs %llu bytes of device memory, more than the %llu "
                          "bytes '%s' has",
                          size_str, (unsigned long long)total,
                          (unsigned long long)ctx->device.global_mem, ctx->device.name);
    if (workload->state_size) {
        run->state = calloc(1, workload->state_size);
        if (!run->state)
            return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    }
    return CLMEM_OK;
}

void clmem_run_release(struct clmem_run *run)
{
    if (run->state && run->workload->teardown)
        run->workload->teardown(run);
    free(run->state);
    run->state = NULL;
    free(run->input_data);
    run->input_data = NULL;
    clmem_run_release_programs(run);
    /* After the teardown, which released the outputs inside the zones. */
    clmem_run_release_guards(run);
}

void clmem_result_summarise(struct clmem_result *r)
{
    size_t n = r->n_samples;
    if (n == 0)
        return;
    r->min_ms = r->max_ms = r->samples_ms[0];
    for (size_t i = 1; i < n; i++) {
        if (r->samples_ms[i] < r->min_ms)
            r->min_ms = r->samples_ms[i];
        if (r->samples_ms[i] > r->max_ms)
            r->max_ms = r->samples_ms[i];
    }
    r->median_ms = clmem_median(r->samples_ms, n);
}

/* A batch of one variant's runs, or of its loop-in-the-kernel runs. */
struct batch_job {
    struct clmem_run *run;
    const struct clmem_variant *v;
    unsigned loop_reps; /* 0: the plain run */
    unsigned long runs; /* runs made, which the energy meter divides among */
};

static int run_batch(void *user, unsigned runs, struct clmem_batch *batch, struct clmem_error *err)
{
    struct batch_job *job = user;
    struct clmem_run *run = job->run;
    job->runs += runs;
    /* Each run's events apart, so that each run's own span can be summed;
     * past CLMEM_MAX_RUN_SPANS runs one timing holds the batch's. */
    int apart = runs <= CLMEM_MAX_RUN_SPANS;
    struct clmem_timing *timing = calloc(apart ? runs : 1, sizeof *timing);
    if (!timing)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    int status = CLMEM_OK;
    double start = clmem_now_ms();
    for (unsigned i = 0; i < runs && status == CLMEM_OK; i++) {
        struct clmem_timing *t = &timing[apart ? i : 0];
        t->untraced = i > 0;
        t->end_by_marker = 1;
        status = job->loop_reps ? run->workload->execute_looped(run, job->v, job->loop_reps, t, err)
                                : run->workload->execute(run, job->v, t, err);
        if (status == CLMEM_OK && (apart || i + 1 == runs))
            status = clmem_timing_end(run->ctx, t, err);
    }
    if (status) {
        clFinish(run->ctx->queue);
        for (unsigned i = 0; i < (apart ? runs : 1); i++)
            clmem_timing_release(&timing[i]);
    } else {
        status = clmem_timing_finish(run->ctx, timing, apart ? runs : 1, &batch->events, err);
        batch->wall_ms = clmem_now_ms() - start;
        if (!apart)
            batch->events.runs_ms = 0;
    }
    free(timing);
    return status;
}

/* reps samples of the job into a result's samples (allocated here). */
static int sample_job(struct batch_job *job, unsigned reps, struct clmem_result *r,
                      struct clmem_sampling *how, struct clmem_error *err)
{
    r->samples_ms = calloc(reps, sizeof *r->samples_ms);
    if (!r->samples_ms)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    int status = clmem_sample(&job->run->ctx->clock, reps, run_batch, job, r->samples_ms, how, err);
    if (status == CLMEM_OK) {
        r->n_samples = reps;
        clmem_result_summarise(r);
    }
    return status;
}

static int median_of_looped(struct clmem_run *run, const struct clmem_variant *v,
                            const struct clmem_run_options *options, struct clmem_result *r,
                            struct clmem_error *err)
{
    struct batch_job job = {run, v, options->loop_reps, 0};
    struct clmem_result looped = {.n_samples = 0};
    struct clmem_sampling how;
    int status = sample_job(&job, options->reps, &looped, &how, err);
    if (status == CLMEM_OK)
        r->looped_ms = looped.median_ms / job.loop_reps;
    free(looped.samples_ms);
    return status;
}

/* Adds a second check of the same variant to the first. */
static void merge_checks(struct clmem_check *into, const struct clmem_check *from,
                         const char *label)
{
    for (size_t i = 0; i < from->mismatches && i < CLMEM_MAX_MISMATCH_LINES; i++) {
        size_t slot = into->mismatches + i;
        if (slot < CLMEM_MAX_MISMATCH_LINES)
            snprintf(into->lines[slot], sizeof into->lines[slot], "%.100s (%s)", from->lines[i],
                     label);
    }
    into->mismatches += from->mismatches;
    into->checked += from->checked;
    if (from->max_rel_error > into->max_rel_error)
        into->max_rel_error = from->max_rel_error;
}

/* Adds `first`'s mismatches to a check, their lines before its own: a
 * write outside an output is named even when the values it spoiled fill
 * the lines. */
static void prepend_mismatches(struct clmem_check *check, const struct clmem_check *first)
{
    char lines[CLMEM_MAX_MISMATCH_LINES][sizeof check->lines[0]];
    size_t kept =
        check->mismatches < CLMEM_MAX_MISMATCH_LINES ? check->mismatches : CLMEM_MAX_MISMATCH_LINES;
    memcpy(lines, check->lines, sizeof lines);
    size_t k = 0;
    for (size_t i = 0; i < first->mismatches && k < CLMEM_MAX_MISMATCH_LINES; i++)
        memcpy(check->lines[k++], first->lines[i], sizeof lines[0]);
    for (size_t i = 0; i < kept && k < CLMEM_MAX_MISMATCH_LINES; i++)
        memcpy(check->lines[k++], lines[i], sizeof lines[0]);
    check->mismatches += first->mismatches;
    check->checked += first->checked;
}

/* --energy: the variant's runs go on, untimed, until the counter has had
 * the span it reads well since `before`, each batch twice the last (the
 * first as many runs as the sampling made, at most 64); a stop asked for
 * ends it between batches, the result kept. `after` is read again after
 * each batch. The energy per run is the span's over
 * every run, timed or not: they are the same kernel at the same size. */
static int energy_top_up(struct batch_job *job, const struct clmem_run_options *options,
                         const struct clmem_energy_meter *meter,
                         const struct clmem_energy_reading *before,
                         struct clmem_energy_reading *after, struct clmem_error *err)
{
    double need_ms = clmem_energy_min_span_ms(meter);
    unsigned batch = job->runs > 0 && job->runs < 64 ? (unsigned)job->runs : 64;
    struct clmem_batch ignored;
    while (meter->source[0] && before->ok && after->ok && after->t_ms - before->t_ms < need_ms) {
        if (options->cancelled && options->cancelled(options->cancelled_user))
            break; /* the result is kept, its energy n/a; the run stops before the next */
        int status = run_batch(job, batch, &ignored, err);
        if (status)
            return status;
        clmem_energy_read(meter, after);
        if (batch < 1u << 16)
            batch *= 2;
    }
    return CLMEM_OK;
}

static int run_variant(struct clmem_run *run, const struct clmem_variant *v,
                       const struct clmem_run_options *options,
                       const struct clmem_energy_meter *meter, struct clmem_result *r,
                       struct clmem_error *err)
{
    const struct clmem_workload *w = run->workload;
    char why[256];
    if (v->needs_extension && !clmem_device_has_extension(&run->ctx->device, v->needs_extension)) {
        r->skipped = 1;
        snprintf(r->skip_reason, sizeof r->skip_reason, "needs %s, which '%s' does not report",
                 v->needs_extension, run->ctx->device.name);
        return CLMEM_OK;
    }
    if (v->unsupported && v->unsupported(run, why, sizeof why)) {
        r->skipped = 1;
        snprintf(r->skip_reason, sizeof r->skip_reason, "%s", why);
        return CLMEM_OK;
    }
    int status;
    if (w->prepare && (status = w->prepare(run, v, err)))
        return status;
    struct batch_job job = {run, v, 0, 0};
    struct clmem_batch ignored;
    for (unsigned i = 0; i < options->warmup; i++)
        if ((status = run_batch(&job, 1, &ignored, err)))
            return status;
    struct clmem_sampling how;
    /* The device's energy counter around every run the sampling makes. */
    struct clmem_energy_reading before, after;
    job.runs = 0;
    clmem_energy_read(meter, &before);
    if ((status = sample_job(&job, options->reps, r, &how, err)))
        return status;
    clmem_energy_read(meter, &after);
    if (options->energy && (status = energy_top_up(&job, options, meter, &before, &after, err)))
        return status;
    snprintf(r->timer, sizeof r->timer, "%s", how.host ? "host" : "events");
    r->runs_per_sample = how.runs_per_sample;
    /* A time is never zero: sampling refuses a clock that does not advance. */
    double work = w->work ? w->work(run, v) : w->work_per_element * elements(run);
    r->metric = work / (r->median_ms * 1e-3) / 1e9;
    clmem_energy_result(r, meter, &before, &after, job.runs);

    struct clmem_check check, looped_check;
    clmem_check_init(&check, 0);
    if ((status = w->verify(run, v, &check, err)))
        return status;
    /* The loop-in-kernel timing's output is checked on its own, from a
     * poisoned buffer, so a later pass cannot hide an earlier pass's error. */
    if (w->execute_looped) {
        if ((w->prepare && (status = w->prepare(run, v, err))) ||
            (status = median_of_looped(run, v, options, r, err)))
            return status;
        clmem_check_init(&looped_check, 0);
        if ((status = w->verify(run, v, &looped_check, err)))
            return status;
        merge_checks(&check, &looped_check, "with the loop in the kernel");
    }
    /* Every run of the variant since the last check (warm-up, timed,
     * looped) wrote only inside its outputs. */
    struct clmem_check guards;
    clmem_check_init(&guards, 0);
    if ((status = clmem_run_check_guards(run, &guards, err)))
        return status;
    prepend_mismatches(&check, &guards);
    clmem_result_set_check(r, &check);
    if (r->verified && w->save_output && (status = w->save_output(run, v, err)))
        return status;
    size_t index = (size_t)(v - w->variants);
    if (index < CLMEM_MAX_VARIANTS && run->from_database[index])
        snprintf(r->note, sizeof r->note, "%.200s%stuned parameters (clmem tune)", check.note,
                 check.note[0] ? "; " : "");
    else
        snprintf(r->note, sizeof r->note, "%s", check.note);
    /* Why the host's clock timed it, where the device's clock passed. */
    if (how.host && run->ctx->clock.events_ok) {
        size_t len = strlen(r->note);
        snprintf(r->note + len, sizeof r->note - len, "%shost clock: %s", len ? "; " : "", how.why);
    }
    return CLMEM_OK;
}

void clmem_result_set_check(struct clmem_result *r, const struct clmem_check *check)
{
    r->max_rel_error = check->max_rel_error;
    r->verified = clmem_check_passed(check);
    snprintf(r->verify_scope, sizeof r->verify_scope, "%s", check->scope);
    if (!r->verified) {
        size_t len = (size_t)snprintf(r->verify_detail, sizeof r->verify_detail,
                                      "%zu of %zu values differ from the CPU reference",
                                      check->mismatches, check->checked);
        for (size_t i = 0; i < check->mismatches && i < CLMEM_MAX_MISMATCH_LINES; i++)
            if (len < sizeof r->verify_detail)
                len += (size_t)snprintf(r->verify_detail + len, sizeof r->verify_detail - len,
                                        "\n  %s", check->lines[i]);
    }
}

struct clmem_result *clmem_result_append(struct clmem_result **results, size_t *n_results,
                                         const char *workload, const char *variant,
                                         const char *device, const char *size)
{
    struct clmem_result *grown = realloc(*results, (*n_results + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    *results = grown;
    struct clmem_result *r = &grown[(*n_results)++];
    memset(r, 0, sizeof *r);
    snprintf(r->workload, sizeof r->workload, "%s", workload);
    snprintf(r->variant, sizeof r->variant, "%s", variant);
    snprintf(r->device, sizeof r->device, "%s", device);
    snprintf(r->size, sizeof r->size, "%s", size);
    r->max_rel_error = r->baseline_fraction = r->peak_fraction = r->looped_ms = NAN;
    r->flops_per_byte = NAN;
    r->bound.ratio = NAN;
    r->reps = 1;
    return r;
}

static struct clmem_result *new_result(struct clmem_run *run, const struct clmem_variant *v,
                                       const struct clmem_run_options *options,
                                       struct clmem_result **results, size_t *n_results)
{
    char size[64];
    clmem_size_format(&run->size, size, sizeof size);
    struct clmem_result *r = clmem_result_append(results, n_results, run->workload->name, v->name,
                                                 run->ctx->device.name, size);
    if (!r)
        return NULL;
    snprintf(r->metric_unit, sizeof r->metric_unit, "%s",
             v->metric_unit ? v->metric_unit : run->workload->metric_unit);
    snprintf(r->roof, sizeof r->roof, "%s", v->roof ? v->roof : "");
    if (v->sweep) {
        snprintf(r->sweep, sizeof r->sweep, "%s", v->sweep);
        r->sweep_value = run->sweep_value;
    }
    r->reps = options->reps;
    r->warmup = options->warmup;
    r->seed = run->seed;
    r->flops_per_byte =
        run->workload->intensity ? run->workload->intensity(run, v) : run->workload->flops_per_byte;
    r->demonstrates_failure = v->demonstrates_failure;
    clmem_bound_declare(run, v, &r->bound);
    return r;
}

/* What the variants are measured against: the library compared with when
 * there is one (matmul against CLBlast), else the workload's own baseline. */
static const char *baseline_of(const struct clmem_workload *w, const char *compare)
{
    for (size_t i = 0; compare && i < w->n_variants; i++)
        if (w->variants[i].library && strcmp(w->variants[i].library, compare) == 0)
            return w->variants[i].name;
    return w->baseline;
}

/* Each result's metric as a fraction of the baseline variant's at the same point. */
static void compare_with_baseline(const char *baseline, struct clmem_result *results, size_t first,
                                  size_t n)
{
    if (!baseline)
        return;
    for (size_t i = first; i < n; i++) {
        if (results[i].skipped || results[i].error[0])
            continue;
        for (size_t b = first; b < n; b++)
            if (!results[b].skipped && strcmp(results[b].variant, baseline) == 0 &&
                results[b].sweep_value == results[i].sweep_value && results[b].metric > 0)
                results[i].baseline_fraction = results[i].metric / results[b].metric;
    }
}

/* An OpenCL error (kernels that do not build, a call that fails) stops
 * the run at variant `from`: it and every variant after it are FAILED
 * results that carry the error, never absent ones, so that a saved run,
 * its diff and its comparison show what did not run. Returns status, the
 * error still the run's. Interruptions and usage errors (a size the
 * device cannot hold, which the suite lists as skipped) leave no result. */
static int fail_from(struct clmem_run *run, size_t from, const struct clmem_run_options *options,
                     int status, struct clmem_error *err, struct clmem_result **results,
                     size_t *n_results)
{
    if (status != CLMEM_ERR_CL)
        return status;
    for (size_t i = from; i < run->n_variants; i++) {
        const struct clmem_variant *v = run->variants[i];
        unsigned last = v->sweep ? v->sweep_last : 0;
        for (unsigned point = v->sweep ? v->sweep_first : 0; point <= last; point++) {
            run->sweep_value = point;
            struct clmem_result *r = new_result(run, v, options, results, n_results);
            if (!r)
                return status;
            r->median_ms = r->min_ms = r->max_ms = r->metric = NAN;
            if (i == from)
                snprintf(r->error, sizeof r->error, "%.255s", err->message);
            else
                snprintf(r->error, sizeof r->error, "not run: %s stopped the run: %.200s",
                         run->variants[from]->name, err->message);
            snprintf(r->params, sizeof r->params, "%s", run->params);
            if (options->done)
                options->done(options->done_user, r, i, run->n_variants);
        }
    }
    return status;
}

int clmem_run_setup(struct clmem_run *run, const struct clmem_run_options *given,
                    struct clmem_result **results, size_t *n_results, struct clmem_error *err)
{
    const struct clmem_run_options options = clmem_run_options_defaults(given);
    int status = run->workload->setup(run, err);
    if (status)
        return fail_from(run, 0, &options, status, err, results, n_results);
    /* Once per context: whether the device's events can time the samples. */
    if (!run->ctx->clock.checked && clmem_clock_check(run->ctx, err) != CLMEM_OK) {
        if (err->status == CLMEM_ERR_INTERRUPTED)
            return err->status;
        run->ctx->clock.checked = 1;
        snprintf(run->ctx->clock.why, sizeof run->ctx->clock.why, "the check failed: %.150s",
                 err->message);
        clmem_error_clear(err);
    }
    return CLMEM_OK;
}

static int run_variants(struct clmem_run *run, const struct clmem_run_options *given,
                        const struct clmem_energy_meter *meter, struct clmem_result **results,
                        size_t *n_results, struct clmem_error *err)
{
    const struct clmem_run_options normalised = clmem_run_options_defaults(given);
    const struct clmem_run_options *options = &normalised;
    const struct clmem_workload *w = run->workload;
    int status, verify_failed = 0, interrupted = 0;
    size_t first = *n_results;
    for (size_t i = 0; i < run->n_variants && !interrupted; i++) {
        const struct clmem_variant *v = run->variants[i];
        unsigned last = v->sweep ? v->sweep_last : 0;
        for (unsigned point = v->sweep ? v->sweep_first : 0; point <= last; point++) {
            /* Stop between variants: what finished is kept whole. */
            if (options->cancelled && options->cancelled(options->cancelled_user)) {
                interrupted = 1;
                break;
            }
            run->sweep_value = point;
            struct clmem_result *r = new_result(run, v, options, results, n_results);
            if (!r)
                return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
            if (options->progress)
                options->progress(options->progress_user, r, i, run->n_variants);
            if ((status = run_variant(run, v, options, meter, r, err))) {
                /* The error is reported; the result is this variant's
                 * FAILED one, which fail_from makes again from scratch. */
                clmem_result_free(r);
                (*n_results)--;
                compare_with_baseline(baseline_of(w, options->compare), *results, first,
                                      *n_results);
                return fail_from(run, i, options, status, err, results, n_results);
            }
            /* Parameters are known once set-up has built the program. */
            snprintf(r->params, sizeof r->params, "%s", run->params);
            if (options->done)
                options->done(options->done_user, r, i, run->n_variants);
            if (!r->skipped && !r->verified)
                verify_failed = 1;
            /* A sweep the device cannot run is one skipped result, not one per point. */
            if (r->skipped && v->needs_extension &&
                !clmem_device_has_extension(&run->ctx->device, v->needs_extension))
                break;
        }
    }
    compare_with_baseline(baseline_of(w, options->compare), *results, first, *n_results);
    if (interrupted)
        return clmem_fail(err, CLMEM_ERR_INTERRUPTED, "interrupted");
    return verify_failed ? CLMEM_ERR_VERIFY : CLMEM_OK;
}

int clmem_run_variants(struct clmem_run *run, const struct clmem_run_options *given,
                       struct clmem_result **results, size_t *n_results, struct clmem_error *err)
{
    struct clmem_energy_meter meter;
    clmem_energy_open(&meter, &run->ctx->device);
    int status = run_variants(run, given, &meter, results, n_results, err);
    clmem_energy_close(&meter);
    return status;
}

int clmem_run_execute(struct clmem_run *run, const struct clmem_run_options *given,
                      struct clmem_result **results, size_t *n_results, struct clmem_error *err)
{
    int status = clmem_run_setup(run, given, results, n_results, err);
    return status ? status : clmem_run_variants(run, given, results, n_results, err);
}

void clmem_result_free(struct clmem_result *result)
{
    free(result->samples_ms);
    result->samples_ms = NULL;
}

void clmem_results_free(struct clmem_result *results, size_t n)
{
    for (size_t i = 0; results && i < n; i++)
        clmem_result_free(&results[i]);
    free(results);
}

int clmem_run(struct clmem_ctx *ctx, const struct clmem_workload *w,
              const struct clmem_run_options *options, struct clmem_result **results,
              size_t *n_results, struct clmem_error *err)
{
    static const struct clmem_run_options defaults = {
        .reps = CLMEM_DEFAULT_REPS, .warmup = CLMEM_DEFAULT_WARMUP, .seed = CLMEM_DEFAULT_SEED};
    CLMEM_REFUSE_NULL(err, err);
    CLMEM_REFUSE_NULL(ctx, err);
    CLMEM_REFUSE_NULL(w, err);
    CLMEM_REFUSE_NULL(results, err);
    CLMEM_REFUSE_NULL(n_results, err);
    CLMEM_REFUSE_IF(!*results && *n_results, err, "%s: *results is NULL, *n_results %zu", __func__,
                    *n_results);
    if (!options)
        options = &defaults;
    struct clmem_run run;
    int status = clmem_run_plan(&run, w, ctx, options, err);
    if (status == CLMEM_OK)
        status = clmem_run_execute(&run, options, results, n_results, err);
    clmem_run_release(&run);
    return status;
}

const struct clmem_variant *clmem_variant_find(const struct clmem_workload *w, const char *name)
{
    for (size_t i = 0; i < w->n_variants; i++)
        if (strcmp(w->variants[i].name, name) == 0)
            return &w->variants[i];
    return NULL;
}
