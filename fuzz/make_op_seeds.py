#!/usr/bin/env python3
"""Writes the seeds of the in-process op fuzzer (fuzz/op_fuzzer.cpp).

An input is a 48-byte header of decisions followed by the payload: its first
byte chooses the mode (below 40: the rest is MLIR text; else generator
bytes), its second the op (modulo OPS, the length of op_fuzzer.cpp's
kOps). For every op this writes
  gen-<op>-<k>       a random header and random generator bytes, and
  text-<op>-<name>   a random header and the text of a payload program:
                     the chunks of test/, integration_test/ and examples/ *.mlir
                     (transform scripts and diagnostics expectations
                     stripped), spread over the ops in turn, plus
                     fuzz/seeds/ops/payloads/.
Deterministic (fixed seeds), and derived from the tree, so the seeds are not
committed: they always cover the current test payloads. fuzz/run-ci.sh,
fuzz/make-corpus.sh and integration_test/Reliability/op-fuzzer-corpus.test write them
where they need them. Usage: make_op_seeds.py --out DIR [--per-op N]
"""

import argparse
import glob
import hashlib
import os
import random
import re

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
HEADER = 48
OPS = 18  # len(kOps) in op_fuzzer.cpp: a seed's op byte is `op` modulo it
SEP = re.compile(r"^// -----$", re.M)
SCRIPT = "module attributes {transform.with_named_sequence}"


def strip_scripts(text):
    """Drops transform-script modules (brace-matched) and comment lines."""
    while SCRIPT in text:
        start = text.index(SCRIPT)
        depth, i = 0, text.index("{", start + len(SCRIPT))
        while i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth == 0:
                break
            i += 1
        text = text[:start] + text[i + 1:]
    return "\n".join(l for l in text.split("\n") if not l.lstrip().startswith("//"))


def payloads():
    files = []
    for tree in ("test", "integration_test", "examples"):
        files += sorted(glob.glob(os.path.join(ROOT, tree, "**", "*.mlir"), recursive=True))
    out = []
    for f in files:
        rel = os.path.relpath(f, ROOT)
        for n, chunk in enumerate(SEP.split(open(f).read())):
            text = strip_scripts(chunk).strip()
            if "func.func" not in text or "transform." in text or len(text) > 6000:
                continue
            out.append((f"{rel}#{n}", text + "\n"))
    for f in sorted(glob.glob(os.path.join(HERE, "seeds", "ops", "payloads", "*.mlir"))):
        out.append((os.path.relpath(f, ROOT), open(f).read()))
    return out


def header(rng, text_mode, op):
    h = bytearray(rng.randrange(256) for _ in range(HEADER))
    h[0] = rng.randrange(40) if text_mode else rng.randrange(40, 256)
    h[1] = op + OPS * rng.randrange(256 // OPS)
    return bytes(h)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--per-op", type=int, default=4, help="generator seeds per op")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(20261122)
    written = 0
    for op in range(OPS):
        for k in range(args.per_op):
            body = bytes(rng.randrange(256) for _ in range(rng.randrange(64, 400)))
            with open(os.path.join(args.out, f"gen-{op}-{k}"), "wb") as f:
                f.write(header(rng, False, op) + body)
            written += 1
    for i, (name, text) in enumerate(payloads()):
        op = i % OPS
        tag = hashlib.sha1(name.encode()).hexdigest()[:8]
        with open(os.path.join(args.out, f"text-{op}-{tag}"), "wb") as f:
            f.write(header(rng, True, op) + text.encode())
        written += 1
    print(f"make_op_seeds: wrote {written} inputs to {args.out}")


if __name__ == "__main__":
    main()
