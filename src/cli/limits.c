/* The resource limits the OpenCL driver needs, checked before it loads:
 * below them PoCL crashed or aborted instead of failing. */
#define _XOPEN_SOURCE 700 /* getrlimit, setrlimit */
#include "driver.h"

#if defined(__has_include) && __has_include(<malloc.h>)
#include <malloc.h> /* mallopt (glibc) */
#endif
#include <sys/resource.h>

/* Below the driver's need, PoCL crashed (SIGSEGV at exit) or LLVM aborted
 * building: refused before the driver loads. Under any limit, glibc keeps
 * one malloc arena: each thread that gets an arena of its own reserves 64
 * MiB of the limit (128 while it aligns it), and how many the driver's
 * threads get depends on how they meet: on a loaded machine PoCL then
 * failed now and then to list its devices at 512 MiB
 * (CL_OUT_OF_HOST_MEMORY), where an idle one lists them from 303 MiB. */
static int check_address_space(unsigned need_mib, struct clmem_error *err)
{
    struct rlimit limit;
    if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return CLMEM_OK;
#ifdef M_ARENA_MAX
    mallopt(M_ARENA_MAX, 1);
#endif
    if (limit.rlim_cur >= (rlim_t)need_mib << 20)
        return CLMEM_OK;
    return clmem_fail(err, CLMEM_ERR_CL,
                      "the address-space limit (ulimit -v) of %llu MiB is below the %u MiB the "
                      "OpenCL driver needs (raise it, e.g. 'ulimit -v unlimited')",
                      (unsigned long long)(limit.rlim_cur >> 20), need_mib);
}

/* PoCL's compiler opens its linker, libraries and cache files while it
 * builds: below about 16 descriptors it aborted the whole process
 * ("Too many open files" from ld, then SIGABRT). The soft limit is raised
 * toward the hard one as most programs may; a hard limit too low is
 * refused before the driver loads. */
static int check_file_descriptors(struct clmem_error *err)
{
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= CLI_DRIVER_FILE_DESCRIPTORS)
        return CLMEM_OK;
    rlim_t want = CLI_DRIVER_FILE_DESCRIPTORS * 4;
    if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < want)
        want = limit.rlim_max;
    if (want >= CLI_DRIVER_FILE_DESCRIPTORS) {
        limit.rlim_cur = want;
        if (setrlimit(RLIMIT_NOFILE, &limit) == 0)
            return CLMEM_OK;
    }
    return clmem_fail(err, CLMEM_ERR_CL,
                      "the open-file limit (ulimit -n) of %llu is below the %d the OpenCL "
                      "driver's compiler needs (raise it, e.g. 'ulimit -n 1024')",
                      (unsigned long long)limit.rlim_max, CLI_DRIVER_FILE_DESCRIPTORS);
}

int cli_limits_check(unsigned need_mib, struct clmem_error *err)
{
    int status = check_address_space(need_mib, err);
    return status ? status : check_file_descriptors(err);
}
