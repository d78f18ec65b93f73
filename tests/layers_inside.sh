#!/usr/bin/env bash
# The floors inside a folder of src/ (tests/test_layers.sh runs this): the
# files of a folder named below are drawn as floors, lowest first, and
# every dependency between them points down, never up or sideways:
#  1. calls: a file uses no function or variable that a file of its own
#     floor or of a floor above it defines (nm, object by object);
#  2. includes: a file includes no header of the folder from a floor above
#     its own. X.h is X.c's and stands on its floor; a header with no .c
#     of its name is named in the floors itself.
#  3. one door: in src/cli only devices.c lists, chooses and opens devices
#     (it alone uses the OpenCL layer's functions for them, below), so
#     that every command and rank opens a device the same way.
# Every folder of src/ is drawn, from its files' real calls and includes
# (a file stands one floor above the highest file it calls), and every .c
# and .h of it must stand on a floor, so that a new file is placed before
# it is checked. Without MPI, src/mpi's includes alone are checked (its
# stub has no library in LAYER_LIBS); an MPI build checks its calls too.
# A "*" stands for every file of the folder not named: a workload of its
# own file (atomics.c, ...) is added without a floor of its own, on the
# lowest, until it calls another file of src/workloads.
# A planted call from options.c to flow.c fails check 1, as does one from
# io/jsontext.c to tuning.c; a planted include of "flow.h" in devices.c
# fails check 2; clmem_clock_check called from cmd_devices.c fails check 3.
set -euo pipefail
src=${SOURCE_DIR:?}/src
# "|" between floors, lowest first; names on one floor stand side by side.
declare -A floors=(
    [base]="base.h types.h debug device_type error host parallel signals text
            | handles numbers rng size"
    [io]="io.h jsontext output read | netpbm outdir paramdb state | cache paramdb_fitted tuning"
    [opencl]="opencl.h cl_error handles program_cache
              | buffer clock device kernels launch program | library transfer | context"
    [power]="power.h energy"
    [harness]="workload.h harness.h check handles levels libraries options params result_energy traffic
               sampling
               | guards run_programs | run | device_peaks level_rates multi tuning_entries | bench sum tune
               | tune_device"
    [report]="model.h diff_internal.h runfile_internal.h commit diff handles runfile_fields status
              units
              | csv diff_row json roofline_text runfile_hierarchy runfile_result table
              | diff_table hierarchy_table report runfile | diff_write"
    [compare]="model.h doc gnuplot lessons results | bounds compare_md html levels plotter portability
               | plots_lines plots_pp roofline summary | compare_doc plots_bars | plots | compare"
    [workloads]="hierarchy_chase.h hierarchy_probes.h matmul_internal.h hierarchy_check
                 hierarchy_levels hierarchy_run matmul_launch matmul_params matmul_problem
                 strips *
                 | blur constmem hierarchy matmul_model | hierarchy_sweep matmul_fit | matmul
                 | matmul_split registry | suite"
    [mpi]="job.h ranks.h summa_internal.h mpi no_mpi rank_report summa_plan
           | summa_exchange summa_result | summa_pieces summa_rank | summa"
    [cli]="common | suggest | progress | limits pocl_cache driver.h | stopping | options
           | option_help | devices | ranks | flow
           | cmd_devices cmd_list cmd_diff cmd_tune cmd_run cmd_compare cmd_bench cmd_hierarchy
             commands.h
           | cmd_peak | docgen | main"
)
declare -A lib_of
for pair in ${LAYER_LIBS:?}; do
    lib_of[${pair%%=*}]=${pair#*=}
done
fail=0
for dir in "$src"/*/; do
    folder=$(basename "$dir")
    if [ -z "${floors[$folder]:-}" ]; then
        echo "layers: src/$folder has no floors (draw them in tests/layers_inside.sh)"
        fail=1
    fi
done
for folder in "${!floors[@]}"; do
    # floor_of[NAME]: the floor of NAME.c and NAME.h, or of a header named.
    declare -A floor_of=()
    level=0
    set -f # "*" is a word here, not a pattern
    for word in ${floors[$folder]}; do
        if [ "$word" = "|" ]; then
            level=$((level + 1))
        else
            floor_of[$word]=$level
        fi
    done
    set +f
    # A file's floor into $at: its own name's (a header named alone), else
    # its stem's; -1 for none (no subshell: asked for every include and call).
    floor() {
        at=${floor_of[$1]:-${floor_of[${1%.[ch]}]:-${floor_of['*']:--1}}}
    }
    for file in "$src/$folder"/*.[ch]; do
        name=${file##*/}
        floor "$name"
        if [ "$at" -lt 0 ]; then
            echo "layers: src/$folder/$name stands on no floor (add it to tests/layers_inside.sh)"
            fail=1
        fi
    done
    # 2. includes of the folder's own headers ("X.h", no slash).
    while IFS= read -r hit; do
        file=${hit%%:*} line=${hit#*:}
        [[ $line =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"/]*)\" ]] || continue
        inc=${BASH_REMATCH[1]}
        [ -e "$src/$folder/$inc" ] || continue # one the build makes, or outside
        name=${file##*/}
        floor "$inc"
        them=$at
        floor "$name"
        if [ "$them" -gt "$at" ]; then
            echo "layers: src/$folder/$name includes \"$inc\", a floor above it: an arrow up" \
                "inside src/$folder"
            fail=1
        fi
    done < <(grep -H -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$src/$folder"/*.[ch] || true)
    # 1. calls, from the objects of the folder's library: "A B SYMBOL" for
    # A using SYMBOL, which B defines (stems, as NAME.c.o or
    # src_FOLDER_NAME.c.o).
    lib=${lib_of[$folder]:-}
    if [ -z "$lib" ] && [ "$folder" = mpi ]; then
        unset floor_of
        continue # a build without MPI checks src/mpi's includes: its stub has no library here
    elif [ -z "$lib" ]; then
        echo "layers: no library for src/$folder in LAYER_LIBS: its calls are not checked"
        fail=1
        continue
    fi
    edges=$(nm -A -g -P "$lib" 2>/dev/null | FOLDER=$folder awk '
        {
            file = $1
            sub(/:$/, "", file)
            if (file ~ /\]$/) { sub(/^.*\[/, "", file); sub(/\]$/, "", file) }
            sub(/^.*\//, "", file)
            sub(/\.c\.o$/, "", file)
            sub("^src_" ENVIRON["FOLDER"] "_", "", file)
            if ($3 == "U") used[++n] = file " " $2
            else if ($3 ~ /^[A-Z]$/) owner[$2] = file
        }
        END {
            for (i = 1; i <= n; i++) {
                split(used[i], u, " ")
                if ((u[2] in owner) && owner[u[2]] != u[1]) print u[1], owner[u[2]], u[2]
            }
        }' | sort -u)
    sources=("$src/$folder"/*.c)
    if [ -z "$edges" ] && [ "${#sources[@]}" -gt 1 ]; then # one file (power/) calls no other
        echo "layers: no call between the files of src/$folder found (nm): nothing checked"
        fail=1
    fi
    if [ "$folder" = cli ]; then
        while read -r file sym; do
            case "$sym" in
            clmem_ctx_open | clmem_ctx_create | clmem_clock_check | clmem_devices_list | \
                clmem_devices_select | clmem_device_spec_find)
                [ "$file" = devices ] && continue
                echo "layers: src/cli/$file.c calls $sym: only devices.c lists and opens devices"
                fail=1
                ;;
            esac
        done < <(nm -A -u -P "$lib" 2>/dev/null | awk '
            {
                file = $1
                sub(/:$/, "", file)
                if (file ~ /\]$/) { sub(/^.*\[/, "", file); sub(/\]$/, "", file) }
                sub(/^.*\//, "", file)
                sub(/\.c\.o$/, "", file)
                sub(/^src_cli_/, "", file)
                print file, $2
            }')
    fi
    while read -r user owner sym; do
        [ -n "$user" ] || continue
        floor "$owner"
        them=$at
        floor "$user"
        if [ "$them" -ge "$at" ]; then
            where="a floor above it"
            [ "$them" -gt "$at" ] || where="its own floor"
            echo "layers: src/$folder/$user.c uses $sym, which $owner.c defines on $where:" \
                "an arrow up inside src/$folder"
            fail=1
        fi
    done <<<"$edges"
    unset floor_of
done
[ "$fail" -eq 0 ] &&
    echo "layers: inside ${!floors[*]}: every call and include points down a floor"
exit "$fail"
