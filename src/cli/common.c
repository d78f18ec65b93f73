/* What every command says on stderr: its errors, usage errors and
 * warnings, each once for all the ranks of an MPI job (cli_silent). */
#include "cli.h"

#include <stdarg.h>

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
