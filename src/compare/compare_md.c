/* The comparison document as Markdown (report.md). Text from files (device
 * names, paths) is escaped so it can neither break a table (|) nor become
 * HTML (<, >, &) or a link ([, ]) where the Markdown is rendered. */
#include "compare/model.h"

#include <string.h>

static void md_text(FILE *out, const char *text, int in_table)
{
    for (const char *c = text; *c; c++) {
        switch (*c) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '\\': fputs("\\\\", out); break;
        case '|': fputs(in_table ? "\\|" : "|", out); break;
        /* No link or image ([text](url), ![x](y)) made of a name. */
        case '[': fputs("\\[", out); break;
        case ']': fputs("\\]", out); break;
        case '\n': fputc(' ', out); break;
        default: {
            /* Control characters escaped as in every table (base/text.c). */
            size_t n = strcspn(c, "<>&\\|\n[]");
            clmem_fwrite_escaped(c, n, out);
            c += n - 1;
        }
        }
    }
}

static void md_table(FILE *out, const struct doc_block *t)
{
    if (!t->cols)
        return;
    for (size_t i = 0; i < t->n_cells; i++) {
        size_t col = i % t->cols;
        fputs(col ? " " : "| ", out);
        md_text(out, t->cells[i].text, 1);
        fputs(" |", out);
        if (col + 1 == t->cols) {
            fputc('\n', out);
            if (i + 1 == t->cols) { /* after the header row */
                fputc('|', out);
                for (size_t c = 0; c < t->cols; c++)
                    fputs(" --- |", out);
                fputc('\n', out);
            }
        }
    }
}

/* The level-2 headings as one line of links to them. */
static void md_contents(FILE *out, const struct doc *d)
{
    char anchor[256];
    size_t n = 0;
    fputs("Contents:", out);
    for (size_t i = 0; i < d->n; i++) {
        const struct doc_block *b = &d->blocks[i];
        if (b->kind != DOC_HEADING || b->level != 2)
            continue;
        doc_anchor(b->text, anchor, sizeof anchor);
        fputs(n++ ? " \u00b7 [" : " [", out);
        md_text(out, b->text, 0);
        fprintf(out, "](#%s)", anchor);
    }
    fputc('\n', out);
}

void compare_md_write(FILE *out, const struct doc *d)
{
    for (size_t i = 0; i < d->n; i++) {
        const struct doc_block *b = &d->blocks[i];
        if (i)
            fputc('\n', out);
        switch (b->kind) {
        case DOC_HEADING:
            for (int l = 0; l < b->level; l++)
                fputc('#', out);
            fputc(' ', out);
            md_text(out, b->text, 0);
            fputc('\n', out);
            break;
        case DOC_TEXT:
            md_text(out, b->text, 0);
            fputc('\n', out);
            break;
        case DOC_PICTURE:
            /* plots.c makes the file names of letters, digits, - and _
             * (transpose.svg, roofline-0.svg): nothing to escape. */
            fprintf(out, "![%s](%s)\n", b->text, b->text);
            if (b->note) {
                fputc('\n', out);
                md_text(out, b->note, 0);
                fputc('\n', out);
            }
            break;
        case DOC_CONTENTS: md_contents(out, d); break;
        case DOC_TABLE: md_table(out, b); break;
        }
    }
}
