#!/usr/bin/env bash
# The README's test command: installs dependencies, builds, and runs every test (unit, cli, MPI,
# namespaced multi-host Slurm cluster), then the sanitizer and fuzz stage (scripts/test_hardening.sh).
# Extra arguments go to ctest and skip the sanitizer stage, e.g. scripts/test.sh -L unit
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
(cd "${PODPERF_BUILD_DIR:-$root/build}" && ctest --output-on-failure --timeout 900 "$@")
if [[ $# -eq 0 && -z "${PODPERF_SKIP_HARDENING:-}" ]]; then
  "$root/scripts/test_hardening.sh"
fi
