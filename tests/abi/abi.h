/* What the parts of tests/test_abi.c, each built against its own version of
 * clmem.h, tell each other: plain types only, no struct of clmem.h. */
#ifndef CLMEM_TEST_ABI_H
#define CLMEM_TEST_ABI_H

#include <stddef.h>

/* real.c, against the real header: the library's sizes. */
size_t abi_real_result_size(void);
size_t abi_real_run_options_size(void);

/* newer.c, against a header whose struct clmem_result has one more field. */
size_t abi_newer_result_size(void);
/* clmem_devices_list and clmem_run from such a program: their status, the
 * message, what they left in the program's list and results. */
int abi_newer_list(char *message, size_t size, size_t *count, int *list_null);
int abi_newer_run(char *message, size_t size, size_t *n_results, int *results_null);

#endif
