#!/usr/bin/env bash
# The README's main command: installs dependencies, builds, and runs podperf's main job on this
# machine (4 ranks split into 4 virtual nodes; results under results/), printing the report.
# Extra arguments go to `podperf run`, e.g. scripts/demo.sh -e 64M -n 50
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"

ranks=${PODPERF_DEMO_RANKS:-4}
export OMPI_MCA_mpi_yield_when_idle=1         # ranks do not spin on idle cores
export OMPI_MCA_btl=self,vader,tcp            # no InfiniBand probing on a laptop or VM
if [[ $(id -u) -eq 0 ]]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
echo "demo: mpirun -np $ranks podperf run --virtual-nodes $ranks (a local demo: virtual nodes share one host)"
set +e
mpirun --oversubscribe -np "$ranks" "$root/build/podperf" run --virtual-nodes "$ranks" \
  -b 1M -e 16M -n 20 -w 5 --out "$root/results" "$@"
rc=$?
set -e
case $rc in
  0) echo "demo: exit 0 (nothing flagged)" ;;
  1) echo "demo: exit 1 (something flagged: on a shared 2-core machine virtual nodes compete for CPU, so flags here are expected noise, not a fabric problem)" ;;
  *) echo "demo: exit $rc" ;;
esac
# A flagged demo is still a successful demo; usage and runtime failures are not.
[[ $rc -le 1 ]]
