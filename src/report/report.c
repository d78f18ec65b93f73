/* Choosing a report format, and writing output files atomically. */
#include "clmem/clmem.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    switch (format) {
    case CLMEM_FORMAT_TABLE: status = clmem_report_table(out, results, n); break;
    case CLMEM_FORMAT_CSV: status = clmem_report_csv(out, results, n); break;
    case CLMEM_FORMAT_JSON: status = clmem_report_json(out, results, n, meta, err); break;
    }
    if (status == CLMEM_OK && (fflush(out) != 0 || ferror(out)))
        return clmem_fail(err, CLMEM_ERR_USAGE, "writing the report failed: %s", strerror(errno));
    return status;
}

int clmem_output_open(struct clmem_output *out, const char *path, struct clmem_error *err)
{
    memset(out, 0, sizeof *out);
    if (strlen(path) >= sizeof out->path)
        return clmem_fail(err, CLMEM_ERR_USAGE, "output path '%s' is too long", path);
    strcpy(out->path, path);
    snprintf(out->tmp_path, sizeof out->tmp_path, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(out->tmp_path);
    if (fd < 0)
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", path, strerror(errno));
    out->file = fdopen(fd, "w");
    if (!out->file) {
        close(fd);
        unlink(out->tmp_path);
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", path, strerror(errno));
    }
    return CLMEM_OK;
}

int clmem_output_commit(struct clmem_output *out, struct clmem_error *err)
{
    int failed = fflush(out->file) != 0 || ferror(out->file) || fsync(fileno(out->file)) != 0;
    failed |= fclose(out->file) != 0;
    out->file = NULL;
    if (failed || rename(out->tmp_path, out->path) != 0) {
        int saved = errno;
        unlink(out->tmp_path);
        return clmem_fail(err, CLMEM_ERR_USAGE, "cannot write '%s': %s", out->path,
                          strerror(saved));
    }
    return CLMEM_OK;
}

void clmem_output_abort(struct clmem_output *out)
{
    if (out->file) {
        fclose(out->file);
        out->file = NULL;
        unlink(out->tmp_path);
    }
}
