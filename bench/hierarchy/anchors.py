#!/usr/bin/env python3
"""clmem hierarchy beside clpeak, measured in the same call (run.sh).

Usage: bench/hierarchy/anchors.py DIR [DIR ...]
Each DIR holds run.sh's hierarchy.json, peak.txt and clpeak.json. Prints,
per DIR, clmem's figure, clpeak's best reading of the same kind on the same
device, and their ratio: device-memory read bandwidth (clmem's largest
read_ws against clpeak's global bandwidth), __local bandwidth (clmem's
conflict-free stride 1 against clpeak's float reading), image reads at
the largest working set,
host transfers (clmem's pageable and pinned copies at 1 GiB against
clpeak's enqueueWrite/ReadBuffer, which copy from plain host memory), and
launch cost (clmem peak's launch against clpeak's dispatch latency).
"""
import json
import re
import sys


def clpeak_best(entries, device, test, metrics=None):
    values = [e["value"] for e in entries
              if e["device"] == device and e["test"] == test
              and (metrics is None or e["metric"] in metrics)]
    return max(values) if values else None


def result(results, variant, size=None):
    rows = [r for r in results if r["variant"] == variant and r.get("status") != "skipped"
            and (size is None or r["size"] == size)]
    return max(rows, key=lambda r: int(str(r["size"]).split("x")[0])) if rows else None


def gbs(r):
    """A result's rate in GB/s, from its metric and unit."""
    scale = {"TB/s": 1e3, "GB/s": 1.0, "MB/s": 1e-3}
    return r["metric"] * scale[r["unit"]]


def report(path):
    run = json.load(open(f"{path}/hierarchy.json"))
    peak = json.load(open(f"{path}/clpeak.json"))
    device = run["device"]["name"]
    entries = peak["entries"]
    results = run["results"]
    launch = None
    for line in open(f"{path}/peak.txt"):
        m = re.search(r"\slaunch\s.*?(\d[\d.]*) (k?)launch/s", line)
        if m:
            launch = 1e6 / (float(m.group(1)) * (1e3 if m.group(2) else 1))
    rows = []
    read = result(results, "read_ws")
    rows.append(("device-memory read (GB/s)", gbs(read), clpeak_best(entries, device, "global_memory_bandwidth")))
    # The first local_stride result is stride 1: a float a work-item a
    # read, as clpeak's "float" reading.
    local = [r for r in results if r["variant"] == "local_stride"]
    if local:
        rows.append(("__local, float, conflict-free (GB/s)", gbs(local[0]),
                     clpeak_best(entries, device, "local_memory_bandwidth", {"float"})))
    image = result(results, "image_read")
    if image:
        rows.append(("image reads, largest set (GB/s)", gbs(image),
                     clpeak_best(entries, device, "image_memory_bandwidth")))
    write = clpeak_best(entries, device, "transfer_bandwidth", {"enqueuewritebuffer", "enqueuewritebuffer_nonblocking"})
    readb = clpeak_best(entries, device, "transfer_bandwidth", {"enqueuereadbuffer", "enqueuereadbuffer_nonblocking"})
    for name, variant, anchor in (("host to device, pageable (GB/s)", "h2d_pageable", write),
                                  ("host to device, pinned (GB/s)", "h2d_pinned", write),
                                  ("device to host, pageable (GB/s)", "d2h_pageable", readb),
                                  ("device to host, pinned (GB/s)", "d2h_pinned", readb)):
        r = result(results, variant)
        if r:
            rows.append((name, gbs(r), anchor))
    dispatch = clpeak_best(entries, device, "kernel_launch_latency", {"dispatch"})
    if launch:
        rows.append(("launch (us, lower is better)", launch, dispatch))
    print(f"{path}: {device}")
    print(f"  {'':34} {'clmem':>10} {'clpeak':>10} {'ratio':>7}")
    for name, mine, theirs in rows:
        ratio = f"{mine / theirs:7.2f}" if mine and theirs else "      -"
        theirs_text = f"{theirs:10.2f}" if theirs else "         -"
        print(f"  {name:34} {mine:10.2f} {theirs_text} {ratio}")


for d in sys.argv[1:]:
    report(d)
