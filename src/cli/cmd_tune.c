/* clmem tune WORKLOAD: searches the parameters of the workload's tunable
 * variant on one device, every candidate verified, and keeps the best in
 * the tuning database that run and bench then use. clmem tune with no
 * workload fits the whole device within --budget (harness/tune_device.c);
 * --export writes what it fitted in the shipped database's format. */
#include "commands.h"

#include "common.h"
#include "devices.h"
#include "option_help.h"
#include "options.h"
#include "progress.h"
#include "report/report.h"
#include "stopping.h"
#include "suggest.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct cli_use tune_uses[] = {
    {.id = CLI_OPT_VARIANT, .def_help = "each tunable one"},
    {.id = CLI_OPT_DEVICE, .flags = CLI_ONE_DEVICE},
    {.id = CLI_OPT_SIZE},
    {.id = CLI_OPT_MAX_CANDIDATES},
    {.id = CLI_OPT_REPS, .flags = CLI_DEFAULT, .def = 3},
    {.id = CLI_OPT_SEED},
    {.id = CLI_OPT_KERNEL_DIR},
    {.id = CLI_OPT_NO_CACHE},
    {.id = CLI_OPT_WORKLOADS, .def_help = "every tunable one"},
    {.id = CLI_OPT_BUDGET},
    {.id = CLI_OPT_FRESH},
    {.id = CLI_OPT_SHOW},
    {.id = CLI_OPT_RESET},
    {.id = CLI_OPT_EXPORT},
    {.id = CLI_OPT_PROGRESS},
    {.id = CLI_OPT_QUIET},
};

const struct cli_spec cli_tune_spec = {
    .name = "tune",
    .synopsis = "[WORKLOAD] [options] | --show [--device D] | --reset [WORKLOAD] [--device D] "
                "| --export FILE [--device D]",
    .about = "With no WORKLOAD: fits the whole device within --budget: its peaks, every\n"
             "tunable variant below (at the workload's largest bench size for the\n"
             "device), and matmul's model (the rates and thresholds that --variant auto\n"
             "and the split-K planner weigh, measured with the tiles just tuned), each\n"
             "step given a share of the time left, with progress on stderr. What each\n"
             "step finds is kept at once: in the tuning database and as the device's\n"
             "fitted rows ($XDG_CACHE_HOME/clmem/params/device-NAME.json, the shipped\n"
             "parameter database's format), which run and bench then take before any\n"
             "shipped row, CLMEM_PARAMS_GENERIC or not. Run again, it resumes: steps\n"
             "fitted on this device and driver are kept (--fresh fits them again).\n"
             "--export FILE writes the fitted rows for data/params/ (docs/usage.md,\n"
             "\"The parameter database\").\n\n"
             "With WORKLOAD: searches the parameters of each of its tunable variants,\n"
             "or of the one --variant names (matmul: regblock, panel, cpu_blocked and splitk;\n"
             "transpose: padded, whose tile every transpose variant uses, and vec4;\n"
             "reduce and dot: one_pass, whose work-group every variant uses; blur and\n"
             "constmem: coarsened) on the device: the built-in setting first, then\n"
             "candidates from the search space that the device can run (work-group\n"
             "and local-memory limits), each built at --size, run --reps times and\n"
             "verified. The best is kept in $XDG_CACHE_HOME/clmem/tuning.json (else\n"
             "~/.cache/clmem), per device, driver, workload, variant and size class;\n"
             "'run' and 'bench' then use it and say so in the result's note. It tunes\n"
             "one device (no list).\n"
             "A candidate is kept only when it beats the built-in setting by more than 5%\n"
             "and its slowest sample is faster than the built-in's fastest (diff's rule).\n"
             "--show lists what the database holds for the device, --reset removes it\n"
             "(WORKLOAD's entries only, when named); neither measures anything.\n",
    .more = "exit codes: 0 ok, 1 no candidate verified (a whole device: a step could\n"
            "not be fitted, each said), 2 usage error, 3 no OpenCL device or OpenCL\n"
            "error, 128+N stopped by signal N (130: Ctrl-C; the variant being tuned\n"
            "keeps nothing, a whole device's finished steps stay kept)\n",
    CLI_USES(tune_uses),
    .min_args = 0,
    .max_args = 1,
};

struct tuning {
    const struct clmem_workload *w;
    const struct clmem_tunable *t;
    struct clmem_tune_candidate builtin;
};

/* A candidate's row of the table, its metric in the workload's unit. */
static void show_candidate(void *user, size_t index, size_t count,
                           const struct clmem_tune_candidate *c)
{
    struct tuning *tu = user;
    char value[32];
    if (index == 0) {
        tu->builtin = *c;
        snprintf(value, sizeof value, "%s", tu->w->metric_unit);
        printf("%-12s %-10s %12s  %s\n", "candidate", "", value, "parameters");
        printf("%-12s %-10s %12.3f  %s\n", "built-in", "", c->metric, c->params);
        return;
    }
    char what[128];
    snprintf(what, sizeof what, "%s %s candidate %zu", tu->w->name, tu->t->variant, index);
    cli_progress_step(index, count, what);
    const char *mark = c->status ? "failed" : clmem_tune_beats(c, &tu->builtin) ? "beats" : "";
    if (c->status)
        printf("%-12zu %-10s %12s  %s\n", index, mark, "-", c->params);
    else
        printf("%-12zu %-10s %12.3f  %s\n", index, mark, c->metric, c->params);
}

/* The workloads with a tunable variant, from the workload table, in its
 * order: "matmul, transpose, ...". */
static void tunable_workloads(char *out, size_t size)
{
    size_t count, at = 0;
    const struct clmem_workload *const *all = clmem_workloads(&count);
    out[0] = '\0';
    for (size_t i = 0; i < count; i++) {
        if (!all[i]->n_tunables)
            continue;
        int n = snprintf(out + at, size - at, "%s%s", at ? ", " : "", all[i]->name);
        if (n < 0 || (size_t)n >= size - at)
            break;
        at += (size_t)n;
    }
}

/* Tunes one tunable variant; prints its table and what was kept. */
static int tune_variant(struct clmem_ctx *ctx, const struct clmem_workload *w,
                        const struct clmem_tunable *t, const struct cli_opts *a,
                        struct clmem_error *err)
{
    struct tuning tu = {.w = w, .t = t};
    struct clmem_tune_options options = {.size = a->size,
                                         .reps = (unsigned)a->reps,
                                         .max_candidates = (unsigned)a->max_candidates,
                                         .seed = a->seed,
                                         .measured = show_candidate,
                                         .user = &tu,
                                         .cancelled = cli_interrupted};
    struct clmem_tune_result r;
    printf("%s%s %s\n", t == w->tunables ? "" : "\n", w->name, t->variant);
    int status = clmem_tune(ctx, w, t, &options, &r, err);
    if (status)
        return status;
    char path[1024];
    clmem_tuning_path(path, sizeof path);
    int builtin = r.best.metric == r.builtin.metric;
    printf("best: %.3f %s, %.2fx the built-in parameters%s: %s\nkept in '%s'\n", r.best.metric,
           w->metric_unit, r.best.metric / r.builtin.metric,
           builtin ? " (no candidate beat them beyond 5% and both sample ranges: recorded, not "
                     "applied)"
                   : "",
           r.best.params, path);
    return CLMEM_OK;
}

/* The device --device names (its name, as the database keys it). */
static int device_name(const struct cli_devices *d, char *name, size_t size,
                       struct clmem_error *err)
{
    struct cli_chosen c;
    int status = cli_devices_pick(d, 0, CLI_LIST_ADDRESS_SPACE_MIB, &c, err);
    if (status == CLMEM_OK)
        snprintf(name, size, "%s", cli_chosen_device(&c, 0)->name);
    cli_chosen_free(&c);
    return status;
}

/* --show and --reset: the database for one device, nothing measured. */
static int show_or_reset(const struct cli_opts *a)
{
    struct clmem_error err = {0};
    char device[256], path[1024];
    int status;
    if (a->show && a->reset)
        status = clmem_fail(&err, CLMEM_ERR_USAGE, "--show and --reset go alone, not together");
    else if (a->show && a->n_args)
        status = clmem_fail(&err, CLMEM_ERR_USAGE,
                            "--show lists every workload's entries: leave out '%s'", a->args[0]);
    else if (a->n_args && !clmem_workload_find(a->args[0])) {
        char hint[96];
        cli_suggest_workload(a->args[0], hint, sizeof hint);
        status = clmem_fail(&err, CLMEM_ERR_USAGE, "unknown workload '%s' (%stry 'clmem list')",
                            a->args[0], hint);
    } else
        status = device_name(&a->devices, device, sizeof device, &err);
    if (status)
        goto done;
    clmem_tuning_path(path, sizeof path);
    if (a->reset) {
        size_t removed;
        if ((status =
                 clmem_tuning_db_remove(device, a->n_args ? a->args[0] : NULL, &removed, &err)))
            goto done;
        printf("removed %zu entr%s for %s%s%s from '%s'\n", removed, removed == 1 ? "y" : "ies",
               device, a->n_args ? ", " : "", a->n_args ? a->args[0] : "", path);
        goto done;
    }
    struct clmem_tuning_entry *entries;
    size_t n;
    if ((status = clmem_tuning_db_entries(device, &entries, &n, &err)))
        goto done;
    printf("tuning database '%s': %zu entr%s for %s\n", path, n, n == 1 ? "y" : "ies", device);
    if (n)
        printf("%-10s %-12s %-12s %14s %14s  %-8s %s\n", "workload", "variant", "size class",
               "tuned", "built-in", "applied", "parameters");
    for (size_t i = 0; i < n; i++) {
        const struct clmem_tuning_entry *e = &entries[i];
        char tuned[48], builtin[48];
        snprintf(tuned, sizeof tuned, "%.3f %s", e->metric, e->unit);
        snprintf(builtin, sizeof builtin, "%.3f %s", e->default_metric, e->unit);
        printf("%-10s %-12s %-12s %14s %14s  %-8s %s (driver %s)\n", e->workload, e->variant,
               e->size_class, tuned, builtin, e->builtin ? "no" : "yes", e->params, e->driver);
    }
    free(entries);
done:
    if (status)
        cli_report_error(&err);
    clmem_error_clear(&err);
    return status;
}

/* ---- a whole device ---- */

static void fit_step(void *user, size_t index, size_t count, const char *what, double share_s,
                     double left_s)
{
    (void)user;
    if (cli_progress_on())
        fprintf(stderr, "clmem: [%zu/%zu] %s: up to %.0f s (%.0f s of the budget left)\n",
                index + 1, count, what, share_s, left_s);
}

static void fit_done(void *user, size_t index, size_t count, const char *what, const char *outcome)
{
    (void)user;
    printf("[%zu/%zu] %s: %s\n", index + 1, count, what, outcome);
    fflush(stdout);
}

static int tune_device(const struct cli_opts *a, int argc, char **argv)
{
    struct clmem_error err = {0};
    struct clmem_ctx ctx = {0};
    char command[256];
    size_t at = (size_t)snprintf(command, sizeof command, "clmem");
    for (int i = 0; i < argc && at < sizeof command; i++)
        at += (size_t)snprintf(command + at, sizeof command - at, " %s", argv[i]);
    size_t count, n = 0;
    const struct clmem_workload *const *all = clmem_workloads(&count);
    const struct clmem_workload *chosen[64];
    /* --workloads: those of the list (options.c checked the names). */
    for (size_t i = 0; i < count && n < CLMEM_ARRAY_SIZE(chosen); i++)
        if (!a->workloads || clmem_list_has(a->workloads, all[i]->name))
            chosen[n++] = all[i];
    int status = clmem_tuning_prepare(&err);
    if (!status)
        status = cli_open_device(
            &a->devices, &(struct cli_open){.kernel_dir = a->kernel_dir, .no_cache = a->no_cache},
            &ctx, &err);
    if (status)
        goto done;
    cli_catch_interrupts();
    printf("fitting '%s' (driver %s) within %.0f s%s\n", ctx.device.name, ctx.device.driver,
           a->budget, a->fresh ? ", every step again" : "");
    struct clmem_fit_options options = {.budget_s = a->budget,
                                        .reps = (unsigned)a->reps,
                                        .seed = a->seed,
                                        .fresh = a->fresh,
                                        .command = command,
                                        .step = fit_step,
                                        .done = fit_done,
                                        .cancelled = cli_interrupted};
    struct clmem_fit_result r;
    status = clmem_fit_device(&ctx, chosen, n, clmem_workload_find("peak"), &options, &r, &err);
    if (status == CLMEM_OK) {
        printf("%zu of %zu steps fitted, %zu kept from before, %zu not fitted, in %.0f s\n"
               "fitted rows: '%s' (%zu rows; 'clmem tune --export FILE' writes them for "
               "data/params/)\n",
               r.fitted, r.steps, r.skipped, r.failed, r.seconds, r.path, r.rows);
        if (r.failed)
            status = clmem_fail(&err, CLMEM_ERR_VERIFY, "%zu step%s not fitted (said above)",
                                r.failed, r.failed == 1 ? "" : "s");
    }
    status = cli_stop_status(status);
done:
    cli_report_warnings(&ctx);
    if (status == CLMEM_ERR_INTERRUPTED)
        status = cli_report_interrupted_keeping(
            "the steps finished stay kept; 'clmem tune' again resumes");
    else if (status)
        cli_report_error(&err);
    clmem_ctx_close(&ctx);
    clmem_error_clear(&err);
    return status;
}

/* --export FILE: the device's fitted rows, nothing measured. */
static int export_rows(const struct cli_opts *a)
{
    struct clmem_error err = {0};
    struct clmem_device device = {0};
    size_t n = 0;
    int status = device_name(&a->devices, device.name, sizeof device.name, &err);
    if (!status)
        status = clmem_fit_export(&device, a->export_file, &n, &err);
    if (!status)
        printf("wrote %zu fitted row%s of '%s' to '%s'\n", n, n == 1 ? "" : "s", device.name,
               a->export_file);
    else
        cli_report_error(&err);
    clmem_error_clear(&err);
    return status;
}

int cmd_tune(int argc, char **argv)
{
    struct cli_opts a;
    struct clmem_error err = {0};
    struct clmem_ctx ctx = {0};
    int status;
    if ((status = cli_parse(&cli_tune_spec, argc, argv, &a, &err)))
        return cli_report_error(&err);
    if (a.help) {
        cli_help(&cli_tune_spec, stdout);
        return CLMEM_OK;
    }
    if (a.export_file && (a.show || a.reset || a.n_args)) {
        clmem_fail(&err, CLMEM_ERR_USAGE, "--export goes alone (with --device), not with %s",
                   a.n_args ? a.args[0]
                   : a.show ? "--show"
                            : "--reset");
        return cli_report_error(&err);
    }
    if (a.export_file)
        return export_rows(&a);
    if (a.show || a.reset)
        return show_or_reset(&a);
    if (a.n_args && a.workloads) {
        clmem_fail(&err, CLMEM_ERR_USAGE,
                   "--workloads is for a whole device's fit (clmem tune with no workload), not "
                   "with '%s'",
                   a.args[0]);
        return cli_report_error(&err);
    }
    if (a.n_args == 0 &&
        (a.given[CLI_OPT_VARIANT] || a.given[CLI_OPT_SIZE] || a.given[CLI_OPT_MAX_CANDIDATES])) {
        clmem_fail(&err, CLMEM_ERR_USAGE,
                   "--%s goes with a WORKLOAD: a whole device's fit takes each workload's "
                   "largest bench size and --budget",
                   a.given[CLI_OPT_VARIANT] ? "variant"
                   : a.given[CLI_OPT_SIZE]  ? "size"
                                            : "max-candidates");
        return cli_report_error(&err);
    }
    if (a.n_args == 0)
        return tune_device(&a, argc, argv);
    if (a.given[CLI_OPT_BUDGET] || a.fresh) {
        clmem_fail(&err, CLMEM_ERR_USAGE,
                   "--%s is for a whole device's fit (clmem tune with no workload), not '%s'",
                   a.fresh ? "fresh" : "budget", a.args[0]);
        return cli_report_error(&err);
    }
    const struct clmem_workload *w = clmem_workload_find(a.args[0]);
    if (!w) {
        char hint[96];
        cli_suggest_workload(a.args[0], hint, sizeof hint);
        clmem_fail(&err, CLMEM_ERR_USAGE, "unknown workload '%s' (%stry 'clmem list')", a.args[0],
                   hint);
        return cli_report_error(&err);
    }
    if (!w->n_tunables) {
        char tunable[256];
        tunable_workloads(tunable, sizeof tunable);
        clmem_fail(&err, CLMEM_ERR_USAGE, "workload '%s' has nothing to tune (tunable: %s)",
                   w->name, tunable);
        return cli_report_error(&err);
    }
    const struct clmem_tunable *only = NULL;
    if (a.variant && strcmp(a.variant, "all") != 0 && !(only = clmem_tunable_find(w, a.variant))) {
        clmem_fail(&err, CLMEM_ERR_USAGE, "variant '%s' of '%s' has nothing to tune", a.variant,
                   w->name);
        return cli_report_error(&err);
    }
    /* The size is checked before any device opens, as run checks it. */
    struct clmem_run_settings checked;
    if ((status =
             clmem_run_normalise(w, &(struct clmem_run_options){.size = a.size}, &checked, &err)) ||
        (status = clmem_tuning_prepare(&err)) ||
        (status = cli_open_device(
             &a.devices, &(struct cli_open){.kernel_dir = a.kernel_dir, .no_cache = a.no_cache},
             &ctx, &err)))
        goto cleanup;
    cli_catch_interrupts();
    for (size_t i = 0; i < w->n_tunables && status == CLMEM_OK; i++)
        if (!only || only == &w->tunables[i])
            status = tune_variant(&ctx, w, &w->tunables[i], &a, &err);
    status = cli_stop_status(status);

cleanup:
    cli_report_warnings(&ctx);
    /* An interruption is reported as such: the variant being tuned kept
     * nothing (one tuned before it said "kept in" and stays kept). */
    if (status == CLMEM_ERR_INTERRUPTED)
        status = cli_report_interrupted_keeping("nothing kept for the variant being tuned");
    else if (status)
        cli_report_error(&err);
    clmem_ctx_close(&ctx);
    clmem_error_clear(&err);
    return status;
}
