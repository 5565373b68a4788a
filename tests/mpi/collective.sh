#!/usr/bin/env bash
# podperf collective under mpirun with 4 ranks: every op and type, out of place and in place,
# checked (#wrong 0), nccl-tests table, run.json valid; one group per node; --backend nccl without
# a GPU is a usage error.
source "$(dirname "$0")/lib.sh" "$1"

podperf_mpirun 4 collective --backend host --op all -d float,double,int32 -b 1K -e 256K -f 16 -n 3 -w 1 \
  --out "$WORK/res" --run-id all
expect_eq "every op, every type: exit 0" "$?" "0"
run="$WORK/res/all/run.json"
/usr/bin/python3 "$TESTS_DIR/check_run.py" "$WORK/res/all" --nodes 1 >/dev/null &&
  pass "run.json valid against the schema" || fail "run.json invalid"
expect_eq "7 ops x 3 types x 3 sizes x 2 placements" "$(jq '.collectives | length' "$run")" "126"
expect_eq "every case correct" "$(jq '[.collectives[] | select(.wrong != 0 or .status != "ok")] | length' "$run")" "0"
expect_eq "every case has 3 samples" "$(jq '[.collectives[] | select((.samples_s | length) != 3)] | length' "$run")" "0"
expect_eq "all_gather size is the total (count per rank x 4)" \
  "$(jq -c '[.collectives[] | select(.op == "all_gather" and .dtype == "float" and .in_place == false) | [.size_bytes, .count]]' "$run")" \
  "[[1024,64],[16384,1024],[262144,16384]]"
expect_eq "all_reduce busbw = algbw x 2(n-1)/n" \
  "$(jq '[.collectives[] | select(.op == "all_reduce") | (.busbw_gbps / .algbw_gbps * 1000 | round)] | unique' "$run")" "[
  1500
]"
table=$(cat "$WORK/out")
expect_match "table header like nccl-tests" "$table" "size +count +type +redop +root +time +algbw +busbw +#wrong"
expect_match "table row for reduce_scatter double" "$table" "reduce_scatter double on world \(4 ranks\)"
expect_match "table says all correct" "$table" "all cases correct"
expect_eq "events: one line per op and type" "$(grep -c '"event":"collective"' "$WORK/res/all/events.jsonl")" "21"

podperf_mpirun 4 collective --backend host --op all_reduce,alltoall --group-by node --virtual-nodes 2 -b 64K -e 64K \
  -n 2 -w 0 --out "$WORK/res" --run-id bynode -a 1
expect_eq "group by node: exit 0" "$?" "0"
expect_eq "group by node: one group per virtual node" \
  "$(jq -c '[.collectives[].group] | unique' "$WORK/res/bynode/run.json")" "[\"$(hostname)/v0\",\"$(hostname)/v1\"]"
expect_eq "group by node: 2 ranks per group" "$(jq '[.collectives[].ranks] | unique | .[0]' "$WORK/res/bynode/run.json")" "2"
expect_eq "-a 1 recorded" "$(jq -r .options.time_combine "$WORK/res/bynode/run.json")" "avg"

# --repeat 2: every op and type once per block, each block in its own order; one result per case with
# both blocks' samples; events say the block; compare uses the blocks as units.
podperf_mpirun 4 collective --backend host --op all_reduce,all_gather,broadcast -d float,int32 -b 4K -e 16K -f 4 -n 3 \
  -w 1 --repeat 2 --out "$WORK/res" --run-id blocks
expect_eq "repeat 2: exit 0" "$?" "0"
run="$WORK/res/blocks/run.json"
expect_eq "repeat 2: blocks recorded" "$(jq -c '[.blocks.count, (.blocks.order | length), (.blocks.order[0] | sort)]' "$run")" \
  "[2,2,[0,1,2,3,4,5]]"
expect_eq "repeat 2: 3 ops x 2 types x 2 sizes x 2 placements, once each" "$(jq '.collectives | length' "$run")" "24"
expect_eq "repeat 2: every case has 2 x 3 samples" "$(jq '[.collectives[] | select((.samples_s | length) != 6)] | length' "$run")" "0"
expect_eq "repeat 2: 12 events, 6 per block" \
  "$(jq -sc '[.[] | select(.event == "collective") | .block] | group_by(.) | map(length)' "$WORK/res/blocks/events.jsonl")" "[6,6]"
expect_match "repeat 2: progress counts both blocks" "$(cat "$WORK/out")" "op 12/12 done.*block 2/2"
/usr/bin/python3 "$TESTS_DIR/check_run.py" "$WORK/res/blocks" --nodes 1 >/dev/null &&
  pass "repeat 2: run.json valid against the schema" || fail "repeat 2: run.json invalid"
"$PODPERF" compare "$WORK/res/blocks" "$WORK/res/blocks" --json >"$WORK/cmp.json"
expect_eq "repeat 2: compare's units are the blocks" "$(jq -r '[.units, .units_after] | join(" ")' "$WORK/cmp.json")" "blocks 2"

podperf_mpirun 2 collective --backend nccl --out "$WORK/res" --run-id nogpu
rc=$?
if "$PODPERF" --version | grep -q nccl; then
  expect_eq "--backend nccl without a GPU: exit 2" "$rc" "2"
  expect_match "--backend nccl without a GPU: says so" "$(cat "$WORK/out")" "no GPU is visible"
else
  expect_eq "--backend nccl in a build without NCCL: exit 2" "$rc" "2"
fi
if [[ -e "$WORK/res/nogpu" ]]; then fail "a results directory was left for a usage error"; else pass "no results directory for a usage error"; fi
finish
