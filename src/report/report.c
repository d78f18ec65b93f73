/* Choosing a report format, and writing output files atomically. */
#include "clmem/clmem.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct {
    const char *name;
    enum clmem_format format;
} formats[] = {
    {"table", CLMEM_FORMAT_TABLE},
    {"csv", CLMEM_FORMAT_CSV},
    {"json", CLMEM_FORMAT_JSON},
};

int clmem_format_parse(const char *text, enum clmem_format *format, struct clmem_error *err)
{
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(formats); i++)
        if (strcmp(text, formats[i].name) == 0) {
            *format = formats[i].format;
            return CLMEM_OK;
        }
    return clmem_fail(err, CLMEM_ERR_USAGE, "unknown format '%s' (use table, csv or json)", text);
}

const char *clmem_result_status(const struct clmem_result *r)
{
    return r->skipped ? "skipped" : r->verified ? "ok" : "FAILED";
}

int clmem_report_write(FILE *out, enum clmem_format format, const struct clmem_result *results,
                       size_t n, const struct clmem_report_meta *meta, struct clmem_error *err)
{
    int status = CLMEM_OK;
    errno = 0;
    switch (format) {
    case CLMEM_FORMAT_TABLE: status = clmem_report_table(out, results, n); break;
    case CLMEM_FORMAT_CSV: status = clmem_report_csv(out, results, n); break;
    case CLMEM_FORMAT_JSON: status = clmem_report_json(out, results, n, meta, err); break;
    }
    if (status == CLMEM_OK && (fflush(out) != 0 || ferror(out))) {
        int saved = errno ? errno : EIO;
        clmem_fail(err, CLMEM_ERR_USAGE, "cannot write the report: %s", strerror(saved));
        errno = saved; /* for clmem_output_report's message */
        return CLMEM_ERR_USAGE;
    }
    return status;
}

int clmem_output_open(struct clmem_output *out, const char *path, struct clmem_error *err)
{
    memset(out, 0, sizeof *out);
    if (strlen(path) >= sizeof out->path)
        return clmem_fail(err, CLMEM_ERR_USAGE, "output path '%s' is too long", path);
    strcpy(out->path, path);
    /* A device or a pipe is written as it is: renaming a file over
     * /dev/null (as root) would replace the device. */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode))
            return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", path,
                              strerror(EISDIR));
        out->file = fopen(path, "w");
        if (!out->file)
            return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", path, strerror(errno));
        return CLMEM_OK;
    }
    snprintf(out->tmp_path, sizeof out->tmp_path, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(out->tmp_path);
    if (fd < 0) {
        out->tmp_path[0] = '\0';
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", path, strerror(errno));
    }
    /* mkstemp makes it 0600: the output gets a new file's mode (0666 less
     * the umask), as if written in place. */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0) {
        int saved = errno;
        close(fd);
        unlink(out->tmp_path);
        out->tmp_path[0] = '\0';
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", path, strerror(saved));
    }
    out->file = fdopen(fd, "w");
    if (!out->file) {
        int saved = errno;
        close(fd);
        unlink(out->tmp_path);
        out->tmp_path[0] = '\0';
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", path, strerror(saved));
    }
    return CLMEM_OK;
}

int clmem_output_commit(struct clmem_output *out, struct clmem_error *err)
{
    int saved = 0;
    if (fflush(out->file) != 0 || ferror(out->file))
        saved = errno ? errno : EIO;
    /* fsync only a regular file: a pipe or a terminal cannot. */
    if (!saved && out->tmp_path[0] && fsync(fileno(out->file)) != 0)
        saved = errno;
    if (fclose(out->file) != 0 && !saved)
        saved = errno;
    out->file = NULL;
    if (!saved && out->tmp_path[0] && rename(out->tmp_path, out->path) != 0)
        saved = errno;
    if (saved) {
        if (out->tmp_path[0])
            unlink(out->tmp_path);
        out->tmp_path[0] = '\0';
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", out->path,
                          strerror(saved));
    }
    out->tmp_path[0] = '\0';
    return CLMEM_OK;
}

void clmem_output_abort(struct clmem_output *out)
{
    if (out->file) {
        fclose(out->file);
        out->file = NULL;
        if (out->tmp_path[0])
            unlink(out->tmp_path);
        out->tmp_path[0] = '\0';
    }
}

int clmem_output_report(struct clmem_output *out, enum clmem_format format,
                        const struct clmem_result *results, size_t n,
                        const struct clmem_report_meta *meta, struct clmem_error *err)
{
    int status = clmem_report_write(out->file, format, results, n, meta, err);
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
