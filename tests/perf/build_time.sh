#!/usr/bin/env bash
# Build time of one configuration from a fresh build directory, ccache off (README: "Build time").
# usage: tests/perf/build_time.sh [TARGET=podperf] [CMAKE ARGS...]
#   e.g. tests/perf/build_time.sh podperf -DPODPERF_UNITY_BUILD=OFF
# Prints wall seconds, user+sys CPU seconds of the build's processes, and the load average before and
# after (on a shared machine compare CPU seconds, not wall time). Configure is not timed. Measures and
# never fails on a number; it is not a ctest test. PODPERF_BUILD_TIME_LOG=FILE keeps the build's
# .ninja_log (per-step start and end in ms) there, to see which objects cost what.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
target=${1:-podperf}
shift || true
build=$(mktemp -d "${TMPDIR:-/tmp}/podperf-build-time.XXXXXX")
trap 'rm -rf "$build"' EXIT
export CCACHE_DISABLE=1
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" \
  -DPODPERF_WITH_CUDA=OFF "$@" >/dev/null
load_before=$(cut -d' ' -f1 /proc/loadavg)
start=$(date +%s.%N)
TIMEFORMAT='%U %S'
cpu=$({ time cmake --build "$build" -j "${PODPERF_BUILD_JOBS:-2}" --target "$target" >"$build/build.log" 2>&1; } 2>&1) ||
  { tail -20 "$build/build.log"; exit 1; }
end=$(date +%s.%N)
[[ -z ${PODPERF_BUILD_TIME_LOG:-} ]] || cp "$build/.ninja_log" "$PODPERF_BUILD_TIME_LOG"
steps=$(grep -c '^\[' "$build/build.log" || true)
warnings=$(grep -c 'warning:' "$build/build.log" || true)
awk -v w="$(echo "$end - $start" | bc)" -v c="$cpu" -v l0="$load_before" -v l1="$(cut -d' ' -f1 /proc/loadavg)" \
  -v t="$target" -v s="$steps" -v n="$warnings" -v args="$*" \
  'BEGIN { split(c, u, " "); printf "target %s [%s]: %d steps, wall %.1f s, cpu %.1f s, load %s -> %s, %d warnings\n", t, args, s, w, u[1] + u[2], l0, l1, n }'
