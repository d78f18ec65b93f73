/* A program built against a newer clmem.h than the library (clmem_new.h:
 * struct clmem_result with one more field): each call refused before any
 * work, with CLMEM_ERR_USAGE and a message naming the struct and both
 * sizes; nothing written into what the program passed. */
#include "abi.h"

#include "clmem_new.h"

#include <stdio.h>
#include <string.h>

size_t abi_newer_result_size(void)
{
    return sizeof(struct clmem_result);
}

int abi_newer_list(char *message, size_t size, size_t *count, int *list_null)
{
    struct clmem_error err = {0};
    struct clmem_device *devices = (struct clmem_device *)&err; /* to see it reset */
    *count = 99;
    int status = clmem_devices_list(&devices, count, &err);
    *list_null = devices == NULL;
    snprintf(message, size, "%s", err.message);
    clmem_error_clear(&err);
    return status;
}

int abi_newer_run(char *message, size_t size, size_t *n_results, int *results_null)
{
    struct clmem_error err = {0};
    struct clmem_ctx ctx;
    memset(&ctx, 0, sizeof ctx); /* no context: the call must stop before using it */
    struct clmem_run_options options = {.size = "1031", .reps = 2, .warmup = 1, .seed = 42};
    struct clmem_result *results = NULL;
    *n_results = 0;
    int status =
        clmem_run(&ctx, clmem_workload_find("reduce"), &options, &results, n_results, &err);
    *results_null = results == NULL;
    snprintf(message, size, "%s", err.message);
    clmem_results_free(results, *n_results);
    clmem_error_clear(&err);
    return status;
}
