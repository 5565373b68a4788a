#!/usr/bin/env bash
# The README's test command: installs dependencies, builds, and runs every test (unit, MPI,
# namespaced multi-host Slurm cluster). Extra arguments go to ctest, e.g. scripts/test.sh -L unit
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
cd "${PODPERF_BUILD_DIR:-$root/build}"
ctest --output-on-failure --timeout 900 "$@"
