/* Kernel parameters as data (CLBlast's database, in small): rows matched
 * against the device. */
#include "harness/workload.h"

int clmem_param_row_matches(const struct clmem_param_row *r, const struct clmem_device *device)
{
    if (r->type && !(r->type & device->type))
        return 0;
    return !r->match || clmem_contains_nocase(device->name, r->match) ||
           clmem_contains_nocase(device->vendor, r->match) ||
           clmem_contains_nocase(device->platform_name, r->match);
}
