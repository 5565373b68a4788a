#!/usr/bin/env python3
"""The documentation keeps up with the program (cli.docs).

usage: docs_check.py PODPERF REPO_ROOT [MAN_PAGE]

Checks, printing one PASS/FAIL line each:
  - every long option that `podperf --help` and `podperf <command> --help` list (for every command
    the top-level help names) appears in some docs/*.md page, as `--name`;
  - every relative link of README.md and docs/*.md resolves to a file of the repository, and a
    `#anchor` into a Markdown page to one of its headings (GitHub's slugs);
  - with MAN_PAGE (the build's podperf.1), every such option is in the man page too (generated from
    --help, so this fails only when the page is stale or the generator dropped a command);
  - every test tests/CMakeLists.txt adds (add_test NAME) is named in docs/testing.md;
  - README.md, the front page, stays under 12 KB (the reference lives in docs/);
  - docs/architecture.md names every source unit (each .hpp/.cpp/.cu stem of the program's folders, as
    `stem.`), so the map a newcomer reads has every room;
  - no tracked file cites the design notes a clone does not have (shared/, FIELD-NOTES, LOG-PATTERNS).
Exit 0 when all pass, 1 otherwise.
"""
import pathlib
import re
import subprocess
import sys

README_LIMIT_BYTES = 12 * 1024
OPTION = re.compile(r"^\s{2}(?:-\w,)?(--[A-Za-z0-9][A-Za-z0-9_-]*)")
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~)")
SOURCE_FOLDERS = ["analysis", "app", "bench", "kernels", "offline", "signals", "sim", "sweep"]
CITING_SUFFIXES = {".cpp", ".hpp", ".cu", ".c", ".md", ".toml", ".sh", ".py", ".txt", ".yaml", ".json", ".cmake"}
UNSHIPPED_NOTES = re.compile(r"FIELD-NOTES|LOG-PATTERNS|shared/DESIGN|\.\./shared/|/work/shared")


def help_text(podperf, args):
    """`podperf ARGS --help` as text; fails the whole check when the command does not exit 0."""
    done = subprocess.run([podperf, *args, "--help"], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"FAIL: `podperf {' '.join(args)} --help` exited {done.returncode}: {done.stderr}")
    return done.stdout


def commands(top_help):
    """The subcommand names listed under 'Subcommands:' of the top-level help."""
    names, inside = [], False
    for line in top_help.splitlines():
        if line.startswith("Subcommands:"):
            inside = True
        elif inside and re.match(r"^\s{2}[a-z][a-z-]*\s", line):
            names.append(line.split()[0])
    return names


def options(text):
    """Long option names (`--name`) a help text lists, without --help."""
    return sorted({m.group(1) for line in text.splitlines() if (m := OPTION.match(line))} - {"--help"})


def slug(heading):
    """GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page):
    found, fenced = set(), False
    for line in page.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            found.add(slug(line.lstrip("#")))
    return found


def links(page):
    """(line number, target) of every Markdown link outside code fences and code spans."""
    fenced = False
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        for m in LINK.finditer(re.sub(r"`[^`]*`", "", line)):
            yield number, m.group(1)


def main():
    podperf, root = sys.argv[1], pathlib.Path(sys.argv[2]).resolve()
    man_page = pathlib.Path(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3] else None
    # roff: help2man writes '-' as '\-' and wraps option names in font changes (\fB...\fR)
    man_text = re.sub(r"\\f[BIRP]|\\/|\\,", "", man_page.read_text(encoding="utf-8")).replace("\\-", "-") if man_page else ""
    pages = sorted((root / "docs").glob("*.md"))
    docs_text = "\n".join(p.read_text(encoding="utf-8") for p in pages)
    failures = 0

    def report(ok, what):
        nonlocal failures
        print(("PASS: " if ok else "FAIL: ") + what)
        failures += 0 if ok else 1

    top = help_text(podperf, [])
    names = commands(top)
    report(len(names) >= 5, f"podperf --help lists {len(names)} commands: {' '.join(names)}")
    for args in [[]] + [[n] for n in names]:
        listed = options(help_text(podperf, args))
        missing = [o for o in listed if not re.search(re.escape(o) + r"(?![A-Za-z0-9_-])", docs_text)]
        what = f"podperf {' '.join(args + ['--help'])}: {len(listed)} options, each in docs/*.md"
        report(not missing, what + (f"; missing: {' '.join(missing)}" if missing else ""))
        if man_page:
            absent = [o for o in listed if not re.search(re.escape(o) + r"(?![A-Za-z0-9_-])", man_text)]
            report(not absent, f"{man_page.name} has those of podperf {' '.join(args)}"
                   + (f"; missing: {' '.join(absent)}" if absent else ""))

    for page in [root / "README.md"] + pages:
        bad = []
        for number, target in links(page):
            if re.match(r"^[a-z]+:", target):  # http:, https:, mailto:
                continue
            path, _, anchor = target.partition("#")
            dest = (page.parent / path).resolve() if path else page
            if not dest.exists():
                bad.append(f"{page.relative_to(root)}:{number}: {target} (no such file)")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                bad.append(f"{page.relative_to(root)}:{number}: {target} (no such heading)")
        report(not bad, f"{page.relative_to(root)}: every relative link resolves" + "".join("\n  " + b for b in bad))

    testing = (root / "docs" / "testing.md").read_text(encoding="utf-8")
    declared = re.findall(r"add_test\(NAME ([\w.]+)", (root / "tests" / "CMakeLists.txt").read_text(encoding="utf-8"))
    declared += re.findall(r"add_test\(NAME ([\w.]+)", (root / "tests" / "unit" / "CMakeLists.txt").read_text(encoding="utf-8"))
    declared += re.findall(r"add_test\(NAME ([\w.]+)", (root / "tests" / "perf" / "CMakeLists.txt").read_text(encoding="utf-8"))
    unnamed = [t for t in declared if f"`{t}`" not in testing]
    report(len(declared) > 10 and not unnamed, f"docs/testing.md names all {len(declared)} ctest tests"
           + (f"; missing: {' '.join(unnamed)}" if unnamed else ""))

    architecture = (root / "docs" / "architecture.md").read_text(encoding="utf-8")
    units = sorted({p.stem for folder in SOURCE_FOLDERS for p in (root / folder).rglob("*")
                    if p.suffix in (".hpp", ".cpp", ".cu", ".c") and p.is_file()})
    unnamed = [u for u in units if not re.search(r"(?<!\w)" + re.escape(u) + r"\.", architecture)]
    report(len(units) > 50 and not unnamed, f"docs/architecture.md names all {len(units)} source units"
           + (f"; missing: {' '.join(unnamed)}" if unnamed else ""))

    tracked = subprocess.run(["git", "-C", str(root), "ls-files"], capture_output=True, text=True, check=False).stdout.split()
    citing = []
    for name in tracked:
        path = root / name
        if name.startswith("tests/fixtures/") or not path.is_file() or path.suffix not in CITING_SUFFIXES:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if UNSHIPPED_NOTES.search(line) and name != "tests/cli/docs_check.py":
                citing.append(f"{name}:{number}")
    report(not citing, "no tracked file cites notes a clone lacks (shared/, FIELD-NOTES, LOG-PATTERNS)"
           + "".join("\n  " + c for c in citing[:20]) + (f"\n  ... {len(citing) - 20} more" if len(citing) > 20 else ""))

    size = (root / "README.md").stat().st_size
    report(size < README_LIMIT_BYTES, f"README.md is {size} bytes (front page: under {README_LIMIT_BYTES})")
    print(f"cli.docs: {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
