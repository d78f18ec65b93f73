/* The names of device types, one table both ways: what `clmem devices`
 * shows, what the run files write and read back. */
#include "base/base.h"

#include <string.h>

static const struct {
    cl_device_type type;
    const char *name;
} device_types[] = {
    {CL_DEVICE_TYPE_GPU, "gpu"},
    {CL_DEVICE_TYPE_CPU, "cpu"},
    {CL_DEVICE_TYPE_ACCELERATOR, "accelerator"},
};

/* A device of several types is named by the first of the table's. */
const char *clmem_device_type_name(cl_device_type type)
{
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(device_types); i++)
        if (type & device_types[i].type)
            return device_types[i].name;
    return "other";
}

cl_device_type clmem_device_type_of(const char *name)
{
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(device_types); i++)
        if (strcmp(name, device_types[i].name) == 0)
            return device_types[i].type;
    return CL_DEVICE_TYPE_DEFAULT;
}
