/* Helpers every workload's set-up shares: building its program, creating
 * the variants' kernels, setting arguments, choosing tile sizes. */
#include "clmem/clmem.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int clmem_run_build(struct clmem_run *run, const char *options, cl_program *program,
                    cl_kernel kernels[CLMEM_MAX_VARIANTS], struct clmem_error *err)
{
    int status;
    snprintf(run->params, sizeof run->params, "%s", options ? options : "");
    if ((status = clmem_program_build(run->ctx, run->workload->source, options, program, err)))
        return status;
    for (size_t i = 0; i < run->n_variants; i++) {
        const struct clmem_variant *v = run->variants[i];
        size_t index = (size_t)(v - run->workload->variants);
        /* A library's variant has no kernel of ours; a variant needing an
         * extension the device lacks (cl_khr_fp64) has none built here. */
        if (index >= CLMEM_MAX_VARIANTS || kernels[index] || !v->kernel ||
            (v->needs_extension &&
             !clmem_device_has_extension(&run->ctx->device, v->needs_extension)))
            continue;
        if ((status = clmem_kernel_create(*program, run->workload->source, v->kernel,
                                          &kernels[index], err)))
            return status;
    }
    return CLMEM_OK;
}

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

void clmem_kernels_release(cl_kernel kernels[CLMEM_MAX_VARIANTS])
{
    for (size_t i = 0; i < CLMEM_MAX_VARIANTS; i++)
        clmem_release_kernel(&kernels[i]);
}

int clmem_kernel_args(cl_kernel kernel, struct clmem_error *err, unsigned n, ...)
{
    va_list ap;
    va_start(ap, n);
    for (unsigned i = 0; i < n; i++) {
        size_t size = va_arg(ap, size_t);
        const void *value = va_arg(ap, const void *);
        cl_int rc = clSetKernelArg(kernel, i, size, value);
        if (rc != CL_SUCCESS) {
            va_end(ap);
            return clmem_fail(err, CLMEM_ERR_CL, "clSetKernelArg %u failed with %s", i,
                              clmem_cl_error_name(rc));
        }
    }
    va_end(ap);
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

void *clmem_alloc_array(size_t n, size_t elem, struct clmem_error *err)
{
    size_t bytes;
    if (!clmem_mul_size(n, elem, &bytes)) {
        clmem_fail(err, CLMEM_ERR_USAGE, "size overflows: %zu elements of %zu bytes", n, elem);
        return NULL;
    }
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        clmem_fail(err, CLMEM_ERR_CL, "out of host memory (%zu bytes)", bytes);
    return p;
}

static int contains_nocase(const char *text, const char *part)
{
    size_t n = strlen(part);
    for (; *text; text++)
        if (strncasecmp(text, part, n) == 0)
            return 1;
    return n == 0;
}

int clmem_param_row_matches(const struct clmem_param_row *r, const struct clmem_device *device)
{
    if (r->type && !(r->type & device->type))
        return 0;
    return !r->match || contains_nocase(device->name, r->match) ||
           contains_nocase(device->vendor, r->match) ||
           contains_nocase(device->platform_name, r->match);
}

const int *clmem_params_lookup(const struct clmem_param_row *rows, size_t n,
                               const struct clmem_device *device)
{
    for (size_t i = 0; i < n; i++)
        if (clmem_param_row_matches(&rows[i], device))
            return rows[i].values;
    return n ? rows[n - 1].values : NULL;
}

size_t clmem_pick_group(const struct clmem_device *device, size_t max_group)
{
    size_t g = 1;
    while (g * 2 <= max_group && g * 2 <= device->max_work_group)
        g *= 2;
    return g;
}
