#!/usr/bin/env bash
# GPU check (needs an NVIDIA GPU, CUDA and NCCL): builds podperf with the NCCL backend and runs, with
# one rank on one GPU, every collective out of place and in place with -c 1, prints a short table,
# and exits non-zero on any failure (wrong results, errors, a missing GPU).
#
#   tests/device/run.sh [BUILD_DIR]        (default build-device)
#
# Needs: cmake, a C++20 compiler, Open MPI (mpirun), CUDA with nvcc, NCCL headers and library.
# Writes results to $OUT when set (the device tool's folder), else to BUILD_DIR/device-results.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-device}
results=${OUT:-$build/device-results}
mkdir -p "$results"

command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
cmake -S "$root" -B "$build" -DPODPERF_WITH_CUDA=ON -DCMAKE_BUILD_TYPE=Release -DPODPERF_CLUSTER_TESTS=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target podperf
"$build/podperf" --version

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader,tcp
export NCCL_DEBUG=${NCCL_DEBUG:-WARN}
set +e
mpirun -np 1 "$build/podperf" collective --backend nccl --op all -d float,half,bfloat16 -b 8 -e 256M -f 4 \
  -n 20 -w 5 -c 1 --out "$results" --run-id device | tee "$results/device-table.txt"
rc=${PIPESTATUS[0]}
set -e
run="$results/device/run.json"
if [[ ! -s $run ]]; then echo "device: FAIL: no run.json (exit $rc)"; exit 1; fi
echo
echo "device: summary (busbw at 256M, out of place; status of every case)"
jq -r '.collectives[] | select(.size_bytes >= 268435000 and .in_place == false)
       | "  \(.op) \(.dtype): busbw \(.busbw_gbps | . * 100 | round / 100) GB/s, #wrong \(.wrong), \(.status)"' "$run"
bad=$(jq '[.collectives[] | select(.status != "ok" and .status != "skipped")] | length' "$run")
cases=$(jq '.collectives | length' "$run")
echo "device: $((cases - bad)) passed, $bad failed"
[[ $rc -eq 0 && $bad -eq 0 ]]
