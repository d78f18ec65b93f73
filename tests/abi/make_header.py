#!/usr/bin/env python3
"""clmem.h as another version of it would be, for tests/test_abi.c.

make_header.py IN OUT [--drop-last STRUCT:N]... [--append STRUCT:DECL]...

--drop-last removes a struct's last N fields (an older header: clmem.h's
structs only grow at their end), --append adds a field after its last (a
newer one). Made from the real header at build time, so the test follows
every field added there; a struct or field count not found is an error, so
that the test cannot quietly compare the header with itself.
"""
import re
import sys


def body_span(text, name):
    """Start and end of the body of `struct NAME {` ... `};` (column 0)."""
    m = re.search(r"^struct %s \{\n" % re.escape(name), text, re.M)
    if not m:
        sys.exit("make_header.py: no 'struct %s {' in the header" % name)
    end = text.find("\n};", m.end())
    if end < 0:
        sys.exit("make_header.py: struct %s has no closing '};'" % name)
    return m.end(), end + 1


def field_ends(body):
    """Offsets just past each field's ';', comments and parentheses skipped."""
    ends, depth, i = [], 0, 0
    while i < len(body):
        if body.startswith("/*", i):
            i = body.index("*/", i) + 2
            continue
        c = body[i]
        depth += c == "("
        depth -= c == ")"
        if c == ";" and depth == 0:
            ends.append(i + 1)
        i += 1
    return ends


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    text = open(argv[1]).read()
    args = argv[3:]
    while args:
        option, value = args[0], args[1]
        args = args[2:]
        name, _, what = value.partition(":")
        start, end = body_span(text, name)
        body = text[start:end]
        if option == "--drop-last":
            n = int(what)
            ends = field_ends(body)
            if n < 1 or n >= len(ends):
                sys.exit("make_header.py: struct %s has %d fields: cannot drop %d"
                         % (name, len(ends), n))
            body = body[:ends[-n - 1]] + "\n"
        elif option == "--append":
            body += "    %s\n" % what
        else:
            sys.exit("make_header.py: unknown option %s" % option)
        text = text[:start] + body + text[end:]
    open(argv[2], "w").write(text)


if __name__ == "__main__":
    main(sys.argv)
