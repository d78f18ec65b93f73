/* The JSON report's parts, for the reports that assemble them differently
 * (src/mpi/report.c: one section per rank). Not libclmem's interface. */
#ifndef CLMEM_REPORT_JSON_H
#define CLMEM_REPORT_JSON_H

#include "clmem/clmem.h"

#include <cJSON.h>

cJSON *clmem_json_result(const struct clmem_result *r);
cJSON *clmem_json_device(const struct clmem_device *d);
cJSON *clmem_json_peak(const struct clmem_peak *p);
/* Prints `root` and deletes it. */
int clmem_json_print(FILE *out, cJSON *root, struct clmem_error *err);

#endif
