/* The report's pictures of bars (plots_bars.c), for plots.c. */
#ifndef CLMEM_COMPARE_PLOTS_BARS_H
#define CLMEM_COMPARE_PLOTS_BARS_H

#include "compare/plotter.h"

/* Whether some result of `group` was measured against a baseline
 * variant; WORKLOAD.svg, its variants as bars; glance.svg, each entry
 * against the baseline entry. */
int plots_has_baseline(const struct plotter *pl, const struct clmem_result *group);
int plots_bars(struct plotter *pl, const struct clmem_result *group);
int plots_glance(struct plotter *pl, const struct picks *groups);

#endif
