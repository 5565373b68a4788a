#!/bin/sh
# rsh-agent.sh - the "ssh" of the namespace cluster (see cluster.sh).
# Open MPI calls it as an rsh/ssh agent:  rsh-agent.sh [ssh options] HOST CMD...
# It enters HOST's network namespace (/var/run/netns/HOST) in a fresh UTS
# namespace whose hostname is HOST and runs CMD through sh -c, joining the
# words with spaces exactly as ssh does (Open MPI quotes for that).
# Only h0..h4 are accepted: nothing leaves the private cluster.
set -eu
# skip ssh-style options Open MPI might add (e.g. -x, -n, -o Opt=..)
while [ $# -gt 0 ]; do
  case "$1" in
    -o|-l|-p|-i|-F) shift 2 ;;
    -*) shift ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "rsh-agent.sh: usage: rsh-agent.sh HOST CMD..." >&2; exit 255; }
host=${1%%.*}
shift
case "$host" in
  h0|h1|h2|h3|h4) ;;
  *) echo "rsh-agent.sh: unknown host '$1' (h0..h4 only)" >&2; exit 255 ;;
esac
[ -e "/var/run/netns/$host" ] || { echo "rsh-agent.sh: netns $host missing (cluster down?)" >&2; exit 255; }
[ $# -ge 1 ] || { echo "rsh-agent.sh: no command for $host" >&2; exit 255; }
# Tests slow one host down: its processes join a CPU-limited cgroup (see run_fs_test.sh).
if [ -n "${PODPERF_SLOW_HOST:-}" ] && [ "$host" = "$PODPERF_SLOW_HOST" ] && [ -n "${PODPERF_SLOW_CGROUP_PROCS:-}" ]; then
  echo $$ >"$PODPERF_SLOW_CGROUP_PROCS"
fi
# shellcheck disable=SC2016  # expanded by the inner sh
exec nsenter --net="/var/run/netns/$host" unshare --uts \
  sh -c 'hostname "$0"; exec sh -c "$1"' "$host" "$*"
