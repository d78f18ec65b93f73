#!/usr/bin/env bash
# The layers of src/ (docs/development.md, "Layout"), lowest first, each folder with its
# own header: every dependency must point down this list, never up, so no
# include circle between folders can exist.
#  1. includes: a file of src/L includes only "clmem/clmem.h", headers of
#     L or of a layer below it (as "K/k.h"), and files made by the build;
#     never a path that climbs ("../").
#  2. calls: each layer's library (LAYER_LIBS="name=path ...", from
#     meson.build) uses no function or variable that a layer above it
#     defines (nm: its undefined symbols against the others' definitions).
#  3. declarations: no header of src/L names (comments and texts aside) a
#     function or variable that a layer above L defines: each layer's
#     header declares its own, and its structs live there.
#  4. files: no circle between files of src/, in a layer or across: file A
#     depends on file B when A uses a function or variable that B defines
#     (nm, object by object of the same libraries), and no file may depend,
#     through any number of others, on a file that depends on it (tsort
#     names each loop). Shared code goes in a file of its own, below both.
#  5. headers: inside a folder, no file includes (itself or through the
#     folder's other headers) the header of a file that uses it, however
#     indirectly: X.h is X.c's, and a file that X.c calls into never
#     includes it. What the files an orchestrator calls share goes in a
#     header of its own that they include (report/model.h, compare/model.h),
#     the orchestrator's entry point in its own (report.h, compare.h).
#  6. rooms: only io/ renames, links or syncs files, and only io/ and
#     report/ say "cannot write 'FILE'" (every report ends through
#     report/commit.c); only power/ names the vendors' power meters.
# A planted upward call (base calling the harness) fails check 2; a
# planted include (io including "harness/harness.h") fails check 1;
# clmem_ctx_open declared in base/types.h (as it was) fails check 3; a
# planted call from csv.c's clmem_csv_field to diff.c fails check 4; a
# planted include of "compare/compare.h" in compare/html.c, or of
# "report/report.h" in report/model.h, fails check 5; a command that
# commits its own report (cmd_run.c before report/commit.c), or compare
# swapping its directory with rename(2), fails check 6.
set -euo pipefail
src=${SOURCE_DIR:?}/src
order=(base io opencl power harness report compare workloads mpi cli)
# A layer's place in the list, -1 for none (looked up without a subshell:
# the checks below ask for thousands).
declare -A rank_of
for i in "${!order[@]}"; do rank_of[${order[$i]}]=$i; done
include_re='^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*)"'
fail=0
own= # "L/FILE L/HEADER": a file of src/L including a header of its own folder
for dir in "$src"/*/; do
    layer=$(basename "$dir")
    if [ -z "${rank_of[$layer]:-}" ]; then
        echo "layers: src/$layer is in no layer (add it to tests/test_layers.sh and docs/development.md)"
        fail=1
    fi
done
# Every #include "..." of src/ at once (one grep: a process per file is slow
# on a loaded machine).
while IFS= read -r hit; do
    file=${hit%%:*} line=${hit#*:}
    rel=${file#"$src"/}
    layer=${rel%%/*}
    me=${rank_of[$layer]:--1}
    [ "$me" -ge 0 ] || continue # said above
    [[ $line =~ $include_re ]] || continue
    inc=${BASH_REMATCH[1]}
    case "$inc" in
    clmem/clmem.h) continue ;;
    ../* | */../*)
        echo "layers: $rel climbs out of its folder: #include \"$inc\""
        fail=1
        continue
        ;;
    */*) ;;
    *) continue ;; # a header of its own folder, or one the build makes there
    esac
    other=${inc%%/*}
    [ "$other" = "$layer" ] && own+="$layer/${file##*/} $inc"$'\n'
    them=${rank_of[$other]:--1}
    if [ "$them" -lt 0 ] || [ "$them" -gt "$me" ]; then
        echo "layers: $rel ($layer) includes \"$inc\" ($other, above it)"
        fail=1
    fi
done < <(grep -H -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$src"/*/*.c "$src"/*/*.h || true)

# Symbols: who defines what, then each layer's needs.
declare -A lib_of defined_by
for pair in ${LAYER_LIBS:?}; do
    lib_of[${pair%%=*}]=${pair#*=}
done
for layer in "${!lib_of[@]}"; do
    while read -r sym; do
        defined_by[$sym]=$layer
    done < <(nm --defined-only -g "${lib_of[$layer]}" 2>/dev/null | awk 'NF == 3 { print $3 }')
done
for layer in "${!lib_of[@]}"; do
    me=${rank_of[$layer]:--1}
    while read -r sym; do
        owner=${defined_by[$sym]:-}
        [ -n "$owner" ] || continue # the C library, OpenCL, cJSON, MPI, ...
        if [ "${rank_of[$owner]:--1}" -gt "$me" ]; then
            echo "layers: $layer uses $sym, which $owner (above it) defines"
            fail=1
        fi
    done < <(nm -u "${lib_of[$layer]}" 2>/dev/null | awk '$1 == "U" { print $2 }' | sort -u)
done

# Declarations: no header of src/L names a function or variable that a
# layer above L defines (a prototype, an extern, a macro or inline that
# calls it), comments aside: each layer's header declares its own. One awk
# over every header: first "SYMBOL RANK LAYER" for each definition.
declared=$(for sym in "${!defined_by[@]}"; do
    echo "$sym ${rank_of[${defined_by[$sym]}]:--1} ${defined_by[$sym]}"
done | awk -v src="$src/" -v order="${order[*]}" '
    BEGIN { n = split(order, names, " "); for (i = 1; i <= n; i++) layer_rank[names[i]] = i - 1 }
    FNR == NR { rank[$1] = $2; owner[$1] = $3; next }
    FNR == 1 {
        rel = FILENAME; sub("^" src, "", rel)
        layer = rel; sub(/\/.*/, "", layer)
        me = (layer in layer_rank) ? layer_rank[layer] : -1
        in_comment = 0
    }
    {
        line = $0
        # Comments out: /* ... */ across lines, then // to the end.
        out = ""
        while (line != "") {
            if (in_comment) {
                at = index(line, "*/")
                if (!at) { line = ""; break }
                line = substr(line, at + 2); in_comment = 0
            } else {
                at = index(line, "/*")
                if (!at) { out = out line; line = ""; break }
                out = out substr(line, 1, at - 1) " "; line = substr(line, at + 2); in_comment = 1
            }
        }
        sub(/\/\/.*/, "", out)
        gsub(/"([^"\\]|\\.)*"/, "\"\"", out) # texts hold no declaration
        gsub(/(struct|enum|union)[[:space:]]+[A-Za-z_][A-Za-z0-9_]*/, " ", out) # tags are types
        while (match(out, /[A-Za-z_][A-Za-z0-9_]*/)) {
            word = substr(out, RSTART, RLENGTH); out = substr(out, RSTART + RLENGTH)
            if ((word in rank) && me >= 0 && rank[word] > me && !((rel, word) in said)) {
                said[rel, word] = 1
                printf "layers: src/%s (%s) declares %s, which %s (above it) defines\n", \
                       rel, layer, word, owner[word]
            }
        }
    }' - "$src"/*/*.h)
if [ -n "$declared" ]; then
    echo "$declared"
    fail=1
fi

# Files: "U FILE SYMBOL" for each use, "D FILE SYMBOL" for each definition,
# FILE as LAYER/NAME.c (an object NAME.c.o, or src_LAYER_NAME.c.o).
uses=$(for layer in "${!lib_of[@]}"; do
    nm -A -g -P "${lib_of[$layer]}" 2>/dev/null | LAYER=$layer awk '
        {
            file = $1
            sub(/:$/, "", file)
            if (file ~ /\]$/) { sub(/^.*\[/, "", file); sub(/\]$/, "", file) }
            sub(/^.*\//, "", file)
            sub(/\.o$/, "", file)
            sub("^src_" ENVIRON["LAYER"] "_", "", file)
            file = ENVIRON["LAYER"] "/" file
            if ($3 == "U") print "U", file, $2
            else if ($3 ~ /^[A-Z]$/) print "D", file, $2
        }'
done)
# "A B SYMBOL": A uses SYMBOL, which B defines.
edges=$(awk '
    $1 == "D" { owner[$3] = $2; next }
    { used[++n] = $2 " " $3 }
    END {
        for (i = 1; i <= n; i++) {
            split(used[i], u, " ")
            if ((u[2] in owner) && owner[u[2]] != u[1]) print u[1], owner[u[2]], u[2]
        }
    }' <<<"$uses" | sort -u)
[ -n "$edges" ] || {
    echo "layers: no call between files found (nm): the file check saw nothing"
    fail=1
}
# tsort prints each loop it breaks as "tsort: -: input contains a loop:"
# and then its files, one "tsort: FILE" line each.
loops=$(cut -d' ' -f1,2 <<<"$edges" | sort -u | tsort 2>&1 >/dev/null || true)
if [ -n "$loops" ]; then
    fail=1
    awk -v edges="$edges" '
        BEGIN {
            n = split(edges, line, "\n")
            for (i = 1; i <= n; i++) {
                split(line[i], e, " ")
                key = e[1] " " e[2]
                text = (key in why) ? why[key] ", " e[3] : e[3]
                why[key] = text
            }
        }
        function report(   i, j, list) {
            if (!k) return
            list = f[1]
            for (i = 2; i <= k; i++) list = list ", " f[i]
            print "layers: a circle between files: " list
            for (i = 1; i <= k; i++)
                for (j = 1; j <= k; j++)
                    if ((f[i] " " f[j]) in why)
                        print "layers:   " f[i] " uses " why[f[i] " " f[j]] " (" f[j] ")"
            k = 0
        }
        /input contains a loop/ { report(); next }
        { sub(/^tsort: /, ""); f[++k] = $0 }
        END { report() }' <<<"$loops"
fi

# Headers: each .c file's headers of its own folder, through the headers
# they include; each file's reach through the calls (edges, above).
arrows=$(awk -v own="$own" -v edges="$edges" -v src="$src" '
    function exists(path,   line, ok) {
        ok = (getline line < path) >= 0
        close(path)
        return ok
    }
    BEGIN {
        n = split(own, line, "\n")
        for (i = 1; i <= n; i++) {
            if (split(line[i], pair, " ") != 2) continue
            inc[pair[1]] = inc[pair[1]] " " pair[2]
            file[pair[1]] = 1
        }
        n = split(edges, line, "\n")
        for (i = 1; i <= n; i++) {
            split(line[i], e, " ")
            if (e[1] != e[2]) calls[e[1]] = calls[e[1]] " " e[2]
        }
        for (f in file) {
            if (f !~ /\.c$/) continue
            # The headers f includes, directly or through others: via[h] is
            # the header of f that brings h in.
            delete seen; delete via
            queue = inc[f]; k = split(queue, todo, " ")
            for (i = 1; i <= k; i++) via[todo[i]] = todo[i]
            for (i = 1; i <= k; i++) {
                h = todo[i]
                if (h in seen) continue
                seen[h] = 1
                m = split(inc[h], more, " ")
                for (j = 1; j <= m; j++)
                    if (!(more[j] in via)) { via[more[j]] = via[h]; todo[++k] = more[j] }
            }
            stem = f; sub(/\.c$/, "", stem)
            for (h in seen) {
                owner = h; sub(/\.h$/, ".c", owner)
                if (owner == f || !exists(src "/" owner)) continue
                # Does owner reach f through the calls?
                delete reached
                r = split(calls[owner], walk, " ")
                for (i = 1; i <= r; i++) reached[walk[i]] = 1
                for (i = 1; i <= r && !(f in reached); i++) {
                    m = split(calls[walk[i]], more, " ")
                    for (j = 1; j <= m; j++)
                        if (!(more[j] in reached)) { reached[more[j]] = 1; walk[++r] = more[j] }
                }
                if (f in reached)
                    printf "layers: %s includes \"%s\"%s, the header of %s, which uses it: an arrow " \
                           "back up inside src/%s (what its files share goes in a header of its own)\n",
                           f, h, via[h] == h ? "" : " (through \"" via[h] "\")", owner,
                           substr(f, 1, index(f, "/") - 1)
            }
        }
    }' | sort)
if [ -n "$arrows" ]; then
    echo "$arrows"
    fail=1
fi

# Rooms: one place for each job. An output is renamed, linked or synced
# into place by io/ alone, and a report's end (write, flush, name the
# file, commit or abort) is the report layer's (report/commit.c): no other
# folder says "cannot write 'FILE'" itself. The vendors' power meters
# (NVML, RAPL, amdsmi, Sysman) are power/'s alone.
while IFS= read -r hit; do
    rel=${hit#"$src"/}
    case "$rel" in
    io/* | report/*) ;;
    *)
        echo "layers: ${rel%%:*} writes files itself (rename, link, sync or its own 'cannot" \
            "write' message): outputs go through io/, reports end through report/commit.c:" \
            "${rel#*:}"
        fail=1
        ;;
    esac
done < <(grep -n -E "(^|[^a-z_])(rename|renameat2?|linkat|fsync|fdatasync)[[:space:]]*\(|\"cannot write '%s': %s\"" \
    "$src"/*/*.c || true)
while IFS= read -r hit; do
    rel=${hit#"$src"/}
    case "$rel" in
    power/*) ;;
    *)
        echo "layers: ${rel%%:*} reads a power meter; meters are src/power's: ${rel#*:}"
        fail=1
        ;;
    esac
done < <(grep -n -E 'libnvidia-ml|libamd_smi|libze_loader|powercap' "$src"/*/*.c || true)

"$(dirname "${BASH_SOURCE[0]}")"/layers_inside.sh || fail=1
[ "$fail" -eq 0 ] &&
    echo "layers: ${order[*]}: every include, declaration and call points down, no circle" \
        "between files, no file includes the header of one that uses it, files written" \
        "through io/ and reports ended through report/, power meters in power/"
exit "$fail"
