/* tests/test_abi.c's view of the real clmem.h: the sizes libclmem has. */
#include "abi.h"

#include <clmem/clmem.h>

size_t abi_real_result_size(void)
{
    return sizeof(struct clmem_result);
}

size_t abi_real_run_options_size(void)
{
    return sizeof(struct clmem_run_options);
}
