#!/usr/bin/env bash
# podperf signals --json on a fake NVML (tests/fake_nvml, PODPERF_NVML_LIBRARY) with the GPU configs of
# tests/fixtures/nvml: each config gives its CONCERN, the healthy one gives OK and no GPU CONCERN, an
# NVML whose init fails is an INFO saying why, and the command always exits 0.
set -uo pipefail
PODPERF=${1:?usage: $0 PODPERF_BINARY FAKE_NVML_LIBRARY}
FAKE=${2:?usage: $0 PODPERF_BINARY FAKE_NVML_LIBRARY}
FIX=$(cd "$(dirname "$0")/../fixtures/nvml" && pwd)
WORK=$(mktemp -d /tmp/podperf-signals-nvml.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
PASSED=0
FAILED=0
pass() { echo "PASS: $*"; PASSED=$((PASSED + 1)); }
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }

# Runs podperf signals with the fake NVML and config $1; JSON into $WORK/$1.json.
run_fake() {
  PODPERF_NVML_LIBRARY="$FAKE" FAKE_NVML_CONFIG="$FIX/$1" "$PODPERF" signals --sample 0 --json >"$WORK/$1.json" 2>"$WORK/$1.err"
  local rc=$?
  if [[ $rc -ne 0 ]]; then fail "$1: exit $rc: $(head -c 300 "$WORK/$1.err")"; return 1; fi
  return 0
}

# expect_concern CONFIG CHECK OBSERVED_FRAGMENT: exactly that GPU check is the only GPU CONCERN.
expect_concern() {
  local config=$1 check=$2 fragment=$3
  run_fake "$config" || return
  if jq -e --arg c "$check" --arg f "$fragment" \
      '[.[] | select(.check == $c and .tag == "CONCERN" and (.observed | contains($f)))] | length == 1' \
      "$WORK/$config.json" >/dev/null; then
    pass "$config: CONCERN $check ($fragment)"
  else
    fail "$config: no CONCERN $check with '$fragment': $(jq -c '[.[] | select(.check | startswith("signals.gpu") or . == "signals.nvml") | [.tag, .check, .observed]]' "$WORK/$config.json")"
  fi
  local others
  others=$(jq -r --arg c "$check" '[.[] | select(.tag == "CONCERN" and (.check | startswith("signals.gpu")) and .check != $c) | .check] | join(",")' "$WORK/$config.json")
  if [[ -z $others ]]; then pass "$config: no other GPU CONCERN"; else fail "$config: other GPU CONCERNs: $others"; fi
}

run_fake healthy.conf
if jq -e '[.[] | select(.check == "signals.nvml" and .tag == "OK" and (.observed | contains("2 GPUs")))] | length == 1' "$WORK/healthy.conf.json" >/dev/null &&
   jq -e '[.[] | select((.check | startswith("signals.gpu")) and .tag == "CONCERN")] | length == 0' "$WORK/healthy.conf.json" >/dev/null &&
   jq -e 'all(.[] | select(.check | IN("signals.gpu_lost", "signals.gpu_temperature", "signals.gpu_pcie", "signals.gpu_ecc", "signals.gpu_row_remap", "signals.gpu_nvlink")); .tag == "OK")' "$WORK/healthy.conf.json" >/dev/null; then
  pass "healthy.conf: NVML OK, every GPU check OK"
else
  fail "healthy.conf: $(jq -c '[.[] | select(.check | startswith("signals.gpu") or . == "signals.nvml") | [.tag, .check, .observed]]' "$WORK/healthy.conf.json")"
fi
if jq -e '[.[] | select(.check == "signals.gpu_fabric" and .tag == "INFO" and (.observed | contains("lacks nvmlDeviceGetGpuFabricInfo")))] | length == 1' "$WORK/healthy.conf.json" >/dev/null; then
  pass "healthy.conf: the symbol the fake lacks is 'not supported' (INFO)"
else
  fail "healthy.conf: fabric: $(jq -c '.[] | select(.check == "signals.gpu_fabric")' "$WORK/healthy.conf.json")"
fi

expect_concern temperature.conf signals.gpu_temperature "91 C (slowdown 90 C)"
expect_concern clock_events.conf signals.gpu_clock_events "HwSlowdown+HwThermalSlowdown"
expect_concern pcie_width.conf signals.gpu_pcie "x8 of x16"
expect_concern ecc.conf signals.gpu_ecc "3 uncorrected since driver load"
expect_concern remap.conf signals.gpu_row_remap "remap pending"
expect_concern lost.conf signals.gpu_lost "GPU 1 fell off the bus: reboot, then replace if it recurs"
expect_concern nvlink.conf signals.gpu_nvlink "GPU0 link 2 inactive"

run_fake init_error.conf
if jq -e '[.[] | select(.check == "signals.nvml" and .tag == "INFO" and (.observed | contains("Driver Not Loaded")))] | length == 1' "$WORK/init_error.conf.json" >/dev/null; then
  pass "init_error.conf: INFO signals.nvml naming the NVML error"
else
  fail "init_error.conf: $(jq -c '.[] | select(.check == "signals.nvml")' "$WORK/init_error.conf.json")"
fi

# A library path that does not exist: INFO with dlopen's reason, exit 0.
PODPERF_NVML_LIBRARY=/nonexistent/libnvidia-ml.so.1 "$PODPERF" signals --sample 0 --json >"$WORK/absent.json" 2>&1
rc=$?
if [[ $rc -eq 0 ]] && jq -e '[.[] | select(.check == "signals.nvml" and .tag == "INFO" and (.observed | contains("dlopen(/nonexistent/libnvidia-ml.so.1)")))] | length == 1' "$WORK/absent.json" >/dev/null; then
  pass "absent NVML library: INFO with the dlopen error, exit 0"
else
  fail "absent NVML library: exit $rc: $(head -c 300 "$WORK/absent.json")"
fi
echo "signals_nvml: $PASSED passed, $FAILED failed"
[[ $FAILED -eq 0 ]]
