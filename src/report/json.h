/* The JSON report's parts, for the reports that assemble them differently
 * (src/mpi/rank_report.c: one section per rank). Not libclmem's interface. */
#ifndef CLMEM_REPORT_JSON_H
#define CLMEM_REPORT_JSON_H

#include "report/model.h"

#include <cJSON.h>

/* The device runs read from run files at once (ranks included): as many
 * as --device takes devices, each a device-N.json and plots of a report. */
#define CLMEM_MAX_RUNS 64

/* schema_version (CLMEM_SCHEMA_VERSION, clmem.h), clmem_version, clmem_git
 * (in a git build) and created: what every run file starts with. `created`
 * is when the results were measured (UTC, ISO 8601); NULL or "": now. */
void clmem_json_add_header(cJSON *root, const char *created);
cJSON *clmem_json_host(const struct clmem_host *h);
cJSON *clmem_json_result(const struct clmem_result *r);
cJSON *clmem_json_device(const struct clmem_device *d);

/* The objects written and read back field by field (the device, the
 * host): a table each, which clmem_json_device/_host write and the run
 * files' reader (runfile.c) reads, so that the two cannot drift apart. */
enum clmem_json_type {
    CLMEM_JSON_TEXT,        /* char[size] */
    CLMEM_JSON_WHOLE,       /* a whole number >= 0 of `size` bytes (cl_uint, size_t, long) */
    CLMEM_JSON_BOOL,        /* int: true or false */
    CLMEM_JSON_DEVICE_TYPE, /* cl_device_type, written as clmem_device_type_name's */
};
struct clmem_json_field {
    const char *key;
    enum clmem_json_type type;
    size_t offset, size; /* the member's */
    int required;        /* in a file read back */
};
struct clmem_json_fields {
    const struct clmem_json_field *fields;
    size_t n;
};
extern const struct clmem_json_fields clmem_json_device_fields; /* struct clmem_device */
extern const struct clmem_json_fields clmem_json_host_fields;   /* struct clmem_host */
/* A whole-number member as a double, and back (0 for what it cannot hold). */
double clmem_json_whole_get(const void *member, size_t size);
void clmem_json_whole_set(void *member, size_t size, double value);
cJSON *clmem_json_peak(const struct clmem_peak *p);
/* Prints `root` and deletes it. */
int clmem_json_print(FILE *out, cJSON *root, struct clmem_error *err);

#endif
