/* The JSON report's parts, for the reports that assemble them differently
 * (src/mpi/report.c: one section per rank). Not libclmem's interface. */
#ifndef CLMEM_REPORT_JSON_H
#define CLMEM_REPORT_JSON_H

#include "report/report.h"

#include <cJSON.h>

/* schema_version (CLMEM_SCHEMA_VERSION, clmem.h), clmem_version, clmem_git
 * (in a git build) and created: what every run file starts with. `created`
 * is when the results were measured (UTC, ISO 8601); NULL or "": now. */
void clmem_json_add_header(cJSON *root, const char *created);
cJSON *clmem_json_host(const struct clmem_host *h);
cJSON *clmem_json_result(const struct clmem_result *r);
cJSON *clmem_json_device(const struct clmem_device *d);
cJSON *clmem_json_peak(const struct clmem_peak *p);
/* Prints `root` and deletes it. */
int clmem_json_print(FILE *out, cJSON *root, struct clmem_error *err);

#endif
