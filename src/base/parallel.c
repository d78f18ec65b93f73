/* Work items run all at once, a thread each (several devices, the CPU
 * reference, the inputs of large sizes). */
#include "base/base.h"

#include <pthread.h>
#include <stdlib.h>

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
