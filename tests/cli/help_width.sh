#!/usr/bin/env bash
# The first screen: every line of `podperf --help` and of every `podperf <command> --help` is at most 100
# columns, the subcommands' summaries are one line each, the -a default is stated beside nccl-tests',
# and --version names every backend this build has (sim included).
set -uo pipefail
PODPERF=${1:?usage: $0 PODPERF_BINARY}
WORK=$(mktemp -d /tmp/podperf-help.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
PASSED=0
FAILED=0
pass() { echo "PASS: $*"; PASSED=$((PASSED + 1)); }
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }

# too_wide FILE: "line N (W columns): TEXT" for every line over 100 columns (characters, not bytes).
too_wide() {
  /usr/bin/python3 - "$1" <<'PY'
import sys
for n, line in enumerate(open(sys.argv[1], encoding="utf-8").read().split("\n"), 1):
    if len(line) > 100:
        print(f"line {n} ({len(line)} columns): {line[:60]}...")
PY
}

"$PODPERF" --help >"$WORK/top" 2>&1 || fail "podperf --help: exit $?"
commands=$(awk '/^Subcommands:/ {on = 1; next} on && /^  [a-z]/ {print $1}' "$WORK/top")
if [[ $(wc -w <<<"$commands") -ge 10 ]]; then pass "the top-level help lists the commands"; else fail "commands: $commands"; fi
for c in "" $commands; do
  if [[ -n $c ]]; then "$PODPERF" "$c" --help >"$WORK/help" 2>&1 || fail "podperf $c --help: exit $?"; else cp "$WORK/top" "$WORK/help"; fi
  wide=$(too_wide "$WORK/help")
  if [[ -z $wide ]]; then pass "podperf ${c:+$c }--help: every line at most 100 columns ($(wc -l <"$WORK/help") lines)"
  else fail "podperf ${c:+$c }--help: $(wc -l <<<"$wide") lines over 100 columns: $(head -3 <<<"$wide")"; fi
done
# One-line summaries: in the top-level list every command's line is followed by the next command (or the end).
continued=$(awk '/^Subcommands:/ {on = 1; next} on && /^   +[^ ]/ {print}' "$WORK/top")
if [[ -z $continued ]]; then pass "every command's summary is one line"; else fail "summaries continued: $continued"; fi
"$PODPERF" pairs --help >"$WORK/pairs" 2>&1
if tr -s ' \n' ' ' <"$WORK/pairs" | grep -q "podperf defaults to 3, nccl-tests to 1 (the average)"; then
  pass "-a: the default stated beside nccl-tests'"
else fail "-a: $(grep -A3 -- '--average' "$WORK/pairs")"; fi
version=$("$PODPERF" --version)
if grep -q "backends: host.*sim" <<<"$version"; then pass "--version names the sim backend: $version"; else fail "--version: $version"; fi
echo "help_width: $PASSED passed, $FAILED failed"
[[ $FAILED -eq 0 ]]
