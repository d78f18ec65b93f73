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

Usage: test_docs.py SOURCE_DIR CLMEM MAN_PAGE BASH_COMPLETION ZSH_COMPLETION
"""
import csv
import io
import os
import re
import subprocess
import sys

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


def main():
    if len(sys.argv) != 6:
        print(__doc__)
        return 2
    src, clmem, man, bash, zsh = sys.argv[1:]
    check_options(src, man, bash, zsh)
    check_workloads(src, clmem)
    check_links(src)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
