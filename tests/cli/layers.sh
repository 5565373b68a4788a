#!/usr/bin/env bash
# Imports run only downward (docs/architecture.md). Reads the tree's #include lines; prints PASS/FAIL lines.
#  1. Between the top folders: a source includes nothing from a folder above its own; offline/ never
#     includes bench/ (it links no MPI), sim/ and offline/ not each other.
#  2. Inside analysis/ (one library per folder, analysis/CMakeLists.txt): a folder includes only
#     folders on lower floors, so no judge includes the printers' wing analysis/report/.
#  3. signals/, sweep/ and sim/ use analysis/ only through its bottom: base/ (and stats/ for sweep/).
# The link-time twin of rule 2 is the layer check of analysis/CMakeLists.txt (each library linked alone).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
passed=0 failed=0
check() {  # NAME, then the offending lines (none: PASS)
  local name=$1
  shift
  if (($# == 0)); then
    echo "PASS $name"; passed=$((passed + 1))
  else
    echo "FAIL $name: $*"; failed=$((failed + 1))
  fi
}
floor() {
  case $1 in
    analysis | kernels) echo 1 ;;
    signals | sweep) echo 2 ;;
    sim | offline) echo 3 ;;
    bench) echo 4 ;;
    app) echo 5 ;;
    *) echo 0 ;;
  esac
}
analysis_floor() {  # the folder under analysis/ (judge_run for the files at its root)
  case $1 in
    base) echo 1 ;;
    stats | config) echo 2 ;;
    model) echo 3 ;;
    io | topology | logs) echo 4 ;;
    pairs | fs | accept | compare) echo 5 ;;
    judge_run) echo 6 ;;
    report) echo 7 ;;
    *) echo 99 ;;
  esac
}
analysis_folder() {  # analysis/x/y.cpp -> x; analysis/y.cpp -> judge_run
  local rest=${1#analysis/}
  if [[ $rest == */* ]]; then echo "${rest%%/*}"; else echo judge_run; fi
}

bad=()
while IFS= read -r hit; do
  file=${hit%%:*}
  target=$(sed -E 's/.*#include "([^/"]+)\/.*/\1/' <<<"$hit")
  from=${file%%/*}
  [[ $(floor "$target") -eq 0 ]] && continue
  if (($(floor "$target") > $(floor "$from"))) || [[ $from == offline && $target == bench ]] ||
    [[ $from == sim && $target == offline ]] || [[ $from == offline && $target == sim ]]; then
    bad+=("$hit")
  fi
done < <(grep -rn --include='*.cpp' --include='*.hpp' --include='*.cu' '^#include "[a-z]*/' \
  analysis kernels signals sweep sim offline bench app)
check "no include runs up a floor" "${bad[@]}"

bad=()
unknown=()
while IFS= read -r hit; do
  file=${hit%%:*}
  included=$(sed -E 's/.*#include "([^"]+)".*/\1/' <<<"$hit")
  from=$(analysis_folder "$file")
  to=$(analysis_folder "$included")
  [[ $from == "$to" ]] && continue
  if [[ $(analysis_floor "$from") -eq 99 || $(analysis_floor "$to") -eq 99 ]]; then
    unknown+=("$hit")
  elif (($(analysis_floor "$to") >= $(analysis_floor "$from"))); then
    bad+=("$hit")
  fi
done < <(grep -rn --include='*.cpp' --include='*.hpp' '^#include "analysis/' analysis)
check "every analysis/ folder has a floor" "${unknown[@]}"
check "analysis/ folders include only lower floors (no judge includes analysis/report/)" "${bad[@]}"

bad=()
while IFS= read -r hit; do
  file=${hit%%:*}
  included=$(sed -E 's/.*#include "([^"]+)".*/\1/' <<<"$hit")
  case $file:$included in
    */*:analysis/base/*) ;;
    sweep/*:analysis/stats/*) ;;
    *) bad+=("$hit") ;;
  esac
done < <(grep -rn --include='*.cpp' --include='*.hpp' '^#include "analysis/' signals sweep sim)
check "signals/, sweep/ and sim/ include only analysis/base/ (sweep/ also stats/)" "${bad[@]}"

# The checker must catch what it forbids: the same rules on a small tree with a judge that includes a
# printer and a signal rule that includes the pair judge (PODPERF_LAYERS_SELFTEST: no recursion).
if [[ -z ${PODPERF_LAYERS_SELFTEST:-} ]]; then
  tree=$(mktemp -d)
  trap 'rm -rf "$tree"' EXIT
  mkdir -p "$tree/tests/cli" "$tree/analysis/pairs" "$tree/analysis/report" "$tree/signals"
  cp "$0" "$tree/tests/cli/layers.sh"
  echo '#include "analysis/report/html.hpp"' >"$tree/analysis/pairs/judge.cpp"
  echo '#include "analysis/pairs/pair_judge.hpp"' >"$tree/signals/rule.cpp"
  out=$(PODPERF_LAYERS_SELFTEST=1 bash "$tree/tests/cli/layers.sh" 2>&1)
  if grep -q '^FAIL analysis/ folders include only lower floors.*analysis/pairs/judge.cpp' <<<"$out" &&
    grep -q '^FAIL signals/, sweep/ and sim/.*signals/rule.cpp' <<<"$out"; then
    check "the checker fails a judge that includes a printer and a signal rule that includes a judge"
  else
    check "the checker fails a judge that includes a printer and a signal rule that includes a judge" "$out"
  fi
fi
echo "cli.layers: $passed passed, $failed failed"
((failed == 0))
