#!/usr/bin/env python3
"""The fusion decision must not depend on where side-effect-free ops are printed.

For each payload file (functions whose bodies hold one op per statement,
regions allowed), writes variants that move side-effect-free statements
(tensor.*, arith.*, affine.apply, linalg.* on tensors) while keeping every
use after its definition:
  * each such statement alone moved to its earliest legal place (right after
    the last statement it uses) and to its latest (right before its first
    user);
  * all of them hoisted as early as possible, and all sunk as late as
    possible.
Then runs `filter_fusable_consumers { explain }` with every Linalg op of the
payload as a producer, on the original and on every variant (one
`--split-input-file` run), and compares the decisions: the multiset of
"fusion of ... on <target>: ..." remark texts (locations stripped) must be
the same for every variant. Prints one line per payload and
`FUSION-POSITIONS: PASS|FAIL (<n> payloads, <m> variants)`; exit 1 on a
difference (the differing remarks are printed).

Usage: fusion-positions.py --hwsched-opt PATH --target NAME PAYLOAD...
"""

import argparse
import re
import subprocess
import sys

MOVABLE = re.compile(r"^\s*%[\w.$-]+(:\d+)?\s*=\s*(tensor|arith|affine\.apply|linalg)\b")
DEF_RE = re.compile(r"(%[\w.$-]+)(?::\d+)?\s*=")
BB_ARGS = re.compile(r"\^bb\d*\(([^)]*)\)")
USE_RE = re.compile(r"%[\w.$-]+")

SCRIPT = """module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    transform.foreach %ops : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      transform.sequence %op : !transform.any_op failures(suppress) {
      ^bb1(%p: !transform.any_op):
        %c = transform.cost_model.filter_fusable_consumers %p { target = "TARGET", explain } : (!transform.any_op) -> !transform.any_op
      }
    }
    transform.yield
  }
}
"""


class Stmt:
    def __init__(self, lines):
        self.lines = lines
        text = "\n".join(lines)
        self.movable = bool(MOVABLE.match(lines[0])) and "memref<" not in text
        inner = set(m.group(1) for m in DEF_RE.finditer(text))
        for m in BB_ARGS.finditer(text):
            for a in m.group(1).split(","):
                name = a.split(":")[0].strip()
                if name:
                    inner.add(name)
        head = DEF_RE.match(lines[0].strip())
        self.defs = {head.group(1)} if head else set()
        uses = set(re.sub(r"#\d+$", "", u) for u in USE_RE.findall(text))
        self.uses = uses - inner


def split_functions(text):
    """(prefix lines, [(header, [Stmt], footer)], ...) as a flat list of
    parts: strings stay, function bodies become lists of statements."""
    lines = text.split("\n")
    parts, i = [], 0
    while i < len(lines):
        line = lines[i]
        if re.match(r"^\s*func\.func\b", line) and line.rstrip().endswith("{"):
            indent = len(line) - len(line.lstrip())
            parts.append(line)
            i += 1
            stmts, cur, depth = [], [], 0
            while i < len(lines):
                l = lines[i]
                if depth == 0 and not cur and l.strip() == "}" and \
                        len(l) - len(l.lstrip()) == indent:
                    break
                cur.append(l)
                depth += l.count("{") - l.count("}") + l.count("(") - l.count(")")
                if depth <= 0:
                    depth = 0
                    if any(c.strip() and not c.strip().startswith("//") for c in cur):
                        stmts.append(Stmt(cur))
                    cur = []
                i += 1
            parts.append(stmts)
            continue
        parts.append(line)
        i += 1
    return parts


def bounds(stmts, k):
    """Earliest and latest index statement k may take."""
    s = stmts[k]
    lo = 0
    for j in range(k):
        if stmts[j].defs & s.uses:
            lo = j + 1
    hi = len(stmts) - 1
    for j in range(k + 1, len(stmts)):
        if s.defs & stmts[j].uses or stmts[j].lines[0].strip().startswith("return"):
            hi = j - 1
            break
    return lo, hi


def moved(stmts, k, to):
    out = list(stmts)
    s = out.pop(k)
    out.insert(to, s)
    return out


def variants(stmts):
    out = []
    for k, s in enumerate(stmts):
        if not s.movable:
            continue
        lo, hi = bounds(stmts, k)
        for to in {lo, hi}:
            if to != k:
                out.append(moved(stmts, k, to))
    for early in (True, False):
        cur = list(stmts)
        objs = [s for s in cur if s.movable]
        for s in (objs if early else list(reversed(objs))):
            k = cur.index(s)
            lo, hi = bounds(cur, k)
            cur = moved(cur, k, lo if early else hi)
        if cur != stmts:
            out.append(cur)
    return out


def render(parts, which=None, replacement=None):
    lines = []
    for idx, p in enumerate(parts):
        if isinstance(p, list):
            stmts = replacement if idx == which else p
            for s in stmts:
                lines.extend(s.lines)
        else:
            lines.append(p)
    return "\n".join(lines)


def decisions(opt, chunks, target):
    text = "\n// -----\n".join(c + "\n" + SCRIPT.replace("TARGET", target) for c in chunks)
    p = subprocess.run([opt, "-", "--split-input-file", "--transform-interpreter",
                        "--mlir-print-op-on-diagnostic=false", "-o", "/dev/null"],
                       input=text, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise SystemExit(f"fusion-positions: hwsched-opt failed ({p.returncode})")
    starts, line = [], 1
    for c in chunks:
        starts.append(line)
        line += (c + "\n" + SCRIPT).count("\n") + 2
    per = [[] for _ in chunks]
    for m in re.finditer(r"^<stdin>:(\d+):\d+: remark: (fusion of .*)$", p.stderr, re.M):
        n = int(m.group(1))
        k = max(i for i, s in enumerate(starts) if s <= n)
        per[k].append(m.group(2))
    return [sorted(d) for d in per]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hwsched-opt", required=True)
    ap.add_argument("--target", required=True)
    ap.add_argument("payloads", nargs="+")
    args = ap.parse_args()
    bad, total = 0, 0
    for path in args.payloads:
        with open(path) as f:
            text = f.read()
        parts = split_functions(text)
        chunks = [text]
        for idx, p in enumerate(parts):
            if isinstance(p, list):
                for v in variants(p):
                    chunks.append(render(parts, idx, v))
        got = decisions(args.hwsched_opt, chunks, args.target)
        total += len(chunks) - 1
        diff = [k for k in range(1, len(chunks)) if got[k] != got[0]]
        name = path.split("/")[-1]
        print(f"{name}: {len(chunks) - 1} variants, {len(got[0])} decisions, "
              f"{'identical' if not diff else f'{len(diff)} differ'}")
        if diff:
            bad += 1
            k = diff[0]
            print("  original:\n    " + "\n    ".join(got[0]))
            print(f"  variant {k}:\n    " + "\n    ".join(got[k]))
            print("  variant text:\n" + chunks[k])
    verdict = "PASS" if not bad else "FAIL"
    print(f"FUSION-POSITIONS: {verdict} ({len(args.payloads)} payloads, {total} variants)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
