#!/usr/bin/env bash
# Every kind of JSON file clmem writes validates against
# schema/run.schema.json (issue 15: self-describing run files), made by the
# built clmem on PoCL at small sizes: run (all of matmul's variants, with a
# skipped one; a sweep; a seed above 2^53), bench --output, compare's
# device-0.json and, in an MPI build, bench under mpirun (the per-rank form).
# Beyond the schema: created is a UTC time of now, the seed, reps and warmup
# are those asked for, flops_per_byte is matmul's 2MNK / 4(MK+KN+MN), and
# the schema itself rejects a few wrong files.
# Needs python3 with jsonschema (Debian: python3-jsonschema); skips without.
# Env: CLMEM_BIN, SOURCE_DIR, CLMEM_BUILT_WITH_MPI (true/false), MPIRUN and
# MPIRUN_ARGS (Open MPI's --oversubscribe) in an MPI build; PYTHON (default
# python3).
set -u

python=${PYTHON:-python3}
if ! why=$("$python" -c 'import jsonschema' 2>&1); then
    echo "$python cannot import jsonschema (apt-get install python3-jsonschema): schema checks skipped"
    echo "$why" | tail -1
    exit 77 # meson's SKIP
fi
clmem=${CLMEM_BIN:?CLMEM_BIN not set}
schema=${SOURCE_DIR:?SOURCE_DIR not set}/schema/run.schema.json

dir=$(mktemp -d /tmp/clmem-schema-XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
failed=0

# Runs clmem with stdout into $dir/NAME.json; it must exit 0.
make_file() {
    local name=$1
    shift
    if ! "$@" >"$dir/$name.json" 2>"$dir/$name.err"; then
        echo "FAIL: '$*' exited $?:"
        cat "$dir/$name.err"
        failed=1
    fi
}

make_file run "$clmem" run matmul --size 33 --device cpu --seed 7 --reps 2 --warmup 1 --format json
make_file sweep "$clmem" run coalescing --size 100 --variant offset_float --device cpu \
    --reps 1 --format json
make_file bigseed "$clmem" run transpose --size 7x5 --variant copy --device cpu \
    --seed 18446744073709551615 --reps 1 --format json
# Energy through a RAPL counter the test makes (CLMEM_POWERCAP_DIR), which
# stays still: each result says why it has no figures.
mkdir -p "$dir/powercap/intel-rapl:0"
echo package-0 >"$dir/powercap/intel-rapl:0/name"
echo 262143328850 >"$dir/powercap/intel-rapl:0/max_energy_range_uj"
echo 123456 >"$dir/powercap/intel-rapl:0/energy_uj"
make_file energy env CLMEM_POWERCAP_DIR="$dir/powercap" "$clmem" run reduce --size 4099 \
    --device cpu --reps 2 --format json
# Named alone, a variant that cannot take the size is refused (exit 2) and
# writes no JSON: the skipped result above comes from "all".
if "$clmem" run matmul --size 33 --variant tiled --device cpu --format json \
    >"$dir/tiled.out" 2>/dev/null || [ -s "$dir/tiled.out" ]; then
    echo "FAIL: run matmul --variant tiled at 33 should be refused, with no output"
    failed=1
fi
make_file bench-stdout "$clmem" bench --workloads transpose,reduce --reps 1 --device cpu \
    --output "$dir/bench.json"
make_file compare-stdout "$clmem" compare --devices pocl --workloads transpose --reps 1 \
    --output-dir "$dir/compare"
files=(run sweep bigseed energy bench compare/device-0)
if [ "${CLMEM_BUILT_WITH_MPI:-false}" = true ] && [ -x "${MPIRUN:-}" ]; then
    read -ra mpirun_args <<<"${MPIRUN_ARGS:-}"
    # In the sanitizer build, leaks are not checked under mpirun (as in
    # test_mpi.c: LeakSanitizer's tracer once crashed among Open MPI's threads).
    asan=()
    [ -n "${ASAN_OPTIONS:-}" ] && asan=("ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0")
    make_file mpi-stdout env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "${asan[@]}" \
        "$MPIRUN" "${mpirun_args[@]}" -n 2 "$clmem" bench --workloads transpose --reps 1 \
        --device cpu --output "$dir/mpi.json"
    files+=(mpi)
else
    echo "not an MPI build (or no mpirun): the per-rank form is not checked"
fi

cd "$dir" || exit 1
"$python" - "$schema" "${files[@]}" <<'EOF' || failed=1
import copy, datetime, json, sys
import jsonschema

schema_path, names = sys.argv[1], sys.argv[2:]
with open(schema_path) as f:
    schema = json.load(f)
Validator = jsonschema.Draft202012Validator
Validator.check_schema(schema)
validator = Validator(schema, format_checker=jsonschema.FormatChecker())
failures = []


def fail(name, what):
    failures.append(f"{name}: {what}")


def errors(doc):
    found = []
    for e in validator.iter_errors(doc):
        # Of oneOf's failure, what went wrong in the form the file has.
        branch = 1 if "ranks" in doc else 0
        found += [c for c in e.context if c.relative_schema_path[0] == branch] or [e]
    return [f"at /{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in found]


def results_of(doc):
    if "ranks" in doc:
        return [r for rank in doc["ranks"] for r in rank["results"]]
    return doc["results"]


def expect_results(name, doc, seed, reps, warmup):
    for r in results_of(doc):
        got = (r.get("seed"), r.get("reps"), r.get("warmup"))
        if got != (seed, reps, warmup):
            fail(name, f"{r['workload']} {r['variant']}: seed, reps, warmup {got}, "
                       f"not {(seed, reps, warmup)}")


now = datetime.datetime.now(datetime.timezone.utc)
docs = {}
for name in names:
    try:
        with open(name + ".json") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        fail(name, f"not a JSON file: {e}")
        continue
    docs[name] = doc
    for e in errors(doc):
        fail(name, e)
    try:
        created = datetime.datetime.strptime(doc.get("created", ""), "%Y-%m-%dT%H:%M:%SZ")
        created = created.replace(tzinfo=datetime.timezone.utc)
        if abs((now - created).total_seconds()) > 600:
            fail(name, f"created {doc['created']} is not now ({now:%Y-%m-%dT%H:%M:%SZ} UTC)")
    except ValueError:
        fail(name, f"created {doc.get('created')!r} is not a UTC time")
    hosts = [rank.get("host", {}) for rank in doc.get("ranks", [])] or [doc.get("host", {})]
    for host in hosts:
        if not isinstance(host.get("cores"), int) or host["cores"] < 1:
            fail(name, f"host.cores {host.get('cores')!r}")

if "run" in docs:
    doc = docs["run"]
    expect_results("run", doc, 7, 2, 1)
    statuses = [r["status"] for r in doc["results"]]
    if "skipped" not in statuses or "ok" not in statuses:
        fail("run", f"wants ok and skipped results (tiled at 33), has {statuses}")
    for r in doc["results"]:
        # 2 * 33^3 flops over 4 * 3 * 33^2 bytes
        if r.get("flops_per_byte") != 5.5:
            fail("run", f"{r['variant']}: flops_per_byte {r.get('flops_per_byte')}, not 5.5")
    if "device" not in doc or not doc["device"].get("opencl_c_version"):
        fail("run", "no device with its opencl_c_version")
if "sweep" in docs:
    points = [r.get("sweep_value") for r in docs["sweep"]["results"]]
    if points != list(range(33)):
        fail("sweep", f"offsets {points}, not 0..32")
    if any(r.get("flops_per_byte") != 0 for r in docs["sweep"]["results"]):
        fail("sweep", "a copy's flops_per_byte is not 0")
if "energy" in docs:
    for r in docs["energy"]["results"]:
        e = r.get("energy", {})
        if e.get("source") != "rapl" or not e.get("na"):
            fail("energy", f"{r['variant']}: energy {e}, not rapl's with the reason it has no figures")
if "bigseed" in docs:
    expect_results("bigseed", docs["bigseed"], 2**64 - 1, 1, 1)
for name in ("bench", "compare/device-0", "mpi"):
    if name in docs:
        expect_results(name, docs[name], 42, 1, 1)
        sections = docs[name].get("ranks", [docs[name]])
        if any("peak" not in s or "device" not in s for s in sections):
            fail(name, "a section without its device and peak")
if "mpi" in docs and len(docs["mpi"].get("ranks", [])) != 2:
    fail("mpi", "not 2 ranks")
if "bench" in docs:
    r = {x["workload"]: x for x in docs["bench"]["results"] if x["variant"] == "fma"}
    # 512 iterations x 8 chains x width x 4 flops per float written; the
    # width (4, or a CPU's 8 or 16) is in the result's parameters.
    fma = r.get("peak", {})
    width = int(fma.get("params", "").split("-DFMA_WIDTH=")[-1].split()[0] or 0) if "-DFMA_WIDTH=" in fma.get("params", "") else 0
    if fma.get("flops_per_byte") != 512 * 8 * width * 4 / 4:
        fail("bench", f"peak fma's flops_per_byte {fma.get('flops_per_byte')} at width {width}")

# The schema catches a writer's slips (what additionalProperties, required
# and the types are there for).
if "run" in docs:
    def mutated(change):
        doc = copy.deepcopy(docs["run"])
        change(doc)
        return doc
    slips = {
        "reps as a string": lambda d: d["results"][0].update(reps="2"),
        "a misspelt result key": lambda d: d["results"][0].update(flops_per_bytes=1.0),
        "a misspelt device key": lambda d: d["device"].update(fp_64=True),
        "no host": lambda d: d.pop("host"),
        "a local created": lambda d: d.update(created="2026-01-01T10:00:00+01:00"),
        "an unknown status": lambda d: d["results"][0].update(status="passed"),
        "a skipped result with samples": lambda d: [
            r.update(samples_ms=[1.0]) for r in d["results"] if r["status"] == "skipped"],
        "ok but not verified": lambda d: d["results"][0].update(verified=False),
        "schema_version 2": lambda d: d.update(schema_version=2),
        "an unknown timer": lambda d: d["results"][0].update(timer="gpu"),
        "runs_per_sample without timer": lambda d: [
            r.pop("timer", None) for r in d["results"] if r["status"] != "skipped"],
        "energy figures beside na": lambda d: d["results"][0].update(
            energy={"source": "nvml", "na": "too short", "energy_j": 1.0}),
        "energy figures without their runs": lambda d: d["results"][0].update(
            energy={"source": "nvml", "energy_j": 1.0, "power_w": 300.0, "span_s": 1.2}),
        "energy from an unknown counter": lambda d: d["results"][0].update(
            energy={"source": "wattmeter", "na": "?"}),
        "efficiency without its unit": lambda d: d["results"][0].update(
            energy={"source": "nvml", "energy_j": 1.0, "power_w": 300.0, "span_s": 1.2,
                    "runs": 10, "efficiency": 5.0}),
        "a negative energy": lambda d: d["results"][0].update(
            energy={"source": "rapl", "energy_j": -1.0, "power_w": 30.0, "span_s": 1.2,
                    "runs": 10}),
        "energy on a skipped result": lambda d: [
            r.update(energy={"na": "x"}) for r in d["results"] if r["status"] == "skipped"],
    }
    for what, change in slips.items():
        if not errors(mutated(change)):
            fail("schema", f"accepts {what}")
    # What a GPU's run writes where NVML has a counter: accepted.
    measured = mutated(lambda d: d["results"][0].update(energy={
        "source": "nvml", "energy_j": 0.75, "power_w": 612.5, "efficiency": 73.3,
        "efficiency_unit": "GFLOP/J", "span_s": 1.31, "runs": 52}))
    for e in errors(measured):
        fail("schema", f"refuses a measured energy: {e}")

for line in failures:
    print("FAIL:", line)
print(f"{len(names)} files checked against {schema_path}: "
      f"{'ok' if not failures else str(len(failures)) + ' failures'}")
sys.exit(1 if failures else 0)
EOF
exit $failed
