#!/usr/bin/env bash
# Read-only proof: full podperf runs under strace (-f, one log per process) on this machine:
# `podperf run` (host signals at start and end, pairs, the filesystem probes), `podperf collective`,
# `podperf fs --direct`, and `podperf signals`. check_trace.py asserts that every file
# opened for writing, created, renamed, truncated or removed lies in the results directory or the
# probe directory (Open MPI's own session directory and shared-memory segments are listed apart),
# that nothing under /proc or /sys was opened for writing, and that no other program ran and no
# process was forked. A control trace of a shell touching a file outside must be caught.
source "$(dirname "$0")/../mpi/lib.sh" "$1"
command -v strace >/dev/null || { echo "read_only: strace missing (scripts/setup.sh installs it)"; exit 1; }
BIN=$(readlink -f "$PODPERF")
mkdir -p "$WORK/data" "$WORK/res" "$WORK/mpitmp" "$WORK/trace"
export TMPDIR="$WORK/mpitmp"  # Open MPI's session directory goes here
cd "$WORK" || exit 1
# --seccomp-bpf: only the traced calls stop the process. Without it every syscall is a ptrace stop,
# and Open MPI's idle ranks (yield_when_idle: sched_yield in a loop) made one run take 2-5 minutes.
STRACE=(strace -f --seccomp-bpf -qq -y -e trace=%file,%process,%desc -e signal=none)
check() {  # check NAME TRACE_PREFIX EXTRA_ALLOW...
  local name=$1 prefix=$2
  shift 2
  local allow=(--allow "$WORK/res")
  for a in "$@"; do allow+=(--allow "$a"); done
  if /usr/bin/python3 "$TESTS_DIR/../readonly/check_trace.py" --podperf "$BIN" "${allow[@]}" \
    --mpi-allow "$WORK/mpitmp/ompi.*" --mpi-allow "/dev/shm/vader_segment.*" --mpi-allow "/dev/shm/open_mpi.*" \
    --cwd "$WORK" "$prefix".* >"$WORK/$name.check" 2>&1; then
    pass "$name: writes only in the results and probe directories ($(head -1 "$WORK/$name.check" | cut -c1-160)...)"
  else
    fail "$name: $(grep VIOLATION "$WORK/$name.check" | head -5)"
  fi
}

timeout 300 mpirun --oversubscribe -np 2 "${STRACE[@]}" -ff -o "$WORK/trace/run" "$BIN" run --virtual-nodes 2 \
  -b 1M -e 1M -n 3 -w 1 --fs-path "$WORK/data" --file-size 8M --meta-files 50 --ckpt-shard-size 4M --rand-ops 100 \
  --out "$WORK/res" --run-id run >"$WORK/run.out" 2>&1
rc=$?
if [[ $rc -le 1 ]]; then pass "run under strace: exit $rc"; else fail "run under strace: exit $rc: $(tail -3 "$WORK/run.out")"; fi
expect_eq "run: pairs and filesystem probes measured" "$(jq -c '[(.pairs | length) > 0, (.fs.probes | length)]' "$WORK/res/run/run.json")" "[true,9]"
expect_eq "run: host signals read" "$(jq '[.findings[] | select(.source == "signals")] | length > 0' "$WORK/res/run/run.json")" "true"
check run "$WORK/trace/run" "$WORK/data/podperf-run"

timeout 300 mpirun --oversubscribe -np 2 "${STRACE[@]}" -ff -o "$WORK/trace/coll" "$BIN" collective --op all \
  -b 1K -e 64K -f 8 -n 2 -w 1 --out "$WORK/res" --run-id coll >"$WORK/coll.out" 2>&1
expect_eq "collective under strace: exit 0" "$?" "0"
check collective "$WORK/trace/coll"

# podperf fs alone with O_DIRECT (its own open flags and cleanup).
timeout 300 mpirun --oversubscribe -np 2 "${STRACE[@]}" -ff -o "$WORK/trace/fsbad" "$BIN" fs --path "$WORK/data" \
  --probes seq-write,seq-read --file-size 4M --direct --out "$WORK/res" --run-id fsbad >"$WORK/fsbad.out" 2>&1
rc=$?
if [[ $rc -eq 0 || $rc -eq 3 ]]; then pass "fs --direct under strace: exit $rc"; else fail "fs --direct: exit $rc"; fi
check fs "$WORK/trace/fsbad" "$WORK/data/podperf-fsbad"
expect_eq "fs: nothing left in the probe path" "$(ls -A "$WORK/data" | wc -l)" "0"

"${STRACE[@]}" -ff -o "$WORK/trace/signals" "$BIN" signals --sample 0.2 >"$WORK/signals.out" 2>&1
expect_eq "signals under strace: exit 0" "$?" "0"
check signals "$WORK/trace/signals"

# Control: the checker catches a write outside and another program.
strace -f -qq -y -ff -o "$WORK/trace/control" sh -c "echo x > '$WORK/outside'" 2>/dev/null
if /usr/bin/python3 "$TESTS_DIR/../readonly/check_trace.py" --podperf "$BIN" --allow "$WORK/res" --cwd "$WORK" \
  "$WORK"/trace/control.* >"$WORK/control.check" 2>&1; then
  fail "control: a shell writing $WORK/outside was not caught"
else
  expect_match "control: the write outside is caught" "$(cat "$WORK/control.check")" "outside the allowed directories: $WORK/outside"
  expect_match "control: the other program is caught" "$(cat "$WORK/control.check")" "executed /(usr/)?bin/sh"
fi
finish
