/* clmem.h's handles on a device that need nothing but its struct: its
 * fields read by the names the run files give them (struct clmem_member). */
#include "opencl/opencl.h"

/* ---- devices ---- */
static const struct clmem_member device_members[] = {
    CLMEM_MEMBER(clmem_device, name, "name"),
    CLMEM_MEMBER(clmem_device, platform_name, "platform"),
    CLMEM_MEMBER(clmem_device, vendor, "vendor"),
    CLMEM_MEMBER(clmem_device, version, "version"),
    CLMEM_MEMBER(clmem_device, driver, "driver"),
    CLMEM_MEMBER(clmem_device, c_version, "opencl_c_version"),
    CLMEM_MEMBER(clmem_device, family, "family"),
};

const struct clmem_device *clmem_device_at(const struct clmem_device *devices, size_t count,
                                           size_t i)
{
    return devices && i < count ? &devices[i] : NULL;
}

const char *clmem_device_text(const struct clmem_device *device, const char *field)
{
    return clmem_member_text(device, device_members, CLMEM_ARRAY_SIZE(device_members), field);
}

cl_device_id clmem_device_id(const struct clmem_device *device)
{
    return device ? device->id : NULL;
}
