#!/usr/bin/env bash
# podperf's load-time libraries (the NEEDED entries of its dynamic section) are the MPI's C library, zlib
# and the C/C++ runtime only: fmt and toml++ are used header-only, MPI through its C API (no
# libmpi_cxx, which Open MPI 5 no longer ships), the CUDA runtime is static and NCCL, NVML, libfabric
# and libcuda are dlopened. So a binary built against a cluster's Open MPI needs nothing else there
# (docs/install.md). Prints the entries; exits 1 naming any other.
#   tests/cli/needed_libs.sh PODPERF_BINARY
set -uo pipefail
PODPERF=${1:?usage: $0 PODPERF_BINARY}
PASSED=0
FAILED=0
pass() { echo "PASS: $*"; PASSED=$((PASSED + 1)); }
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }

if ! dyn=$(readelf -d "$PODPERF" 2>&1); then
  echo "FAIL: readelf -d $PODPERF: $dyn"
  echo "needed_libs: 0 passed, 1 failed"
  exit 1
fi
needed=$(sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' <<<"$dyn")
echo "needed: $(tr '\n' ' ' <<<"$needed")"
# The C runtime's own pieces (libm, libdl, libpthread, librt: stubs in glibc >= 2.34, separate before).
allowed='^(libmpi\.so\.[0-9]+|libz\.so\.1|libstdc\+\+\.so\.6|libgcc_s\.so\.1|libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|ld-linux[-a-z0-9_.]*\.so\.[0-9]+)$'
others=$(grep -Ev "$allowed" <<<"$needed" | tr '\n' ' ')
if [[ -z ${others// /} ]]; then pass "only MPI, zlib and the C/C++ runtime"; else fail "other libraries: $others"; fi
banned=$(grep -E 'libfmt|libtomlplusplus|libmpi_cxx|libnccl|libcudart' <<<"$needed" | tr '\n' ' ')
if [[ -z ${banned// /} ]]; then pass "no libfmt, libtomlplusplus, libmpi_cxx, libnccl, libcudart"; else fail "links $banned"; fi
if grep -Eq '^libmpi\.so\.[0-9]+$' <<<"$needed"; then pass "links MPI's C library"; else fail "no libmpi.so among: $(tr '\n' ' ' <<<"$needed")"; fi
echo "needed_libs: $PASSED passed, $FAILED failed"
[[ $FAILED -eq 0 ]]
