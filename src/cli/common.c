/* Error printing, number parsing and device opening for the commands. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>

int cli_report_error(const struct clmem_error *err)
{
    fprintf(stderr, "clmem: %s\n", err->message);
    if (err->log && err->log[0])
        fprintf(stderr, "build log:\n%s\n", err->log);
    return err->status ? err->status : CLMEM_ERR_CL;
}

int cli_usage_error(const char *command, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "clmem: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (see 'clmem %s%s--help')\n", command ? command : "", command ? " " : "");
    return CLMEM_ERR_USAGE;
}

int cli_option_error(const char *command, int c, const char *option, struct clmem_error *err)
{
    if (c == ':')
        return clmem_fail(err, CLMEM_ERR_USAGE, "option '%s' needs a value (see 'clmem %s --help')",
                          option, command);
    return clmem_fail(err, CLMEM_ERR_USAGE, "unknown option '%s' (see 'clmem %s --help')", option,
                      command);
}

const char *cli_refused_option(int argc, char **argv, char *buf, size_t size)
{
    /* getopt_long stops at the first refused option. A short one heads its
     * cluster (-h, the only short option known, returns at once), and while
     * the cluster goes on getopt is still at it, argv[optind]; a lone "-x" or
     * a long option has been passed: argv[optind - 1]. */
    const char *at = optind < argc ? argv[optind] : NULL;
    /* glibc gives a byte past ASCII as a negative optopt. */
    if (optopt != 0 && at && at[0] == '-' && (unsigned char)at[1] == (unsigned char)optopt &&
        at[2] != '\0') {
        snprintf(buf, size, "-%c", (unsigned char)optopt);
        return buf;
    }
    return argv[optind > 0 ? optind - 1 : 0];
}

int cli_parse_uint(const char *option, const char *text, unsigned long long min,
                   unsigned long long max, unsigned long long *value, struct clmem_error *err)
{
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '-')
        return clmem_fail(err, CLMEM_ERR_USAGE, "%s '%s' is negative (expected %llu to %llu)",
                          option, text, min, max);
    if (!isdigit((unsigned char)*p))
        return clmem_fail(err, CLMEM_ERR_USAGE, "%s '%s' is not a number (expected %llu to %llu)",
                          option, text, min, max);
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, 10);
    if (*end != '\0')
        return clmem_fail(err, CLMEM_ERR_USAGE, "%s '%s' is not a number (expected %llu to %llu)",
                          option, text, min, max);
    if (errno == ERANGE || v < min || v > max)
        return clmem_fail(err, CLMEM_ERR_USAGE, "%s '%s' is out of range (expected %llu to %llu)",
                          option, text, min, max);
    *value = v;
    return CLMEM_OK;
}

int cli_open_device(const char *spec, const char *kernel_dir, struct clmem_ctx *ctx,
                    struct clmem_error *err)
{
    struct clmem_device *devices;
    size_t count, chosen;
    int status = clmem_devices_list(&devices, &count, err);
    if (status)
        return status;
    status = clmem_devices_select(spec, devices, count, &chosen, err);
    if (status == CLMEM_OK)
        status = clmem_ctx_open(ctx, &devices[chosen], kernel_dir, err);
    free(devices);
    return status;
}
