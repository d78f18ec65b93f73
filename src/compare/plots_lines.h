/* The report's pictures of lines (plots_lines.c), for plots.c. */
#ifndef CLMEM_COMPARE_PLOTS_LINES_H
#define CLMEM_COMPARE_PLOTS_LINES_H

#include "compare/plotter.h"

/* WORKLOAD-SWEEP.svg: the metric of `group`'s variants against the
 * parameter they sweep; WORKLOAD-size.svg: against the size. */
int plots_sweep(struct plotter *pl, const struct clmem_result *group);
int plots_size(struct plotter *pl, const struct clmem_result *group);

#endif
