#!/usr/bin/env bash
# Run on the build host (Debian/Ubuntu with network): downloads the Debian packages podperf builds
# and runs with (not CUDA, not NCCL) and unpacks them into one prefix, tests/device/deps by default,
# for tests/device/run.sh --deps on a bare GPU machine of the same distribution. --dry-run prints the
# packages and commands only.
#
#   tests/device/fetch_deps.sh [--dry-run] [DIR]
set -euo pipefail
dry=0
[[ ${1:-} == --dry-run ]] && { dry=1; shift; }
dir=${1:-$(cd "$(dirname "$0")" && pwd)/deps}
# Build: headers and CMake packages; run: Open MPI and its libraries (podperf links MPI).
# libboost1.74-dev: the Boost.Math headers and the Boost CMake package analysis/stats builds with (header-only).
packages=(zlib1g-dev libfmt-dev libfmt9 nlohmann-json3-dev libcli11-dev libtomlplusplus-dev libtomlplusplus3 libfabric-dev
  libboost1.74-dev
  libfabric1 libopenmpi-dev libopenmpi3 openmpi-bin openmpi-common libpmix2 libhwloc15 libevent-core-2.1-7
  libevent-pthreads-2.1-7 libucx0 libpsm2-2 libibverbs1 librdmacm1 libnl-3-200 libnl-route-3-200)
echo "fetch_deps: ${packages[*]} -> $dir"
if [[ $dry -eq 1 ]]; then
  echo "+ apt-get download ${packages[*]}"
  echo "+ dpkg-deb -x <each .deb> $dir"
  exit 0
fi
mkdir -p "$dir/debs"
(cd "$dir/debs" && apt-get download "${packages[@]}")
for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$dir"; done
rm -rf "$dir/debs"
echo "fetch_deps: unpacked into $dir ($(du -sh "$dir" | cut -f1))"
