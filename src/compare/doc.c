/* The comparison report's document, built once and written twice
 * (compare_md.c, html.c): headings, paragraphs, tables whose metric cells
 * take their units once the table is whole, pictures, marks. */
#include "compare/model.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- the document ---- */

/* The document's texts, formatted; NULL, and the document failed, when
 * out of memory. */
static char *vformat(struct doc *d, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int len = vsnprintf(NULL, 0, fmt, ap);
    char *text = len < 0 ? NULL : malloc((size_t)len + 1);
    if (text)
        vsnprintf(text, (size_t)len + 1, fmt, again);
    va_end(again);
    if (!text)
        d->failed = 1;
    return text;
}

static struct doc_block *new_block(struct doc *d, enum doc_kind kind)
{
    if (d->failed)
        return NULL;
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 32;
        struct doc_block *b = realloc(d->blocks, cap * sizeof *b);
        if (!b) {
            d->failed = 1;
            return NULL;
        }
        d->blocks = b;
        d->cap = cap;
    }
    struct doc_block *b = &d->blocks[d->n++];
    memset(b, 0, sizeof *b);
    b->kind = kind;
    return b;
}

static void text_block(struct doc *d, enum doc_kind kind, int level, const char *fmt, va_list ap)
{
    struct doc_block *b = new_block(d, kind);
    if (!b)
        return;
    b->level = level;
    b->text = vformat(d, fmt, ap);
}

void doc_heading(struct doc *d, int level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    text_block(d, DOC_HEADING, level, fmt, ap);
    va_end(ap);
}

void doc_text(struct doc *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    text_block(d, DOC_TEXT, 0, fmt, ap);
    va_end(ap);
}

void doc_picture(struct doc *d, const char *file, const char *note)
{
    struct doc_block *b = new_block(d, DOC_PICTURE);
    if (b && (!(b->text = strdup(file)) || (note && note[0] && !(b->note = strdup(note)))))
        d->failed = 1;
}

void doc_contents(struct doc *d)
{
    new_block(d, DOC_CONTENTS);
}

void doc_anchor(const char *heading, char *out, size_t size)
{
    size_t n = 0;
    for (const char *c = heading; *c && n + 1 < size; c++) {
        unsigned char u = (unsigned char)*c;
        if (u >= 'A' && u <= 'Z')
            out[n++] = (char)(u - 'A' + 'a');
        else if ((u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || u == '-' || u == '_')
            out[n++] = (char)u;
        else if (u == ' ')
            out[n++] = '-';
    }
    out[n] = '\0';
}

void doc_table(struct doc *d, size_t cols)
{
    struct doc_block *b = new_block(d, DOC_TABLE);
    if (b)
        b->cols = cols;
}

void doc_units_by_row(struct doc *d)
{
    if (!d->failed && d->n && d->blocks[d->n - 1].kind == DOC_TABLE)
        d->blocks[d->n - 1].units_by = UNITS_BY_ROW;
}

void doc_mark(struct doc *d, enum doc_mark mark)
{
    if (d->failed || !d->n || d->blocks[d->n - 1].kind != DOC_TABLE)
        return;
    struct doc_block *t = &d->blocks[d->n - 1];
    if (t->n_cells > t->cols)
        t->cells[t->n_cells - 1].mark = mark;
}

void doc_cell(struct doc *d, double key, const char *fmt, ...)
{
    if (d->failed || !d->n || d->blocks[d->n - 1].kind != DOC_TABLE)
        return;
    struct doc_block *t = &d->blocks[d->n - 1];
    if (t->n_cells == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        struct doc_cell *c = realloc(t->cells, cap * sizeof *c);
        if (!c) {
            d->failed = 1;
            return;
        }
        t->cells = c;
        t->cap = cap;
    }
    va_list ap;
    va_start(ap, fmt);
    char *text = vformat(d, fmt, ap);
    va_end(ap);
    if (text)
        t->cells[t->n_cells++] = (struct doc_cell){.text = text, .key = key};
}

void doc_metric(struct doc *d, double key, double metric, const char *unit, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *suffix = vformat(d, fmt, ap);
    va_end(ap);
    if (!suffix)
        return;
    size_t before = d->n ? d->blocks[d->n - 1].n_cells : 0;
    doc_cell(d, key, "%s", "");
    struct doc_block *t = d->n ? &d->blocks[d->n - 1] : NULL;
    if (!t || t->kind != DOC_TABLE || t->n_cells == before) {
        free(suffix);
        return;
    }
    struct doc_cell *c = &t->cells[t->n_cells - 1];
    const char *rest;
    int e = clmem_unit_prefix(unit, &rest);
    if (strcmp(rest, "launch/s") == 0) {
        /* A rate of launches: the time of one, lower being better. */
        c->metric = metric > 0 ? 1e6 / (metric * pow(1000, e)) : NAN;
        snprintf(c->unit, sizeof c->unit, "%s", "\u00b5s");
    } else {
        c->metric = metric;
        snprintf(c->unit, sizeof c->unit, "%s", unit);
    }
    c->suffix = suffix;
}

/* The prefix of the cells of unit `rest` (without its prefix) in cell i's
 * column (by column: the one its largest value calls for) or row (by
 * row: the one that reads both its ends best: 444 GB/s beside 0.57 GB/s,
 * 63.9 TFLOP/s beside 0.12 TFLOP/s, never 0.0016 TB/s). */
static int group_exponent(const struct doc_block *t, size_t i, const char *rest)
{
    int by_row = t->units_by == UNITS_BY_ROW;
    size_t first = by_row ? i - i % t->cols : t->cols + i % t->cols;
    size_t end = by_row ? first + t->cols : t->n_cells, step = by_row ? 1 : t->cols;
    double smallest = 0, largest = 0;
    for (size_t k = first; k < end && k < t->n_cells; k += step) {
        const struct doc_cell *c = &t->cells[k];
        const char *r;
        if (!c->suffix || !isfinite(c->metric) || c->metric == 0)
            continue;
        int e = clmem_unit_prefix(c->unit, &r);
        double v = fabs(c->metric) * pow(1000, e);
        if (strcmp(r, rest) != 0)
            continue;
        smallest = smallest == 0 ? v : fmin(smallest, v);
        largest = fmax(largest, v);
    }
    if (largest == 0)
        return -100; /* none: each cell its own */
    char unit[20];
    snprintf(unit, sizeof unit, "G%s", rest); /* in base units, as G... */
    if (!by_row)
        return clmem_unit_choose(largest / 1e9, unit);
    /* The prefix that keeps both ends readable: the fewest digits past
     * four before the point on the largest, and the fewest zeros after
     * it on the smallest, the larger prefix among equals. */
    int best = clmem_unit_choose(largest / 1e9, unit);
    double best_cost = INFINITY;
    for (int e = 6; e >= 0; e--) {
        double big = log10(largest / pow(1000, e)), small = log10(smallest / pow(1000, e));
        double cost = fmax(fmax(0, big - 3), fmax(0, -small));
        if (cost < best_cost - 1e-9) {
            best_cost = cost;
            best = e;
        }
    }
    return best;
}

/* `value` in `unit` written with the prefix of power `e` (0: none):
 * three significant digits from 1 up, two below (0.10, 0.043). */
static void format_in(double value, const char *unit, int e, char *out, size_t size)
{
    const char *rest;
    int base = clmem_unit_prefix(unit, &rest);
    double m = fabs(value) * pow(1000, base - e);
    char prefix[2] = {e > 0 && e <= 6 ? "kMGTPE"[e - 1] : '\0', '\0'};
    snprintf(out, size,
             m >= 99.95 || m == 0 ? "%s%.0f %s%s"
             : m >= 9.995         ? "%s%.1f %s%s"
             : m >= 0.9995        ? "%s%.2f %s%s"
                                  : "%s%#.2g %s%s",
             value < 0 ? "-" : "", m, prefix, rest);
}

/* A figure of five digits or more before its point grouped by threes
 * with narrow no-break spaces (48 729 GFLOP/s), as a row's unit can call
 * for beside a smaller figure. */
static void group_digits(char *value, size_t size)
{
    static const char gap[] = "\u202f";
    size_t digits = strspn(value + (value[0] == '-'), "0123456789");
    size_t start = value[0] == '-';
    if (digits < 5)
        return;
    char out[128];
    size_t n = 0;
    for (size_t i = 0; value[i] && n + sizeof gap < sizeof out; i++) {
        if (i > start && i < start + digits && (start + digits - i) % 3 == 0) {
            memcpy(out + n, gap, sizeof gap - 1);
            n += sizeof gap - 1;
        }
        out[n++] = value[i];
    }
    out[n] = '\0';
    if (n < size)
        memcpy(value, out, n + 1);
}

void doc_units(struct doc *d)
{
    for (size_t b = 0; b < d->n && !d->failed; b++) {
        struct doc_block *t = &d->blocks[b];
        if (t->kind != DOC_TABLE || !t->cols)
            continue;
        for (size_t i = t->cols; i < t->n_cells; i++) {
            struct doc_cell *c = &t->cells[i];
            if (!c->suffix)
                continue;
            const char *rest;
            char value[64];
            int own = clmem_unit_prefix(c->unit, &rest);
            int e = own ? group_exponent(t, i, rest) : 0;
            if (own && e != -100 && isfinite(c->metric))
                format_in(c->metric, c->unit, e, value, sizeof value);
            else if (isfinite(c->metric) && c->metric >= 0 && !own)
                snprintf(value, sizeof value,
                         c->metric >= 99.95   ? "%.0f %s"
                         : c->metric >= 9.995 ? "%.1f %s"
                                              : "%.2f %s",
                         c->metric, c->unit); /* no prefix: 1658 µs, never 1.66e+03 µs */
            else
                clmem_format_metric(c->metric, c->unit, value, sizeof value);
            group_digits(value, sizeof value);
            size_t len = strlen(value) + strlen(c->suffix) + 1;
            char *text = malloc(len);
            if (!text) {
                d->failed = 1;
                return;
            }
            snprintf(text, len, "%s%s", value, c->suffix);
            free(c->text);
            c->text = text;
        }
    }
}

void doc_free(struct doc *d)
{
    for (size_t i = 0; i < d->n; i++) {
        free(d->blocks[i].text);
        free(d->blocks[i].note);
        for (size_t c = 0; c < d->blocks[i].n_cells; c++) {
            free(d->blocks[i].cells[c].text);
            free(d->blocks[i].cells[c].suffix);
        }
        free(d->blocks[i].cells);
    }
    free(d->blocks);
    memset(d, 0, sizeof *d);
}
