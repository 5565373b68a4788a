#!/usr/bin/env bash
# podperf triage on a generated multi-GiB job log: wall time, CPU time, throughput and peak resident
# memory (issue 15: a 2 GiB log in under 1 GiB of RSS and at least 100 MB/s). Measures only; exits
# non-zero only when a tool fails to run.
# Usage: tests/perf/triage_throughput.sh PODPERF_BINARY [MIB] [WORK_DIR]
#   MIB (default 2048): size of the generated log; WORK_DIR (default /var/tmp): where it is written
#   (removed afterwards). The log interleaves 8 ranks of 2 hosts under srun -l, mpirun and timestamp
#   wrappers: NCCL INFO transport lines, NET/OFI lines, channel lines, application lines, and every
#   ~64 KiB a WARN or return chain, so the pattern table and the transport reader both run on it.
set -euo pipefail
podperf=${1:?usage: $0 PODPERF_BINARY [MIB] [WORK_DIR]}
mib=${2:-2048}
work=$(mktemp -d "${3:-/var/tmp}/podperf-triage-perf.XXXXXX")
trap 'rm -rf "$work"' EXIT
log="$work/job.log"
python3 - "$log" "$mib" <<'PY'
import sys
path, mib = sys.argv[1], int(sys.argv[2])
block = []
for i in range(400):
    r = i % 8
    host = "p5-node-%d" % (r // 4)
    pre = ["%d: " % r, "[1,%d]<stdout>:" % r, "[2026-11-30 10:%02d:%02d] " % (i // 60 % 60, i % 60), ""][i % 4]
    nccl = "%s:%d:%d [%d] NCCL INFO " % (host, 4000 + r, 4100 + r, r % 4)
    k = i % 10
    if k == 0:
        block.append(pre + nccl + "Channel %02d/0 : %d[%d] -> %d[%d] [send] via NET/Libfabric/%d/GDRDMA" % (i % 32, r, r % 4, (r + 4) % 8, r % 4, r % 32))
    elif k == 1:
        block.append(pre + nccl + "NET/OFI Selected provider is efa, fabric is efa-direct (found 32 nics)")
    elif k == 2:
        block.append(pre + nccl + "Channel %02d/0 : %d[%d] -> %d[%d] via P2P/CUMEM/read" % (i % 32, r, r % 4, (r + 1) % 8, (r + 1) % 4))
    elif k == 3:
        block.append(pre + "step %d loss 2.%04d lr 3.0e-4 tokens/s 118234 grad_norm 0.91" % (i, i))
    elif k == 4:
        block.append(pre + nccl + "comm 0x7f%x rank %d nRanks 8 nNodes 2 localRanks 4 localRank %d MNNVL 0" % (i, r, r % 4))
    elif k == 5:
        block.append(pre + "[rank%d]: iteration %d/100000 | consumed samples %d | elapsed time per iteration (ms): 812.3" % (r, i, i * 512))
    elif k == 6:
        block.append(pre + nccl + "32 coll channels, 32 collnet channels, 0 nvls channels, 32 p2p channels, 32 p2p channels per peer")
    elif k == 7:
        block.append(pre + "WARNING: some framework warning that is not NCCL's, number %d" % i)
    elif k == 8:
        block.append(pre + nccl + "NCCL_PROTO set by environment to Simple")
    else:
        block.append(pre + nccl + "Connected all rings, use ring PXN 0 GDR 1")
text = ("\n".join(block) + "\n").encode()
rare = (b"p5-node-1:4005:4105 [1] transport/net.cc:1302 NCCL INFO transport/net.cc:1302 -> 6\n"
        b"[2026-11-30 10:00:00] p5-node-1:4005:4105 [1] misc/socket.cc:49 NCCL WARN socketProgress: Connection "
        b"closed by remote peer p5-node-0<5000>\n")
target = mib << 20
with open(path, "wb", buffering=1 << 22) as out:
    written = 0
    chunk = text * max(1, (1 << 16) // len(text)) + rare
    while written < target:
        out.write(chunk)
        written += len(chunk)
PY
bytes=$(stat -c %s "$log")
sync
# Read once to warm the page cache: the measurement is of podperf, not of the disk.
cat "$log" >/dev/null
/usr/bin/time -f '%e %U %S %M' -o "$work/time" "$podperf" triage --json "$log" >"$work/out.json" || rc=$?
read -r wall user sys rss_kib < <(tail -1 "$work/time")
awk -v b="$bytes" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss_kib" -v v="$(jq -r .verdict "$work/out.json")" 'BEGIN {
  printf "log %.0f MiB; wall %.2f s (user %.2f, sys %.2f); %.0f MB/s wall, %.0f MB/s per CPU second; peak RSS %.1f MiB; verdict %s\n",
    b / 1048576, w, u, s, b / 1e6 / w, b / 1e6 / (u + s), r / 1024, v }'
