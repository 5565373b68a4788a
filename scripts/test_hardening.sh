#!/usr/bin/env bash
# The sanitizer and fuzz stage of the test command (scripts/test.sh runs it after the main tests):
# a second build with clang, AddressSanitizer and UndefinedBehaviorSanitizer on every object
# (PODPERF_FUZZ=ON, no CUDA, no micro-benchmarks; in build-san/ or $PODPERF_SAN_BUILD_DIR), then
#   - the unit and cli tests, leak detection on;
#   - the MPI tests that cover podperf's own code paths (options and the adaptive schedule,
#     collectives, the filesystem probes and their faults) and the modelled fabric (cli.sim_pairs,
#     cli.sim_uplink: an MPI singleton), leak detection off (Open MPI's own allocations);
#   - every libFuzzer target for PODPERF_FUZZ_SECONDS (default 10) from its seed corpus.
# Any sanitizer report fails the test that produced it (halt on error). Idempotent and incremental.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PODPERF_SAN_BUILD_DIR:-$root/build-san}
seconds=${PODPERF_FUZZ_SECONDS:-10}
# -O1 with line tables only: sanitizer reports keep file:line, the build takes a third less time.
cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DPODPERF_FUZZ=ON -DPODPERF_WITH_CUDA=OFF \
  -DPODPERF_CLUSTER_TESTS=OFF -DPODPERF_PERF_BENCHMARKS=OFF -DCMAKE_BUILD_TYPE=None "-DCMAKE_CXX_FLAGS=-O1 -gline-tables-only" >/dev/null
cmake --build "$build" -j "$(nproc)"
cd "$build"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The cli tests that run `pairs --backend sim` start MPI (a singleton): with the MPI tests, whose Open MPI
# allocations leak by design.
mpi_cli='cli\.(sim_pairs|sim_uplink|options|progress|prometheus)'
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 ctest --output-on-failure --timeout 600 -j "$(nproc)" -L 'unit|cli' \
  -E "^$mpi_cli\$"
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 ctest --output-on-failure --timeout 600 \
  -R "^(mpi\.(pairs_options|collective|fs|fs_faults)|$mpi_cli)\$"
"$root/tests/fuzz/run.sh" "$build" "$seconds"
