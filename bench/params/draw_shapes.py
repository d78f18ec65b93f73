#!/usr/bin/env python3
"""Draws SGEMM shapes MxNxK for the parameter database's goals: M, N and K
each log-uniform in [32, 16384] (exp of a uniform draw between their logs,
rounded to the nearest whole number), a shape kept only where 2MNK is at
least 1 GFLOP. Python's random with a fixed seed, so anyone draws the same.
Usage: draw_shapes.py COUNT [SEED] > FILE"""
import math
import random
import sys

count = int(sys.argv[1])
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 56)
lo, hi = math.log(32), math.log(16384)
drawn = 0
while drawn < count:
    m, n, k = (round(math.exp(rng.uniform(lo, hi))) for _ in range(3))
    if 2 * m * n * k < 1e9:
        continue
    print(f"{m}x{n}x{k}")
    drawn += 1
