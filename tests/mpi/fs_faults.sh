#!/usr/bin/env bash
# Filesystem faults (needs root to mount a small tmpfs; exit 77 = skipped otherwise): a filesystem
# that fills up in the middle of seq-write ends the run with exit 3, a clear ENOSPC message naming
# node, rank, file and operation, the results measured so far written, and nothing left behind; the
# space check refuses the same run up front (exit 2) unless --no-space-check. A results directory that
# fills up during a pair run: exit 3, the error names events.jsonl, every line already written stays
# whole, and the report still reaches the terminal.
source "$(dirname "$0")/lib.sh" "$1"
if [[ $(id -u) -ne 0 ]]; then echo "fs_faults: needs root to mount a tmpfs; skipped"; exit 77; fi
SMALL="$WORK/small"
mkdir -p "$SMALL"
if ! mount -t tmpfs -o size=24m podperf-test "$SMALL"; then echo "fs_faults: cannot mount tmpfs; skipped"; exit 77; fi
FULL="$WORK/full"
mkdir -p "$FULL"
trap 'umount "$SMALL" 2>/dev/null; umount "$FULL" 2>/dev/null; [[ -n "${KEEP_WORK:-}" ]] || rm -rf "$WORK"' EXIT

# 4 ranks x 8M = 32M on a 24M filesystem.
podperf_mpirun 4 fs --path "$SMALL" --probes seq-write,seq-read --file-size 8M --out "$WORK/res" --run-id checked
expect_eq "space check: exit 2" "$?" "2"
expect_match "space check: the numbers" "$(cat "$WORK/out")" "need 3[0-9](\.[0-9])? MiB .*4 ranks x 8 MiB.* only 2[0-9](\.[0-9])? MiB are free"
expect_eq "space check: nothing written" "$(ls -A "$SMALL" | wc -l)" "0"

podperf_mpirun 4 fs --path "$SMALL" --probes seq-write,seq-read,meta --file-size 8M --no-space-check \
  --out "$WORK/res" --run-id full
expect_eq "ENOSPC during seq-write: exit 3" "$?" "3"
run="$WORK/res/full/run.json"
/usr/bin/python3 "$TESTS_DIR/check_run.py" "$WORK/res/full" --nodes 1 >/dev/null &&
  pass "ENOSPC: run.json valid" || fail "ENOSPC: run.json invalid"
expect_eq "ENOSPC: status aborted" "$(jq -r .status "$run")" "aborted"
err=$(jq -r .error "$run")
expect_match "ENOSPC: error names the probe, node, rank, operation and file" "$err" \
  "seq-write failed: node [^ ]+ rank [0-3]: write $SMALL/podperf-full/seq\.r[0-3] at offset [0-9]+: No space left on device \(ENOSPC\)"
expect_eq "ENOSPC: the seq-write result is kept" "$(jq -c '[.fs.probes[] | [.probe, .status]]' "$run")" '[["seq-write","error"]]'
expect_match "ENOSPC: ranks that finished keep their numbers" "$(jq '[.fs.probes[0].ranks[] | select(.status == "ok")] | length' "$run")" "^[0-3]$"
expect_eq "ENOSPC: the probes not run are named" "$(jq -c '[.unfinished[] | select(startswith("fs probe"))] | length' "$run")" "5"
expect_match "ENOSPC: the terminal says so" "$(cat "$WORK/out")" "No space left on device"
expect_eq "ENOSPC: nothing left on the filesystem" "$(ls -A "$SMALL" | wc -l)" "0"
# --- the results directory fills up: 64K of tmpfs with 40K taken, rounds of a few KiB each
if mount -t tmpfs -o size=64k podperf-results "$FULL"; then
  head -c 40000 /dev/zero >"$FULL/filler"
  podperf_mpirun 6 pairs --virtual-nodes 6 -n 20 -w 1 -b 64K -e 1M --out "$FULL" --run-id r
  expect_eq "results full: exit 3" "$?" "3"
  out=$(cat "$WORK/out")
  expect_match "results full: the error names the file and ENOSPC" "$out" "cannot write $FULL/r/events.jsonl: No space left on device"
  expect_match "results full: the report still reaches the terminal" "$out" "Baseline|baseline"
  if /usr/bin/python3 -c '
import json, sys
lines = [l for l in open(sys.argv[1]).read().split("\n") if l]
for l in lines: json.loads(l)
assert lines and json.loads(lines[0])["event"] == "start"
print(len(lines))' "$FULL/r/events.jsonl" >"$WORK/lines" 2>&1; then
    pass "results full: events.jsonl has $(cat "$WORK/lines") whole lines, none torn"
  else
    fail "results full: events.jsonl damaged: $(tail -1 "$WORK/lines")"
  fi
else
  echo "fs_faults: cannot mount a tmpfs for the results; that case is skipped"
fi
finish
