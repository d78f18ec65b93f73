/* Compiled programs from the cache (io/cache.c keeps the files): a
 * program made from a kept binary, or a built one kept for the next run.
 * An entry the driver refuses, or one that is stale, truncated, corrupt
 * or not this user's alone, is never used: removed where that is ours to
 * do, with one warning for the CLI. */
#include "opencl/opencl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int clmem_cache_entry(const struct clmem_ctx *ctx, const char *source, const char *options,
                      struct clmem_cache_entry *entry)
{
    const struct clmem_device *d = &ctx->device;
    char identity[1200];
    int len = snprintf(identity, sizeof identity,
                       "platform %s\ndevice %s\nversion %s\ndriver %s\noptions %s\n",
                       d->platform_name, d->name, d->version, d->driver, options ? options : "");
    if (len < 0 || (size_t)len >= sizeof identity)
        return -2;
    return clmem_cache_name(identity, source, entry);
}

/* The one warning the CLI prints (a long path may cut it short). */
__attribute__((format(printf, 2, 3))) static void warn(struct clmem_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->cache_warning, sizeof ctx->cache_warning, fmt, ap);
    va_end(ap);
}

int clmem_cache_load(struct clmem_ctx *ctx, const struct clmem_cache_entry *entry,
                     const char *options, cl_program *program)
{
    char reason[512];
    size_t size = 0;
    unsigned char *bin = NULL;
    *program = NULL;
    enum clmem_state_open opened = clmem_cache_take(entry, &bin, &size, reason, sizeof reason);
    if (opened == CLMEM_STATE_MISSING)
        return 0;
    cl_int rc = CL_SUCCESS, bin_status = CL_SUCCESS;
    if (bin) {
        const unsigned char *bins[] = {bin};
        cl_program prog = clCreateProgramWithBinary(ctx->context, 1, &ctx->device.id, &size, bins,
                                                    &bin_status, &rc);
        if (rc == CL_SUCCESS && bin_status == CL_SUCCESS)
            rc = clBuildProgram(prog, 1, &ctx->device.id, options, NULL, NULL);
        free(bin);
        if (rc == CL_SUCCESS && bin_status == CL_SUCCESS) {
            *program = prog;
            ctx->cache_hits++;
            return 1;
        }
        if (prog)
            clReleaseProgram(prog);
        snprintf(reason, sizeof reason, "was refused by the driver");
    }
    ctx->cache_rebuilt++;
    if (opened == CLMEM_STATE_BAD_DIR) {
        /* Not ours to clean: left alone, and nothing stored there. */
        warn(ctx, "cached program '%s' %s: not used, built from source", entry->path, reason);
        return 0;
    }
    /* Never used again: removed (an empty directory too), so that the
     * caller's build is stored in its place. */
    const char *left = clmem_cache_drop(entry);
    warn(ctx, "cached program '%s' %s: %s from source%s", entry->path, reason,
         opened == CLMEM_STATE_OPENED ? "rebuilt" : "not used, built", left);
    return 0;
}

void clmem_cache_store(struct clmem_ctx *ctx, const struct clmem_cache_entry *entry,
                       cl_program program)
{
    size_t size = 0;
    if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) !=
            CL_SUCCESS ||
        size == 0)
        return;
    unsigned char *bin = malloc(size);
    unsigned char *bins[] = {bin};
    /* A cache that cannot be written only costs the next run a build. */
    if (bin &&
        clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS &&
        clmem_cache_write(entry, bin, size) == 0)
        ctx->cache_stored++;
    free(bin);
}
