/* Matmul with P's rows split over several devices (clmem_matmul_split,
 * `clmem run matmul --device LIST --split`): each device runs the chosen
 * variant on its block of rows as an ordinary matmul run whose inputs are
 * borrowed from the whole problem; the host gathers P and checks it. */
#include "matmul.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One device's block: rows [first, first + count) of P, a matmul run of
 * count x cols x inner whose inputs are borrowed from the whole problem. */
struct split_block {
    struct clmem_run run;
    size_t first, count;
    double kernel_ms; /* the block's profiled kernel time, the last run */
    struct clmem_error err;
};

enum split_phase { SPLIT_SETUP, SPLIT_PREPARE, SPLIT_EXECUTE, SPLIT_GATHER };

struct split_job {
    const struct clmem_variant *variant;
    struct split_block *blocks;
    struct matmul_state *whole; /* the host's M, N, P and CPU reference */
    enum split_phase phase;
};

/* What one device's thread does in each phase. */
static int split_block_step(void *arg, size_t i)
{
    struct split_job *job = arg;
    struct split_block *b = &job->blocks[i];
    struct clmem_run *run = &b->run;
    struct matmul_state *s = run->state;
    if (b->count == 0)
        return CLMEM_OK;
    switch (job->phase) {
    case SPLIT_SETUP:
        s->M = job->whole->M + b->first * job->whole->inner;
        s->N = job->whole->N;
        return clmem_workload_matmul.setup(run, &b->err);
    case SPLIT_PREPARE: return clmem_workload_matmul.prepare(run, job->variant, &b->err);
    case SPLIT_EXECUTE: {
        struct clmem_timing timing = {0};
        int status = clmem_workload_matmul.execute(run, job->variant, &timing, &b->err);
        if (status) {
            clFinish(run->ctx->queue);
            clmem_timing_release(&timing);
            return status;
        }
        return clmem_timing_finish(run->ctx, &timing, &b->kernel_ms, &b->err);
    }
    case SPLIT_GATHER:
        return clmem_buffer_read(run->ctx, s->dP, b->count * s->cols * sizeof(float),
                                 job->whole->P + b->first * s->cols, &b->err);
    }
    return CLMEM_OK;
}

/* Runs a phase on every device of the point at once; the worst status,
 * its message in err. */
static int split_phase(struct split_job *job, size_t k, enum split_phase phase,
                       struct clmem_error *err)
{
    int status[64], worst = CLMEM_OK;
    job->phase = phase;
    clmem_parallel(k, split_block_step, job, status);
    for (size_t i = 0; i < k; i++)
        if (clmem_status_worst(worst, status[i]) != worst) {
            worst = status[i];
            clmem_error_clear(err);
            *err = job->blocks[i].err;
            job->blocks[i].err.log = NULL;
        }
    return worst;
}

/* Times one scaling point (its blocks set up) and checks the gathered P. */
static int split_measure(struct split_job *job, size_t k, const struct clmem_split_options *o,
                         struct clmem_result *r, double *slowest_kernel_ms, struct clmem_error *err)
{
    int status;
    unsigned reps = o->reps ? o->reps : 1;
    if ((status = split_phase(job, k, SPLIT_PREPARE, err)))
        return status;
    for (unsigned i = 0; i < o->warmup; i++)
        if ((status = split_phase(job, k, SPLIT_EXECUTE, err)))
            return status;
    if (!(r->samples_ms = clmem_alloc_array(reps, sizeof(double), err)))
        return err->status;
    double *kernel = clmem_alloc_array(reps, sizeof(double), err);
    if (!kernel)
        return err->status;
    for (unsigned i = 0; i < reps; i++) {
        /* Host wall time: from before the threads enqueue to after the last
         * device finished (thread start and join included). */
        double start = clmem_now_ms();
        if ((status = split_phase(job, k, SPLIT_EXECUTE, err))) {
            free(kernel);
            return status;
        }
        r->samples_ms[r->n_samples++] = clmem_now_ms() - start;
        kernel[i] = 0.0;
        for (size_t d = 0; d < k; d++)
            if (job->blocks[d].count && job->blocks[d].kernel_ms > kernel[i])
                kernel[i] = job->blocks[d].kernel_ms;
    }
    *slowest_kernel_ms = clmem_median(kernel, reps);
    free(kernel);
    clmem_result_summarise(r);

    /* Rows no device wrote stay NaN on the host and fail the check. */
    struct matmul_state *w = job->whole;
    for (size_t i = 0; i < w->rows * w->cols; i++)
        w->P[i] = NAN;
    if ((status = split_phase(job, k, SPLIT_GATHER, err)))
        return status;
    struct clmem_check check;
    matmul_check_host_p(w, job->variant, &check);
    clmem_result_set_check(r, &check);
    return CLMEM_OK;
}

/* Gives the blocks their inputs back before a run's teardown frees them. */
static void split_release(struct split_block *blocks, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct matmul_state *s = blocks[i].run.state;
        if (s)
            s->M = s->N = NULL;
        clmem_run_release(&blocks[i].run);
        clmem_error_clear(&blocks[i].err);
    }
}

/* "rows 0-49 | 50-99" (an empty block: "-"). */
static void describe_rows(const struct split_block *blocks, size_t k, char *out, size_t size)
{
    size_t len = (size_t)snprintf(out, size, "rows");
    for (size_t d = 0; d < k && len < size; d++) {
        if (blocks[d].count)
            len += (size_t)snprintf(out + len, size - len, "%s%zu-%zu", d ? " | " : " ",
                                    blocks[d].first, blocks[d].first + blocks[d].count - 1);
        else
            len += (size_t)snprintf(out + len, size - len, "%s-", d ? " | " : " ");
    }
}

/* P's rows at scaling point k: all of them (strong), or k devices' worth (weak). */
static size_t point_rows(const struct clmem_split_options *o, size_t rows_one, size_t rows,
                         size_t k)
{
    return o->weak ? rows_one * k : rows;
}

/* A point's own reference (weak scaling); its inputs are the whole's. */
static void free_reference(struct matmul_state *point)
{
    free(point->ref_row);
    free(point->ref);
    free(point->ref_magnitude);
    memset(point, 0, sizeof *point);
}

int clmem_matmul_split(struct clmem_ctx *ctxs, size_t n, const struct clmem_split_options *o,
                       struct clmem_result **results, size_t *n_results, struct clmem_error *err)
{
    const struct clmem_workload *w = &clmem_workload_matmul;
    const struct clmem_variant *v = o->variant ? clmem_variant_find(w, o->variant) : NULL;
    if (!o->variant || strcmp(o->variant, "all") == 0)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--split runs one variant: name it with --variant (try 'clmem list "
                          "matmul')");
    if (!v)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "unknown variant '%s' of 'matmul' (try 'clmem list matmul')", o->variant);
    if (v->library)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "variant '%s' is a library's routine: --split runs clmem's kernels",
                          v->name);
    if (n == 0 || n > 64)
        return clmem_fail(err, CLMEM_ERR_USAGE, "--split takes 1 to 64 devices, not %zu", n);

    struct clmem_size size;
    struct matmul_state whole = {0}, point = {0};
    int status = clmem_size_parse(o->size ? o->size : w->default_size, &size, err);
    if (status)
        return status;
    if (size.ndims == 1)
        size.dim[1] = size.dim[2] = size.dim[0];
    else if (size.ndims == 2)
        size.dim[2] = size.dim[1];
    /* Weak scaling: k devices, k times the rows (M's and P's), the same N. */
    size_t rows_one = size.dim[0];
    whole.cols = size.dim[1];
    whole.inner = size.dim[2];
    if (!clmem_mul_size(rows_one, o->weak ? n : 1, &whole.rows) || whole.rows > 2147483647UL)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--weak: %zu rows on each of %zu devices are too many rows", rows_one, n);
    char size_text[64];
    clmem_size_format(&size, size_text, sizeof size_text);

    /* Every point's blocks planned before any work: usage errors first. */
    size_t n_points = n * (n + 1) / 2;
    struct split_block *blocks = calloc(n_points, sizeof *blocks);
    int *skip = calloc(n, sizeof *skip);
    size_t first[64], count[64];
    int verify_failed = 0;
    double one_device_ms = NAN;
    if (!blocks || !skip) {
        status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
        goto cleanup;
    }
    if (o->weights && (status = clmem_split_rows(whole.rows, n, o->weights, first, count, err)))
        goto cleanup;
    for (size_t k = 1, at = 0; k <= n; at += k, k++) {
        struct clmem_error ignored = {0};
        if (clmem_split_rows(point_rows(o, rows_one, whole.rows, k), k, o->weights, first, count,
                             &ignored)) {
            skip[k - 1] = 1; /* the first k weights sum to 0 */
            continue;
        }
        for (size_t d = 0; d < k; d++) {
            struct split_block *b = &blocks[at + d];
            b->first = first[d];
            b->count = count[d];
            if (!b->count)
                continue;
            char block_size[96];
            snprintf(block_size, sizeof block_size, "%zux%zux%zu", b->count, whole.cols,
                     whole.inner);
            struct clmem_run_options ro = {.size = block_size, .variant = v->name, .seed = o->seed};
            if ((status = clmem_run_plan(&b->run, w, &ctxs[d], &ro, err))) {
                char why[sizeof err->message];
                snprintf(why, sizeof why, "%s", err->message);
                clmem_fail(err, status, "split over %zu devices, rows %zu-%zu on '%s': %s", k,
                           b->first, b->first + b->count - 1, ctxs[d].device.name, why);
                goto cleanup;
            }
        }
    }

    /* Weak: the inputs of the largest point; point k's M is its first
     * k * rows_one rows, the same values as a run of that size alone. */
    if ((status = matmul_host_inputs(&whole, o->seed, err)))
        goto cleanup;
    for (size_t k = 1, at = 0; k <= n; at += k, k++) {
        /* The point's problem: the whole one, or (weak) its first rows with
         * a reference of their own. */
        struct matmul_state *problem = &whole;
        size_t rows = point_rows(o, rows_one, whole.rows, k);
        if (rows != whole.rows) {
            point = whole;
            point.rows = rows;
            point.ref_row = NULL;
            point.ref = point.ref_magnitude = NULL;
            if ((status = matmul_reference(&point, err)))
                goto cleanup;
            problem = &point;
        }
        if (o->cancelled && o->cancelled(o->cancelled_user)) {
            status = clmem_fail(err, CLMEM_ERR_INTERRUPTED, "interrupted");
            goto cleanup;
        }
        struct clmem_result *grown = realloc(*results, (*n_results + 1) * sizeof *grown);
        if (!grown) {
            status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
            goto cleanup;
        }
        *results = grown;
        struct clmem_result *r = &grown[(*n_results)++];
        memset(r, 0, sizeof *r);
        snprintf(r->workload, sizeof r->workload, "%s", w->name);
        snprintf(r->variant, sizeof r->variant, "%s", v->name);
        snprintf(r->device, sizeof r->device, "split over %zu device%s", k, k == 1 ? "" : "s");
        if (o->weak)
            snprintf(r->size, sizeof r->size, "%zux%zux%zu", rows, whole.cols, whole.inner);
        else
            snprintf(r->size, sizeof r->size, "%s", size_text);
        snprintf(r->metric_unit, sizeof r->metric_unit, "%s", w->metric_unit);
        r->baseline_fraction = r->peak_fraction = r->looped_ms = r->max_rel_error = NAN;
        r->reps = o->reps ? o->reps : 1;
        r->warmup = o->warmup;
        r->seed = o->seed;
        /* Of the whole product: the blocks add up to it. */
        r->flops_per_byte = matmul_flops_per_byte(rows, whole.cols, whole.inner);
        if (skip[k - 1]) {
            r->skipped = 1;
            snprintf(r->skip_reason, sizeof r->skip_reason,
                     "the split weights of the first %zu devices sum to 0", k);
            free_reference(&point);
            continue;
        }
        struct split_job job = {v, &blocks[at], problem, SPLIT_SETUP};
        double slowest_kernel = 0.0;
        if ((status = split_phase(&job, k, SPLIT_SETUP, err)) ||
            (status = split_measure(&job, k, o, r, &slowest_kernel, err)))
            goto cleanup;
        for (size_t d = 0; d < k; d++)
            if (blocks[at + d].count) {
                snprintf(r->params, sizeof r->params, "%s", blocks[at + d].run.params);
                break;
            }
        double work = 2.0 * (double)rows * (double)whole.cols * (double)whole.inner;
        r->metric = r->median_ms > 0 ? work / (r->median_ms * 1e-3) / 1e9 : 0.0;
        if (k == 1)
            one_device_ms = r->median_ms;
        /* Strong: the speedup t(1)/t(k), efficiency speedup/k; weak: the
         * efficiency t(1)/t(k) itself, the work per device being fixed. */
        double speedup = one_device_ms / r->median_ms;
        if (!isnan(speedup))
            r->baseline_fraction = speedup;
        char described[96];
        describe_rows(&blocks[at], k, described, sizeof described);
        char *note = r->note;
        size_t len = (size_t)snprintf(note, sizeof r->note, "host wall time; ");
        if (!isnan(speedup) && o->weak)
            len += (size_t)snprintf(note + len, sizeof r->note - len,
                                    "weak scaling, %zu rows per device: efficiency %.2f; ",
                                    rows_one, speedup);
        else if (!isnan(speedup))
            len +=
                (size_t)snprintf(note + len, sizeof r->note - len,
                                 "speedup %.2f, efficiency %.2f; ", speedup, speedup / (double)k);
        if (len < sizeof r->note)
            snprintf(note + len, sizeof r->note - len, "slowest device's kernel %.4f ms; %s",
                     slowest_kernel, described);
        verify_failed |= !r->verified;
        /* This point's programs and buffers go before the next point's. */
        split_release(&blocks[at], k);
        free_reference(&point);
    }
    status = verify_failed ? CLMEM_ERR_VERIFY : CLMEM_OK;

cleanup:
    free_reference(&point);
    if (blocks)
        split_release(blocks, n_points);
    free(blocks);
    free(skip);
    free(whole.M);
    free(whole.N);
    free(whole.P);
    free(whole.ref_row);
    free(whole.ref);
    free(whole.ref_magnitude);
    return status;
}
