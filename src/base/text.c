/* Text: matching device names and comma-separated lists, UTF-8, and
 * text made safe to show on a terminal. */
#include "base/base.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Case-insensitive substring search. */
int clmem_contains_nocase(const char *haystack, const char *needle)
{
    size_t n = strlen(needle);
    for (; *haystack; haystack++) {
        size_t i = 0;
        while (i < n && haystack[i] &&
               tolower((unsigned char)haystack[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return 1;
    }
    return n == 0;
}

/* Whether `name` is one of the comma-separated `list`. */
int clmem_list_has(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && strncmp(p, name, n) == 0)
            return 1;
        p = end ? end + 1 : NULL;
    }
    return 0;
}

size_t clmem_utf8_next(const char *text, size_t len, uint32_t *code_point)
{
    const unsigned char *s = (const unsigned char *)text;
    if (len == 0)
        return 0;
    if (s[0] < 0x80) {
        *code_point = s[0];
        return 1;
    }
    size_t n;
    uint32_t c, min;
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        n = 2, c = s[0] & 0x1f, min = 0x80;
    else if (s[0] >= 0xe0 && s[0] <= 0xef)
        n = 3, c = s[0] & 0x0f, min = 0x800;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4)
        n = 4, c = s[0] & 0x07, min = 0x10000;
    else
        return 0; /* a continuation byte, an overlong lead (C0, C1) or past U+10FFFF */
    if (len < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        c = c << 6 | (s[i] & 0x3f);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return 0;
    *code_point = c;
    return n;
}

int clmem_utf8_valid(const char *text, size_t len, size_t *bad_at)
{
    uint32_t c;
    for (size_t i = 0; i < len;) {
        size_t n = clmem_utf8_next(text + i, len - i, &c);
        if (n == 0) {
            if (bad_at)
                *bad_at = i;
            return 0;
        }
        i += n;
    }
    return 1;
}

static int continuation(char c)
{
    return ((unsigned char)c & 0xc0) == 0x80;
}

/* The length a lead byte announces (1 for a byte that leads nothing). */
static size_t announced(char c)
{
    unsigned char lead = (unsigned char)c;
    if (lead >= 0xf0 && lead <= 0xf4)
        return 4;
    if (lead >= 0xe0 && lead <= 0xef)
        return 3;
    return lead >= 0xc2 && lead <= 0xdf ? 2 : 1;
}

/* Where to cut the first `kept` bytes of a text that goes on past them:
 * before the character that begins in them and ends past them, if any. */
static size_t cut_before_partial(const char *text, size_t kept)
{
    size_t start = kept;
    while (start > 0 && kept - start < 3 && continuation(text[start - 1]))
        start--;
    if (start > 0 && !continuation(text[start - 1]) && announced(text[start - 1]) > 1 &&
        start - 1 + announced(text[start - 1]) > kept)
        return start - 1;
    return kept;
}

size_t clmem_utf8_cut(const char *text, size_t len, size_t max)
{
    if (len <= max)
        return len;
    return continuation(text[max]) ? cut_before_partial(text, max) : max;
}

size_t clmem_text_copy(char *out, size_t size, const char *text)
{
    if (size == 0)
        return 0;
    size_t n = clmem_utf8_cut(text, strlen(text), size - 1);
    memmove(out, text, n);
    out[n] = '\0';
    return n;
}

int clmem_text_format(char *out, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out, size, fmt, ap);
    va_end(ap);
    /* Cut short: what was lost is not known, only that something was. */
    if (n >= 0 && size > 0 && (size_t)n >= size)
        out[cut_before_partial(out, size - 1)] = '\0';
    return n;
}

/* How `text` (n bytes at most) shows: a character as it is, or an escape
 * in `esc`. Returns the bytes of text it stands for (at least 1). */
static size_t escape_one(const char *text, size_t n, char esc[8], const char **show,
                         size_t *show_len)
{
    uint32_t c;
    size_t used = clmem_utf8_next(text, n, &c);
    if (used == 0) {
        /* Not UTF-8: the byte, in hex. */
        snprintf(esc, 8, "\\x%02x", (unsigned char)text[0]);
        used = 1;
    } else if (c < 0x20 || c == 0x7f) {
        snprintf(esc, 8, "\\x%02x", (unsigned)c);
    } else if (c >= 0x80 && c <= 0x9f) {
        snprintf(esc, 8, "\\u%04x", (unsigned)c);
    } else {
        *show = text;
        *show_len = used;
        return used;
    }
    *show = esc;
    *show_len = strlen(esc);
    return used;
}

size_t clmem_text_escape(const char *text, char *out, size_t size)
{
    size_t len = strlen(text), at = 0;
    char esc[8];
    if (size == 0)
        return 0;
    for (size_t i = 0; i < len;) {
        const char *show;
        size_t show_len;
        i += escape_one(text + i, len - i, esc, &show, &show_len);
        /* Cut only between characters, never inside one or an escape. */
        if (at + show_len >= size)
            break;
        memcpy(out + at, show, show_len);
        at += show_len;
    }
    out[at] = '\0';
    return at;
}

int clmem_fwrite_escaped(const char *text, size_t len, FILE *out)
{
    char esc[8];
    for (size_t i = 0; i < len;) {
        const char *show;
        size_t show_len;
        i += escape_one(text + i, len - i, esc, &show, &show_len);
        if (fwrite(show, 1, show_len, out) != show_len)
            return EOF;
    }
    return 0;
}

int clmem_fputs_escaped(const char *text, FILE *out)
{
    return clmem_fwrite_escaped(text, strlen(text), out);
}
