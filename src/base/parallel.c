/* Work items run all at once, a thread each (several devices, the CPU
 * reference, the inputs of large sizes). */
#include "base/base.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

struct parallel_item {
    int (*fn)(void *arg, size_t index);
    void *arg;
    size_t index;
    int status;
};

static void *parallel_thread(void *p)
{
    struct parallel_item *item = p;
    item->status = item->fn(item->arg, item->index);
    return NULL;
}

void clmem_parallel(size_t n, int (*fn)(void *arg, size_t index), void *arg, int *status)
{
    struct parallel_item *items = calloc(n, sizeof *items);
    pthread_t *threads = calloc(n, sizeof *threads);
    char *started = calloc(n, 1);
    if (!items || !threads || !started) {
        /* No memory for threads: one after the other, still every item. */
        for (size_t i = 0; i < n; i++)
            status[i] = fn(arg, i);
        goto cleanup;
    }
    for (size_t i = 0; i < n; i++) {
        items[i] = (struct parallel_item){fn, arg, i, CLMEM_OK};
        started[i] = pthread_create(&threads[i], NULL, parallel_thread, &items[i]) == 0;
    }
    /* An item whose thread could not start runs here, while the others run. */
    for (size_t i = 0; i < n; i++)
        if (!started[i])
            parallel_thread(&items[i]);
    for (size_t i = 0; i < n; i++) {
        if (started[i])
            pthread_join(threads[i], NULL);
        status[i] = items[i].status;
    }
cleanup:
    free(items);
    free(threads);
    free(started);
}

size_t clmem_parallel_parts(size_t pieces)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    size_t parts = pieces;
    if (cores > 0 && parts > (size_t)cores)
        parts = (size_t)cores;
    if (parts > CLMEM_PARALLEL_MAX)
        parts = CLMEM_PARALLEL_MAX;
    return parts ? parts : 1;
}

struct rows_job {
    size_t rows, parts;
    void (*fn)(void *arg, size_t first, size_t end);
    void *arg;
};

static int rows_part(void *arg, size_t part)
{
    const struct rows_job *job = arg;
    job->fn(job->arg, job->rows * part / job->parts, job->rows * (part + 1) / job->parts);
    return 0;
}

void clmem_parallel_rows(size_t rows, size_t per_row, size_t least,
                         void (*fn)(void *arg, size_t first, size_t end), void *arg)
{
    size_t pieces = least ? rows * per_row / least : rows;
    struct rows_job job = {rows, clmem_parallel_parts(pieces < rows ? pieces : rows), fn, arg};
    if (job.parts == 1) {
        fn(arg, 0, rows);
        return;
    }
    int status[CLMEM_PARALLEL_MAX];
    clmem_parallel(job.parts, rows_part, &job, status);
}
