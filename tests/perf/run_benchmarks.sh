#!/usr/bin/env bash
# Builds and runs podperf's own benchmarks and prints their numbers: schedule generation, the pairs
# analysis and report writing at 256, 1024 and 4096 nodes (Google Benchmark), the analysis's peak
# memory, and the runner's overhead against a bare MPI loop. Measures; passes or fails nothing.
# Usage: run_benchmarks.sh [BUILD_DIR]   (default build-perf, configured as Release when new)
# Environment: FILTER (a Google Benchmark regex, e.g. 'nodes:(256|1024)$'), MIN_TIME (0.5, seconds),
# PODPERF_BENCH_ITERS (samples per pair, 10), SKIP_OVERHEAD=1, and runner_overhead.sh's own.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build-perf}

# A new build directory is configured as Release; an existing one keeps its settings (build type too).
if [[ -f $build/CMakeCache.txt ]]; then
  cmake -S "$root" -B "$build" -DPODPERF_PERF_BENCHMARKS=ON >/dev/null
else
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DPODPERF_WITH_CUDA=OFF -DPODPERF_PERF_BENCHMARKS=ON >/dev/null
fi
cmake --build "$build" -j"$(nproc)" --target podperf_bench_schedule podperf_bench_analysis podperf_bench_reports \
  podperf_runner_overhead

args=(--benchmark_min_time="${MIN_TIME:-0.5}" --benchmark_counters_tabular=true)
[[ -n ${FILTER:-} ]] && args+=(--benchmark_filter="$FILTER")
for name in schedule analysis reports; do
  echo
  echo "==== podperf_bench_$name"
  "$build/tests/perf/podperf_bench_$name" "${args[@]}"
done

# The whole process's peak resident set for the 4096-node analysis: the synthetic Run (input) plus
# what the analysis adds (GNU time's "Maximum resident set size").
if [[ -x /usr/bin/time && -z ${FILTER:-} ]]; then
  echo
  echo "==== peak RSS of a process that builds the 4096-node Run and analyzes it once"
  /usr/bin/time -v "$build/tests/perf/podperf_bench_analysis" --benchmark_filter='BM_Analysis/nodes:4096$' \
    --benchmark_min_time=0.01 2>&1 | grep -E 'BM_Analysis|Maximum resident|Elapsed'
fi

if [[ -z ${SKIP_OVERHEAD:-} ]]; then
  echo
  echo "==== runner overhead (mpirun, this machine)"
  "$here/runner_overhead.sh" "$build"
fi
