/* clmem list: the workloads and their variants, one line each, or as CSV
 * for tools (tests/test_oclgrind.sh reads the sizes that check each
 * variant's kernels from it). */
#include "commands.h"

#include "common.h"
#include "option_help.h"
#include "options.h"
#include "report/csv.h"
#include "report/json.h"
#include "report/report.h"
#include "suggest.h"

#include <cJSON.h>

#include <string.h>

static const struct cli_use list_uses[] = {
    {.id = CLI_OPT_FORMAT},
};

const struct cli_spec cli_list_spec = {
    .name = "list",
    .synopsis = "[WORKLOAD] [--format table|csv|json]",
    .about = "Lists the workloads and their variants, each with the figure or slide of\n"
             "the course material it follows. CSV has a row per variant: workload,\n"
             "variant, kernel, source (its .cl file), library (a vendor library's\n"
             "routine), check_sizes (small sizes that reach every edge of its kernels;\n"
             "the Oclgrind tests run them), summary. JSON has the same fields, a workload\n"
             "with its variants.\n",
    CLI_USES(list_uses),
    .max_args = 1,
};

/* A variant's fields in the order CSV and JSON give them, after the
 * workload's name: empty where it has none (a library variant has no
 * kernel; a variant without sizes of its own checks at the workload's). */
static const char *const variant_names[] = {"variant", "kernel",      "source",
                                            "library", "check_sizes", "summary"};
#define N_VARIANT_FIELDS CLMEM_ARRAY_SIZE(variant_names)

static void variant_fields(const struct clmem_workload *w, const struct clmem_variant *var,
                           const char *fields[N_VARIANT_FIELDS])
{
    fields[0] = var->name;
    fields[1] = var->kernel ? var->kernel : "";
    fields[2] = var->kernel ? (var->source ? var->source : w->source) : "";
    fields[3] = var->library ? var->library : "";
    fields[4] = var->check_sizes ? var->check_sizes : w->check_sizes ? w->check_sizes : "";
    fields[5] = var->summary;
}

static void print_csv(const struct clmem_workload *w)
{
    for (size_t v = 0; v < w->n_variants; v++) {
        const char *fields[N_VARIANT_FIELDS];
        variant_fields(w, &w->variants[v], fields);
        clmem_csv_field(stdout, w->name);
        for (size_t f = 0; f < N_VARIANT_FIELDS; f++) {
            putchar(',');
            clmem_csv_field(stdout, fields[f]);
        }
        putchar('\n');
    }
}

/* The same fields as CSV, a workload with its variants; the workload's
 * own by the names clmem.h reads them by (the JSON name first). */
static int print_json(const struct clmem_workload *const *all, size_t n, struct clmem_error *err)
{
    static const char *const workload_names[][2] = {
        {"workload", "name"},       {"summary", "summary"}, {"default_size", "default_size"},
        {"size_help", "size_help"}, {"unit", "unit"},
    };
    cJSON *root = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++) {
        const struct clmem_workload *w = all[i];
        cJSON *o = cJSON_CreateObject();
        for (size_t f = 0; f < CLMEM_ARRAY_SIZE(workload_names); f++)
            cJSON_AddStringToObject(o, workload_names[f][0],
                                    clmem_workload_text(w, workload_names[f][1]));
        cJSON *variants = cJSON_AddArrayToObject(o, "variants");
        for (size_t v = 0; v < w->n_variants; v++) {
            const char *fields[N_VARIANT_FIELDS];
            variant_fields(w, &w->variants[v], fields);
            cJSON *x = cJSON_CreateObject();
            for (size_t f = 0; f < N_VARIANT_FIELDS; f++)
                cJSON_AddStringToObject(x, variant_names[f], fields[f]);
            cJSON_AddItemToArray(variants, x);
        }
        cJSON_AddItemToArray(root, o);
    }
    return clmem_json_print(stdout, root, err);
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
    struct clmem_error err = {0};
    struct cli_opts o;
    if (cli_parse(&cli_list_spec, argc, argv, &o, &err))
        return cli_report_error(&err);
    if (o.help) {
        cli_help(&cli_list_spec, stdout);
        return CLMEM_OK;
    }
    size_t n;
    const struct clmem_workload *const *all = clmem_workloads(&n), *one;
    if (o.n_args) {
        if (!(one = clmem_workload_find(o.args[0]))) {
            char hint[96];
            cli_suggest_workload(o.args[0], hint, sizeof hint);
            fprintf(stderr, "clmem: unknown workload '%s' (%stry 'clmem list')\n", o.args[0], hint);
            return CLMEM_ERR_USAGE;
        }
        all = &one;
        n = 1;
    }
    if (o.format == CLMEM_FORMAT_JSON)
        return print_json(all, n, &err) ? cli_report_error(&err) : CLMEM_OK;
    if (o.format == CLMEM_FORMAT_CSV)
        printf("workload,variant,kernel,source,library,check_sizes,summary\n");
    for (size_t i = 0; i < n; i++)
        (o.format == CLMEM_FORMAT_CSV ? print_csv : print_workload)(all[i]);
    return CLMEM_OK;
}
