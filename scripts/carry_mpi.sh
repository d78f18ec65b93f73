#!/usr/bin/env bash
# Open MPI's runtime from this machine's Debian packages (openmpi-bin,
# libopenmpi3, libpmix2), copied into .carry/ompi so that an MPI build of
# clmem runs under mpirun on a machine without Open MPI (the GPU machines,
# bench/multi-gpu/run.sh): mpirun (orterun), Open MPI's and PMIx's plugins
# and help files, and every library they load that such a machine lacks.
# Open MPI finds them there through the variables .carry/ompi/env.sh sets
# (OPAL_* and PMIX_* name its directories; OMPI_MCA_* keep it on one host).
# Usage: scripts/carry_mpi.sh, then on the other machine
# `. .carry/ompi/env.sh` before mpirun.
set -euo pipefail
cd "$(dirname "$0")/.."
arch=/usr/lib/x86_64-linux-gnu
dest=.carry/ompi
rm -rf "$dest"
mkdir -p "$dest/bin" "$dest/lib" "$dest/share" "$dest/etc"
cp -L /usr/bin/orterun "$dest/bin/mpirun"
cp -a "$arch/openmpi/lib/openmpi3" "$dest/plugins"
cp -a "$arch/pmix2/lib/pmix" "$dest/pmix-plugins"
cp -a /usr/share/openmpi "$dest/share/openmpi"
cp -a "$arch/pmix2/share/pmix" "$dest/share/pmix"
# Plugins for networks a single host does not use, whose libraries are
# large (verbs, libfabric, UCX, PSM): left out, with the libraries.
rm -f "$dest"/plugins/mca_{btl_openib,btl_ofi,btl_usnic,mtl_ofi,mtl_psm,mtl_psm2,pml_ucx,osc_ucx,spml_ucx,atomic_ucx,btl_uct,common_ucx}*.so
# What mpirun and the plugins load, less glibc's own libraries.
for f in "$dest/bin/mpirun" "$dest"/plugins/*.so "$dest"/pmix-plugins/*.so; do
    ldd "$f" | awk '$3 ~ /^\// { print $3 }'
done | sort -u |
    grep -v -E '/(libc|libm|libdl|librt|libpthread|ld-linux[^/]*|libstdc\+\+|libgcc_s)\.so' |
    while read -r lib; do cp -L "$lib" "$dest/lib/"; done
cat >"$dest/env.sh" <<'ENV'
# Sourced before mpirun on a machine without Open MPI (scripts/carry_mpi.sh).
ompi=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export OPAL_PREFIX=$ompi OPAL_BINDIR=$ompi/bin OPAL_LIBDIR=$ompi/lib
export OPAL_PKGLIBDIR=$ompi/plugins OPAL_PKGDATADIR=$ompi/share/openmpi
export OPAL_DATADIR=$ompi/share OPAL_SYSCONFDIR=$ompi/etc
export PMIX_PREFIX=$ompi PMIX_PKGLIBDIR=$ompi/pmix-plugins PMIX_PKGDATADIR=$ompi/share/pmix
export PATH=$ompi/bin:$PATH LD_LIBRARY_PATH=$ompi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# One host: processes started directly (no ssh), shared memory between them.
export OMPI_MCA_plm=isolated OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader
ENV
du -sh "$dest"
