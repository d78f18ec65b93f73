/* A struct's members by the names the run files give them (struct
 * clmem_member): the look-ups behind clmem.h's accessors, whose tables
 * live beside their structs (opencl/, harness/ and report/handles.c), and
 * the options' setters (harness/options.c). */
#include "base/base.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const struct clmem_member *clmem_member_find(const struct clmem_member *members, size_t n,
                                             const char *name)
{
    for (size_t i = 0; name && i < n; i++)
        if (strcmp(members[i].name, name) == 0)
            return &members[i];
    return NULL;
}

const char *clmem_member_text(const void *object, const struct clmem_member *members, size_t n,
                              const char *name)
{
    const struct clmem_member *m = object ? clmem_member_find(members, n, name) : NULL;
    const char *at = m ? (const char *)object + m->offset : NULL;
    if (!m || (m->kind != CLMEM_MEMBER_CHARS && m->kind != CLMEM_MEMBER_STRING))
        return NULL;
    if (m->kind == CLMEM_MEMBER_CHARS)
        return at;
    const char *text;
    memcpy(&text, at, sizeof text);
    return text;
}

double clmem_member_number(const void *object, const struct clmem_member *members, size_t n,
                           const char *name)
{
    const struct clmem_member *m = object ? clmem_member_find(members, n, name) : NULL;
    const char *at = m ? (const char *)object + m->offset : NULL;
    if (!m)
        return NAN;
    if (m->kind == CLMEM_MEMBER_DOUBLE) {
        double v;
        memcpy(&v, at, sizeof v);
        return v;
    }
    if (m->kind == CLMEM_MEMBER_SIGNED && m->size == sizeof(int)) {
        int v;
        memcpy(&v, at, sizeof v);
        return v;
    }
    if (m->kind == CLMEM_MEMBER_SIGNED || m->kind == CLMEM_MEMBER_UNSIGNED) {
        uint64_t v = 0; /* unsigned of 4 or 8 bytes, long */
        if (m->size == sizeof(uint32_t)) {
            uint32_t v32;
            memcpy(&v32, at, sizeof v32);
            v = v32;
        } else {
            memcpy(&v, at, sizeof v);
        }
        return m->kind == CLMEM_MEMBER_SIGNED ? (double)(int64_t)v : (double)v;
    }
    return NAN;
}

/* An option's number: digits alone, as the CLI takes them, in its range. */
static int parse_number(const char *who, const struct clmem_member *m, const char *value,
                        uint64_t *out, struct clmem_error *err)
{
    char *end;
    errno = 0;
    unsigned long long v = value[0] >= '0' && value[0] <= '9' ? strtoull(value, &end, 10) : 0;
    CLMEM_REFUSE_IF(value[0] < '0' || value[0] > '9' || *end || errno, err,
                    "%s: '%s' takes a whole number, not '%s'", who, m->name, value);
    CLMEM_REFUSE_IF(v < m->min || v > m->max, err, "%s: '%s' %s is out of range (%llu to %llu)",
                    who, m->name, value, m->min, m->max);
    *out = v;
    return CLMEM_OK;
}

int clmem_member_set(void *object, char **owned, const struct clmem_member *members, size_t n,
                     const char *name, const char *value, const char *who, struct clmem_error *err)
{
    const struct clmem_member *m = clmem_member_find(members, n, name);
    CLMEM_REFUSE_IF(!m, err, "%s: unknown option '%s'", who, name ? name : "(null)");
    char *at = (char *)object + m->offset;
    if (m->kind == CLMEM_MEMBER_STRING) {
        char **slot = &owned[m - members];
        char *copy = value ? strdup(value) : NULL;
        if (value && !copy)
            return clmem_fail(err, CLMEM_ERR_CL, "out of host memory");
        free(*slot);
        *slot = copy;
        memcpy(at, slot, sizeof *slot);
        return CLMEM_OK;
    }
    CLMEM_REFUSE_IF(!value, err, "%s: '%s' needs a value", who, m->name);
    if (m->kind == CLMEM_MEMBER_DEVICE_TYPE) {
        cl_device_type type = clmem_device_type_of(value);
        CLMEM_REFUSE_IF(type == CL_DEVICE_TYPE_DEFAULT, err,
                        "%s: '%s' takes gpu, cpu or accelerator, not '%s'", who, m->name, value);
        memcpy(at, &type, sizeof type);
        return CLMEM_OK;
    }
    uint64_t v = 0;
    int status = parse_number(who, m, value, &v, err);
    if (status)
        return status;
    if (m->size == sizeof(uint32_t)) {
        uint32_t v32 = (uint32_t)v; /* the range keeps it whole */
        memcpy(at, &v32, sizeof v32);
    } else {
        memcpy(at, &v, sizeof v);
    }
    return CLMEM_OK;
}
