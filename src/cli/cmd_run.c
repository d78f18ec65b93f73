/* clmem run WORKLOAD (and clmem peak): build, time and verify a workload's
 * variants on a device, on a list of devices at once, or under mpirun on a
 * device per rank. Its steps go through the one flow (flow.c): check,
 * plan, run, report. */
#include "commands.h"

#include "common.h"
#include "compare/lessons.h"
#include "devices.h"
#include "flow.h"
#include "harness/traffic.h"
#include "options.h"
#include "progress.h"
#include "report/report.h"
#include "stopping.h"
#include "suggest.h"
#include "workloads/matmul_split.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct cli_use run_uses[] = {
    {.id = CLI_OPT_VARIANT}, {.id = CLI_OPT_SIZE},       {.id = CLI_OPT_DEVICE},
    {.id = CLI_OPT_SPLIT},   {.id = CLI_OPT_WEAK},       {.id = CLI_OPT_SUMMA},
    {.id = CLI_OPT_PANEL},   {.id = CLI_OPT_NO_OVERLAP}, {.id = CLI_OPT_REPS},
    {.id = CLI_OPT_WARMUP},  {.id = CLI_OPT_SEED},       {.id = CLI_OPT_FORMAT},
    {.id = CLI_OPT_OUTPUT},  {.id = CLI_OPT_KERNEL_DIR}, {.id = CLI_OPT_NO_CACHE},
    {.id = CLI_OPT_PEAK},    {.id = CLI_OPT_LEVELS},     {.id = CLI_OPT_ENERGY},
    {.id = CLI_OPT_COMPARE}, {.id = CLI_OPT_INPUT},      {.id = CLI_OPT_PROGRESS},
    {.id = CLI_OPT_QUIET},
};

const struct cli_spec cli_run_spec = {
    .name = "run",
    .synopsis = "WORKLOAD [options]",
    .about = "Builds WORKLOAD's kernels for the device, runs each variant --warmup times\n"
             "untimed and --reps times timed (event profiling), verifies the result against\n"
             "the CPU reference and reports median, min and max. With a device list\n"
             "(--device cpu,cpu or all) it runs on every device at once, a thread each, and\n"
             "adds a total line per variant; with --split, matmul's rows are divided over\n"
             "the devices instead.\n",
    .more = "Under mpirun, each rank runs on one device of its host, chosen by its rank\n"
            "there from --device (default: the host's GPUs), and rank 0 reports every\n"
            "rank's results and their total.\n"
            "Ctrl-C (SIGTERM, SIGHUP) stops after the current variant and reports those\n"
            "that finished; a second one, SIGQUIT or SIGPIPE stop at once.\n"
            "exit codes: 0 ok, 1 verification failed, 2 usage error (a --device that\n"
            "names none here too) or a file that cannot be written, 3 no OpenCL device\n"
            "or OpenCL error, 128+N stopped by signal N (130: Ctrl-C)\n",
    CLI_USES(run_uses),
    .min_args = 1,
    .max_args = 1,
    .missing = "run needs a workload (try 'clmem list', 'clmem run --help')",
};

/* What run keeps between its steps. */
struct run_self {
    const char *name; /* the workload: NULL for the command line's */
    const struct clmem_workload *workload;
    struct clmem_run_settings settings; /* the run's options, normalised */
    const char *image_output;           /* an image --output (.pgm, .ppm) */
    struct clmem_run run;
    /* --levels: the hierarchy run file, read before any device. */
    struct clmem_compare_device *saved;
    size_t n_saved;
    struct clmem_level_rates rates; /* with --peak, once measured */
    int has_rates;
};

/* A run of a --levels file that gives both rates, the first matching
 * `device` (NULL: any). */
static const struct clmem_compare_device *levels_run(const struct run_self *self,
                                                     const struct clmem_device *device)
{
    for (size_t i = 0; i < self->n_saved; i++) {
        const struct clmem_compare_device *s = &self->saved[i];
        if (clmem_level_probe_rate(s->results, s->n_results, "local_stride") > 0 &&
            clmem_level_probe_rate(s->results, s->n_results, "constant_broadcast") > 0 &&
            (!device || (strcmp(s->device.name, device->name) == 0 &&
                         strcmp(s->device.driver, device->driver) == 0)))
            return s;
    }
    return NULL;
}

/* --levels, before any device: a run file that holds both probes' rates. */
static int read_levels(struct run_self *self, const struct cli_opts *o, struct clmem_error *err)
{
    if (!o->levels)
        return CLMEM_OK;
    if (!o->peak)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--levels goes with --peak: its rates are the traffic model's");
    int status = clmem_runfile_load(o->levels, &self->saved, &self->n_saved, err);
    if (status) {
        char reason[sizeof err->message];
        snprintf(reason, sizeof reason, "%s", err->message);
        return clmem_fail(err, status, "--levels: %s", reason);
    }
    if (!levels_run(self, NULL))
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--levels '%s' holds no verified local_stride (stride 1) and "
                          "constant_broadcast results to take the rates from (save them with "
                          "'clmem hierarchy --format json --output FILE')",
                          o->levels);
    return CLMEM_OK;
}

/* The options every run takes from the command line (size, variant, reps,
 * warm-up, seed, compare, --input, --energy; Ctrl-C polled); callers add their own. */
static struct clmem_run_options run_options(const struct cli_opts *o)
{
    return (struct clmem_run_options){.size = o->size,
                                      .variant = o->variant,
                                      .reps = (unsigned)o->reps,
                                      .warmup = (unsigned)o->warmup,
                                      .seed = o->seed,
                                      .compare = o->compare,
                                      .input = o->input,
                                      .energy = (unsigned)o->energy,
                                      .cancelled = cli_interrupted};
}

/* Workloads that make an image write it to an --output named .pgm or .ppm;
 * the report then goes to stdout. */
static int run_is_image_path(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    return n > 4 && (strcmp(path + n - 4, ".pgm") == 0 || strcmp(path + n - 4, ".ppm") == 0);
}

/* --split, --weak, --no-overlap and what a device list leaves out (the
 * list itself was checked as --device was parsed). */
static int check_devices(const struct cli_opts *o, const struct clmem_workload *w,
                         struct clmem_error *err)
{
    if (o->weak && !o->split.given)
        return clmem_fail(err, CLMEM_ERR_USAGE, "--weak goes with --split (a device list)");
    if (o->no_overlap && !o->split.given && !o->summa.given)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--no-overlap goes with --split (a device list) or --summa (mpirun)");
    if (!cli_devices_several(&o->devices)) {
        if (o->split.given)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "--split needs several devices: --device all or a list (cpu,cpu)");
        return CLMEM_OK;
    }
    if (o->split.given && strcmp(w->name, "matmul") != 0)
        return clmem_fail(err, CLMEM_ERR_USAGE, "--split is for matmul, not '%s'", w->name);
    if (o->peak)
        return clmem_fail(err, CLMEM_ERR_USAGE, "--peak takes one device, not '%s'", o->device);
    if (o->input)
        return clmem_fail(err, CLMEM_ERR_USAGE, "--input takes one device, not '%s'", o->device);
    if (w->input_help && run_is_image_path(o->output))
        return clmem_fail(err, CLMEM_ERR_USAGE, "an image --output takes one device, not '%s'",
                          o->device);
    if (o->split.given && (!o->variant || strcmp(o->variant, "all") == 0))
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--split runs one variant: name it with --variant (try 'clmem list "
                          "matmul')");
    if (o->split.given && o->compare)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--split runs clmem's kernels: leave out --compare");
    return CLMEM_OK;
}

/* --summa and --panel, and what a run under mpirun leaves out. */
static int check_mpi(const struct cli_opts *o, const struct clmem_workload *w,
                     struct clmem_error *err)
{
    int under_mpirun = cli_launched_by_mpirun();
    if (o->given[CLI_OPT_PANEL] && !o->summa.given)
        return clmem_fail(err, CLMEM_ERR_USAGE, "--panel is SUMMA's: use it with --summa");
    if (o->summa.given) {
        if (!clmem_mpi_built())
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "--summa needs clmem built with MPI ('meson configure build "
                              "-Dmpi=enabled', docs/usage.md \"Many hosts: MPI\")");
        if (!under_mpirun)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "--summa runs under mpirun, e.g. 'mpirun -n 4 clmem run matmul "
                              "--variant tiled --summa'");
        if (strcmp(w->name, "matmul") != 0)
            return clmem_fail(err, CLMEM_ERR_USAGE, "--summa is for matmul, not '%s'", w->name);
        if (!o->variant || strcmp(o->variant, "all") == 0)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "--summa runs one variant: name it with --variant (try 'clmem "
                              "list matmul')");
    }
    if (!under_mpirun)
        return CLMEM_OK;
    const char *left_out = o->split.given                                  ? "--split"
                           : o->summa.given && o->compare                  ? "--compare"
                           : o->peak                                       ? "--peak"
                           : o->input                                      ? "--input"
                           : w->input_help && run_is_image_path(o->output) ? "an image --output"
                                                                           : NULL;
    if (left_out)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "under mpirun, run takes no %s (each rank runs one device; for peaks "
                          "use 'clmem bench', for a distributed matmul --summa)",
                          left_out);
    return CLMEM_OK;
}

/* run's checks before any device (options.h, cli_run_check), the run's
 * options normalised into *settings. */
static int check_run(const struct cli_opts *o, const char *name,
                     const struct clmem_workload **workload, struct clmem_run_settings *settings,
                     struct clmem_error *err)
{
    const struct clmem_workload *w = clmem_workload_find(name);
    *workload = w;
    char hint[96];
    if (!w) {
        cli_suggest_workload(name, hint, sizeof hint);
        return clmem_fail(err, CLMEM_ERR_USAGE, "unknown workload '%s' (%stry 'clmem list')", name,
                          hint);
    }
    if (o->variant && strcmp(o->variant, "all") != 0 && !clmem_variant_find(w, o->variant)) {
        cli_suggest_variant(w, o->variant, hint, sizeof hint);
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "unknown variant '%s' of '%s' (%stry 'clmem list %s')", o->variant,
                          w->name, hint, w->name);
    }
    if (o->input && !w->input_help)
        return clmem_fail(err, CLMEM_ERR_USAGE, "workload '%s' takes no --input", w->name);
    struct stat st;
    if (o->input && stat(o->input, &st) == 0 && S_ISDIR(st.st_mode))
        return clmem_fail(err, CLMEM_ERR_USAGE, "--input '%s' is a directory, not a file",
                          o->input);
    /* Written over the file it reads (or a link to it), the input is lost. */
    const char *const input[] = {o->input};
    if (o->input && o->output && clmem_file_among(o->output, 1, input, 1) == 0)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--output '%s' is the --input '%s': writing it would replace the input",
                          o->output, o->input);
    struct clmem_run_options given = run_options(o);
    int status = clmem_compare_check(w, o->compare, err);
    if (status == CLMEM_OK)
        status = clmem_run_normalise(w, &given, settings, err);
    if (status == CLMEM_OK)
        status = check_mpi(o, w, err);
    if (status == CLMEM_OK)
        status = check_devices(o, w, err);
    if (status == CLMEM_OK)
        status = clmem_sources_check(o->kernel_dir, w, o->variant, err);
    return status;
}

int cli_run_check(const struct cli_opts *o, const char *name,
                  const struct clmem_workload **workload, struct clmem_error *err)
{
    struct clmem_run_settings settings;
    return check_run(o, name, workload, &settings, err);
}

static void show_progress(void *user, const struct clmem_result *next, size_t index, size_t count)
{
    (void)user;
    char what[300];
    snprintf(what, sizeof what, "%s %s %s on %s", next->workload, next->size, next->variant,
             next->device);
    cli_progress_step(index + 1, count, what);
}

static void show_result(void *user, const struct clmem_result *done, size_t index, size_t count)
{
    (void)user;
    cli_progress_result(index + 1, count, done);
}

/* The scaling table of a split run, after its results: strong (speedup,
 * efficiency speedup/k) or weak (the size per point, efficiency t(1)/t(k)). */
static void print_scaling(FILE *out, const struct clmem_result *results, size_t n,
                          const struct clmem_ctx *ctxs, int weak)
{
    if (n == 0)
        return;
    if (weak)
        fprintf(out,
                "\nweak scaling: %s %s, k devices multiply k times the rows of the first "
                "size, host wall time from inputs on the host to P there (median)\n",
                results[0].workload, results[0].variant);
    else
        fprintf(out,
                "\nstrong scaling: %s %s %s, the same size on the first k devices, host wall "
                "time from inputs on the host to P there (median)\n",
                results[0].workload, results[0].variant, results[0].size);
    for (size_t k = 0; k < n; k++)
        fprintf(out, "  device %zu: %s\n", k + 1, ctxs[k].device.name);
    if (weak)
        fprintf(out, "%7s %-18s %11s %12s %10s\n", "devices", "size", "median ms", "GFLOP/s",
                "efficiency");
    else
        fprintf(out, "%7s %11s %12s %8s %10s\n", "devices", "median ms", "GFLOP/s", "speedup",
                "efficiency");
    for (size_t k = 0; k < n; k++) {
        const struct clmem_result *r = &results[k];
        if (weak)
            fprintf(out, "%7zu %-18s", k + 1, r->size);
        else
            fprintf(out, "%7zu", k + 1);
        if (r->skipped) {
            fprintf(out, " %11s %12s %s%10s  skipped: %s\n", "-", "-", weak ? "" : "       - ", "-",
                    r->skip_reason);
            continue;
        }
        fprintf(out, " %11.4f %12.3f", r->median_ms, r->metric);
        if (isnan(r->baseline_fraction))
            fprintf(out, weak ? " %10s\n" : " %8s %10s\n", "-", "-");
        else if (weak)
            fprintf(out, " %10.2f\n", r->baseline_fraction);
        else
            fprintf(out, " %8.2f %10.2f\n", r->baseline_fraction,
                    r->baseline_fraction / (double)(k + 1));
    }
}

/* Alone on a device list: every device at once (a thread each) and the
 * totals, or with --split matmul's rows divided over them, reported here. */
static int run_several(struct cli_flow *f, struct clmem_error *err)
{
    const struct cli_opts *a = &f->o;
    const struct run_self *self = f->self;
    struct clmem_output *output = &f->output;
    struct cli_chosen chosen;
    struct cli_open how = {.kernel_dir = a->kernel_dir, .no_cache = a->no_cache};
    size_t n = 0, opened = 0;
    struct clmem_ctx *ctxs = NULL;
    struct clmem_result *results = NULL;
    size_t n_results = 0;
    int status = cli_devices_pick(&a->devices, 0, CLI_DRIVER_ADDRESS_SPACE_MIB, &chosen, err);
    n = chosen.n;
    if (status == CLMEM_OK && a->split.n && a->split.n != n)
        status = clmem_fail(err, CLMEM_ERR_USAGE,
                            "--split has %zu weights for %zu devices: give one per device",
                            a->split.n, n);
    if (status)
        goto cleanup;
    if (!(ctxs = calloc(n, sizeof *ctxs))) {
        status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
        goto cleanup;
    }
    for (; opened < n; opened++)
        if ((status = cli_device_open(&chosen, opened, &how, &ctxs[opened], err)))
            goto cleanup;
    cli_catch_interrupts();
    if (a->split.given) {
        struct clmem_split_options so = {.variant = a->variant,
                                         .size = a->size,
                                         .weights = a->split.n ? a->split.w : NULL,
                                         .reps = (unsigned)a->reps,
                                         .warmup = (unsigned)a->warmup,
                                         .seed = a->seed,
                                         .weak = a->weak,
                                         .no_overlap = a->no_overlap,
                                         .cancelled = cli_interrupted};
        status = clmem_matmul_split(ctxs, n, &so, &results, &n_results, err);
    } else {
        struct clmem_run_options options = self->settings.options;
        options.progress = cli_progress_on() ? show_progress : NULL;
        options.done = cli_quiet() ? NULL : show_result;
        status = clmem_run_multi(self->workload, ctxs, n, &options, &results, &n_results, err);
    }
    status = cli_stop_status(status);
    int interrupted = status == CLMEM_ERR_INTERRUPTED;
    int failed = status == CLMEM_ERR_CL && n_results > 0; /* as run_report */
    if (status != CLMEM_OK && status != CLMEM_ERR_VERIFY && !interrupted && !failed)
        goto cleanup;
    cli_say_failures(results, n_results, 0);
    struct clmem_report_meta meta = {.interrupted = interrupted};
    FILE *out = output->file ? output->file : stdout;
    enum clmem_format format = output->file ? cli_output_format(a, a->format) : a->format;
    int write_status = clmem_report_write(out, format, results, n_results, &meta, err);
    if (write_status == CLMEM_OK && a->split.given && a->format == CLMEM_FORMAT_TABLE) {
        errno = 0;
        print_scaling(out, results, n_results, ctxs, a->weak);
        write_status = clmem_report_flush(out, CLMEM_OK, err);
    }
    if (output->file)
        write_status = clmem_output_end(output, write_status, err);
    if (write_status)
        status = write_status;

cleanup:
    for (size_t i = 0; i < opened; i++) {
        cli_report_warnings(&ctxs[i]);
        clmem_ctx_close(&ctxs[i]);
    }
    f->kept = n_results;
    clmem_results_free(results, n_results);
    free(ctxs);
    cli_chosen_free(&chosen);
    return status;
}

/* ---- run's steps ---- */

/* The workload, its options (usage errors before any device), an image
 * --output, SUMMA. */
static int run_check(struct cli_flow *f, struct clmem_error *err)
{
    struct run_self *self = f->self;
    const struct cli_opts *o = &f->o;
    int status =
        check_run(o, self->name ? self->name : o->args[0], &self->workload, &self->settings, err);
    if (status)
        return status;
    if (self->workload->input_help && run_is_image_path(o->output)) {
        /* The image goes there, the report to stdout. */
        self->image_output = o->output;
        self->settings.options.image_output = o->output;
        f->output_path = NULL;
        /* Written after the run: checked now, as a report's --output is. */
        if ((status = clmem_output_check(self->image_output, err)))
            return status;
    }
    f->summa = o->summa.given;
    return read_levels(self, o, err);
}

static int run_alone(struct cli_flow *f, struct clmem_error *err)
{
    return cli_devices_several(&f->o.devices) ? run_several(f, err) : CLI_FLOW_ONE_DEVICE;
}

static int run_plan(struct cli_flow *f, struct clmem_error *err)
{
    struct run_self *self = f->self;
    /* Under mpirun one rank's progress and results are not the job's. */
    self->settings.options.progress = cli_progress_on() && !f->joined ? show_progress : NULL;
    self->settings.options.done = !cli_quiet() && !f->joined ? show_result : NULL;
    /* The saved rates are this device's, or none of its rates. */
    if (self->saved && !levels_run(self, &f->ctx.device)) {
        const struct clmem_device *had = &levels_run(self, NULL)->device;
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--levels '%s' is of another device: '%s' (driver %s), not this "
                          "run's '%s' (driver %s)",
                          f->o.levels, had->name, had->driver, f->ctx.device.name,
                          f->ctx.device.driver);
    }
    return clmem_run_plan_normalised(&self->run, self->workload, &f->ctx, &self->settings, err);
}

/* The variants, then with --peak the device's peaks and each result's
 * fraction of them. */
static int run_run(struct cli_flow *f, struct clmem_error *err)
{
    struct run_self *self = f->self;
    int status = cli_stop_status(
        clmem_run_execute(&self->run, &self->settings.options, &f->results, &f->n_results, err));
    if ((status != CLMEM_OK && status != CLMEM_ERR_VERIFY) || !f->o.peak)
        return status;
    struct clmem_result *peak_results = NULL;
    size_t n_peak = 0;
    int peak_status =
        clmem_peak_measure(&f->ctx, (unsigned)f->o.reps, &f->peak, &peak_results, &n_peak, err);
    if (peak_status == CLMEM_OK) {
        f->has_peak = 1;
        clmem_results_apply_peak(f->results, f->n_results, &f->peak);
        /* A roof below a result of its own run: measured again, the
         * higher kept, as bench does. */
        if (clmem_results_above_roof(f->results, f->n_results)) {
            const struct clmem_workload *peak = clmem_workload_find("peak");
            peak_status = peak ? clmem_peak_again(&f->ctx, peak, (unsigned)f->o.reps, &f->peak,
                                                  peak_results, n_peak, err)
                               : CLMEM_OK;
            clmem_results_apply_peak(f->results, f->n_results, &f->peak);
        }
    }
    /* Each result's bound: the peaks' rates and the __local and
     * __constant probes' (the hierarchy workload's), measured or saved. */
    if (peak_status == CLMEM_OK) {
        const struct clmem_compare_device *saved = levels_run(self, &f->ctx.device);
        struct clmem_level_rates *rates = &self->rates;
        peak_status = clmem_level_rates_measure(
            &f->ctx, saved ? NULL : clmem_workload_find("hierarchy"), (unsigned)f->o.reps, &f->peak,
            rates, &peak_results, &n_peak, err);
        if (saved) {
            rates->local_gbs =
                clmem_level_probe_rate(saved->results, saved->n_results, "local_stride");
            rates->constant_gbs =
                clmem_level_probe_rate(saved->results, saved->n_results, "constant_broadcast");
            if (!cli_quiet())
                fprintf(stderr, "clmem: __local and __constant rates from '%s' (not measured)\n",
                        f->o.levels);
        }
        if (peak_status == CLMEM_OK) {
            self->has_rates = 1;
            clmem_results_apply_bounds(f->results, f->n_results, rates);
        }
    }
    clmem_results_free(peak_results, n_peak);
    return peak_status ? peak_status : status;
}

static int run_report(struct cli_flow *f, int status, struct clmem_error *err)
{
    const struct cli_opts *o = &f->o;
    int interrupted = status == CLMEM_ERR_INTERRUPTED;
    /* An OpenCL error leaves FAILED results that say it: reported, and
     * the error still the exit status. */
    int failed = status == CLMEM_ERR_CL && f->n_results > 0;
    if (status != CLMEM_OK && status != CLMEM_ERR_VERIFY && !interrupted && !failed)
        return status;
    /* Under mpirun the results are every rank's: no one device. */
    struct clmem_report_meta meta = {.device = f->joined ? NULL : &f->ctx.device,
                                     .peak = f->has_peak ? &f->peak : NULL,
                                     .interrupted = interrupted};
    const struct run_self *self = f->self;
    if (self->has_rates && !f->joined) {
        meta.levels = &self->rates;
        meta.levels_from = self->saved ? o->levels : NULL;
    }
    int write_status =
        f->output.file
            ? clmem_output_report(&f->output, cli_output_format(o, o->format), f->results,
                                  f->n_results, &meta, err)
            : clmem_report_write(stdout, o->format, f->results, f->n_results, &meta, err);
    if (!write_status && !f->output.file)
        clmem_lessons_print(stdout, o->format, f->results, f->n_results);
    return write_status ? write_status : status;
}

static void run_release(struct cli_flow *f)
{
    struct run_self *self = f->self;
    clmem_run_release(&self->run);
    clmem_compare_devices_free(self->saved, self->n_saved);
}

int cli_run_command(const struct cli_spec *spec, const char *workload_name, int argc, char **argv)
{
    const struct cli_steps steps = {.spec = spec,
                                    .merge_ranks = 1,
                                    .check = run_check,
                                    .alone = run_alone,
                                    .plan = run_plan,
                                    .run = run_run,
                                    .report = run_report,
                                    .release = run_release};
    struct run_self self = {.name = workload_name};
    return cli_flow_run(&steps, &self, argc, argv);
}

int cmd_run(int argc, char **argv)
{
    return cli_run_command(&cli_run_spec, NULL, argc, argv);
}
