/* The seam of job.h in a build without MPI (mpi.c is the one with it): no
 * job ever starts, so each command runs as one process and none of the
 * collectives below is reached; they are here so that the callers need
 * no #ifdef. */
#include "mpi/job.h"

int clmem_mpi_built(void)
{
    return 0;
}

int clmem_mpi_start(int *argc, char ***argv, struct clmem_mpi **job, struct clmem_error *err)
{
    (void)argc;
    (void)argv;
    *job = NULL;
    return clmem_fail(err, CLMEM_ERR_USAGE, "this clmem was built without MPI");
}

void clmem_mpi_stop(struct clmem_mpi *job)
{
    (void)job;
}

int clmem_mpi_rank(const struct clmem_mpi *m)
{
    (void)m;
    return 0;
}

int clmem_mpi_size(const struct clmem_mpi *m)
{
    (void)m;
    return 1;
}

int clmem_mpi_local_rank(const struct clmem_mpi *m)
{
    (void)m;
    return 0;
}

const char *clmem_mpi_host(const struct clmem_mpi *m)
{
    (void)m;
    return "";
}

int clmem_mpi_agree(const struct clmem_mpi *m, int status, struct clmem_error *err)
{
    (void)m;
    (void)err;
    return status;
}

int clmem_mpi_count(const struct clmem_mpi *m, int mine, int *first)
{
    (void)m;
    *first = mine ? 0 : 1;
    return mine != 0;
}

void clmem_mpi_broadcast(const struct clmem_mpi *m, void *data, size_t bytes, int root)
{
    (void)m;
    (void)data;
    (void)bytes;
    (void)root;
}

int clmem_mpi_gather(const struct clmem_mpi *m, const struct clmem_rank_report *mine,
                     struct clmem_rank_report **all, struct clmem_error *err)
{
    (void)m;
    (void)mine;
    *all = NULL;
    return clmem_fail(err, CLMEM_ERR_USAGE, "no ranks to gather (a build without MPI)");
}

int clmem_summa(const struct clmem_mpi *m, struct clmem_ctx *ctx,
                const struct clmem_summa_options *options, struct clmem_result **results,
                size_t *n_results, struct clmem_error *err)
{
    (void)m;
    (void)ctx;
    (void)options;
    (void)results;
    (void)n_results;
    return clmem_fail(err, CLMEM_ERR_USAGE, "SUMMA needs clmem built with MPI");
}
