#!/usr/bin/env python3
"""clmem's power over each metered span beside nvidia-smi's samples inside
that span: summary.py OUTDIR NAME... (run.sh's files NAME.json, NAME.err,
NAME-smi.csv)."""
import datetime
import json
import re
import statistics
import sys

out, names = sys.argv[1], sys.argv[2:]
SPAN = re.compile(r"clmem: energy: (\S+) (\S+): nvml ([\d.e+-]+) J over ([\d.e+-]+) s "
                  r"\(Unix time ([\d.]+) to ([\d.]+)\), (\d+) runs")
NA = re.compile(r"clmem: energy: (\S+) (\S+): n/a: (.*)")
BUS = re.compile(r"NVML's total energy of '.*' \(([0-9A-Fa-f:.]+)\)")


def smi_samples(path):
    """(unix time, bus id, power.draw, power.draw.instant or None) of each line."""
    rows = []
    with open(path) as f:
        for line in f:
            parts = [p.strip() for p in line.split(",")]
            if len(parts) < 3:
                continue
            try:
                when = datetime.datetime.strptime(parts[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
                draw = float(parts[2])
                instant = float(parts[3]) if len(parts) > 3 else None
            except ValueError:
                continue
            rows.append((when, parts[1].lower(), draw, instant))
    return rows


def mean(values):
    return statistics.fmean(values) if values else float("nan")


print(f"{'run':<30} {'clmem W':>9} {'smi W':>9} {'smi inst W':>10} {'n':>4} {'ratio':>6} "
      f"{'J/run':>10} {'per J':>16} {'span s':>7}")
for name in names:
    try:
        with open(f"{out}/{name}.json") as f:
            doc = json.load(f)
        with open(f"{out}/{name}.err") as f:
            err = f.read()
    except (OSError, ValueError) as e:
        print(f"{name}: no report ({e})")
        continue
    bus = BUS.search(err)
    rows = smi_samples(f"{out}/{name}-smi.csv")
    if bus:
        rows = [r for r in rows if r[1] == bus.group(1).lower()] or rows
    spans = {(m[1], m[2]): m for m in SPAN.finditer(err)}
    for r in doc.get("results", []):
        label = f"{name} {r['variant']}"
        e = r.get("energy", {})
        if "na" in e or not e:
            print(f"{label:<30} n/a: {e.get('na', 'no energy object')}")
            continue
        m = spans.get((r["workload"], r["variant"]))
        inside = [x for x in rows if m and float(m[5]) <= x[0] <= float(m[6])]
        draw = mean([x[2] for x in inside])
        instant = mean([x[3] for x in inside if x[3] is not None])
        per_joule = f"{e['efficiency']:.4g} {e['efficiency_unit']}" if "efficiency" in e else "-"
        print(f"{label:<30} {e['power_w']:9.1f} {draw:9.1f} {instant:10.1f} {len(inside):4d} "
              f"{e['power_w'] / draw if draw else float('nan'):6.3f} {e['energy_j']:10.4g} "
              f"{per_joule:>16} {e['span_s']:7.3f}")
