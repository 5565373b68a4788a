#!/usr/bin/env bash
# cluster.sh - a 4-host Slurm + Open MPI "cluster" on ONE machine, built from
# network namespaces, for podperf's multi-node tests.
#
# Needs root and (Debian 12):
#   apt-get install slurm-wlm munge openmpi-bin libopenmpi-dev iproute2 jq
# (slurm-wlm brings slurmctld, slurmd, slurm-client and the mpi_pmix plugin;
#  libopenmpi-dev brings mpicc for the self-test.)
#
# Layout (all private, nothing routes outside):
#   netns ppbr : bridge br0 joining the veth ends vh0..vh4
#   netns h0   : 10.77.0.10/24  slurmctld; srun is started here (mpirun on h1)
#   netns h1-4 : 10.77.0.11-14  slurmd -N hX; UTS namespace with hostname hX
#   Slurm topology/tree: leaf switches leafA (h1,h2) and leafB (h3,h4) under switch spine
#   ($STATE/etc/topology.conf; `cluster.sh scontrol show topology` prints Slurm's own view)
#   No default route anywhere; loopback up in each namespace.
#   munged runs in the root netns on a private socket under $STATE/munge
#   (a pathname unix socket, reachable from every netns); system munge untouched.
#
# State lives in $PODPERF_CLUSTER_DIR (default /tmp/podperf-cluster). Only one
# cluster per machine (the netns names and addresses are fixed).
#
# Usage:
#   cluster.sh up                 start everything (idempotent); waits for 4 idle nodes
#   cluster.sh down               stop everything, delete netns/tc/state (idempotent)
#   cluster.sh status             what is running
#   cluster.sh srun ARGS...       srun from h0 (SLURM_CONF set, Open MPI env for the subnet)
#   cluster.sh sbatch ARGS...     sbatch from h0 (same environment as srun; the batch script runs on
#                                 the allocation's first node), e.g. sbatch --wait -N4 script
#   cluster.sh mpirun ARGS...     mpirun (from h1) via rsh-agent.sh, hostfile h1..h4 slots=4
#                                 e.g. cluster.sh mpirun -np 4 --map-by node prog
#   cluster.sh shape hX [RATE]    tbf on both ends of hX's veth (default 200mbit)
#   cluster.sh unshape hX         remove it
#   cluster.sh shape-cross [RATE] htb on the traffic between the leaf switches only (h1,h2 <-> h3,h4),
#                                 each host's egress to the other leaf's hosts; unshape hX removes it
#   cluster.sh scontrol ARGS...   scontrol from h0, e.g. scontrol show topology
#   cluster.sh exec hX CMD...     run CMD in hX's netns with hostname hX (debug aid)
#   cluster.sh env                print the launcher environment (sourceable)
#
# Environment:
#   PODPERF_CLUSTER_DIR   state directory (default /tmp/podperf-cluster)
#   PODPERF_UP_TIMEOUT    seconds `up` waits for the nodes to be idle (default 60)
#   PODPERF_MPIRUN_HOST   namespace mpirun runs in (default h1; see do_mpirun)
#   PODPERF_EXPORT        extra variable names mpirun should forward (-x); PODPERF_* always are
#   Any OMPI_MCA_*/PMIX_MCA_* already set by the caller win over the defaults below.
#   srun passes the caller's whole environment to the tasks (--export=ALL);
#   mpirun passes OMPI_* itself, anything else needs `-x VAR`.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
STATE=${PODPERF_CLUSTER_DIR:-/tmp/podperf-cluster}
case "$STATE" in /*) ;; *) STATE="$PWD/$STATE" ;; esac
STATE=${STATE%/}
UP_TIMEOUT=${PODPERF_UP_TIMEOUT:-60}

BRNS=ppbr
CTL=h0
HOSTS=(h1 h2 h3 h4)
ALL=(h0 h1 h2 h3 h4)
SUBNET=10.77.0.0/24
NETNS_DIR=/var/run/netns
MARKER=.podperf-cluster
LOCK=/run/podperf-cluster.lock
CONF=$STATE/etc/slurm.conf
MUNGE_SOCK=$STATE/munge/munge.socket.2
DEFAULT_RATE=200mbit
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:$PATH

log()  { echo "cluster: $*" >&2; }
die()  { echo "cluster: ERROR: $*" >&2; exit 1; }

ip_of() { # h0 -> 10.77.0.10, h3 -> 10.77.0.13
  case "$1" in h[0-4]) echo "10.77.0.1${1#h}" ;; *) die "unknown host '$1' (h0..h4)" ;; esac
}
check_host() { case "$1" in h[1-4]) ;; *) die "unknown compute host '$1' (h1..h4)" ;; esac; }

need_root() { [ "$(id -u)" = 0 ] || die "must run as root"; }
need_tools() {
  local t missing=()
  for t in ip tc nsenter unshare munged slurmctld slurmd srun sinfo scontrol mpirun timeout flock; do
    command -v "$t" >/dev/null 2>&1 || missing+=("$t")
  done
  [ ${#missing[@]} = 0 ] || die "missing tools: ${missing[*]} (apt-get install slurm-wlm munge openmpi-bin libopenmpi-dev iproute2 jq)"
}

# Run a command inside hX's network namespace with a private UTS namespace whose
# hostname is hX.  (nsenter+unshare rather than `ip netns exec`, which remounts
# /sys and breaks slurmd.)
in_host() {
  local h=$1; shift
  [ -e "$NETNS_DIR/$h" ] || die "netns $h does not exist (is the cluster up?)"
  # shellcheck disable=SC2016  # expanded by the inner sh
  nsenter --net="$NETNS_DIR/$h" unshare --uts sh -c 'hostname "$0"; exec "$@"' "$h" "$@"
}

# ---------------------------------------------------------------- launcher env
launch_env() {
  export SLURM_CONF=$CONF
  # tree PMIx fence (see mpi.conf in write_conf); the env var wins over mpi.conf
  export SLURM_PMIX_FENCE=${SLURM_PMIX_FENCE:-tree}
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export OMPI_MCA_btl_tcp_if_include=${OMPI_MCA_btl_tcp_if_include:-$SUBNET}
  export OMPI_MCA_oob_tcp_if_include=${OMPI_MCA_oob_tcp_if_include:-$SUBNET}
  export OMPI_MCA_btl=${OMPI_MCA_btl:-self,vader,tcp}
  export OMPI_MCA_pml=${OMPI_MCA_pml:-ob1}
  export OMPI_MCA_mpi_yield_when_idle=${OMPI_MCA_mpi_yield_when_idle:-1}
  # no verbs/ucx/ofi probing in the namespaces
  export OMPI_MCA_osc=${OMPI_MCA_osc:-^ucx}
  export OMPI_MCA_mtl=${OMPI_MCA_mtl:-^ofi,psm,psm2}
  export PMIX_MCA_gds=${PMIX_MCA_gds:-hash}
  export PMIX_MCA_psec=${PMIX_MCA_psec:-native}
}

# ---------------------------------------------------------------- pid helpers
# alive = exists and is not a zombie (a reaper that is slow to wait() must not
# make `down` think a daemon is still running)
pid_alive() {
  local st
  [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null || return 1
  st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) || return 1
  [ "${st%% *}" != Z ]
}
pid_from() { if [ -s "$1" ]; then tr -dc '0-9' <"$1"; fi; }
# TERM the pids (from pid files) whose command line contains MATCH (protects
# against pid reuse), all at once; KILL whatever is left after ~3 s.
# args: MATCH PID [MATCH PID ...]
kill_pids_if() {
  local sent=() pid match left
  while [ $# -ge 2 ]; do
    match=$1 pid=$2; shift 2
    pid_alive "$pid" || continue
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$match" || continue
    kill -TERM "$pid" 2>/dev/null && sent+=("$pid")
  done
  [ ${#sent[@]} -gt 0 ] || return 0
  for _ in $(seq 1 30); do
    left=()
    for pid in "${sent[@]}"; do pid_alive "$pid" && left+=("$pid"); done
    [ ${#left[@]} -gt 0 ] || return 0
    sleep 0.1
  done
  kill -KILL "${left[@]}" 2>/dev/null || true
}
# kill every process living in one of our network namespaces
kill_netns_procs() {
  local ns pids
  for ns in "$@"; do
    [ -e "$NETNS_DIR/$ns" ] || continue
    pids=$(ip netns pids "$ns" 2>/dev/null | tr '\n' ' ' || true)
    [ -n "${pids// }" ] || continue
    # shellcheck disable=SC2086
    kill -TERM $pids 2>/dev/null || true
  done
  for _ in $(seq 1 30); do
    pids=""
    for ns in "$@"; do
      [ -e "$NETNS_DIR/$ns" ] && pids+=" $(ip netns pids "$ns" 2>/dev/null | tr '\n' ' ' || true)"
    done
    [ -n "${pids// }" ] || return 0
    sleep 0.1
  done
  # shellcheck disable=SC2086
  kill -KILL $pids 2>/dev/null || true
  sleep 0.2
}

# ---------------------------------------------------------------- down
do_down() {
  local h
  # daemons by pid file first (clean shutdown), then anything left in our netns
  local d=()
  for h in "${HOSTS[@]}"; do d+=(slurmd "$(pid_from "$STATE/run/slurmd-$h.pid")"); done
  kill_pids_if "${d[@]}" slurmctld "$(pid_from "$STATE/run/slurmctld.pid")"
  kill_netns_procs "${ALL[@]}" "$BRNS"
  kill_pids_if "$MUNGE_SOCK" "$(pid_from "$STATE/munge/munged.pid")"
  # namespaces (veths, bridge and tc qdiscs go with them)
  for h in "${ALL[@]}" "$BRNS"; do
    if [ -e "$NETNS_DIR/$h" ]; then ip netns del "$h" 2>/dev/null || log "warning: could not delete netns $h"; fi
  done
  # state: only a directory we created (marker file), never an arbitrary one
  if [ -d "$STATE" ]; then
    if [ -e "$STATE/$MARKER" ]; then rm -rf --one-file-system "$STATE"
    else log "warning: $STATE has no $MARKER marker; not deleting it"; fi
  fi
}

# ---------------------------------------------------------------- up
write_conf() {
  local h
  cat >"$CONF" <<EOF
# generated by tests/cluster/cluster.sh - private test cluster
ClusterName=podperf
SlurmctldHost=h0(10.77.0.10)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$MUNGE_SOCK
SlurmctldPort=6817
SlurmdPort=6818
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/spool/%n
TmpFS=$STATE/tmp/%n
SlurmctldPidFile=$STATE/run/slurmctld.pid
SlurmdPidFile=$STATE/run/slurmd-%n.pid
SlurmctldLogFile=$STATE/log/slurmctld.log
SlurmdLogFile=$STATE/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=pmix
SlurmdParameters=config_overrides
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=5
KillWait=5
Waittime=0
MessageTimeout=10
MailProg=/bin/true
TopologyPlugin=topology/tree
EOF
  # Two leaf switches under one spine, for the topology tests (a slow crossing between the leaves).
  cat >"$STATE/etc/topology.conf" <<EOF
SwitchName=leafA Nodes=h[1-2]
SwitchName=leafB Nodes=h[3-4]
SwitchName=spine Switches=leafA,leafB
EOF
  for h in "${HOSTS[@]}"; do
    echo "NodeName=$h NodeAddr=$(ip_of "$h") NodeHostname=$h CPUs=4 RealMemory=1000 State=UNKNOWN" >>"$CONF"
  done
  echo "PartitionName=pp Nodes=h[1-4] Default=YES MaxTime=INFINITE State=UP" >>"$CONF"
  # No cgroup.conf: 22.05 has no CgroupPlugin=disabled; slurmd autodetects the
  # cgroup version and, with proctrack/linuxproc + task/none, creates no cgroups.
  #
  # mpi.conf: the PMIx fence must be the tree algorithm.  With the ring fence
  # (what 22.05 picked here) about 4% of srun --mpi=pmix launches under CPU load
  # crashed a rank inside MPI_Init (SIGSEGV: an ob1 MATCH fragment, BTL tag
  # 0x41, arriving while that rank was still in the modex fence) and hung the
  # others in the fence; with tree: 0 of 150 (mpirun: 0 of 100).
  cat >"$STATE/etc/mpi.conf" <<EOF
PMIxCollFence=tree
EOF
}

setup_net() {
  local h
  ip netns add "$BRNS"
  ip -n "$BRNS" link set lo up
  ip -n "$BRNS" link add br0 type bridge
  ip -n "$BRNS" link set br0 up
  for h in "${ALL[@]}"; do
    ip netns add "$h"
    ip -n "$h" link set lo up
    # veth created inside the bridge netns, peer moved straight into hX:
    # nothing ever appears in the root namespace
    ip -n "$BRNS" link add "v$h" type veth peer name eth0 netns "$h"
    ip -n "$BRNS" link set "v$h" master br0
    ip -n "$BRNS" link set "v$h" up
    ip -n "$h" addr add "$(ip_of "$h")/24" dev eth0
    ip -n "$h" link set eth0 up
  done
}

start_munge() {
  mkdir -p "$STATE/munge"
  chmod 0755 "$STATE/munge"
  dd if=/dev/urandom of="$STATE/munge/munge.key" bs=1024 count=1 status=none
  chmod 0400 "$STATE/munge/munge.key"
  munged --force 9>&- \
    --socket="$MUNGE_SOCK" \
    --key-file="$STATE/munge/munge.key" \
    --pid-file="$STATE/munge/munged.pid" \
    --log-file="$STATE/munge/munged.log" \
    --seed-file="$STATE/munge/munged.seed" \
    || die "munged failed to start; see $STATE/munge/munged.log"
  for _ in $(seq 1 50); do [ -S "$MUNGE_SOCK" ] && return 0; sleep 0.1; done
  die "munged socket $MUNGE_SOCK did not appear"
}

all_idle() {
  local out
  out=$(timeout -k 1 5 nsenter --net="$NETNS_DIR/$CTL" env SLURM_CONF="$CONF" sinfo -h -N -o '%N %t' 2>/dev/null) || return 1
  [ "$(echo "$out" | awk '$2=="idle"{n++} END{print n+0}')" = 4 ]
}

daemons_alive() {
  local h
  pid_alive "$(pid_from "$STATE/munge/munged.pid")" || return 1
  pid_alive "$(pid_from "$STATE/run/slurmctld.pid")" || return 1
  for h in "${HOSTS[@]}"; do pid_alive "$(pid_from "$STATE/run/slurmd-$h.pid")" || return 1; done
}

do_up() {
  need_root; need_tools
  if [ -e "$STATE/$MARKER" ] && [ -e "$NETNS_DIR/$CTL" ] && daemons_alive && all_idle; then
    log "already up ($STATE)"; return 0
  fi
  # anything half-built from an earlier run goes first
  do_down
  mkdir -p "$STATE"
  touch "$STATE/$MARKER"
  mkdir -p "$STATE"/{etc,run,log,ctld,bin}
  local h
  for h in "${HOSTS[@]}"; do mkdir -p "$STATE/spool/$h" "$STATE/tmp/$h"; done
  chmod 1777 "$STATE"/tmp/*
  write_conf
  for h in "${HOSTS[@]}"; do echo "$h slots=4"; done >"$STATE/etc/hostfile"
  setup_net
  start_munge

  # daemons get a clean environment (no inherited SLURM_*/OMPI_* from the caller)
  local denv=(env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root SLURM_CONF="$CONF")
  in_host "$CTL" "${denv[@]}" slurmctld -c -f "$CONF" 9>&- \
    || die "slurmctld failed to start; see $STATE/log/slurmctld.log"
  for h in "${HOSTS[@]}"; do
    in_host "$h" "${denv[@]}" slurmd -N "$h" -f "$CONF" 9>&- \
      || die "slurmd -N $h failed to start; see $STATE/log/slurmd-$h.log"
  done

  local deadline=$((SECONDS + UP_TIMEOUT))
  until all_idle; do
    if [ $SECONDS -ge $deadline ]; then
      log "nodes not idle after ${UP_TIMEOUT}s; sinfo says:"
      timeout -k 1 5 nsenter --net="$NETNS_DIR/$CTL" env SLURM_CONF="$CONF" sinfo -N >&2 || true
      log "last lines of the logs:"
      tail -n 5 "$STATE"/log/*.log >&2 || true
      die "cluster did not come up (state kept in $STATE for inspection; run '$0 down')"
    fi
    sleep 0.5
  done
  log "up: 4 nodes idle (state $STATE)"
}

# ---------------------------------------------------------------- launchers
do_srun() {
  [ -e "$NETNS_DIR/$CTL" ] || die "cluster is not up"
  launch_env
  in_host "$CTL" srun "$@"
}

do_sbatch() {
  [ -e "$NETNS_DIR/$CTL" ] || die "cluster is not up"
  launch_env
  in_host "$CTL" sbatch "$@"
}

do_mpirun() {
  [ -e "$NETNS_DIR/$CTL" ] || die "cluster is not up"
  launch_env
  # this is an rsh launch, not a Slurm one: hide any allocation we may sit in
  local v
  for v in $(env | awk -F= '/^SLURM_/{print $1}'); do [ "$v" = SLURM_CONF ] || unset "$v"; done
  export OMPI_MCA_plm=rsh
  export OMPI_MCA_plm_rsh_agent=$HERE/rsh-agent.sh
  export OMPI_MCA_plm_rsh_no_tree_spawn=1
  export OMPI_MCA_orte_default_hostfile=$STATE/etc/hostfile
  export OMPI_MCA_orte_keep_fqdn_hostnames=1
  # mpirun forwards OMPI_* by itself; also forward PODPERF_* and the names
  # listed in PODPERF_EXPORT (what srun's default --export=ALL would pass)
  local fwd=()
  for v in $(env | awk -F= '/^PODPERF_[A-Za-z0-9_]*=/{print $1}') ${PODPERF_EXPORT:-}; do
    [ -n "${!v+x}" ] && fwd+=(-x "$v")
  done
  set -- "${fwd[@]}" "$@"
  # mpirun (the HNP) runs on h1, the first compute host, as it would inside an
  # allocation.  Started from h0 (a node outside the hostfile), Open MPI 4.1.4
  # gets node-local peers wrong with >1 rank per host: MPI_Comm_split_type
  # (SHARED) then groups each rank with the ranks of the *next* host.
  in_host "${PODPERF_MPIRUN_HOST:-h1}" mpirun "$@"
}

# ---------------------------------------------------------------- shaping
do_shape() {
  local h=${1:-} rate=${2:-$DEFAULT_RATE}
  check_host "$h"
  [ -e "$NETNS_DIR/$h" ] || die "cluster is not up"
  tc -n "$h"    qdisc replace dev eth0 root tbf rate "$rate" burst 256kb latency 50ms
  tc -n "$BRNS" qdisc replace dev "v$h" root tbf rate "$rate" burst 256kb latency 50ms
  log "shaped $h to $rate (both directions)"
}
# The crossing between the leaves: on each host, egress to the other leaf's hosts through an htb class
# at RATE (a u32 filter picks those destinations); everything else in a class far above what a veth
# carries here. (This kernel has htb and u32, not prio.)
do_shape_cross() {
  local rate=${1:-$DEFAULT_RATE} h peer
  [ -e "$NETNS_DIR/h1" ] || die "cluster is not up"
  for h in "${HOSTS[@]}"; do
    tc -n "$h" qdisc replace dev eth0 root handle 1: htb default 20
    tc -n "$h" class add dev eth0 parent 1: classid 1:10 htb rate "$rate" quantum 60000
    tc -n "$h" class add dev eth0 parent 1: classid 1:20 htb rate 20gbit quantum 60000
    for peer in "${HOSTS[@]}"; do
      case "$h$peer" in h[12]h[34]|h[34]h[12]) ;; *) continue ;; esac
      tc -n "$h" filter add dev eth0 parent 1: protocol ip prio 1 u32 match ip dst "$(ip_of "$peer")/32" flowid 1:10
    done
  done
  log "shaped the crossing leafA (h1,h2) <-> leafB (h3,h4) to $rate (both directions)"
}
do_unshape() {
  local h=${1:-}
  check_host "$h"
  [ -e "$NETNS_DIR/$h" ] || die "cluster is not up"
  tc -n "$h"    qdisc del dev eth0 root 2>/dev/null || true
  tc -n "$BRNS" qdisc del dev "v$h" root 2>/dev/null || true
  log "unshaped $h"
}

# ---------------------------------------------------------------- status
do_status() {
  local h pid rc=0
  echo "state dir: $STATE"
  pid=$(pid_from "$STATE/munge/munged.pid"); if pid_alive "$pid"; then echo "munged: running ($pid)"; else echo "munged: down"; rc=1; fi
  pid=$(pid_from "$STATE/run/slurmctld.pid"); if pid_alive "$pid"; then echo "slurmctld: running ($pid)"; else echo "slurmctld: down"; rc=1; fi
  for h in "${HOSTS[@]}"; do
    pid=$(pid_from "$STATE/run/slurmd-$h.pid")
    if pid_alive "$pid"; then echo "slurmd $h: running ($pid)"; else echo "slurmd $h: down"; rc=1; fi
  done
  for h in "${ALL[@]}" "$BRNS"; do
    if [ -e "$NETNS_DIR/$h" ]; then echo "netns $h: present"; else echo "netns $h: absent"; rc=1; fi
  done
  for h in "${HOSTS[@]}"; do
    [ -e "$NETNS_DIR/$h" ] || continue
    if tc -n "$h" qdisc show dev eth0 2>/dev/null | grep -q tbf; then
      echo "shaping $h: $(tc -n "$h" qdisc show dev eth0 | grep -o 'rate [^ ]*')"
    fi
  done
  if [ -e "$NETNS_DIR/$CTL" ]; then
    timeout -k 1 5 nsenter --net="$NETNS_DIR/$CTL" env SLURM_CONF="$CONF" sinfo -N 2>&1 || rc=1
  fi
  return $rc
}

# ---------------------------------------------------------------- main
cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
  up)      need_root; exec 9>"$LOCK"; flock -w 120 9 || die "lock $LOCK busy"; do_up ;;
  down)    need_root; exec 9>"$LOCK"; flock -w 120 9 || die "lock $LOCK busy"; do_down; log "down" ;;
  status)  do_status ;;
  srun)    do_srun "$@" ;;
  sbatch)  do_sbatch "$@" ;;
  mpirun)  do_mpirun "$@" ;;
  shape)   do_shape "$@" ;;
  unshape) do_unshape "$@" ;;
  shape-cross) do_shape_cross "$@" ;;
  scontrol) [ -e "$NETNS_DIR/$CTL" ] || die "cluster is not up"; launch_env; in_host "$CTL" scontrol "$@" ;;
  exec)    h=${1:-}; [ $# -gt 0 ] && shift; ip_of "$h" >/dev/null; launch_env; in_host "$h" "$@" ;;
  env)     launch_env; env | grep -E '^(SLURM_CONF|SLURM_PMIX_FENCE|OMPI_|PMIX_MCA_)' | sed 's/^/export /' ;;
  *) sed -n '2,/^set -euo/p' "$0" | sed '$d'; [ -z "$cmd" ] || die "unknown command '$cmd'"; exit 2 ;;
esac
