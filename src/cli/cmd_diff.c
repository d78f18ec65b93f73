/* clmem diff: two run files compared result by result (src/report/diff.c),
 * exiting 4 on a regression, so that CI can gate on performance. */
#include "commands.h"

#include "common.h"
#include "option_help.h"
#include "options.h"
#include "report/report.h"
#include "suggest.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct cli_use diff_uses[] = {
    {.id = CLI_OPT_THRESHOLD},
    {.id = CLI_OPT_WORKLOADS, .def_help = "every workload of either file"},
    {.id = CLI_OPT_CHANGES},
    {.id = CLI_OPT_FORMAT},
    {.id = CLI_OPT_OUTPUT},
};

const struct cli_spec cli_diff_spec = {
    .name = "diff",
    .synopsis = "BASE.json NEW.json [options]",
    .about = "Compares two run files ('clmem bench --output FILE', 'clmem run --format json'):\n"
             "every result of either, matched by workload, variant, size and sweep point,\n"
             "gets NEW's metric over BASE's and a verdict (every metric is higher-is-better):\n"
             "  same      no change beyond the noise rule below\n"
             "  faster    NEW's metric is higher, beyond the noise rule\n"
             "  slower    NEW's metric is lower, beyond the noise rule\n"
             "  new       only in NEW, or verified in NEW and not in BASE\n"
             "  gone      only in BASE, or ok in BASE and skipped in NEW\n"
             "  failed    NEW did not verify\n"
             "  skipped   skipped in both (or in NEW, BASE having failed)\n"
             "  not run   only in BASE, NEW having run none of its workload (a run of\n"
             "            some workloads: bench --workloads); not a regression\n\n"
             "Noise rule: a change counts only when it exceeds the threshold AND the runs'\n"
             "own spread: slower needs NEW's fastest sample (min_ms) to be slower than\n"
             "BASE's slowest (max_ms), faster the reverse; anything else is same. A result\n"
             "of one sample spreads over that sample alone: bench with --reps 3 or more.\n\n"
             "When each file holds one run, the two are paired whatever their devices (a\n"
             "new driver, another machine); files of several runs (mpirun: one per rank)\n"
             "pair by rank, else by device name. The table starts and ends with the\n"
             "summary line; with --output, stdout shows it. --workloads gates on those\n"
             "workloads alone.\n",
    .more = "exit codes: 0 no regression, 2 usage error, a file that cannot be read or\n"
            "written, or one naming a workload this clmem does not know, 4 a regression:\n"
            "a result slower, failed or gone, or a run file marked interrupted\n"
            "(incomplete)\n",
    CLI_USES(diff_uses),
    .min_args = 2,
    .max_args = 2,
    .missing = "diff needs two run files, BASE and NEW (see 'clmem diff --help')",
};

/* The report must not replace a file it compares: renamed over it, the
 * baseline a CI job keeps would be lost. */
static int check_output(const struct cli_opts *a, struct clmem_error *err)
{
    const char *const inputs[] = {a->args[0], a->args[1]};
    int i = a->output ? clmem_file_among(a->output, 1, inputs, CLMEM_ARRAY_SIZE(inputs)) : -1;
    if (i >= 0)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--output '%s' is the run file '%s': the report would replace it",
                          a->output, inputs[i]);
    return CLMEM_OK;
}

/* Every result of a run file is of a workload this clmem knows: a name it
 * does not (a file edited by hand, or one of another program's) is refused
 * before any output, rather than diffed as new or gone. The report layer
 * reads results, never the workloads' list: the check is the command's. */
static int check_workloads(const char *path, const struct clmem_compare_device *runs, size_t n,
                           struct clmem_error *err)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < runs[i].n_results; j++) {
            const char *name = runs[i].results[j].workload;
            /* Results come grouped by workload: each name looked up once. */
            if (j > 0 && strcmp(name, runs[i].results[j - 1].workload) == 0)
                continue;
            if (!clmem_workload_find(name)) {
                char hint[96];
                cli_suggest_workload(name, hint, sizeof hint);
                return clmem_fail(err, CLMEM_ERR_USAGE,
                                  "'%s': unknown workload '%s' (%stry 'clmem list')", path, name,
                                  hint);
            }
        }
    return CLMEM_OK;
}

int cmd_diff(int argc, char **argv)
{
    struct cli_opts a;
    struct clmem_error err = {0};
    struct clmem_output output = {0};
    struct clmem_compare_device *base = NULL, *newer = NULL;
    struct clmem_diff diff = {0};
    size_t n_base = 0, n_newer = 0;
    int status;

    if ((status = cli_parse(&cli_diff_spec, argc, argv, &a, &err)) || a.help) {
        if (a.help && !cli_silent)
            cli_help(&cli_diff_spec, stdout);
        return status ? cli_report_error(&err) : CLMEM_OK;
    }
    const char *base_file = a.args[0], *new_file = a.args[1];
    /* Both files are read, and refused with the reader's reason, before
     * anything is written. */
    if ((status = clmem_runfile_load(base_file, &base, &n_base, &err)) ||
        (status = clmem_runfile_load(new_file, &newer, &n_newer, &err)) ||
        (status = check_workloads(base_file, base, n_base, &err)) ||
        (status = check_workloads(new_file, newer, n_newer, &err)) ||
        (status = check_output(&a, &err)) ||
        (status = clmem_diff_runs(base, n_base, newer, n_newer, a.threshold, &diff, &err)))
        goto cleanup;
    if (a.workloads) {
        if ((status = clmem_diff_only(&diff, a.workloads, &err)))
            goto cleanup;
        /* An empty table would pass the gate on nothing. */
        if (diff.n_rows == 0) {
            status = clmem_fail(&err, CLMEM_ERR_USAGE,
                                "--workloads '%s' leaves nothing to compare: neither '%s' nor '%s' "
                                "has a result of these workloads",
                                a.workloads, base_file, new_file);
            goto cleanup;
        }
    }
    diff.changes_only = a.changes;
    enum clmem_format format = cli_output_format(&a, a.format);
    if (a.output && (status = clmem_output_open(&output, a.output, &err)))
        goto cleanup;
    status = clmem_diff_write(output.file ? output.file : stdout, format, &diff, &err);
    if (output.file)
        status = clmem_output_end(&output, status, &err);
    if (status)
        goto cleanup;
    /* With the report in a file, a CI log still shows the outcome. */
    if (a.output) {
        char summary[256];
        clmem_diff_summary(&diff, summary, sizeof summary);
        printf("%s: %s (report in '%s')\n", summary, clmem_diff_outcome(&diff), a.output);
    }
    status = clmem_diff_regressed(&diff) ? CLMEM_DIFF_REGRESSION : CLMEM_OK;

cleanup:
    if (status && status != CLMEM_DIFF_REGRESSION)
        cli_report_error(&err);
    clmem_output_abort(&output);
    clmem_diff_free(&diff);
    clmem_compare_devices_free(base, n_base);
    clmem_compare_devices_free(newer, n_newer);
    clmem_error_clear(&err);
    return status;
}
