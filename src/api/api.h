/* libclmem's surface: the exported NAME_sized functions that clmem.h's
 * macros call (api.c), and the public structs as a program's header lays
 * them out against this library's (layout.c). A program built against an
 * older clmem.h has smaller structs, each a prefix of the library's (clmem.h's
 * rule): what it holds is read into the library's layout, the defaults
 * for the rest, and what the library returns is written back at its sizes. */
#ifndef CLMEM_API_API_H
#define CLMEM_API_API_H

#include "base/base.h"

/* The public structs, one each; the order of struct clmem_sizes. */
enum clmem_api_type {
    CLMEM_API_ERROR,
    CLMEM_API_DEVICE,
    CLMEM_API_CLOCK,
    CLMEM_API_CTX,
    CLMEM_API_WORKLOAD_INFO,
    CLMEM_API_VARIANT_INFO,
    CLMEM_API_RESULT,
    CLMEM_API_RUN_OPTIONS,
    CLMEM_API_PEAK,
    CLMEM_API_BENCH_OPTIONS,
    CLMEM_API_SPLIT_OPTIONS,
    CLMEM_API_HOST,
    CLMEM_API_REPORT_META,
    CLMEM_API_COMPARE_DEVICE,
    CLMEM_API_TYPES
};

/* A program's sizes of the public structs. */
struct clmem_api {
    size_t size[CLMEM_API_TYPES];
};

/* Whether a program's sizes are this library's own (NULL counts as so):
 * then its structs need no laying out. */
int clmem_api_native(const struct clmem_sizes *sizes);
/* Reads the program's sizes into api (NULL: this library's). A struct
 * larger than this library's (a newer header) or of no size it ever had
 * is CLMEM_ERR_USAGE, the message in err naming it and both sizes. */
int clmem_api_read(struct clmem_api *api, const struct clmem_sizes *sizes, struct clmem_error *err);
/* Whether the program's size of `type` can be read and written at all: a
 * size it had in some version, or a larger one (a newer header), of which
 * this library then touches only its own part. For the functions that
 * have no error to report. */
int clmem_api_usable(const struct clmem_api *api, enum clmem_api_type type);

/* The program's struct `theirs` into `mine`, laid out as the library's:
 * what the program's lacks takes its default (zero, but NAN for a result's
 * fractions, one run a sample, rank -1). */
void clmem_api_in(const struct clmem_api *api, enum clmem_api_type type, void *mine,
                  const void *theirs);
/* The library's `mine` into the program's `theirs`: the part the program's
 * header knows; any part it has beyond the library's is left as it is. */
void clmem_api_out(const struct clmem_api *api, enum clmem_api_type type, void *theirs,
                   const void *mine);
/* Element i of a program's array of `type`, at its stride. */
void *clmem_api_item(const struct clmem_api *api, enum clmem_api_type type, void *theirs, size_t i);
/* The program's array of n into a new one in the library's layout (for n 0
 * too); NULL when out of memory. The copies share what the originals point
 * to. */
void *clmem_api_array_in(const struct clmem_api *api, enum clmem_api_type type, const void *theirs,
                         size_t n);
/* The program's array of n_theirs grown by the library's n (> 0) items
 * `mine`, at the program's stride (realloc: theirs may move); NULL when out
 * of memory, theirs untouched. What the items point to is the program's
 * now. */
void *clmem_api_append(const struct clmem_api *api, enum clmem_api_type type, void *theirs,
                       size_t n_theirs, const void *mine, size_t n);

#endif
