#!/usr/bin/env bash
# perf.smoke: every micro-benchmark binary runs at its smallest size for a moment. Proves they build
# and run; asserts nothing about timings. Usage: smoke.sh BENCH_BINARY...
set -euo pipefail
for bin in "$@"; do
  name=$(basename "$bin")
  out=$("$bin" --benchmark_filter='nodes:256$' --benchmark_min_time=0.01 2>&1) || {
    echo "$out"
    echo "FAIL $name exited non-zero"
    exit 1
  }
  # Every benchmark of the binary ran once at 256 nodes (a line per benchmark, none "ERROR").
  lines=$(grep -c '/nodes:256 ' <<<"$out" || true)
  if [[ $lines -eq 0 ]] || grep -q 'ERROR OCCURRED' <<<"$out"; then
    echo "$out"
    echo "FAIL $name: no benchmark ran at 256 nodes"
    exit 1
  fi
  echo "PASS $name ($lines benchmarks at 256 nodes)"
done
