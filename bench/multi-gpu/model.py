#!/usr/bin/env python3
"""A cost model of clmem's matmul over several GPUs (MODEL.md says why).

SUMMA over a PxQ grid of ranks and `--split` over the GPUs of one process,
each simulated piece by piece (SUMMA) or tile by tile (--split) as the code
schedules them: the exchange of a piece (MPI or shared memory), its copy up
(PCIe) and its kernels (matmul + accumulate) overlap across pieces in
flight. The rates are fitted to the H200 measurements (bench/multi-gpu/
h200x2, bench/h200x2-scale and the 4-GPU figures of the issue), then the
model predicts the new design on 4 GPUs and 8, 16 and 64 GPUs over
NVLink-class, 400 Gb/s and 100 Gb/s links. Standard library only:

    python3 bench/multi-gpu/model.py            # fit, table, predictions
    python3 bench/multi-gpu/model.py --no-fit   # the rates as given below
"""
import math
import sys

# ---- the machine: rates (fitted where the measurements say, else assumed) ----
RATES = {
    "flops": 48.7e12,  # one H200's regblock SGEMM on a whole block, FLOP/s
    "hbm": 4.0e12,  # device memory, B/s: SUMMA's accumulation reads P and T, writes P
    "pcie": 35e9,  # one GPU's copies up or down from pinned memory, B/s
    "host": 110e9,  # all GPUs' copies at once through the host, B/s
    "mpi": 5.3e9,  # Open MPI's shared memory on one host: what one process copies, B/s
    "copy": 16e9,  # SUMMA's shared-memory exchange: one rank's copy threads, B/s
    "launch": 0.5e-3,  # fixed cost per timed run (thread start, launches, the last sync), s
    "gpus_per_host": 4,  # GPUs sharing "host": hosts built like the measured one
}
FITTED = ("flops", "pcie", "host", "mpi", "launch")
UNITS = 132  # the H200's compute units: one 256x128 block of P each at a time
BLOCK = (256, 128)


def occupancy(rows, cols):
    """The share of the units busy over a kernel's waves of 256x128 blocks."""
    blocks = math.ceil(rows / BLOCK[0]) * math.ceil(cols / BLOCK[1])
    return blocks / (math.ceil(blocks / UNITS) * UNITS)


def gemm_s(rows, cols, inner, r):
    return 2.0 * rows * cols * inner / (r["flops"] * occupancy(rows, cols))


# ---- SUMMA ----
def pieces(n, grid_rows, grid_cols, panel, turns):
    """The pieces of [0, n) as src/mpi/summa.c cuts them: at every panel
    boundary and every boundary of M's chunks (one per grid column) and N's
    (one per grid row); (width, M's owner column, N's owner row), in inner
    order or in turns (each run of the same owners' pieces interleaved)."""
    def chunks(parts):
        return [n * (i + 1) // parts for i in range(parts)]

    m_ends, n_ends = chunks(grid_cols), chunks(grid_rows)
    out, at = [], 0
    while at < n:
        mo = next(i for i, e in enumerate(m_ends) if at < e)
        no = next(i for i, e in enumerate(n_ends) if at < e)
        end = min((at // panel + 1) * panel, m_ends[mo], n_ends[no], n)
        out.append((end - at, mo, no))
        at = end
    if not turns:
        return out
    segments, seg = [], []
    for p in out:
        if seg and p[1:] != seg[-1][1:]:
            segments.append(seg)
            seg = []
        seg.append(p)
    segments.append(seg)
    order = []
    for turn in range(max(len(s) for s in segments)):
        order += [s[turn] for s in segments if turn < len(s)]
    return order


def summa_s(n, grid, panel, r, exchange="mpi", turns=False, slots=2, overlap=True,
            link=None, alpha=5e-6):
    """Seconds for one SUMMA multiplication of n x n x n on a grid
    (rows, cols), the slowest rank's. exchange: "mpi" (Open MPI's shared
    memory: each process copies what it sends and what it receives),
    "shared" (each rank copies what it receives from the owners' blocks in
    shared memory), "link" (a network or NVLink of `link` B/s each way per
    GPU, pipelined broadcasts: a rank receives and forwards each piece;
    alpha s per hop). Copies up at r["pcie"] unless link is NVLink-class
    (exchange "device": the pieces arrive on the device)."""
    P, Q = grid
    rows, cols = n / P, n / Q
    ps = pieces(n, P, Q, panel, turns)
    sharing = min(P * Q, r["gpus_per_host"])
    up = (rows + cols) * panel * 4 / min(r["pcie"], r["host"] / sharing)
    comp = gemm_s(rows, cols, panel, r) + 3 * rows * cols * 4 / r["hbm"]
    worst = 0.0
    for gr in range(P):
        for gc in range(Q):
            comm = []
            for w, mo, no in ps:
                m_in = rows * w * 4 if gc != mo else 0.0
                n_in = w * cols * 4 if gr != no else 0.0
                m_out = rows * w * 4 * (Q - 1) if gc == mo else 0.0
                n_out = w * cols * 4 * (P - 1) if gr == no else 0.0
                if exchange == "mpi":
                    t = (m_in + n_in + m_out + n_out) / r["mpi"]
                elif exchange == "shared":
                    t = (m_in + n_in) / r["copy"]
                else:
                    hops = (math.ceil(math.log2(Q)) if Q > 1 else 0) + (
                        math.ceil(math.log2(P)) if P > 1 else 0)
                    # pipelined: every rank but the root receives, all but the last forward
                    t = max(m_in + n_in, m_out / max(Q - 1, 1) + n_out / max(P - 1, 1)) / link
                    t += alpha * hops
                comm.append(t)
            u = 0.0 if exchange == "device" else up
            if not overlap:
                worst = max(worst, sum(c + u + comp for c in comm))
                continue
            ce, ue, ke = [], [], []
            for i, c in enumerate(comm):
                ready = ce[-1] if ce else 0.0
                if i >= slots:  # its host slot free once piece i - slots went up
                    ready = max(ready, ue[i - slots])
                if i >= slots - 1 and slots > 2:  # posted once piece i - slots + 1 arrived
                    ready = max(ready, ce[i - slots + 1])
                ce.append(ready + c)
                start = max(ce[i], ue[-1] if ue else 0.0, ke[i - slots] if i >= slots else 0.0)
                ue.append(start + u)
                ke.append(max(ue[i], ke[-1] if ke else 0.0) + comp)
            worst = max(worst, ke[-1])
    return worst + r["launch"]


# ---- --split ----
def split_s(n, k, r, overlap=True, tiles=4, grid=None):
    """Seconds for --split of n x n x n over k GPUs at once, end to end: each
    GPU's rows in tiles (src/workloads/matmul_split.c), simulated with its
    copy-up queue, kernel queue and copy-down queue; the copies of all k
    GPUs share the host's bandwidth. grid (rows, cols) of GPUs: each GPU a
    block of P of n / rows x n / cols instead of n / k whole rows."""
    bw = min(r["pcie"], r["host"] / k)
    rows, cols = (n / k, n) if grid is None else (n / grid[0], n / grid[1])

    def side(x):
        s = math.ceil(math.ceil(x / tiles) / 256) * 256
        return min(s, x)

    tr, tc = side(rows), side(cols)
    nr, nc = math.ceil(rows / tr), math.ceil(cols / tc)
    m_s, n_s, p_s = tr * n * 4 / bw, n * tc * 4 / bw, tr * tc * 4 / bw
    kern = gemm_s(tr, tc, n, r)
    if not overlap:
        return nr * m_s + nc * n_s + nr * nc * (kern + p_s) + r["launch"]
    up_end, m_ready, n_ready, col_done = 0.0, {}, {}, {}
    k_end, downs, k_ends = 0.0, [], []
    for t in range(nr * nc):
        rr, cc = t % nr, t // nr
        if cc == 0:
            up_end += m_s
            m_ready[rr] = up_end
        if rr == 0:  # into the N buffer of column cc - 2: after its last kernel
            up_end = max(up_end, col_done.get(cc - 2, 0.0)) + n_s
            n_ready[cc] = up_end
        start = max(k_end, m_ready[rr], n_ready[cc], downs[t - 2] if t >= 2 else 0.0)
        k_end = start + kern
        k_ends.append(k_end)
        if rr == nr - 1:
            col_done[cc] = k_end
        prev = downs[-1] if downs else 0.0
        downs.append(max(prev, k_end) + p_s)
    return downs[-1] + r["launch"]


# ---- the measurements (ms), H200s, regblock, panel 1024 ----
# kind, n, grid or GPUs, overlapped, ms, source
MEASURED = [
    ("summa", 16384, (1, 1), True, 199.81, "h200x2/summa-1-16384.txt"),
    ("summa", 32768, (1, 1), True, 1553.52, "h200x2/summa-1-32768.txt"),
    ("summa", 16384, (1, 2), True, 192.10, "h200x2/summa-2-16384.txt"),
    ("summa", 32768, (1, 2), True, 808.00, "h200x2/summa-2-32768.txt"),
    ("summa", 16384, (1, 1), False, 267.38, "h200x2/summa-1-16384-no-overlap.txt"),
    ("summa", 32768, (1, 1), False, 1832.54, "h200x2/summa-1-32768-no-overlap.txt"),
    ("summa", 16384, (1, 2), False, 317.51, "h200x2/summa-2-16384-no-overlap.txt"),
    ("summa", 32768, (1, 2), False, 1780.57, "h200x2/summa-2-32768-no-overlap.txt"),
    ("summa", 16384, (2, 2), True, 199.81 / (4 * 0.24), "4 H200s: efficiency 0.24 (issue)"),
    ("summa", 32768, (2, 2), True, 1553.52 / (4 * 0.52), "4 H200s: efficiency 0.52 (issue)"),
    ("split", 16384, 1, True, 196.38, "h200x2/split-16384.txt"),
    ("split", 16384, 2, True, 102.63, "h200x2/split-16384.txt"),
    ("split", 32768, 1, True, 1490.38, "h200x2/split-32768.txt"),
    ("split", 32768, 2, True, 757.80, "h200x2/split-32768.txt"),
    ("split", 16384, 1, False, 265.39, "h200x2/split-16384-no-overlap.txt"),
    ("split", 16384, 2, False, 149.58, "h200x2/split-16384-no-overlap.txt"),
    ("split", 32768, 1, False, 1703.16, "h200x2/split-32768-no-overlap.txt"),
    ("split", 32768, 2, False, 899.01, "h200x2/split-32768-no-overlap.txt"),
    ("split", 16384, 4, True, 196.38 / (4 * 0.82), "4 H200s: efficiency 0.82 (issue)"),
    ("split", 32768, 4, True, 1490.38 / (4 * 0.94), "4 H200s: efficiency 0.94 (issue)"),
    ("kernel", 16384, 1, True, 180.8, "h200x2/split-16384.txt: kernels"),
    ("kernel", 32768, 1, True, 1442.0, "h200x2/split-32768.txt: kernels"),
    ("kernel", 16384, 1, True, 177.6, "h200x2-scale/x2-split-16384.txt (inputs on the GPU)"),
    ("kernel", 32768, 1, True, 1412.0, "h200x2-scale/x2-split-32768.txt (inputs on the GPU)"),
]


def predict(m, r):
    kind, n, where, overlap = m[:4]
    if kind == "summa":  # the code measured: MPI broadcasts, inner order, two slots
        return summa_s(n, where, 1024, r, "mpi", turns=False, slots=2, overlap=overlap) * 1e3
    if kind == "split":
        return split_s(n, where, r, overlap) * 1e3
    return gemm_s(n, n, n, r) * 1e3


def error(r):
    return sum(math.log(predict(m, r) / m[4]) ** 2 for m in MEASURED)


def fit(r):
    """Coordinate search in log space: each rate up or down by a factor
    that shrinks when neither helps."""
    r = dict(r)
    step = 1.5
    while step > 1.001:
        better = False
        for name in FITTED:
            for f in (step, 1 / step):
                trial = dict(r, **{name: r[name] * f})
                if error(trial) < error(r):
                    r, better = trial, True
        if not better:
            step = math.sqrt(step)
    return r


def show_fit(r):
    print("Fitted rates: " + ", ".join(
        f"{k} {r[k] / 1e12:.1f} TFLOP/s" if k == "flops" else
        f"{k} {r[k] * 1e3:.2f} ms" if k == "launch" else f"{k} {r[k] / 1e9:.1f} GB/s"
        for k in FITTED))
    print(f"(assumed: hbm {r['hbm'] / 1e12:.1f} TB/s, copy {r['copy'] / 1e9:.0f} GB/s)\n")
    print(f"{'what':<34} {'measured ms':>12} {'model ms':>10} {'off':>6}  source")
    for m in MEASURED:
        kind, n, where, overlap, ms, src = m
        p = predict(m, r)
        what = f"{kind} {n} " + (f"{where[0]}x{where[1]}" if kind == "summa" else f"{where} GPU")
        what += "" if overlap else " no overlap"
        print(f"{what:<34} {ms:12.1f} {p:10.1f} {100 * (p / ms - 1):5.0f}%  {src}")
    print()


def efficiency(t1, t, gpus):
    return t1 / (gpus * t)


def show_four(r):
    """The new design on one host of 4 GPUs, beside what was measured."""
    print("4 H200s of one host, efficiency against 1 rank (SUMMA) or 1 GPU (--split):")
    print(f"{'':<46} {'16384':>7} {'32768':>7}")
    rows = [
        ("SUMMA 2x2, measured (MPI, inner order)", {16384: 0.24, 32768: 0.52}),
    ]
    for name, kw in [
        ("SUMMA 2x2, model of what was measured", dict(exchange="mpi", turns=False, slots=2)),
        ("SUMMA 2x2, MPI, in turns, 3 slots", dict(exchange="mpi", turns=True, slots=3)),
        ("SUMMA 2x2, shared memory, in turns, 3 slots", dict(exchange="shared", turns=True, slots=3)),
        ("  the same, copy at half the assumed rate", dict(exchange="shared", turns=True, slots=3,
                                                           half=True)),
        ("SUMMA 1x4, shared memory, in turns, 3 slots", dict(exchange="shared", turns=True, slots=3,
                                                         grid=(1, 4))),
    ]:
        e = {}
        for n in (16384, 32768):
            rr = dict(r, copy=r["copy"] / 2) if kw.get("half") else r
            args = {k: v for k, v in kw.items() if k not in ("half", "grid")}
            t1 = summa_s(n, (1, 1), 1024, rr, "shared", True, 3)
            e[n] = efficiency(t1, summa_s(n, kw.get("grid", (2, 2)), 1024, rr, **args), 4)
        rows.append((name, e))
    rows.append(("--split, measured", {16384: 0.82, 32768: 0.94}))
    rows.append(("--split, model", {n: efficiency(split_s(n, 1, r), split_s(n, 4, r), 4)
                                    for n in (16384, 32768)}))
    rows.append(("--split, model, 2x2 blocks of P", {
        n: efficiency(split_s(n, 1, r), split_s(n, 4, r, grid=(2, 2)), 4) for n in (16384, 32768)}))
    rows.append(("--split, model, 8x8 tiles a GPU", {
        n: efficiency(split_s(n, 1, r, tiles=8), split_s(n, 4, r, tiles=8), 4)
        for n in (16384, 32768)}))
    for name, e in rows:
        print(f"{name:<46} {e[16384]:7.2f} {e[32768]:7.2f}")
    for n in (16384, 32768):
        t1 = summa_s(n, (1, 1), 1024, r, "shared", True, 3)
        e = {p: efficiency(t1, summa_s(n, (2, 2), p, r, "shared", True, 3), 4)
             for p in (256, 512, 1024, 2048, 4096)}
        print(f"SUMMA 2x2 shared at {n}, by panel: " +
              ", ".join(f"{p} {v:.2f}" for p, v in e.items()))
    print()


LINKS = [
    ("NVLink-class 400 GB/s, on the device", 400e9, "device"),
    ("400 Gb/s per GPU, host staging", 50e9, "link"),
    ("100 Gb/s per GPU, host staging", 12.5e9, "link"),
]


def grids(g):
    return [(p, g // p) for p in range(1, g + 1) if g % p == 0 and p <= g // p]


def best(n, g, link, exchange, r):
    """The fastest grid and panel for n on g GPUs, with its seconds; a grid
    whose blocks and panels would not fit one GPU's memory is left out."""
    choice = None
    for grid in grids(g):
        for panel in (256, 512, 1024, 2048, 4096):
            rows, cols = n / grid[0], n / grid[1]
            if (2 * rows * cols + 3 * (rows + cols) * panel) * 4 > 130e9:
                continue
            t = summa_s(n, grid, panel, r, exchange, True, 3, link=link)
            if choice is None or t < choice[0]:
                choice = (t, grid, panel)
    return choice


def show_scale(r):
    print("SUMMA on more GPUs (the new order, 3 slots), best grid and panel; efficiency: "
          "the GPUs' SGEMM rate alone (inputs on the device) over the end-to-end time:")
    print(f"{'link':<38} {'GPUs':>5} {'n':>6} {'eff':>5} {'grid':>6} {'panel':>6} "
          f"{'TFLOP/s':>8}")
    for name, bw, exchange in LINKS:
        for g in (8, 16, 64):
            for n in (16384, 32768, 65536):
                t1 = gemm_s(n, n, n, r)
                t, grid, panel = best(n, g, bw, exchange, r)
                print(f"{name:<38} {g:5d} {n:6d} {efficiency(t1, t, g):5.2f} "
                      f"{grid[0]:>2}x{grid[1]:<3} {panel:6d} {2 * n ** 3 / t / 1e12:8.0f}")
    print()


def main(argv):
    r = dict(RATES)
    if "--no-fit" not in argv:
        r = fit(r)
    show_fit(r)
    show_four(r)
    show_scale(r)


if __name__ == "__main__":
    main(sys.argv[1:])
