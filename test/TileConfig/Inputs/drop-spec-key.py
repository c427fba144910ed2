#!/usr/bin/env python3
"""drop-spec-key.py BASE.json OUT.json KEY...: writes a copy of the spec BASE
without the dotted KEYs (and their `sources` entries), named after OUT's file
name (a spec's name must match its file): a spec missing a figure."""
import json
import os
import sys

base, out, *keys = sys.argv[1:]
with open(base) as f:
    spec = json.load(f)
spec["name"] = os.path.splitext(os.path.basename(out))[0]
for key in keys:
    *path, leaf = key.split(".")
    node = spec
    for part in path:
        node = node[part]
    if leaf not in node:
        sys.exit(f"drop-spec-key.py: {base} has no key {key}")
    del node[leaf]
    spec.get("sources", {}).pop(key, None)
with open(out, "w") as f:
    json.dump(spec, f, indent=1)
