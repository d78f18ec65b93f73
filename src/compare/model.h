/* Inside the comparison report (clmem compare): the document's data
 * types and what its files share, each file including this header and
 * none including compare.h, the header of the file that puts the report
 * together (compare.c: the directory, the machine-readable files):
 * doc.c         the document: headings, paragraphs, tables, units, marks
 * results.c     what the parts read results by: usable, a device's best,
 *               the (workload, unit) rows, sizes as one number
 * compare_doc.c what the report says, once: device labels, the tables
 * compare_md.c  that document as Markdown (report.md)
 * html.c        the same document as one self-contained page (report.html)
 * plots.c       plot data and pictures chosen from the results, the gnuplot
 *               script; plots_lines.c, plots_bars.c and plots_pp.c draw
 *               them with what plotter.c gives them all
 * roofline.c    a roofline per entry
 * bounds.c      the level that bounds each result: a hierarchical
 *               roofline per entry and the table
 * gnuplot.c     what those two share: files, text for gnuplot, the list of
 *               pictures, the script's settings, running gnuplot
 * lessons.c     the lessons measured in the results (lessons.h)
 * levels.c      the memory hierarchy: staircases, levels, the level a
 *               result's data fits in
 * summary.c     what leads: each entry's failures and clock, its ratio to
 *               the baseline per workload, the ratios row by row
 * portability.c performance portability (Pennycook, Sewall and Lee): each
 *               workload's and variant's efficiencies and PP over the entries
 * Numbers are written by the report layer's units (report/model.h).
 * Not part of the public interface. */
#ifndef CLMEM_COMPARE_MODEL_H
#define CLMEM_COMPARE_MODEL_H

#include "report/report.h"

#include <stddef.h>
#include <stdio.h>

/* ---- the document: headings, paragraphs, tables and pictures ----
 * Built once; report.md and report.html are two renderings of it. Text is
 * plain (the user's device and file names included): each writer escapes
 * it for its own format. */
enum doc_kind { DOC_HEADING, DOC_TEXT, DOC_TABLE, DOC_PICTURE, DOC_CONTENTS };

/* What a cell's figure means for the reader, shown by colour in the page
 * (the text says it too where it matters: "FAILED", a lesson's mark). */
enum doc_mark {
    MARK_NONE,
    MARK_BETTER, /* above 1x: faster than the baseline, the design pays off */
    MARK_WORSE,  /* below 1x */
    MARK_FAILED, /* a failure: results that did not verify */
    MARK_BASE,   /* the baseline's own column */
};

struct doc_cell {
    char *text;
    double key; /* what a sortable column orders by; NAN: its text */
    /* A metric cell (doc_metric): its value and unit, and what follows the
     * figure; its text is written once the table is whole (doc_units),
     * in the prefix its column's largest value chooses. */
    double metric;
    char unit[16];
    char *suffix; /* NULL: not a metric cell */
    enum doc_mark mark;
};

/* How a table's metric cells share units (doc_units): a column of one
 * device's results (the default), or a row of one quantity on every
 * device, in the prefix that keeps the row's smallest value at 1 or more
 * (1.93 GB/s beside 3540 GB/s, never 0.0016 TB/s beside 1.93 GB/s). */
enum doc_units_by { UNITS_BY_COLUMN, UNITS_BY_ROW };

struct doc_block {
    enum doc_kind kind;
    int level;   /* a heading's: 1 to 3 */
    char *text;  /* a heading, a paragraph, a picture's file name */
    char *note;  /* said under a picture, or NULL */
    size_t cols; /* a table's: the header row is its first `cols` cells */
    enum doc_units_by units_by;
    size_t n_cells, cap;
    struct doc_cell *cells;
};

struct doc {
    struct doc_block *blocks;
    size_t n, cap;
    int failed; /* out of memory on the way: the document is incomplete */
};

void doc_heading(struct doc *d, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void doc_text(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A picture and what is said under it (NULL or "": nothing). */
void doc_picture(struct doc *d, const char *file, const char *note);
/* The list of the document's level-2 headings, as links to them. */
void doc_contents(struct doc *d);
/* A heading's anchor: lowercase letters, digits and -, as GitHub makes
 * them for Markdown headings. */
void doc_anchor(const char *heading, char *out, size_t size);
/* Starts a table of `cols` columns; doc_cell then fills it row by row, the
 * header first, until the next block. A line break in a cell's text is a
 * line break in the page, a space in Markdown. */
void doc_table(struct doc *d, size_t cols);
/* The table being filled takes its units by row. */
void doc_units_by_row(struct doc *d);
/* The last cell given takes a mark. */
void doc_mark(struct doc *d, enum doc_mark mark);
void doc_cell(struct doc *d, double key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A cell of `metric` in `unit` followed by the text of fmt; its figure
 * written in its column's unit by doc_units. */
void doc_metric(struct doc *d, double key, double metric, const char *unit, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* One unit a column: every metric cell of every table written with the SI
 * prefix its column's largest value of that unit calls for (2.55 GB/s
 * above 0.88 GB/s, never 880 MB/s beside GB/s); one unit a row in the
 * tables that take theirs by row. A rate of launches (Glaunch/s) is
 * written as the time of one launch, in microseconds. */
void doc_units(struct doc *d);
void doc_free(struct doc *d);

/* ---- labels: each compared entry's name in every table and picture ---- */
#define COMPARE_LABEL_MAX 512
typedef char compare_label[COMPARE_LABEL_MAX];
/* "NAME on HOST" ("rank R on HOST: NAME" for an MPI rank; NAME alone when
 * the host is unknown); entries whose label would be the same are told
 * apart by their file name, else their creation time, else their place in
 * the list. Control characters become spaces. */
void compare_labels(const struct clmem_compare_device *devs, size_t n, compare_label *labels);

/* ---- pictures ---- */
struct pp_table; /* performance portability, below */
struct compare_picture {
    char file[64];   /* NAME.svg, in the report directory */
    char note[2048]; /* said under it ("" for none) */
    int glance;      /* shown beside the at-a-glance table, not among the plots */
    int portability; /* shown in the performance-portability section */
    int hierarchy;   /* shown in the memory-hierarchy section (levels.c) */
    int bounds;      /* shown in the section of the levels that bound results (bounds.c) */
};
struct compare_plots {
    struct compare_picture *pictures; /* that have data, in order */
    size_t n;
    char missing[1024];     /* pictures left out for want of results */
    char no_roofline[1024]; /* entries without measured peaks */
};
/* Writes the plot data and plots.gp into `dir` (the pictures to be drawn
 * are listed in *plots); every file whole or not at all. Entry `baseline`
 * is the one glance.svg measures the others against; `pp` gives the
 * cascade pictures of performance portability (per workload, its
 * variants' application efficiency on each entry, most efficient first,
 * and PP over the first k entries). */
int compare_plots_write(const char *dir, const struct clmem_compare_device *devs, size_t n_devs,
                        const compare_label *labels, size_t baseline, const struct pp_table *pp,
                        struct compare_plots *plots, struct clmem_error *err);
/* Entry `index`'s roofline into gp (roofline-INDEX.dat and .svg). */
int compare_roofline(FILE *gp, struct compare_plots *p, const char *dir,
                     const struct clmem_compare_device *dev, const char *label, size_t index,
                     struct clmem_error *err);
/* Every entry's roofs in one picture (roofline-all.svg), each in its
 * colour and dashes, and each workload's best verified result on each
 * entry as a point of the entry's colour, the workload told by its shape. */
int compare_roofline_all(FILE *gp, struct compare_plots *p, const char *dir,
                         const struct clmem_compare_device *devs, const compare_label *labels,
                         size_t n, struct clmem_error *err);
/* Entry `index`'s hierarchical roofline (hroofline-INDEX.dat and .svg,
 * bounds.c): a ceiling per level of the traffic model at the rate its
 * results' bounds imply, a point per verified result and level it moves
 * data at; nothing when none of its results has a bound with flops. */
int compare_bounds_plot(FILE *gp, struct compare_plots *p, const char *dir,
                        const struct clmem_compare_device *dev, const char *label, size_t index,
                        struct clmem_error *err);
/* What plots.c and roofline.c share (gnuplot.c): the script's first
 * lines (the SVG terminal, an entry's colours); dir/NAME opened as an
 * output file; text inside a gnuplot '...' string and as a data file's
 * string column; whether a result ran and verified; a picture added to the
 * report's list (text: its caption, or NULL). */
void plot_script_start(FILE *gp, size_t n_entries);

/* Entry d's colour, as gnuplot's rgb text ('#0072B2'), and the number of
 * distinct colours before they repeat (with other dashes and points). */
const char *plot_colour(size_t d);
#define PLOT_COLOURS 12
/* A picture's start: the SVG `width` pixels wide and tall enough for
 * its plot and a key below of `key_entries` labels of at most `longest`
 * characters, in as many columns as fit; then "set output 'svg'". Its
 * height in pixels. */
size_t plot_begin(FILE *gp, const char *svg, size_t width, size_t key_entries, size_t longest);
int plot_open(struct clmem_output *out, const char *dir, const char *name, struct clmem_error *err);
const char *plot_quoted(const char *text, char *out, size_t size);
void plot_data_string(FILE *f, const char *text);
int plot_usable(const struct clmem_result *r);
/* A log-scale axis end gnuplot can read: within 2^-1000 .. 2^1000, never
 * inf, 0 or nan. */
double plot_axis(double v);
int plot_add_picture(struct compare_plots *p, const char *file, const char *text,
                     struct clmem_error *err);
void compare_plots_free(struct compare_plots *plots);
/* Whether gnuplot is on the PATH; running it on dir/plots.gp (its
 * messages in dir/gnuplot.log): 0 when it succeeded. */
int compare_gnuplot_found(void);
int compare_gnuplot_run(const char *dir);

/* A device's best result of a workload in one unit: the highest metric
 * among its verified results that ran and compute the workload's answer
 * (a variant that shows a failure by design is never best); NULL when
 * none. *ran: how many results of it the device has at all. */
const struct clmem_result *compare_best_of(const struct clmem_compare_device *dev,
                                           const char *workload, const char *unit, size_t *ran);

/* Entry `dev` against entry `base` in one workload and unit: the
 * geometric mean of its results over base's at the same variant, size
 * and sweep point (*rows of them); with none in common, its best over
 * base's best (*rows 0); NAN when either has no usable result. */
double compare_ratio_to(const struct clmem_compare_device *dev,
                        const struct clmem_compare_device *base, const char *workload,
                        const char *unit, size_t *rows);
/* The (workload, unit) pairs of the entries' results, in the order they
 * come: a workload's skipped results (which have no unit) join its pair
 * of a unit, or make one of no unit where it has none. `several`: the
 * workload measures in several units (peak: GB/s, GFLOP/s, launches).
 * Their number (at most max). */
struct compare_group {
    const char *workload, *unit;
    int several;
};
size_t compare_groups(const struct clmem_compare_device *devs, size_t n_devs,
                      struct compare_group *groups, size_t max);
/* What a cell says where an entry has no usable result of a workload in a
 * unit: "none verified" (some ran and failed), "skipped" or "not run". */
const char *compare_none_text(const struct clmem_compare_device *dev, const char *workload,
                              const char *unit);
/* Whether a result counts as a measure of its workload: ran, verified,
 * a finite metric above 0, and not a variant that shows a failure by
 * design. */
int compare_usable(const struct clmem_result *r);
/* A size as one number: the geometric mean of its dimensions ("4096":
 * 4096, "1024x512x256": 512); NAN when it is not positive numbers joined
 * by x. */
double compare_linear_size(const char *size);
/* Whether a workload is the device's peaks: its results are the roofs,
 * not workloads measured against them. */
int compare_is_peak(const char *workload);
/* Whether a workload is clmem hierarchy's probes: each measures a level
 * of its own kind (a latency, a bank conflict, a zero-copy map), so none
 * is a workload to rank, average or give a PP; the memory hierarchy's
 * section compares them level by level. */
int compare_is_probe(const char *workload);
/* The build that made an entry's results: "0.1.0 8484219-dirty", "0.1.0,
 * build not recorded" (files written before builds were), this build's
 * for a live device. */
void compare_build_text(const struct clmem_compare_device *dev, char *out, size_t size);
/* Whether two entries are one device (name and host) measured by builds
 * or drivers that differ: their ratios then mix more than two runs. */
int compare_builds_differ(const struct clmem_compare_device *a,
                          const struct clmem_compare_device *b);

/* ---- the memory hierarchy (levels.c) ---- */
/* Whether the entry holds clmem hierarchy's levels and staircase (its run
 * file's "hierarchy", with the probes' results). */
int compare_has_levels(const struct clmem_compare_device *dev);
/* The staircase of every entry that has one in one log-log picture, and
 * its levels as bars (latency, bandwidth); none when no entry has levels. */
int compare_levels_plots(FILE *gp, struct compare_plots *p, const char *dir,
                         const struct clmem_compare_device *devs, const compare_label *labels,
                         size_t n, struct clmem_error *err);
/* Whether r reads above its roof by more than its samples' spread (and
 * 5%); *why then says why, the same words wherever the report says it:
 * "1.83x its roof: its 24 MiB a run fits in L2 (27 MiB, measured by clmem
 * hierarchy), ...": the data's level from the entry's measured levels,
 * else the cache the device reports. */
int compare_above_roof(const struct clmem_compare_device *dev, const struct clmem_result *r,
                       char *why, size_t size);
/* How far above its roof r must read to be said above it: its samples'
 * spread, at least 5% (within that it is the roof measured to its noise),
 * as the harness's note reckons it. */
double compare_above_threshold(const struct clmem_result *r);
/* The section "Memory hierarchy": the pictures and a table of the levels
 * beside what each device reports; nothing when no entry has levels. */
struct compare_view;
void compare_levels_section(struct doc *d, const struct compare_view *v);

/* The section "Which level bounds each result" (bounds.c): each entry's
 * hierarchical roofline and a table of its results' binding levels and
 * measured / predicted; results without a bound said to be left out. */
void compare_bounds_section(struct doc *d, const struct compare_view *v);

/* ---- performance portability (portability.c) ----
 * For an application (a workload's variant, or a workload's best on each
 * device) on each entry: its architectural efficiency (its result over
 * the entry's own measured roof at its intensity) and its application
 * efficiency (over the best result of the workload on that entry at that
 * size, vendor libraries included); PP over the entries is the harmonic
 * mean of one of them, 0 where an entry did not run it or it failed there
 * (Pennycook, Sewall and Lee, 2017). */
struct pp_app {
    const char *workload, *variant; /* variant NULL: the workload's best on each entry */
    const char *unit;
    double *arch, *app; /* per entry; 0: not run or failed; NAN: no roof measured (arch) */
    const struct clmem_result **on; /* per entry: the result read, or NULL */
    double pp_arch, pp_app;         /* NAN where some entry's efficiency is unknown */
    size_t ran;                     /* entries with a usable result */
};
struct pp_table {
    struct pp_app *apps;
    size_t n;
    size_t n_devs;
};
/* Every workload (its best on each entry, then each of its variants) of
 * the entries' results; 0, or -1 out of memory. */
int compare_pp_build(struct pp_table *t, const struct clmem_compare_device *devs, size_t n_devs);
void compare_pp_free(struct pp_table *t);
/* The harmonic mean of n efficiencies, 0 when one is 0 or below, NAN when
 * one is NAN. */
double compare_pp_mean(const double *e, size_t n);

/* ---- the report a person reads ---- */
struct compare_view {
    const struct clmem_compare_device *devs;
    size_t n_devs;
    size_t baseline; /* the entry the others are measured against */
    size_t n_live;   /* the first n_live entries are live devices */
    const struct pp_table *pp;
    const compare_label *labels;
    const struct compare_plots *plots;
    int plotted;            /* the pictures were drawn */
    const char *plots_note; /* why not, when they were not */
};
/* Fills `d` (empty on entry); d->failed says it ran out of memory. */
void compare_doc_build(struct doc *d, const struct compare_view *v);
/* The sections that lead (summary.c): each entry's results, failures and
 * clock and its ratio to the baseline per workload; the failures named;
 * and the ratios of every row the baseline shares. */
void compare_summary_section(struct doc *d, const struct compare_view *v);
void compare_ratios_section(struct doc *d, const struct compare_view *v);
/* The performance-portability section (portability.c): the table, and
 * the cascade pictures that plots.c drew. */
void compare_pp_section(struct doc *d, const struct compare_view *v);
/* A ratio for people: "2.23x", "17.1x", "0.61x", and far below 1x how
 * many times slower: "1/470". */
void compare_ratio_text(double ratio, char *out, size_t size);
/* Writes the document; ferror on `out` says whether that worked. */
void compare_md_write(FILE *out, const struct doc *d);
/* One self-contained page; the pictures are read from `dir` and put in
 * the page. */
void compare_html_write(FILE *out, const struct doc *d, const char *dir);

#endif
