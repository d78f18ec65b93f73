#!/usr/bin/env python3
"""cuBLAS SGEMM through PyTorch, TF32 off: the anchor beside clmem's matmul
(bench/sgemm/run.sh). Usage: cublas.py SIZE... (N or MxNxK, clmem's
meaning: P is MxN, M is MxK, N is KxN). Prints one CSV row per size:
size,median_ms,min_ms,max_ms,gflops — the median of REPS runs, each timed
with CUDA events around one torch.mm, after WARMUP untimed runs."""
import os
import statistics
import sys

import torch

REPS = int(os.environ.get("REPS", "20"))
WARMUP = int(os.environ.get("WARMUP", "3"))


def dims(text):
    parts = [int(x) for x in text.split("x")]
    return parts * 3 if len(parts) == 1 else parts


def main():
    torch.backends.cuda.matmul.allow_tf32 = False  # FP32 as clmem computes it
    torch.backends.cudnn.allow_tf32 = False
    gen = torch.Generator(device="cuda").manual_seed(42)
    print("size,median_ms,min_ms,max_ms,gflops")
    for text in sys.argv[1:]:
        m, n, k = dims(text)
        a = torch.randn(m, k, device="cuda", generator=gen)
        b = torch.randn(k, n, device="cuda", generator=gen)
        for _ in range(WARMUP):
            torch.mm(a, b)
        times = []
        for _ in range(REPS):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            torch.mm(a, b)
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
        med = statistics.median(times)
        print(f"{text},{med:.4f},{min(times):.4f},{max(times):.4f},{2.0 * m * n * k / med / 1e6:.1f}")
        del a, b
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
