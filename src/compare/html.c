/* The comparison document as one self-contained page (report.html): its
 * style inline, the pictures gnuplot drew put in as <svg> elements, no
 * reference to anything outside (no script or image sources, links,
 * fonts or url(...)). Tables sort when their heading is clicked, by a
 * small inline script; the page reads the same without it. Every text
 * from files is escaped. */
#include "compare/model.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void esc(FILE *out, const char *text)
{
    for (const char *c = text; *c; c++) {
        switch (*c) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        case '\n': fputs("<br>", out); break;
        default: fputc(*c, out);
        }
    }
}

/* The page fits its window at any width: it never scrolls sideways; a
 * table wider than the window scrolls inside its own box (div.scroll),
 * and so does a picture, which scales down only as far as keeps its
 * labels 10 px high (gnuplot's 13-point text on pictures at most 900 wide:
 * 44em), long names break. */
static const char style[] =
    "html{-webkit-text-size-adjust:100%}\n"
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:1em auto;"
    "max-width:100em;padding:0 1em;color:#222;line-height:1.4}\n"
    "h1,h2,h3,p,figcaption{overflow-wrap:anywhere}\n"
    "h1{font-size:1.6em;margin:0.3em 0}\n"
    "h1,h2,h3{line-height:1.2}h2{margin-top:1.6em;border-bottom:1px solid #ccc}\n"
    "nav.contents{font-size:0.9em;margin:0.4em 0 0.8em}\n"
    "nav.contents a{margin-right:0.9em;white-space:nowrap}\n"
    ".scroll{overflow-x:auto;max-width:100%;margin:0.8em 0}\n"
    "table{border-collapse:collapse;font-size:0.85em}\n"
    "th,td{border:1px solid #ccc;padding:0.2em 0.45em;text-align:left;vertical-align:top}\n"
    "th{background:#f0f0f0;min-width:6em;max-width:11em;font-weight:600}\n"
    "td[data-v]{text-align:right;white-space:nowrap}\n"
    "tbody tr{background:#fff}tbody tr:nth-child(even){background:#f7f7f7}\n"
    /* The first column stays in view while a wide table scrolls. */
    "th:first-child,td:first-child{position:sticky;left:0;z-index:1;background:inherit;"
    "max-width:18em;box-shadow:1px 0 0 #bbb}\n"
    "thead th:first-child{background:#f0f0f0}\n"
    "td.better{background:#dff0d8}td.worse{background:#fbe3d6}\n"
    "td.failed{background:#f2b8b5;color:#7a0000;font-weight:600}\n"
    "td.base{background:#e8eef7}\n"
    "table.sortable th{cursor:pointer}\n"
    /* Pictures side by side where the window is wide enough. */
    ".figures{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,45em),1fr));"
    "gap:1em;margin:1em 0}\n"
    "figure{margin:0;max-width:100%;min-width:0;overflow-x:auto}"
    "svg{max-width:100%;min-width:44em;height:auto;display:block}\n"
    "figure.wide svg{width:100%}\n"
    "figcaption,.note{color:#555;font-size:0.9em}\n"
    "@media (max-width:40em){body{padding:0 0.5em}th{min-width:5em}"
    "th:first-child,td:first-child{max-width:9em}}\n";

/* Sorting by a column: its cells' data-v where they have one (numbers),
 * else their text; a second click reverses. */
static const char script[] =
    "(function () {\n"
    "  var tables = document.querySelectorAll('table.sortable');\n"
    "  Array.prototype.forEach.call(tables, function (table) {\n"
    "    var head = table.tHead ? table.tHead.rows[0].cells : [];\n"
    "    Array.prototype.forEach.call(head, function (th, col) {\n"
    "      th.title = 'sort by this column';\n"
    "      th.addEventListener('click', function () {\n"
    "        var body = table.tBodies[0];\n"
    "        var rows = Array.prototype.slice.call(body.rows);\n"
    "        var dir = th.getAttribute('data-dir') === 'up' ? -1 : 1;\n"
    "        rows.sort(function (a, b) {\n"
    "          var x = a.cells[col], y = b.cells[col];\n"
    "          var kx = x ? x.getAttribute('data-v') : null;\n"
    "          var ky = y ? y.getAttribute('data-v') : null;\n"
    "          if (kx !== null && ky !== null) return dir * (parseFloat(kx) - parseFloat(ky));\n"
    "          if (kx !== null) return -1;\n"
    "          if (ky !== null) return 1;\n"
    "          return dir * (x ? x.textContent : '').localeCompare(y ? y.textContent : '');\n"
    "        });\n"
    "        rows.forEach(function (r) { body.appendChild(r); });\n"
    "        th.setAttribute('data-dir', dir > 0 ? 'up' : 'down');\n"
    "      });\n"
    "    });\n"
    "  });\n"
    "})();\n";

static void html_table(FILE *out, const struct doc_block *t)
{
    if (!t->cols)
        return;
    fputs("<div class=\"scroll\">\n<table class=\"sortable\">\n<thead>\n", out);
    for (size_t i = 0; i < t->n_cells; i++) {
        size_t col = i % t->cols;
        int head = i < t->cols;
        if (col == 0)
            fputs("<tr>", out);
        static const char *const classes[] = {[MARK_NONE] = "",
                                              [MARK_BETTER] = " class=\"better\"",
                                              [MARK_WORSE] = " class=\"worse\"",
                                              [MARK_FAILED] = " class=\"failed\"",
                                              [MARK_BASE] = " class=\"base\""};
        const char *cls = classes[t->cells[i].mark];
        if (head) {
            fputs("<th>", out);
        } else if (t->cells[i].key == t->cells[i].key) { /* not NAN */
            fprintf(out, "<td%s data-v=\"%.17g\">", cls, t->cells[i].key);
        } else {
            fprintf(out, "<td%s>", cls);
        }
        esc(out, t->cells[i].text);
        fputs(head ? "</th>" : "</td>", out);
        if (col + 1 == t->cols) {
            fputs("</tr>\n", out);
            if (i + 1 == t->cols)
                fputs("</thead>\n<tbody>\n", out);
        }
    }
    if (t->n_cells < t->cols) /* a header never finished */
        fputs("</tr>\n</thead>\n<tbody>\n", out);
    fputs("</tbody>\n</table>\n</div>\n", out);
}

/* Reads a whole file (at most 64 MiB); NULL and errno on failure. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t len = 0, cap = 65536;
    char *buf = malloc(cap);
    while (buf) {
        len += fread(buf + len, 1, cap - len - 1, f);
        if (ferror(f) || feof(f))
            break;
        if (cap >= (64u << 20)) {
            errno = EFBIG;
            free(buf);
            buf = NULL;
            break;
        }
        char *more = realloc(buf, cap * 2);
        if (!more) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = more;
        cap *= 2;
    }
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
        errno = EIO;
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* What in an SVG would reach outside the page: a reference that is not to
 * one of its own elements (#id), a source, a style import. NULL when none. */
static const char *outside_reference(const char *svg)
{
    for (const char *c = svg; *c; c++) {
        if (starts(c, "href=") && !(c[5] && c[6] == '#'))
            return "a reference (href) to another file";
        if (starts(c, "url(") && c[4] != '#')
            return "a url(...) to another file";
        if (starts(c, "src=") || starts(c, "@import") || starts(c, "<script") || starts(c, "<link"))
            return "a script, import or link";
    }
    return NULL;
}

/* Writes gnuplot's SVG as an element of the page: without its XML
 * prologue and doctype (everything before <svg), its ids and the
 * references to them prefixed with `prefix` so that several pictures'
 * point symbols (gpPt0, ...) do not clash. */
static void inline_svg(FILE *out, const char *svg, const char *prefix)
{
    const char *end = strstr(svg, "</svg>");
    size_t len = end ? (size_t)(end - svg) + 6 : strlen(svg);
    for (size_t i = 0; i < len; i++) {
        const char *c = svg + i;
        static const char *const marks[] = {"id='", "id=\"", "href='#", "href=\"#", "url(#"};
        size_t m = 0;
        while (m < CLMEM_ARRAY_SIZE(marks) && !starts(c, marks[m]))
            m++;
        /* An id attribute, not the end of another attribute's name. */
        int is_id = m<2, after_space = i> 0 && isspace((unsigned char)svg[i - 1]);
        if (m < CLMEM_ARRAY_SIZE(marks) && (!is_id || after_space)) {
            fputs(marks[m], out);
            fputs(prefix, out);
            i += strlen(marks[m]) - 1;
            continue;
        }
        fputc(*c, out);
    }
    fputc('\n', out);
}

static void html_picture(FILE *out, const char *dir, const char *file, const char *note,
                         size_t index)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    char *svg = slurp(path);
    const char *start = svg ? strstr(svg, "<svg") : NULL;
    const char *why = NULL;
    fputs("<figure class=\"wide\">\n", out);
    if (!svg) {
        fputs("<p class=\"note\">picture ", out);
        esc(out, file);
        fprintf(out, " could not be read: %s</p>\n", strerror(errno));
    } else if (!start || !strstr(start, "</svg>")) {
        fputs("<p class=\"note\">picture ", out);
        esc(out, file);
        fputs(" left out: it is not a whole SVG</p>\n", out);
    } else if ((why = outside_reference(start))) {
        fputs("<p class=\"note\">picture ", out);
        esc(out, file);
        fprintf(out, " left out: it holds %s</p>\n", why);
    } else {
        char prefix[32];
        snprintf(prefix, sizeof prefix, "p%zu-", index);
        inline_svg(out, start, prefix);
    }
    fputs("<figcaption>", out);
    if (note) {
        esc(out, note);
        fputs(" (", out);
        esc(out, file);
        fputs(")", out);
    } else {
        esc(out, file);
    }
    fputs("</figcaption>\n</figure>\n", out);
    free(svg);
}

void compare_html_write(FILE *out, const struct doc *d, const char *dir)
{
    const char *title = "clmem comparison";
    for (size_t i = 0; i < d->n; i++)
        if (d->blocks[i].kind == DOC_HEADING && d->blocks[i].level == 1) {
            title = d->blocks[i].text;
            break;
        }
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
          out);
    esc(out, title);
    fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", style);
    size_t pictures = 0;
    char anchor[256];
    for (size_t i = 0; i < d->n; i++) {
        const struct doc_block *b = &d->blocks[i];
        /* Consecutive pictures share a grid. */
        int first = b->kind == DOC_PICTURE && (i == 0 || d->blocks[i - 1].kind != DOC_PICTURE);
        int last =
            b->kind == DOC_PICTURE && (i + 1 == d->n || d->blocks[i + 1].kind != DOC_PICTURE);
        if (first)
            fputs("<div class=\"figures\">\n", out);
        switch (b->kind) {
        case DOC_HEADING: {
            int level = b->level < 1 ? 1 : b->level > 6 ? 6 : b->level;
            doc_anchor(b->text, anchor, sizeof anchor);
            fprintf(out, "<h%d id=\"%s\">", level, anchor);
            esc(out, b->text);
            fprintf(out, "</h%d>\n", level);
            break;
        }
        case DOC_CONTENTS:
            fputs("<nav class=\"contents\">", out);
            for (size_t h = 0; h < d->n; h++) {
                if (d->blocks[h].kind != DOC_HEADING || d->blocks[h].level != 2)
                    continue;
                doc_anchor(d->blocks[h].text, anchor, sizeof anchor);
                fprintf(out, "<a href=\"#%s\">", anchor);
                esc(out, d->blocks[h].text);
                fputs("</a> ", out);
            }
            fputs("</nav>\n", out);
            break;
        case DOC_TEXT:
            fputs("<p>", out);
            esc(out, b->text);
            fputs("</p>\n", out);
            break;
        case DOC_PICTURE: html_picture(out, dir, b->text, b->note, pictures++); break;
        case DOC_TABLE: html_table(out, b); break;
        }
        if (last)
            fputs("</div>\n", out);
    }
    fprintf(out, "<script>\n%s</script>\n</body>\n</html>\n", script);
}
