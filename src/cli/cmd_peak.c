/* clmem peak: the device's own copy bandwidth and FMA throughput. It is
 * `clmem run peak` under a name of its own, with the options of run that a
 * run of the peak workload can use. */
#include "commands.h"

static const struct cli_use peak_uses[] = {
    {.id = CLI_OPT_VARIANT},  {.id = CLI_OPT_SIZE},     {.id = CLI_OPT_DEVICE},
    {.id = CLI_OPT_REPS},     {.id = CLI_OPT_WARMUP},   {.id = CLI_OPT_SEED},
    {.id = CLI_OPT_FORMAT},   {.id = CLI_OPT_OUTPUT},   {.id = CLI_OPT_KERNEL_DIR},
    {.id = CLI_OPT_NO_CACHE}, {.id = CLI_OPT_PROGRESS}, {.id = CLI_OPT_QUIET},
};

const struct cli_spec cli_peak_spec = {
    .name = "peak",
    .synopsis = "[options]",
    .about = "Measures the device's own peaks, as clpeak does: the bandwidth of a float4\n"
             "copy (GB/s, read + write) and of float4 reads alone (the roof of\n"
             "reductions), the FP32 throughput of chains of fused multiply-adds\n"
             "(GFLOP/s), and what a kernel launch costs (100 back to back). All are\n"
             "verified like every workload. 'clmem run --peak' and 'clmem bench' give\n"
             "each result its fraction of these. It is 'clmem run peak': a device list\n"
             "measures every device at once, with totals.\n",
    .more = "exit codes: 0 ok, 1 verification failed, 2 usage error or a file that cannot\n"
            "be written, 3 no OpenCL device or OpenCL error, 128+N stopped by signal N\n"
            "(130: Ctrl-C)\n",
    CLI_USES(peak_uses),
    .min_args = 0,
    .max_args = 0,
};

int cmd_peak(int argc, char **argv)
{
    return cli_run_command(&cli_peak_spec, "peak", argc, argv);
}
