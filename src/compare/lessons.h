/* The lessons the seeds teach, each a measured ratio of two variants of a
 * workload (padded over coalesced transpose: padding removes bank
 * conflicts), kept as one table of data (lessons.c) that the comparison
 * report and `clmem run` share. Workloads and variants are named as the
 * results name them: the comparison report never reads the workload list. */
#ifndef CLMEM_COMPARE_LESSONS_H
#define CLMEM_COMPARE_LESSONS_H

#include "report/report.h"

#include <stdio.h>

/* A lesson's versus_value: the sweep point where `versus` is slowest. */
#define CLMEM_LESSON_WORST 0xffffffffu
/* A lesson's versus_value: `versus` is read where it sweeps nothing. */
#define CLMEM_LESSON_UNSWEPT 0xfffffffeu

struct clmem_lesson {
    const char *title;     /* what it teaches: "padding removes bank conflicts" */
    const char *workload;  /* as results name it */
    const char *variant;   /* the design the lesson recommends */
    const char *versus;    /* what it improves on */
    const char *sweep;     /* NULL, or the swept parameter both are read at */
    unsigned value;        /* the sweep point of `variant` */
    unsigned versus_value; /* of `versus`, or CLMEM_LESSON_WORST */
    const char *figure;    /* the source it follows: a book's figure, a course's slide */
    const char *reads;     /* how its ratio reads */
    /* The memory level the design relies on, as the hierarchy probes
     * measure it (a lesson of workload hierarchy's variants), or NULL. */
    const struct clmem_lesson *level;
};
extern const struct clmem_lesson clmem_lessons[];
extern const size_t clmem_n_lessons;

/* One lesson measured on one device's results. */
struct clmem_lesson_gain {
    double ratio;          /* variant's metric over versus's */
    char size[64];         /* the size both were read at (the largest both ran) */
    unsigned versus_value; /* the sweep point `versus` was read at */
    int noisy;             /* either result's spread past CLMEM_NOISY_SPREAD: it may not hold */
};
/* Whether the results hold the lesson: both variants verified at a common
 * size (and sweep point); *gain then says the ratio. */
int clmem_lesson_measure(const struct clmem_lesson *lesson, const struct clmem_result *results,
                         size_t n, struct clmem_lesson_gain *gain);
/* "2.23x", "17.1x", "0.61x": a ratio for people. */
void clmem_lesson_ratio(double ratio, char *out, size_t size);
/* `clmem run`'s lines after its table: for each lesson its results hold,
 * "lesson: TITLE: VARIANT 2.2x VERSUS @SIZE (FIGURE)". Nothing unless the
 * format is the table. */
void clmem_lessons_print(FILE *out, enum clmem_format format, const struct clmem_result *results,
                         size_t n);

#endif
