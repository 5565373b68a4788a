#!/usr/bin/env bash
# podperf fs under mpirun on this machine: every probe on 4 ranks (4 virtual nodes) against a
# temporary directory, numbers positive, checksums verified, reads shifted to another node, nothing
# left behind; podperf run --fs-path adds the stage after the pairs; bad paths and sizes are usage
# errors (exit 2) that leave nothing; Ctrl-C in the middle of a probe removes the probe files.
source "$(dirname "$0")/lib.sh" "$1"
DATA="$WORK/data"
mkdir -p "$DATA"
SMALL=(--file-size 32M --block-size 1M --ckpt-shard-size 16M --ckpt-shards 2 --meta-files 200 --rand-ops 400)

# --- every probe, 4 virtual nodes
podperf_mpirun 4 fs --path "$DATA" --virtual-nodes 4 "${SMALL[@]}" --out "$WORK/res" --run-id all
rc=$?
run="$WORK/res/all/run.json"
/usr/bin/python3 "$TESTS_DIR/check_run.py" "$WORK/res/all" --nodes 4 >/dev/null &&
  pass "run.json valid against the schema" || fail "run.json invalid: $(/usr/bin/python3 "$TESTS_DIR/check_run.py" "$WORK/res/all" --nodes 4)"
if [[ -s "$WORK/res/all/report.md" ]] && grep -q 'id="fs-bars-seq-write"' "$WORK/res/all/report.html"; then
  pass "report.html (with the filesystem bars) and report.md beside run.json"
else
  fail "reports missing: $(ls "$WORK/res/all")"
fi
flagged=$(jq '[.fs.probes[].nodes[] | select(.flagged)] | length' "$run")
# Virtual nodes share 2 cores: a node may be flagged by scheduling noise; the exit code must agree.
if [[ $flagged -eq 0 ]]; then expect_eq "all probes: exit 0 (nothing flagged)" "$rc" "0"; else
  expect_eq "all probes: exit 1 ($flagged node flags from noise)" "$rc" "1"; fi
expect_eq "nine probe results in order" "$(jq -c '[.fs.probes[].probe]' "$run")" \
  '["seq-write","seq-read","rand-read","meta-create","meta-stat","meta-read","meta-unlink","ckpt-save","ckpt-load"]'
expect_eq "every probe ok" "$(jq '[.fs.probes[] | select(.status != "ok")] | length' "$run")" "0"
expect_eq "every probe: 4 ranks and 4 nodes" "$(jq -c '[.fs.probes[] | [(.ranks | length), (.nodes | length)]] | unique' "$run")" "[[4,4]]"
expect_eq "data probes: positive MB/s on every rank" \
  "$(jq '[.fs.probes[] | select(.probe | startswith("meta") | not) | .ranks[] | select(.mb_per_s <= 0)] | length' "$run")" "0"
expect_eq "meta phases: positive ops/s, 200 ops per rank" \
  "$(jq -c '[.fs.probes[] | select(.probe | startswith("meta")) | .ranks[] | [.ops, (.ops_per_s > 0)]] | unique' "$run")" '[[200,true]]'
expect_eq "seq-write: 32M per rank, 128M in all" "$(jq '.fs.probes[0] | [.bytes, (.ranks | map(.bytes) | unique)] | .[0]' "$run")" "134217728"
expect_eq "aggregate = bytes / (last end - first start)" \
  "$(jq '[.fs.probes[] | select(.duration_s > 0 and .mb_per_s > 0) | ((.bytes / .duration_s / 1000000) / .mb_per_s * 1000 | round)] | unique' "$run" | tr -d ' \n')" "[1000]"
expect_eq "first done <= last done" "$(jq '[.fs.probes[] | select(.first_done_s > .duration_s + 1e-9)] | length' "$run")" "0"
expect_eq "reads come from another node (IOR -C)" \
  "$(jq '[.fs.probes[] | select(.probe == "seq-read" or .probe == "rand-read" or .probe == "ckpt-load") | .ranks[] | select(.source_node == .node or .source_node < 0)] | length' "$run")" "0"
expect_eq "seq-read: page cache residency measured on every rank" \
  "$(jq '[.fs.probes[1].ranks[] | select(.cached_fraction < 0)] | length' "$run")" "0"
expect_eq "rand-read: 1600 reads, p50 <= p99 <= p99.9" \
  "$(jq '.fs.probes[2] | [.ops, (.lat_p50_us > 0 and .lat_p50_us <= .lat_p99_us and .lat_p99_us <= .lat_p999_us)]' "$run" | tr -d ' \n')" "[1600,true]"
expect_eq "ckpt-load: every shard verified (2 x 16M per rank)" \
  "$(jq -c '.fs.probes[8] | [.bytes, ([.ranks[].checksum_mismatches] | add)]' "$run")" "[134217728,0]"
expect_eq "shared filesystem detected" "$(jq .fs.shared "$run")" "true"
expect_eq "nothing left in the directory" "$(ls -A "$DATA" | wc -l)" "0"
expect_eq "events: one fs_probe line per probe" "$(grep -c '"event":"fs_probe"' "$WORK/res/all/events.jsonl")" "9"
out=$(cat "$WORK/out")
expect_match "summary: a row per probe with the aggregate" "$out" "ckpt-load .* MB/s"
expect_match "summary: rand-read latency percentiles" "$out" "p50 .* p99.9"
expect_match "progress lines on stderr" "$out" "probe 9/9 done"

# --- --direct (when the filesystem supports O_DIRECT), probes subset
podperf_mpirun 2 fs --path "$DATA" --probes seq-write,seq-read --direct --file-size 8M --out "$WORK/res" --run-id direct
rc=$?
if grep -q "does not support direct I/O" "$WORK/out"; then
  expect_eq "--direct refused by this filesystem: exit 3" "$rc" "3"
else
  expect_eq "--direct: probes ok" "$(jq -c '[.fs.probes[] | [.probe, .status, .direct]]' "$WORK/res/direct/run.json")" \
    '[["seq-write","ok",true],["seq-read","ok",true]]'
  expect_eq "--direct: no page cache measurement (-1)" "$(jq '.fs.probes[1].cached_fraction_max' "$WORK/res/direct/run.json")" "-1"
fi
expect_eq "--direct: nothing left" "$(ls -A "$DATA" | wc -l)" "0"

# --- --repeat 2: the chain of probes twice, block after block, in its order; compare's units are blocks
podperf_mpirun 2 fs --path "$DATA" --probes seq-write,seq-read,meta --virtual-nodes 2 --file-size 8M --meta-files 100 \
  --repeat 2 --out "$WORK/res" --run-id blocks
rc=$?
run="$WORK/res/blocks/run.json"
expect_match "repeat 2: exit 0 or 1 (noise on shared cores)" "$rc" "^[01]$"
expect_eq "repeat 2: the chain twice, each result tagged with its block" \
  "$(jq -c '[.fs.probes[] | [.probe, .block]]' "$run")" \
  '[["seq-write",1],["seq-read",1],["meta-create",1],["meta-stat",1],["meta-read",1],["meta-unlink",1],["seq-write",2],["seq-read",2],["meta-create",2],["meta-stat",2],["meta-read",2],["meta-unlink",2]]'
expect_eq "repeat 2: blocks recorded, in the chain's order" "$(jq -c '[.blocks.count, .blocks.cases, .blocks.order]' "$run")" \
  '[2,"probes",[[0,1,2],[0,1,2]]]'
/usr/bin/python3 "$TESTS_DIR/check_run.py" "$WORK/res/blocks" --nodes 2 >/dev/null &&
  pass "repeat 2: run.json valid against the schema" || fail "repeat 2: run.json invalid"
expect_match "repeat 2: summary rows name the block" "$(cat "$WORK/out")" "seq-read #2 .* MB/s"
expect_match "repeat 2: progress counts both blocks" "$(cat "$WORK/out")" "probe 12/12 done.*block 2/2: meta-unlink"
expect_eq "repeat 2: nothing left" "$(ls -A "$DATA" | wc -l)" "0"
"$PODPERF" compare "$WORK/res/blocks" "$WORK/res/blocks" --json >"$WORK/cmp.json"
expect_eq "repeat 2: compare's units are the blocks" "$(jq -r '[.units, .units_after, .method] | join(" ")' "$WORK/cmp.json")" \
  "blocks 2 block_level_moderated_t"

# --- podperf run --fs-path: pairs, then the filesystem stage, one run.json
podperf_mpirun 4 run --virtual-nodes 4 -b 1M -e 1M -n 3 -w 1 --fs-path "$DATA" --probes seq-write,seq-read,meta \
  --file-size 8M --meta-files 50 --out "$WORK/res" --run-id both
rc=$?
both="$WORK/res/both/run.json"
if [[ $rc -le 1 ]]; then pass "run with --fs-path: exit $rc"; else fail "run with --fs-path: exit $rc: $(tail -5 "$WORK/out")"; fi
expect_eq "run: 6 pairs and 6 fs probe results" "$(jq -c '[(.pairs | length), (.fs.probes | length)]' "$both")" "[6,6]"
/usr/bin/python3 "$TESTS_DIR/check_run.py" "$WORK/res/both" --nodes 4 >/dev/null &&
  pass "run: run.json valid" || fail "run: run.json invalid"
expect_match "run: summary has the filesystem section" "$(cat "$WORK/out")" "seq-write .* MB/s"
expect_eq "run: nothing left" "$(ls -A "$DATA" | wc -l)" "0"

# --- bad input: exit 2, one clear line, no results directory, no files
bad() {  # bad NAME REGEX ARGS...
  local name=$1 regex=$2
  shift 2
  podperf_mpirun 2 fs "$@" --out "$WORK/res" --run-id "bad-$name"
  expect_eq "$name: exit 2" "$?" "2"
  expect_match "$name: says what is wrong" "$(cat "$WORK/out")" "$regex"
  if [[ -e "$WORK/res/bad-$name" ]]; then fail "$name: results directory left"; else pass "$name: no results directory"; fi
}
bad missing-path "--path $WORK/nope: No such file or directory" --path "$WORK/nope"
touch "$WORK/afile"
bad not-a-directory "not a directory" --path "$WORK/afile"
bad too-big "the probes need .* but only .* are free" --path "$DATA" --file-size 100T --probes seq-write
bad unknown-probe "unknown probe 'seqwrite'" --path "$DATA" --probes seqwrite
bad read-without-write "add seq-write" --path "$DATA" --probes seq-read
bad fsx-half "go together" --path "$DATA" --fsx-deployment PERSISTENT_2-250
bad fsx-unknown "PERSISTENT_2-250" --path "$DATA" --fsx-deployment SCRATCH_9 --fsx-capacity-tib 2.4
podperf_mpirun 2 run --virtual-nodes 2 -b 1M -e 1M --fs-path "$WORK/nope" --out "$WORK/res" --run-id bad-run-path
expect_eq "run --fs-path missing: exit 2 before measuring" "$?" "2"
expect_match "run --fs-path missing: says so" "$(cat "$WORK/out")" "--fs-path $WORK/nope: No such file"
if [[ -e "$WORK/res/bad-run-path" ]]; then fail "run --fs-path missing: results directory left"; else pass "run --fs-path missing: no results directory"; fi
expect_eq "bad input: nothing left in the directory" "$(ls -A "$DATA" | wc -l)" "0"

# --- Ctrl-C (SIGINT to mpirun) during a long seq-write: exit 3, the run kept, the files removed
(timeout 120 mpirun --oversubscribe -np 2 "$PODPERF" fs --path "$DATA" --probes seq-write --file-size 4G \
  --no-space-check --out "$WORK/res" --run-id intr >"$WORK/intr.out" 2>&1; echo $? >"$WORK/intr.rc") &
for _ in $(seq 1 200); do
  [[ -n $(ls "$DATA"/podperf-intr/seq.r* 2>/dev/null) ]] && break
  sleep 0.1
done
sleep 1
pkill -INT -f -- "^mpirun .*--run-id intr"  # mpirun only: a second SIGINT (via timeout) would make it kill the ranks at once
wait
rc=$(cat "$WORK/intr.rc")
if [[ $rc -ne 0 ]]; then pass "Ctrl-C: job failed (exit $rc)"; else fail "Ctrl-C: exit 0"; fi
expect_eq "Ctrl-C: status aborted" "$(jq -r .status "$WORK/res/intr/run.json")" "aborted"
expect_match "Ctrl-C: the probe named unfinished" "$(jq -r '.unfinished[]' "$WORK/res/intr/run.json")" "fs probe seq-write"
expect_eq "Ctrl-C: probe directory removed" "$(ls -A "$DATA" | wc -l)" "0"

# --- a rank stopped (SIGSTOP) in the middle of seq-write: the watchdog ends the run (exit 3 from
# rank 0), names the probe, and the probe directory is removed although that rank never resumes.
(timeout 120 mpirun --oversubscribe -np 2 "$PODPERF" fs --path "$DATA" --probes seq-write --file-size 4G \
  --no-space-check --timeout 4 --out "$WORK/res" --run-id fshang >"$WORK/hang.out" 2>&1; echo $? >"$WORK/hang.rc") &
stopped=""
for _ in $(seq 1 200); do
  for p in $(pgrep -f -- "--run-id fshang"); do
    if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=1"; then stopped=$p; fi
  done
  [[ -n $stopped && -n $(ls "$DATA"/podperf-fshang/seq.r1 2>/dev/null) ]] && break
  sleep 0.1
done
if [[ -n $stopped ]]; then
  kill -STOP "$stopped"
  start=$SECONDS
  wait
  took=$((SECONDS - start))
  kill -KILL "$stopped" 2>/dev/null
  if [[ $(cat "$WORK/hang.rc") -ne 0 ]]; then pass "stopped rank: job failed (exit $(cat "$WORK/hang.rc"))"; else fail "stopped rank: exit 0"; fi
  if ((took <= 30)); then pass "stopped rank: ended ${took}s after the stop"; else fail "stopped rank: took ${took}s"; fi
  expect_eq "stopped rank: status timeout" "$(jq -r .status "$WORK/res/fshang/run.json")" "timeout"
  expect_match "stopped rank: the probe named" "$(jq -r .error "$WORK/res/fshang/run.json")" "filesystem probe seq-write did not finish"
  expect_eq "stopped rank: probe directory removed" "$(ls -A "$DATA" | wc -l)" "0"
else
  fail "stopped rank: rank 1 never started"
  wait
fi

finish
