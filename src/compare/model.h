/* Inside the comparison report (clmem compare): the document's data
 * types and what its files share, each file including this header and
 * none including compare.h, the header of the file that puts the report
 * together (compare.c: the directory, the machine-readable files):
 * compare_doc.c what the report says, once: device labels, the tables
 * compare_md.c  that document as Markdown (report.md)
 * html.c        the same document as one self-contained page (report.html)
 * plots.c       plot data and pictures chosen from the results, the gnuplot
 *               script
 * roofline.c    a roofline per entry
 * gnuplot.c     what those two share: files, text for gnuplot, the list of
 *               pictures, the script's settings, running gnuplot
 * lessons.c     the lessons measured in the results (lessons.h)
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
enum doc_kind { DOC_HEADING, DOC_TEXT, DOC_TABLE, DOC_PICTURE };

struct doc_cell {
    char *text;
    double key; /* what a sortable column orders by; NAN: its text */
    /* A metric cell (doc_metric): its value and unit, and what follows the
     * figure; its text is written once the table is whole (doc_units),
     * in the prefix its column's largest value chooses. */
    double metric;
    char unit[16];
    char *suffix; /* NULL: not a metric cell */
};

struct doc_block {
    enum doc_kind kind;
    int level;   /* a heading's: 1 to 3 */
    char *text;  /* a heading, a paragraph, a picture's file name */
    size_t cols; /* a table's: the header row is its first `cols` cells */
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
void doc_picture(struct doc *d, const char *file);
/* Starts a table of `cols` columns; doc_cell then fills it row by row, the
 * header first, until the next block. */
void doc_table(struct doc *d, size_t cols);
void doc_cell(struct doc *d, double key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A cell of `metric` in `unit` followed by the text of fmt; its figure
 * written in its column's unit by doc_units. */
void doc_metric(struct doc *d, double key, double metric, const char *unit, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* One unit a column: every metric cell of every table written with the SI
 * prefix its column's largest value of that unit calls for (2.55 GB/s
 * above 0.88 GB/s, never 880 MB/s beside GB/s). */
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
struct compare_picture {
    char file[64];   /* NAME.svg, in the report directory */
    char note[2048]; /* said under it ("" for none) */
    int glance;      /* shown beside the at-a-glance table, not among the plots */
};
struct compare_plots {
    struct compare_picture *pictures; /* that have data, in order */
    size_t n;
    char missing[1024];     /* pictures left out for want of results */
    char no_roofline[1024]; /* entries without measured peaks */
};
/* Writes the plot data and plots.gp into `dir` (the pictures to be drawn
 * are listed in *plots); every file whole or not at all. */
int compare_plots_write(const char *dir, const struct clmem_compare_device *devs, size_t n_devs,
                        const compare_label *labels, struct compare_plots *plots,
                        struct clmem_error *err);
/* Entry `index`'s roofline into gp (roofline-INDEX.dat and .svg). */
int compare_roofline(FILE *gp, struct compare_plots *p, const char *dir,
                     const struct clmem_compare_device *dev, const char *label, size_t index,
                     struct clmem_error *err);
/* What plots.c and roofline.c share (gnuplot.c): the script's first
 * lines (the SVG terminal, an entry's colours); dir/NAME opened as an
 * output file; text inside a gnuplot '...' string and as a data file's
 * string column; whether a result ran and verified; a picture added to the
 * report's list (text: its caption, or NULL). */
void plot_script_start(FILE *gp);
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

/* ---- the report a person reads ---- */
struct compare_view {
    const struct clmem_compare_device *devs;
    size_t n_devs;
    const compare_label *labels;
    const struct compare_plots *plots;
    int plotted;            /* the pictures were drawn */
    const char *plots_note; /* why not, when they were not */
};
/* Fills `d` (empty on entry); d->failed says it ran out of memory. */
void compare_doc_build(struct doc *d, const struct compare_view *v);
/* Writes the document; ferror on `out` says whether that worked. */
void compare_md_write(FILE *out, const struct doc *d);
/* One self-contained page; the pictures are read from `dir` and put in
 * the page. */
void compare_html_write(FILE *out, const struct doc *d, const char *dir);

#endif
