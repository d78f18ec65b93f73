/* clmem bench: the whole suite at benchmark sizes on one device, each
 * result beside the device's own measured peak; under mpirun, on a device
 * per rank, one report from rank 0. Its steps go through the one flow
 * (flow.c): plan, run, report. */
#include "commands.h"

#include "flow.h"
#include "options.h"
#include "progress.h"
#include "ranks.h"
#include "report/report.h"
#include "stopping.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct cli_use bench_uses[] = {
    {.id = CLI_OPT_DEVICE, .flags = CLI_ONE_DEVICE_ALONE},
    {.id = CLI_OPT_WORKLOADS},
    {.id = CLI_OPT_REPS},
    {.id = CLI_OPT_SEED},
    {.id = CLI_OPT_FORMAT},
    {.id = CLI_OPT_OUTPUT},
    {.id = CLI_OPT_KERNEL_DIR},
    {.id = CLI_OPT_NO_CACHE},
    {.id = CLI_OPT_COMPARE},
    {.id = CLI_OPT_ENERGY},
    {.id = CLI_OPT_PROGRESS},
    {.id = CLI_OPT_QUIET},
};

const struct cli_spec cli_bench_spec = {
    .name = "bench",
    .synopsis = "[options]",
    .about = "Measures the device's peaks ('clmem peak'), then runs every workload's variants\n"
             "at its benchmark sizes (larger on GPUs than on CPUs; 'clmem list' shows the\n"
             "defaults), verifying each, and reports each result's fraction of the peak.\n"
             "A workload that fails does not stop the others. --format chooses what stdout\n"
             "shows; --output also writes the JSON report there (CSV when named FILE.csv).\n"
             "Without mpirun bench takes one device ('clmem compare' benches several).\n"
             "Under mpirun (clmem built with MPI), each rank runs on one device of its\n"
             "host, chosen by its rank there from --device (a device, a list or all;\n"
             "default: the host's GPUs), and rank 0 reports every rank's results (JSON: a\n"
             "section per rank).\n",
    .more = "Ctrl-C stops after the current variant and reports the results that finished\n"
            "(exit 130).\n"
            "exit codes: 0 ok, 1 a verification failed, 2 usage error or a file that\n"
            "cannot be written, 3 no OpenCL device or OpenCL error, 128+N stopped by\n"
            "signal N (130: Ctrl-C)\n",
    CLI_USES(bench_uses),
    .min_args = 0,
    .max_args = 0,
};

/* What bench keeps between its steps: the suite's options, and the step
 * its results belong to. */
struct bench_self {
    struct clmem_bench_options options;
    size_t step, steps;
};

static void show_progress(void *user, size_t step, size_t steps, const char *workload,
                          const char *size)
{
    struct bench_self *self = user;
    self->step = step;
    self->steps = steps;
    if (!cli_progress_on())
        return;
    char what[200];
    snprintf(what, sizeof what, "%s %s", workload, size[0] ? size : "(the device's peaks)");
    cli_progress_step(step, steps, what);
}

static void show_result(void *user, const struct clmem_result *done, size_t index, size_t count)
{
    (void)index;
    (void)count;
    const struct bench_self *self = user;
    cli_progress_result(self->step, self->steps, done);
}

/* The --output file: JSON (what compare and diff read), CSV when named
 * FILE.csv; --format chooses what stdout shows. */
static enum clmem_format bench_file_format(struct cli_opts *o)
{
    unsigned char given = o->given[CLI_OPT_FORMAT];
    o->given[CLI_OPT_FORMAT] = 0;
    enum clmem_format format = cli_output_format(o, CLMEM_FORMAT_JSON);
    o->given[CLI_OPT_FORMAT] = given;
    return format;
}

/* The suite's options: its workloads and sizes checked on the device. */
static int bench_plan(struct cli_flow *f, struct clmem_error *err)
{
    struct bench_self *self = f->self;
    size_t steps;
    /* The steps are followed whenever the results are shown; under
     * mpirun one rank's results are not the job's. */
    int shown = !cli_quiet() && !f->joined;
    self->options = (struct clmem_bench_options){
        .reps = (unsigned)f->o.reps,
        .seed = f->o.seed,
        .compare = f->o.compare,
        .only = f->o.workloads,
        .energy = (unsigned)f->o.energy,
        .progress = shown || cli_progress_on() ? show_progress : NULL,
        .progress_user = self,
        .cancelled = cli_interrupted,
        .done = shown ? show_result : NULL,
        .done_user = self,
    };
    return clmem_bench_plan(&f->ctx, &self->options, &steps, err);
}

static int bench_run(struct cli_flow *f, struct clmem_error *err)
{
    struct bench_self *self = f->self;
    int status =
        clmem_bench_run(&f->ctx, &self->options, &f->peak, &f->results, &f->n_results, err);
    /* Stopped before the peaks were measured: none to report. */
    f->has_peak = f->peak.bandwidth > 0 || f->peak.flops > 0;
    return status;
}

/* Whatever ran is reported, even when a workload failed (interrupted, what
 * finished: JSON says "interrupted"); under mpirun, every rank's, a
 * section each. */
static int bench_report(struct cli_flow *f, int status, struct clmem_error *err)
{
    int interrupted = status == CLMEM_ERR_INTERRUPTED;
    int write_status = CLMEM_OK;
    if (f->joined ? f->ranks.n == 0 : f->n_results == 0 && !interrupted)
        return status;
    if (f->ranks.n) {
        write_status = cli_rank_runs_write(&f->ranks, f->o.format, &f->output, interrupted, err);
    } else {
        struct clmem_report_meta meta = {.device = &f->ctx.device,
                                         .peak = f->has_peak ? &f->peak : NULL,
                                         .interrupted = interrupted};
        /* The file first: it is what a long run is for, stdout may be closed. */
        if (f->output.file)
            write_status = clmem_output_report(&f->output, bench_file_format(&f->o), f->results,
                                               f->n_results, &meta, err);
        if (write_status == CLMEM_OK)
            write_status =
                clmem_report_write(stdout, f->o.format, f->results, f->n_results, &meta, err);
    }
    return write_status ? write_status : status;
}

int cmd_bench(int argc, char **argv)
{
    const struct cli_steps steps = {.spec = &cli_bench_spec,
                                    .failures_name_size = 1,
                                    .plan = bench_plan,
                                    .run = bench_run,
                                    .report = bench_report};
    struct bench_self self = {0};
    return cli_flow_run(&steps, &self, argc, argv);
}
