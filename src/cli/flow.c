/* The one flow of the commands that run workloads (flow.h): the
 * same steps alone and under mpirun, the ranks meeting only here. */
#include "flow.h"

#include "common.h"
#include "option_help.h"
#include "options.h"
#include "ranks.h"
#include "stopping.h"

void cli_say_failures(const struct clmem_result *results, size_t n, int with_size)
{
    for (size_t i = 0; i < n; i++) {
        const struct clmem_result *r = &results[i];
        /* An error's results: the error is said once, at the end. */
        if (r->skipped || r->verified || r->error[0])
            continue;
        if (with_size)
            fprintf(stderr, "clmem: %s %s at %s: verification failed: %s\n", r->workload,
                    r->variant, r->size, r->verify_detail);
        else
            fprintf(stderr, "clmem: %s %s: verification failed: %s\n", r->workload, r->variant,
                    r->verify_detail);
    }
}

/* --energy where the device has no counter: why, once on stderr (a table
 * shows no energy columns then, and the reason is otherwise only in the
 * JSON). */
static void say_no_energy(const struct clmem_result *results, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct clmem_result *r = &results[i];
        if (!r->skipped && !r->energy_source[0] && r->energy_na[0]) {
            fprintf(stderr, "clmem: warning: --energy: no energy figures on '%s': %s\n", r->device,
                    r->energy_na);
            return;
        }
    }
}

/* Where the report goes, on the reporter (alone, or rank 0): the
 * command's own place, or the file f->output_path. */
static int open_output(struct cli_flow *f, struct clmem_error *err)
{
    if (!ranks_is_reporter())
        return CLMEM_OK;
    if (f->steps->open_output)
        return f->steps->open_output(f, err);
    return f->output_path ? clmem_output_open(&f->output, f->output_path, err) : CLMEM_OK;
}

/* Opens the device, plans and runs: each process its own run (every
 * rank's then gathered on rank 0), or SUMMA, the ranks together. *ran:
 * the run started, and so has something to report. */
static int run_on_device(struct cli_flow *f, int *ran, struct clmem_error *err)
{
    const struct cli_steps *steps = f->steps;
    struct cli_open how = {.kernel_dir = f->o.kernel_dir, .no_cache = f->o.no_cache};
    int status = ranks_open_device(&f->o.devices, &how, &f->ctx, err);
    if (status)
        return status;
    if (f->summa) {
        /* The ranks multiply together: rank 0 gets the one result. */
        cli_catch_interrupts();
        *ran = 1;
        return ranks_summa(&f->o, &f->ctx, &f->results, &f->n_results, err);
    }
    if ((status = ranks_agree_status(steps->plan ? steps->plan(f, err) : CLMEM_OK, err)))
        return status;
    /* Planned: from here a signal stops after the current variant. */
    cli_catch_interrupts();
    *ran = 1;
    status = cli_stop_status(steps->run(f, err));
    /* Under mpirun rank 0 gets every rank's run and says each rank's
     * failures; alone, they are said here. */
    status = ranks_gather_runs(&f->ctx.device, f->has_peak ? &f->peak : NULL, status, f->results,
                               f->n_results, &f->ranks, err);
    if (!f->joined) {
        cli_say_failures(f->results, f->n_results, steps->failures_name_size);
        if (f->o.energy)
            say_no_energy(f->results, f->n_results);
    }
    if (steps->merge_ranks) {
        int merged = cli_rank_runs_results(&f->ranks, 1, &f->results, &f->n_results, err);
        if (merged)
            status = merged;
    }
    return status;
}

int cli_flow_run(const struct cli_steps *steps, void *self, int argc, char **argv)
{
    struct cli_flow f = {.steps = steps, .self = self, .joined = ranks_joined()};
    struct clmem_error err = {0};

    int status = cli_parse(steps->spec, argc, argv, &f.o, &err);
    f.output_path = f.o.output;
    if (status == CLMEM_OK && !f.o.help && steps->check)
        status = steps->check(&f, &err);
    if ((status = ranks_agree_status(status, &err)))
        goto end;
    if (f.o.help) {
        if (!cli_silent)
            cli_help(steps->spec, stdout);
        if (steps->release)
            steps->release(&f);
        return CLMEM_OK;
    }
    /* Where the report goes is checked before any work. */
    if ((status = ranks_agree_status(open_output(&f, &err), &err)))
        goto end;
    if (!f.joined && steps->alone && (status = steps->alone(&f, &err)) != CLI_FLOW_ONE_DEVICE)
        goto end;
    int ran = 0;
    status = run_on_device(&f, &ran, &err);
    f.kept = f.n_results;
    if (ran && ranks_is_reporter() && steps->report)
        status = steps->report(&f, status, &err);

end:
    /* Every rank comes here, and exits with rank 0's status. */
    status = ranks_exit_status(status);
    cli_report_warnings(&f.ctx);
    status = cli_report_end(status, f.kept, f.output_path, &err);
    clmem_output_abort(&f.output);
    if (steps->release)
        steps->release(&f);
    cli_rank_runs_free(&f.ranks);
    clmem_results_free(f.results, f.n_results);
    clmem_ctx_close(&f.ctx);
    clmem_error_clear(&err);
    return status;
}
