/* clmem list: the workloads and their variants, one line each, or as CSV
 * for tools (tests/test_oclgrind.sh reads the sizes that check each
 * variant's kernels from it). */
#include "cli.h"

#include "report/csv.h"

#include <getopt.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out, "usage: clmem list [WORKLOAD] [--format table|csv]\n\n"
                 "Lists the workloads and their variants, each with the figure or slide of\n"
                 "the course material it follows. CSV has a row per variant: workload,\n"
                 "variant, kernel, source (its .cl file), library (a vendor library's\n"
                 "routine), check_sizes (small sizes that reach every edge of its kernels;\n"
                 "the Oclgrind tests run them), summary.\n");
}

static void print_csv(const struct clmem_workload *w)
{
    for (size_t v = 0; v < w->n_variants; v++) {
        const struct clmem_variant *var = &w->variants[v];
        const char *fields[] = {
            w->name,
            var->name,
            var->kernel ? var->kernel : "",
            var->kernel ? (var->source ? var->source : w->source) : "",
            var->library ? var->library : "",
            var->check_sizes ? var->check_sizes : w->check_sizes ? w->check_sizes : "",
            var->summary,
        };
        for (size_t f = 0; f < CLMEM_ARRAY_SIZE(fields); f++) {
            if (f)
                putchar(',');
            clmem_csv_field(stdout, fields[f]);
        }
        putchar('\n');
    }
}

static void print_workload(const struct clmem_workload *w)
{
    printf("%-12s %s [--size %s; default %s; %s]\n", w->name, w->summary, w->size_help,
           w->default_size, w->metric_unit);
    for (size_t v = 0; v < w->n_variants; v++)
        printf("  %-10s %-16s %s\n", w->name, w->variants[v].name, w->variants[v].summary);
}

int cmd_list(int argc, char **argv)
{
    static const struct option long_options[] = {
        {"help", no_argument, NULL, 'h'}, {"format", required_argument, NULL, 'f'}, {0}};
    int c, csv = 0;
    char bad[3];
    opterr = 0;
    optind = 0; /* 0, not 1: also forgets a half-read "-xy" of an earlier parse */
    while ((c = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
        if (c == 'h') {
            usage(stdout);
            return CLMEM_OK;
        }
        if (c == 'f' && (strcmp(optarg, "csv") == 0 || strcmp(optarg, "table") == 0)) {
            csv = strcmp(optarg, "csv") == 0;
            continue;
        }
        if (c == 'f')
            return cli_usage_error("list", "unknown format '%s' (use table or csv)", optarg);
        return cli_usage_error("list", "unknown option '%s'",
                               cli_refused_option(argc, argv, bad, sizeof bad));
    }
    void (*print)(const struct clmem_workload *) = csv ? print_csv : print_workload;
    if (csv)
        printf("workload,variant,kernel,source,library,check_sizes,summary\n");
    if (argc - optind > 1)
        return cli_usage_error("list", "unexpected argument '%s'", argv[optind + 1]);
    if (optind < argc) {
        const struct clmem_workload *w = clmem_workload_find(argv[optind]);
        if (!w) {
            fprintf(stderr, "clmem: unknown workload '%s' (try 'clmem list')\n", argv[optind]);
            return CLMEM_ERR_USAGE;
        }
        print(w);
        return CLMEM_OK;
    }
    size_t n;
    const struct clmem_workload *const *all = clmem_workloads(&n);
    for (size_t i = 0; i < n; i++)
        print(all[i]);
    return CLMEM_OK;
}
