#!/usr/bin/env bash
# Imports run only downward (docs/architecture.md): a source includes nothing from a folder above its
# own, offline/ never includes bench/ (it links no MPI), and no judge in analysis/ includes the
# printers' wing analysis/report/. Reads the tree's #include lines; prints PASS/FAIL lines.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
passed=0 failed=0
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
if ((${#bad[@]} == 0)); then
  echo "PASS no include runs up a floor"; passed=$((passed + 1))
else
  echo "FAIL includes that run up: ${bad[*]}"; failed=$((failed + 1))
fi
judges=$(grep -ln '#include "analysis/report/' analysis/*.cpp analysis/*.hpp analysis/logs/*.cpp analysis/logs/*.hpp 2>/dev/null)
if [[ -z $judges ]]; then
  echo "PASS no judge includes analysis/report/"; passed=$((passed + 1))
else
  echo "FAIL judges that include the printers: $judges"; failed=$((failed + 1))
fi
echo "cli.layers: $passed passed, $failed failed"
((failed == 0))
