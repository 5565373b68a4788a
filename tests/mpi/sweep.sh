#!/usr/bin/env bash
# podperf sweep with mpirun on this machine (host backend, tiny sizes):
#  - the built-in host-smoke sweep: 4 points (NCCL_PROTO x two size ranges), each a fresh mpirun job
#    whose run.json records its sizes, its argv and its environment; the ranking table, sweep.json and
#    sweep.csv; --dry-run shows -x NAME for mpirun;
#  - a pair-test sweep whose first point fails: recorded with its exit code and output, the sweep goes
#    on to the second point (another op), exit 1;
#  - hostile values (shell metacharacters, quotes, a newline) in the environment and the arguments of
#    the points reach the launcher literally, as argv and environment, and no shell runs them;
#  - SIGTERM during a point: the job is stopped, the rest not run, sweep.json says interrupted, exit 3;
#  - a bad sweep file: exit 2 with file:line before anything runs.
source "$(dirname "$0")/lib.sh" "$1"
unset SLURM_JOB_ID SLURM_JOBID
export OMPI_MCA_rmaps_base_oversubscribe=1

# ---------------------------------------------------------------- host-smoke: 4 points, all ok
"$PODPERF" sweep host-smoke --dry-run --out "$WORK" --sweep-id dry >"$WORK/dry.out" 2>&1
rc=$?
expect_eq "dry run exit" "$rc" 0
expect_match "dry run: mpirun -np 4 with -x for the varied variable" "$(cat "$WORK/dry.out")" \
  "^  mpirun -np 4 --oversubscribe -x NCCL_PROTO /.*podperf collective .* -b 1K -e 4K --out $WORK/dry --run-id point-01-"
[[ ! -e "$WORK/dry" ]] && pass "dry run creates nothing" || fail "dry run created $WORK/dry"

timeout 200 "$PODPERF" sweep host-smoke --out "$WORK" --sweep-id smoke >"$WORK/smoke.out" 2>"$WORK/smoke.err"
rc=$?
expect_eq "host-smoke exit" "$rc" 0
[[ $rc -eq 0 ]] || { cat "$WORK/smoke.out" "$WORK/smoke.err"; }
expect_eq "progress: a start and an ok line per job (4 points x 2 repeats)" \
  "$(grep -Ec '^sweep \[[1-8]/8\] (start|ok    ) point-0[1-4]-.*-r[12]' "$WORK/smoke.err")" 16
expect_match "ranking table" "$(cat "$WORK/smoke.out")" "^all_reduce float 4K$"
expect_match "best setting per size" "$(cat "$WORK/smoke.out")" "^  all_reduce float     4K: #[1-4] NCCL_PROTO="
python3 - "$WORK/smoke" <<'EOF' && pass "host-smoke: sweep.json, sweep.csv and every point's run.json" || fail "host-smoke files"
import csv, json, os, sys
d = sys.argv[1]
s = json.load(open(os.path.join(d, "sweep.json")))
assert s["schema"] == "podperf.sweep" and s["status"] == "complete", s["status"]
assert s["launcher"]["kind"] == "mpirun", s["launcher"]
pts = s["points"]
assert s["repeats"] == 2 and s["schema_version"] == 2, (s["repeats"], s["schema_version"])
assert len(pts) == 8 and all(p["status"] == "ok" and p["exit_code"] == 0 for p in pts), pts
# Interleaved: each cycle of four jobs holds every point once, in the order sweep.json lists.
assert s["order"] == [p["name"] for p in pts], s["order"]
for c in range(2):
    cyc = pts[4 * c:4 * c + 4]
    assert sorted(p["index"] for p in cyc) == [1, 2, 3, 4] and all(p["repeat"] == c + 1 for p in cyc), cyc
    assert all(p["name"].endswith(f"-r{c + 1}") for p in cyc), [p["name"] for p in cyc]
want = [("LL", "1K", "4K"), ("LL", "4K", "16K"), ("Simple", "1K", "4K"), ("Simple", "4K", "16K")]
for p in pts:
    proto, lo, hi = want[p["index"] - 1]
    assert p["env"] == {"NCCL_PROTO": proto}, p["env"]
    run = json.load(open(os.path.join(p["run_dir"], "run.json")))
    argv = run["argv"]
    assert argv[1] == "collective" and argv[argv.index("-b") + 1] == lo and argv[argv.index("-e") + 1] == hi, argv
    assert argv[argv.index("--run-id") + 1] == p["name"] and run["run_id"] == p["name"], (argv, p["name"])
    assert run["ranks"] == 4 and run["backend"] == "host" and run["options"]["op"] == "all_reduce", run["options"]
    sizes = {1024: [1024, 4096], 4096: [4096, 16384]}[run["options"]["sizes_bytes"][0]]
    assert run["options"]["sizes_bytes"] == sizes, run["options"]["sizes_bytes"]
    env = [f["observed"] for f in run["findings"] if f["check"] == "signals.environment"]
    assert env and all(f"NCCL_PROTO={proto}" in e for e in env), env
    assert p["argv"][:3] == ["mpirun", "-np", "4"] and p["argv"][3:6] == ["--oversubscribe", "-x", "NCCL_PROTO"], p["argv"]
groups = {(g["op"], g["size_bytes"]): g for g in s["ranking"]}
assert sorted(groups) == [("all_reduce", 1024), ("all_reduce", 4096), ("all_reduce", 16384)], sorted(groups)
assert len(groups[("all_reduce", 4096)]["entries"]) == 4 and len(groups[("all_reduce", 1024)]["entries"]) == 2
for g in s["ranking"]:
    m = [e["median_busbw_gbps"] for e in g["entries"]]
    assert m == sorted(m, reverse=True) and all(x > 0 for x in m), m
    assert all(e["ci_low_gbps"] <= e["median_busbw_gbps"] <= e["ci_high_gbps"] and e["samples"] == 20
               and e["jobs"] == 2 and len(e["run_medians_gbps"]) == 2 for e in g["entries"]), g["entries"]
    assert g["method"] == "runs" and (g["p_adjusted"] >= 0 or len(g["entries"]) < 2), g
    assert g["best_point"] == g["entries"][0]["point"]
assert len(s["best"]) == 3
rows = list(csv.DictReader(open(os.path.join(d, "sweep.csv"), newline="")))
assert len(rows) == 2 + 4 + 2 and sum(r["best"] == "true" for r in rows) == 3, rows
assert open(os.path.join(d, "sweep.toml")).read().startswith("# podperf sweep host-smoke")
EOF

# ---------------------------------------------------------------- a failing point; the sweep goes on
cat >"$WORK/fail.toml" <<'EOF'
[sweep]
description = "a bad point, then a good one"
command = "pairs"
args = ["--backend", "host", "--virtual-nodes", "2", "-b", "1K", "-e", "1K", "-n", "5", "-w", "1"]
metric = "busbw"
repeats = 1
[launch]
np = 2
[[points]]
args = ["--no-such-option"]
[[points]]
env = { NCCL_ALGO = "Tree" }
op = "all_gather"
EOF
timeout 120 "$PODPERF" sweep "$WORK/fail.toml" --out "$WORK" --sweep-id fail >"$WORK/fail.out" 2>"$WORK/fail.err"
rc=$?
expect_eq "failing point: exit 1" "$rc" 1
expect_match "failing point: progress says FAILED with the exit code" "$(cat "$WORK/fail.err")" \
  '^sweep \[[12]/2\] FAILED point-01---no-such-option in [0-9.]+ s \(exit 2\)'
expect_match "failing point: listed under the ranking" "$(cat "$WORK/fail.out")" "#1 repeat 1 --no-such-option: failed \(exit 2\)"
python3 - "$WORK/fail/sweep.json" <<'EOF' && pass "failing point recorded, others ranked" || fail "failing point in sweep.json"
import json, sys
s = json.load(open(sys.argv[1]))
p = sorted(s["points"], key=lambda x: x["index"])
assert [x["status"] for x in p] == ["failed", "ok"], [x["status"] for x in p]
assert p[0]["exit_code"] == 2 and "no-such-option" in p[0]["error"], p[0]
assert [e["point"] for e in s["ranking"][0]["entries"]] == [2] and s["ranking"][0]["op"] == "all_gather"
assert s["status"] == "complete"
run = json.load(open(p[1]["run_dir"] + "/run.json"))
assert run["command"] == "pairs" and run["options"]["op"] == "all_gather" and len(run["nodes"]) == 2, run["options"]
assert all(x["op"] == "all_gather" for x in run["pairs"]) and len(run["pairs"]) == 1
EOF

# ---------------------------------------------------------------- hostile values, never through a shell
mkdir -p "$WORK/dump" "$WORK/victim"
touch "$WORK/victim/keep"
cat >"$WORK/dump.sh" <<'EOF'
#!/bin/sh
# The launcher of the hostile sweep: keeps its argv and environment, NUL-separated, and runs nothing.
n=$(ls "$DUMP_DIR" | grep -c argv)
printf '%s\0' "$@" >"$DUMP_DIR/$n.argv"
env -0 >"$DUMP_DIR/$n.env"
EOF
chmod +x "$WORK/dump.sh"
cat >"$WORK/hostile.toml" <<EOF
[sweep]
description = "hostile values"
command = "collective"
args = ["--backend", "host", "; rm -rf $WORK/victim"]
metric = "busbw"
repeats = 1
[launch]
argv = ["$WORK/dump.sh", "\$(touch $WORK/pwned)"]
[[points]]
env = { NCCL_ALGO = "; rm -rf $WORK/victim", FI_EFA_X = "\$(touch $WORK/pwned)", NCCL_Q = '"quoted" and \`touch $WORK/pwned\`' }
args = ["\`touch $WORK/pwned\`", "two\nlines", "a'b\"c", "&& touch $WORK/pwned", "*"]
[[points]]
env = { NCCL_PROTO = "| tee $WORK/pwned" }
EOF
DUMP_DIR=$WORK/dump timeout 60 "$PODPERF" sweep "$WORK/hostile.toml" --out "$WORK" --sweep-id hostile \
  >"$WORK/hostile.out" 2>&1
rc=$?
expect_eq "hostile: exit 1 (the dump launcher writes no run.json)" "$rc" 1
python3 - "$WORK" <<'EOF' && pass "hostile values arrive literally as argv and environment" || fail "hostile values"
import json, os, sys
w = sys.argv[1]
s = json.load(open(os.path.join(w, "hostile", "sweep.json")))
for i, p in enumerate(s["points"]):
    argv = open(os.path.join(w, "dump", f"{i}.argv"), "rb").read().decode().split("\0")[:-1]
    env = dict(e.split("=", 1) for e in open(os.path.join(w, "dump", f"{i}.env"), "rb").read().decode().split("\0")[:-1])
    # exactly the argument vector sweep.json recorded, minus the launcher program itself
    assert argv == p["argv"][1:], (argv, p["argv"])
    assert argv[0] == f"$(touch {w}/pwned)" and "; rm -rf " + w + "/victim" in argv, argv
    for k, v in p["env"].items():
        assert env[k] == v, (k, env.get(k), v)
pts = sorted(s["points"], key=lambda x: x["index"])
assert pts[0]["env"]["NCCL_Q"] == f'"quoted" and `touch {w}/pwned`'
args = pts[0]["argv"]
for a in [f"`touch {w}/pwned`", "two\nlines", "a'b\"c", f"&& touch {w}/pwned", "*"]:
    assert a in args, a
assert not os.path.exists(os.path.join(w, "pwned")), "a shell ran a value"
assert os.path.exists(os.path.join(w, "victim", "keep")), "a shell ran rm -rf"
# the point directories are file-name safe
assert all("/" not in p["name"] and " " not in p["name"] for p in pts), [p["name"] for p in pts]
EOF

# ---------------------------------------------------------------- SIGTERM during a point
printf '#!/bin/sh\nexec sleep 60\n' >"$WORK/slow.sh"
chmod +x "$WORK/slow.sh"
cat >"$WORK/slow.toml" <<EOF
[sweep]
description = "a slow launcher"
command = "collective"
args = []
metric = "busbw"
repeats = 1
[launch]
argv = ["$WORK/slow.sh"]
[vary.env]
NCCL_ALGO = ["Ring", "Tree"]
EOF
"$PODPERF" sweep "$WORK/slow.toml" --out "$WORK" --sweep-id slow >"$WORK/slow.out" 2>&1 &
pid=$!
for _ in $(seq 1 50); do grep -q "start point-0" "$WORK/slow.out" && break; sleep 0.1; done
kill -TERM "$pid"
wait "$pid"
rc=$?
expect_eq "SIGTERM: exit 3" "$rc" 3
python3 - "$WORK/slow/sweep.json" <<'EOF' && pass "SIGTERM: sweep.json interrupted, the rest not run" || fail "SIGTERM sweep.json"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["status"] == "interrupted", s["status"]
assert [p["status"] for p in s["points"]] == ["interrupted", "not_run"], [p["status"] for p in s["points"]]
assert s["points"][0]["duration_s"] < 30
EOF

# ---------------------------------------------------------------- bad sweep file
printf '[sweep]\ndescription = "d"\ncommand = "collective"\nargs = []\nmetric = "busbw"\nfoo = 1\n[vary]\nops = ["all_reduce"]\n' \
  >"$WORK/bad.toml"
"$PODPERF" sweep "$WORK/bad.toml" --out "$WORK" >"$WORK/bad.out" 2>&1
rc=$?
expect_eq "bad sweep file: exit 2" "$rc" 2
expect_match "bad sweep file: file:line and key" "$(cat "$WORK/bad.out")" "bad.toml:6: unknown key 'sweep.foo'"
"$PODPERF" sweep no-such-sweep >"$WORK/bad.out" 2>&1
expect_eq "unknown sweep name: exit 2" "$?" 2
expect_match "unknown sweep name lists the built-in ones" "$(cat "$WORK/bad.out")" "built in: efa, host-smoke, nccl-algo-proto"

finish
