/* One flow for the commands that run workloads (flow.c). */
#ifndef CLMEM_CLI_FLOW_H
#define CLMEM_CLI_FLOW_H

#include "options.h"
#include "ranks.h"
#include "report/report.h"

/* run (and peak), bench and compare each hand the flow their steps, which
 * it takes in this order, the same alone and under mpirun:
 *
 *   parse the options -> check -> open the output -> [alone: `alone`]
 *   -> open this process's device -> plan -> run (or SUMMA) -> gather
 *   -> report -> end
 *
 * Under mpirun every rank takes every step. After each step that may fail
 * on one rank (its arguments, files, device or plan) the ranks agree on the
 * worst status, so that all stop at the same point with one message from
 * rank 0; after the run rank 0 gathers every rank's; at the end all exit
 * with rank 0's status. Those collectives (the ranks_ calls below) are the
 * flow's alone: a step only returns its status, and an early return in a
 * step cannot leave the other ranks waiting. */
struct cli_flow;
struct cli_steps {
    const struct cli_spec *spec; /* the options the command takes */
    /* A failed check says its result's size ("W V at SIZE: verification
     * failed"): the command runs several sizes (bench). */
    int failures_name_size;
    /* Under mpirun, the ranks' results become one list on rank 0 (each
     * device named "rank R on HOST: DEVICE") with their totals (run's
     * report); otherwise the report reads every rank's run in f->ranks. */
    int merge_ranks;
    /* The checks that need no device, once the options are parsed: usage
     * errors. May change f->output_path and set f->summa. NULL: none. */
    int (*check)(struct cli_flow *f, struct clmem_error *err);
    /* On the reporter, before any work: where the report goes. NULL: the
     * file f->output_path (if any) opened into f->output. */
    int (*open_output)(struct cli_flow *f, struct clmem_error *err);
    /* Alone: what the command does instead of one device's steps (several
     * devices, saved files), or CLI_FLOW_ONE_DEVICE to take them; it sets
     * f->kept. NULL: none. */
    int (*alone)(struct cli_flow *f, struct clmem_error *err);
    /* With f->ctx open: what the run needs checked against the device,
     * before any work (usage errors). */
    int (*plan)(struct cli_flow *f, struct clmem_error *err);
    /* The work, into f->results (and f->peak with f->has_peak). From its
     * start, the first INT, TERM or HUP stops after the current variant. */
    int (*run)(struct cli_flow *f, struct clmem_error *err);
    /* On the reporter once the run returned `status` (under mpirun: every
     * rank's worst, their runs in f->ranks, their failed checks said):
     * writes the report, where there is one to write. Returns the status to
     * end with. */
    int (*report)(struct cli_flow *f, int status, struct clmem_error *err);
    /* At the end, on every process: what the command's steps hold. */
    void (*release)(struct cli_flow *f);
};
#define CLI_FLOW_ONE_DEVICE (-1)
/* What the steps share: the flow fills it as it goes. */
struct cli_flow {
    const struct cli_steps *steps;
    void *self;                 /* the command's own state */
    struct cli_opts o;          /* as steps->spec parsed them */
    int joined;                 /* a rank of an MPI job (started by mpirun) */
    const char *output_path;    /* the report's file: --output unless check changes it */
    struct clmem_output output; /* open on the reporter from before any work */
    struct clmem_ctx ctx;       /* this process's device */
    int summa;                  /* the ranks multiply together (SUMMA) instead of `run` */
    struct clmem_result *results;
    size_t n_results;
    struct clmem_peak peak;
    int has_peak;
    struct cli_rank_runs ranks; /* rank 0 under mpirun: every rank's run */
    size_t kept;                /* the results kept, as an interruption says */
};
/* Takes the steps with `self` as the command's state; returns the exit code. */
int cli_flow_run(const struct cli_steps *steps, void *self, int argc, char **argv);
/* Says each failed check among results on stderr ("clmem: W V: verification
 * failed: ..."), with "at SIZE" after the variant when with_size. */
void cli_say_failures(const struct clmem_result *results, size_t n, int with_size);

#endif
