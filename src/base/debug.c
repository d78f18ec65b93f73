/* The CLMEM_DEBUG switch, read where it is used (no global state). */
#include "base/base.h"

#include <stdlib.h>

int clmem_debug_enabled(unsigned bits)
{
    const char *env = getenv("CLMEM_DEBUG");
    return env && (strtoul(env, NULL, 0) & bits) != 0;
}
