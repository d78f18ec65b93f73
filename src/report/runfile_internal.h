/* What the run files' reader shares (not part of libclmem's interface):
 * runfile.c reads a file and its sections, through the typed fields and
 * required keys of runfile_fields.c; runfile_result.c reads a result,
 * runfile_hierarchy.c clmem hierarchy's object. runfile.c calls the
 * others; they call runfile_fields.c alone. */
#ifndef CLMEM_REPORT_RUNFILE_INTERNAL_H
#define CLMEM_REPORT_RUNFILE_INTERNAL_H

#include "report/json.h"

#include <cJSON.h>

/* What a problem in the file is reported against. */
struct reader {
    const char *path;
    struct clmem_error *err;
    char where[64]; /* "result 3", "rank 1 result 3", or "" */
};

/* ---- runfile_fields.c ---- */
/* The file refused, `fmt` given `field`, with the place read (rd->where). */
int runfile_bad(struct reader *rd, const char *fmt, const char *field);
/* The first of `keys` that `o` lacks, refused ("no 'os' in 'host'" when
 * `section` names it). */
int runfile_require(struct reader *rd, const cJSON *o, const char *section,
                    const char *const keys[]);
/* Typed fields: absent is allowed where `required` is 0; a null number
 * reads as `if_null` (the writer's way of saying "not finite"). */
int runfile_get_string(struct reader *rd, const cJSON *o, const char *key, int required, char *out,
                       size_t size);
int runfile_get_number(struct reader *rd, const cJSON *o, const char *key, int required,
                       double if_null, double *out);
int runfile_get_count(struct reader *rd, const cJSON *o, const char *key, unsigned *out);

/* ---- runfile_result.c ---- */
/* One result of a device's "results" list into *r (initialised as
 * clmem_result_append makes one). */
int runfile_parse_result(struct reader *rd, const cJSON *o, struct clmem_result *r);

/* ---- runfile_hierarchy.c ---- */
/* The keys the schema requires of clmem hierarchy's object, where the file
 * has one; the object read into *out (NULL where there is none), and freed. */
int runfile_require_hierarchy(struct reader *rd, const cJSON *root);
int runfile_parse_hierarchy(struct reader *rd, const cJSON *o, struct clmem_saved_hierarchy **out);
void runfile_hierarchy_free(struct clmem_saved_hierarchy *h);

#endif
