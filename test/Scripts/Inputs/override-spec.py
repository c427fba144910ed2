#!/usr/bin/env python3
"""override-spec.py BASE.json OUT.json KEY=VALUE...: writes a copy of the
spec BASE with dotted KEYs (e.g. cpu.l2_bytes) set to VALUEs (integers, or
numbers when they contain a '.') and its
name set to OUT's file name (a spec's name must match its file)."""
import json
import os
import sys

base, out, *pairs = sys.argv[1:]
with open(base) as f:
    spec = json.load(f)
spec["name"] = os.path.splitext(os.path.basename(out))[0]
for pair in pairs:
    key, value = pair.split("=", 1)
    *path, leaf = key.split(".")
    node = spec
    for part in path:
        node = node[part]
    if leaf not in node:
        sys.exit(f"override-spec.py: {base} has no key {key}")
    node[leaf] = float(value) if "." in value else int(value)
with open(out, "w") as f:
    json.dump(spec, f, indent=1)
