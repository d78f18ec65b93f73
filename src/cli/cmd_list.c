/* clmem list: the workloads and their variants, one line each. */
#include "cli.h"

#include <string.h>

const struct cli_spec cli_list_spec = {
    .name = "list",
    .synopsis = "[WORKLOAD]",
    .about = "Lists the workloads and their variants, each with the figure or slide of\n"
             "the course material it follows.\n",
    .max_args = 1,
};

static void print_workload(const struct clmem_workload *w)
{
    printf("%-12s %s [--size %s; default %s; %s]\n", w->name, w->summary, w->size_help,
           w->default_size, w->metric_unit);
    for (size_t v = 0; v < w->n_variants; v++)
        printf("  %-10s %-16s %s\n", w->name, w->variants[v].name, w->variants[v].summary);
}

int cmd_list(int argc, char **argv)
{
    struct clmem_error err = {0};
    struct cli_opts o;
    if (cli_parse(&cli_list_spec, argc, argv, &o, &err))
        return cli_report_error(&err);
    if (o.help) {
        cli_help(&cli_list_spec, stdout);
        return CLMEM_OK;
    }
    if (o.n_args) {
        const struct clmem_workload *w = clmem_workload_find(o.args[0]);
        if (!w) {
            fprintf(stderr, "clmem: unknown workload '%s' (try 'clmem list')\n", o.args[0]);
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
