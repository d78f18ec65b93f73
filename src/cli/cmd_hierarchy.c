/* clmem hierarchy: the device's memory hierarchy level by level. Each
 * probe of workload `hierarchy` swept over working sets and verified
 * (src/workloads/hierarchy_sweep.c), the levels named from the chase's
 * latency staircase with their sizes, and the read bandwidth's plateaus
 * matched to them; then local, constant and private memory, images, copies
 * between host and device, atomics. Its steps go through the one flow
 * (flow.c): check, plan, run, report. */
#include "commands.h"

#include "flow.h"
#include "options.h"
#include "progress.h"
#include "report/report.h"
#include "stopping.h"
#include "suggest.h"
#include "workloads/hierarchy.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The table's words where they are another command's: no auto, no
 * matmul shape, no result lines (hierarchy prints its results at the
 * end), the table beside --output's file. */
static const struct cli_use hierarchy_uses[] = {
    {.id = CLI_OPT_VARIANT, .help = "one probe, or all of them; 'clmem list hierarchy' names them"},
    {.id = CLI_OPT_SIZE,
     .def_help = "4x the largest cache known (a CPU's host's too), GPUs 1 GiB at least, CPUs "
                 "16 MiB, within the device's memory",
     .help = "the largest working set of the sweeps, in bytes: one number N, 4096 at least"},
    {.id = CLI_OPT_DEVICE, .flags = CLI_ONE_DEVICE},
    {.id = CLI_OPT_REPS},
    {.id = CLI_OPT_WARMUP},
    {.id = CLI_OPT_SEED},
    {.id = CLI_OPT_FORMAT},
    {.id = CLI_OPT_OUTPUT,
     .help = "write the report there (whole, or not at all): JSON with the levels unless FILE.csv "
             "or --format says otherwise; the table then goes to stdout as well, unless stdout "
             "is closed"},
    {.id = CLI_OPT_KERNEL_DIR},
    {.id = CLI_OPT_NO_CACHE},
    {.id = CLI_OPT_PROGRESS,
     .help = "progress lines on stderr (step, elapsed time, time left), one a probe and working "
             "set, even off a terminal; on a terminal they are on by default"},
    {.id = CLI_OPT_QUIET,
     .help = "no progress or other informational lines on stderr (errors still)"},
};

const struct cli_spec cli_hierarchy_spec = {
    .name = "hierarchy",
    .synopsis = "[options]",
    .about = "Measures the device's memory hierarchy: the latency of dependent loads over one\n"
             "random cycle (a pointer chase) at working sets from 1 KiB to --size bytes, with\n"
             "each level's latency and size named (L1, L2, last-level cache, device memory:\n"
             "only past twice the largest cache known; a step with fewer than 3 points is\n"
             "unresolved), the TLB's reach (the chase with one element a page), and the read\n"
             "bandwidth at each working set, its plateaus matched to the levels;\n"
             "the same chase in __local memory; __local reads conflict-free, at strides of 1\n"
             "to 32 words and as a broadcast; __constant against __global; a private array in\n"
             "registers and spilled; image2d_t against a buffer; copies between host and\n"
             "device from 4 KiB up (pageable, pinned, map and unmap, device to device);\n"
             "atomics. Every probe is verified. --variant runs one probe ('clmem list\n"
             "hierarchy'); --size is the largest working set, in bytes. With --output FILE\n"
             "the report goes there (JSON by default, with the levels) and the table to\n"
             "stdout, unless stdout is closed.\n",
    .more = "Ctrl-C stops after the current probe and reports what finished.\n"
            "exit codes: 0 ok, 1 verification failed, 2 usage error or a file that cannot\n"
            "be written, 3 no OpenCL device or OpenCL error, 128+N stopped by signal N\n"
            "(130: Ctrl-C)\n",
    CLI_USES(hierarchy_uses),
    .min_args = 0,
    .max_args = 0,
};

/* What hierarchy keeps between its steps. */
struct hierarchy_self {
    struct clmem_hierarchy_options options;
    struct clmem_hierarchy h;
    int stdout_closed; /* at the start (>&-): no table beside --output's file */
};

static void show_progress(void *user, size_t step, size_t steps, const char *variant, size_t bytes)
{
    (void)user;
    char what[160];
    snprintf(what, sizeof what, "hierarchy %s at %zu bytes", variant, bytes);
    cli_progress_step(step, steps, what);
}

/* ---- steps ---- */

static int hierarchy_check(struct cli_flow *f, struct clmem_error *err)
{
    struct hierarchy_self *self = f->self;
    const struct cli_opts *o = &f->o;
    self->options = (struct clmem_hierarchy_options){.variant = o->variant,
                                                     .reps = (unsigned)o->reps,
                                                     .warmup = (unsigned)o->warmup,
                                                     .seed = o->seed,
                                                     .cancelled = cli_interrupted};
    if (o->variant && strcmp(o->variant, "all") != 0 &&
        !clmem_variant_find(&clmem_workload_hierarchy, o->variant)) {
        char hint[96];
        cli_suggest_variant(&clmem_workload_hierarchy, o->variant, hint, sizeof hint);
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "unknown probe '%s' of 'hierarchy' (%stry 'clmem list hierarchy')",
                          o->variant, hint);
    }
    /* Without --output the report is stdout's: said before the sweep, not
     * after it (and never written to a file that took the closed number). */
    if (self->stdout_closed && !o->output)
        return clmem_fail(err, CLMEM_ERR_USAGE,
                          "stdout is closed: the report has nowhere to go (give --output FILE)");
    if (o->size) {
        struct clmem_size size;
        int status = clmem_size_parse(o->size, &size, err);
        if (status)
            return status;
        if (size.ndims != 1)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "--size '%s': the largest working set is one number of bytes",
                              o->size);
        self->options.extent = size.dim[0];
    }
    return clmem_sources_check(o->kernel_dir, &clmem_workload_hierarchy, o->variant, err);
}

static int hierarchy_plan(struct cli_flow *f, struct clmem_error *err)
{
    struct hierarchy_self *self = f->self;
    size_t steps;
    self->options.progress = cli_progress_on() ? show_progress : NULL;
    return clmem_hierarchy_plan(&f->ctx, &self->options, &steps, err);
}

static int hierarchy_run(struct cli_flow *f, struct clmem_error *err)
{
    struct hierarchy_self *self = f->self;
    return clmem_hierarchy_run(&f->ctx, &self->options, &self->h, &f->results, &f->n_results, err);
}

/* ---- the summary for people ---- */

/* "48 KiB", "1.5 MiB", "-" for 0. */
static void bytes_text(double b, char *out, size_t size)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    size_t u = 0;
    if (!(b > 0)) {
        snprintf(out, size, "-");
        return;
    }
    while (b >= 1024 && u + 1 < CLMEM_ARRAY_SIZE(units)) {
        b /= 1024;
        u++;
    }
    snprintf(out, size, "%.3g %s", b, units[u]);
}

static const struct clmem_result *find(const struct clmem_result *r, size_t n, const char *variant,
                                       int sweep_value)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(r[i].workload, "hierarchy") == 0 && strcmp(r[i].variant, variant) == 0 &&
            (sweep_value < 0 || r[i].sweep_value == (unsigned)sweep_value))
            return &r[i];
    return NULL;
}

static int usable(const struct clmem_result *r)
{
    return r && !r->skipped && r->verified && r->metric > 0;
}

static void metric_text(const struct clmem_result *r, char *out, size_t size)
{
    if (usable(r))
        clmem_format_metric(r->metric, r->metric_unit, out, size);
    else if (r && r->skipped)
        snprintf(out, size, "skipped (%s)", r->skip_reason);
    else
        snprintf(out, size, r ? "FAILED" : "not run");
}

static void latency_text(double ns, double clock_mhz, char *out, size_t size)
{
    if (clock_mhz > 0)
        snprintf(out, size, "%.3g ns (%.3g cycles)", ns, ns * clock_mhz * 1e-3);
    else
        snprintf(out, size, "%.3g ns", ns);
}

/* The TLB's reach: a step of its own, apart from the cache levels. */
static void print_tlb(FILE *out, const struct clmem_hierarchy *h)
{
    const struct clmem_tlb *t = &h->tlb;
    if (!(t->last_bytes > 0))
        return;
    char reach[32], last[32], page[32], hit[64], miss[64];
    bytes_text(t->reach_bytes, reach, sizeof reach);
    bytes_text(t->last_bytes, last, sizeof last);
    bytes_text(h->page_bytes, page, sizeof page);
    if (!(t->reach_bytes > 0)) {
        fprintf(out,
                "  TLB reach: no step in chase_page's spans up to %s (one element a %s page)\n",
                last, page);
        return;
    }
    latency_text(t->hit_ns, h->clock_mhz, hit, sizeof hit);
    latency_text(t->miss_ns, h->clock_mhz, miss, sizeof miss);
    fprintf(out,
            "  %-24s %-10s %-14s %s within, %s past it (chase_page: one element a %s page, "
            "%.0f pages)\n",
            "TLB reach", reach, "-", hit, miss, page,
            h->page_bytes > 0 ? t->reach_bytes / h->page_bytes : 0.0);
    /* Past the first step the page chase's lines outgrow the L1 as well:
     * its later plateaus are TLB and caches together, listed unnamed. */
    if (t->n_plateaus > 2) {
        fprintf(out, "  page chase plateaus (TLB and caches together past the first):");
        for (size_t k = 0; k < t->n_plateaus; k++) {
            char at[32];
            bytes_text(t->plateaus[k].bytes, at, sizeof at);
            fprintf(out, "%s %.3g ns to %s", k ? "," : "", t->plateaus[k].value, at);
        }
        fprintf(out, "\n");
    }
}

static void print_levels(FILE *out, const struct clmem_hierarchy *h, const struct clmem_device *d)
{
    char extent[32], cache[32];
    bytes_text(h->extent, extent, sizeof extent);
    bytes_text(h->cache_bytes, cache, sizeof cache);
    fprintf(out, "\nmemory hierarchy of %s: working sets up to %s", d->name, extent);
    if (h->cache_bytes > 0)
        fprintf(out, " (largest cache known %s, from %s)", cache, h->cache_from);
    if (h->clock_mhz > 0)
        fprintf(out, "; cycles at the reported %.0f MHz", h->clock_mhz);
    fprintf(out, "\n  (each working set's fastest sample: the chase's latency, the read "
                 "bandwidth's plateaus)\n");
    if (h->pages[0])
        fprintf(out, "  pages: %s\n", h->pages);
    if (h->n_levels == 0) {
        fprintf(out, "  no latency staircase (chase_global did not run or verify)\n");
        print_tlb(out, h);
        return;
    }
    fprintf(out, "  %-24s %-10s %-14s %-24s %s\n", "level", "size", "from", "latency",
            "read bandwidth");
    for (size_t k = 0; k < h->n_levels; k++) {
        const struct clmem_level *L = &h->levels[k];
        char size[40], first[32], lat[64], bw[96] = "-";
        bytes_text(L->size_bytes, size, sizeof size);
        bytes_text(L->first_bytes, first, sizeof first);
        latency_text(L->latency_ns, h->clock_mhz, lat, sizeof lat);
        if (!isnan(L->bandwidth_gbs)) {
            char b[32], at[32];
            clmem_format_metric(L->bandwidth_gbs, "GB/s", b, sizeof b);
            bytes_text(L->bandwidth_bytes, at, sizeof at);
            snprintf(bw, sizeof bw, "%s (plateau up to %s)", b, at);
        }
        /* The last plateau of a sweep that stopped on it: its end unseen. */
        if (L->resolved && !L->is_memory && !(L->size_bytes > 0)) {
            char last[32];
            bytes_text(L->last_bytes, last, sizeof last);
            snprintf(size, sizeof size, "> %s", last);
        }
        fprintf(out, "  %-24s %-10s %-14s %-24s %s\n", L->name,
                L->is_memory || !L->resolved ? "-" : size, first, lat, bw);
    }
    if (h->note[0])
        fprintf(out, "  %s\n", h->note);
    print_tlb(out, h);
    for (size_t u = 0; u < h->n_unmatched; u++) {
        char b[32], at[32];
        clmem_format_metric(h->unmatched[u].value, "GB/s", b, sizeof b);
        bytes_text(h->unmatched[u].bytes, at, sizeof at);
        fprintf(out, "  a read plateau of %s up to %s matches no latency level\n", b, at);
    }
}

/* One line: each named result's value, the ratio of each to the first. */
static void print_row(FILE *out, const char *label, const struct clmem_result *const *r,
                      const char *const *names, size_t n)
{
    fprintf(out, "  %-18s", label);
    for (size_t i = 0; i < n; i++) {
        char v[300];
        metric_text(r[i], v, sizeof v);
        fprintf(out, "%s%s %s", i ? ", " : "", names[i], v);
        if (i > 0 && usable(r[i]) && usable(r[0]))
            fprintf(out, " (%.2fx)", r[i]->metric / r[0]->metric);
    }
    fprintf(out, "\n");
}

static void print_onchip(FILE *out, const struct clmem_hierarchy *h, const struct clmem_result *r,
                         size_t n)
{
    fprintf(out, "\non-chip (value, and x the first of the line):\n");
    /* The local chase: its median over the working sets it ran at. */
    double ns[64];
    size_t k = 0;
    for (size_t i = 0; i < n && k < 64; i++)
        if (strcmp(r[i].variant, "chase_local") == 0 && usable(&r[i]))
            ns[k++] = clmem_chase_latency_ns(&r[i]);
    if (k) {
        char lat[64];
        latency_text(clmem_median(ns, k), h->clock_mhz, lat, sizeof lat);
        fprintf(out, "  %-18s%s a load (median of %zu working sets)\n", "__local chase", lat, k);
    }
    const struct clmem_result *local[] = {
        find(r, n, "local_stride", 1),    find(r, n, "local_stride", 2),
        find(r, n, "local_stride", 4),    find(r, n, "local_stride", 8),
        find(r, n, "local_stride", 16),   find(r, n, "local_stride", 32),
        find(r, n, "local_broadcast", -1)};
    static const char *const local_names[] = {"stride 1", "2", "4", "8", "16", "32", "broadcast"};
    if (local[0] || local[6])
        print_row(out, "__local reads", local, local_names, CLMEM_ARRAY_SIZE(local));
    const struct clmem_result *constant[] = {
        find(r, n, "constant_broadcast", -1), find(r, n, "constant_scattered", -1),
        find(r, n, "global_broadcast", -1), find(r, n, "global_scattered", -1)};
    static const char *const constant_names[] = {"__constant broadcast", "scattered",
                                                 "__global broadcast", "scattered"};
    if (constant[0] || constant[2])
        print_row(out, "table reads", constant, constant_names, CLMEM_ARRAY_SIZE(constant));
    const struct clmem_result *priv[] = {find(r, n, "private_registers", -1),
                                         find(r, n, "private_dynamic", -1)};
    static const char *const priv_names[] = {"registers", "spilled"};
    if (priv[0] || priv[1])
        print_row(out, "private array", priv, priv_names, CLMEM_ARRAY_SIZE(priv));
    const struct clmem_result *atomic[] = {find(r, n, "atomic_global", -1),
                                           find(r, n, "atomic_contended", -1),
                                           find(r, n, "atomic_local", -1)};
    static const char *const atomic_names[] = {"own counter", "one counter", "__local"};
    if (atomic[0] || atomic[1] || atomic[2])
        print_row(out, "atomics", atomic, atomic_names, CLMEM_ARRAY_SIZE(atomic));
}

static void print_images(FILE *out, const struct clmem_result *r, size_t n)
{
    int header = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(r[i].variant, "image_read") != 0)
            continue;
        const struct clmem_result *buf = NULL;
        for (size_t j = 0; j < n; j++)
            if (strcmp(r[j].variant, "buffer_read") == 0 && strcmp(r[j].size, r[i].size) == 0)
                buf = &r[j];
        if (!header++)
            fprintf(out, "\nimages (image2d_t against a buffer read in the same order):\n");
        char at[32], img[300], b[300];
        bytes_text(strtod(r[i].size, NULL), at, sizeof at);
        metric_text(&r[i], img, sizeof img);
        metric_text(buf, b, sizeof b);
        fprintf(out, "  %-10s image %s, buffer %s", at, img, b);
        if (usable(&r[i]) && usable(buf))
            fprintf(out, " (image %.2fx)", r[i].metric / buf->metric);
        fprintf(out, "\n");
        if (r[i].skipped)
            break; /* one reason is enough */
    }
}

static void print_copies(FILE *out, const struct clmem_result *r, size_t n)
{
    static const char *const copies[] = {"h2d_pageable", "h2d_pinned", "d2h_pageable",
                                         "d2h_pinned",   "map",        "d2d"};
    int header = 0;
    for (size_t c = 0; c < CLMEM_ARRAY_SIZE(copies); c++) {
        const struct clmem_result *small = NULL, *large = NULL;
        for (size_t i = 0; i < n; i++) {
            if (strcmp(r[i].variant, copies[c]) != 0 || !usable(&r[i]))
                continue;
            double b = strtod(r[i].size, NULL);
            if (!small || b < strtod(small->size, NULL))
                small = &r[i];
            if (!large || b > strtod(large->size, NULL))
                large = &r[i];
        }
        if (!small)
            continue;
        if (!header++)
            fprintf(out, "\nhost and device (the time of the smallest copy; the bandwidth of the "
                         "largest):\n");
        char s[32], l[32], bw[32];
        bytes_text(strtod(small->size, NULL), s, sizeof s);
        bytes_text(strtod(large->size, NULL), l, sizeof l);
        clmem_format_metric(large->metric, large->metric_unit, bw, sizeof bw);
        fprintf(out, "  %-14s %8.2f us at %-8s %s at %s\n", copies[c], small->median_ms * 1e3, s,
                bw, l);
    }
}

static void print_summary(FILE *out, const struct clmem_hierarchy *h,
                          const struct clmem_device *device, const struct clmem_result *r, size_t n)
{
    print_levels(out, h, device);
    print_onchip(out, h, r, n);
    print_images(out, r, n);
    print_copies(out, r, n);
}

/* ---- JSON: the run file, and the levels ---- */

/* A curve as the run file keeps it: the usable results of `variant`, in
 * the order they ran (*count of them); NULL when out of memory. */
static struct clmem_saved_point *saved_curve(const struct clmem_result *r, size_t n,
                                             const char *variant, int latency, size_t *count)
{
    struct clmem_saved_point *c = malloc((n ? n : 1) * sizeof *c);
    *count = 0;
    for (size_t i = 0; c && i < n; i++)
        if (strcmp(r[i].workload, "hierarchy") == 0 && strcmp(r[i].variant, variant) == 0 &&
            usable(&r[i]))
            c[(*count)++] = (struct clmem_saved_point){strtod(r[i].size, NULL),
                                                       latency ? clmem_chase_latency_ns(&r[i])
                                                               : clmem_result_best_rate(&r[i])};
    return c;
}

/* A run file as `run --format json` writes it, with "hierarchy" added:
 * the sweep's levels and curves as a run file saves them, written by the
 * report layer's one writer of run files (which compare's device-N.json
 * goes through too). */
static int write_json(FILE *out, const struct cli_flow *f, const struct clmem_hierarchy *h,
                      int interrupted, struct clmem_error *err)
{
    struct clmem_saved_hierarchy s = {.extent = h->extent,
                                      .cache_bytes = h->cache_bytes,
                                      .clock_mhz = h->clock_mhz,
                                      .n_levels = h->n_levels,
                                      .n_unmatched = h->n_unmatched};
    snprintf(s.cache_from, sizeof s.cache_from, "%s", h->cache_from);
    for (size_t k = 0; k < h->n_levels; k++) {
        const struct clmem_level *L = &h->levels[k];
        s.levels[k] = (struct clmem_saved_level){.is_memory = L->is_memory,
                                                 .size_bytes = L->size_bytes,
                                                 .first_bytes = L->first_bytes,
                                                 .latency_ns = L->latency_ns,
                                                 .latency_cycles = L->latency_cycles,
                                                 .bandwidth_gbs = L->bandwidth_gbs,
                                                 .bandwidth_bytes = L->bandwidth_bytes};
        snprintf(s.levels[k].name, sizeof s.levels[k].name, "%s", L->name);
    }
    struct clmem_saved_point unmatched[CLMEM_MAX_LEVELS];
    for (size_t u = 0; u < h->n_unmatched; u++)
        unmatched[u] = (struct clmem_saved_point){h->unmatched[u].bytes, h->unmatched[u].value};
    s.unmatched = unmatched;
    const struct clmem_result *r = f->results;
    size_t n = f->n_results;
    s.latency = saved_curve(r, n, "chase_global", 1, &s.n_latency);
    s.local_latency = saved_curve(r, n, "chase_local", 1, &s.n_local_latency);
    s.bandwidth = saved_curve(r, n, "read_ws", 0, &s.n_bandwidth);
    int status = !s.latency || !s.local_latency || !s.bandwidth
                     ? clmem_fail(err, CLMEM_ERR_CL, "out of host memory")
                     : clmem_report_json(out, r, n,
                                         &(struct clmem_report_meta){.device = &f->ctx.device,
                                                                     .interrupted = interrupted,
                                                                     .hierarchy = &s},
                                         err);
    free(s.latency);
    free(s.local_latency);
    free(s.bandwidth);
    return status;
}

static int write_report(FILE *out, enum clmem_format format, const struct cli_flow *f,
                        const struct clmem_hierarchy *h, int interrupted, struct clmem_error *err)
{
    int status = CLMEM_OK;
    errno = 0;
    switch (format) {
    case CLMEM_FORMAT_TABLE:
        status = clmem_report_table(out, f->results, f->n_results);
        if (status == CLMEM_OK)
            print_summary(out, h, &f->ctx.device, f->results, f->n_results);
        break;
    case CLMEM_FORMAT_CSV: status = clmem_report_csv(out, f->results, f->n_results); break;
    case CLMEM_FORMAT_JSON: status = write_json(out, f, h, interrupted, err); break;
    }
    if (status == CLMEM_OK && (fflush(out) != 0 || ferror(out))) {
        int saved = errno ? errno : EIO;
        clmem_fail(err, CLMEM_ERR_USAGE, "cannot write the report%s: %s",
                   out == stdout ? " to stdout" : "", strerror(saved));
        errno = saved;
        return CLMEM_ERR_USAGE;
    }
    return status;
}

static int hierarchy_report(struct cli_flow *f, int status, struct clmem_error *err)
{
    struct hierarchy_self *self = f->self;
    const struct cli_opts *o = &f->o;
    int interrupted = status == CLMEM_ERR_INTERRUPTED;
    if (status != CLMEM_OK && status != CLMEM_ERR_VERIFY && !interrupted)
        return status;
    /* --output FILE gets the run file (--format's, else FILE's extension's,
     * else JSON) and stdout the table, so that one sweep gives both. The
     * file first: it is what a long run is for; the table a copy that a
     * closed stdout does not want. */
    if (!f->output.file) {
        int write_status = write_report(stdout, o->format, f, &self->h, interrupted, err);
        return write_status ? write_status : status;
    }
    int write_status = write_report(f->output.file, cli_output_format(o, CLMEM_FORMAT_JSON), f,
                                    &self->h, interrupted, err);
    if (write_status == CLMEM_ERR_USAGE) {
        int saved = errno;
        clmem_output_abort(&f->output);
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", f->output.path,
                          strerror(saved ? saved : EIO));
    }
    if (write_status) {
        clmem_output_abort(&f->output);
        return write_status;
    }
    write_status = clmem_output_commit(&f->output, err);
    if (write_status == CLMEM_OK && !self->stdout_closed &&
        write_report(stdout, CLMEM_FORMAT_TABLE, f, &self->h, interrupted, err) != CLMEM_OK) {
        int saved = errno ? errno : EIO;
        write_status = clmem_fail(err, CLMEM_ERR_USAGE,
                                  "the report is in '%s', but its table cannot be written to "
                                  "stdout: %s",
                                  f->output.path, strerror(saved));
    }
    return write_status ? write_status : status;
}

int cmd_hierarchy(int argc, char **argv)
{
    const struct cli_steps steps = {.spec = &cli_hierarchy_spec,
                                    .check = hierarchy_check,
                                    .plan = hierarchy_plan,
                                    .run = hierarchy_run,
                                    .report = hierarchy_report};
    struct hierarchy_self self;
    memset(&self, 0, sizeof self);
    /* Looked at before anything opens a file: one opened later may take
     * the closed descriptor's number. */
    self.stdout_closed = fcntl(STDOUT_FILENO, F_GETFD) < 0 && errno == EBADF;
    return cli_flow_run(&steps, &self, argc, argv);
}
