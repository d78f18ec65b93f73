#!/usr/bin/env python3
"""No file of src/ or cl/ over MAX_LINES lines: a file that grows past it
holds more than one concern and is split by concern, with a private header
where its parts share types (matmul_internal.h, summa_internal.h). Fails,
listing each file and its length, where one is longer.

Usage: test_file_sizes.py SOURCE_ROOT

Each exception below names a file that is longer still and why it waits;
an exception whose file is no longer over the limit (or gone) fails the
test too, so the list only shrinks."""
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from source_files import source_files  # noqa: E402 (after the line above)

MAX_LINES = 800

# (file, why it may stay over the limit for now)
EXCEPTIONS = []


def main():
    root = sys.argv[1]
    allowed = dict(EXCEPTIONS)
    long_files = {}
    for rel, path in source_files(root):
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = sum(1 for _ in f)
        if lines > MAX_LINES:
            long_files[rel] = lines
    bad = sorted(f for f in long_files if f not in allowed)
    stale = [f for f, _ in EXCEPTIONS if f not in long_files]
    for f in bad:
        print("%s: %d lines, over %d: split it by concern" % (f, long_files[f], MAX_LINES))
    for f in stale:
        print("%s is no longer over %d lines: remove its exception (%s)" %
              (f, MAX_LINES, allowed[f]))
    failed = bool(bad or stale)
    print("%d passed, %d failed" % (0 if failed else 1, 1 if failed else 0))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
