#!/usr/bin/env bash
# Sourced by the compare benchmarks (compare_real_runs.sh, compare_cluster_runs.sh): counts how often
# `podperf compare` exits 1 over random K-against-K splits of repeated runs (K: env SPLIT_K, default
# 3). Measures only.
#
# compare_splits PODPERF WORK BEFORE_PREFIX AFTER_PREFIX N SPLITS SEED [COMPARE ARGS...]
#   Runs WORK/<prefix><i> for i in 1..N on each side. Each split draws K runs of BEFORE_PREFIX and K
#   of AFTER_PREFIX (all 2K distinct when the prefixes are equal), from awk's generator seeded with
#   SEED, and runs `podperf compare --before ... --after ... ARGS`. Prints "F of S" (F exits 1, S
#   splits; an exit other than 0 or 1 is counted apart as errors) and, over the splits, the median
#   of each comparison's median change across its metrics (from its --json): the size of the change.
compare_splits() {
  local podperf=$1 work=$2 pb=$3 pa=$4 n=$5 splits=$6 seed=$7
  shift 7
  local k=${SPLIT_K:-3} flagged=0 errors=0 done_=0 changes=() line b a rc json
  if ((n < k)) || { ((n < 2 * k)) && [[ $pb == "$pa" ]]; }; then
    echo "no splits: $n runs a side is too few for $k against $k"
    return
  fi
  while read -r line; do
    read -r -a idx <<<"$line"
    b=() a=()
    for ((j = 0; j < k; j++)); do b+=("$work/$pb${idx[j]}"); a+=("$work/$pa${idx[k + j]}"); done
    json=$("$podperf" compare --before "${b[@]}" --after "${a[@]}" "$@" --json 2>/dev/null)
    rc=$?
    case $rc in 0) ;; 1) flagged=$((flagged + 1)) ;; *) errors=$((errors + 1)) ;; esac
    done_=$((done_ + 1))
    changes+=("$(jq -r '[.metrics[]? | .change_percent // empty] | sort | if length == 0 then 0 else .[length / 2 | floor] end' <<<"$json" 2>/dev/null || echo 0)")
  done < <(awk -v n="$n" -v k="$k" -v s="$splits" -v seed="$seed" -v same="$([[ $pb == "$pa" ]] && echo 1 || echo 0)" 'BEGIN {
    srand(seed)
    for (t = 0; t < s; t++) {
      delete used; line = ""
      for (j = 0; j < 2 * k; j++) {
        do { i = 1 + int(rand() * n); key = (same || j < k ? "b" : "a") i } while (key in used)
        used[key] = 1; line = line " " i
      }
      print line
    }
  }')
  local median
  median=$(printf '%s\n' "${changes[@]}" | sort -g | awk '{ v[NR] = $1 } END { if (NR) printf "%.1f", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')
  echo "$flagged of $done_ (errors $errors; median change ${median:-?}%)"
}

# single_run_claims PODPERF WORK PREFIX N
#   One run per side on consecutive runs WORK/<prefix>1..N (1 against 2, 2 against 3, ...): prints how many
#   metrics were called slower or faster (one run per side must never claim significance from
#   iterations; with --repeat the blocks are the units, and a claim must also pass the run-to-run
#   allowance), in how many of the comparisons, and how many exited 1.
single_run_claims() {
  local podperf=$1 work=$2 p=$3 n=$4 claims=0 pairs=0 with=0 exits=0 i t rc json
  for ((i = 1; i < n; i++)); do
    json=$("$podperf" compare "$work/$p$i" "$work/$p$((i + 1))" --json 2>/dev/null)
    rc=$?
    ((rc == 1)) && exits=$((exits + 1))
    t=$(jq '.summary.slower + .summary.faster' <<<"$json")
    claims=$((claims + ${t:-0}))
    ((${t:-0} > 0)) && with=$((with + 1))
    pairs=$((pairs + 1))
  done
  echo "$claims significance claims in $pairs comparisons ($with with a claim; $exits exit 1)"
}

# report_splits PODPERF WORK N SPLITS SEED NAME TAGS REPEAT...
#   For each K in REPEAT: healthy runs WORK/r<K>h<i> against each other (3 vs 3), against each set of
#   changed runs WORK/r<K><TAG><i> for TAG in TAGS ("s", or "x0s x1s ..."; 3 vs 3, --fail-on 10), and
#   one against one (single_run_claims).
report_splits() {
  local podperf=$1 work=$2 n=$3 splits=$4 seed=$5 name=$6 tags k t
  read -r -a tags <<<"$7"
  shift 7
  for k in "$@"; do
    echo "--repeat $k:"
    echo "  healthy 3 vs 3: exit 1 in $(compare_splits "$podperf" "$work" "r${k}h" "r${k}h" "$n" "$splits" "$seed")"
    for t in "${tags[@]}"; do
      echo "  healthy 3 vs $name 3 ($t, --fail-on 10): exit 1 in $(compare_splits "$podperf" "$work" "r${k}h" \
        "r${k}$t" "$n" "$splits" "$seed" --fail-on 10)"
    done
    echo "  healthy one vs one: $(single_run_claims "$podperf" "$work" "r${k}h" "$n")"
  done
}
