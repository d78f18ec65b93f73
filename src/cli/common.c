/* What every command says on stderr: its errors, usage errors and
 * warnings, each once for all the ranks of an MPI job (cli_silent); and
 * whether mpirun started this process, which the option checks and main
 * ask before MPI starts. */
#include "common.h"

#include <stdarg.h>
#include <stdlib.h>

int cli_silent;

int cli_report_error(const struct clmem_error *err)
{
    if (cli_silent)
        return err->status ? err->status : CLMEM_ERR_CL;
    /* A message may quote a file's contents (a run file's names): escaped,
     * one line whatever they hold. */
    fputs("clmem: ", stderr);
    clmem_fputs_escaped(err->message, stderr);
    fputc('\n', stderr);
    if (err->log && err->log[0])
        fprintf(stderr, "build log:\n%s\n", err->log);
    return err->status ? err->status : CLMEM_ERR_CL;
}

int cli_usage_error(const char *command, const char *fmt, ...)
{
    va_list ap;
    if (cli_silent)
        return CLMEM_ERR_USAGE;
    fprintf(stderr, "clmem: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (see 'clmem %s%s--help')\n", command ? command : "", command ? " " : "");
    return CLMEM_ERR_USAGE;
}

void cli_report_warnings(const struct clmem_ctx *ctx)
{
    if (ctx->cache_warning[0])
        fprintf(stderr, "clmem: warning: %s\n", ctx->cache_warning);
    if (ctx->tuning_warning[0])
        fprintf(stderr, "clmem: warning: %s\n", ctx->tuning_warning);
}

/* The rank variables of Open MPI's mpirun, MPICH's Hydra and PMIx
 * launchers (srun). */
static const char *const rank_vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"};

int cli_launched_by_mpirun(void)
{
    return cli_mpirun_rank() >= 0;
}

int cli_mpirun_rank(void)
{
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(rank_vars); i++) {
        const char *v = getenv(rank_vars[i]);
        if (v && v[0])
            return atoi(v);
    }
    return -1;
}
