#!/usr/bin/env bash
# Every command refuses a bad option value before anything is measured or written: exit 2 and ONE line
# on stderr, "podperf: error: <option> <value>: <what was expected>" (app/cli_checks,
# docs/options-validation.md). A table of bad values per class of option: non-finite and out-of-range
# numbers, whole numbers, sizes, choices, missing input files and directories, empty paths and texts.
set -uo pipefail
PODPERF=${1:?usage: $0 PODPERF_BINARY}
HERE=$(cd "$(dirname "$0")" && pwd)
FIX="$HERE/../fixtures"
WORK=$(mktemp -d /tmp/podperf-options.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
PASSED=0
FAILED=0
pass() { echo "PASS: $*"; PASSED=$((PASSED + 1)); }
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }
mkdir -p "$WORK/res" "$WORK/dir"
: >"$WORK/file"
RUN_JSON="$FIX/runs/accept/healthy.json"

# bad EXPECTED_LINE ARGS...: podperf ARGS exits 2 with exactly EXPECTED_LINE (after "podperf: error: ")
# as its only line on stderr, nothing on stdout, and nothing under $WORK/res.
bad() {
  local want=$1
  shift
  "$PODPERF" "$@" --out "$WORK/res" >"$WORK/out" 2>"$WORK/err" </dev/null
  local rc=$?
  local err
  err=$(cat "$WORK/err")
  if [[ $rc -eq 2 && "$err" == "podperf: error: $want" && ! -s "$WORK/out" && -z "$(ls -A "$WORK/res")" ]]; then
    pass "$*: $want"
  else
    fail "$*: exit $rc, want 2 and the one line 'podperf: error: $want'; stderr: $err; stdout: $(head -c 200 "$WORK/out")"
  fi
}
# bad_here: as bad, for commands without --out (offline commands).
bad_here() {
  local want=$1
  shift
  "$PODPERF" "$@" >"$WORK/out" 2>"$WORK/err" </dev/null
  local rc=$?
  local err
  err=$(cat "$WORK/err")
  if [[ $rc -eq 2 && "$err" == "podperf: error: $want" ]]; then pass "$*: $want"; else fail "$*: exit $rc; stderr: $err"; fi
}

# Floating-point options: nan, inf, -inf and the range, never CLI11's 308-digit bounds.
for cmd in pairs run collective accept; do
  bad "--timeout 0: must be more than 0 seconds" $cmd --timeout 0
  bad "--timeout nan: must be a finite number more than 0 seconds" $cmd --timeout nan
  bad "--timeout inf: must be a finite number more than 0 seconds" $cmd -T inf
  bad "--timeout -inf: must be a finite number more than 0 seconds" $cmd --timeout=-inf
done
bad "--timeout nan: must be a finite number more than 0 seconds" fs --path "$WORK/dir" --timeout nan
bad "--threshold nan: must be a finite number from 0 to 1" pairs --backend sim --threshold nan
bad "--threshold 1.5: must be from 0 to 1" pairs --threshold 1.5
bad "--fsx-capacity-tib inf: must be a finite number more than 0 TiB" fs --path "$WORK/dir" --fsx-capacity-tib inf
bad "--expected-mb-s nan: must be a finite number more than 0 MB/s" run --fs-path "$WORK/dir" --expected-mb-s nan
bad_here "--sample nan: must be a finite number from 0 to 3600 seconds" signals --sample nan
bad_here "--alpha inf: must be a finite number from 1e-06 to 0.5" compare "$RUN_JSON" "$RUN_JSON" --alpha inf
bad_here "--alpha 0.9: must be from 1e-06 to 0.5" compare "$RUN_JSON" "$RUN_JSON" --alpha 0.9
bad_here "--allowance nan: must be a finite number from 0 to 1000 percent" compare "$RUN_JSON" "$RUN_JSON" --allowance nan
bad_here "--fail-on -1: must be from 0 to 1000 percent" compare "$RUN_JSON" "$RUN_JSON" --fail-on=-1
bad_here "--min-change inf: must be a finite number from 0 to 1000 percent" compare "$RUN_JSON" "$RUN_JSON" --min-change inf
bad_here "--timeout 0: must be more than 0 seconds" sweep host-smoke --timeout 0 --dry-run

# Whole numbers, sizes, choices.
bad "--iters 0: must be a whole number from 1 to 1000000" pairs -n 0
bad "--iters 2.5: must be a whole number from 1 to 1000000" collective -n 2.5
bad "--sim-nodes 1: must be a whole number from 2 to 1048576" pairs --backend sim --sim-nodes 1
bad "--seed -3: must be a whole number from 0 to 18446744073709551615" pairs --seed -3
bad "--retest 11: must be a whole number from 0 to 10" accept --retest 11
bad "--repeat 0: must be a whole number from 1 to 100" pairs --repeat 0
bad "--repeat 101: must be a whole number from 1 to 100" collective --repeat 101
bad "--maxbytes 4Q: has an unknown suffix 'Q' (expected K, M, G or T)" pairs -e 4Q
bad "--minbytes 0: must be at least 1 byte" collective -b 0
bad "--file-size lots: must be a size in bytes: a whole number with an optional K, M, G or T suffix, e.g. 64K, 4M, 1G" \
  fs --path "$WORK/dir" --file-size lots
bad "--backend gpu: must be one of: auto, host, nccl, sim" pairs --backend gpu
bad "--schedule smart: must be one of: all, adaptive" pairs --schedule smart
bad_here "--format pdf: must be one of: html, md, csv, junit" report "$RUN_JSON" --format pdf

# Input files and directories that do not exist; empty paths.
bad "--path $WORK/nope: No such file or directory" fs --path "$WORK/nope"
bad "--path $WORK/file: is not a directory" fs --path "$WORK/file"
bad "--fs-path $WORK/nope: No such file or directory" run --fs-path "$WORK/nope"
bad "--fs-path '': must not be empty" accept --fs-path ''
bad "--config $WORK/nope.toml: No such file or directory" pairs --config "$WORK/nope.toml"
bad "--topology $WORK/nope.csv: No such file or directory" pairs --topology "$WORK/nope.csv"
bad "--signals-root $WORK/nope: No such file or directory" pairs --signals-root "$WORK/nope"
bad "--sim-model $WORK/nope.toml: No such file or directory" pairs --backend sim --sim-model "$WORK/nope.toml"
bad "--profile ./mine.toml: No such file or directory" accept --profile ./mine.toml
bad "--from $WORK/nope: No such file or directory" accept --from "$WORK/nope"
bad "--junit '': must not be empty (a file to write)" accept --junit ''
bad "--run-id '': must not be empty" pairs --run-id ''
bad_here "--out '': must not be empty (a directory to write into)" pairs --out ''
bad_here "--root $WORK/nope: No such file or directory" signals --root "$WORK/nope"
bad_here "--rules $WORK/nope.toml: No such file or directory" signals --rules "$WORK/nope.toml"
bad_here "RUN $WORK/nope: No such file or directory" report "$WORK/nope"
bad_here "--out '': must not be empty (a file to write)" report "$RUN_JSON" --out ''
bad_here "BEFORE $WORK/nope: No such file or directory" compare "$WORK/nope" "$RUN_JSON"
bad_here "--before $WORK/nope: No such file or directory" compare --before "$RUN_JSON" "$WORK/nope" --after "$RUN_JSON"
bad_here "--html $WORK/dir: is a directory, not a file to write" compare "$RUN_JSON" "$RUN_JSON" --html "$WORK/dir"
bad_here "PATH $WORK/nope.log: No such file or directory" triage "$WORK/nope.log"
bad_here "FILE $WORK/nope.toml: No such file or directory" sweep "$WORK/nope.toml"
bad_here "--hostfile $WORK/nope: No such file or directory" sweep host-smoke --hostfile "$WORK/nope"

# Unknown options stay one line, with the way to the help.
"$PODPERF" pairs --bogus >/dev/null 2>"$WORK/err"
rc=$?
if [[ $rc -eq 2 && $(wc -l <"$WORK/err") -eq 1 ]] && grep -q -- "--bogus.*podperf --help" "$WORK/err"; then
  pass "unknown option: exit 2, one line pointing to --help"
else fail "unknown option: exit $rc: $(cat "$WORK/err")"; fi

# Good values still run: a %h signals root and a tiny modelled run.
"$PODPERF" pairs --backend sim --sim-nodes 4 -b 1M -e 1M -n 2 -w 0 --timeout 30 --signals-root "$WORK/%h" \
  --out "$WORK/ok" --run-id ok >/dev/null 2>"$WORK/err"
rc=$?
if [[ $rc -le 1 && -s "$WORK/ok/ok/run.json" ]]; then pass "good values run (exit $rc)"; else fail "good values: exit $rc: $(tail -3 "$WORK/err")"; fi

echo "options: $PASSED passed, $FAILED failed"
[[ $FAILED -eq 0 ]]
