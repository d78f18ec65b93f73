/* clmem tune WORKLOAD: searches the parameters of the workload's tunable
 * variant on one device, every candidate verified, and keeps the best in
 * the tuning database that run and bench then use. */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct tune_args {
    const char *workload, *variant, *device, *size, *kernel_dir;
    unsigned long long reps, max_candidates, seed;
    int no_cache;
};

static void usage(FILE *out)
{
    fprintf(out, "usage: clmem tune WORKLOAD [options]\n\n"
                 "Searches the parameters of each of WORKLOAD's tunable variants (or the\n"
                 "one --variant names; matmul: regblock and panel, transpose: padded, whose\n"
                 "tile every transpose variant uses, reduce and dot: coarsened) on the\n"
                 "device: the built-in setting first, then\n"
                 "candidates from the search space that the device can run (work-group and\n"
                 "local-memory limits), each built, run --reps times and verified. The best\n"
                 "is kept in $XDG_CACHE_HOME/clmem/tuning.json (else ~/.cache/clmem), per\n"
                 "device, driver, workload and size class; 'run' and 'bench' then use it and\n"
                 "say so in the result's note.\n\n"
                 "options:\n"
                 "  --device D             as 'clmem run' (default: first GPU)\n"
                 "  --size S               the size to tune at (default: the workload's)\n"
                 "  --variant V            tune this variant only\n"
                 "  --max-candidates N     candidates besides the built-in one, 1 to 10000\n"
                 "                         (default 48), drawn evenly from the search space\n"
                 "  --reps N               timed runs per candidate, 1 to 1000 (default 3)\n"
                 "  --seed N               input generator seed (default 42)\n"
                 "  --kernel-dir DIR       where the .cl files are\n"
                 "  --no-cache             build the kernels from source\n\n"
                 "exit codes: 0 ok, 1 no candidate verified, 2 usage error, 3 no device or "
                 "OpenCL error, 128+N stopped by signal N (130: Ctrl-C; nothing is stored)\n");
}

static int parse_args(int argc, char **argv, struct tune_args *a, int *help,
                      struct clmem_error *err)
{
    static const struct option long_options[] = {{"device", required_argument, NULL, 'd'},
                                                 {"size", required_argument, NULL, 's'},
                                                 {"max-candidates", required_argument, NULL, 'm'},
                                                 {"reps", required_argument, NULL, 'r'},
                                                 {"seed", required_argument, NULL, 'S'},
                                                 {"kernel-dir", required_argument, NULL, 'k'},
                                                 {"no-cache", no_argument, NULL, 'n'},
                                                 {"variant", required_argument, NULL, 'v'},
                                                 {"help", no_argument, NULL, 'h'},
                                                 {0}};
    int c, status = CLMEM_OK;
    char bad[64];
    opterr = 0;
    optind = 0; /* a full reset of getopt's state, as glibc and musl read it */
    while (status == CLMEM_OK && (c = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
        switch (c) {
        case 'd': a->device = optarg; break;
        case 's': a->size = optarg; break;
        case 'v': a->variant = optarg; break;
        case 'k': status = cli_parse_dir("--kernel-dir", optarg, &a->kernel_dir, err); break;
        case 'n': a->no_cache = 1; break;
        case 'm':
            status = cli_parse_uint("--max-candidates", optarg, 1, 10000, &a->max_candidates, err);
            break;
        case 'r': status = cli_parse_uint("--reps", optarg, 1, 1000, &a->reps, err); break;
        case 'S': status = cli_parse_uint("--seed", optarg, 0, UINT64_MAX, &a->seed, err); break;
        case 'h': *help = 1; return CLMEM_OK;
        default:
            return cli_option_error("tune", c, cli_refused_option(argc, argv, bad, sizeof bad),
                                    err);
        }
    }
    if (status)
        return status;
    if (optind >= argc)
        return clmem_fail(err, CLMEM_ERR_USAGE, "tune needs a workload (see 'clmem tune --help')");
    if (argc - optind > 1)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "unexpected argument '%s' (see 'clmem tune --help')", argv[optind + 1]);
    a->workload = argv[optind];
    return clmem_devices_parse_spec(a->device, err);
}

/* A candidate's row of the table. */
static void show_candidate(void *user, size_t index, size_t count,
                           const struct clmem_tune_candidate *c)
{
    const struct clmem_tunable *t = user;
    if (index == 0) {
        printf("%-12s %-10s %12s  %s\n", "candidate", "", "value", "parameters");
        printf("%-12s %-10s %12.3f  %s\n", "built-in", "", c->metric, c->params);
        return;
    }
    if (isatty(STDERR_FILENO))
        fprintf(stderr, "clmem: [%zu/%zu] %s\n", index, count, t->variant);
    printf("%-12zu %-10s %12.3f  %s\n", index, c->status ? "failed" : "", c->metric, c->params);
}

/* Tunes one tunable variant; prints its table and what was kept. */
static int tune_variant(struct clmem_ctx *ctx, const struct clmem_workload *w,
                        const struct clmem_tunable *t, const struct tune_args *a,
                        struct clmem_error *err)
{
    struct clmem_tune_options options = {.size = a->size,
                                         .reps = (unsigned)a->reps,
                                         .max_candidates = (unsigned)a->max_candidates,
                                         .seed = a->seed,
                                         .measured = show_candidate,
                                         .user = (void *)t,
                                         .cancelled = cli_interrupted};
    struct clmem_tune_result r;
    printf("%s%s %s\n", t == w->tunables ? "" : "\n", w->name, t->variant);
    int status = clmem_tune(ctx, w, t, &options, &r, err);
    if (status)
        return status;
    char path[1024];
    clmem_tuning_path(path, sizeof path);
    int builtin = r.best.metric == r.builtin.metric;
    printf("best: %.3f %s, %.2fx the built-in parameters%s: %s\nkept in '%s'\n", r.best.metric,
           w->metric_unit, r.best.metric / r.builtin.metric,
           builtin ? " (they are the best: recorded, not applied)" : "", r.best.params, path);
    return CLMEM_OK;
}

int cmd_tune(int argc, char **argv)
{
    struct tune_args a = {.reps = 3, .max_candidates = 48, .seed = 42};
    struct clmem_error err = {0};
    struct clmem_ctx ctx = {0};
    int help = 0, status;
    if ((status = parse_args(argc, argv, &a, &help, &err)))
        return cli_report_error(&err);
    if (help) {
        usage(stdout);
        return CLMEM_OK;
    }
    const struct clmem_workload *w = clmem_workload_find(a.workload);
    if (!w) {
        clmem_fail(&err, CLMEM_ERR_USAGE, "unknown workload '%s' (try 'clmem list')", a.workload);
        return cli_report_error(&err);
    }
    if (!w->n_tunables) {
        clmem_fail(&err, CLMEM_ERR_USAGE,
                   "workload '%s' has nothing to tune (tunable: matmul, transpose, reduce, dot)",
                   w->name);
        return cli_report_error(&err);
    }
    const struct clmem_tunable *only = NULL;
    if (a.variant && !(only = clmem_tunable_find(w, a.variant))) {
        clmem_fail(&err, CLMEM_ERR_USAGE, "variant '%s' of '%s' has nothing to tune", a.variant,
                   w->name);
        return cli_report_error(&err);
    }
    struct clmem_size size;
    if ((status = clmem_size_parse(a.size ? a.size : w->default_size, &size, &err)) ||
        (status = clmem_tuning_prepare(&err)) ||
        (status = cli_open_device(a.device, a.kernel_dir, &ctx, &err)))
        goto cleanup;
    ctx.no_cache = a.no_cache;
    cli_catch_interrupts();
    for (size_t i = 0; i < w->n_tunables && status == CLMEM_OK; i++)
        if (!only || only == &w->tunables[i])
            status = tune_variant(&ctx, w, &w->tunables[i], &a, &err);
    status = cli_stop_status(status);

cleanup:
    cli_report_warnings(&ctx);
    /* An interruption is reported as such: nothing was kept. */
    if (status == CLMEM_ERR_INTERRUPTED)
        status = cli_report_interrupted(0, NULL);
    else if (status)
        cli_report_error(&err);
    clmem_ctx_close(&ctx);
    clmem_error_clear(&err);
    return status;
}
