#!/usr/bin/env bash
# `meson install` gives a program what it needs to embed libclmem: the
# library, include/clmem/clmem.h, clmem.pc and the kernels; and what a user
# of the program needs: the man page clmem(1) and the bash and zsh
# completions, where man and the shells look for them. Installed into
# a scratch DESTDIR, tests/install/embed.c is built there with
# `pkg-config --cflags --libs clmem` (PKG_CONFIG_SYSROOT_DIR points the
# .pc file's paths into the DESTDIR) and run on PoCL with the installed
# kernels; every matmul variant must verify.
# Env: BUILD_DIR, SOURCE_DIR, CC.
set -euo pipefail
build=${BUILD_DIR:?} src=${SOURCE_DIR:?}
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
meson install -C "$build" --destdir "$dest" --no-rebuild >"$dest/install.log" 2>&1 || {
    cat "$dest/install.log"
    echo "test_install: meson install failed"
    exit 1
}
pc=$(find "$dest" -name clmem.pc | head -n 1)
header=$(find "$dest" -path '*/include/clmem/clmem.h' | head -n 1)
kernels=$(find "$dest" -type d -path '*/share/clmem/cl' | head -n 1)
library=$(find "$dest" -name 'libclmem.so' | head -n 1)
for what in pc header kernels library; do
    if [ -z "${!what}" ]; then
        echo "test_install: nothing installed for the $what"
        exit 1
    fi
done
# The man page and the completions, generated from the option table: in
# mandir/man1, share/bash-completion/completions/clmem (the name bash looks
# up for the command clmem) and share/zsh/site-functions/_clmem.
man=$(find "$dest" -path '*/man1/clmem.1' | head -n 1)
bash_completion=$(find "$dest" -path '*/share/bash-completion/completions/clmem' | head -n 1)
zsh_completion=$(find "$dest" -path '*/share/zsh/site-functions/_clmem' | head -n 1)
for what in man bash_completion zsh_completion; do
    if [ -z "${!what}" ] || [ ! -s "${!what}" ]; then
        echo "test_install: nothing installed for the $what"
        exit 1
    fi
done
grep -q '^\.TH CLMEM 1' "$man" && grep -q 'max\\-candidates' "$man" || {
    echo "test_install: $man is not clmem(1) listing the option table (--max-candidates missing)"
    exit 1
}
bash -n "$bash_completion"
# The completion completes: 'clmem run matmul --rep' offers --reps.
offered=$(bash -c 'source "$1"; COMP_WORDS=(clmem run matmul --rep); COMP_CWORD=3; _clmem
    printf "%s\n" "${COMPREPLY[@]}"' _ "$bash_completion")
if [ "$offered" != "--reps" ]; then
    echo "test_install: the bash completion offered '$offered' for 'clmem run matmul --rep'"
    exit 1
fi
grep -q '^#compdef clmem' "$zsh_completion"
# Only the public header is installed: the layers' own stay in the tree
# (the kernels' headers, cl/*.h, are kernel sources: installed beside them).
extra=$(find "$dest" -name '*.h' ! -path "$header" ! -path '*/share/clmem/cl/*')
for h in "$SOURCE_DIR"/cl/*.h; do
    if [ ! -f "$kernels/$(basename "$h")" ]; then
        echo "test_install: the kernels' header $(basename "$h") is not installed beside them"
        exit 1
    fi
done
if [ -n "$extra" ]; then
    echo "test_install: headers other than clmem.h installed: $extra"
    exit 1
fi
export PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$dest
flags=$(pkg-config --cflags --libs clmem)
# The public header alone: nothing of src/ is on the include path.
"${CC:-cc}" -std=c11 -Wall -Wextra -Werror -o "$dest/embed" "$src/tests/install/embed.c" $flags
# The parameter database installed beside the kernels, and read from there.
if [ ! -f "$(dirname "$kernels")/params/any.json" ]; then
    echo "test_install: the parameter database (params/any.json) is not installed beside cl/"
    exit 1
fi
LD_LIBRARY_PATH=$(dirname "$library") CLMEM_KERNEL_DIR=$kernels CLMEM_DATA_DIR=$(dirname "$kernels") \
    "$dest/embed" cpu >"$dest/out.csv"
cat "$dest/out.csv"
# A row per kernel variant, each ok or skipped (tiled: 37 is no multiple of
# its tile), the register-blocked one among them.
grep -q '^matmul,regblock,.*,ok,' "$dest/out.csv"
grep -q '^matmul,tiled,.*,skipped,' "$dest/out.csv"
if grep -q ',FAILED,' "$dest/out.csv"; then
    echo "test_install: a variant failed its check"
    exit 1
fi
echo "test_install: embedded through pkg-config clmem: $(pkg-config --modversion clmem)"
