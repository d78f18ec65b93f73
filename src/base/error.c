/* Error records: what went wrong, carried back to the CLI, which alone
 * prints it; and which of two statuses to report. */
#include "base/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void clmem_error_clear(struct clmem_error *err)
{
    if (!err)
        return;
    free(err->log);
    err->log = NULL;
    err->status = CLMEM_OK;
    err->cl_err = 0; /* CL_SUCCESS */
    err->message[0] = '\0';
}

/* A message longer than err->message keeps its start and its end, which
 * says what went wrong (messages end with the reason: "cannot write 'PATH':
 * Permission denied"), and says how much of the middle was left out. */
static void keep_ends(char *dst, size_t size, const char *full, size_t len)
{
    char gap[64];
    int gap_len = snprintf(gap, sizeof gap, " [... %zu characters ...] ", len);
    size_t room = size - 1 - (size_t)gap_len;
    size_t head = room / 2, tail = room - head;
    memcpy(dst, full, head);
    memcpy(dst + head, gap, (size_t)gap_len);
    memcpy(dst + head + (size_t)gap_len, full + len - tail, tail);
    dst[size - 1] = '\0';
}

int clmem_fail(struct clmem_error *err, int status, const char *fmt, ...)
{
    if (!err)
        return status;
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int len = vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    if (len >= (int)sizeof err->message) {
        char *full = malloc((size_t)len + 1);
        if (full) {
            vsnprintf(full, (size_t)len + 1, fmt, again);
            keep_ends(err->message, sizeof err->message, full, (size_t)len);
            free(full);
        }
    }
    va_end(again);
    err->status = status;
    return status;
}

/* An OpenCL error outranks a usage error, which outranks an interruption,
 * which outranks a failed check. */
int clmem_status_severity(int status)
{
    switch (status) {
    case CLMEM_OK: return 0;
    case CLMEM_ERR_VERIFY: return 1;
    case CLMEM_ERR_INTERRUPTED: return 2;
    case CLMEM_ERR_USAGE: return 3;
    default: return 4;
    }
}

int clmem_status_worst(int a, int b)
{
    return clmem_status_severity(b) > clmem_status_severity(a) ? b : a;
}
