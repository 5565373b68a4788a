#!/usr/bin/env bash
# tests/device/run.sh --dry-run: runs nothing, and says what a bare GPU machine would do: the carried
# dependency prefix on the cmake line (headers and MPI_HOME, through scripts/cluster_build.sh), the NCCL
# library given, every op in three types, the sizes, at most 8 files brought back (the device tool's
# limit); --no-gpu measures on the host backend; and the configure of its bare-machine build (no
# tests) passes. (The full bare-machine build: tests/device/bare_build_check.sh, not in CI.)
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
expect "summary without jq" "^\+ .*podperf report $WORK/build/device-results/device/run.json"
expect "the cluster build script" "^\+ env .*MPI_HOME=$WORK/deps/usr .*scripts/cluster_build.sh $WORK/build"
expect "MPI from the carried prefix" "^\+ cmake .*-DMPI_HOME=$WORK/deps/usr"
files=$(sed -n 's/^device: brings back .* (\([0-9]*\) files) in .*/\1/p' "$WORK/out")
if [[ -n $files && $files -le 8 ]]; then pass "brings back $files files (at most 8)"; else fail "brings back '$files' files"; fi
expect "brings them back in \$OUT" "^device: brings back .* in $WORK/results$"
if [[ -e $WORK/build || -e $WORK/results ]]; then fail "dry run created files"; else pass "dry run wrote nothing"; fi
OUT="$WORK/results" bash "$HERE/../device/run.sh" --dry-run --no-gpu --deps "$WORK/deps" "$WORK/build" >"$WORK/nogpu" 2>&1 &&
  grep -q -- "^+ .*podperf collective --backend host " "$WORK/nogpu" && ! grep -q -- "--backend nccl" "$WORK/nogpu" &&
  pass "--no-gpu: the host backend" || fail "--no-gpu: $(grep podperf "$WORK/nogpu" | tail -2)"
bash "$HERE/../device/run.sh" --bogus >/dev/null 2>&1
[[ $? -eq 2 ]] && pass "unknown option: exit 2" || fail "unknown option not refused"
bash "$HERE/../device/fetch_deps.sh" --dry-run "$WORK/d" >"$WORK/fetch" 2>&1 && grep -q "libopenmpi3" "$WORK/fetch" &&
  pass "fetch_deps --dry-run lists Open MPI" || fail "fetch_deps --dry-run: $(cat "$WORK/fetch")"
bash "$HERE/../device/fetch_deps.sh" --dry-run --headers "$WORK/d" >"$WORK/fetch" 2>&1 &&
  grep -q "libtomlplusplus-dev" "$WORK/fetch" && ! grep -q "openmpi" "$WORK/fetch" &&
  pass "fetch_deps --headers: the header-only libraries only" || fail "fetch_deps --headers: $(cat "$WORK/fetch")"
# The build the script makes on a bare machine configures without the tests (no GoogleTest there).
if cmake -S "$HERE/../.." -B "$WORK/bare" -DPODPERF_BUILD_TESTS=OFF -DPODPERF_WITH_CUDA=OFF >"$WORK/bare.log" 2>&1; then
  pass "configures with PODPERF_BUILD_TESTS=OFF"
else
  fail "configure with PODPERF_BUILD_TESTS=OFF: $(grep -m1 -A3 'CMake Error' "$WORK/bare.log")"
fi
echo "device_dry_run: $PASSED passed, $FAILED failed"
[[ $FAILED -eq 0 ]]
