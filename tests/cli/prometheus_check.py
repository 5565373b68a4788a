#!/usr/bin/env python3
"""A parser of the Prometheus text exposition format 0.0.4, strict enough to catch what a scraper (or the
node-exporter textfile collector) would refuse: metric and label names, quoted label values with only
the escapes \\\\ \\" \\n, HELP and TYPE once per family and before its samples, a family's samples
together, no series twice, every value a finite number. Usage: prometheus_check.py FILE [--expect
NAME{label=value,...}[=VALUE] ...]; prints the families and series counts, exits 1 naming the first
problem (line number)."""
import math
import re
import sys

NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
LABEL = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")


def parse_labels(text, at, lineno):
    """Labels from text[at] == '{' to the closing '}': (dict, index after '}')."""
    labels = {}
    i = at + 1
    while True:
        if text[i] == "}":
            return labels, i + 1
        m = LABEL.match(text, i)
        if not m:
            raise ValueError(f"line {lineno}: bad label name at column {i + 1}: {text!r}")
        name = m.group(0)
        i = m.end()
        if text[i:i + 2] != '="':
            raise ValueError(f"line {lineno}: label {name} without =\"")
        i += 2
        value = []
        while True:
            c = text[i]
            if c == "\\":
                nxt = text[i + 1]
                if nxt not in '\\"n':
                    raise ValueError(f"line {lineno}: bad escape \\{nxt} in label {name}")
                value.append({"\\": "\\", '"': '"', "n": "\n"}[nxt])
                i += 2
            elif c == '"':
                i += 1
                break
            elif c == "\n":
                raise ValueError(f"line {lineno}: raw newline in label {name}")
            else:
                value.append(c)
                i += 1
        if name in labels:
            raise ValueError(f"line {lineno}: label {name} twice")
        labels[name] = "".join(value)
        if text[i] == ",":
            i += 1
        elif text[i] != "}":
            raise ValueError(f"line {lineno}: expected , or }} after label {name}")


def parse(text):
    """{family: {"help": str, "type": str, "series": {frozenset(labels): value}}}"""
    if text and not text.endswith("\n"):
        raise ValueError("the file does not end with a newline")
    families = {}
    current = None
    done = set()
    for lineno, line in enumerate(text.split("\n")[:-1], 1):
        if line.startswith("# HELP ") or line.startswith("# TYPE "):
            kind, rest = line[2:6], line[7:]
            name, _, value = rest.partition(" ")
            if not NAME.fullmatch(name):
                raise ValueError(f"line {lineno}: bad metric name {name!r}")
            fam = families.setdefault(name, {"help": None, "type": None, "series": {}})
            key = kind.lower()
            if fam[key] is not None:
                raise ValueError(f"line {lineno}: {kind} of {name} twice")
            if fam["series"]:
                raise ValueError(f"line {lineno}: {kind} of {name} after its samples")
            if key == "type" and value not in ("counter", "gauge", "histogram", "summary", "untyped"):
                raise ValueError(f"line {lineno}: bad TYPE {value!r}")
            fam[key] = value
            if current != name:
                if name in done:
                    raise ValueError(f"line {lineno}: family {name} is split")
                if current:
                    done.add(current)
                current = name
            continue
        if line.startswith("#") or not line.strip():
            continue
        m = NAME.match(line)
        if not m:
            raise ValueError(f"line {lineno}: bad sample {line!r}")
        name = m.group(0)
        i = m.end()
        labels = {}
        if i < len(line) and line[i] == "{":
            labels, i = parse_labels(line + "\n", i, lineno)
        if line[i:i + 1] != " ":
            raise ValueError(f"line {lineno}: no space before the value")
        fields = line[i + 1:].split(" ")
        if len(fields) not in (1, 2):
            raise ValueError(f"line {lineno}: value and at most a timestamp expected")
        value = float(fields[0])
        if not math.isfinite(value):
            raise ValueError(f"line {lineno}: value {fields[0]} is not finite")
        fam = families.get(name)
        if fam is None or fam["type"] is None or fam["help"] is None:
            raise ValueError(f"line {lineno}: sample of {name} before its HELP and TYPE")
        if current != name:
            raise ValueError(f"line {lineno}: sample of {name} outside its family's block")
        key = frozenset(labels.items())
        if key in fam["series"]:
            raise ValueError(f"line {lineno}: series {name}{labels} twice")
        fam["series"][key] = value
    return families


def main():
    path = sys.argv[1]
    try:
        families = parse(open(path, encoding="utf-8").read())
        for spec in sys.argv[2:]:
            if spec == "--expect":
                continue
            m = re.fullmatch(r"([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?(?:=(.*))?", spec)
            if not m:
                raise ValueError(f"bad --expect {spec!r}")
            name, labels = m.group(1), m.group(2)
            value = float(m.group(3)) if m.group(3) is not None else None
            want = dict(kv.split("=", 1) for kv in labels.split(",")) if labels else {}
            fam = families.get(name)
            hits = [v for k, v in (fam["series"].items() if fam else []) if want.items() <= dict(k).items()]
            if not hits:
                raise ValueError(f"no series {name}{want}")
            if value is not None and any(v != value for v in hits):
                raise ValueError(f"{name}{want}: {hits}, want {value}")
    except (ValueError, IndexError) as e:
        print(f"{path}: {e}")
        return 1
    print(f"{len(families)} families, {sum(len(f['series']) for f in families.values())} series")
    return 0


if __name__ == "__main__":
    sys.exit(main())
