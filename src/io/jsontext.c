/* JSON text checked before it is parsed (io.h): RFC 8259's grammar, which
 * cJSON reads loosely (a number "02", "1.", "+1"; text after the
 * document), and a bound on the values, each of which costs cJSON a node
 * of about 100 bytes: a 50 MB array of numbers would take 2 GB. */
#include "io/io.h"

#include <string.h>

/* cJSON's own nesting limit is 1000; this check recurses as deep. */
#define MAX_DEPTH 512

struct scan {
    const unsigned char *s;
    size_t len, at, values, max_values;
    int utf8, depth;
    struct clmem_json_check *out;
};

static int fault(struct scan *p, enum clmem_json_fault fault, const char *what)
{
    p->out->fault = fault;
    p->out->at = p->at;
    p->out->what = what;
    return -1;
}

/* Where the text ends too early: a truncated file. */
static int more(struct scan *p)
{
    return p->at < p->len ? 0 : fault(p, CLMEM_JSON_EARLY_END, "the JSON ends early");
}

static void blanks(struct scan *p)
{
    while (p->at < p->len && strchr(" \t\r\n", p->s[p->at]) && p->s[p->at])
        p->at++;
}

static int is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static int digits(struct scan *p)
{
    if (more(p))
        return -1;
    if (!is_digit(p->s[p->at]))
        return fault(p, CLMEM_JSON_SYNTAX, "");
    while (p->at < p->len && is_digit(p->s[p->at]))
        p->at++;
    return 0;
}

static int number(struct scan *p)
{
    if (p->s[p->at] == '-')
        p->at++;
    if (more(p))
        return -1;
    if (p->s[p->at] == '0') {
        p->at++;
        if (p->at < p->len && is_digit(p->s[p->at]))
            return fault(p, CLMEM_JSON_NUMBER, "a number with a leading zero");
    } else if (digits(p)) {
        return -1;
    }
    if (p->at < p->len && p->s[p->at] == '.') {
        p->at++;
        if (digits(p))
            return -1;
    }
    if (p->at < p->len && (p->s[p->at] == 'e' || p->s[p->at] == 'E')) {
        p->at++;
        if (p->at < p->len && (p->s[p->at] == '+' || p->s[p->at] == '-'))
            p->at++;
        if (digits(p))
            return -1;
    }
    return 0;
}

static int hex4(struct scan *p, unsigned *code)
{
    *code = 0;
    for (int i = 0; i < 4; i++, p->at++) {
        if (more(p))
            return -1;
        unsigned char c = p->s[p->at];
        unsigned v = is_digit(c)            ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                            : 16u;
        if (v == 16)
            return fault(p, CLMEM_JSON_SYNTAX, "");
        *code = *code << 4 | v;
    }
    return 0;
}

static int string(struct scan *p)
{
    p->at++; /* the opening quote */
    for (;;) {
        if (more(p))
            return -1;
        unsigned char c = p->s[p->at];
        if (c == '"') {
            p->at++;
            return 0;
        }
        if (c == '\0')
            return fault(p, CLMEM_JSON_NUL, "a NUL byte");
        if (c < 0x20)
            return fault(p, CLMEM_JSON_SYNTAX, "");
        if (c == '\\') {
            size_t start = p->at++;
            if (more(p))
                return -1;
            c = p->s[p->at];
            if (c != 'u') {
                if (!strchr("\"\\/bfnrt", c) || !c)
                    return fault(p, CLMEM_JSON_SYNTAX, "");
                p->at++;
                continue;
            }
            p->at++;
            unsigned code, low;
            if (hex4(p, &code))
                return -1;
            if (code >= 0xdc00 && code <= 0xdfff) {
                p->at = start;
                return fault(p, CLMEM_JSON_NOT_UTF8, "an unpaired surrogate");
            }
            if (code >= 0xd800 && code <= 0xdbff) {
                if (p->at + 1 >= p->len || p->s[p->at] != '\\' || p->s[p->at + 1] != 'u') {
                    p->at = start;
                    return fault(p, CLMEM_JSON_NOT_UTF8, "an unpaired surrogate");
                }
                p->at += 2;
                if (hex4(p, &low))
                    return -1;
                if (low < 0xdc00 || low > 0xdfff) {
                    p->at = start;
                    return fault(p, CLMEM_JSON_NOT_UTF8, "an unpaired surrogate");
                }
            }
            if (code == 0) {
                p->at = start;
                return fault(p, CLMEM_JSON_NUL, "a NUL character (\\u0000)");
            }
            continue;
        }
        if (c >= 0x80 && p->utf8) {
            uint32_t cp;
            size_t n = clmem_utf8_next((const char *)p->s + p->at, p->len - p->at, &cp);
            if (n == 0)
                return fault(p, CLMEM_JSON_NOT_UTF8, "a string that is not UTF-8");
            p->at += n;
            continue;
        }
        p->at++;
    }
}

static int literal(struct scan *p, const char *word)
{
    size_t n = strlen(word), left = p->len - p->at;
    if (memcmp(p->s + p->at, word, left < n ? left : n) != 0)
        return fault(p, CLMEM_JSON_SYNTAX, "");
    if (left < n) {
        p->at = p->len;
        return more(p);
    }
    p->at += n;
    return 0;
}

static int value(struct scan *p);

/* The fault of a character no rule expects here: a NUL byte is named. */
static int unexpected(struct scan *p)
{
    return p->s[p->at] ? fault(p, CLMEM_JSON_SYNTAX, "") : fault(p, CLMEM_JSON_NUL, "a NUL byte");
}

/* After blanks: 1 where the bracket `close` ends the object or array (it
 * is read), 0 where something else follows, -1 where the text ends. */
static int closes(struct scan *p, unsigned char close)
{
    blanks(p);
    if (more(p))
        return -1;
    if (p->s[p->at] != close)
        return 0;
    p->at++;
    p->depth--;
    return 1;
}

/* An object's or an array's members, from after its opening bracket. */
static int members(struct scan *p, int object)
{
    unsigned char close = object ? '}' : ']';
    if (++p->depth > MAX_DEPTH)
        return fault(p, CLMEM_JSON_TOO_DEEP, "nesting deeper than 512");
    p->at++;
    int end = closes(p, close);
    if (end)
        return end < 0 ? -1 : 0;
    for (;;) {
        if (object) {
            blanks(p);
            if (more(p))
                return -1;
            if (p->s[p->at] != '"')
                return unexpected(p);
            if (string(p))
                return -1;
            blanks(p);
            if (more(p))
                return -1;
            if (p->s[p->at] != ':')
                return fault(p, CLMEM_JSON_SYNTAX, "");
            p->at++;
        }
        if (value(p))
            return -1;
        if ((end = closes(p, close)))
            return end < 0 ? -1 : 0;
        if (p->s[p->at] != ',')
            return unexpected(p);
        p->at++;
    }
}

static int value(struct scan *p)
{
    blanks(p);
    if (more(p))
        return -1;
    if (++p->values > p->max_values)
        return fault(p, CLMEM_JSON_TOO_MANY, "too many values");
    unsigned char c = p->s[p->at];
    switch (c) {
    case '{': return members(p, 1);
    case '[': return members(p, 0);
    case '"': return string(p);
    case 't': return literal(p, "true");
    case 'f': return literal(p, "false");
    case 'n': return literal(p, "null");
    case '\0': return fault(p, CLMEM_JSON_NUL, "a NUL byte");
    default:
        if (c == '-' || is_digit(c))
            return number(p);
        return fault(p, CLMEM_JSON_SYNTAX, "");
    }
}

int clmem_json_check(const char *text, size_t len, int utf8, size_t max_values,
                     struct clmem_json_check *check)
{
    struct scan p = {(const unsigned char *)text, len, 0, 0, max_values, utf8, 0, check};
    memset(check, 0, sizeof *check);
    if (value(&p) == 0) {
        blanks(&p);
        if (p.at < p.len)
            fault(&p, CLMEM_JSON_TRAILING, "trailing data");
    }
    check->values = p.values;
    return check->fault == CLMEM_JSON_OK ? 0 : -1;
}
