/* The seam of job.h with MPI (an MPI build; no_mpi.c is the one without):
 * starting MPI, where a rank is, agreeing on how things went so that no
 * rank waits in a collective the others left, and every rank's report
 * gathered on rank 0. SUMMA is summa.c's. */
#include "mpi/ranks.h"

#include <limits.h>
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

int clmem_mpi_built(void)
{
    return 1;
}

int clmem_mpi_start(int *argc, char ***argv, struct clmem_mpi **job, struct clmem_error *err)
{
    *job = calloc(1, sizeof **job);
    if (!*job)
        return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    int status = clmem_mpi_init(argc, argv, *job, err);
    if (status) {
        free(*job);
        *job = NULL;
    }
    return status;
}

void clmem_mpi_stop(struct clmem_mpi *job)
{
    if (!job)
        return;
    clmem_mpi_finalize(job);
    free(job);
}

int clmem_mpi_rank(const struct clmem_mpi *m)
{
    return m->rank;
}

int clmem_mpi_size(const struct clmem_mpi *m)
{
    return m->size;
}

int clmem_mpi_local_rank(const struct clmem_mpi *m)
{
    return m->local_rank;
}

const char *clmem_mpi_host(const struct clmem_mpi *m)
{
    return m->host;
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

int clmem_mpi_count(const struct clmem_mpi *m, int mine, int *first)
{
    int one = mine != 0, count = 0, candidate = mine ? m->rank : m->size;
    MPI_Allreduce(&one, &count, 1, MPI_INT, MPI_SUM, m->world);
    MPI_Allreduce(&candidate, first, 1, MPI_INT, MPI_MIN, m->world);
    return count;
}

void clmem_mpi_broadcast(const struct clmem_mpi *m, void *data, size_t bytes, int root)
{
    MPI_Bcast(data, (int)bytes, MPI_BYTE, root, m->world);
}

/* ---- every rank's report to rank 0 ----
 * A rank's report travels as bytes: the report, its results, then their
 * samples (the ranks run the same build, so the layouts match). */

/* The bytes of one report; NULL when out of memory. */
static unsigned char *pack(const struct clmem_rank_report *r, size_t *bytes)
{
    size_t samples = 0;
    for (size_t i = 0; i < r->n_results; i++)
        samples += r->results[i].n_samples;
    *bytes = sizeof *r + r->n_results * sizeof *r->results + samples * sizeof(double);
    unsigned char *buf = malloc(*bytes), *at = buf;
    if (!buf)
        return NULL;
    struct clmem_rank_report head = *r;
    head.results = NULL;
    head.device.platform = NULL; /* handles mean nothing on another rank */
    head.device.id = NULL;
    memcpy(at, &head, sizeof head);
    at += sizeof head;
    for (size_t i = 0; i < r->n_results; i++) {
        struct clmem_result one = r->results[i];
        one.samples_ms = NULL;
        memcpy(at, &one, sizeof one);
        at += sizeof one;
    }
    for (size_t i = 0; i < r->n_results; i++) {
        if (r->results[i].n_samples)
            memcpy(at, r->results[i].samples_ms, r->results[i].n_samples * sizeof(double));
        at += r->results[i].n_samples * sizeof(double);
    }
    return buf;
}

/* A report back from its bytes, checking that they add up. */
static int unpack(const unsigned char *buf, size_t bytes, int rank, struct clmem_rank_report *r,
                  struct clmem_error *err)
{
    const unsigned char *at = buf, *end = buf + bytes;
    memset(r, 0, sizeof *r);
    if (bytes < sizeof *r)
        return clmem_fail(err, CLMEM_ERR_CL, "rank %d sent no report (out of host memory?)", rank);
    memcpy(r, at, sizeof *r);
    at += sizeof *r;
    r->results = NULL;
    size_t n = r->n_results;
    r->n_results = 0;
    if (n > (size_t)(end - at) / sizeof *r->results)
        return clmem_fail(err, CLMEM_ERR_CL, "rank %d's report is truncated", rank);
    if (n && !(r->results = clmem_alloc_array(n, sizeof *r->results, err)))
        return err->status;
    if (n)
        memcpy(r->results, at, n * sizeof *r->results);
    at += n * sizeof *r->results;
    for (size_t i = 0; i < n; i++)
        r->results[i].samples_ms = NULL;
    r->n_results = n; /* from here on, clmem_rank_reports_free frees them */
    for (size_t i = 0; i < n; i++) {
        struct clmem_result *res = &r->results[i];
        size_t count = res->n_samples;
        if (count > (size_t)(end - at) / sizeof(double))
            return clmem_fail(err, CLMEM_ERR_CL, "rank %d's report is truncated", rank);
        if (count && !(res->samples_ms = clmem_alloc_array(count, sizeof(double), err)))
            return err->status;
        if (count)
            memcpy(res->samples_ms, at, count * sizeof(double));
        at += count * sizeof(double);
    }
    return CLMEM_OK;
}

int clmem_mpi_gather(const struct clmem_mpi *m, const struct clmem_rank_report *mine,
                     struct clmem_rank_report **all, struct clmem_error *err)
{
    size_t bytes = 0;
    unsigned char *buf = pack(mine, &bytes), *received = NULL;
    /* A rank out of memory still takes part: it sends nothing, and rank 0
     * says so. */
    long long len = buf && bytes <= INT_MAX ? (long long)bytes : 0;
    long long *lens = NULL;
    int *counts = NULL, *displs = NULL, status = CLMEM_OK;
    *all = NULL;
    if (m->rank == 0) {
        lens = calloc((size_t)m->size, sizeof *lens);
        counts = calloc((size_t)m->size, sizeof *counts);
        displs = calloc((size_t)m->size, sizeof *displs);
        *all = calloc((size_t)m->size, sizeof **all);
        if (!lens || !counts || !displs || !*all) {
            /* Rank 0 cannot take part: nothing else is left to do. */
            fprintf(stderr, "clmem: rank 0: out of host memory gathering the reports\n");
            MPI_Abort(m->world, CLMEM_ERR_CL);
        }
    }
    MPI_Gather(&len, 1, MPI_LONG_LONG, lens, 1, MPI_LONG_LONG, 0, m->world);
    long long total = 0;
    if (m->rank == 0) {
        for (int i = 0; i < m->size; i++) {
            displs[i] = (int)total;
            counts[i] = (int)lens[i];
            total += lens[i];
        }
        if (total > INT_MAX || !(received = malloc(total ? (size_t)total : 1))) {
            fprintf(stderr, "clmem: rank 0: the reports (%lld bytes) do not fit\n", total);
            MPI_Abort(m->world, CLMEM_ERR_CL);
        }
    }
    MPI_Gatherv(buf, (int)len, MPI_BYTE, received, counts, displs, MPI_BYTE, 0, m->world);
    if (m->rank == 0)
        for (int i = 0; i < m->size; i++) {
            struct clmem_error one = {0};
            int s = unpack(received + displs[i], (size_t)counts[i], i, &(*all)[i], &one);
            if (s && status == CLMEM_OK) {
                status = s;
                *err = one;
            } else {
                clmem_error_clear(&one);
            }
        }
    if (m->rank != 0 && !buf)
        status = clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
    free(buf);
    free(received);
    free(lens);
    free(counts);
    free(displs);
    return status;
}
