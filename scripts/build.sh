#!/usr/bin/env bash
# Configures and builds podperf into build/ (or $PODPERF_BUILD_DIR). Incremental and idempotent.
#   scripts/build.sh            the podperf executable and what it links (what scripts/demo.sh runs)
#   scripts/build.sh all        everything: tests, fuzz-free benchmarks, the man page (scripts/test.sh)
#   scripts/build.sh TARGET...  those CMake targets
# The NCCL backend is built where the CUDA toolkit with NCCL is found (PODPERF_WITH_CUDA=AUTO).
# A fresh build directory uses Ninja where it is installed (an existing one keeps its generator).
# Extra CMake arguments: $PODPERF_CMAKE_ARGS (scripts/test.sh adds -DPODPERF_WERROR=ON).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PODPERF_BUILD_DIR:-$root/build}
targets=("$@")
((${#targets[@]})) || targets=(podperf)
generator=()
if [[ ! -f $build/CMakeCache.txt ]] && command -v ninja >/dev/null; then
  generator=(-G Ninja)
fi
# ccache, where a launcher uses it, caches objects built with precompiled headers only with this.
export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros}
# RelWithDebInfo with -g1 (function names and line tables: backtraces keep file:line) instead of -g:
# measured here, -g costs a third more compile time for no gain in a crash report.
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE:-RelWithDebInfo} \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" ${PODPERF_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"
