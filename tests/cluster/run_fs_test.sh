#!/usr/bin/env bash
# run_fs_test.sh PODPERF_BINARY - `podperf fs` on the 4-host namespace cluster (cluster.sh): four hosts
# writing to one shared directory, once per launcher (srun --mpi=pmix, mpirun), 4 ranks one per host.
#
# Contract checked, per launcher L:
#   L-healthy: every probe ok on 4 nodes, the filesystem seen as shared, reads from another node,
#     run.json valid, nothing left in the directory; exit 0 with no slow node, else exit 1 (this
#     2-core machine is noisy) but never 3.
#   L-slow: h3's processes confined to 5% of a CPU (a cgroup cpu quota: its slurmd for srun, its
#     orted via rsh-agent.sh for mpirun): exit 1 and .fs.slow_nodes names h3 as the slowest by far
#     (another host flagged by the VM's noise is tolerated only mildly: worst ratio 0.5 or more).
#   srun only: h3's signals root is the Lustre OST-imbalance fixture: the OST CONCERN is h3's first
#     likely cause.
# Root needed (namespaces, cgroups): exit 77 (skipped) without it. No CPU cgroup controller: the slow
# cases are skipped with a note.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CLUSTER=$HERE/cluster.sh
LAUNCH_TIMEOUT=${PODPERF_LAUNCH_TIMEOUT:-300}
LAUNCHERS=${PODPERF_LAUNCHERS:-srun mpirun}
pass=0
fail=0

if [ $# -ne 1 ]; then echo "usage: $0 PODPERF_BINARY" >&2; exit 2; fi
if [ "$(id -u)" != 0 ]; then echo "SKIP: the namespaced cluster test needs root"; exit 77; fi
case "$1" in /*) BIN=$1 ;; *) BIN=$PWD/$1 ;; esac
RESULTS=$(mktemp -d /tmp/podperf-fs-cluster.XXXXXX)
DATA=$RESULTS/shared
mkdir -p "$DATA"
CG=""        # the slow cgroup's directory
CG_PROCS=""  # where a pid is written to join it
CG_ROOT_PROCS=""

make_slow_cgroup() {
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then  # cgroup v2
    grep -qw cpu /sys/fs/cgroup/cgroup.controllers || return 1
    grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control || echo +cpu >/sys/fs/cgroup/cgroup.subtree_control || return 1
    CG=/sys/fs/cgroup/podperf-slow
    mkdir -p "$CG" && echo "5000 100000" >"$CG/cpu.max" || return 1
    CG_ROOT_PROCS=/sys/fs/cgroup/cgroup.procs
  elif [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then  # cgroup v1
    CG=/sys/fs/cgroup/cpu/podperf-slow
    mkdir -p "$CG" && echo 100000 >"$CG/cpu.cfs_period_us" && echo 5000 >"$CG/cpu.cfs_quota_us" || return 1
    CG_ROOT_PROCS=/sys/fs/cgroup/cpu/cgroup.procs
  else
    return 1
  fi
  CG_PROCS=$CG/cgroup.procs
}

release_slow_cgroup() {
  [ -n "$CG" ] && [ -d "$CG" ] || return 0
  local p
  for p in $(cat "$CG_PROCS" 2>/dev/null); do echo "$p" >"$CG_ROOT_PROCS" 2>/dev/null || true; done
  rmdir "$CG" 2>/dev/null || true
}

# shellcheck disable=SC2317  # invoked by the trap
cleanup() {
  release_slow_cgroup
  "$CLUSTER" down >/dev/null 2>&1 || "$CLUSTER" down
  if [ "$fail" = 0 ]; then rm -rf "$RESULTS"; else echo "results kept in $RESULTS"; fi
}
trap cleanup EXIT
trap 'exit 130' INT; trap 'exit 143' TERM

summary() { echo "cluster-fs: $pass passed, $fail failed"; [ "$fail" = 0 ]; exit $?; }
command -v jq >/dev/null || { echo "FAIL: jq not installed"; fail=1; summary; }
if ! "$CLUSTER" up; then echo "FAIL: cluster did not come up"; fail=1; summary; fi

errors=()
note() { echo "  ok:     $*"; }
err()  { echo "  not ok: $*"; errors+=("$*"); }
jq_check() {  # jq_check ID DESCRIPTION FILTER (FILTER must produce true on the run's run.json)
  if jq -e "$3" "$RESULTS/$1/run.json" >/dev/null 2>&1; then note "$1: $2"; else err "$1: $2"; fi
}

# Long enough per probe (> the 0.5 s a probe needs to judge nodes) on this machine.
FS_ARGS=(--probes seq-write,seq-read,rand-read,meta,ckpt-save,ckpt-load --file-size 128M --rand-ops 3000
  --meta-files 3000 --ckpt-shard-size 64M)

# run_fs LAUNCHER RUN_ID [EXTRA...] -> exit code; log in $RESULTS/RUN_ID.log
run_fs() {
  local l=$1 id=$2 launch
  shift 2
  case "$l" in
    srun)   launch=(srun --mpi=pmix -N4 -n4 --ntasks-per-node=1) ;;
    mpirun) launch=(mpirun -np 4 --map-by node) ;;
  esac
  echo "  run:    $l $id: $BIN fs --path $DATA ${FS_ARGS[*]} $*"
  timeout -k 10 "$LAUNCH_TIMEOUT" "$CLUSTER" "${launch[@]}" "$BIN" fs --path "$DATA" "${FS_ARGS[@]}" \
    --out "$RESULTS" --run-id "$id" "$@" >"$RESULTS/$id.log" 2>&1 &
  wait $!
}

check_common() {  # check_common ID
  local id=$1
  if /usr/bin/python3 "$HERE/../mpi/check_run.py" "$RESULTS/$id" --nodes 4 >"$RESULTS/$id.check" 2>&1; then
    note "$id: run.json and events.jsonl valid against docs/run.schema.json"
  else
    err "$id: $(tail -n 1 "$RESULTS/$id.check")"
  fi
  jq_check "$id" "4 nodes h1..h4, one rank each" '([.nodes[].hostname] | sort) == ["h1","h2","h3","h4"]'
  jq_check "$id" "one shared directory seen by every host" '.fs.shared == true'
  jq_check "$id" "nine probe results, every one ok" '(.fs.probes | length) == 9 and all(.fs.probes[]; .status == "ok")'
  jq_check "$id" "reads come from another host" \
    'all(.fs.probes[] | select(.probe == "seq-read" or .probe == "rand-read" or .probe == "ckpt-load") | .ranks[]; .source_node != .node)'
  jq_check "$id" "checkpoint verified" '[.fs.probes[] | select(.probe == "ckpt-load") | .ranks[].checksum_mismatches] | add == 0'
  if [ -z "$(ls -A "$DATA")" ]; then note "$id: nothing left in the shared directory"; else err "$id: files left in $DATA"; fi
}

have_cgroup=1
make_slow_cgroup || { have_cgroup=0; echo "  note: no CPU cgroup controller here: the slow-host cases are skipped"; }

for l in $LAUNCHERS; do
  echo "== launcher $l"
  errors=()
  run_fs "$l" "$l-healthy"; rc=$?
  if jq -e '(.fs.slow_nodes | length) == 0' "$RESULTS/$l-healthy/run.json" >/dev/null 2>&1; then want=0; else
    want=1; note "$l-healthy: noise flagged $(jq -r '[.fs.slow_nodes[].label] | join(",")' "$RESULTS/$l-healthy/run.json")"; fi
  if [ "$rc" = "$want" ]; then note "$l-healthy: exit $rc"; else err "$l-healthy: exit $rc, want $want"; tail -20 "$RESULTS/$l-healthy.log"; fi
  check_common "$l-healthy"

  if [ "$have_cgroup" = 1 ]; then
    extra=()
    if [ "$l" = srun ]; then
      # h3's slurmd (and so its job steps) in the slow cgroup; h3's signals from the OST fixture.
      pgrep -f "slurmd -N h3" >"$CG_PROCS"
      sigroot=$RESULTS/sigroot
      mkdir -p "$sigroot/empty"
      ln -sfn "$HERE/../fixtures/signals/ost_imbalance" "$sigroot/h3"
      for h in h1 h2 h4; do ln -sfn "$sigroot/empty" "$sigroot/$h"; done
      extra=(--signals-root "$sigroot/%h")
      run_fs "$l" "$l-slow" "${extra[@]}"; rc=$?
      release_slow_cgroup; make_slow_cgroup
    else
      PODPERF_SLOW_HOST=h3 PODPERF_SLOW_CGROUP_PROCS=$CG_PROCS run_fs "$l" "$l-slow"; rc=$?
    fi
    if [ "$rc" = 1 ]; then note "$l-slow: exit 1"; else err "$l-slow: exit $rc, want 1"; tail -20 "$RESULTS/$l-slow.log"; fi
    check_common "$l-slow"
    # h3 is named and is by far the slowest. Another node may be flagged by this 2-core VM's noise (as
    # in the healthy run, where that is allowed), but only mildly: its worst ratio stays above 0.5.
    jq_check "$l-slow" "h3 is a slow node, the slowest, and any other flagged node only mildly (noise)" \
      '([.fs.slow_nodes[] | select(.label == "h3")] | length) == 1 and
       (.fs.slow_nodes | min_by(.worst_ratio) | .label) == "h3" and
       ([.fs.slow_nodes[] | select(.label != "h3") | .worst_ratio] | all(. >= 0.5))'
    if [ "$(jq '.fs.slow_nodes | length' "$RESULTS/$l-slow/run.json")" != 1 ]; then
      note "$l-slow: noise flagged $(jq -r '[.fs.slow_nodes[] | select(.label != "h3") | "\(.label) (\(.worst_ratio))"] | join(",")' "$RESULTS/$l-slow/run.json") as well"
    fi
    if awk '/^Slow filesystem nodes \([0-9]+\):/ {list = 1; next} list && !/^  / {list = 0} list' "$RESULTS/$l-slow.log" |
      grep -q "^  h3 (node"; then
      note "$l-slow: the terminal summary names h3"
    else
      err "$l-slow: the terminal summary does not name h3"
    fi
    if [ "$l" = srun ]; then
      jq_check "$l-slow" "h3's first likely cause is the Lustre OST imbalance" \
        '.fs.slow_nodes[] | select(.label == "h3") | .likely_causes[0] | startswith("signals.lustre_ost")'
    fi
  fi

  if [ ${#errors[@]} = 0 ]; then echo "PASS: $l: podperf fs healthy/slow(h3)"; pass=$((pass + 1))
  else echo "FAIL: $l: ${#errors[@]} check(s) failed: ${errors[0]}"; fail=$((fail + 1)); fi
done
summary
