/* A run's programs and kernels: each .cl file its selected variants name
 * built once with the parameters chosen for the device, a kernel (and a
 * pass kernel) per variant, all owned by the run. */
#include "harness/workload.h"

#include <stdio.h>
#include <string.h>

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
        if (status || (status = clmem_kernel_create(program, source, v->kernel,
                                                    &run->kernels[index], err)))
            return status;
        if (v->pass_kernel && (status = clmem_kernel_create(program, source, v->pass_kernel,
                                                            &run->pass_kernels[index], err)))
            return status;
    }
    return CLMEM_OK;
}

cl_kernel clmem_run_kernel(const struct clmem_run *run, const struct clmem_variant *v)
{
    size_t index = (size_t)(v - run->workload->variants);
    return index < CLMEM_MAX_VARIANTS ? run->kernels[index] : NULL;
}

cl_kernel clmem_run_pass_kernel(const struct clmem_run *run, const struct clmem_variant *v)
{
    size_t index = (size_t)(v - run->workload->variants);
    if (index >= CLMEM_MAX_VARIANTS)
        return NULL;
    return run->pass_kernels[index] ? run->pass_kernels[index] : run->kernels[index];
}

void clmem_run_release_programs(struct clmem_run *run)
{
    for (size_t i = 0; i < CLMEM_MAX_VARIANTS; i++) {
        clmem_release_kernel(&run->kernels[i]);
        clmem_release_kernel(&run->pass_kernels[i]);
    }
    for (size_t i = 0; i < run->n_programs; i++)
        clmem_release_program(&run->programs[i].program);
    run->n_programs = 0;
}
