/* --size parsing: "N", "MxN" or "MxNxK". */
#include "base/base.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Each dimension fits an OpenCL C int index, as the kernels use int. */
#define CLMEM_SIZE_MAX_DIM 2147483647UL

int clmem_size_parse(const char *text, struct clmem_size *size, struct clmem_error *err)
{
    memset(size, 0, sizeof *size);
    if (!text || !text[0])
        return clmem_fail(err, CLMEM_ERR_USAGE, "empty size (expected N, MxN or MxNxK)");
    const char *p = text;
    for (int i = 0; i < 3; i++) {
        if (*p == '-')
            return clmem_fail(err, CLMEM_ERR_USAGE, "size '%s' is negative", text);
        if (!isdigit((unsigned char)*p))
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "size '%s' is not a number (expected N, MxN or MxNxK)", text);
        char *end;
        errno = 0;
        unsigned long long v = strtoull(p, &end, 10);
        if (errno == ERANGE || v > CLMEM_SIZE_MAX_DIM)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "size '%s' is too large (each dimension "
                              "at most %lu)",
                              text, CLMEM_SIZE_MAX_DIM);
        if (v == 0)
            return clmem_fail(err, CLMEM_ERR_USAGE, "size '%s' has a zero dimension", text);
        size->dim[i] = (size_t)v;
        size->ndims = i + 1;
        p = end;
        if (*p == '\0')
            break;
        if ((*p != 'x' && *p != 'X') || i == 2)
            return clmem_fail(err, CLMEM_ERR_USAGE,
                              "size '%s' is not a number (expected N, MxN or MxNxK)", text);
        p++;
    }
    /* A single N means a square (or cubic) problem. */
    for (int i = size->ndims; i < 3; i++)
        size->dim[i] = size->dim[size->ndims - 1];
    return CLMEM_OK;
}

void clmem_size_format(const struct clmem_size *size, char *out, size_t out_size)
{
    if (size->ndims <= 1)
        snprintf(out, out_size, "%zu", size->dim[0]);
    else if (size->ndims == 2)
        snprintf(out, out_size, "%zux%zu", size->dim[0], size->dim[1]);
    else
        snprintf(out, out_size, "%zux%zux%zu", size->dim[0], size->dim[1], size->dim[2]);
}

void clmem_size_shape(const struct clmem_size *size, char *out, size_t out_size)
{
    snprintf(out, out_size, "%zux%zux%zu", size->dim[0], size->dim[1], size->dim[2]);
}

void clmem_size_class(const struct clmem_size *size, char *out, size_t out_size)
{
    size_t largest = size->dim[0], c = 1;
    for (int i = 1; i < 3; i++)
        if (size->dim[i] > largest)
            largest = size->dim[i];
    while (c < largest && c < ((size_t)1 << 62))
        c *= 2;
    snprintf(out, out_size, "N<=%zu", c);
}
