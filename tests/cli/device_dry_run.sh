#!/usr/bin/env bash
# tests/device/run.sh --dry-run: runs nothing, and says what a bare GPU machine would do: the carried
# dependency prefix on the cmake line, the NCCL library given, every op in three types, the sizes;
# and the configure of its bare-machine build (no tests) passes.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d /tmp/podperf-devdry.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
PASSED=0
FAILED=0
pass() { echo "PASS: $*"; PASSED=$((PASSED + 1)); }
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }
expect() {  # expect WHAT PATTERN: the dry run's output has a line matching PATTERN
  if grep -Eq -- "$2" "$WORK/out"; then pass "$1"; else fail "$1: no line matching $2"; fi
}
mkdir -p "$WORK/deps"
OUT="$WORK/results" bash "$HERE/../device/run.sh" --dry-run --deps "$WORK/deps" --nccl-library /opt/nccl/libnccl.so.2 \
  "$WORK/build" >"$WORK/out" 2>&1
rc=$?
[[ $rc -eq 0 ]] && pass "dry run exits 0" || fail "dry run exit $rc: $(tail -3 "$WORK/out")"
expect "uses the carried prefix" "^\+ cmake .*-DCMAKE_PREFIX_PATH=$WORK/deps/usr"
expect "builds with CUDA" "^\+ cmake .*-DPODPERF_WITH_CUDA=ON"
expect "measures the NCCL given" "^\+ .*podperf collective --backend nccl .*--nccl-library /opt/nccl/libnccl.so.2"
expect "every op, three types" "--op all -d float,half,bfloat16"
expect "prints the sizes it runs" "^device: sizes -b 8 -e 256M -f 4"
expect "summary without jq" "^\+ .*podperf report $WORK/results/device/run.json"
if [[ -e $WORK/build || -e $WORK/results ]]; then fail "dry run created files"; else pass "dry run wrote nothing"; fi
bash "$HERE/../device/run.sh" --bogus >/dev/null 2>&1
[[ $? -eq 2 ]] && pass "unknown option: exit 2" || fail "unknown option not refused"
bash "$HERE/../device/fetch_deps.sh" --dry-run "$WORK/d" >"$WORK/fetch" 2>&1 && grep -q "libopenmpi3" "$WORK/fetch" &&
  pass "fetch_deps --dry-run lists Open MPI" || fail "fetch_deps --dry-run: $(cat "$WORK/fetch")"
# The build the script makes on a bare machine configures without the tests (no GoogleTest there).
if cmake -S "$HERE/../.." -B "$WORK/bare" -DPODPERF_BUILD_TESTS=OFF -DPODPERF_WITH_CUDA=OFF >"$WORK/bare.log" 2>&1; then
  pass "configures with PODPERF_BUILD_TESTS=OFF"
else
  fail "configure with PODPERF_BUILD_TESTS=OFF: $(grep -m1 -A3 'CMake Error' "$WORK/bare.log")"
fi
echo "device_dry_run: $PASSED passed, $FAILED failed"
[[ $FAILED -eq 0 ]]
