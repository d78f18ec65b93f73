/* What `clmem run` shares with its MPI path (cmd_run_mpi.c). */
#ifndef CLMEM_CLI_RUN_H
#define CLMEM_CLI_RUN_H

#include "cli.h"

struct run_args {
    const char *workload, *variant, *size, *device, *output, *kernel_dir, *input, *compare;
    unsigned long long reps, warmup, seed;
    int peak, no_cache;
    int split;                 /* --split: matmul's rows divided over the devices */
    const char *split_weights; /* --split=W,W,...: their shares, or NULL (equal) */
    int weak;                  /* --weak: --split's rows grow with the devices */
    int no_overlap;            /* --no-overlap: --split and --summa without overlap */
    int summa;                 /* --summa: matmul over the MPI ranks */
    unsigned long long panel;  /* --panel: SUMMA's panel width, 0: its default */
    /* --summa=RxC, rows x columns of ranks; 0 x 0: the squarest grid */
    unsigned long long summa_rows, summa_cols;
    enum clmem_format format;
};

/* The options every run takes from the arguments (size, variant, reps,
 * warm-up, seed, compare; Ctrl-C polled); callers add their own. */
struct clmem_run_options run_options(const struct run_args *a);
/* Workloads that make an image write it to an --output named .pgm or .ppm. */
int run_is_image_path(const char *path);

#ifdef CLMEM_HAVE_MPI
/* run under mpirun: each rank on its device, rank 0's report of them all
 * and their totals; or with --summa matmul over the ranks. a->output is
 * written by rank 0 only. Returns the exit code, the same on every rank. */
int run_mpi(const struct run_args *a, const struct clmem_workload *workload);
#endif

#endif
