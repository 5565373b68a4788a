#!/usr/bin/env bash
# podperf starts without CUDA or NCCL libraries: it links neither libnccl nor libcudart (NCCL is
# dlopened, the CUDA runtime static), and `report`, `pairs --backend sim` and `--help` run with
# LD_LIBRARY_PATH cleared and a bare environment. Meaningful on the CUDA build (build-cuda); on a
# CPU build it checks the same and cannot differ.
set -uo pipefail
PODPERF=${1:?usage: $0 PODPERF_BINARY}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d /tmp/podperf-nocuda.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
PASSED=0
FAILED=0
pass() { echo "PASS: $*"; PASSED=$((PASSED + 1)); }
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }
bare() { env -i PATH=/usr/bin:/bin HOME="$WORK" "$@"; }

libs=$(ldd "$PODPERF" 2>&1)
if grep -Eq 'libnccl|libcudart' <<<"$libs"; then
  fail "ldd shows NCCL or the CUDA runtime: $(grep -E 'libnccl|libcudart' <<<"$libs" | tr '\n' ' ')"
else
  pass "ldd: no libnccl, no libcudart"
fi
if bare "$PODPERF" --help >"$WORK/help.out" 2>&1; then pass "--help runs bare"; else fail "--help: $(tail -2 "$WORK/help.out")"; fi
if bare "$PODPERF" report "$HERE/../fixtures/runs/report_run.json" --out "$WORK/report.html" >"$WORK/report.out" 2>&1; then
  pass "report runs bare"
else
  fail "report: $(tail -2 "$WORK/report.out")"
fi
bare "$PODPERF" pairs --backend sim --sim-nodes 8 --out "$WORK" --run-id sim >"$WORK/sim.out" 2>&1
rc=$?
if [[ ($rc -eq 0 || $rc -eq 1) && -s $WORK/sim/run.json ]]; then pass "pairs --backend sim runs bare (exit $rc)"; else fail "pairs --backend sim: exit $rc: $(tail -2 "$WORK/sim.out")"; fi
echo "no_cuda_libs: $PASSED passed, $FAILED failed"
[[ $FAILED -eq 0 ]]
