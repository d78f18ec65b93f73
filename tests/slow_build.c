/* Preloaded by test_signals (LD_PRELOAD): clBuildProgram takes
 * $CLMEM_TEST_BUILD_DELAY seconds more after the driver's own build, as a
 * cold PoCL build can on a loaded machine (60-100 s). */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

typedef cl_int (*build_fn)(cl_program, cl_uint, const cl_device_id *, const char *,
                           void(CL_CALLBACK *)(cl_program, void *), void *);

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices,
                                               const cl_device_id *device_list, const char *options,
                                               void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                               void *user_data)
{
    build_fn real = (build_fn)dlsym(RTLD_NEXT, "clBuildProgram");
    if (!real)
        return CL_BUILD_PROGRAM_FAILURE;
    cl_int rc = real(program, num_devices, device_list, options, pfn_notify, user_data);
    const char *delay = getenv("CLMEM_TEST_BUILD_DELAY");
    for (unsigned left = delay ? (unsigned)atoi(delay) : 0; left > 0;)
        left = sleep(left);
    return rc;
}
