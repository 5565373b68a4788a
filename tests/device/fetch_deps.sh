#!/usr/bin/env bash
# Run on the build host (Debian/Ubuntu with its package sources; no root needed): downloads the Debian
# packages podperf builds and runs with (not CUDA, not NCCL) and unpacks them, without installing
# anything, into one prefix: tests/device/deps by default, for tests/device/run.sh --deps on a bare GPU
# machine of the same distribution. The prefix works as MPI_HOME (bin/mpicc and mpirun are linked to
# Debian's mpicc.openmpi, mpirun.openmpi; OPAL_PREFIX=DIR/usr relocates Open MPI there) and as
# CMAKE_PREFIX_PATH (DIR/usr: the header-only libraries, zlib's and libfabric's headers). Documentation,
# manual pages, static libraries and Fortran modules are left out: the prefix travels with the working
# tree to the GPU machine (64 MiB in all, tests/device/README.md), and the script fails if it is larger
# than 40 MiB.
#
#   tests/device/fetch_deps.sh [--dry-run] [--headers] [DIR]
#
#   --dry-run   print the packages and commands only
#   --headers   only the header-only libraries (fmt, nlohmann/json, CLI11, toml++): a prefix for
#               CMAKE_PREFIX_PATH when a cluster has its own MPI but not these (docs/install.md)
set -euo pipefail
dry=0
headers=0
dir=
while [[ $# -gt 0 ]]; do
  case $1 in
    --dry-run) dry=1 ;;
    --headers) headers=1 ;;
    -*) echo "fetch_deps: unknown option $1" >&2; exit 2 ;;
    *) dir=$1 ;;
  esac
  shift
done
dir=${dir:-$(cd "$(dirname "$0")" && pwd)/deps}
max_mib=40
# Build: the header-only libraries (fmt and toml++ used header-only: no libfmt or libtomlplusplus at run
# time; of Boost only the headers analysis/stats includes, pruned below), zlib's and libfabric's headers; run: Open MPI and the libraries it loads (podperf links MPI's C
# library, libmpi.so.40).
packages=(libfmt-dev nlohmann-json3-dev libcli11-dev libtomlplusplus-dev libboost1.74-dev)
if [[ $headers -eq 0 ]]; then
  packages+=(zlib1g-dev libfabric-dev libfabric1 libopenmpi-dev libopenmpi3 openmpi-bin openmpi-common libpmix2
    libhwloc15 libevent-core-2.1-7 libevent-pthreads-2.1-7 libucx0 libpsm2-2 libibverbs1 librdmacm1 libnl-3-200
    libnl-route-3-200)
fi
echo "fetch_deps: ${packages[*]} -> $dir"
if [[ $dry -eq 1 ]]; then
  echo "+ apt-get download ${packages[*]}"
  echo "+ dpkg-deb -x <each .deb> $dir"
  echo "+ rm -rf $dir/usr/share/{doc,doc-base,man,lintian} $dir/usr/lib/*/fortran $dir/usr/lib/*/*.a"
  echo "+ keep of $dir/usr/include/boost only the headers podperf's sources include (g++ -M)"
  [[ $headers -eq 1 ]] || echo "+ ln -s mpicc.openmpi $dir/usr/bin/mpicc (mpicxx, mpirun, mpiexec alike)"
  exit 0
fi
mkdir -p "$dir/debs"
(cd "$dir/debs" && apt-get download "${packages[@]}")
for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$dir"; done
rm -rf "$dir/debs"
# Not needed to build or run podperf.
rm -rf "$dir"/usr/share/{doc,doc-base,man,lintian} "$dir"/usr/lib/*/fortran
find "$dir/usr/lib" -name '*.a' -delete
# Boost: only the headers podperf's sources include, and what those include (the compiler's own list,
# g++ -M; about 3 MiB of the package's 150), beside Boost's CMake package, which find_package(Boost) reads.
if [[ -d $dir/usr/include/boost ]]; then
  repo=$(cd "$(dirname "$0")/../.." && pwd)
  tu=$(mktemp --suffix=.cpp)
  grep -rhs '^#include <boost/' "$repo"/analysis "$repo"/sweep "$repo"/bench "$repo"/offline "$repo"/signals \
    "$repo"/sim "$repo"/app | sort -u >"$tu"
  keep=$(mktemp)
  g++ -std=c++20 -M -I"$dir/usr/include" "$tu" | tr ' \\' '\n\n' | grep "^$dir/usr/include/boost/" | sort -u >"$keep"
  find "$dir/usr/include/boost" -type f | sort | comm -23 - "$keep" | xargs -r rm -f
  find "$dir/usr/include/boost" -type d -empty -delete
  rm -f "$tu" "$keep"
fi
if [[ $headers -eq 0 ]]; then
  # The names update-alternatives gives them on an installed system, so DIR/usr is an ordinary MPI prefix.
  for tool in mpicc mpicxx mpirun mpiexec; do ln -sfn "$tool.openmpi" "$dir/usr/bin/$tool"; done
fi
size_kib=$(du -sk "$dir" | cut -f1)
echo "fetch_deps: unpacked into $dir ($((size_kib / 1024)) MiB, $(find "$dir" -type f | wc -l) files)"
if ((size_kib > max_mib * 1024)); then
  echo "fetch_deps: FAIL: $dir is larger than $max_mib MiB: it would not travel to the GPU machine with the tree" >&2
  exit 1
fi
