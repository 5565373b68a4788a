#!/usr/bin/env bash
# The adaptive straggler search on the modelled fabric: recall, precision, false links and rounds
# over many seeds, per number of slow nodes (10-40% slower, chosen by the seed among noisy healthy
# nodes; configs/sim/random4.toml), against the full schedule's cost. Target (issue 7): 1024 nodes,
# up to 4 slow nodes, every slow node found and no healthy node blamed within 2*log2(N) rounds;
# across 100 seeds recall 1.0 and precision >= 0.95. Measures; exits non-zero only when the tool fails.
#
#   cmake --build build --target podperf_adaptive_search
#   tests/perf/adaptive_search.sh build                         # 1024 nodes, 100 seeds, 0/1/2/4 slow
#   tests/perf/adaptive_search.sh build --nodes 4096 --seeds 20 --slow 4
#   tests/perf/adaptive_search.sh build --topology racks       # racks of 16 in layers of 64: 0-2 slow
#                                                               # uplinks x 0/1/2/4 slow nodes, layered search
#   tests/perf/adaptive_search.sh build --topology racks --layer 256 --scope within|flat --uplinks 1 --slow 4
set -euo pipefail
BUILD=${1:?usage: $0 BUILD_DIR [--nodes N] [--seeds K] [--first-seed S] [--model NAME] [--slow 0,1,2,4]}
shift
TOOL="$BUILD/tests/podperf_adaptive_search"
[[ -x "$TOOL" ]] || { echo "adaptive_search.sh: $TOOL missing; build the podperf_adaptive_search target" >&2; exit 2; }
start=$(date +%s%N)
"$TOOL" "$@"
ms=$((($(date +%s%N) - start) / 1000000))
echo "wall time: $((ms / 1000)).$(printf '%03d' $((ms % 1000))) s"
