#!/usr/bin/env bash
# podperf accept under mpirun on this machine (4 ranks as 4 virtual nodes, host backend, small sizes
# from the command line overriding the profile's): run.json carries the verdict, the exit code agrees
# with it, junit.xml is written in the results directory and at --junit; the full profile runs the
# pairs and then the filesystem stage, the fs profile the filesystem alone; bad usage is exit 2 before
# anything runs.
source "$(dirname "$0")/lib.sh" "$1"
DATA="$WORK/data"
mkdir -p "$DATA"
SMALL=(-b 1M -e 1M -n 3 -w 1)
FS_SMALL=(--file-size 8M --block-size 1M --ckpt-shard-size 8M --meta-files 50 --rand-ops 100)

# check_verdict ID RC PROFILE: run.json's verdict, exit code consistent with it, JUnit files parse
check_verdict() {
  local id=$1 rc=$2 profile=$3 run="$WORK/res/$1/run.json"
  local status
  status=$(jq -r '.verdict.status' "$run" 2>/dev/null)
  case "$status" in
    PASS | WARN) expect_eq "$id: verdict $status, exit 0" "$rc" "0" ;;
    FAIL) expect_eq "$id: verdict FAIL, exit 1" "$rc" "1" ;;
    *) fail "$id: no verdict in run.json (status '$status', exit $rc): $(tail -5 "$WORK/out")" ;;
  esac
  expect_eq "$id: verdict profile" "$(jq -r '.verdict.profile' "$run")" "$profile"
  expect_eq "$id: command accept" "$(jq -r '.command' "$run")" "accept"
  expect_eq "$id: a verdict per node" "$(jq '.verdict.nodes | length' "$run")" "4"
  /usr/bin/python3 "$TESTS_DIR/check_run.py" "$WORK/res/$id" --nodes 4 >"$WORK/check" 2>&1 &&
    pass "$id: run.json valid against the schema" || fail "$id: $(tail -1 "$WORK/check")"
  for f in "$WORK/res/$id/junit.xml" "$WORK/$id.xml"; do
    if /usr/bin/python3 -c 'import sys, xml.etree.ElementTree as ET; ET.parse(sys.argv[1])' "$f" 2>/dev/null; then
      pass "$id: $(basename "$f") well-formed"
    else
      fail "$id: $f missing or not XML"
    fi
  done
  expect_eq "$id: JUnit failures = FAIL checks" \
    "$(/usr/bin/python3 -c 'import sys, xml.etree.ElementTree as ET; print(sum(1 for c in ET.parse(sys.argv[1]).iter("testcase") if c.find("failure") is not None))' "$WORK/$id.xml")" \
    "$(jq '[.verdict.checks[] | select(.status == "FAIL")] | length' "$run")"
  expect_match "$id: verdict printed" "$(cat "$WORK/out")" "Acceptance verdict: $status \(profile $profile"
  local drain
  drain=$(jq -r '.verdict.drain | join(" ")' "$run")
  if [[ -n "$drain" ]]; then
    # mpirun outside Slurm records no Slurm node names: no scontrol line names a guessed host; a comment says why.
    expect_match "$id: the FAIL nodes named" "$(cat "$WORK/out")" "Drain, reboot or replace .*FAIL nodes?: "
    expect_match "$id: no Slurm name, said" "$(cat "$WORK/out")" "# Slurm: no Slurm node names recorded"
  fi
}

# --- quick: the pair test only
podperf_mpirun 4 accept --profile quick --virtual-nodes 4 "${SMALL[@]}" --out "$WORK/res" --run-id quick \
  --junit "$WORK/quick.xml"
rc=$?
check_verdict quick "$rc" quick
run="$WORK/res/quick/run.json"
expect_eq "quick: sizes from -b/-e (override the profile's 256M..1G)" "$(jq -c '.options.sizes_bytes' "$run")" "[1048576]"
expect_eq "quick: the overrides recorded" "$(jq -c '[.verdict.overrides[] | .option + " " + .value + " " + .profile]' "$run")" \
  '["-b 1M 256M","-e 1M 1G","-n 3 20","-w 1 5"]'
expect_eq "quick: not quick's acceptance (WARN), whatever the nodes" \
  "$(jq -r '.verdict.checks[] | select(.check == "profile") | .status' "$run")" "WARN"
expect_match "quick: the headline names the overrides" "$(cat "$WORK/out")" \
  "Acceptance verdict: (WARN|FAIL) \(profile quick with overrides -b 1M -e 1M -n 3 -w 1,"
expect_eq "quick: 6 pairs, no filesystem stage" "$(jq -c '[(.pairs | length), (.fs.probes | length)]' "$run")" "[6,0]"
expect_match "quick: host backend skips the SKU minimum" "$(jq -r '.verdict.checks[] | select(.check == "busbw_min") | .detail' "$run" | sort -u)" \
  "no SKU baseline|backend host"
expect_eq "quick: no published SKU figures recorded for a run without a SKU" "$(jq -c '.verdict.sku_busbw' "$run")" "[]"
"$PODPERF" report "$WORK/res/quick" --format html --out "$WORK/quick.html" >/dev/null 2>&1
expect_match "quick: the report says why no SKU line is drawn" "$(cat "$WORK/quick.html" 2>/dev/null)" \
  "No published SKU baseline drawn: the run was not judged against an instance type"
# Virtual nodes on 2 shared cores: a straggler from scheduling noise is possible; the verdict must agree.
if jq -e '.stragglers | length > 0' "$run" >/dev/null; then
  expect_eq "quick: a straggler (noise) fails the run" "$(jq -r '.verdict.status' "$run")" "FAIL"
fi

# --- full: pairs, then the filesystem stage
podperf_mpirun 4 accept --profile full --virtual-nodes 4 "${SMALL[@]}" --fs-path "$DATA" "${FS_SMALL[@]}" \
  --out "$WORK/res" --run-id full --junit "$WORK/full.xml"
rc=$?
check_verdict full "$rc" full
run="$WORK/res/full/run.json"
expect_eq "full: pairs and nine filesystem probe results" "$(jq -c '[(.pairs | length), (.fs.probes | length)]' "$run")" "[6,9]"
expect_eq "full: fs checks per node" "$(jq '[.verdict.checks[] | select(.check == "fs_slow_node")] | length' "$run")" "4"
expect_eq "full: stages present" "$(jq -r '.verdict.checks[] | select(.check == "stages") | .status' "$run")" "PASS"
expect_eq "full: nothing left in the directory" "$(ls -A "$DATA" | wc -l)" "0"

# --- fs: the filesystem alone
podperf_mpirun 4 accept --profile fs --virtual-nodes 4 --fs-path "$DATA" --probes seq-write,seq-read --file-size 8M \
  --out "$WORK/res" --run-id fs --junit "$WORK/fs.xml"
rc=$?
check_verdict fs "$rc" fs
run="$WORK/res/fs/run.json"
expect_eq "fs: no pairs, two probes" "$(jq -c '[(.pairs | length), (.fs.probes | length)]' "$run")" "[0,2]"
expect_eq "fs: no pair checks" "$(jq '[.verdict.checks[] | select(.check == "straggler")] | length' "$run")" "0"

# --- bad usage: exit 2, one line, no results directory
bad() {  # bad NAME REGEX ARGS...
  local name=$1 regex=$2
  shift 2
  podperf_mpirun 2 accept --virtual-nodes 2 "$@" --out "$WORK/res" --run-id "bad-$name"
  expect_eq "$name: exit 2" "$?" "2"
  expect_match "$name: says what is wrong" "$(cat "$WORK/out")" "$regex"
  expect_eq "$name: one error line" "$(grep -c 'podperf: error' "$WORK/out")" "1"
  if [[ -e "$WORK/res/bad-$name" ]]; then fail "$name: results directory left"; else pass "$name: no results directory"; fi
}
bad full-without-fs-path "profile full runs the filesystem stage: give --fs-path DIR" --profile full
bad quick-with-fs-path "profile quick has no filesystem stage" --profile quick --fs-path "$DATA"
bad unknown-profile "unknown profile 'nope'" --profile nope
bad unknown-sku "unknown SKU 'p9'" --sku p9

finish
