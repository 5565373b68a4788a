#!/usr/bin/env bash
# Installs what podperf needs to build and test, from Debian 12 packages. Idempotent: installs only
# what is missing (apt-get update runs only then). Needs root (or sudo).
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  # scripts/build.sh builds with Ninja where it is installed (faster than Make); help2man writes the man
  # page from --help (the podperf_man target, built by scripts/build.sh all)
  ninja-build help2man
  openmpi-bin libopenmpi-dev
  libfmt-dev nlohmann-json3-dev libcli11-dev libtomlplusplus-dev
  # podperf triage reads .gz logs through zlib
  zlib1g-dev
  # analysis/stats: Student's t, the noncentral t, F and the gamma-family functions (Boost.Math, header-only)
  libboost-math-dev
  # libfabric: <rdma/fabric.h> for types only (libfabric.so.1 is dlopened at run time, never linked)
  libfabric-dev
  libgtest-dev libbenchmark-dev
  # tests: JSON schema checks, the namespaced multi-host cluster (Slurm + munge + PMIx)
  jq python3 python3-jsonschema
  # tests: cli.deploy parses the Kubernetes MPIJob of deploy/k8s
  python3-yaml
  slurm-wlm slurm-client munge libpmix2 iproute2 util-linux procps
  # tests/readonly: the read-only proof traces podperf's system calls
  strace
  # the sanitizer and fuzz build (scripts/test_hardening.sh): clang with libFuzzer, ASan and UBSan
  clang
  # tests: cli.report_browser renders the HTML report in headless Chromium
  chromium
  # benchmarks: tests/perf/fs_vs_fio.sh compares podperf fs with fio
  fio
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
echo "setup: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
