/* Choosing a report format, and writing a report in it, to a stream or
 * to an output file (whole or not at all). */
#include "report/report.h"

#include <errno.h>
#include <string.h>

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
    CLMEM_REFUSE_NULL(err, err);
    CLMEM_REFUSE_NULL(text, err);
    CLMEM_REFUSE_NULL(format, err);
    for (size_t i = 0; i < CLMEM_ARRAY_SIZE(formats); i++)
        if (strcmp(text, formats[i].name) == 0) {
            *format = formats[i].format;
            return CLMEM_OK;
        }
    return clmem_fail(err, CLMEM_ERR_USAGE, "unknown format '%s' (use table, csv or json)", text);
}

int clmem_report_write(FILE *out, enum clmem_format format, const struct clmem_result *results,
                       size_t n, const struct clmem_report_meta *meta, struct clmem_error *err)
{
    CLMEM_REFUSE_NULL(err, err);
    CLMEM_REFUSE_NULL(out, err);
    CLMEM_REFUSE_IF(!results && n, err, "%s: 'results' is NULL, n %zu", __func__, n);
    CLMEM_REFUSE_IF(format != CLMEM_FORMAT_TABLE && format != CLMEM_FORMAT_CSV &&
                        format != CLMEM_FORMAT_JSON,
                    err, "%s: unknown format %d", __func__, (int)format);
    int status = CLMEM_OK;
    errno = 0;
    switch (format) {
    case CLMEM_FORMAT_TABLE:
        status = clmem_report_table(out, results, n);
        if (status == CLMEM_OK && meta && meta->levels)
            status = clmem_roofline_text(out, results, n, meta->levels, meta->levels_from);
        break;
    case CLMEM_FORMAT_CSV: status = clmem_report_csv(out, results, n); break;
    case CLMEM_FORMAT_JSON: status = clmem_report_json(out, results, n, meta, err); break;
    }
    return clmem_report_flush(out, status, err);
}

int clmem_output_report(struct clmem_output *out, enum clmem_format format,
                        const struct clmem_result *results, size_t n,
                        const struct clmem_report_meta *meta, struct clmem_error *err)
{
    return clmem_output_end(out, clmem_report_write(out->file, format, results, n, meta, err), err);
}
