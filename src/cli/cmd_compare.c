/* clmem compare: saved run files of any machines and the suite on live
 * devices, in one report side by side with pictures (src/compare/compare.c);
 * under mpirun a column per rank. Its steps go through the one flow
 * (flow.c): check the files, the report's directory, then alone the live
 * devices one by one, under mpirun the suite on each rank's device. */
#include "commands.h"

#include "common.h"
#include "compare/compare.h"
#include "devices.h"
#include "flow.h"
#include "progress.h"
#include "ranks.h"
#include "report/report.h"
#include "stopping.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_FILES 64

static const struct cli_use compare_uses[] = {
    {.id = CLI_OPT_DEVICE, .def_help = "all without FILE, none with"},
    {.id = CLI_OPT_SIZES},
    {.id = CLI_OPT_BASELINE},
    {.id = CLI_OPT_OUTPUT_DIR},
    {.id = CLI_OPT_WORKLOADS},
    {.id = CLI_OPT_REPS},
    {.id = CLI_OPT_SEED},
    {.id = CLI_OPT_COMPARE},
    {.id = CLI_OPT_KERNEL_DIR},
    {.id = CLI_OPT_NO_CACHE},
    {.id = CLI_OPT_PROGRESS},
    {.id = CLI_OPT_QUIET},
};

const struct cli_spec cli_compare_spec = {
    .name = "compare",
    .synopsis = "[FILE.json...] [options]",
    .about = "Writes a report comparing devices: those of saved run files (written by\n"
             "'clmem bench --output' or '--format json' on any machine, an MPI file\n"
             "giving one per rank) and live ones, on which it runs 'clmem bench' first.\n"
             "With no FILE it runs every device of this machine; with files, only the\n"
             "devices named by --device (each device once). The report: report.md and\n"
             "report.html (first a summary: each device's failures and clock, and its\n"
             "results over the baseline's at the same workload, variant and size; then\n"
             "the devices, each workload's best at a glance, the ratios to the baseline\n"
             "row by row, performance portability, the lessons, the pictures, a table\n"
             "per workload), results.csv, one JSON per device, and with gnuplot\n"
             "installed SVG pictures (coalescing curves, transpose and matmul bars,\n"
             "matmul against size, a roofline per device and one of all).\n",
    .more = "Every FILE is read and checked before any work: a file that cannot be\n"
            "read, is empty, not JSON, of a newer schema or holds no results is a\n"
            "usage error (exit 2) and nothing is written.\n"
            "Under mpirun (an MPI build), each rank runs on one device of its host,\n"
            "chosen by its rank there from --device (default: the host's GPUs), and\n"
            "the report has a column per rank; FILE arguments are refused there.\n"
            "Ctrl-C stops after the current variant; the report then covers what\n"
            "finished.\n\n"
            "exit codes: 0 ok, 1 a live verification failed, 2 usage error or bad file,\n"
            "3 no OpenCL device or OpenCL error, 128+N stopped by signal N (130: Ctrl-C)\n",
    CLI_USES(compare_uses),
    .min_args = 0,
    .max_args = (size_t)-1,
};

/* The saved run files: at most MAX_FILES, none of them named "". */
static int check_files(const struct cli_opts *o, struct clmem_error *err)
{
    if (o->n_args > MAX_FILES)
        return clmem_fail(err, CLMEM_ERR_USAGE, "more than %d run files", MAX_FILES);
    for (size_t i = 0; i < o->n_args; i++)
        if (!o->args[i][0])
            return clmem_fail(err, CLMEM_ERR_USAGE, "an empty run file name");
    return CLMEM_OK;
}

/* --workloads with files: their results of those workloads and the peaks
 * (which bench always runs) are compared, as a live bench would give. */
static void only_workloads(const char *list, struct clmem_compare_device *runs, size_t n)
{
    size_t count;
    const struct clmem_workload *const *all = clmem_workloads(&count);
    const char *peak = NULL;
    for (size_t i = 0; i < count; i++)
        if (clmem_workload_is_peak(all[i]))
            peak = all[i]->name;
    for (size_t d = 0; d < n; d++) {
        size_t kept = 0;
        for (size_t i = 0; i < runs[d].n_results; i++) {
            struct clmem_result *r = &runs[d].results[i];
            if (clmem_list_has(list, r->workload) || (peak && strcmp(r->workload, peak) == 0))
                runs[d].results[kept++] = *r;
            else
                clmem_result_free(r);
        }
        runs[d].n_results = kept;
    }
}

/* Whether a run holds a result of a workload the list names. */
static int has_workloads(const char *list, const struct clmem_compare_device *runs, size_t n)
{
    for (size_t d = 0; d < n; d++)
        for (size_t i = 0; i < runs[d].n_results; i++)
            if (clmem_list_has(list, runs[d].results[i].workload))
                return 1;
    return 0;
}

/* Where a live device's bench is: its place among the devices, and the
 * step its results belong to. */
struct progress {
    size_t device, devices;
    const char *name;
    size_t step, steps;
};

static void show_progress(void *user, size_t step, size_t steps, const char *workload,
                          const char *size)
{
    struct progress *p = user;
    p->step = step;
    p->steps = steps;
    if (!cli_progress_on())
        return;
    char what[400];
    snprintf(what, sizeof what, "%s %s on device %zu/%zu (%s)", workload,
             size[0] ? size : "(the device's peaks)", p->device + 1, p->devices, p->name);
    cli_progress_step(step, steps, what);
}

static void show_result(void *user, const struct clmem_result *done, size_t index, size_t count)
{
    (void)index;
    (void)count;
    const struct progress *p = user;
    cli_progress_result(p->step, p->steps, done);
}

/* Whose bench sizes the live devices run (--sizes): common is the CPU
 * sizes when any device compared, live or saved, is a CPU. */
static cl_device_type sizes_type(const char *sizes, const struct clmem_device *devices,
                                 const size_t *chosen, size_t n_chosen,
                                 const struct clmem_compare_device *saved, size_t n_saved)
{
    if (strcmp(sizes, "own") == 0)
        return 0;
    if (strcmp(sizes, "cpu") == 0)
        return CL_DEVICE_TYPE_CPU;
    if (strcmp(sizes, "gpu") == 0)
        return CL_DEVICE_TYPE_GPU;
    int cpu = 0;
    for (size_t i = 0; i < n_chosen; i++)
        cpu |= (devices[chosen[i]].type & CL_DEVICE_TYPE_CPU) != 0;
    for (size_t i = 0; i < n_saved; i++)
        cpu |= (saved[i].device.type & CL_DEVICE_TYPE_CPU) != 0;
    return cpu ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU;
}

/* What compare keeps between its steps. */
struct compare_self {
    /* The devices of the report: the saved runs' (n_saved), then the live
     * ones' (n_live); under mpirun the ranks', borrowed from f->ranks. */
    struct clmem_compare_device *runs;
    size_t n_saved, n_live;
    int borrowed;
    struct cli_chosen chosen;           /* alone: this machine's devices, those run */
    struct clmem_bench_options options; /* under mpirun: this rank's suite */
};

/* The suite's options on a device whose bench sizes are `sizes`'s. */
static struct clmem_bench_options bench_options(const struct cli_opts *o, cl_device_type sizes,
                                                struct progress *progress)
{
    return (struct clmem_bench_options){
        .reps = (unsigned)o->reps,
        .seed = o->seed,
        .compare = o->compare,
        .only = o->workloads,
        .sizes = sizes,
        .progress = progress && !cli_quiet() ? show_progress : NULL,
        .progress_user = progress,
        .done = progress && !cli_quiet() ? show_result : NULL,
        .done_user = progress,
        .cancelled = cli_interrupted,
    };
}

/* bench on one open device, into `live`. */
static int bench_device(const struct cli_opts *o, struct clmem_ctx *ctx, cl_device_type sizes,
                        struct progress *progress, struct clmem_compare_device *live,
                        struct clmem_error *err)
{
    struct clmem_bench_options options = bench_options(o, sizes, progress);
    size_t steps;
    int status = clmem_bench_plan(ctx, &options, &steps, err);
    if (status == CLMEM_OK)
        status = clmem_bench_run(ctx, &options, &live->peak, &live->results, &live->n_results, err);
    return status;
}

/* Bench on each chosen device into live[0 .. *n_live). A device that
 * cannot be opened or fails is reported and the others still run; returns
 * the worst status, or a usage error / interruption at once. */
static int run_live(const struct cli_opts *o, const struct cli_chosen *c, cl_device_type sizes,
                    struct clmem_compare_device *live, size_t *n_live, struct clmem_error *err)
{
    struct clmem_host host;
    int status, worst = CLMEM_OK;
    clmem_host_describe(&host);
    struct cli_open how = {.kernel_dir = o->kernel_dir, .no_cache = o->no_cache};
    for (size_t i = 0; i < c->n && !cli_interrupted(NULL); i++) {
        struct clmem_ctx ctx;
        struct progress progress = {i, c->n, cli_chosen_device(c, i)->name, 0, 0};
        live[i].device = *cli_chosen_device(c, i);
        live[i].rank = -1;
        live[i].host_info = host;
        snprintf(live[i].host, sizeof live[i].host, "%s", host.name);
        *n_live = i + 1;
        /* A device that cannot be opened is reported; the others still run. */
        if ((status = cli_device_open(c, i, &how, &ctx, err))) {
            cli_report_error(err);
            worst = clmem_status_worst(worst, status);
            clmem_error_clear(err);
            continue;
        }
        status = bench_device(o, &ctx, sizes, &progress, &live[i], err);
        cli_report_warnings(&ctx);
        clmem_ctx_close(&ctx);
        if (status == CLMEM_ERR_USAGE || status == CLMEM_ERR_INTERRUPTED)
            return status;
        /* A device that fails is reported; the others still run. */
        if (status == CLMEM_ERR_CL)
            cli_report_error(err);
        worst = clmem_status_worst(worst, status);
        clmem_error_clear(err);
    }
    return worst;
}

/* The report of every device in self->runs; returns `worst`, or how
 * writing the report failed. Interrupted alone, the report covers the
 * devices and workloads that finished. */
static int write_report(struct cli_flow *f, int worst, struct clmem_error *err)
{
    struct compare_self *self = f->self;
    int interrupted = cli_interrupted(NULL);
    size_t n = self->n_saved + self->n_live;
    for (size_t i = self->n_saved; i < n; i++)
        self->runs[i].interrupted = interrupted;
    char note[1300];
    size_t baseline;
    /* A live baseline that never ran (interrupted first): the default. */
    int status = clmem_compare_baseline(f->o.baseline, self->runs, n, &baseline, err);
    if (status && interrupted) {
        clmem_error_clear(err);
        status = clmem_compare_baseline(NULL, self->runs, n, &baseline, err);
    }
    if (status)
        return status;
    status =
        clmem_compare_report_at(f->o.output_dir, self->runs, n, baseline, note, sizeof note, err);
    if (status)
        return status;
    printf("clmem: report for %zu %s in '%s/report.md'\n", n, f->joined ? "rank(s)" : "device(s)",
           f->o.output_dir);
    if (note[0])
        fprintf(stderr, "clmem: warning: %s\n", note);
    return interrupted && !f->joined ? CLMEM_ERR_INTERRUPTED : worst;
}

/* ---- compare's steps ---- */

/* Every file is read and checked before any device or directory. */
static int compare_check(struct cli_flow *f, struct clmem_error *err)
{
    struct compare_self *self = f->self;
    const struct cli_opts *o = &f->o;
    int status = check_files(o, err);
    if (status)
        return status;
    if (f->joined && o->n_args)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "compare reads run files without mpirun: run 'clmem compare FILE...' "
                          "alone");
    for (size_t i = 0; i < o->n_args; i++)
        if ((status = clmem_runfile_load(o->args[i], &self->runs, &self->n_saved, err)))
            return status;
    if (o->workloads) {
        only_workloads(o->workloads, self->runs, self->n_saved);
        /* Files alone (no live device to run the list): a report of
         * nothing but the peaks is refused before its directory is made. */
        if (o->n_args && !o->given[CLI_OPT_DEVICE] &&
            !has_workloads(o->workloads, self->runs, self->n_saved))
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "--workloads '%s' leaves nothing to compare: no run file has a "
                              "result of these workloads",
                              o->workloads);
    }
    f->output_path = o->output_dir;
    return CLMEM_OK;
}

/* The report's directory, never over a file the report reads. */
static int compare_open_output(struct cli_flow *f, struct clmem_error *err)
{
    const struct cli_opts *o = &f->o;
    int status = clmem_compare_dir(o->output_dir, err);
    return status ? status
                  : clmem_compare_inputs_check(o->output_dir, (const char *const *)o->args,
                                               o->n_args, err);
}

/* Alone: the saved runs and the live devices --device names (with no
 * file: every device), one after the other. */
static int compare_alone(struct cli_flow *f, struct clmem_error *err)
{
    struct compare_self *self = f->self;
    const struct cli_opts *o = &f->o;
    int status, live_wanted = o->n_args == 0 || o->given[CLI_OPT_DEVICE];
    if (live_wanted &&
        (status = cli_devices_pick(&o->devices, CLI_CHOOSE_ONCE | CLI_CHOOSE_ALL,
                                   CLI_DRIVER_ADDRESS_SPACE_MIB, &self->chosen, err)))
        return status;
    size_t n_chosen = self->chosen.n;
    struct clmem_compare_device *all =
        realloc(self->runs, (self->n_saved + n_chosen + 1) * sizeof *all);
    if (!all)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    self->runs = all;
    memset(self->runs + self->n_saved, 0, (n_chosen + 1) * sizeof *self->runs);
    /* --baseline names an entry before any device runs. */
    size_t baseline;
    for (size_t i = 0; i < n_chosen; i++)
        self->runs[self->n_saved + i].device = *cli_chosen_device(&self->chosen, i);
    if ((status = clmem_compare_baseline(o->baseline, self->runs, self->n_saved + n_chosen,
                                         &baseline, err)))
        return status;
    /* With devices to run, the first INT, TERM or HUP lets the variant
     * finish and the report covers what finished; with files alone
     * nothing runs that is worth waiting for: every signal stops at once
     * (the report's temporary directory and gnuplot taken away). */
    if (n_chosen)
        cli_catch_interrupts();
    cl_device_type sizes = sizes_type(o->sizes, self->chosen.devices, self->chosen.at, n_chosen,
                                      self->runs, self->n_saved);
    int worst = run_live(o, &self->chosen, sizes, self->runs + self->n_saved, &self->n_live, err);
    for (size_t i = self->n_saved; i < self->n_saved + self->n_live; i++)
        f->kept += self->runs[i].n_results;
    return worst == CLMEM_ERR_USAGE ? worst : write_report(f, worst, err);
}

/* Under mpirun: the suite on this rank's device, at the sizes --sizes
 * gives it. */
static int compare_plan(struct cli_flow *f, struct clmem_error *err)
{
    struct compare_self *self = f->self;
    size_t only = 0, steps;
    self->options =
        bench_options(&f->o, sizes_type(f->o.sizes, &f->ctx.device, &only, 1, NULL, 0), NULL);
    return clmem_bench_plan(&f->ctx, &self->options, &steps, err);
}

static int compare_run(struct cli_flow *f, struct clmem_error *err)
{
    struct compare_self *self = f->self;
    int status =
        clmem_bench_run(&f->ctx, &self->options, &f->peak, &f->results, &f->n_results, err);
    f->has_peak = f->n_results > 0;
    return status;
}

/* Under mpirun, on rank 0: a column per rank. */
static int compare_report(struct cli_flow *f, int status, struct clmem_error *err)
{
    struct compare_self *self = f->self;
    if (f->ranks.n == 0)
        return status;
    int listed = cli_rank_runs_devices(&f->ranks, &self->runs, &self->n_saved, err);
    self->borrowed = 1;
    return listed ? listed : write_report(f, status, err);
}

static void compare_release(struct cli_flow *f)
{
    struct compare_self *self = f->self;
    if (self->borrowed)
        free(self->runs); /* the ranks' results are the gathered ones */
    else
        clmem_compare_devices_free(self->runs, self->n_saved + self->n_live);
    cli_chosen_free(&self->chosen);
}

int cmd_compare(int argc, char **argv)
{
    const struct cli_steps steps = {.spec = &cli_compare_spec,
                                    .check = compare_check,
                                    .open_output = compare_open_output,
                                    .alone = compare_alone,
                                    .plan = compare_plan,
                                    .run = compare_run,
                                    .report = compare_report,
                                    .release = compare_release};
    struct compare_self self = {0};
    return cli_flow_run(&steps, &self, argc, argv);
}
