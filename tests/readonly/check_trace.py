#!/usr/bin/python3
"""Checks strace logs (strace -f -ff -y -o PREFIX) of podperf runs: every file podperf opened for
writing, created, renamed, truncated, linked or removed lies under one of the ALLOWED directories;
no program other than podperf was executed; no process was forked; nothing under /proc or /sys was
opened for writing.

usage: check_trace.py --podperf BINARY --allow DIR [--allow DIR ...] [--mpi-allow DIR_OR_PREFIX ...]
                      --cwd DIR TRACE_FILE...
--allow: podperf's own places (the results root, the probe directory).
--mpi-allow: what Open MPI itself writes in a rank (its session directory under $TMPDIR, its shared
             memory segments in /dev/shm, given as path prefixes); reported separately.
Prints each violation with the trace file and line; exits 1 if there is any.
"""
import argparse
import os
import re
import sys

TOKEN = re.compile(r'(\d+<(?:[^>\\]|\\.)*>|AT_FDCWD|"(?:[^"\\]|\\.)*")')
CALL = re.compile(r"^(?:\[pid\s+\d+\]\s+)?([a-z0-9_]+)\((.*)$")
WRITE_FLAGS = re.compile(r"O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND")

# syscall -> indices (in the token list) of the (dirfd, path) pairs or paths it modifies
PATH_CALLS = {
    "unlink": [(None, 0)], "rmdir": [(None, 0)], "mkdir": [(None, 0)], "truncate": [(None, 0)],
    "creat": [(None, 0)], "chmod": [(None, 0)], "chown": [(None, 0)], "lchown": [(None, 0)],
    "mknod": [(None, 0)], "rename": [(None, 0), (None, 1)], "link": [(None, 1)], "symlink": [(None, 1)],
    "unlinkat": [(0, 1)], "mkdirat": [(0, 1)], "mknodat": [(0, 1)], "fchmodat": [(0, 1)], "fchownat": [(0, 1)],
    "renameat": [(0, 1), (2, 3)], "renameat2": [(0, 1), (2, 3)], "linkat": [(2, 3)], "symlinkat": [(1, 2)],
    "setxattr": [(None, 0)], "lsetxattr": [(None, 0)], "removexattr": [(None, 0)],
}


def unquote(tok):
    return bytes(tok[1:-1], "utf-8").decode("unicode_escape")


def fd_path(tok):
    return tok[tok.index("<") + 1:-1]


def resolve(tokens, dir_i, path_i, cwd):
    if path_i >= len(tokens) or not tokens[path_i].startswith('"'):
        return None
    path = unquote(tokens[path_i])
    if os.path.isabs(path):
        return os.path.normpath(path)
    base = cwd
    if dir_i is not None and dir_i < len(tokens) and tokens[dir_i][0].isdigit():
        base = fd_path(tokens[dir_i])
    return os.path.normpath(os.path.join(base, path))


def under(path, roots):
    return any(path == r or path.startswith(r.rstrip("/") + "/") or (r.endswith("*") and path.startswith(r[:-1]))
               for r in roots)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--podperf", required=True)
    ap.add_argument("--allow", action="append", default=[])
    ap.add_argument("--mpi-allow", action="append", default=[])
    ap.add_argument("--cwd", required=True)
    ap.add_argument("traces", nargs="+")
    a = ap.parse_args()
    podperf = os.path.realpath(a.podperf)
    allow = [os.path.normpath(p) for p in a.allow]
    mpi_allow = a.mpi_allow
    violations, mpi_writes, podperf_writes, calls = [], set(), 0, 0
    for trace in a.traces:
        with open(trace, errors="replace") as f:
            for n, line in enumerate(f, 1):
                m = CALL.match(line)
                if not m:
                    continue
                name, rest = m.group(1), m.group(2)
                calls += 1
                tokens = TOKEN.findall(rest)
                where = f"{os.path.basename(trace)}:{n}"
                touched = []
                if name in ("open", "openat", "open_by_handle_at"):
                    if WRITE_FLAGS.search(rest):
                        touched.append(resolve(tokens, 0 if name == "openat" else None, 1 if name == "openat" else 0,
                                               a.cwd))
                elif name in ("mkdir", "mkdirat") and "= -1 EEXIST" in rest:
                    pass  # mkdir -p of an existing ancestor changes nothing
                elif name in PATH_CALLS:
                    for dir_i, path_i in PATH_CALLS[name]:
                        touched.append(resolve(tokens, dir_i, path_i, a.cwd))
                elif name in ("ftruncate", "fchmod", "fchown") and tokens and tokens[0][0].isdigit():
                    touched.append(os.path.normpath(fd_path(tokens[0])))
                elif name in ("execve", "execveat"):
                    target = unquote(tokens[0]) if tokens and tokens[0].startswith('"') else "?"
                    if os.path.realpath(target) != podperf:
                        violations.append(f"{where}: executed {target}")
                elif name in ("fork", "vfork") or (name in ("clone", "clone3") and "CLONE_THREAD" not in rest):
                    violations.append(f"{where}: started a process ({name})")
                for path in touched:
                    if path is None:
                        violations.append(f"{where}: {name} on a path it could not resolve: {line.strip()}")
                    elif path.startswith("/proc/") or path.startswith("/sys/"):
                        violations.append(f"{where}: {name} for writing under /proc or /sys: {path}")
                    elif under(path, allow):
                        podperf_writes += 1
                    elif under(path, mpi_allow):
                        mpi_writes.add(re.sub(r"\d+", "N", path))
                    else:
                        violations.append(f"{where}: {name} outside the allowed directories: {path}")
    print(f"check_trace: {len(a.traces)} traces, {calls} calls, {podperf_writes} writes in the allowed "
          f"directories, Open MPI's own: {', '.join(sorted(mpi_writes)) or 'none'}")
    for v in violations:
        print(f"check_trace: VIOLATION {v}")
    sys.exit(1 if violations else 0)


if __name__ == "__main__":
    main()
