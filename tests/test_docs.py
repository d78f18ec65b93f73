#!/usr/bin/env python3
"""The documentation against the code it describes.

- Every option of the one option table (src/cli/options.c: each row's
  .name and .alias) appears as --NAME in docs/usage.md, in the man page
  that the build generated (clmem.1), and in the bash and zsh completions.
- README.md's workload table names the workloads and variants that
  `clmem list --format csv` prints, in the same order.
- Every relative link of README.md, CHANGELOG.md, docs/*.md and
  bench/README.md names a file that exists, and a link to a heading of a
  Markdown file (FILE.md#anchor, #anchor) names a heading that exists.
- Every JSON file under bench/ is a run file that clmem reads (or a tuning
  database): the files the docs point at load with the clmem built.
- Every example command in the code blocks of README.md and docs/*.md and
  in the man page's EXAMPLES runs: without a device where it needs none
  (exit 0; diff 0 or 4), else up to the device (exit 3 with no OpenCL
  driver: its options and files were all accepted); under mpirun, named
  and left out. The run files an example names as a user's own
  (my-gpu.json, base.json) stand for files of bench/runs/.
- The man page has EXAMPLES and a SEE ALSO whose documentation files are
  those docs/meson.build installs; the bash completion completes by context
  (the named workload's variants, tune's tunable workloads, run files for
  compare and diff, the item after a comma).

Usage: test_docs.py SOURCE_DIR CLMEM MAN_PAGE BASH_COMPLETION ZSH_COMPLETION
"""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

failures = []


def fail(message):
    failures.append(message)
    print("docs: " + message)


def table_options(options_c):
    """The long names (and aliases) of the option table's rows."""
    text = open(options_c, encoding="utf-8").read()
    start = text.index("static const struct cli_option options[")
    end = text.index("\n};", start)
    names = re.findall(r'\.(?:name|alias)\s*=\s*"([^"]+)"', text[start:end])
    if len(names) < 10:
        fail("found only %d options in %s: has the table moved?" % (len(names), options_c))
    return names


def has_option(text, name):
    return re.search(r"--%s(?![A-Za-z0-9-])" % re.escape(name), text) is not None


def check_options(src, man, bash, zsh):
    names = table_options(os.path.join(src, "src", "cli", "options.c"))
    usage = open(os.path.join(src, "docs", "usage.md"), encoding="utf-8").read()
    # roff writes each hyphen of an option as \-
    man_text = open(man, encoding="utf-8").read().replace("\\-", "-")
    bash_text = open(bash, encoding="utf-8").read()
    zsh_text = open(zsh, encoding="utf-8").read()
    for name in names:
        for what, text in (("docs/usage.md", usage), ("the man page", man_text),
                           ("the bash completion", bash_text),
                           ("the zsh completion", zsh_text)):
            if not has_option(text, name):
                fail("option --%s of src/cli/options.c is not in %s" % (name, what))
    for section in (".SH NAME", ".SH SYNOPSIS", ".SH OPTIONS", ".SH EXIT STATUS"):
        if section not in man_text:
            fail("the man page has no '%s'" % section)
    if subprocess.run(["bash", "-n", bash]).returncode != 0:
        fail("the bash completion is not valid bash")
    print("docs: %d options in docs/usage.md, the man page and the completions" % len(names))


def check_workloads(src, clmem):
    out = subprocess.run([clmem, "list", "--format", "csv"], check=True,
                         stdout=subprocess.PIPE, universal_newlines=True).stdout
    listed = []
    for row in csv.DictReader(io.StringIO(out)):
        if listed and listed[-1][0] == row["workload"]:
            listed[-1][1].append(row["variant"])
        else:
            listed.append((row["workload"], [row["variant"]]))
    readme = open(os.path.join(src, "README.md"), encoding="utf-8").read()
    section = re.search(r"^## Workloads\n(.*?)(?=^## )", readme, re.S | re.M)
    if not section:
        fail("README.md has no '## Workloads' section")
        return
    table = []
    for line in section.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or cells[0] in ("workload", "") or set(cells[0]) <= set("-: "):
            continue
        table.append((cells[0], [v.strip() for v in cells[1].split(",")]))
    if table != listed:
        fail("README.md's workload table does not agree with 'clmem list':\n"
             "  README:     %s\n  clmem list: %s" % (table, listed))
    else:
        print("docs: README's workload table agrees with 'clmem list' (%d workloads)"
              % len(table))


def slug(heading):
    """A heading's anchor as GitHub makes it."""
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    found = set()
    fence = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        elif not fence:
            m = re.match(r"#{1,6} (.*)", line)
            if m:
                found.add(slug(m.group(1)))
    return found


def check_links(src):
    files = [os.path.join(src, f) for f in ("README.md", "CHANGELOG.md",
                                           os.path.join("bench", "README.md"))]
    docs = os.path.join(src, "docs")
    files += sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    count = 0
    for path in files:
        if not os.path.exists(path):
            fail("%s is missing" % os.path.relpath(path, src))
            continue
        text = open(path, encoding="utf-8").read()
        text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)  # code blocks
        text = re.sub(r"`[^`\n]*`", "", text)  # code spans
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):  # https:, mailto:
                continue
            count += 1
            file_part, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) \
                if file_part else path
            where = os.path.relpath(path, src)
            if not os.path.exists(dest):
                fail("%s links to '%s', which does not exist" % (where, target))
            elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                fail("%s links to '%s': no such heading in %s"
                     % (where, target, os.path.relpath(dest, src)))
    print("docs: %d relative links checked" % count)


def check_params_file(src, clmem, path, where):
    """A parameter-database file (clmem tune --export) loads beside the
    shipped ones: clmem reads the whole database when a run looks up a row."""
    with tempfile.TemporaryDirectory() as data:
        shutil.copytree(os.path.join(src, "data", "params"), os.path.join(data, "params"))
        shutil.copy(path, os.path.join(data, "params", "zz-exported.json"))
        env = dict(os.environ, CLMEM_DATA_DIR=data)
        got = subprocess.run([clmem, "run", "blur", "--variant", "coarsened", "--device", "cpu",
                              "--size", "64x64", "--reps", "1"], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             universal_newlines=True)
        if got.returncode != 0:
            fail("%s does not load as a parameter-database file (clmem run exit %d): %s"
                 % (where, got.returncode, got.stderr.strip()))


BENCH_MAX_FILES = 500


def check_bench_curated(src):
    """bench/ is the product's results, not a lab notebook: its scripts and
    one curated set per device (bench/README.md), the experiments in the
    tag it names. Counted as git tracks them where the tree is a clone."""
    got = subprocess.run(["git", "-C", src, "ls-files", "bench"], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, universal_newlines=True)
    if got.returncode == 0 and got.stdout:
        count = len(got.stdout.splitlines())
    else:
        count = sum(len(names) for _, _, names in os.walk(os.path.join(src, "bench")))
    if count >= BENCH_MAX_FILES:
        fail("bench/ holds %d files, %d at most: keep one curated set per device there "
             "(bench/README.md) and move experiments to a tag" % (count, BENCH_MAX_FILES - 1))
    readme = open(os.path.join(src, "bench", "README.md"), encoding="utf-8").read()
    if not re.search(r"`notebook-\d{4}-\d{2}-\d{2}`", readme):
        fail("bench/README.md names no notebook tag (where the experiments went)")
    print("docs: bench/ holds %d files" % count)


def check_run_files(src, clmem):
    """Every JSON of bench/: a tuning database, an anchor tool's output
    (clpeak's), parameter rows clmem reads, or a run file clmem reads."""
    count = 0
    for root, _, names in os.walk(os.path.join(src, "bench")):
        for name in sorted(names):
            if not name.endswith(".json"):
                continue
            path = os.path.join(root, name)
            where = os.path.relpath(path, src)
            try:
                head = json.load(open(path, encoding="utf-8"))
            except ValueError as e:
                fail("%s is not JSON: %s" % (where, e))
                continue
            if isinstance(head, dict) and "clmem_tuning" in head:
                continue  # a tuning database (clmem tune), not a run file
            if isinstance(head, dict) and "clpeak_version" in head:
                continue  # clpeak's readings beside a run (bench/hierarchy)
            if isinstance(head, dict) and "rows" in head and "level" in head:
                check_params_file(src, clmem, path, where)  # clmem tune --export's rows
                continue
            got = subprocess.run([clmem, "diff", path, path], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, universal_newlines=True)
            if got.returncode != 0:
                fail("%s does not load (clmem diff exit %d): %s"
                     % (where, got.returncode, got.stderr.strip()))
            count += 1
    print("docs: %d run files under bench/ load" % count)


# The run files an example names as a user's own, and the bench/ files that
# stand for them.
STAND_INS = {
    "my-gpu.json": "bench/runs/pocl-2core.json",
    "other-gpu.json": "bench/runs/h200.json",
    "base.json": "bench/runs/h100-a.json",
    "new.json": "bench/runs/h100-b.json",
    "bench/baseline.json": "bench/runs/h100-a.json",
    "new-coalescing.json": "bench/runs/h100-b.json",
    "bench/baseline-coalescing.json": "bench/runs/h100-a.json",
}
# Commands that open no device: run for real.
NO_DEVICE = ("list", "diff", "help", "--help", "--version")
OUTPUTS = ("--output", "--output-dir")


def example_lines(src):
    """(file, command line) of every example in README.md's and docs/*.md's
    code blocks, variables of the block expanded."""
    files = ["README.md"] + sorted(os.path.join("docs", f)
                                   for f in os.listdir(os.path.join(src, "docs"))
                                   if f.endswith(".md"))
    for f in files:
        text = open(os.path.join(src, f), encoding="utf-8").read()
        for block in re.findall(r"^```[a-z]*\n(.*?)^```", text, re.S | re.M):
            variables = {}
            for line in block.splitlines():
                line = line.strip()
                m = re.match(r"([A-Za-z_]\w*)=(\S+)$", line)
                if m:
                    variables[m.group(1)] = m.group(2)
                    continue
                line = re.sub(r"^\$ ", "", line)
                line = re.sub(r"\s+#.*$", "", line)
                line = re.sub(r"\s*\|\|\s*exit\s*$", "", line)
                for part in line.split("&&"):
                    part = part.strip()
                    if re.match(r"(mpirun\s.*\s)?(\./)?(build/)?clmem(\s|$)", part):
                        for k, v in variables.items():
                            part = part.replace("$" + k, v)
                        yield f, part


def man_examples(man_text):
    section = re.search(r"^\.SH EXAMPLES\n(.*?)^\.SH ", man_text, re.S | re.M)
    if not section:
        fail("the man page has no EXAMPLES")
        return []
    return [line[3:].replace("\\-", "-") for line in section.group(1).splitlines()
            if line.startswith(".B ")]


def synopsis(words):
    """A usage line rather than an example: [options], A|B, WORKLOAD."""
    return any("[" in w or "|" in w or re.match(r"[A-Z][A-Z_]*(\.json)?$", w)
               for w in words[1:])


def run_example(src, clmem, where, line, work, no_driver):
    """Runs one example; returns how ('ran', 'device', 'mpi', 'usage')."""
    words = line.split()
    if words[0] == "mpirun":
        return "mpi"
    if synopsis(words):
        return "usage"
    args = []
    i = 1
    while i < len(words):
        w = words[i]
        if w in OUTPUTS and i + 1 < len(words):
            args += [w, os.path.join(work, "out-%d" % len(args))]
            i += 2
            continue
        w = STAND_INS.get(w, w)
        # A file of the source tree (the command's first word is no file).
        if args and ("/" in w or w.endswith(".json")) and os.path.exists(os.path.join(src, w)):
            w = os.path.join(src, w)
        args.append(w)
        i += 1
    command = args[0] if args else "--help"
    files = [a for a in args[1:] if a.endswith(".json") and not a.startswith("-")]
    needs_device = not (command in NO_DEVICE or
                        (command == "compare" and files and "--device" not in args
                         and "--devices" not in args))
    env = dict(os.environ)
    if needs_device:
        env["OCL_ICD_VENDORS"] = no_driver
    got = subprocess.run([clmem] + args, cwd=work, env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
    allowed = (3,) if needs_device else (0, 4) if command == "diff" else (0,)
    if got.returncode not in allowed:
        fail("%s: the example '%s' exits %d (expected %s): %s"
             % (where, line, got.returncode, " or ".join(map(str, allowed)),
                got.stderr.strip()[:300]))
    return "device" if needs_device else "ran"


def check_examples(src, clmem, man):
    import tempfile
    man_text = open(man, encoding="utf-8").read()
    examples = list(example_lines(src)) + [("the man page", l) for l in man_examples(man_text)]
    counts = {}
    with tempfile.TemporaryDirectory() as work:
        no_driver = os.path.join(work, "no-driver")
        os.mkdir(no_driver)
        for where, line in examples:
            how = run_example(src, clmem, where, line, work, no_driver)
            counts[how] = counts.get(how, 0) + 1
    print("docs: %d examples: %d ran, %d accepted up to the device, %d under mpirun left out, "
          "%d usage lines" % (len(examples), counts.get("ran", 0), counts.get("device", 0),
                              counts.get("mpi", 0), counts.get("usage", 0)))


def check_man_and_completion(src, man, bash):
    man_text = open(man, encoding="utf-8").read()
    see = re.search(r"^\.SH SEE ALSO\n(.*)", man_text, re.S | re.M)
    installed = open(os.path.join(src, "docs", "meson.build"), encoding="utf-8").read()
    if not see:
        fail("the man page has no SEE ALSO")
    else:
        for doc in re.findall(r"([A-Za-z]+\.md)", re.sub(r"\\f[BIR]", " ", see.group(1))):
            if "'%s'" % doc not in installed:
                fail("the man page's SEE ALSO names %s, which docs/meson.build does not install"
                     % doc)
    import tempfile

    def complete(words, cwd):
        script = ('source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); '
                  '_clmem; printf "%s\\n" "${COMPREPLY[@]}"')
        out = subprocess.run(["bash", "-c", script, "_", bash] + words, cwd=cwd,
                             stdout=subprocess.PIPE, universal_newlines=True).stdout
        return sorted(w for w in out.split("\n") if w)

    with tempfile.TemporaryDirectory() as work:
        for name in ("a.json", "b.txt"):
            open(os.path.join(work, name), "w").close()
        cases = [
            (["clmem", "run", "matmul", "--variant", "re"], ["regblock", "regblock_padded"]),
            (["clmem", "run", "transpose", "--variant", "c"], ["coalesced", "copy"]),
            (["clmem", "tune", "matmul", "--variant", ""], ["cpu_blocked", "panel", "regblock", "splitk"]),
            (["clmem", "tune", "p"], []),
            (["clmem", "tune", "m"], ["matmul"]),
            (["clmem", "bench", "--workloads", "matmul,tr"], ["matmul,transpose"]),
            (["clmem", "compare", "--devices", "gpu,c"], ["gpu,cpu"]),
            (["clmem", "compare", ""], ["a.json"]),
            (["clmem", "diff", "a.json", ""], ["a.json"]),
        ]
        for words, want in cases:
            got = complete(words, work)
            if got != want:
                fail("the bash completion of '%s' offered %s, not %s"
                     % (" ".join(words), got, want))
    print("docs: the man page's EXAMPLES and SEE ALSO; %d completions by context" % len(cases))


def main():
    if len(sys.argv) != 6:
        print(__doc__)
        return 2
    src, clmem, man, bash, zsh = sys.argv[1:]
    src, clmem, man, bash, zsh = (os.path.abspath(p) for p in (src, clmem, man, bash, zsh))
    check_options(src, man, bash, zsh)
    check_workloads(src, clmem)
    check_links(src)
    check_bench_curated(src)
    check_run_files(src, clmem)
    check_examples(src, clmem, man)
    check_man_and_completion(src, man, bash)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
