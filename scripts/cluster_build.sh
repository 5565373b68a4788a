#!/usr/bin/env bash
# Builds podperf (the executable only, no tests) on a cluster against the cluster's own stack: its Open
# MPI (MPI's C API), its CUDA toolkit (the NCCL backend; NCCL itself is loaded at run time), and fmt,
# toml++, nlohmann/json and CLI11 used header-only. Installs nothing and needs no network: every
# dependency must already be on the machine (docs/install.md says where each comes from). Then prints
# `podperf --version` and the binary's load-time libraries, and fails if they are more than the MPI,
# zlib and the C/C++ runtime (tests/cli/needed_libs.sh).
#
#   scripts/cluster_build.sh [--dry-run] [BUILD_DIR]      (default: build-cluster in the repository)
#
#   --dry-run   print the cmake commands, run nothing
#
# Environment (all optional):
#   MPI_HOME             the MPI prefix with bin/mpicc (default /opt/amazon/openmpi where it exists,
#                        else the mpicc on PATH)
#   CUDA_HOME            the CUDA toolkit (default /usr/local/cuda); without nvcc there, no NCCL backend
#   PODPERF_WITH_CUDA    AUTO (default), ON (fail without nvcc) or OFF (host and sim backends only)
#   PODPERF_PREFIX_PATH  ;-separated prefixes holding the header-only libraries (CMAKE_PREFIX_PATH)
#   PODPERF_CMAKE_ARGS   more arguments for cmake (word-split), e.g. -DCMAKE_CUDA_ARCHITECTURES=90-real
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dry=0
build=
while [[ $# -gt 0 ]]; do
  case $1 in
    --dry-run) dry=1 ;;
    -*) echo "cluster_build: unknown option $1" >&2; exit 2 ;;
    *) build=$1 ;;
  esac
  shift
done
build=${build:-$root/build-cluster}
cuda_home=${CUDA_HOME:-/usr/local/cuda}

args=(-S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DPODPERF_BUILD_TESTS=OFF -DPODPERF_CLUSTER_TESTS=OFF
  -DPODPERF_MAN=OFF "-DPODPERF_WITH_CUDA=${PODPERF_WITH_CUDA:-AUTO}")
if [[ ! -f $build/CMakeCache.txt ]] && command -v ninja >/dev/null; then args+=(-G Ninja); fi
[[ -n ${MPI_HOME:-} ]] && args+=("-DMPI_HOME=$MPI_HOME")
if [[ -x $cuda_home/bin/nvcc ]]; then
  args+=("-DCMAKE_CUDA_COMPILER=$cuda_home/bin/nvcc" "-DCUDAToolkit_ROOT=$cuda_home")
fi
[[ -n ${PODPERF_PREFIX_PATH:-} ]] && args+=("-DCMAKE_PREFIX_PATH=$PODPERF_PREFIX_PATH")
# shellcheck disable=SC2206  # word splitting of the extra arguments is wanted
args+=(${PODPERF_CMAKE_ARGS:-})

echo "+ cmake ${args[*]}"
echo "+ cmake --build $build -j $(nproc) --target podperf"
[[ $dry -eq 1 ]] && exit 0
cmake "${args[@]}"
cmake --build "$build" -j "$(nproc)" --target podperf
"$build/podperf" --version
bash "$root/tests/cli/needed_libs.sh" "$build/podperf"
