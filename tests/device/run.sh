#!/usr/bin/env bash
# GPU check for a bare GPU machine (CUDA with nvcc, a driver, an NCCL; no Open MPI, no Debian -dev
# packages, no jq, no network): builds podperf with the NCCL backend through scripts/cluster_build.sh
# (the build docs/install.md gives clusters) against a dependency prefix carried from the build host
# (tests/device/fetch_deps.sh makes it: the Debian packages unpacked), runs every collective out of
# place and in place with -c 1 on one GPU, prints the sizes it ran and a summary from `podperf report`,
# and exits non-zero on any failure (wrong results, errors, no GPU).
#
#   tests/device/run.sh [--dry-run] [--no-gpu] [--deps DIR] [--nccl-library PATH] [BUILD_DIR]
#
#   --dry-run       print what would run (the checks, cmake, podperf lines), run nothing; exit 0
#   --no-gpu        for a machine without a GPU (tests/device/bare_build_check.sh): the same build and
#                   --version, then a one-rank host-backend run instead of the NCCL measurement
#   --deps DIR      dependency prefix (default tests/device/deps, else the system's)
#   --nccl-library  the libnccl.so.2 to measure (default: podperf's search, docs/nccl.md "Which NCCL")
#
# What comes back: the device tool returns at most 8 files from $OUT (16 MiB each), so podperf writes
# its run directory under BUILD_DIR and this script copies into $OUT (else BUILD_DIR/device-out) these
# 6 files only: device-report.txt (the summary), run.json, summary.md, report.html, build.log and
# results.tar.gz (the whole run directory). A file over 16 MiB is left out with a line saying so.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dry=0
gpu=1
deps=$root/tests/device/deps
nccl=
build=
while [[ $# -gt 0 ]]; do
  case $1 in
    --dry-run) dry=1 ;;
    --no-gpu) gpu=0 ;;
    --deps) deps=$2; shift ;;
    --nccl-library) nccl=$2; shift ;;
    -*) echo "device: unknown option $1" >&2; exit 2 ;;
    *) build=$1 ;;
  esac
  shift
done
build=${build:-$root/build-device}
out=${OUT:-$build/device-out}
results=$build/device-results
sizes=(-b 8 -e 256M -f 4)
brought_back=(device-report.txt run.json summary.md report.html build.log results.tar.gz)
max_file_bytes=$((16 << 20))
run() {  # prints the command; runs it unless --dry-run
  echo "+ $*"
  [[ $dry -eq 1 ]] || "$@"
}

nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
# No tests on the GPU machine: GoogleTest is not carried.
build_env=(PODPERF_WITH_CUDA=ON "CUDA_HOME=$(dirname "$(dirname "$nvcc")")")
if [[ -d $deps ]]; then
  # The carried prefix: headers and Open MPI, an MPI prefix as fetch_deps.sh lays it out (bin/mpicc).
  # Open MPI's install tree says /usr: OPAL_PREFIX relocates it into the prefix, for the wrapper and
  # for the singleton's orted; PMIx is not relocated by it, so its plugins' directory is named (else
  # "PMIx was unable to find a usable compression library"); LD_LIBRARY_PATH finds libmpi's own
  # libraries (its RUNPATH names /usr/lib/x86_64-linux-gnu/openmpi/lib).
  export OPAL_PREFIX=$deps/usr PMIX_MCA_mca_base_component_path=$deps/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix
  export PATH=$deps/usr/bin:$PATH LD_LIBRARY_PATH=$deps/usr/lib/x86_64-linux-gnu:$deps/usr/lib/x86_64-linux-gnu/openmpi/lib:${LD_LIBRARY_PATH:-}
  build_env+=("MPI_HOME=$deps/usr" "PODPERF_PREFIX_PATH=$deps/usr")
  echo "device: dependencies from $deps ($(du -sh "$deps" | cut -f1))"
else
  echo "device: no $deps; using the system's packages"
fi
if [[ $gpu -eq 1 ]]; then
  podperf_args=(collective --backend nccl --op all -d float,half,bfloat16 "${sizes[@]}" -n 20 -w 5 -c 1
    --out "$results" --run-id device)
  [[ -n $nccl ]] && podperf_args+=(--nccl-library "$nccl")
  echo "device: sizes ${sizes[*]} (8 B to 256 MiB, x4), float, half, bfloat16, every op, out of place and in place"
else
  podperf_args=(collective --backend host --op all -d float -b 8 -e 1M -f 4 -n 5 -w 1 -c 1 --out "$results"
    --run-id device)
  echo "device: --no-gpu: one rank on the host backend instead of NCCL"
fi
echo "device: brings back ${brought_back[*]} (${#brought_back[@]} files) in $out"

if [[ $dry -eq 0 ]]; then
  rm -rf "$results"
  mkdir -p "$out" "$build"
  if command -v nvidia-smi >/dev/null; then nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; fi
fi
# The build's output goes to build.log too (on a failure it is what comes back).
set +e
if [[ $dry -eq 1 ]]; then
  echo "+ env ${build_env[*]} scripts/cluster_build.sh $build"
  env "${build_env[@]}" bash "$root/scripts/cluster_build.sh" --dry-run "$build"
  rc=0
else
  echo "+ env ${build_env[*]} scripts/cluster_build.sh $build"
  env "${build_env[@]}" bash "$root/scripts/cluster_build.sh" "$build" 2>&1 | tee "$out/build.log"
  rc=${PIPESTATUS[0]}
fi
set -e
if [[ $rc -ne 0 ]]; then echo "device: FAIL: the build failed (exit $rc; build.log)"; exit 1; fi
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
if [[ ! -s $run_json ]]; then echo "device: FAIL: no run.json (exit $rc)" | tee -a "$out/build.log"; exit 1; fi
set +e
"$build/podperf" report "$run_json" >"$out/device-report.txt" 2>&1
report_rc=$?
set -e
cat "$out/device-report.txt"
echo "device: podperf exit $rc (0 every case ok), report exit $report_rc" | tee -a "$out/device-report.txt"
for f in run.json summary.md report.html; do [[ -f $results/device/$f ]] && cp "$results/device/$f" "$out/"; done
tar -czf "$out/results.tar.gz" -C "$results" device
for f in "${brought_back[@]}"; do
  if [[ -f $out/$f ]] && (($(stat -c %s "$out/$f") > max_file_bytes)); then
    echo "device: $f is over 16 MiB: left out ($(du -h "$out/$f" | cut -f1))" | tee -a "$out/device-report.txt"
    rm -f "$out/$f"
  fi
done
[[ $rc -eq 0 ]]
