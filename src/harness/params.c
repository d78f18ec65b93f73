/* Kernel parameters as data, looked up as CLBlast looks up its database:
 * the device by name, else its family, else its vendor, else any device
 * of its type; a table may hold several rows at one level, candidates the
 * workload chooses among (by size). */
#include "harness/workload.h"

#include <strings.h>

static int row_matches(const struct clmem_param_row *r, const struct clmem_device *device)
{
    if (r->type && !(r->type & device->type))
        return 0;
    switch (r->level) {
    case CLMEM_PARAM_DEVICE: return clmem_contains_nocase(device->name, r->match);
    case CLMEM_PARAM_FAMILY: return device->family[0] && strcasecmp(device->family, r->match) == 0;
    case CLMEM_PARAM_VENDOR:
        return clmem_contains_nocase(device->vendor, r->match) ||
               clmem_contains_nocase(device->platform_name, r->match);
    case CLMEM_PARAM_ANY: return 1;
    }
    return 0;
}

size_t clmem_param_rows(const struct clmem_param_row *rows, size_t n,
                        const struct clmem_device *device, const struct clmem_param_row **out,
                        size_t max, enum clmem_param_level *level)
{
    for (int l = CLMEM_PARAM_DEVICE; l <= CLMEM_PARAM_ANY; l++) {
        size_t k = 0;
        for (size_t i = 0; i < n && k < max; i++)
            if ((int)rows[i].level == l && row_matches(&rows[i], device))
                out[k++] = &rows[i];
        if (k) {
            *level = (enum clmem_param_level)l;
            return k;
        }
    }
    return 0;
}

const char *clmem_param_level_name(enum clmem_param_level level)
{
    static const char *const names[] = {"device", "family", "vendor", "any device"};
    return level <= CLMEM_PARAM_ANY ? names[level] : "?";
}
