#!/usr/bin/env bash
# Filesystem faults (needs root to mount a small tmpfs; exit 77 = skipped otherwise): a filesystem
# that fills up in the middle of seq-write ends the run with exit 3, a clear ENOSPC message naming
# node, rank, file and operation, the results measured so far written, and nothing left behind; the
# space check refuses the same run up front (exit 2) unless --no-space-check.
source "$(dirname "$0")/lib.sh" "$1"
if [[ $(id -u) -ne 0 ]]; then echo "fs_faults: needs root to mount a tmpfs; skipped"; exit 77; fi
SMALL="$WORK/small"
mkdir -p "$SMALL"
if ! mount -t tmpfs -o size=24m podperf-test "$SMALL"; then echo "fs_faults: cannot mount tmpfs; skipped"; exit 77; fi
trap 'umount "$SMALL" 2>/dev/null; [[ -n "${KEEP_WORK:-}" ]] || rm -rf "$WORK"' EXIT

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
finish
