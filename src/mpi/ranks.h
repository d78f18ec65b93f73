/* The MPI build's side of the seam (job.h): a job's communicators, for
 * mpi.c and summa.c (and the SUMMA test), which alone include <mpi.h>.
 * Exists only in an MPI build (meson setup -Dmpi=enabled); libclmem and
 * clmem.h never need it. */
#ifndef CLMEM_MPI_RANKS_H
#define CLMEM_MPI_RANKS_H

#include "mpi/job.h"

#include <mpi.h>

struct clmem_mpi {
    MPI_Comm world; /* MPI_COMM_WORLD */
    MPI_Comm local; /* the ranks on this host (MPI_COMM_TYPE_SHARED) */
    int rank, size;
    int local_rank, local_size;
    char host[MPI_MAX_PROCESSOR_NAME + 1];
};

/* MPI_Init_thread (only the main thread calls MPI) and the communicators
 * above, in a job the caller holds (clmem_mpi_start allocates one). In a
 * sanitizer build, Open MPI's own allocations are left out of the leak
 * check, which runs in clmem_mpi_finalize, before MPI_Finalize (mpi.c
 * says why). */
int clmem_mpi_init(int *argc, char ***argv, struct clmem_mpi *m, struct clmem_error *err);
void clmem_mpi_finalize(struct clmem_mpi *m);

#endif
