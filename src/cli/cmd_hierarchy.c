/* clmem hierarchy: the device's memory hierarchy level by level. Each
 * probe of workload `hierarchy` swept over working sets and verified
 * (src/workloads/hierarchy_sweep.c), the levels named from the chase's
 * latency staircase with their sizes, and the read bandwidth's plateaus
 * matched to them; then local, constant and private memory, images, copies
 * between host and device, atomics. Its steps go through the one flow
 * (flow.c): check, plan, run, report. */
#include "commands.h"

#include "flow.h"
#include "options.h"
#include "progress.h"
#include "report/hierarchy_table.h"
#include "report/report.h"
#include "stopping.h"
#include "suggest.h"
#include "workloads/hierarchy.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The table's words where they are another command's: no auto, no
 * matmul shape, no result lines (hierarchy prints its results at the
 * end), the table beside --output's file. */
static const struct cli_use hierarchy_uses[] = {
    {.id = CLI_OPT_VARIANT, .help = "one probe, or all of them; 'clmem list hierarchy' names them"},
    {.id = CLI_OPT_SIZE,
     .def_help = "4x the largest cache known (a CPU's host's too), GPUs 1 GiB at least, CPUs "
                 "16 MiB, within the device's memory",
     .help = "the largest working set of the sweeps, in bytes: one number N, 4096 at least"},
    {.id = CLI_OPT_DEVICE, .flags = CLI_ONE_DEVICE},
    {.id = CLI_OPT_REPS},
    {.id = CLI_OPT_WARMUP},
    {.id = CLI_OPT_SEED},
    {.id = CLI_OPT_FORMAT},
    {.id = CLI_OPT_OUTPUT,
     .help = "write the report there (whole, or not at all): JSON with the levels unless FILE.csv "
             "or --format says otherwise; the table then goes to stdout as well, unless stdout "
             "is closed"},
    {.id = CLI_OPT_KERNEL_DIR},
    {.id = CLI_OPT_NO_CACHE},
    {.id = CLI_OPT_PROGRESS,
     .help = "progress lines on stderr (step, elapsed time, time left), one a probe and working "
             "set, even off a terminal; on a terminal they are on by default"},
    {.id = CLI_OPT_QUIET,
     .help = "no progress or other informational lines on stderr (errors still)"},
};

const struct cli_spec cli_hierarchy_spec = {
    .name = "hierarchy",
    .synopsis = "[options]",
    .about = "Measures the device's memory hierarchy: the latency of dependent loads over one\n"
             "random cycle (a pointer chase) at working sets from 1 KiB to --size bytes, with\n"
             "each level's latency and size named (L1, L2, last-level cache, device memory:\n"
             "only past twice the largest cache known and with its step at that cache or\n"
             "past it; a step with fewer than 3 points is unresolved; on a GPU, two close\n"
             "steps are a split L2's near and far halves), the TLB's reach (the chase with\n"
             "one element a page), and the read bandwidth at each working set, its plateaus\n"
             "matched to the levels;\n"
             "the same chase in __local memory; __local reads conflict-free, at strides of 1\n"
             "to 32 words and as a broadcast; __constant against __global; a private array in\n"
             "registers and spilled; image2d_t against a buffer; copies between host and\n"
             "device from 4 KiB up (pageable, pinned, map and unmap, device to device);\n"
             "atomics. Every probe is verified. --variant runs one probe ('clmem list\n"
             "hierarchy'); --size is the largest working set, in bytes. With --output FILE\n"
             "the report goes there (JSON by default, with the levels) and the table to\n"
             "stdout, unless stdout is closed.\n",
    .more = "Ctrl-C stops after the current probe and reports what finished.\n"
            "exit codes: 0 ok, 1 verification failed, 2 usage error or a file that cannot\n"
            "be written, 3 no OpenCL device or OpenCL error, 128+N stopped by signal N\n"
            "(130: Ctrl-C)\n",
    CLI_USES(hierarchy_uses),
    .min_args = 0,
    .max_args = 0,
};

/* What hierarchy keeps between its steps. */
struct hierarchy_self {
    struct clmem_hierarchy_options options;
    struct clmem_hierarchy h;
    int stdout_closed; /* at the start (>&-): no table beside --output's file */
};

static void show_progress(void *user, size_t step, size_t steps, const char *variant, size_t bytes)
{
    (void)user;
    char what[160];
    snprintf(what, sizeof what, "hierarchy %s at %zu bytes", variant, bytes);
    cli_progress_step(step, steps, what);
}

/* ---- steps ---- */

static int hierarchy_check(struct cli_flow *f, struct clmem_error *err)
{
    struct hierarchy_self *self = f->self;
    const struct cli_opts *o = &f->o;
    self->options = (struct clmem_hierarchy_options){.variant = o->variant,
                                                     .reps = (unsigned)o->reps,
                                                     .warmup = (unsigned)o->warmup,
                                                     .seed = o->seed,
                                                     .cancelled = cli_interrupted};
    if (o->variant && strcmp(o->variant, "all") != 0 &&
        !clmem_variant_find(&clmem_workload_hierarchy, o->variant)) {
        char hint[96];
        cli_suggest_variant(&clmem_workload_hierarchy, o->variant, hint, sizeof hint);
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "unknown probe '%s' of 'hierarchy' (%stry 'clmem list hierarchy')",
                          o->variant, hint);
    }
    /* Without --output the report is stdout's: said before the sweep, not
     * after it (and never written to a file that took the closed number). */
    if (self->stdout_closed && !o->output)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "stdout is closed: the report has nowhere to go (give --output FILE)");
    if (o->size) {
        struct clmem_size size;
        int status = clmem_size_parse(o->size, &size, err);
        if (status)
            return status;
        if (size.ndims != 1)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "--size '%s': the largest working set is one number of bytes",
                              o->size);
        self->options.extent = size.dim[0];
    }
    return clmem_sources_check(o->kernel_dir, &clmem_workload_hierarchy, o->variant, err);
}

static int hierarchy_plan(struct cli_flow *f, struct clmem_error *err)
{
    struct hierarchy_self *self = f->self;
    size_t steps;
    self->options.progress = cli_progress_on() ? show_progress : NULL;
    return clmem_hierarchy_plan(&f->ctx, &self->options, &steps, err);
}

static int hierarchy_run(struct cli_flow *f, struct clmem_error *err)
{
    struct hierarchy_self *self = f->self;
    return clmem_hierarchy_run(&f->ctx, &self->options, &self->h, &f->results, &f->n_results, err);
}

static int hierarchy_report(struct cli_flow *f, int status, struct clmem_error *err)
{
    struct hierarchy_self *self = f->self;
    const struct cli_opts *o = &f->o;
    int interrupted = status == CLMEM_ERR_INTERRUPTED;
    if (status != CLMEM_OK && status != CLMEM_ERR_VERIFY && !interrupted)
        return status;
    /* --output FILE gets the run file (--format's, else FILE's extension's,
     * else JSON) and stdout the table, so that one sweep gives both. The
     * file first: it is what a long run is for; the table a copy that a
     * closed stdout does not want. */
    const struct clmem_result *r = f->results;
    size_t n = f->n_results;
    const struct clmem_device *device = &f->ctx.device;
    if (!f->output.file) {
        int write_status =
            clmem_hierarchy_write(stdout, o->format, r, n, device, &self->h, interrupted, err);
        return write_status ? write_status : status;
    }
    int write_status = clmem_output_end(
        &f->output,
        clmem_hierarchy_write(f->output.file, cli_output_format(o, CLMEM_FORMAT_JSON), r, n,
                              device, &self->h, interrupted, err),
        err);
    if (write_status == CLMEM_OK && !self->stdout_closed &&
        clmem_hierarchy_write(stdout, CLMEM_FORMAT_TABLE, r, n, device, &self->h, interrupted,
                              err) != CLMEM_OK) {
        int saved = errno ? errno : EIO;
        write_status = clmem_fail(err, CLMEM_ERR_USAGE,
                                  "the report is in '%s', but its table cannot be written to "
                                  "stdout: %s",
                                  f->output.path, strerror(saved));
    }
    return write_status ? write_status : status;
}

int cmd_hierarchy(int argc, char **argv)
{
    const struct cli_steps steps = {.spec = &cli_hierarchy_spec,
                                    .check = hierarchy_check,
                                    .plan = hierarchy_plan,
                                    .run = hierarchy_run,
                                    .report = hierarchy_report};
    struct hierarchy_self self;
    memset(&self, 0, sizeof self);
    /* Looked at before anything opens a file: one opened later may take
     * the closed descriptor's number. */
    self.stdout_closed = fcntl(STDOUT_FILENO, F_GETFD) < 0 && errno == EBADF;
    return cli_flow_run(&steps, &self, argc, argv);
}
