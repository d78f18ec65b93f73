/* clmem list: the workloads and their variants, one line each. */
#include "cli.h"

#include <getopt.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out, "usage: clmem list [WORKLOAD]\n\n"
                 "Lists the workloads and their variants, each with the figure or slide of\n"
                 "the course material it follows.\n");
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
    static const struct option long_options[] = {{"help", no_argument, NULL, 'h'}, {0}};
    int c;
    char bad[3];
    opterr = 0;
    optind = 0; /* 0, not 1: also forgets a half-read "-xy" of an earlier parse */
    while ((c = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
        if (c == 'h') {
            usage(stdout);
            return CLMEM_OK;
        }
        return cli_usage_error("list", "unknown option '%s'",
                               cli_refused_option(argc, argv, bad, sizeof bad));
    }
    if (argc - optind > 1)
        return cli_usage_error("list", "unexpected argument '%s'", argv[optind + 1]);
    if (optind < argc) {
        const struct clmem_workload *w = clmem_workload_find(argv[optind]);
        if (!w) {
            fprintf(stderr, "clmem: unknown workload '%s' (try 'clmem list')\n", argv[optind]);
            return CLMEM_ERR_USAGE;
        }
        print_workload(w);
        return CLMEM_OK;
    }
    size_t n;
    const struct clmem_workload *const *all = clmem_workloads(&n);
    for (size_t i = 0; i < n; i++)
        print_workload(all[i]);
    return CLMEM_OK;
}
