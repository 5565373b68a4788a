#!/usr/bin/env bash
# The runner's per-operation timing overhead against a bare MPI_Barrier+MPI_Allreduce loop, under
# mpirun on this machine, for 2 and 4 ranks. Measures; passes or fails nothing (non-zero only when a
# run fails). Usage: runner_overhead.sh BUILD_DIR [RANKS...]   (default ranks: 2 4)
# Environment: SIZES (1M,4M,16M,64M), ITERS (5), WARMUP (2), REPS (31), MPIRUN_ARGS.
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
    echo "== $np ranks, bare buffers allocated $placement"
    # shellcheck disable=SC2086
    mpirun --oversubscribe --bind-to none -np "$np" ${MPIRUN_ARGS:-} "$bin" --sizes "${SIZES:-1M,4M,16M,64M}" \
      --iters "${ITERS:-5}" --warmup "${WARMUP:-2}" --reps "${REPS:-31}" --bare-buffers "$placement" | tee -a "$out"
  done
done

# The summary lines of both placements ("SIZE RANKS pooled% per-rep% ..."), averaged per size and rank count.
echo
echo "# overhead with the buffer placement cancelled: mean of the two placements"
printf '%-8s %6s %10s %10s\n' size ranks pooled per-rep
awk '/^# overhead/ {summary = 1; next} /^# runner/ || /^==/ {summary = 0} summary && NF >= 4 && $2 ~ /^[0-9]+$/ {
       key = $1 " " $2; gsub("%", "", $3); gsub("%", "", $4)
       if (!(key in n)) order[++count] = key
       pooled[key] += $3; rep[key] += $4; n[key]++
     }
     END { for (i = 1; i <= count; i++) { k = order[i]; split(k, f, " ")
             printf "%-8s %6s %+9.2f%% %+9.2f%%\n", f[1], f[2], pooled[k] / n[k], rep[k] / n[k] } }' "$out"
