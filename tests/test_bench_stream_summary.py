#!/usr/bin/env python3
"""scripts/bench_stream_summary.py, which sets clmem's STREAM kernels
against BabelStream's OpenCL model: its reading of BabelStream's --csv
output (a captured run, tests/data/babelstream-ocl-float.csv), of clmem's
run files, the byte counts both must share, and the within-5% verdict.
No device.

Usage: test_bench_stream_summary.py SOURCE_ROOT"""
import importlib.util
import io
import json
import os
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

ROOT = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
spec = importlib.util.spec_from_file_location(
    "bench_stream_summary", os.path.join(ROOT, "scripts", "bench_stream_summary.py"))
summary = importlib.util.module_from_spec(spec)
spec.loader.exec_module(summary)

with open(os.path.join(ROOT, "tests", "data", "babelstream-ocl-float.csv"), encoding="utf-8") as f:
    SAMPLE = f.read()
N = 1048576


def clmem_file(results):
    """A clmem run file holding `results`: (variant, n, min_ms, median_ms, arrays)."""
    rows = []
    for variant, n, min_ms, median_ms, arrays in results:
        rows.append({"workload": "stream", "variant": variant, "device": "dev", "size": str(n),
                     "status": "ok", "verified": True, "timer": "events",
                     "min_ms": min_ms, "median_ms": median_ms,
                     "metric": arrays * 4 * n / (median_ms * 1e-3) / 1e9, "unit": "GB/s"})
    return json.dumps({"schema_version": 1, "results": rows})


class BabelStreamOutput(unittest.TestCase):
    def test_reads_the_device_driver_and_every_kernel(self):
        got = summary.parse_babelstream(SAMPLE)
        self.assertEqual(got["device"], "pthread-skylake-avx512-AMD EPYC")
        self.assertEqual(got["driver"], "3.1+debian")
        self.assertEqual(sorted(got["kernels"]), sorted(summary.KERNELS))
        triad = got["kernels"]["triad"]
        self.assertEqual((triad["n"], triad["sizeof"], triad["num_times"]), (N, 4, 5))
        self.assertEqual((triad["min_s"], triad["max_s"], triad["avg_s"]),
                         (0.000247834, 0.00030343, 0.000270161))

    def test_counts_babelstreams_bytes(self):
        kernels = summary.parse_babelstream(SAMPLE)["kernels"]
        for name, arrays in (("copy", 2), ("mul", 2), ("add", 3), ("triad", 3), ("dot", 2)):
            self.assertEqual(kernels[name]["bytes"], arrays * 4 * N, name)

    def test_best_is_its_reported_rate_and_avg_its_mean_time(self):
        triad = summary.parse_babelstream(SAMPLE)["kernels"]["triad"]
        # Its MB/s column: 50771.5, from the fastest of its runs.
        self.assertAlmostEqual(triad["best_gbs"], 50.7715, places=3)
        self.assertAlmostEqual(triad["avg_gbs"], 3 * 4 * N / 0.000270161 / 1e9, places=9)

    def test_other_units(self):
        # --gigabytes: the same rates in GB/s.
        lines = SAMPLE.replace("max_MB_per_sec", "max_GB_per_sec").splitlines()
        for i, line in enumerate(lines):
            f = line.split(",")
            if len(f) == 8 and f[0] != "function":
                lines[i] = ",".join(f[:4] + ["%g" % (float(f[4]) / 1e3)] + f[5:])
        text = "\n".join(lines)
        self.assertAlmostEqual(summary.parse_babelstream(text)["kernels"]["triad"]["best_gbs"],
                               50.7715, places=3)

    def test_a_rate_off_its_byte_count_is_refused(self):
        # Triad's rate as if it moved 2 arrays.
        with self.assertRaisesRegex(ValueError, "triad"):
            summary.parse_babelstream(SAMPLE.replace("50771.5", "33847.7"))

    def test_output_without_its_csv_table_is_refused(self):
        with self.assertRaisesRegex(ValueError, "--csv"):
            summary.parse_babelstream("Using OpenCL device x\nCopy        565.433     0.00001\n")

    def test_a_cut_row_is_refused(self):
        with self.assertRaises(ValueError):
            summary.parse_babelstream(SAMPLE.replace(",0.000270161", ""))


class ClmemRunFile(unittest.TestCase):
    def test_best_from_the_fastest_sample_median_from_the_metric(self):
        got = summary.parse_clmem(clmem_file([("triad", 7, 0.5, 0.8, 3)]))
        self.assertEqual(list(got), ["triad"])
        self.assertAlmostEqual(got["triad"]["best_gbs"], 3 * 4 * 7 / 0.5e-3 / 1e9)
        self.assertAlmostEqual(got["triad"]["median_gbs"], 3 * 4 * 7 / 0.8e-3 / 1e9)

    def test_the_byte_counts_must_be_babelstreams(self):
        for name, arrays in (("copy", 2), ("mul", 2), ("add", 3), ("triad", 3), ("dot", 2)):
            summary.parse_clmem(clmem_file([(name, 33, 1.0, 1.0, arrays)]))
            with self.assertRaisesRegex(ValueError, name):
                summary.parse_clmem(clmem_file([(name, 33, 1.0, 1.0, 5 - arrays)]))

    def test_an_unverified_result_is_refused(self):
        doc = json.loads(clmem_file([("add", 7, 1.0, 1.0, 3)]))
        doc["results"][0]["verified"] = False
        with self.assertRaisesRegex(ValueError, "verify"):
            summary.parse_clmem(json.dumps(doc))

    def test_other_variants_are_left_out(self):
        doc = json.loads(clmem_file([("add", 7, 1.0, 1.0, 3)]))
        doc["results"].append(dict(doc["results"][0], variant="intensity", metric=1.0))
        self.assertEqual(list(summary.parse_clmem(json.dumps(doc))), ["add"])


class Verdict(unittest.TestCase):
    def test_within_five_percent_either_way(self):
        for clmem, word in ((100, "within"), (95, "within"), (105, "within"), (94.9, "below"),
                            (105.1, "above"), (50, "below"), (200, "above")):
            ratio, got = summary.verdict(clmem, 100.0)
            self.assertAlmostEqual(ratio, clmem / 100.0)
            self.assertEqual(got, word, clmem)


class Report(unittest.TestCase):
    def test_a_folder_of_runs(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, f"babel-{N}-r1.csv"), "w") as f:
                f.write(SAMPLE)
            # clmem's triad best at 0.96 of BabelStream's (within), copy's at
            # 0.5 (below); round 2's triad faster still.
            babel = summary.parse_babelstream(SAMPLE)["kernels"]
            for rnd, scale in ((1, 0.96), (2, 0.98)):
                t = babel["triad"]["min_s"] * 1e3 / scale
                with open(os.path.join(d, f"clmem-{N}-r{rnd}-triad.json"), "w") as f:
                    f.write(clmem_file([("triad", N, t, t * 1.1, 3)]))
            c = babel["copy"]["min_s"] * 1e3 / 0.5
            with open(os.path.join(d, f"clmem-{N}-r1-copy.json"), "w") as f:
                f.write(clmem_file([("copy", N, c, c, 2)]))
            out = io.StringIO()
            summary.report(summary.collect(summary.read_files(d)), out)
        lines = {line.split()[0]: line.split() for line in out.getvalue().splitlines() if line}
        # The best of the rounds (0.98) against BabelStream's best.
        self.assertEqual(lines["triad"][3:5], ["0.980", "within"])
        # Round by round: round 2 has no BabelStream run to pair with.
        self.assertEqual(lines["triad"][7:], ["0.960"])
        self.assertEqual(lines["copy"][3:5], ["0.500", "below"])
        self.assertNotIn("mul", lines)

    def test_babelstreams_kernels_run_one_a_run(self):
        # BABEL_ORDER=each: a file per kernel (-o), merged into its round.
        header = [l for l in SAMPLE.splitlines() if not l.startswith(("Copy,", "Mul,", "Add,",
                                                                      "Triad,", "Dot,"))]
        row = {l.split(",")[0].lower(): l for l in SAMPLE.splitlines() if l.count(",") == 7}
        with tempfile.TemporaryDirectory() as d:
            for k in ("copy", "triad"):
                with open(os.path.join(d, f"babel-{N}-r1-{k}.csv"), "w") as f:
                    f.write("\n".join(header + [row[k]]))
                with open(os.path.join(d, f"clmem-{N}-r1-{k}.json"), "w") as f:
                    f.write(clmem_file([(k, N, 1.0, 1.0, summary.WEIGHTS[k])]))
            # Its dot failed (the script renames the file): clmem's alone.
            with open(os.path.join(d, f"babel-{N}-r1-dot-failed.txt"), "w") as f:
                f.write("terminate called after throwing an instance of 'cl::Error'\n")
            with open(os.path.join(d, f"clmem-{N}-r1-dot.json"), "w") as f:
                f.write(clmem_file([("dot", N, 1.0, 1.0, 2)]))
            runs = summary.collect(summary.read_files(d))
            out = io.StringIO()
            summary.report(runs, out)
        self.assertEqual(sorted(runs[N]["babel"][1]["kernels"]), ["copy", "triad"])
        self.assertIn("one kernel each (-o)", out.getvalue())
        dot = [line.split() for line in out.getvalue().splitlines() if line.startswith("dot")]
        self.assertEqual(dot[0][2:6], ["-", "-", "no", "babel"])


if __name__ == "__main__":
    unittest.main()
