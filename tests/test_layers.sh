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
# A planted upward call (base calling the harness) fails check 2; a
# planted include (io including "harness/harness.h") fails check 1.
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
[ "$fail" -eq 0 ] && echo "layers: ${order[*]}: every include and call points down"
exit "$fail"
