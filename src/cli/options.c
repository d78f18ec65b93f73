/* The option table of every command, its parser and the help made from it
 * (options.h). Adding an option: one row here, its field in struct
 * cli_opts, and its id in the cli_use lists of the commands that take it. */
#include "options.h"

#include "common.h"
#include "progress.h"
#include "report/report.h"
#include "suggest.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const sizes_choices[] = {"common", "own", "cpu", "gpu", NULL};

#define AT(field) offsetof(struct cli_opts, field)

/* Every option once, indexed by enum cli_opt. */
static const struct cli_option options[CLI_OPT_COUNT] = {
    [CLI_OPT_VARIANT] =
        {.name = "variant",
         .type = CLI_TEXT,
         .argh = "V|all",
         .def_help = "all",
         .offset = AT(variant),
         .help = "one variant, auto (matmul: the one that suits the device and size), or all of "
                 "them; 'clmem list' names them"},
    [CLI_OPT_SIZE] = {.name = "size",
                      .type = CLI_SIZE,
                      .argh = "S",
                      .def_help = "the workload's",
                      .offset = AT(size),
                      .help = "N, MxN or MxNxK; matmul: P is MxN, M is MxK, N is KxN"},
    [CLI_OPT_DEVICE] = {.name = "device",
                        .alias = "devices",
                        .type = CLI_DEVICES,
                        .argh = "D|LIST",
                        .def_help = "the first GPU, else the first device",
                        .offset = AT(device),
                        .help = "a device: its P:D index as 'clmem devices' shows it, a type (gpu, "
                                "cpu, accelerator) or part of its name, platform, vendor or "
                                "version, case-insensitive; or several: a comma-separated list of "
                                "them (cpu,cpu) or all, up to 64 devices"},
    [CLI_OPT_SPLIT] = {.name = "split",
                       .type = CLI_WEIGHTS,
                       .optional = 1,
                       .argh = "W,W,...",
                       .offset = AT(split),
                       .help = "matmul on a device list: P's rows divided into one block per "
                               "device (shares W, equal by default), end to end (each device's "
                               "copies overlap its kernels, in tiles of P), gathered and "
                               "verified; a strong-scaling table over the first 1..D devices "
                               "(host wall time)"},
    [CLI_OPT_WEAK] = {.name = "weak",
                      .type = CLI_FLAG,
                      .offset = AT(weak),
                      .help = "with --split: weak scaling, k devices multiply k times the rows of "
                              "--size (each keeps its share of them)"},
    [CLI_OPT_SUMMA] = {.name = "summa",
                       .type = CLI_GRID,
                       .optional = 1,
                       .argh = "RxC",
                       .def_help = "the squarest grid",
                       .offset = AT(summa),
                       .help = "under mpirun (an MPI build): matmul distributed over the ranks "
                               "with SUMMA, a grid of R x C ranks (each 1 to 65536), each rank's "
                               "blocks on its device, verified"},
    [CLI_OPT_PANEL] = {.name = "panel",
                       .type = CLI_UINT,
                       .argh = "W",
                       .min = 1,
                       .max = 1u << 30,
                       .def_help = "256",
                       .offset = AT(panel),
                       .help = "SUMMA's panel width (the inner dimension's step)"},
    [CLI_OPT_NO_OVERLAP] = {.name = "no-overlap",
                            .type = CLI_FLAG,
                            .offset = AT(no_overlap),
                            .help = "with --split or --summa: each copy, broadcast and kernel "
                                    "waits for the one before (to see what overlap hides)"},
    [CLI_OPT_WORKLOADS] = {.name = "workloads",
                           .type = CLI_TEXT,
                           .argh = "LIST",
                           .def_help = "all",
                           .offset = AT(workloads),
                           .help = "comma-separated workloads"},
    [CLI_OPT_SIZES] = {.name = "sizes",
                       .type = CLI_CHOICE,
                       .argh = "S",
                       .def_text = "common",
                       .choices = sizes_choices,
                       .offset = AT(sizes),
                       .help = "live devices' bench sizes: common (every device at the smallest "
                               "device's sizes, the CPU ones when any device compared, live or "
                               "saved, is a CPU), own (each device its own), cpu or gpu"},
    [CLI_OPT_BASELINE] = {.name = "baseline",
                          .type = CLI_TEXT,
                          .argh = "FILE|DEVICE",
                          .def_help = "the first live device, else the first file",
                          .offset = AT(baseline),
                          .help = "the device the others are measured against: a run file "
                                  "(its path or file name) or a device as --device names it"},
    [CLI_OPT_MAX_CANDIDATES] = {.name = "max-candidates",
                                .type = CLI_UINT,
                                .argh = "N",
                                .min = 1,
                                .max = 10000,
                                .def = 48,
                                .offset = AT(max_candidates),
                                .help = "candidates besides the built-in one, drawn evenly from "
                                        "the search space"},
    [CLI_OPT_SHOW] = {.name = "show",
                      .type = CLI_FLAG,
                      .offset = AT(show),
                      .help = "print what the tuning database holds for the device (no "
                              "measurement)"},
    [CLI_OPT_RESET] = {.name = "reset",
                       .type = CLI_FLAG,
                       .offset = AT(reset),
                       .help = "remove the device's entries from the tuning database (only "
                               "WORKLOAD's when named)"},
    [CLI_OPT_BUDGET] = {.name = "budget",
                        .type = CLI_DURATION,
                        .argh = "T",
                        .max = 7 * 24 * 3600,
                        .def = 20 * 60,
                        .def_help = "20m",
                        .offset = AT(budget),
                        .help = "the time a whole device's fit may take: seconds, or with s, m "
                                "or h (90s, 20m, 1h30m)"},
    [CLI_OPT_FRESH] = {.name = "fresh",
                       .type = CLI_FLAG,
                       .offset = AT(fresh),
                       .help = "fit again the steps fitted before on this device and driver "
                               "(else they are kept and passed over)"},
    [CLI_OPT_EXPORT] = {.name = "export",
                        .type = CLI_FILE,
                        .argh = "FILE",
                        .offset = AT(export_file),
                        .help = "write the device's fitted rows to FILE in the shipped "
                                "parameter database's format (for data/params/; nothing is "
                                "measured)"},
    [CLI_OPT_REPS] = {.name = "reps",
                      .type = CLI_UINT,
                      .argh = "N",
                      .min = 1,
                      .max = CLI_MAX_REPS,
                      .def = CLMEM_DEFAULT_REPS,
                      .offset = AT(reps),
                      .help = "timed runs of each kernel"},
    [CLI_OPT_WARMUP] = {.name = "warmup",
                        .type = CLI_UINT,
                        .argh = "N",
                        .min = 0,
                        .max = 100,
                        .def = CLMEM_DEFAULT_WARMUP,
                        .offset = AT(warmup),
                        .help = "untimed runs before the timed ones"},
    [CLI_OPT_SEED] = {.name = "seed",
                      .type = CLI_UINT,
                      .argh = "N",
                      .min = 0,
                      .max = UINT64_MAX,
                      .def = CLMEM_DEFAULT_SEED,
                      .offset = AT(seed),
                      .help = "seed of the generated inputs: the same inputs on every device"},
    [CLI_OPT_THRESHOLD] = {.name = "threshold",
                           .type = CLI_PERCENT,
                           .argh = "PCT",
                           .max = (unsigned long long)CLMEM_DIFF_MAX_THRESHOLD,
                           .def = (unsigned long long)CLMEM_DIFF_DEFAULT_THRESHOLD,
                           .offset = AT(threshold),
                           .help = "smallest change that counts, a percentage such as 5 or 2.5"},
    [CLI_OPT_CHANGES] = {.name = "changes",
                         .type = CLI_FLAG,
                         .offset = AT(changes),
                         .help = "only the rows that changed (faster, slower, new, gone, "
                                 "failed); the summary still counts every row"},
    [CLI_OPT_FORMAT] = {.name = "format",
                        .type = CLI_FORMAT,
                        .argh = "F",
                        .def = CLMEM_FORMAT_TABLE,
                        .def_help = "table",
                        .offset = AT(format),
                        .help = "table, csv or json"},
    [CLI_OPT_OUTPUT] = {.name = "output",
                        .type = CLI_FILE,
                        .argh = "FILE",
                        .offset = AT(output),
                        .help = "write the report there (whole, or not at all); FILE.csv or "
                                "FILE.json chooses the format unless --format is given"},
    [CLI_OPT_OUTPUT_DIR] = {.name = "output-dir",
                            .type = CLI_TEXT,
                            .argh = "DIR",
                            .def_text = "clmem-report",
                            .offset = AT(output_dir),
                            .help = "where the report goes; it appears whole or not at all"},
    [CLI_OPT_KERNEL_DIR] = {.name = "kernel-dir",
                            .type = CLI_DIR,
                            .argh = "DIR",
                            .def_help = "CLMEM_KERNEL_DIR, the installed ones, the source tree",
                            .offset = AT(kernel_dir),
                            .help = "where the .cl files are"},
    [CLI_OPT_NO_CACHE] = {.name = "no-cache",
                          .type = CLI_FLAG,
                          .offset = AT(no_cache),
                          .help = "build the kernels from source, neither using nor filling the "
                                  "compiled-program cache"},
    [CLI_OPT_PROGRESS] = {.name = "progress",
                          .type = CLI_FLAG,
                          .offset = AT(progress),
                          .help = "progress lines on stderr (step, elapsed time, time left) even "
                                  "off a terminal, before each result's line; on a terminal "
                                  "they are on by default"},
    [CLI_OPT_QUIET] = {.name = "quiet",
                       .type = CLI_FLAG,
                       .offset = AT(quiet),
                       .help = "no progress, results' or other informational lines on "
                               "stderr (errors still)"},
    [CLI_OPT_PEAK] = {.name = "peak",
                      .type = CLI_FLAG,
                      .offset = AT(peak),
                      .help = "measure the device's peaks first (as 'clmem peak') and its "
                              "__local and __constant rates; give each result its fraction "
                              "of the peaks and the level that bounds it (docs/roofline.md)"},
    [CLI_OPT_LEVELS] = {.name = "levels",
                        .type = CLI_FILE,
                        .argh = "FILE",
                        .offset = AT(levels),
                        .help = "with --peak: the __local and __constant rates from FILE, a run "
                                "file of 'clmem hierarchy' on the same device (its local_stride "
                                "at stride 1 and constant_broadcast), instead of measuring them"},
    [CLI_OPT_ENERGY] = {.name = "energy",
                        .type = CLI_FLAG,
                        .offset = AT(energy),
                        .help = "every result's energy where the device has a counter (NVML, "
                                "RAPL): each variant runs on, untimed, until the counter has "
                                "had the span it reads well (1 s with NVML); without it, only "
                                "results whose timed runs were that long have it"},
    [CLI_OPT_COMPARE] = {.name = "compare",
                         .type = CLI_LIBRARY,
                         .argh = "LIB",
                         .offset = AT(compare),
                         .help = "also run LIB beside the kernels it can stand for, on the same "
                                 "inputs, and give each result its ratio to it: clblast (matmul's "
                                 "SGEMM; needs clmem built with libclblast-dev) or openblas "
                                 "(cblas_sgemm on the host's cores, host wall time, CPU devices "
                                 "only; needs libopenblas-dev)"},
    [CLI_OPT_INPUT] = {.name = "input",
                       .type = CLI_FILE,
                       .argh = "FILE",
                       .offset = AT(input),
                       .help = "an input file, for workloads that take one (blur: a binary PGM "
                               "or PPM image); such workloads write their image to an --output "
                               "named FILE.pgm or FILE.ppm"},
};

const struct cli_option *cli_option(enum cli_opt id)
{
    return id < CLI_OPT_COUNT ? &options[id] : NULL;
}

/* ---- values ---- */

int cli_parse_uint(const char *option, const char *text, unsigned long long min,
                   unsigned long long max, unsigned long long *value, struct clmem_error *err)
{
    const char *p = text;
    if (*p == '-')
        return clmem_fail(err, CLMEM_ERR_USAGE, "%s '%s' is negative (expected %llu to %llu)",
                          option, text, min, max);
    if (!isdigit((unsigned char)*p))
        return clmem_fail(err, CLMEM_ERR_USAGE, "%s '%s' is not a number (expected %llu to %llu)",
                          option, text, min, max);
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, 10);
    if (*end != '\0')
        return clmem_fail(err, CLMEM_ERR_USAGE, "%s '%s' is not a number (expected %llu to %llu)",
                          option, text, min, max);
    if (errno == ERANGE || v < min || v > max)
        return clmem_fail(err, CLMEM_ERR_USAGE, "%s '%s' is out of range (expected %llu to %llu)",
                          option, text, min, max);
    *value = v;
    return CLMEM_OK;
}

enum clmem_format cli_output_format(const struct cli_opts *o, enum clmem_format fallback)
{
    if (o->given[CLI_OPT_FORMAT])
        return o->format;
    size_t n = o->output ? strlen(o->output) : 0;
    if (n > 4 && strcasecmp(o->output + n - 4, ".csv") == 0)
        return CLMEM_FORMAT_CSV;
    if (n > 5 && strcasecmp(o->output + n - 5, ".json") == 0)
        return CLMEM_FORMAT_JSON;
    return fallback;
}

/* "did you mean '--reps'? " for an unknown long option among the
 * command's, or "". */
static void suggest_option(const struct cli_spec *spec, const char *written, char *hint,
                           size_t size)
{
    struct cli_suggest s;
    const char *word = written + strspn(written, "-");
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(word, "="), word);
    cli_suggest_start(&s, name);
    for (size_t i = 0; i < spec->n_uses; i++) {
        cli_suggest_try(&s, options[spec->uses[i].id].name);
        if (options[spec->uses[i].id].alias)
            cli_suggest_try(&s, options[spec->uses[i].id].alias);
    }
    cli_suggest_try(&s, "help");
    hint[0] = '\0';
    if (s.best && written[0] == '-' && written[1] == '-')
        snprintf(hint, size, "did you mean '--%s'? ", s.best);
}

int cli_is_device_list(const char *spec)
{
    return spec && (strchr(spec, ',') || strcasecmp(spec, "all") == 0);
}

int cli_devices_several(const struct cli_devices *d)
{
    return d->all || d->n > 1;
}

int cli_devices_parse(const char *text, struct cli_devices *d, struct clmem_error *err)
{
    memset(d, 0, sizeof *d);
    d->text = text;
    if (!cli_is_device_list(text)) {
        d->n = 1;
        return clmem_device_spec_parse(text, strlen(text), &d->spec[0], err);
    }
    if (strcasecmp(text, "all") == 0) {
        d->all = 1;
        return CLMEM_OK;
    }
    for (const char *p = text;; p++) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 0 || len >= CLI_DEVICE_SPEC_MAX)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "bad device list '%s': item %zu is %s (expected specs as --device "
                              "takes, comma-separated, e.g. 'cpu,cpu' or '0:0,1:0')",
                              text, d->n + 1, len ? "too long" : "empty");
        if (len == 3 && strncasecmp(p, "all", 3) == 0)
            return clmem_fail(err, CLMEM_ERR_USAGE, "bad device list '%s': 'all' stands alone",
                              text);
        if (d->n + 1 > CLI_MAX_DEVICES)
            return clmem_fail(err, CLMEM_ERR_USAGE, "bad device list '%s': more than %d devices",
                              text, CLI_MAX_DEVICES);
        int status = clmem_device_spec_parse(p, len, &d->spec[d->n++], err);
        if (status || !end)
            return status;
        p = end;
    }
}

/* --split=W,W,...: each share a number >= 0 written with digits first (no
 * sign or space, as the other numbers). Whether there is one per device is
 * the command's to check, once it knows its devices. */
static int parse_weights(const char *text, struct cli_weights *weights, struct clmem_error *err)
{
    size_t n = 0;
    for (const char *p = text;; n++) {
        char *end;
        errno = 0;
        double w = strtod(p, &end);
        /* Decimal only: strtod also reads hexadecimal ("0x10" is 16). */
        size_t len = strspn(p, "0123456789.eE+-");
        if (!(isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) ||
            end == p || end != p + len || (*end != ',' && *end != '\0') || errno || !isfinite(w) ||
            w < 0.0)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "bad --split weights '%s': item %zu is not a number >= 0", text,
                              n + 1);
        if (n < CLI_MAX_DEVICES)
            weights->w[n] = w;
        if (*end == '\0')
            break;
        p = end + 1;
    }
    weights->n = n + 1;
    return CLMEM_OK;
}

/* "RxC" of --summa=RxC, each part as cli_parse_uint takes it, 1 to 65536. */
static int parse_grid(const char *text, struct cli_grid *grid, struct clmem_error *err)
{
    const char *x = strchr(text, 'x');
    char part[64];
    if (!x || x == text || !x[1] || strchr(x + 1, 'x') || (size_t)(x - text) >= sizeof part)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "bad --summa grid '%s' (expected RxC, e.g. 2x2, rows x columns of "
                          "ranks)",
                          text);
    snprintf(part, sizeof part, "%.*s", (int)(x - text), text);
    int status = cli_parse_uint("--summa rows", part, 1, 65536, &grid->rows, err);
    if (status == CLMEM_OK)
        status = cli_parse_uint("--summa columns", x + 1, 1, 65536, &grid->cols, err);
    return status;
}

/* A percentage as people write it: digits, at most one point ("5", "2.5",
 * ".5"); no sign, exponent, hex, inf or nan, which strtod would take. */
static int parse_percent(const char *option, const char *text, double max, double *value,
                         struct clmem_error *err)
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
                          "%s '%s' is negative (expected a percentage, 0 to %g)", option, text,
                          max);
    if (digits == 0 || points > 1 || digits + points != strlen(text))
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "%s '%s' is not a number (expected a percentage, 0 to %g)", option, text,
                          max);
    double v = strtod(text, NULL);
    if (v > max)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "%s '%s' is out of range (expected a percentage, 0 to %g)", option, text,
                          max);
    *value = v;
    return CLMEM_OK;
}

static int parse_choice(const char *option, const char *text, const char *const *choices,
                        struct clmem_error *err)
{
    char list[256] = "";
    size_t used = 0;
    for (size_t i = 0; choices[i]; i++) {
        if (strcmp(text, choices[i]) == 0)
            return CLMEM_OK;
        const char *sep = i == 0 ? "" : choices[i + 1] ? ", " : " or ";
        int n = snprintf(list + used, sizeof list - used, "%s%s", sep, choices[i]);
        if (n > 0 && (size_t)n < sizeof list - used)
            used += (size_t)n;
    }
    return clmem_fail(err, CLMEM_ERR_USAGE, "unknown %s '%s' (use %s)", option, text, list);
}

/* A duration: digits (seconds), or parts of digits and a unit, s, m or h,
 * largest first ("1h30m", "90s", "20m"); 1 s to max. */
static int parse_duration(const char *name, const char *text, double max, double *out,
                          struct clmem_error *err)
{
    static const char units[] = "hms";
    const double seconds[] = {3600, 60, 1};
    double total = 0;
    int last = -1;
    const char *p = text;
    if (!*p)
        return clmem_fail(err, CLMEM_ERR_USAGE, "%s needs a duration (20m, 90s, 1h30m)", name);
    while (*p) {
        unsigned long long v = 0;
        const char *digits = p;
        while (isdigit((unsigned char)*p) && v < 1000000000ULL)
            v = v * 10 + (unsigned long long)(*p++ - '0');
        const char *unit = *p ? strchr(units, *p) : NULL;
        int k = unit ? (int)(unit - units) : 2;
        if (p == digits || isdigit((unsigned char)*p) || (*p && !unit) || k <= last ||
            (!*p && last >= 0))
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "%s '%s' is not a duration (seconds, or 20m, 90s, 1h30m)", name,
                              text);
        total += (double)v * seconds[k];
        last = k;
        if (*p)
            p++;
    }
    if (total < 1 || total > max)
        return clmem_fail(err, CLMEM_ERR_USAGE, "%s '%s' is out of range (1 s to %.0f h)", name,
                          text, max / 3600);
    *out = total;
    return CLMEM_OK;
}

/* --workloads: every name one of the list's, none empty ("", "dot,"),
 * whichever command takes it. */
static int parse_workloads(const char *text, struct clmem_error *err)
{
    size_t count;
    const struct clmem_workload *const *all = clmem_workloads(&count);
    for (const char *p = text;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 0)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "--workloads '%s' has an empty name (try 'clmem list')", text);
        int found = 0;
        for (size_t i = 0; i < count && !found; i++)
            found = strlen(all[i]->name) == len && strncmp(all[i]->name, p, len) == 0;
        if (!found) {
            char name[64], hint[96];
            snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), p);
            cli_suggest_workload(name, hint, sizeof hint);
            return clmem_fail(err, CLMEM_ERR_USAGE, "unknown workload '%.*s' (%stry 'clmem list')",
                              (int)len, p, hint);
        }
        if (!end)
            return CLMEM_OK;
        p = end + 1;
    }
}

int cli_parse_value(enum cli_opt id, const char *text, struct cli_opts *o, struct clmem_error *err)
{
    const struct cli_option *opt = cli_option(id);
    if (!opt)
        return clmem_fail(err, CLMEM_ERR_USAGE, "no option %d", (int)id);
    void *at = (char *)o + opt->offset;
    char name[64];
    snprintf(name, sizeof name, "--%s", opt->name);
    o->given[id] = 1;
    if (!text && opt->type != CLI_FLAG && !opt->optional)
        return clmem_fail(err, CLMEM_ERR_USAGE, "option '%s' needs a value", name);
    int status = CLMEM_OK;
    switch (opt->type) {
    case CLI_FLAG: *(int *)at = 1; return CLMEM_OK;
    case CLI_UINT: return cli_parse_uint(name, text, opt->min, opt->max, at, err);
    case CLI_PERCENT: return parse_percent(name, text, (double)opt->max, at, err);
    case CLI_DURATION: return parse_duration(name, text, (double)opt->max, at, err);
    case CLI_FORMAT: return clmem_format_parse(text, at, err);
    case CLI_WEIGHTS: {
        struct cli_weights *w = at;
        w->given = 1;
        w->n = 0;
        return text ? parse_weights(text, w, err) : CLMEM_OK;
    }
    case CLI_GRID: {
        struct cli_grid *g = at;
        g->given = 1;
        g->rows = g->cols = 0;
        return text ? parse_grid(text, g, err) : CLMEM_OK;
    }
    case CLI_DIR:
        if (!text[0])
            return clmem_fail(err, CLMEM_ERR_USAGE, "%s needs a directory", name);
        break;
    case CLI_CHOICE: status = parse_choice(name, text, opt->choices, err); break;
    case CLI_SIZE: break; /* parsed with the workload's default by clmem_run_normalise */
    case CLI_DEVICES: status = cli_devices_parse(text, &o->devices, err); break;
    case CLI_LIBRARY: status = clmem_compare_check(NULL, text, err); break;
    case CLI_TEXT:
        if (id == CLI_OPT_WORKLOADS)
            status = parse_workloads(text, err);
        break;
    case CLI_FILE: break;
    }
    if (status == CLMEM_OK)
        *(const char **)at = text;
    return status;
}

/* ---- the command line ---- */

/* The option getopt_long just refused, as written: "-x" of "-xq" (written
 * to buf, at least 3 bytes), or the whole argument ("-x", "--bogus=1"). */
static const char *refused_option(int argc, char **argv, char *buf, size_t size)
{
    /* getopt_long stops at the first refused option. A short one heads its
     * cluster (-h, the only short option known, returns at once), and while
     * the cluster goes on getopt is still at it, argv[optind]; a lone "-x" or
     * a long option has been passed: argv[optind - 1]. */
    const char *at = optind < argc ? argv[optind] : NULL;
    /* glibc gives a byte past ASCII as a negative optopt. */
    if (optopt != 0 && at && at[0] == '-' && (unsigned char)at[1] == (unsigned char)optopt &&
        at[2] != '\0') {
        snprintf(buf, size, "-%c", (unsigned char)optopt);
        return buf;
    }
    return argv[optind > 0 ? optind - 1 : 0];
}

/* The long option getopt_long just took (index `at` of `table`), as
 * written, when that was a prefix of its name ("--output" for
 * --output-dir, "--he" for --help); else NULL. getopt_long accepts any
 * unique prefix, so adding an option would change what an old command line
 * means: only exact names are taken. */
static const char *abbreviated(int argc, char **argv, const struct option *table, int at, char *buf,
                               size_t size)
{
    if (at < 0 || optind < 1 || optind > argc)
        return NULL;
    /* The option itself: the argument before its separate value, if any. */
    const char *arg = argv[optind - 1];
    if (optarg && optarg == arg && optind >= 2)
        arg = argv[optind - 2];
    if (arg[0] != '-' || arg[1] != '-')
        return NULL;
    size_t len = strcspn(arg + 2, "=");
    if (strlen(table[at].name) == len && strncmp(table[at].name, arg + 2, len) == 0)
        return NULL;
    snprintf(buf, size, "%.*s", (int)(len + 2), arg);
    return buf;
}

/* One option's default (def for numbers, def_text for texts) into o. */
static void set_default(const struct cli_option *opt, unsigned long long def, const char *def_text,
                        struct cli_opts *o)
{
    void *at = (char *)o + opt->offset;
    switch (opt->type) {
    case CLI_UINT: *(unsigned long long *)at = def; break;
    case CLI_PERCENT:
    case CLI_DURATION: *(double *)at = (double)def; break;
    case CLI_FORMAT: *(enum clmem_format *)at = (enum clmem_format)def; break;
    case CLI_TEXT:
    case CLI_CHOICE:
    case CLI_SIZE:
    case CLI_DEVICES:
    case CLI_DIR:
    case CLI_FILE:
    case CLI_LIBRARY: *(const char **)at = def_text; break;
    case CLI_FLAG:
    case CLI_WEIGHTS:
    case CLI_GRID: break;
    }
}

/* Every option at its default, the command's own where it has one. */
static void set_defaults(const struct cli_spec *spec, struct cli_opts *o)
{
    memset(o, 0, sizeof *o);
    for (size_t i = 0; i < CLI_OPT_COUNT; i++)
        set_default(&options[i], options[i].def, options[i].def_text, o);
    for (size_t i = 0; i < spec->n_uses; i++)
        if (spec->uses[i].flags & CLI_DEFAULT)
            set_default(&options[spec->uses[i].id], spec->uses[i].def, spec->uses[i].def_text, o);
}

/* A device list where the command takes one device. */
static int check_one_device(const struct cli_spec *spec, const struct cli_opts *o,
                            struct clmem_error *err)
{
    for (size_t i = 0; i < spec->n_uses; i++) {
        unsigned flags = spec->uses[i].flags;
        if (spec->uses[i].id != CLI_OPT_DEVICE || !cli_devices_several(&o->devices))
            continue;
        if (flags & CLI_ONE_DEVICE)
            return clmem_fail(err, CLMEM_ERR_USAGE, "%s takes one device, not several ('%s')",
                              spec->name, o->device);
        if ((flags & CLI_ONE_DEVICE_ALONE) && !cli_launched_by_mpirun())
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "%s takes one device without mpirun, not several ('%s'); 'clmem "
                              "compare' runs several",
                              spec->name, o->device);
    }
    return CLMEM_OK;
}

int cli_parse(const struct cli_spec *spec, int argc, char **argv, struct cli_opts *o,
              struct clmem_error *err)
{
    /* Each option under its name and its alias, the value its id + 256. */
    struct option long_options[2 * CLI_OPT_COUNT + 2];
    size_t n = 0;
    set_defaults(spec, o);
    for (size_t i = 0; i < spec->n_uses && n + 3 < CLMEM_ARRAY_SIZE(long_options); i++) {
        const struct cli_option *opt = &options[spec->uses[i].id];
        int has_arg = opt->type == CLI_FLAG ? no_argument
                      : opt->optional       ? optional_argument
                                            : required_argument;
        long_options[n++] = (struct option){opt->name, has_arg, NULL, 256 + (int)spec->uses[i].id};
        if (opt->alias)
            long_options[n++] =
                (struct option){opt->alias, has_arg, NULL, 256 + (int)spec->uses[i].id};
    }
    long_options[n++] = (struct option){"help", no_argument, NULL, 'h'};
    long_options[n] = (struct option){0};

    int c, at = -1;
    char bad[3], written[80], hint[96];
    opterr = 0;
    optind = 0; /* 0, not 1: also forgets a half-read "-xy" of an earlier parse */
    while ((c = getopt_long(argc, argv, ":h", long_options, &at)) != -1) {
        const char *prefix = abbreviated(argc, argv, long_options, at, written, sizeof written);
        at = -1; /* getopt_long sets it for long options only */
        if (prefix) {
            suggest_option(spec, prefix, hint, sizeof hint);
            return clmem_fail(err, CLMEM_ERR_USAGE, "unknown option '%s' (%ssee 'clmem %s --help')",
                              prefix, hint, spec->name);
        }
        /* --help is honoured once the whole line parsed: "--help --bogus"
         * is refused as "--bogus --help" is. */
        if (c == 'h') {
            o->help = 1;
            continue;
        }
        if (c < 256) {
            const char *option = refused_option(argc, argv, bad, sizeof bad);
            if (c == ':')
                return clmem_fail(err, CLMEM_ERR_USAGE,
                                  "option '%s' needs a value (see 'clmem %s --help')", option,
                                  spec->name);
            suggest_option(spec, option, hint, sizeof hint);
            return clmem_fail(err, CLMEM_ERR_USAGE, "unknown option '%s' (%ssee 'clmem %s --help')",
                              option, hint, spec->name);
        }
        int status = cli_parse_value((enum cli_opt)(c - 256), optarg, o, err);
        if (status)
            return status;
    }
    /* What is left are the arguments (getopt moved them to the end). */
    o->args = argv + optind;
    o->n_args = optind < argc ? (size_t)(argc - optind) : 0;
    cli_feedback_set(o->progress, o->quiet);
    /* An argument too many is refused with --help too ("peak extra
     * --help", "help peak extra"); one missing is what --help is for. */
    if (o->n_args > spec->max_args)
        return clmem_fail(err, CLMEM_ERR_USAGE, "unexpected argument '%s' (see 'clmem %s --help')",
                          o->args[spec->max_args], spec->name);
    if (o->help)
        return CLMEM_OK;
    if (o->n_args < spec->min_args)
        return clmem_fail(err, CLMEM_ERR_USAGE, "%s", spec->missing);
    return check_one_device(spec, o, err);
}
