/* What the files of the report layer share: the run files' schema
 * version, numbers for people (units.c) and the results' writers (table.c,
 * csv.c, json.c), each naming a result's status by clmem_result_status
 * (status.c), and the end every report goes through (commit.c). report.c
 * chooses between the writers; it includes report.h,
 * which none of them does. Also the report layer's structs behind
 * clmem.h's handles: a report's meta and a run file read back. Not
 * libclmem's interface. */
#ifndef CLMEM_REPORT_MODEL_H
#define CLMEM_REPORT_MODEL_H

#include "harness/harness.h"

#include <stdio.h>

/* The run files' format, written as "schema_version" (schema/run.schema.json):
 * raised when a field changes meaning or goes; new optional fields keep it. */
#define CLMEM_SCHEMA_VERSION 1

/* ---- a report's meta and the run files read back (handles.c, runfile*.c) ---- */
/* What a report says besides its results (each optional). */
struct clmem_report_meta {
    const struct clmem_device *device;
    const struct clmem_peak *peak;
    const struct clmem_host *host; /* NULL: this machine */
    const char *created;           /* NULL/"": now */
    int interrupted;               /* JSON says "interrupted": true */
    /* clmem hierarchy's levels read back from a run file, written again
     * as its "hierarchy" (compare's device-N.json); NULL: none. */
    const struct clmem_saved_hierarchy *hierarchy;
    /* run --peak's rates at each level (harness/traffic.h): the table is
     * followed by the hierarchical roofline they draw; NULL: none.
     * levels_from: the run file the __local and __constant ones came
     * from, or NULL where they were measured. */
    const struct clmem_level_rates *levels;
    const char *levels_from;
};
/* What `clmem hierarchy` saved in its run file ("hierarchy"), as compare
 * reads it back: the levels named from the chase's staircase and the
 * curves they came from (schema/run.schema.json). */
#define CLMEM_SAVED_LEVELS 8
struct clmem_saved_level {
    char name[40];          /* "L1", "L2 (last-level cache)", "device memory" */
    int is_memory;          /* the last plateau, past every cache */
    double size_bytes;      /* detected size; 0 for memory */
    double first_bytes;     /* the plateau's smallest working set */
    double latency_ns;      /* the plateau's median (memory: at the largest working set) */
    double latency_cycles;  /* NAN when the clock is unknown */
    double bandwidth_gbs;   /* the read plateau matched to it; NAN when none */
    double bandwidth_bytes; /* that plateau's largest working set; NAN when none */
    /* Each absent from a file written before they were saved (then as
     * noted): */
    int resolved;          /* 0: a stretch that is no level ("unresolved"); 1 when absent */
    double last_bytes;     /* the plateau's largest working set; NAN when absent */
    double points;         /* the chase's working sets on it; 0 when absent */
    double reported_bytes; /* a split cache's size as the device reports it; 0: none */
    char split[8];         /* "near", "far" for a cache split in two, else "" */
    char why[256];         /* why it is unresolved or unnamed, or its end unseen; "" */
};
struct clmem_saved_point {
    double bytes, value; /* a working set and its ns (latency) or GB/s (bandwidth) */
};
/* chase_page's TLB reach as saved (harness/levels.h's clmem_tlb). */
#define CLMEM_SAVED_TLB_PLATEAUS 8
struct clmem_saved_tlb {
    double reach_bytes;     /* 0: no step */
    double hit_ns, miss_ns; /* NAN when not known */
    double last_bytes;      /* the largest span chased; 0: chase_page did not run */
    size_t n_plateaus;
    struct clmem_saved_point plateaus[CLMEM_SAVED_TLB_PLATEAUS];
};
struct clmem_saved_hierarchy {
    double extent;       /* the largest working set swept */
    double cache_bytes;  /* the largest cache known before the sweep (reported); 0: none */
    char cache_from[96]; /* where that came from */
    double clock_mhz;    /* 0: none */
    /* Each "" or 0 when the file (an older one) did not say: */
    char stopped_by[64];   /* what kept the sweep below twice that cache */
    char memory_note[256]; /* why no level is device memory */
    double page_bytes;     /* chase_page's page */
    char pages[200];       /* which pages the curves used, as far as the host says */
    char huge_pages[16];   /* the host's transparent huge pages: "always", "madvise", "never" */
    struct clmem_saved_tlb tlb;
    size_t n_levels;
    struct clmem_saved_level levels[CLMEM_SAVED_LEVELS];
    /* Ascending bytes; unmatched: read plateaus that matched no level. */
    struct clmem_saved_point *latency, *local_latency, *bandwidth, *unmatched;
    size_t n_latency, n_local_latency, n_bandwidth, n_unmatched;
};
/* A device's run, live or read back from a run file (clmem compare, diff). */
struct clmem_compare_device {
    struct clmem_device device;
    struct clmem_peak peak;       /* 0 where unknown */
    struct clmem_result *results; /* as clmem_bench_run returns them */
    size_t n_results;
    char host[256];              /* the machine's name; "" when the file did not say */
    struct clmem_host host_info; /* all the file said of it */
    char origin[1024];           /* the run file it was read from, "" for a live device */
    char created[40];            /* when the file was written (UTC, ISO 8601), or "" */
    char clmem_version[64];
    char clmem_git[64]; /* the build's git describe ("8484219-dirty"); "" when not recorded */
    int rank;           /* an MPI file's rank, else -1 */
    int interrupted;    /* a signal stopped its run early: what finished */
    /* The file's "hierarchy" (clmem hierarchy's run files), owned by the
     * entry (clmem_compare_devices_free); NULL when it has none. */
    struct clmem_saved_hierarchy *hierarchy;
};

/* ---- numbers for people (units.c) ---- */
/* "48.7 TFLOP/s", "2.74 TB/s", "355 Gsamples/s": three significant digits,
 * the unit's SI prefix rescaled (a unit starting k, M, G, T or P). "-" for NaN. */
void clmem_format_metric(double value, const char *unit, char *out, size_t size);
/* The power of 1000 of a unit's SI prefix (GB/s: 3), *rest what follows it. */
int clmem_unit_prefix(const char *unit, const char **rest);
/* The power of 1000 clmem_format_metric would write `value` (in `unit`) with. */
int clmem_unit_choose(double value, const char *unit);
/* `value` (in `unit`) written with the prefix of power `exponent`. */
void clmem_format_at(double value, const char *unit, int exponent, char *out, size_t size);
/* The unit of a metric's work per joule ("GFLOP/s" -> "GFLOP/J"; a
 * result's energy_efficiency); "" for a unit that is not a rate per second. */
void clmem_unit_per_joule(const char *metric_unit, char *out, size_t size);
/* "64 Mi" for 67108864; sizes that are not a whole number of Mi or Gi as
 * they are (8192, 8191x8191). */
void clmem_human_size(const char *size, char *out, size_t n);

/* A result's spread: its slowest sample over its fastest (max/min; NAN
 * where it has no samples). Past CLMEM_NOISY_SPREAD a result is flagged
 * as noisy wherever it is shown (status.c): its median may move that much
 * on a rerun, so a ratio drawn from it may not hold. */
#define CLMEM_NOISY_SPREAD 1.5
double clmem_result_spread(const struct clmem_result *r);
int clmem_result_noisy(const struct clmem_result *r);

/* The build that writes run files: `git describe --always --dirty` of its
 * source ("8484219-dirty"; json.c), "" outside a git checkout. */
const char *clmem_build_git(void);

/* ---- the end of every report (commit.c) ---- */
/* After a writer wrote into `out` (errno set to 0 before it): its status,
 * or, where the stream failed (a full disk, a closed pipe), "cannot write
 * the report[ to stdout]: REASON" (CLMEM_ERR_USAGE, errno kept for
 * clmem_output_end). */
int clmem_report_flush(FILE *out, int status, struct clmem_error *err);
/* Ends an output file a report was written into, given the writer's
 * status (clmem_report_flush's): committed whole after CLMEM_OK, else
 * removed; a failed write is "cannot write 'PATH': REASON". */
int clmem_output_end(struct clmem_output *out, int status, struct clmem_error *err);

/* ---- the hierarchical roofline in characters (roofline_text.c) ---- */
/* A grid of rows x columns, x and y on log scales between the axes' ends
 * (powers of two); 80 columns with its y axis's numbers. */
#define CLMEM_ROOF_ROWS 16
#define CLMEM_ROOF_COLS 64
#define CLMEM_ROOF_LEFT 10 /* the columns before the grid's first: numbers, " |" */
struct clmem_level_rates;
struct clmem_roofline_grid {
    double x_min, x_max, y_min, y_max; /* flops per byte; GFLOP/s */
    char cell[CLMEM_ROOF_ROWS][CLMEM_ROOF_COLS + 1];
};
/* The ceilings of `rates` and a mark per result with a bound and flops
 * (1-9, A-Z, at each memory level it moves data at) into *g; returns how
 * many results had a place, drawn or past the marks. */
size_t clmem_roofline_grid(const struct clmem_result *results, size_t n,
                           const struct clmem_level_rates *rates, struct clmem_roofline_grid *g);
/* The cell (row from the top, column) of the point x, y in g; 0 where it
 * lies outside. */
int clmem_roofline_cell(const struct clmem_roofline_grid *g, double x, double y, int *row,
                        int *col);
/* The grid with its axes and a legend: each ceiling's rate (those from
 * the run file levels_from, when not NULL, said so), each result's mark,
 * binding level, measured / predicted and intensities; one line instead
 * where no result has a bound. Nothing wider than 80 columns. */
int clmem_roofline_text(FILE *out, const struct clmem_result *results, size_t n,
                        const struct clmem_level_rates *rates, const char *levels_from);

/* ---- the results' formats: the writers behind clmem_report_write ---- */
int clmem_report_table(FILE *out, const struct clmem_result *results, size_t n);
int clmem_report_csv(FILE *out, const struct clmem_result *results, size_t n);
int clmem_report_json(FILE *out, const struct clmem_result *results, size_t n,
                      const struct clmem_report_meta *meta, struct clmem_error *err);

#endif
