/* A run's programs and kernels: each .cl file its selected variants name
 * built once with the parameters chosen for the device, a variant's kernel
 * and the more kernels it launches, all owned by the run. */
#include "harness/workload.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *source_of(const struct clmem_run *run, const struct clmem_variant *v)
{
    return v->source ? v->source : run->workload->source;
}

/* Whether the run builds this variant's kernels. */
static int builds(const struct clmem_run *run, const struct clmem_variant *v)
{
    return v->kernel && !(v->needs_extension &&
                          !clmem_device_has_extension(&run->ctx->device, v->needs_extension));
}

int clmem_sources_check(const char *kernel_dir, const struct clmem_workload *w, const char *variant,
                        struct clmem_error *err)
{
    int status = clmem_params_check(w, err);
    for (size_t i = 0; !status && i < w->n_variants; i++) {
        const struct clmem_variant *v = &w->variants[i];
        if (!v->kernel || (variant && strcmp(variant, "all") != 0 && strcmp(variant, v->name)))
            continue;
        char path[2048];
        status = clmem_source_find(kernel_dir, v->source ? v->source : w->source, path, sizeof path,
                                   err);
        if (status)
            return status;
        if (access(path, R_OK) != 0)
            return clmem_fail(err, CLMEM_ERR_USAGE, "cannot read kernel source '%s': %s", path,
                              strerror(errno));
    }
    return status;
}

cl_program clmem_run_program(const struct clmem_run *run, const char *source)
{
    if (!source)
        source = run->workload->source;
    for (size_t i = 0; i < run->n_programs; i++)
        if (strcmp(run->programs[i].source, source) == 0)
            return run->programs[i].program;
    return NULL;
}

/* The program of `source`, built now if no variant before needed it. */
static int program_for(struct clmem_run *run, const char *source, const char *options,
                       cl_program *program, struct clmem_error *err)
{
    if ((*program = clmem_run_program(run, source)))
        return CLMEM_OK;
    if (run->n_programs == CLMEM_MAX_SOURCES)
        return clmem_fail(err, CLMEM_ERR_CL, "workload '%s' names more than %d kernel files",
                          run->workload->name, CLMEM_MAX_SOURCES);
    int status = clmem_program_build(run->ctx, source, options, program, err);
    if (status == CLMEM_OK) {
        run->programs[run->n_programs].source = source;
        run->programs[run->n_programs++].program = *program;
    }
    return status;
}

int clmem_run_build(struct clmem_run *run, const char *options, struct clmem_error *err)
{
    snprintf(run->params, sizeof run->params, "%s", options ? options : "");
    for (size_t i = 0; i < run->n_variants; i++) {
        const struct clmem_variant *v = run->variants[i];
        size_t index = (size_t)(v - run->workload->variants);
        if (index >= CLMEM_MAX_VARIANTS || run->kernels[index] || !builds(run, v))
            continue;
        const char *source = source_of(run, v);
        cl_program program;
        int status = program_for(run, source, options, &program, err);
        if (status ||
            (status = clmem_kernel_create(program, source, v->kernel, &run->kernels[index], err)))
            return status;
        for (size_t k = 0; k < CLMEM_MORE_KERNELS && v->more_kernels[k]; k++)
            if ((status = clmem_kernel_create(program, source, v->more_kernels[k],
                                              &run->more_kernels[index][k], err)))
                return status;
    }
    return CLMEM_OK;
}

int clmem_run_rebuild(struct clmem_run *run, const char *options, struct clmem_error *err)
{
    clmem_run_release_programs(run);
    return clmem_run_build(run, options, err);
}

cl_kernel clmem_run_kernel(const struct clmem_run *run, const struct clmem_variant *v)
{
    size_t index = (size_t)(v - run->workload->variants);
    return index < CLMEM_MAX_VARIANTS ? run->kernels[index] : NULL;
}

cl_kernel clmem_run_more_kernel(const struct clmem_run *run, const struct clmem_variant *v,
                                size_t i)
{
    size_t index = (size_t)(v - run->workload->variants);
    return index < CLMEM_MAX_VARIANTS && i < CLMEM_MORE_KERNELS ? run->more_kernels[index][i]
                                                                : NULL;
}

void clmem_run_release_programs(struct clmem_run *run)
{
    for (size_t i = 0; i < CLMEM_MAX_VARIANTS; i++) {
        clmem_release_kernel(&run->kernels[i]);
        for (size_t k = 0; k < CLMEM_MORE_KERNELS; k++)
            clmem_release_kernel(&run->more_kernels[i][k]);
    }
    for (size_t i = 0; i < run->n_programs; i++)
        clmem_release_program(&run->programs[i].program);
    run->n_programs = 0;
}
