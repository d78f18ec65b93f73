/* Every rank's results to rank 0, for one report of the whole run. A
 * rank's report travels as bytes: the report, its results, then their
 * samples (the ranks run the same build, so the layouts match). */
#include "mpi/ranks.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

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

void clmem_rank_reports_free(struct clmem_rank_report *all, size_t n)
{
    if (!all)
        return;
    for (size_t i = 0; i < n; i++)
        clmem_results_free(all[i].results, all[i].n_results);
    free(all);
}
