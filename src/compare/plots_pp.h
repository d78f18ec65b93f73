/* Performance portability's pictures (plots_pp.c), for plots.c. */
#ifndef CLMEM_COMPARE_PLOTS_PP_H
#define CLMEM_COMPARE_PLOTS_PP_H

#include "compare/plotter.h"

/* WORKLOAD-pp.svg for the workloads of `t`. */
int plots_cascades(struct plotter *pl, const struct pp_table *t);

#endif
