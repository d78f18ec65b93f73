/* A result's status as every writer names it (table, CSV, JSON, diff):
 * on its own, below the writers, so that none of them needs the file
 * that chooses between them. */
#include "report/model.h"

const char *clmem_result_status(const struct clmem_result *r)
{
    if (!r)
        return NULL;
    return r->skipped ? "skipped" : r->verified ? "ok" : "FAILED";
}
