/* The one end of every report (model.h): the stream flushed and checked,
 * then, for an output file, the file named in the message and removed, or
 * committed whole. Each command's writer (report.c, hierarchy_table.c,
 * diff_write.c, the ranks' JSON) ends here. */
#include "report/model.h"

#include <errno.h>
#include <string.h>

int clmem_report_flush(FILE *out, int status, struct clmem_error *err)
{
    if (status != CLMEM_OK || (fflush(out) == 0 && !ferror(out)))
        return status;
    int saved = errno ? errno : EIO;
    clmem_fail(err, CLMEM_ERR_USAGE, "cannot write the report%s: %s",
               out == stdout ? " to stdout" : "", strerror(saved));
    errno = saved; /* for clmem_output_end's message naming the file */
    return CLMEM_ERR_USAGE;
}

int clmem_output_end(struct clmem_output *out, int status, struct clmem_error *err)
{
    if (status == CLMEM_ERR_USAGE) {
        /* The writer's own message names no file: say which. */
        int saved = errno;
        clmem_output_abort(out);
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", out->path,
                          strerror(saved ? saved : EIO));
    }
    if (status) {
        clmem_output_abort(out);
        return status;
    }
    return clmem_output_commit(out, err);
}
