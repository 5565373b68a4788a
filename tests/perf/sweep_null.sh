#!/usr/bin/env bash
# podperf sweep when the varied setting has no effect (issue 19): the built-in host-smoke sweep varies
# NCCL_PROTO, which the host backend never reads, so every point is the same setting and no ranking
# should call a winner beyond noise. Runs the sweep S times (each with its own seed, so the job order
# differs) and counts the per-size rankings whose best is "beyond noise" (best_clear). Goal: at most 5%
# of rankings (before the run-level ranking: 5 of 9, issue 19). Then `podperf compare` on the same
# jobs (real collective runs): SPLITS random 3-against-3 splits of the jobs of each point (healthy
# against healthy), and of each two points of the same sizes (a change of a setting that has no effect):
# how often it exits 1. Goal: at most 5%. Measures only.
# Usage: sweep_null.sh PODPERF [WORKDIR] [S=10] [REPEATS=2]   (env SPLITS, default 200; 0: no compare)
set -uo pipefail
PODPERF=${1:?usage: $0 PODPERF [WORKDIR] [S] [REPEATS]}
WORK=${2:-/var/tmp/podperf-sweep-null}
S=${3:-10}
R=${4:-2}
SPLITS=${SPLITS:-200}
case "$PODPERF" in /*) ;; *) PODPERF=$PWD/$PODPERF ;; esac
mkdir -p "$WORK"
if [[ $(id -u) -eq 0 ]]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
src=$(dirname "$0")/../../configs/sweeps/host-smoke.toml
for i in $(seq 1 "$S"); do
  [[ -s "$WORK/s$i/sweep.json" ]] && continue
  sed -e "s/^repeats = .*/repeats = $R\nseed = $i/" "$src" >"$WORK/s$i.toml"
  "$PODPERF" sweep "$WORK/s$i.toml" --out "$WORK" --sweep-id "s$i" >"$WORK/s$i.log" 2>&1 || true
done
python3 - "$WORK" "$S" <<'PY'
import json, os, sys
work, s = sys.argv[1], int(sys.argv[2])
clear = total = failed = 0
for i in range(1, s + 1):
    path = os.path.join(work, f"s{i}", "sweep.json")
    if not os.path.exists(path):
        continue
    sweep = json.load(open(path))
    failed += sum(1 for p in sweep.get("points", []) if p.get("status") != "ok")
    for g in sweep["ranking"]:
        if len(g["entries"]) < 2:
            continue
        total += 1
        clear += g["best_clear"]
print(f"sweeps: {s}; per-size rankings with 2+ points: {total}; best beyond noise: {clear} "
      f"({100.0 * clear / max(total, 1):.1f}%); jobs not ok: {failed}")
PY
((SPLITS > 0)) || exit 0
# The jobs of each point as WORK/compare/<point>_<i> (links), then splits within and between points.
source "$(dirname "$0")/compare_splits.sh"
links=$WORK/compare
rm -rf "$links"
mkdir -p "$links"
declare -A count sizes
for dir in "$WORK"/s*/point-*/; do
  [[ -s "$dir/run.json" ]] || continue
  [[ $(basename "$dir") =~ ^(point-[0-9]+) ]] || continue
  point=${BASH_REMATCH[1]}
  count[$point]=$((${count[$point]:-0} + 1))
  ln -s "$dir" "$links/${point}_${count[$point]}"
  sizes[$point]=$(jq -c '.options.sizes_bytes' "$dir/run.json")
done
mapfile -t points < <(printf '%s\n' "${!count[@]}" | sort)
for p in "${points[@]}"; do
  echo "compare $p against itself, 3 vs 3 (${count[$p]} jobs): exit 1 in $(compare_splits "$PODPERF" "$links" "${p}_" "${p}_" "${count[$p]}" "$SPLITS" 1)"
done
for ((i = 0; i < ${#points[@]}; i++)); do
  for ((j = i + 1; j < ${#points[@]}; j++)); do
    a=${points[i]} b=${points[j]}
    [[ ${sizes[$a]} == "${sizes[$b]}" ]] || continue
    n=$((count[$a] < count[$b] ? count[$a] : count[$b]))
    echo "compare $a against $b, 3 vs 3 (the same setting to the host backend): exit 1 in $(compare_splits "$PODPERF" "$links" "${a}_" "${b}_" "$n" "$SPLITS" 2)"
  done
done
