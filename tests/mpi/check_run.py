#!/usr/bin/python3
"""Checks a podperf results directory: run.json and every events.jsonl line against
docs/run.schema.json, plus facts the schema cannot express.

usage: check_run.py RESULTS_DIR --nodes N [--complete] [--sizes K]
  --complete: the run finished: every pair of N nodes present exactly once per size, wrong = 0,
              status ok, rounds as the circle method gives, events.jsonl with start, rounds and end.
Exits non-zero with a message naming the first failed check.
"""
import argparse
import itertools
import json
import pathlib
import sys

import jsonschema

ROOT = pathlib.Path(__file__).resolve().parents[2]


def validate(instance, schema):
    """jsonschema.validate without re-checking the schema on every call (that check dominates the
    time when thousands of pair results are validated)."""
    key = id(schema)
    if key not in _validators:
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        _validators[key] = cls(schema)
    error = jsonschema.exceptions.best_match(_validators[key].iter_errors(instance))
    if error is not None:
        raise error


_validators = {}


def fail(msg):
    print(f"check_run: FAIL: {msg}")
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results_dir")
    ap.add_argument("--nodes", type=int, required=True)
    ap.add_argument("--complete", action="store_true")
    args = ap.parse_args()
    d = pathlib.Path(args.results_dir)
    schema = json.loads((ROOT / "docs/run.schema.json").read_text())
    run = json.loads((d / "run.json").read_text())
    try:
        validate(run, schema)
    except jsonschema.ValidationError as e:
        fail(f"run.json does not match the schema: {e.message} at {list(e.absolute_path)}")

    lines = (d / "events.jsonl").read_text().splitlines()
    events = [json.loads(line) for line in lines]
    if not events or events[0].get("event") != "start":
        fail("events.jsonl does not begin with a start event")
    start = dict(events[0])
    del start["event"]
    try:
        validate(start, schema)
    except jsonschema.ValidationError as e:
        fail(f"start event does not match the schema: {e.message}")
    pair_schema = {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/pair"}
    collective_schema = {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/collective"}
    fs_schema = {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/fs"}
    fs_probe_schema = {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/fs_probe"}
    event_pairs = []
    for ev in events[1:]:
        if ev["event"] == "retest":
            for p in ev["pairs"]:
                validate(p, pair_schema)
        elif ev["event"] == "round":
            for p in ev["pairs"]:
                validate(p, pair_schema)
                event_pairs.append(p)
        elif ev["event"] == "collective":
            for r in ev["results"]:
                validate(r, collective_schema)
        elif ev["event"] == "fs_setup":
            validate(ev["fs"], fs_schema)
        elif ev["event"] == "fs_probe":
            validate(ev["probe"], fs_probe_schema)
        elif ev["event"] != "end":
            fail(f"unknown event {ev['event']}")
    if len(run["nodes"]) != args.nodes:
        fail(f"expected {args.nodes} nodes, run.json has {len(run['nodes'])}")

    if args.complete:
        n = args.nodes
        sizes = run["options"]["sizes_bytes"]
        if run["status"] != "complete":
            fail(f"status {run['status']}: {run['error']}")
        # --repeat K: every round once per block, every pair's samples K times the iterations.
        blocks = max(1, run.get("blocks", {}).get("count", 0))
        expected_rounds = (n - 1 if n % 2 == 0 else n) * blocks
        if run["rounds_planned"] != expected_rounds or run["rounds_completed"] != expected_rounds:
            fail(f"rounds {run['rounds_completed']}/{run['rounds_planned']}, expected {expected_rounds}")
        seen = {}
        for p in run["pairs"]:
            key = (tuple(p["nodes"]), p["size_bytes"])
            if key in seen:
                fail(f"pair {key} appears twice")
            seen[key] = p
            if p["wrong"] != 0 or p["status"] != "ok":
                fail(f"pair {key}: wrong={p['wrong']} status={p['status']} {p['error']}")
            if not (p["busbw_gbps"] > 0 and len(p["samples_s"]) == run["options"]["iters"] * blocks):
                fail(f"pair {key}: busbw {p['busbw_gbps']} with {len(p['samples_s'])} samples")
        for a, b in itertools.combinations(range(n), 2):
            for s in sizes:
                if ((a, b), s) not in seen:
                    fail(f"pair {a}:{b} at {s} bytes missing")
        rounds_by_node = {}
        for p in run["pairs"]:
            for node in p["nodes"]:
                rounds_by_node.setdefault((node, p["round"]), set()).add(tuple(p["nodes"]))
        for key, pairs in rounds_by_node.items():
            if len(pairs) > 1:
                fail(f"node {key[0]} in {len(pairs)} pairs in round {key[1]}")
        if len(event_pairs) != len(run["pairs"]) * blocks:  # each block's round events hold its pairs
            fail(f"events.jsonl has {len(event_pairs)} pair results, run.json {len(run['pairs'])}")
        if events[-1]["event"] != "end":
            fail("events.jsonl does not end with an end event")
    print(f"check_run: OK ({len(run['pairs'])} pair results, {len(events)} events)")


if __name__ == "__main__":
    main()
