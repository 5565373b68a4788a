#!/usr/bin/env bash
# podperf fs against fio on the same filesystem, same patterns, same semantics; prints both and the
# ratio podperf/fio. A benchmark, not a test: it never fails on numbers (see README.md here).
#
# Usage: tests/perf/fs_vs_fio.sh PODPERF_BINARY [DIR] [SIZE]
#   DIR   directory on the filesystem to measure (default: a fresh mktemp -d under /var/tmp, a disk)
#   SIZE  bytes per file, K/M/G binary suffixes as both tools read them (default 1G)
# Environment: REPS (3) repetitions per case, tools alternating, median reported; RAND_OPS (5000)
# random 4K reads; JOBS (1) fio numjobs = podperf ranks (each its own file; aggregate bandwidth);
# MPIRUN_ARGS ("--bind-to none": fio's jobs are not pinned either; mpirun pins 1-2 ranks to a core by
# default, which on a busy machine changes the wakeup latency of every I/O); SETTLE_S (1) pause after
# `sync -f` before every timed run.
#
# Cases (1M blocks unless said; psync = one pread/pwrite per block, queue depth 1, like podperf):
#   seq-write buffered: open a new file, pwrite, fsync, close; fio --end_fsync=1 (fio counts the
#                       end fsync in the job runtime, backend.c do_io), podperf fsyncs inside its timing
#   seq-write direct:   O_DIRECT, fsync at the end on both sides (cheap: nothing dirty but metadata)
#   seq-read direct:    O_DIRECT read of the file written before; fio invalidate=1 and podperf both
#                       drop the file's cached pages first (posix_fadvise DONTNEED)
#   rand-read direct:   RAND_OPS preads of 4K at uniform random aligned offsets (with replacement:
#                       fio --norandommap), IOPS and per-call latency percentiles
# Both tools create a fresh file per write (fio --create_on_open=1 --fallocate=none: no preallocation
# outside the timed region, as podperf's open(O_CREAT|O_TRUNC)).
set -euo pipefail

usage() { echo "usage: $0 PODPERF_BINARY [DIR] [SIZE]" >&2; exit 2; }
[[ $# -ge 1 && $# -le 3 ]] || usage
PODPERF=$(realpath "$1")
[[ -x "$PODPERF" ]] || { echo "$0: $1 is not an executable" >&2; exit 2; }
for tool in fio jq mpirun numfmt; do
  command -v "$tool" >/dev/null || { echo "$0: needs $tool (scripts/setup.sh installs it)" >&2; exit 2; }
done
SIZE_BYTES=$(numfmt --from=iec "${3:-1G}")
REPS=${REPS:-3}
RAND_OPS=${RAND_OPS:-5000}
JOBS=${JOBS:-1}
SETTLE_S=${SETTLE_S:-1}
read -r -a MPIRUN_ARGS <<<"${MPIRUN_ARGS:---bind-to none}"

# Everything this script creates lives in $DIR/fs-vs-fio.* (or the whole $DIR when it made it) and in
# a scratch directory for results; both go on exit, whatever the exit.
SCRATCH=$(mktemp -d /tmp/fs-vs-fio.XXXXXX)
if [[ $# -ge 2 ]]; then
  [[ -d "$2" && -w "$2" ]] || { echo "$0: $2 is not a writable directory" >&2; exit 2; }
  DIR=$(mktemp -d "$(realpath "$2")/fs-vs-fio.XXXXXX")
else
  DIR=$(mktemp -d /var/tmp/fs-vs-fio.XXXXXX)
fi
trap 'rm -rf "$DIR" "$SCRATCH"' EXIT

# mpirun on this machine, as tests/mpi/lib.sh sets it up.
export OMPI_MCA_mpi_yield_when_idle=1 OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=lo \
  OMPI_MCA_oob_tcp_if_include=lo
if [[ $(id -u) -eq 0 ]]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi

FIO_COMMON=(--ioengine=psync --iodepth=1 --size="$SIZE_BYTES" --numjobs="$JOBS" --group_reporting
  --output-format=json)
# Before every timed run: commit what the filesystem still has pending (the journal, and with it the
# discards of files just deleted on a `-o discard` mount, which otherwise land in the next run's fsync)
# and let the device go idle. Both tools get the same.
settle() { sync -f "$DIR"; sleep "$SETTLE_S"; }

declare -A RESULT  # RESULT[tool/metric] = space-separated values, one per repetition

add() { RESULT[$1]="${RESULT[$1]:-} $2"; }

run_fio() {  # run_fio NAME ARGS... ; JSON to $SCRATCH/NAME.json, the command line to $SCRATCH/fio.cmds
  local name=$1
  shift
  settle
  echo "fio --name=$name --directory=$DIR ${FIO_COMMON[*]} $*" >>"$SCRATCH/fio.cmds"
  fio --name="$name" --directory="$DIR" "${FIO_COMMON[@]}" "$@" >"$SCRATCH/$name.json" 2>"$SCRATCH/$name.err" ||
    { echo "$0: fio $name failed:" >&2; cat "$SCRATCH/$name.err" >&2; exit 1; }
}

fio_rep() {
  rm -f "$DIR"/fio.*
  # 1. buffered write, fsync at the end inside the timing
  run_fio fio.bw --rw=write --bs=1M --direct=0 --end_fsync=1 --create_on_open=1 --fallocate=none
  add fio/seqw_buf "$(jq '.jobs[0].write.bw_bytes / 1e6' "$SCRATCH/fio.bw.json")"
  rm -f "$DIR"/fio.*
  # 2. direct write (a fresh file again); it is also the file the reads below read
  run_fio fio.dio --rw=write --bs=1M --direct=1 --end_fsync=1 --create_on_open=1 --fallocate=none
  add fio/seqw_dir "$(jq '.jobs[0].write.bw_bytes / 1e6' "$SCRATCH/fio.dio.json")"
  # 3. direct sequential read of that file (same job name: same file names); invalidate=1 is the default
  run_fio fio.dio --rw=read --bs=1M --direct=1 --invalidate=1
  add fio/seqr_dir "$(jq '.jobs[0].read.bw_bytes / 1e6' "$SCRATCH/fio.dio.json")"
  # 4. random 4K reads of it
  run_fio fio.dio --rw=randread --bs=4k --direct=1 --invalidate=1 --number_ios="$RAND_OPS" --norandommap \
    --percentile_list=50:90:99:99.9
  local j="$SCRATCH/fio.dio.json"
  add fio/rand_iops "$(jq '.jobs[0].read.iops' "$j")"
  add fio/rand_p50 "$(jq '.jobs[0].read.clat_ns.percentile["50.000000"] / 1000' "$j")"
  add fio/rand_p99 "$(jq '.jobs[0].read.clat_ns.percentile["99.000000"] / 1000' "$j")"
  rm -f "$DIR"/fio.*
}

run_podperf() {  # run_podperf RUN_ID ARGS... ; run.json at $SCRATCH/pp/RUN_ID/run.json
  local id=$1
  shift
  local cmd=(mpirun --oversubscribe "${MPIRUN_ARGS[@]}" -np "$JOBS" "$PODPERF" fs --path "$DIR" --file-size "$SIZE_BYTES" --block-size 1M
    --out "$SCRATCH/pp" --run-id "$id" "$@")
  echo "${cmd[*]}" >>"$SCRATCH/podperf.cmds"
  local rc=0
  settle
  timeout 600 "${cmd[@]}" >"$SCRATCH/$id.out" 2>&1 || rc=$?
  # 0, or 1 when the analysis flagged a node: the numbers are there either way.
  if [[ $rc -gt 1 ]] || [[ $(jq '[.fs.probes[] | select(.status != "ok")] | length' "$SCRATCH/pp/$id/run.json") != 0 ]]; then
    echo "$0: podperf $id failed (exit $rc):" >&2
    cat "$SCRATCH/$id.out" >&2
    exit 1
  fi
}

pp() { jq ".fs.probes[] | select(.probe == \"$2\") | .$3" "$SCRATCH/pp/$1/run.json"; }

podperf_rep() {
  local rep=$1
  run_podperf "buf$rep" --probes seq-write
  add podperf/seqw_buf "$(pp "buf$rep" seq-write mb_per_s)"
  run_podperf "dio$rep" --probes seq-write,seq-read,rand-read --direct --rand-block-size 4K --rand-ops "$RAND_OPS"
  add podperf/seqw_dir "$(pp "dio$rep" seq-write mb_per_s)"
  add podperf/seqr_dir "$(pp "dio$rep" seq-read mb_per_s)"
  add podperf/rand_iops "$(pp "dio$rep" rand-read ops_per_s)"
  add podperf/rand_p50 "$(pp "dio$rep" rand-read lat_p50_us)"
  add podperf/rand_p99 "$(pp "dio$rep" rand-read lat_p99_us)"
}

median() { tr ' ' '\n' <<<"$1" | grep . | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
spread() { tr ' ' '\n' <<<"$1" | grep . | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.0f-%.0f", lo, hi }'; }

echo "fs_vs_fio: $(fio --version), podperf $PODPERF; dir $DIR ($(findmnt -no FSTYPE -T "$DIR"))," \
  "$(numfmt --to=iec "$SIZE_BYTES") per file, $JOBS job(s)/rank(s), $REPS repetitions, $RAND_OPS random reads" >&2
start=$SECONDS
for ((rep = 1; rep <= REPS; rep++)); do
  # Alternate which tool goes first: a disk that slows down (or warms up) over the run hits both.
  if ((rep % 2)); then fio_rep; podperf_rep "$rep"; else podperf_rep "$rep"; fio_rep; fi
  echo "fs_vs_fio: repetition $rep of $REPS done ($((SECONDS - start)) s)" >&2
done

row() {  # row CASE METRIC UNIT
  local f p
  f=$(median "${RESULT[fio/$2]}")
  p=$(median "${RESULT[podperf/$2]}")
  printf '%-22s %10.1f %10.1f %7.3f   %-6s fio %s, podperf %s\n' "$1" "$f" "$p" "$(awk -v a="$p" -v b="$f" 'BEGIN { print a / b }')" \
    "$3" "$(spread "${RESULT[fio/$2]}")" "$(spread "${RESULT[podperf/$2]}")"
}
echo
printf '%-22s %10s %10s %7s   %-6s %s\n' "case (median of $REPS)" fio podperf pp/fio unit "range over repetitions"
row "seq-write 1M buffered" seqw_buf MB/s
row "seq-write 1M direct" seqw_dir MB/s
row "seq-read 1M direct" seqr_dir MB/s
row "rand-read 4K direct" rand_iops IOPS
row "  latency p50" rand_p50 us
row "  latency p99" rand_p99 us
echo
echo "MB/s = 10^6 bytes/s; writes include the final fsync for both tools (fio end_fsync=1); fio's runtime is"
echo "whole milliseconds, its latency percentiles histogram buckets (~1-2% wide); podperf's are exact samples."
echo "Commands (last repetition):"
tail -n 4 "$SCRATCH/fio.cmds" | sed 's/^/  /'
tail -n 2 "$SCRATCH/podperf.cmds" | sed 's/^/  /'
