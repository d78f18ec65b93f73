#!/usr/bin/env python3
"""run.sh's outputs as a table: per matmul shape auto's GFLOP/s with the
shipped rows and as the unknown device, cuBLAS's, and their ratios; the
quantiles the goals name (min, 10th percentile, median of shipped / cuBLAS);
per stencil each variant's fraction of its copy peak both ways.
Usage: summary.py OUTDIR (writes OUTDIR/table.csv, prints the summary)."""
import csv
import glob
import json
import os
import statistics
import sys

out = sys.argv[1]


def results(path):
    try:
        with open(path) as f:
            return json.load(f)["results"]
    except (OSError, ValueError, KeyError):
        return None


def auto_gflops(label):
    r = results(os.path.join(out, label + ".json"))
    ok = [x for x in r or [] if x.get("status") == "ok"]
    return (ok[0]["metric"], ok[0].get("note", "")) if ok else (None, "")


cublas = {}
with open(os.path.join(out, "cublas.csv")) as f:
    for row in csv.DictReader(f):
        cublas[row["size"]] = float(row["gflops"])

# The unknown device before a fit (run.sh: generic-) or after one (fit.sh:
# fitted-), whichever the folder holds.
other = "fitted" if glob.glob(os.path.join(out, "fitted-*.json")) else "generic"
rows = []
for size, cu in cublas.items():
    shipped, note = auto_gflops("shipped-matmul-" + size)
    generic, _ = auto_gflops(other + "-matmul-" + size)
    rows.append((size, shipped, generic, cu, note))
with open(os.path.join(out, "table.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["size", "auto_shipped_gflops", f"auto_{other}_gflops", "cublas_gflops",
                "shipped_over_cublas", f"{other}_over_shipped", "auto_note"])
    for size, s, g, cu, note in rows:
        w.writerow([size, s or "", g or "", cu, f"{s / cu:.3f}" if s else "",
                    f"{g / s:.3f}" if s and g else "", note])


def quantile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * (len(values) - 1) + 0.5))]


ratios = [s / cu for _, s, _, cu, _ in rows if s]
print(f"matmul auto, shipped rows, over cuBLAS at {len(ratios)} shapes:", end=" ")
print("none" if not ratios else "", end="\n" if not ratios else "")
if ratios:
    print(f"min {min(ratios):.3f}, 10th percentile {quantile(ratios, 0.1):.3f}, "
          f"median {statistics.median(ratios):.3f}")
gen = [(size, g / s) for size, s, g, _, _ in rows if s and g]
if gen:
    print(f"unknown device (CLMEM_PARAMS_GENERIC=1{', fitted by clmem tune' if other == 'fitted' else ''}) over shipped at {len(gen)} shapes: "
          f"min {min(r for _, r in gen):.3f}, median {statistics.median(r for _, r in gen):.3f}")
    for size, r in gen:
        print(f"  {size}: {r:.3f}")
for path in sorted(glob.glob(os.path.join(out, "shipped-*.json"))):
    label = os.path.basename(path)[len("shipped-"):-len(".json")]
    if label.startswith("matmul-") and label != "matmul-8192":
        continue
    shipped = results(path) or []
    generic = results(os.path.join(out, other + "-" + label + ".json")) or []
    for r in shipped:
        if r.get("status") != "ok":
            continue
        g = [x for x in generic if x["variant"] == r["variant"] and x.get("status") == "ok"
             and x.get("sweep_value") == r.get("sweep_value")]
        gf = g[0] if g else None
        print(f"{label} {r['variant']}: shipped {r['metric']:.4g} {r['unit']} "
              f"({r.get('peak_fraction', float('nan')):.3f} of peak), unknown device "
              + (f"{gf['metric']:.4g} ({gf.get('peak_fraction', float('nan')):.3f}), "
                 f"{gf['metric'] / r['metric']:.3f} of shipped" if gf else "none"))
