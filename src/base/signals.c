/* The stop signals (base.h), one list for every place that handles,
 * holds or resets them. */
#include "base/base.h"

const int clmem_stop_signals[CLMEM_N_STOP_SIGNALS] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};

void clmem_stop_set(sigset_t *set)
{
    sigemptyset(set);
    for (size_t i = 0; i < CLMEM_N_STOP_SIGNALS; i++)
        sigaddset(set, clmem_stop_signals[i]);
}
