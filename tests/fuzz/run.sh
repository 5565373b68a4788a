#!/usr/bin/env bash
# Short fuzz runs of every libFuzzer target (tests/fuzz): tests/fuzz/run.sh BUILD_DIR [SECONDS]
# BUILD_DIR was configured with -DCMAKE_CXX_COMPILER=clang++ -DPODPERF_FUZZ=ON. Each target starts from
# a copy of its seed corpus (tests/fuzz/corpus/<target>; the repository's copy is never modified) and
# runs SECONDS (default 20) under ASan and UBSan. A crash, a sanitizer report, a leak, a timeout or an
# exception other than podperf's typed errors fails the target: the input is saved under
# BUILD_DIR/fuzz-artifacts/<target>/ and printed as a reproduction command. Exit 1 when any target failed.
# Long runs: FUZZ_JOBS=2 tests/fuzz/run.sh BUILD_DIR 3600 (see tests/fuzz/README.md).
set -uo pipefail
build=${1:?usage: $0 BUILD_DIR [SECONDS]}
seconds=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/podperf-fuzz.XXXXXX)
trap 'rm -rf "$work"' EXIT
failed=0
for bin in "$build"/tests/fuzz/fuzz_*; do
  [[ -x $bin ]] || continue
  t=$(basename "$bin")
  t=${t#fuzz_}
  mkdir -p "$work/$t" "$build/fuzz-artifacts/$t"
  cp -r "$here/corpus/$t/." "$work/$t/" 2>/dev/null || true
  log="$build/fuzz-artifacts/$t.log"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix="$build/fuzz-artifacts/$t/" -print_final_stats=1 "$work/$t" >"$log" 2>&1
  rc=$?
  runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$')
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1)
  if [[ $rc -eq 0 ]]; then
    echo "fuzz $t: ok, ${runs:-?} inputs in ${seconds}s, ${cov:-cov ?}, corpus $(ls "$work/$t" | wc -l)"
  else
    failed=1
    echo "fuzz $t: FAILED (exit $rc); log $log"
    grep -E "ERROR|SUMMARY|runtime error|terminate called|what\(\)" "$log" | head -5 | sed 's/^/    /'
    for a in "$build/fuzz-artifacts/$t"/*; do [[ -f $a ]] && echo "    reproduce: $bin $a"; done
  fi
done
exit $failed
