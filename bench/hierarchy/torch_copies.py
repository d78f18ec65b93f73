#!/usr/bin/env python3
"""PyTorch's host<->device copies on the first CUDA device, timed with CUDA
events: the anchor of clmem hierarchy's copy probes (h2d/d2h, pageable and
pinned, d2d). Each size: one copy untimed, then REPS timed ones, the median
and the fastest, in GB/s (bytes moved once; d2d, like clmem's, read and
written: twice). Usage: python3 bench/hierarchy/torch_copies.py [REPS]"""
import statistics
import sys

import torch

REPS = int(sys.argv[1]) if len(sys.argv) > 1 else 10
SIZES = [4096, 1 << 20, 1 << 26, 1 << 30]


def time_copy(dst, src, reps):
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    dst.copy_(src, non_blocking=True)
    torch.cuda.synchronize()
    ms = []
    for _ in range(reps):
        start.record()
        dst.copy_(src, non_blocking=True)
        end.record()
        end.synchronize()
        ms.append(start.elapsed_time(end))
    return statistics.median(ms), min(ms)


def main():
    dev = torch.device("cuda")
    print("device: %s, torch %s, CUDA %s" % (torch.cuda.get_device_name(dev), torch.__version__,
                                              torch.version.cuda))
    print("%-14s %12s %12s %12s %12s %12s" % ("copy", "bytes", "median ms", "min ms",
                                              "GB/s median", "GB/s best"))
    for n in SIZES:
        pinned = torch.empty(n, dtype=torch.uint8, pin_memory=True)
        pageable = torch.empty(n, dtype=torch.uint8)
        d0 = torch.empty(n, dtype=torch.uint8, device=dev)
        d1 = torch.empty(n, dtype=torch.uint8, device=dev)
        pinned.fill_(1)
        pageable.fill_(1)
        for name, dst, src, moved in (("h2d_pageable", d0, pageable, n),
                                      ("h2d_pinned", d0, pinned, n),
                                      ("d2h_pageable", pageable, d0, n),
                                      ("d2h_pinned", pinned, d0, n),
                                      ("d2d", d1, d0, 2 * n)):
            med, best = time_copy(dst, src, REPS)
            print("%-14s %12d %12.4f %12.4f %12.2f %12.2f" % (name, n, med, best,
                                                               moved / med / 1e6,
                                                               moved / best / 1e6))
        del pinned, pageable, d0, d1
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
