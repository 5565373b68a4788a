#!/usr/bin/env bash
# The README's test command: installs dependencies, builds, and runs every test (unit, cli, MPI,
# namespaced multi-host Slurm cluster), then the sanitizer and fuzz stage (scripts/test_hardening.sh).
# Extra arguments go to ctest and skip the sanitizer stage, e.g. scripts/test.sh -L unit
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
# Everything (tests, benchmarks, the man page), with warnings as errors: a warning fails CI.
PODPERF_CMAKE_ARGS="-DPODPERF_WERROR=ON ${PODPERF_CMAKE_ARGS:-}" "$root/scripts/build.sh" all
cd "${PODPERF_BUILD_DIR:-$root/build}"
if [[ $# -gt 0 ]]; then
  ctest --output-on-failure --timeout 900 "$@"
else
  # The unit and cli tests are independent processes: on every core at once. The MPI, cluster and
  # perf tests one at a time (they oversubscribe the cores, and some judge timing between nodes).
  ctest --output-on-failure --timeout 900 -j "$(nproc)" -L '^(unit|cli)$'
  ctest --output-on-failure --timeout 900 -LE '^(unit|cli)$'
fi
if [[ $# -eq 0 && -z "${PODPERF_SKIP_HARDENING:-}" ]]; then
  "$root/scripts/test_hardening.sh"
fi
