#!/usr/bin/env bash
# Writes podperf's man page from the program's own help, so `man podperf` and `--help` never disagree.
# usage: man_page.sh PODPERF OUT.1   (run by the podperf_man target of CMakeLists.txt; needs help2man)
# help2man renders `podperf --help` and `--version`; a COMMANDS section adds every subcommand's
# `podperf <command> --help` verbatim, and SEE ALSO points at the docs.
set -euo pipefail
podperf=$1
out=$2
include=$(mktemp)
trap 'rm -f "$include"' EXIT

# roff-safe verbatim text: backslashes escaped, a leading . or ' made literal.
roff_verbatim() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"; }

commands=$("$podperf" --help | awk '/^Subcommands:/ {on = 1; next} on && /^  [a-z]/ {print $1}')
{
  echo "[NAME]"
  echo "podperf \\- which node or link of a GPU training cluster is slow"
  echo "[COMMANDS]"
  for c in $commands; do
    echo ".SS \"podperf $c\""
    echo ".nf"
    "$podperf" "$c" --help | roff_verbatim
    echo ".fi"
  done
  echo "[SEE ALSO]"
  echo "The README and docs/*.md of the source tree: one page per command (docs/pairs.md, docs/fs.md,"
  echo "docs/accept.md, docs/compare.md, ...), how nodes are judged (docs/judging.md), the output files"
  echo "(docs/output.md) and the run.json schema (docs/schema.md)."
} >"$include"
help2man --no-info --no-discard-stderr --section 1 --include "$include" --output "$out" "$podperf"
