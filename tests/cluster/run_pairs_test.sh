#!/usr/bin/env bash
# run_pairs_test.sh PODPERF_BINARY - end-to-end test of `podperf pairs` on the
# 4-host namespace cluster (cluster.sh), once per launcher (srun --mpi=pmix, mpirun).
# Root + Debian 12 packages: slurm-wlm munge openmpi-bin libopenmpi-dev iproute2 jq
#
# Contract checked, per launcher L, 4 ranks one per host h1..h4:
#   podperf pairs -b 4M -e 4M -n 10 -w 2 --out $RESULTS --run-id L-unshaped
#     $RESULTS/L-unshaped/run.json: .stragglers | length == 0, .nodes[].hostname are h1..h4;
#     exit 0 when no pair is flagged; a flagged pair must be a slow link (no straggler) above
#     half of the baseline and confirmed by its retest, and then exit 1. On this 2-core cluster
#     one pair can be reproducibly ~15% slower (seen once in CI: h3-h4 at 85%, retest 85%):
#     podperf reports that as a link, as it should.
#   h3 shaped to 200mbit (tbf, both directions), --run-id L-shaped
#     exit 1; .stragglers == one entry with .hostname == "h3";
#     every .pairs[] entry whose .nodes (two indices into .nodes[]) includes h3's
#     index has .flagged == true, every other pair .flagged == false
#   h3 and h4 shaped, --run-id L-two-slow: exit 1; .stragglers exactly h3 and h4, no link
#   the traffic between leafA (h1,h2) and leafB (h3,h4) shaped (cluster.sh shape-cross),
#     --topology from `scontrol show topology` (the cluster's topology/tree plugin), --run-id
#     L-crossing: exit 1, no straggler or link, one pairs.slow_crossing naming leafA and leafB;
#     `podperf accept --profile quick` on it (L-crossing-accept): drain list empty, no node FAIL
#   srun only: h3 shaped, `podperf accept --profile quick` with the same small sizes, --run-id srun-accept
#     exit 1; .verdict.status FAIL; h3 the only FAIL node; .verdict.drain == ["h3"]; the output has
#     the drain, reboot and replace lines `scontrol update NodeName=h3 State=DRAIN ...`, `... node=h3
#     state=fail reason="Action:Replace"`, with the Slurm node names recorded in run.json
#   srun only, deploy/slurm through `sbatch --wait -N4 --ntasks-per-node=1` with
#   PODPERF_BACKEND=host PODPERF_EFA=0 (the scripts' variables):
#     podperf-pairs.sbatch: exit 0 or 1 (as unshaped above); run.json of h1..h4, launcher slurm, host backend
#     podperf-accept.sbatch: exit 0; verdict PASS or WARN; the JUnit file in the results directory
#     podperf-sweep.sbatch with PODPERF_SWEEP=host-smoke: podperf sweep in the batch script starts one
#       `srun --mpi=pmix -n 4` step per job (4 points x 2 repeats): exit 0; sweep.json launcher srun, 8 jobs ok, each
#       point's run.json on h1..h4 under Slurm with its NCCL_PROTO in the recorded environment, the ranking
# Prints PASS/FAIL per launcher and ends with "cluster: N passed, M failed".
#
# Environment: PODPERF_RESULTS (results dir; default a temp dir, kept on failure),
#   PODPERF_LAUNCH_TIMEOUT (seconds per launch, default 300),
#   PODPERF_LAUNCHERS (default "srun mpirun"), PODPERF_CLUSTER_DIR (see cluster.sh),
#   PODPERF_CLUSTER_CASES (default "pairs deploy": the cases above, and the deploy/slurm ones below),
#   PODPERF_PAIRS_ARGS (extra podperf arguments appended, word-split; e.g.
#   "--threshold 0.5": pair bandwidth on this 2-core namespace cluster varies
#   by tens of percent between unshaped pairs, shaped h3 pairs are at ~5%).
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CLUSTER=$HERE/cluster.sh
LAUNCH_TIMEOUT=${PODPERF_LAUNCH_TIMEOUT:-300}
LAUNCHERS=${PODPERF_LAUNCHERS:-srun mpirun}
CASES=${PODPERF_CLUSTER_CASES:-pairs deploy}
DEPLOY=$HERE/../../deploy/slurm
pass=0
fail=0

if [ $# -ne 1 ]; then echo "usage: $0 PODPERF_BINARY" >&2; exit 2; fi
# Network namespaces, daemons and tc need root: skip (ctest SKIP_RETURN_CODE 77) without it.
if [ "$(id -u)" != 0 ]; then echo "SKIP: the namespaced cluster test needs root"; exit 77; fi
case "$1" in /*) BIN=$1 ;; *) BIN=$PWD/$1 ;; esac

if [ -n "${PODPERF_RESULTS:-}" ]; then
  mkdir -p "$PODPERF_RESULTS"; RESULTS=$(cd "$PODPERF_RESULTS" && pwd); own_results=0
else RESULTS=$(mktemp -d /tmp/podperf-pairs.XXXXXX); own_results=1; fi

# shellcheck disable=SC2317  # invoked by the trap
cleanup() {
  local state=${PODPERF_CLUSTER_DIR:-/tmp/podperf-cluster}
  case "$state" in /*) ;; *) state=$PWD/$state ;; esac
  if [ "$fail" != 0 ] && [ -d "$state/log" ]; then cp -r "$state/log" "$RESULTS/cluster-logs" 2>/dev/null || true; fi
  "$CLUSTER" down >/dev/null 2>&1 || "$CLUSTER" down
  if [ "$own_results" = 1 ]; then
    if [ "$fail" = 0 ]; then rm -rf "$RESULTS"; else echo "results kept in $RESULTS"; fi
  fi
}
trap cleanup EXIT
trap 'exit 130' INT; trap 'exit 143' TERM

summary() { echo "cluster: $pass passed, $fail failed"; [ "$fail" = 0 ]; exit $?; }

if [ ! -x "$BIN" ]; then
  for l in $LAUNCHERS; do echo "FAIL: $l: podperf binary '$BIN' not found or not executable"; fail=$((fail + 1)); done
  summary
fi
command -v jq >/dev/null || { echo "FAIL: jq not installed"; fail=1; summary; }

if ! "$CLUSTER" up; then
  for l in $LAUNCHERS; do echo "FAIL: $l: cluster did not come up"; fail=$((fail + 1)); done
  summary
fi

# ------------------------------------------------------------------ helpers
errors=()
note() { echo "  ok:     $*"; }
err()  { echo "  not ok: $*"; errors+=("$*"); }

# run_podperf LAUNCHER RUN_ID -> exit code of the launch; log in $RESULTS/RUN_ID.log
# PODPERF_SUBCMD (default "pairs", word-split) is the podperf command and its own options.
run_podperf() {
  local l=$1 id=$2 launch sub
  # shellcheck disable=SC2206  # word splitting wanted
  sub=(${PODPERF_SUBCMD:-pairs})
  case "$l" in
    srun)   launch=(srun --mpi=pmix -N4 -n4 --ntasks-per-node=1) ;;
    mpirun) launch=(mpirun -np 4 --map-by node) ;;
    *) echo "unknown launcher $l" >&2; return 99 ;;
  esac
  local extra=()
  # shellcheck disable=SC2206  # word splitting wanted
  [ -z "${PODPERF_PAIRS_ARGS:-}" ] || extra=($PODPERF_PAIRS_ARGS)
  echo "  run:    $l $id: ${launch[*]} $BIN ${sub[*]} -b 4M -e 4M -n 10 -w 2 --out $RESULTS --run-id $id ${extra[*]}"
  # in the background + wait, so that INT/TERM reach the trap at once
  timeout -k 10 "$LAUNCH_TIMEOUT" "$CLUSTER" "${launch[@]}" \
    "$BIN" "${sub[@]}" -b 4M -e 4M -n 10 -w 2 --out "$RESULTS" --run-id "$id" "${extra[@]}" \
    >"$RESULTS/$id.log" 2>&1 &
  wait $!
  local rc=$?
  # Open MPI on this 2-core namespace cluster now and then crashes a rank while wiring up TCP,
  # before podperf measures anything (no events.jsonl yet): an infrastructure flake, retried once
  # under a new run id. A crash after measuring started is podperf's and is not retried.
  if { [ $rc = 139 ] || [ $rc = 134 ]; } && [ ! -s "$RESULTS/$id/events.jsonl" ]; then
    echo "  note:   $id: a rank crashed during MPI start-up (rc $rc); retrying once" | tee -a "$RESULTS/$id.log"
    rm -rf "${RESULTS:?}/$id"
    timeout -k 10 "$LAUNCH_TIMEOUT" "$CLUSTER" "${launch[@]}" \
      "$BIN" "${sub[@]}" -b 4M -e 4M -n 10 -w 2 --out "$RESULTS" --run-id "$id" "${extra[@]}" \
      >>"$RESULTS/$id.log" 2>&1 &
    wait $!
    rc=$?
  fi
  return $rc
}

# check_exit ID GOT WANT
check_exit() {
  local id=$1 got=$2 want=$3
  if [ "$got" = "$want" ]; then note "$id: exit code $got"
  elif [ "$got" = 124 ] || [ "$got" = 137 ]; then err "$id: timed out after ${LAUNCH_TIMEOUT}s (want exit $want)"
  else err "$id: exit code $got, want $want"; fi
  if [ "$got" != "$want" ]; then sed 's/^/      | /' "$RESULTS/$id.log" | tail -n 25; fi
}

# jq_check ID FILE DESCRIPTION FILTER  (FILTER must produce true)
jq_check() {
  local id=$1 f=$2 what=$3 filter=$4
  if jq -e "$filter" "$f" >/dev/null 2>&1; then note "$id: $what"; else err "$id: $what"; fi
}

check_json() {
  local id=$1 shaped=$2 f=$RESULTS/$1/run.json
  if [ ! -s "$f" ]; then err "$id: $f missing"; return; fi
  if ! jq -e . "$f" >/dev/null 2>&1; then err "$id: $f is not valid JSON"; return; fi
  jq_check "$id" "$f" "4 nodes, hostnames h1..h4" \
    '(.nodes | length) == 4 and ([.nodes[].hostname] | sort) == ["h1","h2","h3","h4"]'
  jq_check "$id" "$f" ".pairs non-empty, each with two node indices" \
    '(.pairs | length) > 0 and all(.pairs[]; (.nodes | length) == 2 and all(.nodes[]; type == "number"))'
  if /usr/bin/python3 "$HERE/../mpi/check_run.py" "$RESULTS/$id" --nodes 4 --complete >"$RESULTS/$id.check" 2>&1; then
    note "$id: run.json and events.jsonl valid against docs/run.schema.json, every pair once, wrong 0"
  else
    err "$id: $(tail -n 1 "$RESULTS/$id.check")"
  fi
  if [ "$shaped" = 0 ]; then
    jq_check "$id" "$f" ".stragglers is empty" '(.stragglers | length) == 0'
    jq_check "$id" "$f" "any flagged pair is a retest-confirmed slow link above half of the baseline" \
      'all(.pairs[]; .flagged == false or (.ratio > 0.5 and (.retest_samples_s | length) > 0))
       and (.links | length) == ([.pairs[] | select(.flagged)] | length)'
  else
    jq_check "$id" "$f" ".stragglers is exactly [h3]" \
      '(.stragglers | length) == 1 and .stragglers[0].hostname == "h3"'
    if grep -A1 "^Straggler nodes (1)" "$RESULTS/$id.log" | grep -q "^  h3 "; then
      note "$id: the terminal summary names h3 as the straggler"
    else
      err "$id: the terminal summary does not name h3 as the straggler"
    fi
    # shellcheck disable=SC2016  # jq variables
    jq_check "$id" "$f" "pairs with h3 flagged, all others not" \
      '([.nodes[].hostname] | index("h3")) as $h3
       | $h3 != null
       and any(.pairs[]; any(.nodes[]; . == $h3))
       and all(.pairs[]; .flagged == any(.nodes[]; . == $h3))'
    if ! jq -e '([.nodes[].hostname] | index("h3")) as $h3 | all(.pairs[]; .flagged == any(.nodes[]; . == $h3))' "$f" >/dev/null 2>&1; then
      jq -r '. as $r | .pairs[] | "      | pair \([.nodes[] | $r.nodes[.].hostname] | join("-")) flagged=\(.flagged)"' "$f" 2>/dev/null || true
    fi
  fi
}

# run_sbatch ID SCRIPT [VAR=VALUE...] -> exit code of `sbatch --wait`; the job's output in $RESULTS/ID.log
run_sbatch() {
  local id=$1 script=$2
  shift 2
  echo "  run:    sbatch $id: $* $(basename "$script")"
  env "$@" PODPERF="$BIN" PODPERF_RESULTS="$RESULTS/deploy" PODPERF_BACKEND=host PODPERF_EFA=0 \
    timeout -k 10 "$LAUNCH_TIMEOUT" "$CLUSTER" sbatch --wait -N4 --ntasks-per-node=1 \
    --output="$RESULTS/$id.log" "$script" >"$RESULTS/$id.sbatch" 2>&1 &
  wait $!
}

# the job id `sbatch` printed for ID
job_of() { sed -n 's/^Submitted batch job \([0-9]*\).*/\1/p' "$RESULTS/$1.sbatch" | head -n 1; }

deploy_cases() {
  local rc id job f sizes="-b 4M -e 4M -n 10 -w 2 ${PODPERF_PAIRS_ARGS:-}" t0=$SECONDS
  id=deploy-pairs
  run_sbatch $id "$DEPLOY/podperf-pairs.sbatch" PODPERF_ARGS="$sizes"; rc=$?
  job=$(job_of $id)
  f=$RESULTS/deploy/pairs-$job/run.json
  if [ "$rc" = 0 ] || { [ "$rc" = 1 ] && jq -e 'any(.pairs[]; .flagged) and (.stragglers | length) == 0' "$f" >/dev/null 2>&1; }; then
    note "$id: sbatch --wait exit $rc"
  else
    err "$id: sbatch --wait exit $rc (job '$job')"; tail -n 20 "$RESULTS/$id.sbatch" "$RESULTS/$id.log" 2>/dev/null | sed 's/^/      | /'
  fi
  jq_check $id "$f" "run.json of h1..h4, launched by Slurm, host backend" \
    '([.nodes[].hostname] | sort) == ["h1","h2","h3","h4"] and .launcher.kind == "slurm" and .backend == "host"'

  id=deploy-accept
  run_sbatch $id "$DEPLOY/podperf-accept.sbatch" PODPERF_ARGS="$sizes"; rc=$?
  job=$(job_of $id)
  check_exit $id "$rc" 0
  jq_check $id "$RESULTS/deploy/accept-$job/run.json" "verdict PASS or WARN, profile quick, 4 nodes" \
    '(.verdict.status == "PASS" or .verdict.status == "WARN") and .verdict.profile == "quick" and (.nodes | length) == 4'
  if [ -s "$RESULTS/deploy/accept-$job.junit.xml" ]; then note "$id: JUnit written"; else err "$id: no JUnit file"; fi

  id=deploy-sweep
  run_sbatch $id "$DEPLOY/podperf-sweep.sbatch" PODPERF_SWEEP=host-smoke; rc=$?
  job=$(job_of $id)
  check_exit $id "$rc" 0
  f=$RESULTS/deploy/sweep-$job/sweep.json
  # host-smoke: 4 points x 2 repeats = 8 jobs, each point's jobs ranked as runs.
  jq_check $id "$f" "sweep.json: srun --mpi=pmix -n 4 detected from the allocation, 8 jobs (4 points x 2) ok, a ranking per size" \
    '.launcher.kind == "srun" and (.launcher.why | startswith("inside Slurm job"))
     and .launcher.prefix == ["srun","--mpi=pmix","-n","4"] and .repeats == 2
     and (.points | length) == 8 and all(.points[]; .status == "ok") and (.ranking | length) == 3
     and all(.ranking[]; .method == "runs" or .method == "only_point")'
  local p ok=0
  for p in $(jq -r '.points[].run_dir' "$f" 2>/dev/null); do
    # shellcheck disable=SC2016  # jq variables
    jq -e --arg d "$p" '([.nodes[].hostname] | sort) == ["h1","h2","h3","h4"] and .launcher.kind == "slurm"
        and (.run_id == ($d | split("/") | last))
        and any(.findings[]; .check == "signals.environment" and (.observed | test("NCCL_PROTO=(LL|Simple)")))' \
      "$p/run.json" >/dev/null 2>&1 && ok=$((ok + 1))
  done
  if [ "$ok" = 8 ]; then note "$id: every job's run.json: h1..h4 under Slurm, its NCCL_PROTO recorded"
  else err "$id: only $ok of 8 jobs have a run.json on h1..h4 with NCCL_PROTO"; fi
  if grep -q '^Best setting per message size:' "$RESULTS/$id.log"; then note "$id: the ranking in the job output"
  else err "$id: no ranking in the job output"; fi
  echo "  time:   deploy cases: $((SECONDS - t0)) s"
}

# ------------------------------------------------------------------ tests
for l in $LAUNCHERS; do
  echo "== launcher $l"
  errors=()
  "$CLUSTER" unshape h3 >/dev/null 2>&1 || true
  if [[ " $CASES " == *" pairs "* ]]; then

  run_podperf "$l" "$l-unshaped"; rc=$?
  want=0
  if jq -e 'any(.pairs[]; .flagged)' "$RESULTS/$l-unshaped/run.json" >/dev/null 2>&1; then
    want=1
    note "$l-unshaped: a slow link was reported: $(jq -r '.links[0].evidence' "$RESULTS/$l-unshaped/run.json")"
  fi
  check_exit "$l-unshaped" "$rc" "$want"
  check_json "$l-unshaped" 0

  if "$CLUSTER" shape h3 200mbit; then
    run_podperf "$l" "$l-shaped"; rc=$?
    check_exit "$l-shaped" "$rc" 1
    check_json "$l-shaped" 1
  else
    err "$l: could not shape h3"
  fi
  "$CLUSTER" unshape h3 || err "$l: could not unshape h3"

  # Two slow hosts of four (issue 20): h3 and h4 shaped, 4 of the 6 pairs slow (a slow majority, the
  # one fast pair h1-h2): both named, nobody else, no link.
  if "$CLUSTER" shape h3 200mbit && "$CLUSTER" shape h4 200mbit; then
    run_podperf "$l" "$l-two-slow"; rc=$?
    check_exit "$l-two-slow" "$rc" 1
    jq_check "$l-two-slow" "$RESULTS/$l-two-slow/run.json" ".stragglers are exactly h3 and h4, no link" \
      '([.stragglers[].hostname] | sort) == ["h3","h4"] and (.links | length) == 0'
  else
    err "$l: could not shape h3 and h4"
  fi
  "$CLUSTER" unshape h3 || err "$l: could not unshape h3"
  "$CLUSTER" unshape h4 || err "$l: could not unshape h4"

  # A slow crossing between the leaf switches, under both launchers (issue 20): Slurm's
  # topology/tree plugin (leafA h1,h2; leafB h3,h4; spine), read back with `scontrol show topology`;
  # only the traffic between the leaves shaped. Reported as that crossing, named as Slurm names the
  # switches; no straggler, no link; `podperf accept` drains nobody for it.
  topo=$RESULTS/scontrol-topology.txt
  if "$CLUSTER" scontrol show topology >"$topo" 2>&1 && grep -q "SwitchName=leafA" "$topo"; then
    note "scontrol show topology: $(tr '\n' ';' <"$topo")"
  else
    err "scontrol show topology did not list leafA: $(head -c 300 "$topo")"
  fi
  if "$CLUSTER" shape-cross 200mbit; then
    PODPERF_PAIRS_ARGS="${PODPERF_PAIRS_ARGS:-} --topology $topo" run_podperf "$l" "$l-crossing"; rc=$?
    check_exit "$l-crossing" "$rc" 1
    f=$RESULTS/$l-crossing/run.json
    jq_check "$l-crossing" "$f" "no straggler, no link" '(.stragglers | length) == 0 and (.links | length) == 0'
    jq_check "$l-crossing" "$f" "one pairs.slow_crossing between leafA and leafB" \
      '[.findings[] | select(.check == "pairs.slow_crossing")] | length == 1 and
       (.[0].observed | test("leafA") and test("leafB"))'
    PODPERF_SUBCMD="accept --profile quick" PODPERF_PAIRS_ARGS="${PODPERF_PAIRS_ARGS:-} --topology $topo" \
      run_podperf "$l" "$l-crossing-accept"; rc=$?
    f=$RESULTS/$l-crossing-accept/run.json
    jq_check "$l-crossing-accept" "$f" "accept drains nobody, no node FAILs" \
      '.verdict.drain == [] and ([.verdict.nodes[] | select(.status == "FAIL")] | length) == 0'
    if grep -q "^  scontrol update NodeName=" "$RESULTS/$l-crossing-accept.log"; then
      err "$l-crossing-accept: drain lines printed for a fabric problem"
    else
      note "$l-crossing-accept: no drain line"
    fi
  else
    err "$l: could not shape the crossing"
  fi
  for h in h1 h2 h3 h4; do "$CLUSTER" unshape "$h" || err "$l: could not unshape $h"; done

  # Host signals correlated with the straggler (srun only, to keep the test short): h3 is shaped and
  # its signals root is a fixture tree with the CPU governor at powersave; the other hosts read an
  # empty tree. The summary must name h3 and rank the governor as its likely cause.
  if [ "$l" = srun ]; then
    sigroot=$RESULTS/sigroot
    mkdir -p "$sigroot/empty"
    ln -sfn "$HERE/../fixtures/signals/governor_powersave" "$sigroot/h3"
    for h in h1 h2 h4; do ln -sfn "$sigroot/empty" "$sigroot/$h"; done
    if "$CLUSTER" shape h3 200mbit; then
      PODPERF_PAIRS_ARGS="${PODPERF_PAIRS_ARGS:-} --signals-root $sigroot/%h" run_podperf "$l" "$l-signals"; rc=$?
      check_exit "$l-signals" "$rc" 1
      f=$RESULTS/$l-signals/run.json
      jq_check "$l-signals" "$f" ".stragglers is exactly [h3]" '(.stragglers | length) == 1 and .stragglers[0].hostname == "h3"'
      jq_check "$l-signals" "$f" "h3's first likely cause is the CPU governor" \
        '.stragglers[0].likely_causes[0] | startswith("signals.cpu_governor")'
      jq_check "$l-signals" "$f" "the governor CONCERN is on h3 only" \
        '[.findings[] | select(.tag == "CONCERN" and .check == "signals.cpu_governor") | .host] == ["h3"]'
      if grep "^  h3 " "$RESULTS/$l-signals.log" | grep -q "likely cause: signals.cpu_governor"; then
        note "$l-signals: the summary gives h3's governor as its likely cause"
      else
        err "$l-signals: the summary does not rank the governor as h3's likely cause"
      fi
    else
      err "$l: could not shape h3"
    fi
    "$CLUSTER" unshape h3 || err "$l: could not unshape h3"

    # Acceptance (srun only): h3 shaped, the quick profile with the same small sizes: h3 FAILs and is
    # the one host in the drain list; the drain commands are printed.
    if "$CLUSTER" shape h3 200mbit; then
      PODPERF_SUBCMD="accept --profile quick" run_podperf "$l" "$l-accept"; rc=$?
      check_exit "$l-accept" "$rc" 1
      f=$RESULTS/$l-accept/run.json
      jq_check "$l-accept" "$f" "verdict FAIL, profile quick" '.verdict.status == "FAIL" and .verdict.profile == "quick"'
      jq_check "$l-accept" "$f" "h3 is the only FAIL node" \
        '[.verdict.nodes[] | select(.status == "FAIL") | .hostname] == ["h3"]'
      jq_check "$l-accept" "$f" "drain list is [h3]" '.verdict.drain == ["h3"]'
      # srun sets SLURMD_NODENAME in every task: the run records Slurm's node names and the lines use them.
      jq_check "$l-accept" "$f" "Slurm node names recorded" '[.nodes[].slurm_node_name] == ["h1", "h2", "h3", "h4"]'
      if grep -q '^  scontrol update NodeName=h3 State=DRAIN Reason="podperf accept: .*straggler' "$RESULTS/$l-accept.log" &&
         grep -q '^  scontrol update node=h3 state=fail reason="Action:Replace"$' "$RESULTS/$l-accept.log" &&
         grep -q "^  # Slurm, with Slurm's node names" "$RESULTS/$l-accept.log"; then
        note "$l-accept: the drain, reboot and replace lines name h3 by its Slurm node name"
      else
        err "$l-accept: no drain lines naming h3"
      fi
      if [ -s "$RESULTS/$l-accept/junit.xml" ]; then note "$l-accept: junit.xml written"; else err "$l-accept: no junit.xml"; fi
    else
      err "$l: could not shape h3"
    fi
    "$CLUSTER" unshape h3 || err "$l: could not unshape h3"
  fi
  fi  # pairs cases

  # The deploy/slurm recipes through `sbatch --wait` (srun only: they are Slurm's), host backend, and
  # podperf sweep inside the allocation, one srun job step per point.
  if [ "$l" = srun ] && [[ " $CASES " == *" deploy "* ]]; then
    deploy_cases
  fi

  done_cases=""
  [[ " $CASES " != *" pairs "* ]] || done_cases="podperf pairs unshaped/shaped(h3)/two slow(h3,h4)$([ "$l" = srun ] && echo ", slow crossing with scontrol topology, accept")"
  [[ " $CASES " != *" deploy "* ]] || [ "$l" != srun ] || done_cases+="; deploy/slurm with sbatch: pairs, accept, sweep"
  if [ ${#errors[@]} = 0 ]; then echo "PASS: $l: ${done_cases#; }"; pass=$((pass + 1))
  else echo "FAIL: $l: ${#errors[@]} check(s) failed: ${errors[0]}"; fail=$((fail + 1)); fi
done

summary
