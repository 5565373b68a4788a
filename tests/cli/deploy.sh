#!/usr/bin/env bash
# deploy/: the Kubernetes MPIJob parses (python3-yaml) and has the fields that matter (one image for the
# launcher and the workers, the node name from the downward API handed to the ranks' SSH sessions); the
# Containerfile takes an EFA-enabled base by a build argument and builds podperf with the scripts of
# docs/install.md; the sbatch scripts are valid bash, run podperf through srun --mpi=pmix with one task
# per GPU and the EFA variables, and request no GPUs (a cluster without GPU GRES refuses the request).
# (The sbatch scripts run for real with sbatch --wait in the cluster test, tests/cluster/run_pairs_test.sh.)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
fails=0
python3 - "$ROOT/deploy/k8s/podperf-mpijob.yaml" <<'PY' || fails=$((fails + 1))
import sys
import yaml
docs = list(yaml.safe_load_all(open(sys.argv[1])))
assert len(docs) == 1, "one document"
j = docs[0]
assert j["apiVersion"] == "kubeflow.org/v2beta1" and j["kind"] == "MPIJob", (j["apiVersion"], j["kind"])
spec = j["spec"]
slots = spec["slotsPerWorker"]
specs = spec["mpiReplicaSpecs"]
assert set(specs) == {"Launcher", "Worker"}, set(specs)
assert specs["Launcher"]["replicas"] == 1
launcher = specs["Launcher"]["template"]["spec"]["containers"][0]
cmd = launcher["command"] + launcher["args"]
assert cmd[0] == "/opt/amazon/openmpi/bin/mpirun" and "podperf" in cmd, ("mpirun by its absolute path (as --prefix)", cmd)
np = int(cmd[cmd.index("-np") + 1])
workers = specs["Worker"]["replicas"]
assert np == workers * slots, ("one rank per slot", np, workers, slots)
assert f"ppr:{slots}:node" in cmd, "ranks per node = slots"
forwarded = {cmd[i + 1] for i, a in enumerate(cmd) if a == "-x"}
env = {e["name"]: e["value"] for e in launcher["env"]}
assert env.get("FI_PROVIDER") == "efa" and env.get("FI_EFA_USE_DEVICE_RDMA") == "1", env
assert set(env) <= forwarded, ("every launcher variable forwarded with -x", set(env) - forwarded)
out = cmd[cmd.index("--out") + 1]
w = specs["Worker"]["template"]["spec"]
c = w["containers"][0]
assert "IPC_LOCK" in c["securityContext"]["capabilities"]["add"]
limits = c["resources"]["limits"]
assert int(limits["nvidia.com/gpu"]) == slots, ("one rank per GPU", limits)
assert int(limits["vpc.amazonaws.com/efa"]) > 0, limits
mounts = {m["mountPath"]: m["name"] for m in c["volumeMounts"]}
vols = {v["name"]: v for v in w["volumes"]}
assert vols[mounts["/dev/shm"]]["emptyDir"]["medium"] == "Memory", "memory-backed /dev/shm"
assert out in mounts and ("persistentVolumeClaim" in vols[mounts[out]]), ("results on a volume", out, mounts)
image = launcher["image"]
assert c["image"] == image, ("one image for the launcher and the workers", image, c["image"])
assert image.split(":")[0].endswith("/podperf"), ("the image docs/install.md builds: <registry>/podperf", image)
node = {e["name"]: e for e in c["env"]}["PODPERF_NODE_NAME"]
assert node["valueFrom"]["fieldRef"]["fieldPath"] == "spec.nodeName", node
sshd = c["command"] + c["args"]
assert sshd[0] == "/usr/sbin/sshd" and "-De" in sshd, sshd
assert "SetEnv=PODPERF_NODE_NAME=$(PODPERF_NODE_NAME)" in sshd, ("the ranks' SSH sessions get the node name", sshd)
print("deploy/k8s/podperf-mpijob.yaml: ok")
PY
python3 - "$ROOT" <<'PY' || fails=$((fails + 1))
import os
import re
import sys
root = sys.argv[1]
text = open(os.path.join(root, "deploy/k8s/Containerfile")).read()
lines = [l for l in text.splitlines() if l.strip() and not l.lstrip().startswith("#")]
assert lines[0] == "ARG BASE_IMAGE" and lines[1] == "FROM ${BASE_IMAGE}", ("the base image is a build argument, no default", lines[:2])
assert "openssh-server" in text and 'CMD ["/usr/sbin/sshd", "-De"]' in text, "an SSH server for the MPI Operator"
assert "libnccl-net" in text and "efa_installer.sh" in text, "aws-ofi-nccl, from the base or the EFA installer"
joined = re.sub(r"\\\n", " ", text)  # one line per instruction
build = [l for l in joined.splitlines() if "scripts/cluster_build.sh" in l]
assert len(build) == 1, "one RUN builds podperf"
assert "scripts/fetch_headers.sh /opt/podperf/deps" in build[0], "the header-only libraries as docs/install.md fetches them"
assert "MPI_HOME=/opt/amazon/openmpi" in build[0], "built by scripts/cluster_build.sh against the image's Open MPI"
for script in ("scripts/fetch_headers.sh", "scripts/cluster_build.sh"):
    assert os.access(os.path.join(root, script), os.X_OK), script + " is there and executable"
print("deploy/k8s/Containerfile: ok")
PY
for f in "$ROOT"/deploy/slurm/*.sbatch; do
  name=$(basename "$f")
  if ! bash -n "$f"; then echo "FAIL: $name is not valid bash"; fails=$((fails + 1)); continue; fi
  if grep -Eq '^#SBATCH +--(gpus|gres|gpus-per-node|gpus-per-task)' "$f"; then
    echo "FAIL: $name: requests GPUs in an #SBATCH line (a cluster without GPU GRES refuses the job)"; fails=$((fails + 1)); continue
  fi
  grep -q '^#SBATCH --ntasks-per-node=8$' "$f" && grep -q '^#SBATCH --exclusive$' "$f" &&
    grep -q 'export FI_PROVIDER=efa' "$f" && grep -q 'export FI_EFA_USE_DEVICE_RDMA=1' "$f" &&
    ! grep -q 'NCCL_DEBUG=' "$f" ||
    { echo "FAIL: $name: one task per GPU, whole nodes, EFA variables, NCCL_DEBUG left to podperf"; fails=$((fails + 1)); continue; }
  case $name in
    podperf-sweep.sbatch) grep -q '"$PODPERF" sweep ' "$f" ;;
    *) grep -q '^srun --mpi=pmix ' "$f" ;;
  esac || { echo "FAIL: $name: launch line"; fails=$((fails + 1)); continue; }
  echo "deploy/slurm/$name: ok"
done
echo "deploy: $fails failed"
[ "$fails" = 0 ]
