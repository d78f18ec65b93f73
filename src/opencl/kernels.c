/* Kernels: creating them, setting their arguments, and the work-group and
 * tile sizes a device allows. */
#include "opencl/opencl.h"

#include <stdio.h>

int clmem_kernel_create(cl_program program, const char *source, const char *name, cl_kernel *kernel,
                        struct clmem_error *err)
{
    cl_int rc;
    *kernel = clCreateKernel(program, name, &rc);
    if (rc != CL_SUCCESS)
        return clmem_fail(err, CLMEM_ERR_CL, "clCreateKernel of '%s' in '%s' failed with %s", name,
                          source, clmem_cl_error_name(rc));
    return CLMEM_OK;
}

int clmem_kernel_args_n(cl_kernel kernel, struct clmem_error *err, const struct clmem_arg *args,
                        size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cl_int rc = clSetKernelArg(kernel, (cl_uint)i, args[i].size, args[i].value);
        if (rc != CL_SUCCESS)
            return clmem_fail(err, CLMEM_ERR_CL, "clSetKernelArg %zu failed with %s", i,
                              clmem_cl_error_name(rc));
    }
    return CLMEM_OK;
}

size_t clmem_pick_tile(const struct clmem_device *device, size_t max_tile, size_t tiles,
                       size_t elem_bytes)
{
    size_t t = 1;
    while (t * 2 <= max_tile && (t * 2) * (t * 2) <= device->max_work_group &&
           tiles * (t * 2) * (t * 2) * elem_bytes <= device->local_mem)
        t *= 2;
    return t;
}

size_t clmem_pick_group(const struct clmem_device *device, size_t max_group)
{
    size_t g = 1;
    while (g * 2 <= max_group && g * 2 <= device->max_work_group)
        g *= 2;
    return g;
}
