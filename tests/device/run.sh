#!/usr/bin/env bash
# GPU check for a bare GPU machine (CUDA with nvcc, a driver, an NCCL; no Open MPI, no Debian -dev
# packages, no jq, no network): builds podperf with the NCCL backend against a dependency prefix
# carried from the build host (tests/device/fetch_deps.sh makes it: the Debian packages unpacked),
# runs every collective out of place and in place with -c 1 on one GPU, prints the sizes it ran and a
# summary from `podperf report`, and exits non-zero on any failure (wrong results, errors, no GPU).
#
#   tests/device/run.sh [--dry-run] [--deps DIR] [--nccl-library PATH] [BUILD_DIR]
#
#   --dry-run       print what would run (the checks, cmake, podperf lines), run nothing; exit 0
#   --deps DIR      dependency prefix (default tests/device/deps, else the system's)
#   --nccl-library  the libnccl.so.2 to measure (default: podperf's search, README "Which NCCL")
# Results go to $OUT when set (the device tool's folder), else to BUILD_DIR/device-results.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dry=0
deps=$root/tests/device/deps
nccl=
build=
while [[ $# -gt 0 ]]; do
  case $1 in
    --dry-run) dry=1 ;;
    --deps) deps=$2; shift ;;
    --nccl-library) nccl=$2; shift ;;
    -*) echo "device: unknown option $1" >&2; exit 2 ;;
    *) build=$1 ;;
  esac
  shift
done
build=${build:-$root/build-device}
results=${OUT:-$build/device-results}
sizes=(-b 8 -e 256M -f 4)
run() {  # prints the command; runs it unless --dry-run
  echo "+ $*"
  [[ $dry -eq 1 ]] || "$@"
}

nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
# No tests on the GPU machine: GoogleTest is not carried.
cmake_args=(-S "$root" -B "$build" -DPODPERF_WITH_CUDA=ON -DCMAKE_BUILD_TYPE=Release -DPODPERF_CLUSTER_TESTS=OFF
  -DPODPERF_BUILD_TESTS=OFF "-DCMAKE_CUDA_COMPILER=$nvcc")
if [[ -d $deps ]]; then
  # The carried prefix: headers, CMake packages and Open MPI. Unpacked .debs have no alternatives
  # links (mpicxx, mpirun), so the wrapper is named by its Debian name; OPAL_PREFIX relocates Open
  # MPI's install tree (prefix /usr) into the prefix, for the wrapper and for the singleton's orted.
  export OPAL_PREFIX=$deps/usr
  export PATH=$deps/usr/bin:$PATH LD_LIBRARY_PATH=$deps/usr/lib/x86_64-linux-gnu:$deps/usr/lib/x86_64-linux-gnu/openmpi/lib:${LD_LIBRARY_PATH:-}
  cmake_args+=("-DCMAKE_PREFIX_PATH=$deps/usr;$deps/usr/lib/x86_64-linux-gnu/cmake" "-DMPI_CXX_COMPILER=$deps/usr/bin/mpicxx.openmpi")
  echo "device: dependencies from $deps"
else
  echo "device: no $deps; using the system's packages"
fi
podperf_args=(collective --backend nccl --op all -d float,half,bfloat16 "${sizes[@]}" -n 20 -w 5 -c 1
  --out "$results" --run-id device)
[[ -n $nccl ]] && podperf_args+=(--nccl-library "$nccl")
echo "device: sizes ${sizes[*]} (8 B to 256 MiB, x4), float, half, bfloat16, every op, out of place and in place"

if [[ $dry -eq 0 ]]; then
  mkdir -p "$results"
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
fi
run cmake "${cmake_args[@]}"
run cmake --build "$build" -j "$(nproc)" --target podperf
run "$build/podperf" --version
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader,tcp
export NCCL_DEBUG=${NCCL_DEBUG:-WARN}
# One rank: a singleton MPI process (no mpirun needed).
set +e
run "$build/podperf" "${podperf_args[@]}"
rc=$?
set -e
if [[ $dry -eq 1 ]]; then
  echo "+ $build/podperf report $results/device/run.json"
  echo "device: dry run, nothing executed"
  exit 0
fi
run_json="$results/device/run.json"
if [[ ! -s $run_json ]]; then echo "device: FAIL: no run.json (exit $rc)"; exit 1; fi
"$build/podperf" report "$run_json" | tee "$results/device-report.txt"
echo "device: podperf exit $rc (0 every case ok)"
[[ $rc -eq 0 ]]
