#!/usr/bin/env python3
"""clmem's STREAM kernels against BabelStream's OpenCL model, from the files
scripts/bench_stream.sh writes (a folder, or its raw.tar.gz):

  clmem-N-rK-VARIANT.json   clmem run stream --variant VARIANT --size N --format json
  babel-N-rK.csv            babelstream-ocl --float -s N -n REPS --csv
  babel-N-rK-KERNEL.csv     the same with -o Kernel: one kernel a run

Like is compared with like: each side's fastest run. BabelStream's rate is
its fastest (min_runtime: its "MBytes/sec" column, the first run dropped);
clmem's is its fastest sample (min_ms). The medians (clmem) and averages
(BabelStream: it reports no median) are shown beside them. Both count
BabelStream's bytes (copy, mul, dot 2 arrays of N floats, add and triad 3):
each file's own figures are checked against them.

Usage: scripts/bench_stream_summary.py OUTDIR|raw.tar.gz
"""
import json
import os
import re
import sys
import tarfile
from collections import defaultdict

KERNELS = ("copy", "mul", "add", "triad", "dot")
# BabelStream's weights (benchmark.h): arrays of N elements moved a run.
WEIGHTS = {"copy": 2, "mul": 2, "add": 3, "triad": 3, "dot": 2, "nstream": 4}
# BabelStream's units (Unit.h), in bytes.
UNITS = {"MB": 1e6, "MiB": 2.0**20, "GB": 1e9, "GiB": 2.0**30, "TB": 1e12, "TiB": 2.0**40}
TOLERANCE = 0.05
FILE = re.compile(r"^(clmem|babel)-(\d+)-r(\d+)(?:-(\w+))?\.(json|csv)$")


def parse_babelstream(text):
    """BabelStream's --csv output: {'device', 'driver', 'kernels': {name: row}},
    each row's n, sizeof, num_times, min_s, max_s, avg_s, best_gbs (its
    fastest run) and avg_gbs. Its reported rate must agree with its fastest
    time at its byte count."""
    out = {"device": None, "driver": None, "kernels": {}}
    header = None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("Using OpenCL device "):
            out["device"] = line[len("Using OpenCL device ") :]
        elif line.startswith("Driver: "):
            out["driver"] = line[len("Driver: ") :]
        elif line.startswith("function,"):
            header = line.split(",")
        elif header and "," in line:
            row = dict(zip(header, line.split(",")))
            if len(row) != len(header) or len(line.split(",")) != len(header):
                raise ValueError(f"babelstream: a row of {len(line.split(','))} fields: {line!r}")
            out["kernels"][row["function"].lower()] = babel_row(row, header)
    if not out["kernels"]:
        raise ValueError("babelstream: no csv table (was it run with --csv?)")
    return out


def babel_row(row, header):
    name = row["function"].lower()
    rate_col = next((h for h in header if h.startswith("max_") and h.endswith("_per_sec")), None)
    if name not in WEIGHTS or rate_col is None:
        raise ValueError(f"babelstream: unknown kernel or rate column in {row}")
    unit = UNITS[rate_col[len("max_") : -len("_per_sec")]]
    n, size = int(row["n_elements"]), int(row["sizeof"])
    nbytes = WEIGHTS[name] * size * n
    min_s, max_s, avg_s = (float(row[k]) for k in ("min_runtime", "max_runtime", "avg_runtime"))
    best = nbytes / min_s
    reported = float(row[rate_col]) * unit
    # It prints 6 significant digits of each.
    if abs(reported - best) > 1e-4 * best:
        raise ValueError(f"babelstream: {name}'s rate {reported:g} B/s is not its bytes "
                         f"/ min_runtime, {best:g}")
    return {
        "n": n,
        "sizeof": size,
        "num_times": int(row["num_times"]),
        "bytes": nbytes,
        "min_s": min_s,
        "max_s": max_s,
        "avg_s": avg_s,
        "best_gbs": best / 1e9,
        "avg_gbs": nbytes / avg_s / 1e9,
    }


def parse_clmem(text):
    """clmem's run file: {variant: result} for the STREAM kernels, each with
    its n, bytes, best_gbs (from min_ms) and median_gbs. Its byte count (its
    metric times its median) must be BabelStream's."""
    out = {}
    for r in json.loads(text)["results"]:
        if r.get("workload") != "stream" or r.get("variant") not in KERNELS:
            continue
        if r.get("status") != "ok" or not r.get("verified"):
            raise ValueError(f"clmem: {r.get('variant')} did not run and verify: {r.get('status')}")
        name, n = r["variant"], int(r["size"])
        nbytes = WEIGHTS[name] * 4 * n
        counted = r["metric"] * 1e9 * r["median_ms"] * 1e-3
        if abs(counted - nbytes) > 1e-6 * nbytes:
            raise ValueError(f"clmem: {name} counts {counted:.0f} bytes, BabelStream {nbytes}")
        out[name] = {
            "n": n,
            "device": r["device"],
            "bytes": nbytes,
            "best_gbs": nbytes / (r["min_ms"] * 1e-3) / 1e9,
            "median_gbs": r["metric"],
            "timer": r.get("timer", ""),
        }
    return out


def verdict(clmem_gbs, babel_gbs, tolerance=TOLERANCE):
    """(ratio, word): clmem's rate over BabelStream's, 'within' when they are
    at most `tolerance` apart, else 'below' or 'above'."""
    ratio = clmem_gbs / babel_gbs
    if ratio < 1 - tolerance:
        return ratio, "below"
    if ratio > 1 + tolerance:
        return ratio, "above"
    return ratio, "within"


def read_files(path):
    """{name: text} of the folder's or tarball's run files."""
    files = {}
    if os.path.isdir(path):
        for name in sorted(os.listdir(path)):
            if FILE.match(name):
                with open(os.path.join(path, name), encoding="utf-8") as f:
                    files[name] = f.read()
    else:
        with tarfile.open(path) as tar:
            for m in tar.getmembers():
                name = os.path.basename(m.name)
                if m.isfile() and FILE.match(name):
                    files[name] = tar.extractfile(m).read().decode("utf-8")
    return files


def collect(files):
    """{n: {'clmem': {round: {kernel: row}}, 'babel': {round: parsed}}}"""
    runs = defaultdict(lambda: {"clmem": defaultdict(dict), "babel": {}, "babel_alone": False})
    for name, text in sorted(files.items()):
        tool, n, rnd, kernel, _ = FILE.match(name).groups()
        run = runs[int(n)]
        if tool == "clmem":
            run["clmem"][int(rnd)].update(parse_clmem(text))
            continue
        parsed = parse_babelstream(text)
        if kernel:
            run["babel_alone"] = True
        if int(rnd) in run["babel"]:
            run["babel"][int(rnd)]["kernels"].update(parsed["kernels"])
        else:
            run["babel"][int(rnd)] = parsed
    return runs


def report(runs, out=sys.stdout):
    def p(*a):
        print(*a, file=out)

    p("clmem stream against BabelStream's OpenCL model (--float), run alternately")
    p("best: each side's fastest run (clmem's min_ms sample, BabelStream's max rate);")
    p("median (clmem) and avg (BabelStream, first run dropped) beside them; GB/s = 1e9 B/s")
    p(f"within: best ratio 1 +- {TOLERANCE:g}; below/above: further off")
    for n in sorted(runs):
        clmem, babel = runs[n]["clmem"], runs[n]["babel"]
        results = [r for rnd in clmem.values() for r in rnd.values()]
        devices = {b["device"] for b in babel.values()} | {r["device"] for r in results}
        timers = sorted({r["timer"] for r in results})
        p("")
        p(f"N = {n} floats ({4 * n / 1e6:.0f} MB an array), rounds: {len(clmem)} clmem, "
          f"{len(babel)} BabelStream; device {', '.join(sorted(devices))}")
        p(f"timers: clmem {', '.join(timers)}; BabelStream the host's clock around each "
          "kernel and its finish")
        p("BabelStream's runs: " + ("one kernel each (-o), as clmem's" if runs[n]["babel_alone"]
                                    else "its five kernels in turn (its classic order)"))
        p(f"{'kernel':<7}{'clmem best':>11}{'babel best':>11}{'ratio':>7}  {'verdict':<8}"
          f"{'clmem med':>10}{'babel avg':>10}  per round (best ratio)")
        for k in KERNELS:
            mine = [clmem[r][k] for r in sorted(clmem) if k in clmem[r]]
            theirs = [babel[r]["kernels"][k] for r in sorted(babel) if k in babel[r]["kernels"]]
            if not mine or not theirs:
                if mine:
                    p(f"{k:<7}{max(m['best_gbs'] for m in mine):>11.2f}{'-':>11}{'-':>7}  "
                      f"{'no babel':<8}{max(m['median_gbs'] for m in mine):>10.2f}")
                continue
            best, their_best = max(m["best_gbs"] for m in mine), max(t["best_gbs"] for t in theirs)
            ratio, word = verdict(best, their_best)
            med = max(m["median_gbs"] for m in mine)
            avg = max(t["avg_gbs"] for t in theirs)
            rounds = " ".join(
                f"{clmem[r][k]['best_gbs'] / babel[r]['kernels'][k]['best_gbs']:.3f}"
                for r in sorted(clmem)
                if k in clmem[r] and r in babel and k in babel[r]["kernels"]
            )
            p(f"{k:<7}{best:>11.2f}{their_best:>11.2f}{ratio:>7.3f}  {word:<8}"
              f"{med:>10.2f}{avg:>10.2f}  {rounds}")


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    runs = collect(read_files(argv[1]))
    if not runs:
        print(f"bench_stream_summary.py: no clmem-*.json or babel-*.csv in '{argv[1]}'",
              file=sys.stderr)
        return 2
    report(runs)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
