#!/usr/bin/env bash
# The runner's per-operation timing overhead against a bare MPI_Barrier+MPI_Allreduce loop, under
# mpirun on this machine, for 2 and 4 ranks. Measures; passes or fails nothing (non-zero only when a
# run fails). Usage: runner_overhead.sh BUILD_DIR [RANKS...]   (default ranks: 2 4)
# Environment: SIZES (1M,4M,16M,64M), ITERS (5), WARMUP (2), REPS (31), EMPTY_ITERS (200: blocks of the
# harness-cost measurement on empty operations), MPIRUN_ARGS.
set -euo pipefail
build=${1:?usage: runner_overhead.sh BUILD_DIR [RANKS...]}
shift
ranks=("$@")
((${#ranks[@]})) || ranks=(2 4)
bin="$build/tests/perf/podperf_runner_overhead"
[[ -x $bin ]] || { echo "runner_overhead.sh: $bin not built (cmake --build $build --target podperf_runner_overhead)" >&2; exit 2; }

# As tests/mpi/lib.sh launches podperf: root allowed, shared memory and TCP only, ranks that yield
# while waiting (the machine may have fewer cores than ranks).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_mpi_yield_when_idle=1
export OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo

# Each rank count twice: the bare loop's buffers allocated after podperf's, then before (placement
# alone moves the result by a few percent; the mean of the two cancels it).
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for np in "${ranks[@]}"; do
  for placement in last first; do
    echo "== $np ranks, bare buffers allocated $placement" | tee -a "$out"
    # shellcheck disable=SC2086
    mpirun --oversubscribe --bind-to none -np "$np" ${MPIRUN_ARGS:-} "$bin" --sizes "${SIZES:-1M,4M,16M,64M}" \
      --iters "${ITERS:-5}" --warmup "${WARMUP:-2}" --reps "${REPS:-31}" --bare-buffers "$placement" \
      --empty-iters "${EMPTY_ITERS:-200}" | tee -a "$out"
  done
done

# Per size and rank count: the overhead with the placement cancelled (the mean of the two placements'
# medians over repetitions), its 95% percentile-bootstrap interval (each placement's repetitions
# resampled on their own, 4000 times, fixed seed), the pooled figure (mean of the placements' pooled
# medians), and whether the interval lies within +-2% (the target), wholly outside it, or straddles it
# (this machine's noise cannot tell).
echo
echo "# overhead with the buffer placement cancelled: mean of the two placements' per-repetition medians"
python3 - "$out" <<'PY'
import random, re, statistics, sys
reps, pooled, order = {}, {}, []
ranks = placement = None
in_summary = False
for line in open(sys.argv[1]):
    m = re.match(r"== (\d+) ranks, bare buffers allocated (\w+)", line)
    if m:
        ranks, placement, in_summary = m.group(1), m.group(2), False
        continue
    if line.startswith("# overhead"):
        in_summary = True
        continue
    f = line.split()
    if in_summary and len(f) >= 4 and f[1] == ranks:
        pooled.setdefault((f[0], ranks), []).append(float(f[2].rstrip("%")))
    elif not in_summary and len(f) == 9 and f[1].isdigit() and f[5].endswith("%"):
        key = (f[0], ranks)
        if key not in reps:
            order.append(key)
        reps.setdefault(key, {}).setdefault(placement, []).append(float(f[5].rstrip("%")))
rng = random.Random(1)
print(f"{'size':<8} {'ranks':>5} {'overhead':>9} {'95% interval':>19} {'pooled':>8}  within 2%")
for key in order:
    groups = [v for v in reps[key].values() if v]
    estimate = statistics.fmean(statistics.median(v) for v in groups)
    boot = sorted(statistics.fmean(statistics.median(rng.choices(v, k=len(v))) for v in groups) for _ in range(4000))
    lo, hi = boot[int(0.025 * len(boot))], boot[int(0.975 * len(boot)) - 1]
    verdict = "yes" if -2 <= lo and hi <= 2 else "no" if lo > 2 or hi < -2 else "cannot tell (interval straddles 2%)"
    pool = statistics.fmean(pooled.get(key, [float("nan")]))
    print(f"{key[0]:<8} {key[1]:>5} {estimate:>+8.2f}% {lo:>+8.2f}%..{hi:>+7.2f}% {pool:>+7.2f}%  {verdict}")
PY

# The harness's own cost, measured on empty operations (noise-free at the nanosecond level, unlike the
# comparison above): per rank count and placement, then as a share of each size's operation.
echo
echo "# harness cost per operation, measured on empty all_reduce (each rank count and placement):"
grep -E '^# harness cost' "$out" | sed 's/^# harness cost per operation /  /'
echo "# as a share of the operation (upper end of the interval): size, ranks, bare median, share"
grep -E '^harness ' "$out" | sed 's/^harness /  /'
