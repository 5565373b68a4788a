# Shared by the MPI tests: environment for mpirun on one machine, and small assertions.
# Usage: source "$(dirname "$0")/lib.sh" PODPERF_BINARY
set -uo pipefail
PODPERF=${1:?usage: $0 PODPERF_BINARY}
TESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export OMPI_MCA_mpi_yield_when_idle=1 OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=lo \
  OMPI_MCA_oob_tcp_if_include=lo
if [[ $(id -u) -eq 0 ]]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
WORK=$(mktemp -d /tmp/podperf-mpitest.XXXXXX)
trap '[[ -n "${KEEP_WORK:-}" ]] || rm -rf "$WORK"' EXIT
PASSED=0
FAILED=0

pass() { echo "PASS: $*"; PASSED=$((PASSED + 1)); }
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }

# expect_eq WHAT GOT WANT
expect_eq() { if [[ "$2" == "$3" ]]; then pass "$1"; else fail "$1: got '$2', want '$3'"; fi; }
# expect_match WHAT TEXT REGEX
expect_match() { if grep -Eq -- "$3" <<<"$2"; then pass "$1"; else fail "$1: '$3' not in: $2"; fi; }

podperf_mpirun() {  # podperf_mpirun NP ARGS... (output in $WORK/out, exit code returned)
  local np=$1
  shift
  timeout 300 mpirun --oversubscribe -np "$np" "$PODPERF" "$@" >"$WORK/out" 2>&1
}

finish() {
  echo "$(basename "$0" .sh): $PASSED passed, $FAILED failed"
  [[ $FAILED -eq 0 ]]
}
