/* clmem diff BASE NEW (diff.c): two runs' results paired, each with its
 * verdict, and the report of them in each format. */
#ifndef CLMEM_REPORT_DIFF_H
#define CLMEM_REPORT_DIFF_H

#include "report/model.h"

/* What became of one result between a base run and a new one. Every metric
 * clmem writes is higher-is-better (GFLOP/s, GB/s, Gsamples/s, Gupdates/s). */
enum clmem_verdict {
    CLMEM_VERDICT_SAME,    /* within the threshold, or inside the runs' own spread */
    CLMEM_VERDICT_FASTER,  /* beyond both, higher */
    CLMEM_VERDICT_SLOWER,  /* beyond both, lower */
    CLMEM_VERDICT_NEW,     /* only in NEW, or verified in NEW but not in BASE */
    CLMEM_VERDICT_GONE,    /* only in BASE, or ok in BASE and skipped in NEW */
    CLMEM_VERDICT_FAILED,  /* NEW did not verify */
    CLMEM_VERDICT_SKIPPED, /* skipped in NEW, with no verified value in BASE */
    CLMEM_VERDICT_NOT_RUN, /* only in BASE, NEW's run having run none of its workload */
    CLMEM_N_VERDICTS
};
/* clmem diff's exit status when a result is slower, failed or gone, or a
 * run was interrupted; the statuses of enum clmem_status never take it. */
#define CLMEM_DIFF_REGRESSION 4
/* --threshold's range, in percent, and its default. */
#define CLMEM_DIFF_MAX_THRESHOLD     1000.0
#define CLMEM_DIFF_DEFAULT_THRESHOLD 5.0

/* One result's verdict (either side NULL when absent). A change counts only
 * when the metric moved by more than `threshold` percent AND the two runs'
 * samples do not overlap: slower when NEW's fastest sample (min_ms) is slower
 * than BASE's slowest (max_ms), faster the other way round; else same.
 * *ratio: NEW's metric over BASE's when both verified, else NAN. */
enum clmem_verdict clmem_diff_verdict(const struct clmem_result *base,
                                      const struct clmem_result *newer, double threshold,
                                      double *ratio);
/* "same", "faster", "slower", "new", "gone", "failed", "skipped", "not run". */
const char *clmem_verdict_name(enum clmem_verdict verdict);

/* Two device runs diffed against each other; one side NULL when the other
 * file had no run to pair it with (its results are then all new or gone). */
struct clmem_diff_pair {
    const struct clmem_compare_device *base, *newer;
    const char *paired_by; /* "one run in each file", "rank", "device name", or "unpaired" */
};
/* One result of either run: a row of the report. */
struct clmem_diff_row {
    size_t pair;                             /* index in clmem_diff.pairs */
    const struct clmem_result *base, *newer; /* NULL where absent */
    double ratio;                            /* NEW's metric / BASE's, NAN when not compared */
    enum clmem_verdict verdict;
};
/* The rows point into the runs given to clmem_diff_runs: keep those until
 * clmem_diff_free. */
struct clmem_diff {
    double threshold; /* percent */
    struct clmem_diff_pair *pairs;
    size_t n_pairs;
    struct clmem_diff_row *rows;
    size_t n_rows;
    size_t counts[CLMEM_N_VERDICTS];
    size_t interrupted; /* runs of either file that a signal stopped early: incomplete */
    int changes_only;   /* the writers show only the rows that changed (clmem_diff_changed) */
};
/* Pairs the runs (each file one run: those two, whatever their devices;
 * else by MPI rank, then by device name) and their results (by workload,
 * variant, size, sweep and sweep value), each with its verdict. Usage error
 * for a threshold outside 0..CLMEM_DIFF_MAX_THRESHOLD. */
int clmem_diff_runs(const struct clmem_compare_device *base, size_t n_base,
                    const struct clmem_compare_device *newer, size_t n_newer, double threshold,
                    struct clmem_diff *diff, struct clmem_error *err);
void clmem_diff_free(struct clmem_diff *diff);
/* Keeps only the rows of the comma-separated `workloads`, recounted (an
 * error only when out of host memory). */
int clmem_diff_only(struct clmem_diff *diff, const char *workloads, struct clmem_error *err);
/* Whether a verdict is a change: faster, slower, new, gone, failed. */
int clmem_diff_changed(enum clmem_verdict verdict);
/* Whether the gate fails (clmem diff exits CLMEM_DIFF_REGRESSION): a
 * result slower, failed or gone, or a run of either file interrupted
 * ("interrupted": true), whose missing results say nothing. */
int clmem_diff_regressed(const struct clmem_diff *diff);
/* The outcome in words: "no regression", "a regression (slower, failed or
 * gone)", or "incomplete: N run(s) interrupted" (with or without a
 * regression besides). */
const char *clmem_diff_outcome(const struct clmem_diff *diff);
/* "12 same, 1 slower, 2 new": the verdicts that occur, in enum order. */
void clmem_diff_summary(const struct clmem_diff *diff, char *out, size_t size);
/* The report in one format; a failed write is a usage error (as
 * clmem_report_write's), errno kept for the caller's message. */
int clmem_diff_write(FILE *out, enum clmem_format format, const struct clmem_diff *diff,
                     struct clmem_error *err);
/* The writers behind it: table for people, CSV with one fixed header, JSON. */
int clmem_diff_table(FILE *out, const struct clmem_diff *diff);
int clmem_diff_csv(FILE *out, const struct clmem_diff *diff);
int clmem_diff_json(FILE *out, const struct clmem_diff *diff, struct clmem_error *err);

#endif
