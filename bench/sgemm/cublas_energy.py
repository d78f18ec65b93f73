#!/usr/bin/env python3
"""cuBLAS SGEMM's speed and energy through PyTorch, TF32 off: the anchor for
clmem's GFLOP/J (bench/sgemm/energy.sh). Usage: cublas_energy.py SIZE
(N or MxNxK, clmem's meaning). After WARMUP untimed runs, torch.mm runs back
to back for at least SECONDS (2.0): CUDA events time each run, and NVML's
total-energy counter (mJ, the counter clmem reads) is read after a
synchronize before the first and after the last, as clmem meters a span.
Prints one CSV row: size,median_ms,gflops,runs,span_s,energy_j,power_w,gflop_per_j"""
import ctypes
import os
import statistics
import sys
import time

import torch

WARMUP = int(os.environ.get("WARMUP", "5"))
SECONDS = float(os.environ.get("SECONDS", "2.0"))


def nvml_energy_reader():
    """A function returning the energy counter of the GPU, in J."""
    nvml = ctypes.CDLL("libnvidia-ml.so.1")
    if nvml.nvmlInit_v2() != 0:
        sys.exit("cublas_energy.py: nvmlInit failed")
    handle = ctypes.c_void_p()
    # One GPU a machine here: NVML's index 0 is CUDA's device 0.
    rc = nvml.nvmlDeviceGetHandleByIndex_v2(0, ctypes.byref(handle))
    if rc != 0:
        sys.exit(f"cublas_energy.py: no NVML handle for the GPU (error {rc})")
    mj = ctypes.c_ulonglong()

    def read():
        if nvml.nvmlDeviceGetTotalEnergyConsumption(handle, ctypes.byref(mj)) != 0:
            sys.exit("cublas_energy.py: the GPU has no energy counter")
        return mj.value / 1e3
    return read


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: cublas_energy.py SIZE")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    parts = [int(x) for x in sys.argv[1].split("x")]
    m, n, k = parts * 3 if len(parts) == 1 else parts
    gen = torch.Generator(device="cuda").manual_seed(42)
    a = torch.randn(m, k, device="cuda", generator=gen)
    b = torch.randn(k, n, device="cuda", generator=gen)
    for _ in range(WARMUP):
        torch.mm(a, b)
    energy = nvml_energy_reader()
    torch.cuda.synchronize()
    j0, t0 = energy(), time.monotonic()
    events = []
    while time.monotonic() - t0 < SECONDS:
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        torch.mm(a, b)
        end.record()
        events.append((start, end))
        if len(events) % 8 == 0:
            end.synchronize()  # keeps the clock check honest: queued work counts
    torch.cuda.synchronize()
    j1, t1 = energy(), time.monotonic()
    times = [s.elapsed_time(e) for s, e in events]
    med = statistics.median(times)
    flops = 2.0 * m * n * k
    joules = j1 - j0
    print("size,median_ms,gflops,runs,span_s,energy_j,power_w,gflop_per_j")
    print(f"{sys.argv[1]},{med:.4f},{flops / med / 1e6:.1f},{len(times)},{t1 - t0:.3f},"
          f"{joules:.3f},{joules / (t1 - t0):.1f},{flops * len(times) / 1e9 / joules:.2f}")


if __name__ == "__main__":
    main()
