/* clmem tune WORKLOAD: searches the parameters of the workload's tunable
 * variant on one device, every candidate verified, and keeps the best in
 * the tuning database that run and bench then use. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct cli_use tune_uses[] = {
    {.id = CLI_OPT_DEVICE, .flags = CLI_ONE_DEVICE},
    {.id = CLI_OPT_SIZE},
    {.id = CLI_OPT_MAX_CANDIDATES},
    {.id = CLI_OPT_REPS, .flags = CLI_DEFAULT, .def = 3},
    {.id = CLI_OPT_SEED},
    {.id = CLI_OPT_KERNEL_DIR},
    {.id = CLI_OPT_NO_CACHE},
};

const struct cli_spec cli_tune_spec = {
    .name = "tune",
    .synopsis = "WORKLOAD [options]",
    .about = "Searches the parameters of WORKLOAD's tunable variant ('clmem list' marks\n"
             "it; matmul: regblock) on the device: the built-in setting first, then\n"
             "candidates from the search space that the device can run (work-group and\n"
             "local-memory limits), each built at --size, run --reps times and verified.\n"
             "The best"
             "is kept in $XDG_CACHE_HOME/clmem/tuning.json (else ~/.cache/clmem), per\n"
             "device, driver, workload and size class; 'run' and 'bench' then use it and\n"
             "say so in the result's note. It tunes one device (no list).\n",
    .more = "exit codes: 0 ok, 1 no candidate verified, 2 usage error, 3 no device or\n"
            "OpenCL error, 128+N stopped by signal N (130: Ctrl-C; nothing is stored)\n",
    .uses = tune_uses,
    .n_uses = CLMEM_ARRAY_SIZE(tune_uses),
    .min_args = 1,
    .max_args = 1,
    .missing = "tune needs a workload (see 'clmem tune --help')",
};

/* Every candidate of the search space the device can run, in a fixed
 * order; `count` of them are then taken evenly spread. */
static int *candidates(const struct clmem_tunable *t, const struct clmem_device *device,
                       size_t *count)
{
    size_t total = 1, n = 0;
    for (size_t p = 0; p < t->n_params; p++) {
        size_t k = 0;
        while (k < CLMEM_MAX_TUNE_VALUES && t->params[p].values[k])
            k++;
        total *= k;
    }
    int *all = malloc(total * CLMEM_MAX_PARAMS * sizeof *all);
    if (!all)
        return NULL;
    for (size_t i = 0; i < total; i++) {
        int v[CLMEM_MAX_PARAMS] = {0};
        size_t rest = i;
        for (size_t p = 0; p < t->n_params; p++) {
            size_t k = 0;
            while (k < CLMEM_MAX_TUNE_VALUES && t->params[p].values[k])
                k++;
            v[p] = t->params[p].values[rest % k];
            rest /= k;
        }
        if (t->valid(device, v))
            memcpy(&all[n++ * CLMEM_MAX_PARAMS], v, sizeof v);
    }
    *count = n;
    return all;
}

/* One run of the tunable variant: its metric, or -1 when it failed
 * (*status says how; err keeps the message). */
static double measure(struct clmem_ctx *ctx, const struct clmem_workload *w,
                      const struct cli_opts *a, const int *values, char *params, size_t size,
                      int *status_out, struct clmem_error *err)
{
    struct clmem_run_options options = {.size = a->size,
                                        .variant = w->tunable->variant,
                                        .reps = (unsigned)a->reps,
                                        .warmup = 1,
                                        .seed = a->seed,
                                        .tune_values = values,
                                        .ignore_tuning = 1,
                                        .cancelled = cli_interrupted};
    struct clmem_run run;
    struct clmem_result *results = NULL;
    size_t n = 0;
    int status = clmem_run_plan(&run, w, ctx, &options, err);
    if (status == CLMEM_OK)
        status = clmem_run_execute(&run, &options, &results, &n, err);
    clmem_run_release(&run);
    if (status == CLMEM_OK && (n != 1 || !results[0].verified))
        status = clmem_fail(err, CLMEM_ERR_VERIFY, "'%s' did not verify", w->tunable->variant);
    *status_out = status;
    double metric = status == CLMEM_OK ? results[0].metric : -1;
    snprintf(params, size, "%s", n ? results[0].params : "");
    clmem_results_free(results, n);
    return metric;
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

int cmd_tune(int argc, char **argv)
{
    struct cli_opts a;
    struct clmem_error err = {0};
    struct clmem_ctx ctx = {0};
    int status, *all = NULL, interrupted = 0;
    if ((status = cli_parse(&cli_tune_spec, argc, argv, &a, &err)))
        return cli_report_error(&err);
    if (a.help) {
        cli_help(&cli_tune_spec, stdout);
        return CLMEM_OK;
    }
    const struct clmem_workload *w = clmem_workload_find(a.args[0]);
    if (!w) {
        clmem_fail(&err, CLMEM_ERR_USAGE, "unknown workload '%s' (try 'clmem list')", a.args[0]);
        return cli_report_error(&err);
    }
    if (!w->tunable) {
        clmem_fail(&err, CLMEM_ERR_USAGE, "workload '%s' has nothing to tune (tunable: matmul)",
                   w->name);
        return cli_report_error(&err);
    }
    struct clmem_size size;
    if ((status = clmem_size_parse(a.size ? a.size : w->default_size, &size, &err)) ||
        (status = clmem_tuning_prepare(&err)) ||
        (status = cli_open_device(a.device, a.kernel_dir, &ctx, &err)))
        goto cleanup;
    ctx.no_cache = a.no_cache;
    cli_catch_interrupts();
    size_t n_all = 0;
    if (!(all = candidates(w->tunable, &ctx.device, &n_all))) {
        status = clmem_fail(&err, CLMEM_ERR_CL, "out of host memory");
        goto cleanup;
    }
    char params[256], best_params[256];
    /* The reference: the built-in parameters, planned as run would. Its
     * failure is the command's: a size too large is a usage error (2), an
     * OpenCL error 3, a failed check 1. */
    int run_status;
    double reference = measure(&ctx, w, &a, NULL, params, sizeof params, &run_status, &err);
    interrupted = run_status == CLMEM_ERR_INTERRUPTED;
    if (run_status != CLMEM_OK && !interrupted) {
        status = run_status;
        goto cleanup;
    }
    printf("%-12s %-10s %12s  %s\n", "candidate", "", "value", "parameters");
    printf("%-12s %-10s %12.3f  %s\n", "built-in", "", reference, params);
    /* The built-in setting is the one to beat, and what is kept when no
     * candidate beats it: tuning improves or keeps. */
    double best = reference;
    int best_values[CLMEM_MAX_PARAMS] = {0};
    int have_best = values_from_params(w->tunable, params, best_values);
    snprintf(best_params, sizeof best_params, "%s", params);
    size_t take = n_all < a.max_candidates ? n_all : (size_t)a.max_candidates;
    /* A stride coprime with n_all visits every candidate once, spread over
     * all the parameters rather than along the last one. */
    size_t stride = n_all * 618 / 1000 + 1;
    while (n_all > 1 && clmem_gcd(stride, n_all) != 1)
        stride++;
    for (size_t i = 0; i < take && !interrupted; i++) {
        const int *v = &all[(i * stride % n_all) * CLMEM_MAX_PARAMS];
        if (isatty(STDERR_FILENO))
            fprintf(stderr, "clmem: [%zu/%zu] %s %s\n", i + 1, take, w->name, w->tunable->variant);
        /* A candidate that fails (a build the driver refuses, a check) is
         * listed and passed over. */
        double metric = measure(&ctx, w, &a, v, params, sizeof params, &run_status, &err);
        interrupted = run_status == CLMEM_ERR_INTERRUPTED;
        clmem_error_clear(&err);
        printf("%-12zu %-10s %12.3f  %s\n", i + 1, metric < 0 ? "failed" : "", metric, params);
        if (metric > best) {
            best = metric;
            memcpy(best_values, v, sizeof best_values);
            have_best = 1;
            snprintf(best_params, sizeof best_params, "%s", params);
        }
    }
    if (interrupted) {
        status = cli_report_interrupted(0, NULL);
        goto cleanup;
    }
    if (!have_best) {
        status = clmem_fail(&err, CLMEM_ERR_CL, "the built-in parameters '%s' do not name %s's",
                            params, w->tunable->variant);
        goto cleanup;
    }
    if ((status = clmem_tuning_store(&ctx, w, &size, best_values, best, reference, w->metric_unit,
                                     best == reference, &err)))
        goto cleanup;
    char path[1024];
    clmem_tuning_path(path, sizeof path);
    printf("best: %.3f %s, %.2fx the built-in parameters%s: %s\nkept in '%s'\n", best,
           w->metric_unit, best / reference,
           best == reference ? " (they are the best: recorded, not applied)" : "", best_params,
           path);

cleanup:
    cli_report_warnings(&ctx);
    /* An interruption was reported as such. */
    if (status && !interrupted)
        cli_report_error(&err);
    free(all);
    clmem_ctx_close(&ctx);
    clmem_error_clear(&err);
    return status;
}
