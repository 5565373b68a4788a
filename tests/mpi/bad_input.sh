#!/usr/bin/env bash
# Bad input: a clear one-line error naming what was wrong, exit 2, before any measurement.
source "$(dirname "$0")/lib.sh" "$1"

# expect_usage_error WHAT REGEX NP ARGS...
expect_usage_error() {
  local what=$1 regex=$2 np=$3
  shift 3
  podperf_mpirun "$np" "$@"
  local rc=$?
  local out
  out=$(grep "podperf: error:" "$WORK/out")
  if [[ $rc -eq 2 ]] && grep -Eq -- "$regex" <<<"$out" && [[ $(wc -l <<<"$out") -eq 1 ]]; then
    pass "$what: exit 2, one line: $out"
  else
    fail "$what: exit $rc, want 2 and one line matching '$regex'; output:"
    sed 's/^/    /' "$WORK/out"
  fi
  if compgen -G "$WORK/res/*/run.json" >/dev/null; then fail "$what: a run.json was written"; fi
}

v=(--virtual-nodes 4 --out "$WORK/res" -n 2 -w 0 -b 1K -e 1K)
expect_usage_error "unknown flag" "not expected: --bogus" 2 pairs --bogus
expect_usage_error "min > max" "-b/--minbytes \(8388608\) is larger than -e/--maxbytes \(1048576\)" 4 pairs "${v[@]}" -b 8M -e 1M
expect_usage_error "zero size" "--minbytes 0: must be at least 1 byte" 4 pairs "${v[@]}" -b 0
expect_usage_error "garbage size" "--maxbytes lots: must be a size in bytes" 4 pairs "${v[@]}" -e lots
expect_usage_error "unknown suffix" "--maxbytes 4Q: has an unknown suffix 'Q'" 4 pairs "${v[@]}" -e 4Q
expect_usage_error "single node" "pairs needs at least 2 nodes; this job has 1" 2 pairs --out "$WORK/res" -b 1K -e 1K
expect_usage_error "unwritable results directory" "--out /etc/hostname/results: cannot create results directory" 4 \
  pairs "${v[@]}" --out /etc/hostname/results
expect_usage_error "more virtual nodes than ranks" "--virtual-nodes 8 needs at least 8 ranks on each host" 4 \
  pairs --virtual-nodes 8 --out "$WORK/res"
expect_usage_error "pair index out of range" "--pairs '0:9': node index 9 is out of range" 4 pairs "${v[@]}" --pairs 0:9
expect_usage_error "unknown op" "unknown op 'allreduce'" 4 pairs "${v[@]}" --op allreduce
expect_usage_error "bad iterations" "--iters 0: must be a whole number from 1 to 1000000" 2 pairs "${v[@]}" -n 0
printf '[pairs]\nthreshold = "high"\n' >"$WORK/bad.toml"
expect_usage_error "bad config value" "bad.toml:2: 'pairs.threshold' must be a number" 4 pairs "${v[@]}" --config "$WORK/bad.toml"
expect_usage_error "negative size" "--minbytes -1: must be a size in bytes" 4 pairs "${v[@]}" -b -1
expect_usage_error "huge size" "--maxbytes 99999999999999999999999: is too large" 4 pairs "${v[@]}" -e 99999999999999999999999
expect_usage_error "non-UTF-8 run id" "argument [0-9]+ .'r.xff'. is not valid UTF-8" 2 pairs "${v[@]}" --run-id "$(printf 'r\xff')"
expect_usage_error "non-UTF-8 path" "is not valid UTF-8" 2 fs --path "$(printf '/tmp/\xc3\x28')" --out "$WORK/res"
printf '[pairs]\nthreshold = 0.05\nthresold = 0.1\n' >"$WORK/typo.toml"
expect_usage_error "unknown config key" "typo.toml:3: unknown key 'pairs.thresold'" 4 pairs "${v[@]}" --config "$WORK/typo.toml"
printf '[pairs\n' >"$WORK/broken.toml"
expect_usage_error "broken config syntax" "broken.toml:1" 4 pairs "${v[@]}" --config "$WORK/broken.toml"
expect_usage_error "missing config file" "nope.toml" 4 pairs "${v[@]}" --config "$WORK/nope.toml"
expect_usage_error "negative count" "--rand-ops -5: must be a whole number from 1 to 100000000" 2 fs --path "$WORK" --rand-ops -5 --out "$WORK/res"
# Paths with spaces and quotes are paths: they work.
odd="$WORK/with space/and'quote\""
mkdir -p "$odd"
podperf_mpirun 4 pairs "${v[@]}" --out "$odd" --run-id odd
rc=$?
if [[ $rc -le 1 && -s "$odd/odd/run.json" ]]; then pass "--out with spaces and quotes works (exit $rc)"; else fail "--out with spaces and quotes: exit $rc"; fi
rm -rf "$WORK/with space"

mkdir -p "$WORK/taken/r" && echo '{"kept": true}' >"$WORK/taken/r/run.json"
expect_usage_error "run id reused" "already holds a run.json" 4 pairs "${v[@]}" --out "$WORK/taken" --run-id r
expect_eq "the earlier run.json is untouched" "$(cat "$WORK/taken/r/run.json")" '{"kept": true}'

"$PODPERF" --help >"$WORK/out" 2>&1
expect_eq "--help exits 0" "$?" "0"
expect_match "--help explains exit codes" "$(cat "$WORK/out")" "Exit codes: 0 nothing flagged, 1 something flagged"
"$PODPERF" pairs --help >"$WORK/out" 2>&1
expect_match "pairs --help lists nccl-tests flags" "$(cat "$WORK/out")" "-b,--minbytes"
"$PODPERF" >"$WORK/out" 2>&1
expect_eq "no subcommand exits 2" "$?" "2"
finish
