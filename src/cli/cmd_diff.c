/* clmem diff: two run files compared result by result (src/report/diff.c),
 * exiting 4 on a regression, so that CI can gate on performance. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct diff_args {
    const char *base, *newer, *output;
    double threshold;
    enum clmem_format format;
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: clmem diff BASE.json NEW.json [options]\n\n"
            "Compares two run files ('clmem bench --output FILE', 'clmem run --format json'):\n"
            "every result of either, matched by workload, variant, size and sweep point,\n"
            "gets NEW's metric over BASE's and a verdict (every metric is higher-is-better):\n"
            "  same      no change beyond the noise rule below\n"
            "  faster    NEW's metric is higher, beyond the noise rule\n"
            "  slower    NEW's metric is lower, beyond the noise rule\n"
            "  new       only in NEW, or verified in NEW and not in BASE\n"
            "  gone      only in BASE, or ok in BASE and skipped in NEW\n"
            "  failed    NEW did not verify\n"
            "  skipped   skipped in both (or in NEW, BASE having failed)\n\n"
            "Noise rule: a change counts only when it exceeds the threshold AND the runs'\n"
            "own spread: slower needs NEW's fastest sample (min_ms) to be slower than\n"
            "BASE's slowest (max_ms), faster the reverse; anything else is same. A result\n"
            "of one sample spreads over that sample alone: bench with --reps 3 or more.\n\n"
            "When each file holds one run, the two are paired whatever their devices (a\n"
            "new driver, another machine); files of several runs (mpirun: one per rank)\n"
            "pair by rank, else by device name.\n\n"
            "options:\n"
            "  --threshold PCT     smallest change that counts, in percent, 0 to 1000\n"
            "                      (default 5; decimals such as 2.5 are fine)\n"
            "  --format F          table (default), csv or json\n"
            "  --output FILE       write the report there (whole, or not at all);\n"
            "                      stdout then shows the summary line\n\n"
            "exit codes: 0 no regression, 2 usage error or a file that cannot be read or\n"
            "written, 4 a regression: a result slower, failed or gone\n");
}

/* A percentage as people write it: digits, at most one point ("5", "2.5",
 * ".5"); no sign, exponent, hex, inf or nan, which strtod would take. */
static int parse_threshold(const char *text, double *value, struct clmem_error *err)
{
    size_t digits = 0, points = 0;
    for (const char *p = text; *p; p++) {
        digits += isdigit((unsigned char)*p) != 0;
        points += *p == '.';
        if (!isdigit((unsigned char)*p) && *p != '.')
            break;
    }
    if (text[0] == '-')
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--threshold '%s' is negative (expected a percentage, 0 to %g)", text,
                          CLMEM_DIFF_MAX_THRESHOLD);
    if (digits == 0 || points > 1 || digits + points != strlen(text))
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--threshold '%s' is not a number (expected a percentage, 0 to %g)", text,
                          CLMEM_DIFF_MAX_THRESHOLD);
    *value = strtod(text, NULL);
    if (*value > CLMEM_DIFF_MAX_THRESHOLD)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "--threshold '%s' is out of range (expected a percentage, 0 to %g)", text,
                          CLMEM_DIFF_MAX_THRESHOLD);
    return CLMEM_OK;
}

static int parse_args(int argc, char **argv, struct diff_args *a, int *help,
                      struct clmem_error *err)
{
    static const struct option long_options[] = {{"threshold", required_argument, NULL, 't'},
                                                 {"format", required_argument, NULL, 'f'},
                                                 {"output", required_argument, NULL, 'o'},
                                                 {"help", no_argument, NULL, 'h'},
                                                 {0}};
    int c, status = CLMEM_OK;
    char bad[3];
    opterr = 0;
    optind = 0; /* a full reset of getopt's state, as glibc and musl read it */
    while (status == CLMEM_OK && (c = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
        switch (c) {
        case 't': status = parse_threshold(optarg, &a->threshold, err); break;
        case 'f': status = clmem_format_parse(optarg, &a->format, err); break;
        case 'o': a->output = optarg; break;
        case 'h': *help = 1; return CLMEM_OK;
        default:
            return cli_option_error("diff", c, cli_refused_option(argc, argv, bad, sizeof bad),
                                    err);
        }
    }
    if (status)
        return status;
    if (argc - optind < 2)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "diff needs two run files, BASE and NEW (see 'clmem diff --help')");
    if (argc - optind > 2)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "unexpected argument '%s' (see 'clmem diff --help')", argv[optind + 2]);
    a->base = argv[optind];
    a->newer = argv[optind + 1];
    return CLMEM_OK;
}

/* The report must not replace a file it compares: renamed over it, the
 * baseline a CI job keeps would be lost. */
static int check_output(const struct diff_args *a, struct clmem_error *err)
{
    struct stat out, in;
    if (!a->output || stat(a->output, &out) != 0)
        return CLMEM_OK;
    const char *inputs[] = {a->base, a->newer};
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(inputs); i++)
        if (stat(inputs[i], &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "--output '%s' is the run file '%s': the report would replace it",
                              a->output, inputs[i]);
    return CLMEM_OK;
}

int cmd_diff(int argc, char **argv)
{
    struct diff_args a = {.threshold = CLMEM_DIFF_DEFAULT_THRESHOLD, .format = CLMEM_FORMAT_TABLE};
    struct clmem_error err = {0};
    struct clmem_output output = {0};
    struct clmem_compare_device *base = NULL, *newer = NULL;
    struct clmem_diff diff = {0};
    size_t n_base = 0, n_newer = 0;
    int help = 0, status;

    if ((status = parse_args(argc, argv, &a, &help, &err)) || help) {
        if (help && !cli_silent)
            usage(stdout);
        return status ? cli_report_error(&err) : CLMEM_OK;
    }
    /* Both files are read, and refused with the reader's reason, before
     * anything is written. */
    if ((status = clmem_runfile_load(a.base, &base, &n_base, &err)) ||
        (status = clmem_runfile_load(a.newer, &newer, &n_newer, &err)) ||
        (status = check_output(&a, &err)) ||
        (status = clmem_diff_runs(base, n_base, newer, n_newer, a.threshold, &diff, &err)))
        goto cleanup;
    if (a.output && (status = clmem_output_open(&output, a.output, &err)))
        goto cleanup;
    cli_signals_temp(output.tmp_path);
    status = clmem_diff_write(output.file ? output.file : stdout, a.format, &diff, &err);
    if (status == CLMEM_ERR_USAGE && output.file)
        status = clmem_fail(&err, CLMEM_ERR_USAGE, "cannot write '%s': %s", a.output,
                            strerror(errno ? errno : EIO));
    if (status == CLMEM_OK && output.file)
        status = clmem_output_commit(&output, &err);
    if (status)
        goto cleanup;
    /* With the report in a file, a CI log still shows the outcome. */
    if (a.output) {
        char summary[256];
        clmem_diff_summary(&diff, summary, sizeof summary);
        printf("%s: %s (report in '%s')\n", summary,
               clmem_diff_regressed(&diff) ? "a regression" : "no regression", a.output);
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
