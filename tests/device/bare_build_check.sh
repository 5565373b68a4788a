#!/usr/bin/env bash
# Proves tests/device/run.sh's bare-machine build end to end on a machine without a GPU: in a private
# mount namespace, /usr is overlaid and every file of the packages a bare GPU machine lacks is removed
# from the overlay (Open MPI and its libraries, fmt, toml++, nlohmann/json, CLI11, zlib's and
# libfabric's development files, GoogleTest, jq, help2man, and every other -dev package but the C and
# C++ runtime's), so only the toolchain, CMake, Ninja, Python and /usr/local/cuda remain; then, with
# the prefix of tests/device/fetch_deps.sh, it runs `tests/device/run.sh --no-gpu` (the full build
# through scripts/cluster_build.sh, podperf --version, a one-rank host-backend run), loads NCCL (the
# pip wheel's with --nccl-venv) and sees --backend nccl refuse cleanly without a GPU, and checks what
# travels to a GPU machine: podperf's load-time libraries (ldd), the files brought back from $OUT (at
# most 8, 16 MiB each, 2 folders deep) and the working tree plus the prefix (at most 64 MiB). The system itself is
# never changed: the removals are whiteouts in a tmpfs, seen only inside the namespace.
#
#   tests/device/bare_build_check.sh [--deps DIR] [--nccl-venv DIR] [--bare-only | --run CMD...] [BUILD_DIR]
#
#   BUILD_DIR     default build-bare in the repository
#   --nccl-venv   a Python virtualenv with the nvidia-nccl-cu13 wheel (python3 -m venv DIR; DIR/bin/pip
#                 install nvidia-nccl-cu13): the toolkit's own libnccl is then removed too, and podperf
#                 must find the wheel's by itself (VIRTUAL_ENV), as on a bare GPU machine
#   --bare-only   set up the bare machine and check it, then stop (seconds: no build)
#   --run CMD...  set up the bare machine, then run CMD there (the rest of the line) and stop: to look
#                 around (the prefix's environment, as run.sh sets it, is exported)
#
# Needs root, unshare and overlayfs (exit 77, skipped, without them) and the prefix (run
# tests/device/fetch_deps.sh first). A full build: 10 to 30 minutes on 2 cores, so not part of CI;
# tests/cli/device_dry_run.sh checks run.sh's logic there. Prints PASS/FAIL lines and a count.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
self=$root/tests/device/bare_build_check.sh
deps=$root/tests/device/deps
build=$root/build-bare
inside=0
bare_only=0
then=()
nccl_venv=
work=
while [[ $# -gt 0 ]]; do
  case $1 in
    --deps) deps=$2; shift ;;
    --nccl-venv) nccl_venv=$(cd "$2" && pwd); shift ;;
    --bare-only) bare_only=1 ;;
    --run) shift; then=("$@"); break ;;
    --inside) inside=1; work=$2; shift ;;  # internal: the second stage, in the namespace
    -*) echo "bare_build_check: unknown option $1" >&2; exit 2 ;;
    *) build=$1 ;;
  esac
  shift
done

# Packages a bare GPU machine does not have: what the prefix brings, the tests' tools, and every -dev
# package except the C and C++ runtime's (build-essential's).
bare_removed_packages() {
  local keep='^(libc6-dev|libc-dev-bin|linux-libc-dev|libcrypt-dev|libnsl-dev|libtirpc-dev|libstdc\+\+-[0-9]+-dev|libgcc-[0-9]+-dev|dpkg-dev)$'
  {
    printf '%s\n' libopenmpi3 openmpi-bin openmpi-common libfmt9 libtomlplusplus3 libfabric1 libpmix2 libhwloc15 \
      libhwloc-plugins libucx0 libpsm2-2 libevent-core-2.1-7 libevent-pthreads-2.1-7 libevent-2.1-7 \
      libevent-extra-2.1-7 libevent-openssl-2.1-7 jq libjq1 help2man mpi-default-bin mpi-default-dev
    dpkg-query -W -f='${Package}\n' | grep -- '-dev$' | grep -Ev "$keep"
  } | sort -u | while read -r p; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" && echo "$p"
  done
  return 0
}

if [[ $inside -eq 0 ]]; then
  if [[ $(id -u) -ne 0 ]] || ! command -v unshare >/dev/null || ! grep -qw overlay /proc/filesystems; then
    echo "bare_build_check: needs root, unshare and overlayfs: skipped"
    exit 77
  fi
  if [[ ! -d $deps/usr ]]; then
    echo "bare_build_check: no prefix $deps: run tests/device/fetch_deps.sh first" >&2
    exit 2
  fi
  deps=$(cd "$deps" && pwd)
  work=$(mktemp -d /tmp/podperf-bare.XXXXXX)
  bare_removed_packages >"$work/packages"
  # shellcheck disable=SC2046  # one argument per package
  dpkg -L $(cat "$work/packages") 2>/dev/null | sort -u >"$work/files"
  echo "bare_build_check: hiding $(wc -l <"$work/packages") packages ($(wc -l <"$work/files") paths)"
  set +e
  flags=(--deps "$deps")
  [[ -n $nccl_venv ]] && flags+=(--nccl-venv "$nccl_venv")
  [[ $bare_only -eq 1 ]] && flags+=(--bare-only)
  flags+=("$build")
  [[ ${#then[@]} -gt 0 ]] && flags+=(--run "${then[@]}")
  unshare --mount --propagation private bash "$self" --inside "$work" "${flags[@]}"
  rc=$?
  set -e
  rm -rf "$work"
  exit $rc
fi

# Second stage, in the private mount namespace.
PASSED=0
FAILED=0
pass() { echo "PASS: $*"; PASSED=$((PASSED + 1)); }
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }
finish() {
  echo "bare_build_check: $PASSED passed, $FAILED failed"
  [[ $FAILED -eq 0 ]]
  exit
}
# Never remove a file unless /usr is the overlay of this namespace (not the host's mount namespace).
if [[ $(readlink /proc/self/ns/mnt) == "$(readlink /proc/1/ns/mnt)" ]]; then
  echo "bare_build_check: not in a private mount namespace: refusing" >&2
  exit 2
fi
mkdir -p "$work/ovl"
mount -t tmpfs tmpfs "$work/ovl"
mkdir -p "$work/ovl/upper" "$work/ovl/work"
mount -t overlay overlay -o "lowerdir=/usr,upperdir=$work/ovl/upper,workdir=$work/ovl/work" /usr
if [[ $(findmnt -n -o FSTYPE /usr) != overlay ]]; then
  echo "bare_build_check: /usr is not the overlay: refusing" >&2
  exit 2
fi
# Only paths inside /usr (the overlay; /lib and /bin are /usr's on a merged-/usr system); the packages'
# files under /etc stay (/etc/openmpi is hidden below by a tmpfs). Files first, then the directories
# left empty, then links left dangling (the alternatives: /usr/bin/mpicc -> /etc/alternatives/mpi ->
# mpicc.openmpi).
python3 - "$work/files" <<'PY'
import os, sys
paths = [line.rstrip("\n") for line in open(sys.argv[1]) if line.startswith("/")]
inside = []
for p in paths:
    parent = os.path.realpath(os.path.dirname(p))
    if parent == "/usr" or parent.startswith("/usr/"):
        inside.append(os.path.join(parent, os.path.basename(p)))
for p in inside:
    if os.path.islink(p) or (os.path.exists(p) and not os.path.isdir(p)):
        os.remove(p)
for p in sorted(inside, reverse=True):
    if os.path.isdir(p) and not os.path.islink(p) and not os.listdir(p):
        os.rmdir(p)
PY
find /usr/bin /usr/lib/x86_64-linux-gnu -maxdepth 1 -xtype l -delete 2>/dev/null || true
[[ -d /etc/openmpi ]] && mount -t tmpfs tmpfs /etc/openmpi
# With a wheel to find, the toolkit's NCCL goes too (a bare GPU machine has only the wheel's).
if [[ -n $nccl_venv ]]; then
  find /usr/local/cuda*/ -name 'libnccl*' \( -type f -o -type l \) -delete 2>/dev/null || true
fi

echo "== the bare machine"
for tool in mpicc mpicxx mpirun mpiexec orted jq help2man; do
  if command -v "$tool" >/dev/null; then fail "$tool is still on PATH: $(command -v "$tool")"; fi
done
gone=(/usr/include/fmt /usr/include/toml++ /usr/include/nlohmann /usr/include/CLI /usr/include/zlib.h
  /usr/include/rdma/fabric.h /usr/include/gtest /usr/lib/x86_64-linux-gnu/openmpi /usr/lib/x86_64-linux-gnu/libmpi.so.40
  /usr/lib/x86_64-linux-gnu/libmpi_cxx.so.40 /usr/lib/x86_64-linux-gnu/libfmt.so.9 /usr/lib/x86_64-linux-gnu/libtomlplusplus.so.3
  /usr/lib/x86_64-linux-gnu/libz.so /usr/lib/x86_64-linux-gnu/cmake/fmt /usr/lib/x86_64-linux-gnu/cmake/tomlplusplus
  /usr/share/cmake/CLI11 /usr/share/cmake/nlohmann_json)
left=()
for p in "${gone[@]}"; do [[ -e $p ]] && left+=("$p"); done
if [[ ${#left[@]} -eq 0 ]]; then pass "no Open MPI, fmt, toml++, json, CLI11, zlib/libfabric headers, jq"; else fail "still there: ${left[*]}"; fi
for tool in cmake ninja g++ python3 /usr/local/cuda/bin/nvcc; do
  command -v "$tool" >/dev/null || fail "$tool missing: not even a bare GPU machine"
done
echo "tools: $(cmake --version | head -1), ninja $(ninja --version), $(g++ --version | head -1), $(/usr/local/cuda/bin/nvcc --version | tail -1)"
[[ $bare_only -eq 1 ]] && finish
# The relocated Debian Open MPI's environment, as run.sh sets it (run.sh explains each variable).
export OPAL_PREFIX=$deps/usr PMIX_MCA_mca_base_component_path=$deps/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix
export LD_LIBRARY_PATH=$deps/usr/lib/x86_64-linux-gnu:$deps/usr/lib/x86_64-linux-gnu/openmpi/lib
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader,tcp
if [[ ${#then[@]} -gt 0 ]]; then
  set +e
  "${then[@]}"
  exit $?
fi

echo "== tests/device/run.sh --no-gpu (build, --version, one rank on the host backend)"
out=$work/out
mkdir -p "$out"
start=$(date +%s)
set +e
OUT=$out nice bash "$root/tests/device/run.sh" --no-gpu --deps "$deps" "$build" >"$work/run.log" 2>&1
rc=$?
set -e
elapsed=$(($(date +%s) - start))
grep -E '^(\+ cmake|podperf |device:|-- podperf:|needed|PASS|FAIL)' "$work/run.log" | sed 's/^/  | /'
if [[ $rc -eq 0 ]]; then
  pass "run.sh --no-gpu: exit 0 in ${elapsed} s"
else
  fail "run.sh --no-gpu: exit $rc after ${elapsed} s: $(tail -5 "$work/run.log" | tr '\n' ' ')"
  finish
fi
version=$("$build/podperf" --version 2>&1) && pass "podperf --version: $version" || fail "podperf --version: $version"
grep -q 'NCCL backend ON' "$work/run.log" && pass "configured with the NCCL backend" || fail "NCCL backend not built"

echo "== load-time libraries"
readelf -d "$build/podperf" | grep -E 'NEEDED|RUNPATH' | sed 's/^/  | /'
ldd "$build/podperf" >"$work/ldd"
sed 's/^/  | /' "$work/ldd"
# podperf's own: MPI's C library from the prefix, zlib and the C/C++ runtime (needed_libs.sh checks the
# names); the rest must be MPI's: in the prefix, or needed by a library of the prefix (hwloc's libudev).
prefix_needs=$(find "$deps/usr/lib" -name '*.so*' -type f -exec readelf -d {} + 2>/dev/null |
  sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u)
unexpected=()
while read -r name _ path _; do
  case $name in
    linux-vdso.so.*|/lib64/ld-linux*|libc.so.6|libm.so.6|libgcc_s.so.1|libstdc++.so.6|libz.so.1|libdl.so.2|libpthread.so.0|librt.so.1) continue ;;
  esac
  [[ $path == "$deps"/* ]] && continue
  grep -qx "$name" <<<"$prefix_needs" && continue
  unexpected+=("$name => $path")
done <"$work/ldd"
if grep -q "^\s*libmpi\.so\.40 => $deps/" "$work/ldd" && [[ ${#unexpected[@]} -eq 0 ]]; then
  pass "ldd: the prefix's MPI (and what it loads), zlib and the C/C++ runtime only"
else
  fail "ldd: ${unexpected[*]:-no libmpi.so.40 from $deps}"
fi
if grep -q 'not found' "$work/ldd"; then fail "ldd: a library not found"; fi

echo "== NCCL without a GPU"
# podperf loads NCCL only once a GPU is seen (--backend nccl refuses first without one), so the library
# is loaded here by `podperf signals` (dlopen, ncclGetVersion): the wheel's with --nccl-venv, else the
# toolkit's.
if [[ -n $nccl_venv ]]; then
  ls /usr/local/cuda*/lib*/libnccl.so* >/dev/null 2>&1 && fail "the toolkit's libnccl is still there"
  nccl_lib=$(find "$nccl_venv" -name libnccl.so.2 | head -1)
else
  nccl_lib=$(ls /usr/local/cuda/lib64/libnccl.so.2 2>/dev/null || true)
fi
if [[ -n $nccl_lib ]]; then
  version=$(PODPERF_NCCL_LIBRARY=$nccl_lib "$build/podperf" signals 2>&1 | grep 'signals.nccl_version' || true)
  echo "  | $nccl_lib: $version"
  if grep -q 'NCCL 2\.' <<<"$version"; then pass "podperf loads $nccl_lib: $(grep -o 'NCCL 2[.0-9]*' <<<"$version")"; else fail "NCCL did not load: $version"; fi
else
  fail "no libnccl.so.2 to load (--nccl-venv: a virtualenv with nvidia-nccl-cu13)"
fi
set +e
VIRTUAL_ENV=$nccl_venv "$build/podperf" collective --backend nccl --op all_reduce -b 8 -e 8 -n 1 -w 0 \
  --out "$work/nccl" --run-id nccl >"$work/nccl.log" 2>&1
nrc=$?
set -e
sed 's/^/  | /' "$work/nccl.log"
if [[ $nrc -eq 2 && $(wc -l <"$work/nccl.log") -eq 1 ]] && grep -q -- '--backend nccl' "$work/nccl.log"; then
  pass "--backend nccl without a GPU: exit 2, one line saying why"
else
  fail "--backend nccl without a GPU: exit $nrc"
fi

echo "== what comes back from \$OUT (at most 8 files, 16 MiB each, 2 folders deep)"
(cd "$out" && find . -type f -printf '  | %p %s bytes\n')
nfiles=$(find "$out" -type f | wc -l)
deep=$(find "$out" -mindepth 4 | wc -l)
big=$(find "$out" -type f -size +16M | wc -l)
if [[ $nfiles -le 8 && $deep -eq 0 && $big -eq 0 ]]; then pass "\$OUT: $nfiles files"; else fail "\$OUT: $nfiles files, $deep too deep, $big over 16 MiB"; fi

echo "== what travels (tracked + untracked not ignored + the prefix, at most 64 MiB)"
tree_bytes=$(cd "$root" && git ls-files -z --cached --others --exclude-standard | xargs -0 stat -c %s 2>/dev/null |
  awk '{s += $1} END {print s + 0}')
deps_bytes=$(du -sb "$deps" | cut -f1)
total=$((tree_bytes + deps_bytes))
echo "  | tree $((tree_bytes / 1024)) KiB, prefix $((deps_bytes / 1024)) KiB ($(find "$deps" -type f | wc -l) files), total $((total / 1048576)) MiB"
if ((total <= 64 << 20)); then pass "travels: $((total / 1048576)) MiB of 64"; else fail "travels: $((total / 1048576)) MiB, over 64"; fi
finish
