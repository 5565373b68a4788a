#!/usr/bin/env bash
# selftest.sh - checks the namespace cluster itself (cluster.sh), no podperf needed.
# Root + Debian 12 packages: slurm-wlm munge openmpi-bin libopenmpi-dev iproute2 jq
#
#  * srun --mpi=pmix and mpirun: 4 ranks -> hostnames h1..h4, MPI_COMM_TYPE_SHARED size 1;
#    mpirun with 8 ranks (2 per host) -> each host twice, shared size 2
#  * 4 MiB ping-pong between every rank pair: unshaped all fast; with h3 shaped
#    (tbf 200mbit) the pairs with h3 are slow and the others stay fast.
# Prints PASS/FAIL lines and ends with "selftest: N passed, M failed".
# The cluster is always taken down on exit.
set -uo pipefail
# Network namespaces, daemons and tc need root: skip (ctest SKIP_RETURN_CODE 77) without it.
if [ "$(id -u)" != 0 ]; then echo "SKIP: the namespaced cluster selftest needs root"; exit 77; fi

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CLUSTER=$HERE/cluster.sh
STATE=${PODPERF_CLUSTER_DIR:-/tmp/podperf-cluster}
case "$STATE" in /*) ;; *) STATE=$PWD/$STATE ;; esac
LAUNCH_TIMEOUT=${PODPERF_LAUNCH_TIMEOUT:-120}
PP_BYTES=$((4 * 1024 * 1024))
PP_ITERS=${PODPERF_PP_ITERS:-3}
pass=0
fail=0
OUT=$(mktemp -d /tmp/podperf-selftest.XXXXXX)

# shellcheck disable=SC2317  # invoked by the trap
cleanup() {
  if [ "$fail" != 0 ] && [ -d "$STATE/log" ]; then cp -r "$STATE/log" "$OUT/cluster-logs" 2>/dev/null || true; fi
  "$CLUSTER" down >/dev/null 2>&1 || "$CLUSTER" down
  if [ "$fail" = 0 ]; then rm -rf "$OUT"; else echo "selftest: outputs and cluster logs kept in $OUT"; fi
}
trap cleanup EXIT
trap 'exit 130' INT; trap 'exit 143' TERM

ok()  { echo "PASS: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
finish() {
  echo "selftest: $pass passed, $fail failed"
  [ "$fail" = 0 ]
  exit $?
}

# run a launch with a hard timeout; output in $OUT/$1.out
launch() {
  local name=$1; shift
  # in the background + wait, so that INT/TERM reach the trap at once
  timeout -k 10 "$LAUNCH_TIMEOUT" "$CLUSTER" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err" &
  wait $!
  local rc=$?
  # Open MPI on this 2-core namespace cluster now and then crashes a rank while wiring up TCP
  # (SIGSEGV after "connect() ... Operation now in progress"): an infrastructure flake, retried once.
  if [ $rc = 139 ] || [ $rc = 134 ]; then
    echo "--- $name: rc=$rc (a rank crashed during start-up); retrying once"
    timeout -k 10 "$LAUNCH_TIMEOUT" "$CLUSTER" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err" &
    wait $!
    rc=$?
  fi
  if [ $rc != 0 ]; then
    echo "--- $name: rc=$rc; stderr:"; tail -n 20 "$OUT/$name.err"; echo "--- stdout:"; tail -n 20 "$OUT/$name.out"
  fi
  return $rc
}

# check_hello NAME NRANKS PER_HOST: HELLO lines cover h1..h4, PER_HOST ranks each,
# and every rank's shared-communicator size is PER_HOST
check_hello() {
  local name=$1 n=$2 per=$3 f=$OUT/$1.out got
  got=$(awk '/^HELLO /{
          for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
          print v["host"], v["shared"], v["size"] }' "$f" | sort | uniq -c | awk '{print $2":"$1":"$3":"$4}' | tr '\n' ' ')
  local want="" h
  for h in h1 h2 h3 h4; do want+="$h:$per:$per:$n "; done
  if [ "$got" = "$want" ]; then ok "$name: $n ranks, hosts h1..h4 x$per, shared size $per"
  else bad "$name: want [$want] got [$got]"; sed 's/^/    /' "$f"; fi
}

# pair_stats NAME -> prints "min_h3 max_h3 min_other max_other" (MB/s)
pair_stats() {
  awk '/^PAIR /{ split($6, kv, "="); bw = kv[2] + 0
         if ($4 == "h3" || $5 == "h3") { if (!n3++ || bw < mn3) mn3 = bw; if (bw > mx3) mx3 = bw }
         else { if (!no++ || bw < mno) mno = bw; if (bw > mxo) mxo = bw } }
       END { printf "%.1f %.1f %.1f %.1f %d\n", mn3, mx3, mno, mxo, n3 + no }' "$OUT/$1.out"
}
show_pairs() { grep '^PAIR ' "$OUT/$1.out" | awk -v t="$1" '{print "    " t ": " $4 "-" $5 " " $6}'; }

# ------------------------------------------------------------------ cluster up
t0=$SECONDS
if "$CLUSTER" up; then ok "cluster up in $((SECONDS - t0))s"; else bad "cluster up"; finish; fi
if "$CLUSTER" up 2>&1 | grep -q 'already up'; then ok "up is idempotent"; else bad "second up did not see the running cluster"; fi

mkdir -p "$STATE/bin"
if mpicc -O2 -o "$STATE/bin/mpi_hello" "$HERE/mpi_hello.c"; then ok "mpicc mpi_hello"; else bad "mpicc mpi_hello"; finish; fi
HELLO=$STATE/bin/mpi_hello

# ------------------------------------------------------------------ placement
run_hello() { # NAME NRANKS PER_HOST LAUNCH...
  local name=$1 n=$2 per=$3; shift 3
  if launch "$name" "$@" "$HELLO"; then check_hello "$name" "$n" "$per"
  else bad "$name: '$*' failed"; fi
}
run_hello srun4 4 1 srun --mpi=pmix -N4 -n4
# Not run: srun with 2 ranks per host. In these namespaces a rank of Open MPI 4.1.4 under srun's PMIx
# often crashes in MPI_Init (SIGSEGV after "connect() to <own address> failed: Operation now in
# progress"), twice in a row in CI; podperf's cluster tests use one rank per host under srun, and
# 2 ranks per host are covered by mpirun8 below.
run_hello mpirun4 4 1 mpirun -np 4 --map-by node
run_hello mpirun8 8 2 mpirun -np 8 --map-by node

# ------------------------------------------------------------------ bandwidth
# unshaped: every pair well above the 200mbit (25 MB/s) shaping rate
if launch pp-unshaped srun --mpi=pmix -N4 -n4 "$HELLO" --pingpong "$PP_BYTES" "$PP_ITERS"; then
  show_pairs pp-unshaped
  read -r mn3 mx3 mno _ np <<<"$(pair_stats pp-unshaped)"
  if [ "$np" = 6 ] && awk -v a="$mn3" -v b="$mno" 'BEGIN{exit !(a > 60 && b > 60)}'; then
    ok "unshaped: all 6 pairs > 60 MB/s (h3 pairs min $mn3, others min $mno)"
  else bad "unshaped: expected 6 pairs > 60 MB/s (n=$np h3 min $mn3, others min $mno)"; fi
else bad "unshaped ping-pong run failed"; fi

if "$CLUSTER" shape h3 200mbit; then ok "shape h3 200mbit"; else bad "shape h3"; fi
for l in srun mpirun; do
  if [ $l = srun ]; then args=(srun --mpi=pmix -N4 -n4); else args=(mpirun -np 4 --map-by node); fi
  if launch "pp-shaped-$l" "${args[@]}" "$HELLO" --pingpong "$PP_BYTES" "$PP_ITERS"; then
    show_pairs "pp-shaped-$l"
    read -r mn3 mx3 mno _ np <<<"$(pair_stats "pp-shaped-$l")"
    # tbf 200mbit = 25 MB/s; h3 pairs must be near that, the other pairs far above
    if [ "$np" = 6 ] && awk -v mx3="$mx3" -v mno="$mno" 'BEGIN{exit !(mx3 < 40 && mno > 4 * mx3)}'; then
      ok "$l shaped h3: h3 pairs <= $mx3 MB/s, other pairs >= $mno MB/s"
    else bad "$l shaped h3: want h3 pairs < 40 MB/s and others > 4x (n=$np h3 max $mx3, others min $mno)"; fi
  else bad "$l shaped ping-pong run failed"; fi
done
if "$CLUSTER" unshape h3 && ! "$CLUSTER" status 2>/dev/null | grep -q '^shaping'; then ok "unshape h3"; else bad "unshape h3"; fi

# ------------------------------------------------------------------ down
if "$CLUSTER" down && [ ! -e /var/run/netns/h1 ] && [ ! -e "$STATE" ]; then ok "cluster down (netns and state gone)"
else bad "cluster down left something behind"; fi
echo "selftest: total time $((SECONDS - t0))s"
finish
