#!/usr/bin/env bash
# podperf signals from the command line: this machine (no GPU, no EFA) gives INFO for what is absent
# and exits 0; fixture trees give their CONCERN; --json is machine-readable; a bad rules file is exit 2.
set -uo pipefail
PODPERF=${1:?usage: $0 PODPERF_BINARY}
FIX=$(cd "$(dirname "$0")/../fixtures/signals" && pwd)
WORK=$(mktemp -d /tmp/podperf-signals.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
PASSED=0
FAILED=0
pass() { echo "PASS: $*"; PASSED=$((PASSED + 1)); }
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }

"$PODPERF" signals --sample 0 >"$WORK/out" 2>"$WORK/err"
rc=$?
if [[ $rc -eq 0 ]]; then pass "this host: exit 0"; else fail "this host: exit $rc"; cat "$WORK/out"; fi
if grep -q "^INFO .*signals.nvidia_driver" "$WORK/out"; then pass "this host: INFO for the absent GPU driver"; else fail "no INFO for the GPU driver"; fi
# No NVIDIA driver here: NVML is an INFO that says why (dlopen's message), never a failure.
if grep -q "^INFO .*signals.nvml .*NVML not loadable" "$WORK/out"; then pass "this host: INFO that NVML is not loadable"; else fail "no INFO for NVML: $(grep signals.nvml "$WORK/out")"; fi
if grep -q "^INFO .*signals.cuda_driver_version" "$WORK/out"; then pass "this host: INFO for the absent CUDA driver"; else fail "no INFO for the CUDA driver"; fi
if grep -qE "^(OK|INFO|CONCERN) +signals.libfabric " "$WORK/out"; then pass "this host: a libfabric finding"; else fail "no signals.libfabric line"; fi
if [[ ! -s "$WORK/err" ]]; then pass "this host: nothing on stderr (fi_getinfo and dlopen are quiet)"; else fail "stderr: $(head -c 300 "$WORK/err")"; fi

"$PODPERF" signals --sample 0 --json --root "$FIX/governor_powersave" >"$WORK/gov.json" 2>&1
if jq -e '[.[] | select(.tag == "CONCERN" and .check == "signals.cpu_governor")] | length == 1' "$WORK/gov.json" >/dev/null; then
  pass "governor powersave fixture: one CONCERN as JSON"
else
  fail "governor powersave fixture: $(head -c 400 "$WORK/gov.json")"
fi
if jq -e 'all(.[]; has("next_step") and has("effect") and has("observed"))' "$WORK/gov.json" >/dev/null; then
  pass "JSON findings carry observed, effect and next step"
else
  fail "JSON findings lack fields"
fi
"$PODPERF" signals --sample 0 --root "$FIX/healthy" >"$WORK/healthy" 2>&1
# The memlock limit is this process's own (getrlimit), not the fixture's: the EFA node of the fixture
# makes a low limit a CONCERN, so it is left out here.
if ! grep "^CONCERN" "$WORK/healthy" | grep -qv "signals.memlock"; then
  pass "healthy fixture: no CONCERN from the tree"
else
  fail "healthy fixture: $(grep ^CONCERN "$WORK/healthy")"
fi

printf '[governor]\nexpected = 3\n' >"$WORK/bad.toml"
"$PODPERF" signals --sample 0 --rules "$WORK/bad.toml" >"$WORK/bad" 2>&1
rc=$?
if [[ $rc -eq 2 ]] && grep -q "bad.toml" "$WORK/bad"; then pass "bad rules file: exit 2 naming the file"; else fail "bad rules: exit $rc: $(cat "$WORK/bad")"; fi
echo "signals: $PASSED passed, $FAILED failed"
[[ $FAILED -eq 0 ]]
