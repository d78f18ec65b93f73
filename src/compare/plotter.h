/* What the files of the report's pictures share (plotter.c): the plotter
 * they write with, how they read the results, the y axis and the key.
 * plots.c chooses the pictures and writes plots.gp; plots_lines.c draws
 * the metric against a swept parameter or the size, plots_bars.c the
 * variants as bars and the ratios at a glance, plots_pp.c performance
 * portability's cascades. Included by those files alone. */
#ifndef CLMEM_COMPARE_PLOTTER_H
#define CLMEM_COMPARE_PLOTTER_H

#include "compare/model.h"

/* The first result of each group, or of each variant of a group, in the
 * order the entries and their results come. */
struct picks {
    const struct clmem_result **r;
    size_t n;
};

/* A point: x, a result's metric (y, from its median sample) and its
 * spread, the metric at its slowest and fastest samples (lo, hi: y where
 * it records none), and whether that spread is past CLMEM_NOISY_SPREAD. */
struct xy {
    double x, y, lo, hi;
    int noisy;
};

/* Everything the pictures are written with, and scratch space. */
struct plotter {
    FILE *gp;
    struct compare_plots *p;
    const char *dir;
    const struct clmem_compare_device *devs;
    size_t n_devs;
    const compare_label *labels;
    struct clmem_error *err;
    char (*files)[64]; /* the file names given out so far */
    size_t n_files, cap_files;
    struct picks variants; /* a group's variants (room for every result) */
    struct xy *points;     /* one entry's points (room for its results) */
    const char **sizes;    /* one entry's sizes (the same) */
    /* The picture's key: the entries drawn (their colours) and the styles
     * (a variant's dashes and points) in the order given out. */
    unsigned char *entry_drawn;
    char (*styles)[128];
    size_t n_styles;
    int noisy_drawn; /* some result of the picture is marked noisy */
    double scale;    /* the picture's values times this: its unit without prefix */
    size_t baseline; /* the entry glance.svg measures the others against */
    size_t longest;  /* the longest label's length, for the key's columns */
};

/* ---- reading the results ---- */
/* Appends to a text, cut short when it is full. */
void plots_appendf(char *text, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A name added to a list "a, b". */
void plots_note(char *list, size_t size, const char *name);
/* A verified result that a log scale can show; a result that ran. */
int plots_drawn(const struct clmem_result *r);
int plots_ran(const struct clmem_result *r);
/* The results a picture draws: those of one workload in one unit, swept
 * over one parameter or not swept ("" like "": one group). */
int plots_in_group(const struct clmem_result *r, const struct clmem_result *like);
/* The groups (group NULL) or a group's variants: the first result of
 * each, among the results that ran. */
void plots_pick(const struct plotter *pl, const struct clmem_result *group, struct picks *out);
/* One entry's results of `variant` in `group` that `keep` accepts, at
 * `size` (NULL: any) as points in pl->points: x the swept value, or the
 * size as one number (by_size); sorted by x, one point a x (the highest).
 * How many. */
size_t plots_points_of(struct plotter *pl, size_t d, const struct clmem_result *group,
                       const char *variant, const char *size, int by_size,
                       int (*keep)(const struct clmem_result *));
/* The distinct sizes of one entry's drawn results of `variant` in
 * `group`, in pl->sizes. How many. */
size_t plots_sizes_of(struct plotter *pl, size_t d, const struct clmem_result *group,
                      const char *variant);
/* Whether entry d has a drawn result of `group` at `size` (NULL: any). */
int plots_has_size(const struct plotter *pl, size_t d, const struct clmem_result *group,
                   const char *size);
/* A result as a point at x (struct xy). */
struct xy plots_point(const struct clmem_result *r, double x);
/* Whether some drawn result of `group` is noisy. */
int plots_any_noisy(const struct plotter *pl, const struct clmem_result *group);
/* A file name of the report made of names from the results (b may be
 * NULL), never one given out before. */
int plots_file_name(struct plotter *pl, const char *a, const char *b, const char *ext,
                    char out[64]);

/* ---- the pictures ---- */
/* The y axis of a picture in `unit` on a log scale (pl->scale set). */
void plots_y_axis(struct plotter *pl, const char *unit);
/* Starts a picture's key anew. */
void plots_key_reset(struct plotter *pl);
/* The mark of a noisy result (gnuplot's point style, at the top of its
 * error bar) and its entry in a picture's key, as a clause of "plot". */
#define PLOTS_NOISY_MARK "pointtype 3 pointsize 1.5 linewidth 1.5 linecolor rgb '#000000'"
void plots_noisy_key(FILE *gp);
/* An error bar, from (x, y) up by dy, with flat ends: gnuplot's own
 * yerrorbars put a white disc on every point in SVG. */
#define PLOTS_ERROR_BAR "vectors heads size screen 0.008,90"
/* What a picture's results hold besides their figures: a spread to draw
 * as error bars, noisy results to mark. */
enum { PLOTS_SPREAD = 1, PLOTS_NOISY = 2 };
/* Said under a picture of results that hold them (`holds`): what its
 * error bars and marks mean. */
void plots_spread_note(char *text, size_t size, int holds);
#endif
