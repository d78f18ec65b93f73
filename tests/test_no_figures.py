#!/usr/bin/env python3
"""The code holds no device names and no measured figures (issue 56): what
was measured, when and on which GPU lives in the parameter database's
provenance (data/params/), bench/ and CHANGELOG.md. Fails, listing each
line, where src/ or cl/ names a GPU model or family, or gives a figure of
speed (a number with a rate unit, a decimal speed-up, a share of a
library's or a peak's speed, a percentage faster or slower).

Usage: test_no_figures.py SOURCE_ROOT

Each exception below names its file, a part of the line it allows and why;
an exception that no line uses any more fails the test too, so the list
stays true."""
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from source_files import source_files  # noqa: E402 (after the line above)

NAMES = re.compile(
    r"\b(H100|H200|H800|A100|A800|V100|P100|T4|A10G?|L4|L40S?|GH200|GB200|B100|B200"
    r"|RTX ?[0-9]{3,4}|GTX ?[0-9]{3,4}|Quadro|Tesla|sm_[0-9]{2,3}[a-z]?|gfx[0-9]{3,4}[a-z]?"
    r"|MI ?[0-9]{2,3}[AX]?|Radeon|Instinct|Hopper|Ampere|Volta|Blackwell|Lovelace"
    r"|Ponte Vecchio|Max 1550|Iris Xe)\b")
FIGURES = re.compile(
    r"[0-9][0-9.]* ?[kKMGTP]?(FLOP|B|byte|sample)s?/[sJ]\b"  # 48.7 TFLOP/s, 3 TB/s, 80 GFLOP/J
    r"|\b[0-9]+\.[0-9]+x\b"  # 1.06x
    r"|\b[0-9.]+x (faster|slower|as fast)"  # 2x faster
    r"|\b[0-9]\.[0-9]+ of (cuBLAS|CLBlast|OpenBLAS|the copy peak|its peak)"  # 0.92 of cuBLAS
    r"|[0-9]+% (faster|slower|below|above)")  # 7% below

# (file, a part of the line, why it may stay)
EXCEPTIONS = [
    ("src/report/table.c", "48.7 TFLOP/s", "how a value is printed, its unit scaled: an example"),
    ("src/report/model.h", "48.7 TFLOP/s", "how a value is printed: an example"),
    ("src/report/units.c", "48.7 TFLOP/s", "how a value is printed: an example"),
    ("src/report/units.c", "0.5 GB/s", "how a value is rescaled: an example"),
    ("src/report/units.c", "500 MB/s", "how a value is rescaled: an example"),
    ("src/compare/doc.c", "444 GB/s", "how a row's unit is chosen: an example"),
    ("src/compare/doc.c", "63.9 TFLOP/s", "how a row's unit is chosen: an example"),
    ("src/compare/doc.c", "48 729 GFLOP/s", "how digits are grouped: an example"),
    ("src/compare/plotter.c", "2 TB/s", "how an axis is labelled: an example"),
    ("src/compare/model.h", "1.93 GB/s", "how a column's unit is chosen: an example"),
    ("src/compare/model.h", "2.55 GB/s", "how a column's unit is chosen: an example"),
    ("src/compare/model.h", "0.88 GB/s", "how a column's unit is chosen: an example"),
    ("src/cli/progress.h", "174 GFLOP/s", "the progress line's format: an example"),
    ("src/compare/summary.c", "above 1x faster", "what the geometric mean's ratio means"),
    ("src/report/diff_row.c", "NVIDIA H100 80GB HBM3",
     "how a run's label reads: an example of a name"),
    ("src/report/diff_table.c", "NVIDIA H100 80GB HBM3",
     "how a run file's device line reads: an example of a name"),
    ("src/compare/levels.c", "An H100's L2 is also its last",
     "the hierarchy report's own words, which its tests and docs quote"),
    ("src/compare/compare_doc.c", "4.95x", "a lesson line's format: an example"),
    ("src/compare/compare_doc.c", "above 1.05x", "the legend of the lessons' marks: thresholds"),
    ("src/compare/compare_doc.c", "0.95x)", "the legend of the lessons' marks: thresholds"),
    ("src/compare/lessons.h", '"2.23x"', "how a ratio is printed: an example"),
    ("src/compare/lessons.h", "2.2x VERSUS", "a lesson line's format: an example"),
    ("src/compare/model.h", '"1.83x its roof', "a roofline note's format: an example"),
    ("src/compare/model.h", '"2.23x"', "how a ratio is printed: an example"),
    ("src/compare/summary.c", "0.0027x", "how a ratio is printed: an example"),
    ("src/power/energy.c", "Volta or newer", "NVML's own statement of which GPUs count energy"),
    ("src/power/power.h", "Volta and newer", "which GPUs NVML counts energy on"),
    ("src/workloads/hierarchy.h", "1.2-1.4x past the size",
     "where a fitted slope's third lies, arithmetic rather than a measurement"),
]


def main():
    root = sys.argv[1]
    used = set()
    bad = []
    for rel, path in source_files(root):
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                for pattern, what in ((NAMES, "a device name"), (FIGURES, "a measured figure")):
                    m = pattern.search(line)
                    if not m:
                        continue
                    allowed = [i for i, (file, part, _) in enumerate(EXCEPTIONS)
                               if file == rel and part in line]
                    if allowed:
                        used.update(allowed)
                        continue
                    bad.append("%s:%d: %s ('%s'): %s" %
                               (rel, number, what, m.group(0), line.strip()))
    for line in bad:
        print(line)
    stale = [e for i, e in enumerate(EXCEPTIONS) if i not in used]
    for file, part, why in stale:
        print("no line of %s holds '%s' any more: remove its exception (%s)" % (file, part, why))
    if bad:
        print("%d line(s) of src/ or cl/ name a device or give a measured figure: the figures "
              "belong in data/params/ (provenance), bench/ and CHANGELOG.md, the comment says "
              "why the design is so" % len(bad))
    print("%d passed, %d failed" % (1 if not bad and not stale else 0,
                                    1 if bad or stale else 0))
    return 1 if bad or stale else 0


if __name__ == "__main__":
    sys.exit(main())
