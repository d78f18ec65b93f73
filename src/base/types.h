/* The types every layer shares, which base defines: the machine a run
 * ran on (host.c), a struct's members by name for clmem.h's accessors and
 * setters (handles.c) and the public functions' argument checks. Each
 * struct behind a clmem.h handle lives in the header of the layer that
 * defines it (opencl/opencl.h, harness/, report/model.h, workloads/).
 * Included by base.h. */
#ifndef CLMEM_BASE_TYPES_H
#define CLMEM_BASE_TYPES_H

#include "clmem/clmem.h"

#include <stddef.h>

#define CLMEM_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the host (host.c) ---- */
/* The machine a run file was written on. */
struct clmem_host {
    char name[256];        /* gethostname */
    char os[256];          /* PRETTY_NAME of /etc/os-release, else uname's sysname */
    char kernel[256];      /* uname's release */
    char cpu[256];         /* "model name" of /proc/cpuinfo, else uname's machine */
    long cores;            /* processors online (at least 1) */
    uint64_t memory_bytes; /* physical memory; 0 when unknown */
};
/* This machine; never fails ("unknown" and 0 where nothing is known). */
int clmem_host_describe(struct clmem_host *h);

/* ---- fields by name (handles.c) ---- */
/* A member of a struct behind a clmem.h handle by the name the run files give it: what
 * clmem.h's accessors read (clmem_result_number(r, "median_ms")) and its
 * options' setters write, each struct's members in one table. */
enum clmem_member_kind {
    CLMEM_MEMBER_CHARS,       /* char[] */
    CLMEM_MEMBER_STRING,      /* const char *: a setter's copy, owned by the options */
    CLMEM_MEMBER_DOUBLE,      /* double */
    CLMEM_MEMBER_SIGNED,      /* int, long */
    CLMEM_MEMBER_UNSIGNED,    /* an unsigned whole number of 4 or 8 bytes */
    CLMEM_MEMBER_DEVICE_TYPE, /* cl_device_type, set by its name ("gpu") */
};
struct clmem_member {
    enum clmem_member_kind kind;
    size_t offset, size;
    const char *name;
    unsigned long long min, max; /* the range a setter takes (CLMEM_MEMBER_UNSIGNED) */
};
/* The member `field` of struct `type` named `name`, its kind from its C
 * type; an option's with the range its setter takes. */
#define CLMEM_MEMBER(type, field, name)                                                            \
    CLMEM_MEMBER_AS(CLMEM_MEMBER_KIND(type, field), type, field, name, 0, 0)
#define CLMEM_OPTION(type, field, name, min, max)                                                  \
    CLMEM_MEMBER_AS(CLMEM_MEMBER_KIND(type, field), type, field, name, min, max)
#define CLMEM_MEMBER_AS(kind, type, field, name, min, max)                                         \
    {                                                                                              \
        kind, offsetof(struct type, field), sizeof(((struct type *)0)->field), name, min, max      \
    }
#define CLMEM_MEMBER_KIND(type, field)                                                             \
    _Generic(((struct type *)0)->field,                                                            \
        char *: CLMEM_MEMBER_CHARS,                                                                \
        const char *: CLMEM_MEMBER_STRING,                                                         \
        double: CLMEM_MEMBER_DOUBLE,                                                               \
        int: CLMEM_MEMBER_SIGNED,                                                                  \
        long: CLMEM_MEMBER_SIGNED,                                                                 \
        default: CLMEM_MEMBER_UNSIGNED)
const struct clmem_member *clmem_member_find(const struct clmem_member *members, size_t n,
                                             const char *name);
/* The text or number `name` of `object` (whose table is members): NULL,
 * NAN for a NULL object, an unknown name, or a member of the other kind. */
const char *clmem_member_text(const void *object, const struct clmem_member *members, size_t n,
                              const char *name);
double clmem_member_number(const void *object, const struct clmem_member *members, size_t n,
                           const char *name);
/* Sets option `name` of `object` from its text as the CLI takes it: a
 * whole number in the member's range, a device type's name, or a text,
 * copied into owned[the member's index] (a slot per member, freed by the
 * caller; NULL resets it). Usage errors name `who`, the public function. */
int clmem_member_set(void *object, char **owned, const struct clmem_member *members, size_t n,
                     const char *name, const char *value, const char *who, struct clmem_error *err);

/* ---- the public functions' checks of their arguments ---- */
/* A usage error naming the function, where `bad` holds: what a public
 * function returns for a NULL or out-of-range argument. */
#define CLMEM_REFUSE_IF(bad, err, ...)                                                             \
    do {                                                                                           \
        if (bad)                                                                                   \
            return clmem_fail(err, CLMEM_ERR_USAGE, __VA_ARGS__);                                  \
    } while (0)
#define CLMEM_REFUSE_NULL(arg, err) CLMEM_REFUSE_IF(!(arg), err, "%s: '%s' is NULL", __func__, #arg)

#endif
