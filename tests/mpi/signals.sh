#!/usr/bin/env bash
# podperf signals under mpirun (3 ranks, one host): the snapshots gathered over MPI and printed once by
# rank 0 with the drift section; --json is one array; --fail-on concern fails every rank when a CONCERN
# is found (exit 1 from mpirun), and passes without one; --local reads each rank's host alone (no MPI).
source "$(dirname "$0")/lib.sh" "$1"
FIX=$(cd "$TESTS_DIR/../fixtures/signals" && pwd)

podperf_mpirun 3 signals --sample 0
rc=$?
out=$(cat "$WORK/out")
expect_eq "gathered: exit 0 (no --fail-on)" "$rc" "0"
expect_match "gathered: one header, from rank 0" "$(grep -c '^podperf signals: 3 ranks' "$WORK/out")" "^1$"
expect_match "gathered: one host (the ranks share it)" "$out" "^1 host: each host's CONCERN findings"
expect_match "gathered: the drift section" "$out" "^Across the 1 hosts \(drift\):"
expect_match "gathered: fewer than two hosts said" "$out" "drift.nodes"
expect_match "gathered: totals" "$out" "^Total: [0-9]+ CONCERN on [01] of 1 hosts"

podperf_mpirun 3 signals --sample 0 --json --root "$FIX/governor_powersave"
rc=$?
if jq -e '[.[] | select(.tag == "CONCERN" and .check == "signals.cpu_governor")] | length == 1' "$WORK/out" >/dev/null 2>&1 &&
  jq -e '[.[] | select(.check == "drift.nodes")] | length == 1' "$WORK/out" >/dev/null 2>&1; then
  pass "--json: one array, the host's CONCERN once, the drift findings"
else
  fail "--json: $(head -c 400 "$WORK/out")"
fi
expect_eq "--json without --fail-on: exit 0" "$rc" "0"

podperf_mpirun 3 signals --sample 0 --root "$FIX/governor_powersave" --fail-on concern
expect_eq "--fail-on concern with a CONCERN: exit 1" "$?" "1"
expect_match "--fail-on concern: the CONCERN printed" "$(cat "$WORK/out")" "CONCERN +signals.cpu_governor"

podperf_mpirun 3 signals --sample 0 --local
rc=$?
expect_eq "--local: exit 0" "$rc" "0"
expect_eq "--local: each rank reads its host alone (3 tables)" "$(grep -c '^host .* (root /, rules' "$WORK/out")" "3"

finish
