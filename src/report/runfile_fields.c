/* The run files' reader's typed fields (runfile_internal.h): a string, a
 * number or a whole number read from an object and checked, a section's
 * required keys, and the one message that refuses a file. */
#include "report/runfile_internal.h"

#include <math.h>

int runfile_bad(struct reader *rd, const char *fmt, const char *field)
{
    char what[256];
    snprintf(what, sizeof what, fmt, field);
    return clmem_fail(rd->err, CLMEM_ERR_USAGE, "'%s' is not a clmem run file: %s%s%s", rd->path,
                      rd->where, rd->where[0] ? ": " : "", what);
}

/* The first of `keys` that `o` lacks, refused ("no 'os' in 'host'" when
 * `section` names it). */
int runfile_require(struct reader *rd, const cJSON *o, const char *section,
                    const char *const keys[])
{
    if (!cJSON_IsObject(o))
        return CLMEM_OK;
    for (size_t i = 0; keys[i]; i++)
        if (!cJSON_GetObjectItemCaseSensitive(o, keys[i])) {
            char what[128];
            snprintf(what, sizeof what, "no '%s'%s%s%s", keys[i], section ? " in '" : "",
                     section ? section : "", section ? "'" : "");
            return runfile_bad(rd, "%s", what);
        }
    return CLMEM_OK;
}

/* ---- typed fields: absent is allowed where `required` is 0 ---- */

int runfile_get_string(struct reader *rd, const cJSON *o, const char *key, int required, char *out,
                       size_t size)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v)
        return required ? runfile_bad(rd, "no '%s'", key) : CLMEM_OK;
    if (!cJSON_IsString(v))
        return runfile_bad(rd, "'%s' is not a string", key);
    clmem_text_copy(out, size, v->valuestring);
    return CLMEM_OK;
}

/* null reads as `if_null` (the writer's way of saying "not finite"). */
int runfile_get_number(struct reader *rd, const cJSON *o, const char *key, int required,
                       double if_null, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v)
        return required ? runfile_bad(rd, "no '%s'", key) : CLMEM_OK;
    if (cJSON_IsNull(v)) {
        *out = if_null;
        return CLMEM_OK;
    }
    if (!cJSON_IsNumber(v))
        return runfile_bad(rd, "'%s' is not a number", key);
    *out = v->valuedouble;
    return CLMEM_OK;
}

int runfile_get_count(struct reader *rd, const cJSON *o, const char *key, unsigned *out)
{
    double v = NAN;
    int status = runfile_get_number(rd, o, key, 0, NAN, &v);
    if (status || isnan(v))
        return status;
    if (v < 0 || v > 4294967295.0 || v != floor(v))
        return runfile_bad(rd, "'%s' is not a whole number", key);
    *out = (unsigned)v;
    return CLMEM_OK;
}
