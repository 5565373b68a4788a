#!/usr/bin/env bash
# perf.smoke: every micro-benchmark binary runs at its smallest size for a moment, and the runner
# overhead program once on 2 ranks with 1 MiB. Proves they build and run; asserts nothing about
# timings. Usage: smoke.sh RUNNER_OVERHEAD_BINARY BENCH_BINARY...
set -euo pipefail
overhead=$1
shift
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

# As tests/mpi/lib.sh launches MPI programs on this machine.
export OMPI_MCA_mpi_yield_when_idle=1 OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=lo \
  OMPI_MCA_oob_tcp_if_include=lo
if [[ $(id -u) -eq 0 ]]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
out=$(timeout 60 mpirun --oversubscribe -np 2 "$overhead" --sizes 1M --iters 2 --warmup 1 --reps 2 --empty-iters 5 2>&1) || {
  echo "$out"
  echo "FAIL podperf_runner_overhead exited non-zero"
  exit 1
}
if ! grep -qE '^1M +2 ' <<<"$out"; then
  echo "$out"
  echo "FAIL podperf_runner_overhead printed no summary line for 1 MiB on 2 ranks"
  exit 1
fi
if ! grep -qE '^harness 1M +2 ' <<<"$out"; then
  echo "$out"
  echo "FAIL podperf_runner_overhead printed no harness-cost line for 1 MiB on 2 ranks"
  exit 1
fi
echo "PASS podperf_runner_overhead (2 ranks, 1 MiB, harness cost)"
