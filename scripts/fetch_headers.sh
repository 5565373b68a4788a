#!/usr/bin/env bash
# Fetches the header-only libraries podperf builds with, for a machine whose distribution does not
# carry them (Ubuntu 22.04 has no toml++ package; Amazon Linux none of the four): fmt, toml++,
# nlohmann/json and CLI11 at the versions podperf is tested with (Debian 12's), shallow clones of their
# release tags, used in place: no build, no install, no root. Run it where the network reaches the
# projects' Git hosting, copy DIR to an offline cluster if need be. Prints the PODPERF_PREFIX_PATH
# for scripts/cluster_build.sh (docs/install.md, "Header-only dependencies").
#
#   scripts/fetch_headers.sh [--dry-run] DIR
#
# PODPERF_GIT_BASE replaces https://github.com (a mirror, or file:// repositories for a test).
set -euo pipefail
dry=0
[[ ${1:-} == --dry-run ]] && { dry=1; shift; }
dir=${1:?usage: $0 [--dry-run] DIR}
base=${PODPERF_GIT_BASE:-https://github.com}
# name, repository, tag, the header whose presence says the clone is usable
libs=(
  "fmt fmtlib/fmt 9.1.0 include/fmt/format.h"
  "tomlplusplus marzer/tomlplusplus v3.3.0 include/toml++/toml.h"
  "json nlohmann/json v3.11.2 include/nlohmann/json.hpp"
  "CLI11 CLIUtils/CLI11 v2.1.2 include/CLI/CLI.hpp"
)
prefixes=()
for lib in "${libs[@]}"; do
  read -r name repo tag header <<<"$lib"
  prefixes+=("$dir/$name")
  if [[ $dry -eq 1 ]]; then
    echo "+ git clone --depth 1 --branch $tag $base/$repo $dir/$name"
    continue
  fi
  if [[ ! -f $dir/$name/$header ]]; then
    rm -rf "${dir:?}/$name"
    git -c advice.detachedHead=false clone --quiet --depth 1 --branch "$tag" "$base/$repo" "$dir/$name"
  fi
  [[ -f $dir/$name/$header ]] || { echo "fetch_headers: $repo $tag has no $header" >&2; exit 1; }
  echo "fetch_headers: $name $tag in $dir/$name"
done
prefix_path=$(IFS=';'; echo "${prefixes[*]}")
echo "PODPERF_PREFIX_PATH=\"$prefix_path\""
