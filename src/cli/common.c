/* Error printing, number parsing and device opening for the commands. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_silent;

/* The rank variables of Open MPI's mpirun, MPICH's Hydra and PMIx
 * launchers (srun). */
static const char *const rank_vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"};

int cli_agree(int status, struct clmem_error *err)
{
#ifdef CLMEM_HAVE_MPI
    if (cli_mpi())
        return clmem_mpi_agree(cli_mpi(), status, err);
#else
    (void)err;
#endif
    return status;
}

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

int cli_report_error(const struct clmem_error *err)
{
    if (cli_silent)
        return err->status ? err->status : CLMEM_ERR_CL;
    fprintf(stderr, "clmem: %s\n", err->message);
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

void cli_report_warnings(const struct clmem_ctx *ctx)
{
    if (ctx->cache_warning[0])
        fprintf(stderr, "clmem: warning: %s\n", ctx->cache_warning);
    if (ctx->tuning_warning[0])
        fprintf(stderr, "clmem: warning: %s\n", ctx->tuning_warning);
}

/* The one piece of mutable global state: a signal handler can only talk
 * through statics. */
static volatile sig_atomic_t interrupt_signal;
static int interrupt_tell;                  /* stderr is a terminal: say what happens */
static const char *volatile interrupt_temp; /* an output's temporary file, or NULL */

static void on_interrupt(int sig)
{
    static const char first[] = "\nclmem: stopping after the current variant (again to stop now)\n";
    if (interrupt_signal) {
        /* The second: stop now, leaving no temporary file behind. */
        const char *temp = interrupt_temp;
        if (temp && temp[0])
            unlink(temp);
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    interrupt_signal = sig;
    if (interrupt_tell) {
        ssize_t ignored = write(STDERR_FILENO, first, sizeof first - 1);
        (void)ignored;
    }
}

void cli_catch_interrupts(const char *temp_path)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    interrupt_tell = isatty(STDERR_FILENO);
    interrupt_temp = temp_path;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int cli_interrupted(void *user)
{
    (void)user;
    return interrupt_signal != 0;
}

int cli_report_interrupted(size_t n, const char *output)
{
    if (!cli_silent)
        fprintf(stderr, "clmem: interrupted: reported the %zu result%s that finished%s%s%s\n", n,
                n == 1 ? "" : "s", output ? " (in '" : "", output ? output : "",
                output ? "')" : "");
    return 128 + (interrupt_signal ? interrupt_signal : SIGINT);
}

int cli_report_end(int status, size_t n, const char *output, const struct clmem_error *err)
{
    if (status == CLMEM_ERR_INTERRUPTED)
        return cli_report_interrupted(n, output);
    if (status && status != CLMEM_ERR_VERIFY && err->message[0])
        cli_report_error(err);
    return status;
}
