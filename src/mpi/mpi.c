/* clmem under mpirun: starting MPI, and agreeing on how things went, so
 * that no rank waits in a collective the others left. */
#include "mpi/ranks.h"

#include <stdlib.h>
#include <string.h>

/* LeakSanitizer's interface in the sanitizer build (weak: NULL elsewhere).
 * Open MPI never frees what MPI_Init allocates and drops much more in
 * MPI_Finalize, often in components it has unloaded by the time of the
 * check at exit, whose stacks LeakSanitizer can then not name (nor a
 * suppression match). So MPI_Init's allocations are left out of the check
 * (__lsan_disable), and the check runs before MPI_Finalize, when what
 * clmem failed to free is unreachable already and Open MPI still holds its
 * own memory; the check at exit is then skipped. tests/lsan.supp skips the
 * leaks of Open MPI's PMIx thread. */
extern void __lsan_disable(void) __attribute__((weak));
extern void __lsan_enable(void) __attribute__((weak));
extern void __lsan_do_leak_check(void) __attribute__((weak));

int clmem_mpi_init(int *argc, char ***argv, struct clmem_mpi *m, struct clmem_error *err)
{
    memset(m, 0, sizeof *m);
    int provided, len = 0, started;
    if (__lsan_disable)
        __lsan_disable();
    /* Only the main thread calls MPI; multi-device threads never do. */
    started = MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    if (__lsan_enable)
        __lsan_enable();
    if (started != MPI_SUCCESS)
        return clmem_fail(err, CLMEM_ERR_CL, "cannot start MPI (MPI_Init_thread failed)");
    m->world = MPI_COMM_WORLD;
    MPI_Comm_rank(m->world, &m->rank);
    MPI_Comm_size(m->world, &m->size);
    MPI_Comm_split_type(m->world, MPI_COMM_TYPE_SHARED, m->rank, MPI_INFO_NULL, &m->local);
    MPI_Comm_rank(m->local, &m->local_rank);
    MPI_Comm_size(m->local, &m->local_size);
    MPI_Get_processor_name(m->host, &len);
    m->host[len < 0 ? 0 : len] = '\0';
    return CLMEM_OK;
}

void clmem_mpi_finalize(struct clmem_mpi *m)
{
    if (m->local != MPI_COMM_NULL)
        MPI_Comm_free(&m->local);
    if (__lsan_do_leak_check)
        __lsan_do_leak_check();
    MPI_Finalize();
}

int clmem_mpi_agree(const struct clmem_mpi *m, int status, struct clmem_error *err)
{
    int mine = clmem_status_severity(status), worst, first;
    MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, m->world);
    if (worst == 0)
        return CLMEM_OK;
    /* The lowest rank with the worst status tells the others what it was. */
    int candidate = mine == worst ? m->rank : m->size;
    MPI_Allreduce(&candidate, &first, 1, MPI_INT, MPI_MIN, m->world);
    struct {
        int status;
        char host[sizeof m->host];
        char message[sizeof err->message];
    } what = {0};
    if (m->rank == first) {
        what.status = status;
        snprintf(what.host, sizeof what.host, "%s", m->host);
        snprintf(what.message, sizeof what.message, "%s", err->message);
    }
    MPI_Bcast(&what, (int)sizeof what, MPI_BYTE, first, m->world);
    /* A usage error is the same on every rank: said once, as it is. What
     * went wrong on one rank says which. */
    char prefix[sizeof what.host + 32];
    snprintf(prefix, sizeof prefix, "rank %d on %s: ", first, what.host);
    /* Agreed on before (a step's status, then the command's): said once. */
    int said = strncmp(what.message, prefix, strlen(prefix)) == 0;
    if (what.status == CLMEM_ERR_USAGE || what.status == CLMEM_ERR_INTERRUPTED || said)
        clmem_fail(err, what.status, "%s", what.message);
    else
        clmem_fail(err, what.status, "%s%s", prefix, what.message);
    return what.status;
}
