/* The one option table of every command (as git's parse-options): each
 * option is written once, with its long name, the type of its value, its
 * range, default and help; a command lists the options it takes (struct
 * cli_spec) and gets their values in one struct cli_opts. The parser and
 * the help text both come from the table, so that a limit or a spelling is
 * the same in every command and in its --help. */
#ifndef CLMEM_CLI_OPTIONS_H
#define CLMEM_CLI_OPTIONS_H

#include "clmem/clmem.h"
#include "opencl/opencl.h"

#include <stdio.h>

/* Limits that every command shares. */
#define CLI_MAX_REPS    100000 /* --reps: 1 to this, in every command */
#define CLI_MAX_DEVICES 64     /* the devices of a --device list (and of 'all') */

/* Every option of every command, in the order --help lists them. */
enum cli_opt {
    CLI_OPT_VARIANT,
    CLI_OPT_SIZE,
    CLI_OPT_DEVICE,
    CLI_OPT_SPLIT,
    CLI_OPT_WEAK,
    CLI_OPT_SUMMA,
    CLI_OPT_PANEL,
    CLI_OPT_NO_OVERLAP,
    CLI_OPT_WORKLOADS,
    CLI_OPT_SIZES,
    CLI_OPT_BASELINE,
    CLI_OPT_MAX_CANDIDATES,
    CLI_OPT_SHOW,
    CLI_OPT_RESET,
    CLI_OPT_BUDGET,
    CLI_OPT_FRESH,
    CLI_OPT_EXPORT,
    CLI_OPT_REPS,
    CLI_OPT_WARMUP,
    CLI_OPT_SEED,
    CLI_OPT_THRESHOLD,
    CLI_OPT_CHANGES,
    CLI_OPT_FORMAT,
    CLI_OPT_OUTPUT,
    CLI_OPT_OUTPUT_DIR,
    CLI_OPT_KERNEL_DIR,
    CLI_OPT_NO_CACHE,
    CLI_OPT_PROGRESS,
    CLI_OPT_QUIET,
    CLI_OPT_PEAK,
    CLI_OPT_LEVELS,
    CLI_OPT_ENERGY,
    CLI_OPT_COMPARE,
    CLI_OPT_INPUT,
    CLI_OPT_COUNT
};

/* What an option's value is, and so how it is checked and where it goes. */
enum cli_type {
    CLI_FLAG,     /* no value: its int becomes 1 */
    CLI_UINT,     /* unsigned decimal in [min, max], digits only (cli_parse_uint) */
    CLI_TEXT,     /* any text (a name, a comma-separated list of names) */
    CLI_CHOICE,   /* one of the option's `choices` */
    CLI_SIZE,     /* a --size, kept as written (the harness parses it: clmem_run_normalise) */
    CLI_FORMAT,   /* table, csv or json (clmem_format_parse) */
    CLI_DEVICES,  /* a device spec, a comma-separated list of them, or all */
    CLI_DIR,      /* a directory: not empty */
    CLI_FILE,     /* a file name */
    CLI_LIBRARY,  /* a library to compare with (clmem_compare_check) */
    CLI_WEIGHTS,  /* numbers >= 0, comma-separated (--split=W,W,...) */
    CLI_GRID,     /* RxC, each part 1 to 65536 (--summa=RxC) */
    CLI_PERCENT,  /* a percentage, 0 to max, decimals allowed */
    CLI_DURATION, /* seconds, or a number and s, m or h (20m, 1h30m), 1 s to max seconds */
};

/* --split[=W,...]: given, and with values one share per device (at most
 * CLI_MAX_DEVICES kept; n counts them all; 0: equal shares). */
struct cli_weights {
    int given;
    double w[CLI_MAX_DEVICES];
    size_t n;
};

/* --summa[=RxC]: given, and rows x columns of ranks (0 x 0: the squarest
 * grid). */
struct cli_grid {
    int given;
    unsigned long long rows, cols;
};

/* --device as parsed, once (cli_devices_pick takes it): one spec, a list
 * of them or all, each spec parsed into its struct. */
#define CLI_DEVICE_SPEC_MAX 256 /* the bytes of a list's spec, its NUL included */
struct cli_devices {
    const char *text; /* as given; NULL: not given (the command's default) */
    int all;          /* "all": every device */
    size_t n;         /* the specs: 1 (one device), 2 to CLI_MAX_DEVICES (a list); 0 with all */
    struct clmem_device_spec spec[CLI_MAX_DEVICES]; /* pointing into text */
};

/* The values of a command's options, each at its default until given. */
struct cli_opts {
    const char *variant, *size, *workloads, *sizes, *baseline;
    const char *device;         /* --device as written, as messages quote it */
    struct cli_devices devices; /* and what it names */
    const char *output, *output_dir, *kernel_dir, *compare, *input, *export_file;
    const char *levels; /* --levels: a hierarchy run file's __local and __constant rates */
    int weak, no_overlap, no_cache, peak, energy;
    int show, reset, fresh, changes, progress, quiet;
    struct cli_weights split;
    struct cli_grid summa;
    unsigned long long panel, max_candidates, reps, warmup, seed;
    double threshold, budget;
    enum clmem_format format;
    unsigned char given[CLI_OPT_COUNT]; /* which options the command line gave */
    int help;                           /* --help or -h: the rest was not read */
    char **args;                        /* the arguments that are not options */
    size_t n_args;
};

/* One option, written once for every command. */
struct cli_option {
    const char *name;  /* its long name, without "--" */
    const char *alias; /* another name for the same option, or NULL */
    enum cli_type type;
    int optional;                /* the value may be left out (--split, --split=1,3) */
    const char *argh;            /* the value's name in --help ("N", "FILE") */
    unsigned long long min, max; /* CLI_UINT's range; CLI_PERCENT's max */
    unsigned long long def;      /* the default of a number, a format or a percentage */
    const char *def_text;        /* the default of a text, as the value and in --help */
    const char *def_help;        /* the default as --help says it, where not the value */
    const char *const *choices;  /* CLI_CHOICE's values, NULL-terminated */
    size_t offset;               /* where its value goes in struct cli_opts */
    const char *help;
};

/* The table itself, indexed by enum cli_opt (for the fuzzers and tests). */
const struct cli_option *cli_option(enum cli_opt id);

/* How a command takes an option. */
enum {
    CLI_DEFAULT = 1 << 0,          /* `def` (a number) or `def_text` replace the table's default */
    CLI_ONE_DEVICE = 1 << 1,       /* --device: one device; a list or all is refused */
    CLI_ONE_DEVICE_ALONE = 1 << 2, /* --device: one device, except under mpirun (a list
                                      gives each rank its device there) */
};
struct cli_use {
    enum cli_opt id;
    unsigned flags;
    unsigned long long def; /* with CLI_DEFAULT: this command's default of a number */
    const char *def_text;   /* with CLI_DEFAULT: this command's default of a text */
    const char *def_help;   /* this command's default as --help says it, or NULL */
    /* This command's words for the option, where the table's speak of
     * other commands (hierarchy's --size is no matmul shape), or NULL. */
    const char *help;
};

/* A command: its name, the options it takes, its help paragraphs and the
 * arguments it expects besides the options. */
struct cli_spec {
    const char *name;     /* "run": messages say 'clmem run --help' */
    const char *synopsis; /* after "usage: clmem NAME " */
    const char *about;    /* what the command does: the help's first paragraph */
    const char *more;     /* after the options (mpirun, signals, exit codes), or NULL */
    const struct cli_use *uses;
    size_t n_uses;
    size_t min_args, max_args; /* (size_t)-1: no limit */
    const char *missing;       /* the usage error when fewer arguments are given */
};
/* A spec's table of options and its length, which cannot then disagree:
 * `CLI_USES(run_uses),` in a cli_spec initialiser. */
#define CLI_USES(table) .uses = (table), .n_uses = CLMEM_ARRAY_SIZE(table)
/* Parses argv[1..argc) (argv[0] is the command's name) as `spec` says:
 * every option's value checked by its type (a usage error, exit 2, naming
 * the option and what it expects), the arguments that are not options in
 * o->args. Stops at --help (o->help). Parsing again starts afresh. */
int cli_parse(const struct cli_spec *spec, int argc, char **argv, struct cli_opts *o,
              struct clmem_error *err);
/* One option's value from text, as cli_parse takes it (`text` NULL: the
 * option given without a value, where its value is optional). */
int cli_parse_value(enum cli_opt id, const char *text, struct cli_opts *o, struct clmem_error *err);

/* The value parsers the types use. */
/* An unsigned decimal in [min, max], digits only (no sign, no space before
 * or after: " 5" is refused as --size refuses it); usage error otherwise. */
int cli_parse_uint(const char *option, const char *text, unsigned long long min,
                   unsigned long long max, unsigned long long *value, struct clmem_error *err);
/* The format of the file --output names: --format where given, else the
 * file's extension (.csv, .json), else `fallback`. */
enum clmem_format cli_output_format(const struct cli_opts *o, enum clmem_format fallback);
/* Whether a --device value names several devices: a list or all. */
int cli_is_device_list(const char *spec);
/* --device's value into *d: one spec, a list or all, each spec parsed
 * once into its struct (clmem_device_spec_parse: usage errors), at most
 * CLI_MAX_DEVICES. The one place a list is split and a spec parsed. */
int cli_devices_parse(const char *text, struct cli_devices *d, struct clmem_error *err);
/* Whether d names several devices: a list or all. */
int cli_devices_several(const struct cli_devices *d);

#endif
