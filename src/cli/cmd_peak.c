/* clmem peak: the device's own copy bandwidth and FMA throughput. It is
 * `clmem run peak` under a name of its own. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out, "usage: clmem peak [--device D] [--reps N] [--size N] [--format F] [--output "
                 "FILE]\n\n"
                 "Measures the device's own peaks, as clpeak does: the bandwidth of a float4\n"
                 "copy (GB/s, read + write) and of float4 reads alone (the roof of\n"
                 "reductions), the FP32 throughput of chains of fused multiply-adds\n"
                 "(GFLOP/s), and what a kernel launch costs (100 back to back). All are\n"
                 "verified like every workload. 'clmem run --peak' and 'clmem bench' give\n"
                 "each result its fraction of these.\n"
                 "Options as 'clmem run --help'.\n");
}

int cmd_peak(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return CLMEM_OK;
        }
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (!args) {
        fprintf(stderr, "clmem: out of host memory\n");
        return CLMEM_ERR_CL;
    }
    args[0] = "peak"; /* the name usage errors point to: 'clmem peak --help' */
    args[1] = "peak";
    for (int i = 1; i < argc; i++)
        args[i + 1] = argv[i];
    int status = cmd_run(argc + 1, args);
    free(args);
    return status;
}
