/* A program that embeds libclmem through its installed public header
 * alone, built with `pkg-config clmem` (tests/test_install.sh; docs/development.md,
 * "Using libclmem"): it lists the workloads, opens the device named by its
 * first argument (default "cpu"), runs every variant of matmul at a size
 * that is a multiple of no tile and writes the results as CSV. Exit 0 when
 * every variant that ran matched the CPU reference. */
#include <clmem/clmem.h>

#include <stdio.h>
#include <stdlib.h>

static int fail(const char *what, struct clmem_error *err)
{
    fprintf(stderr, "embed: %s: %s\n", what, err->message);
    clmem_error_clear(err);
    return 1;
}

int main(int argc, char **argv)
{
    struct clmem_error err = {0};
    size_t n_workloads;
    const struct clmem_workload *const *all = clmem_workloads(&n_workloads);
    for (size_t i = 0; i < n_workloads; i++)
        fprintf(stderr, "embed: workload %s (%zu variants): %s\n",
                clmem_workload_text(all[i], "name"), clmem_workload_variants(all[i]),
                clmem_workload_text(all[i], "summary"));

    struct clmem_device *devices = NULL;
    size_t count = 0, chosen = 0;
    struct clmem_ctx *ctx = NULL;
    if (clmem_devices_list(&devices, &count, &err) ||
        clmem_devices_select(argc > 1 ? argv[1] : "cpu", devices, count, &chosen, &err) ||
        clmem_ctx_create(clmem_device_at(devices, count, chosen), NULL, &ctx, &err))
        return fail("device", &err);
    free(devices);

    struct clmem_run_options *options = NULL;
    if (clmem_run_options_create(&options, &err) ||
        clmem_run_options_set(options, "size", "37x19x13", &err) ||
        clmem_run_options_set(options, "reps", "2", &err))
        return fail("options", &err);
    struct clmem_result *results = NULL;
    size_t n = 0;
    int status = clmem_run(ctx, clmem_workload_find("matmul"), options, &results, &n, &err);
    if (status == CLMEM_OK || status == CLMEM_ERR_VERIFY)
        clmem_report_write(stdout, CLMEM_FORMAT_CSV, results, n, NULL, &err);
    else
        fail("run", &err);
    clmem_results_free(results, n);
    clmem_run_options_release(options);
    clmem_ctx_release(ctx);
    return status == CLMEM_OK ? 0 : 1;
}
