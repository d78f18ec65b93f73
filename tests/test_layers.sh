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
#  3. files: no circle between files of src/, in a layer or across: file A
#     depends on file B when A uses a function or variable that B defines
#     (nm, object by object of the same libraries), and no file may depend,
#     through any number of others, on a file that depends on it (tsort
#     names each loop). Shared code goes in a file of its own, below both.
# A planted upward call (base calling the harness) fails check 2; a
# planted include (io including "harness/harness.h") fails check 1; a
# planted call from csv.c's clmem_csv_field to diff.c fails check 3.
set -euo pipefail
src=${SOURCE_DIR:?}/src
order=(base io opencl harness report workloads mpi cli)
rank() {
    local i
    for i in "${!order[@]}"; do [ "${order[$i]}" = "$1" ] && echo "$i" && return; done
    echo -1
}
fail=0
for dir in "$src"/*/; do
    layer=$(basename "$dir")
    me=$(rank "$layer")
    if [ "$me" -lt 0 ]; then
        echo "layers: src/$layer is in no layer (add it to tests/test_layers.sh and docs/development.md)"
        fail=1
        continue
    fi
    for file in "$dir"*.c "$dir"*.h; do
        [ -e "$file" ] || continue
        while IFS= read -r line; do
            inc=$(sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*)".*/\1/' <<<"$line")
            case "$inc" in
            clmem/clmem.h) continue ;;
            ../* | */../*)
                echo "layers: ${file#"$src"/} climbs out of its folder: #include \"$inc\""
                fail=1
                continue
                ;;
            */*) ;;
            *) continue ;; # a header of its own folder, or one the build makes there
            esac
            other=${inc%%/*}
            them=$(rank "$other")
            if [ "$them" -lt 0 ] || [ "$them" -gt "$me" ]; then
                echo "layers: ${file#"$src"/} ($layer) includes \"$inc\" ($other, above it)"
                fail=1
            fi
        done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" || true)
    done
done

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
    me=$(rank "$layer")
    while read -r sym; do
        owner=${defined_by[$sym]:-}
        [ -n "$owner" ] || continue # the C library, OpenCL, cJSON, MPI, ...
        if [ "$(rank "$owner")" -gt "$me" ]; then
            echo "layers: $layer uses $sym, which $owner (above it) defines"
            fail=1
        fi
    done < <(nm -u "${lib_of[$layer]}" 2>/dev/null | awk '$1 == "U" { print $2 }' | sort -u)
done

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

[ "$fail" -eq 0 ] &&
    echo "layers: ${order[*]}: every include and call points down, no circle between files"
exit "$fail"
