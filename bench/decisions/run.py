#!/usr/bin/env python3
"""Same decisions before and after a change: a snapshot of what hwsched decides
on every self-contained payload of the tree and in the decision benches, and a
comparison of two snapshots.

A refactor of the ops (thin apply() bodies, planning moved between layers,
new error plumbing) must not change one decision. The lit suite checks what
its CHECK lines name; this checks everything the tools print:

  1. every .mlir under test/, integration_test/ and examples/ that holds a
     `@__transform_main` sequence, run through `hwsched-opt --split-input-file
     --transform-interpreter` from its own folder (stdout, stderr and the exit
     status: the transformed IR, remarks, `explain` plans and diagnostics);
  2. the benches whose output is decisions, not timings: bench/smem/run.py
     --no-op-timing (packing peaks), bench/pipeline/run.py (schedules, II,
     proofs), bench/tileconfig/npu_check.py, sm_fill.py and a reduced
     split_decision.py grid (tile and split-K choices), bench/copies/run.py
     --no-exec (copies removed).

Timing figures (a number followed by ms, s or us) are masked before comparing:
they are measurements, not decisions.

Usage:
  bench/decisions/run.py snapshot --build build --out decisions-before
  ... change, rebuild ...
  bench/decisions/run.py snapshot --build build --out decisions-after
  bench/decisions/run.py compare decisions-before decisions-after

`compare` prints one line per differing item (with the first differing
lines) and a summary `N items compared, N identical, N differ, N only in one`;
its exit status is 1 when anything differs.
"""

import argparse
import difflib
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "utils"))
from hwsched_tools import cpu_name, run_tool  # noqa: E402

PAYLOAD_DIRS = ("test", "integration_test", "examples")
ENTRY_RE = re.compile(r"transform\.named_sequence\s+@__transform_main\b")
# Wall-clock figures are measurements: "13.47 ms", "0.8 s", "120 us", "(2.1s)".
TIMING_RE = re.compile(r"\d+(?:\.\d+)?(?:e[-+]?\d+)?\s*(?:ms|us|µs|s)\b")
# Temporary paths differ between runs.
TMP_RE = re.compile(r"/tmp/[\w./-]+")
# A table header's timing column: "ms", "us", "s" as a word of the header.
TIMING_HEADER_RE = re.compile(r"(?<!\S)(?:ms|us|µs|s|sec|seconds)(?!\S)")
# select_tile_config's measured mode reports how many calls one sample took.
NUMBER_RE = re.compile(r"[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?")
CALLS_RE = re.compile(r"\d+ calls per sample")
PER_ITEM_TIMEOUT = 600
# Items whose decision is a measurement on this host (a different order of
# near-equal candidates is a different timing, not a different decision).
EXCLUDED = {
    "integration_test/TileConfig/select-tile-config-measure.mlir":
        "select_tile_config's measured mode ranks candidates by their run time here",
}


def benches(build):
    """(name, command) of each decision bench, for the build `build`."""
    opt = os.path.join(build, "bin", "hwsched-opt")
    py = sys.executable
    b = os.path.join(ROOT, "bench")
    return [
        ("bench/smem/run.py", [py, f"{b}/smem/run.py", "--build", build, "--no-op-timing"]),
        ("bench/pipeline/run.py", [py, f"{b}/pipeline/run.py", "--opt", opt]),
        ("bench/tileconfig/npu_check.py", [py, f"{b}/tileconfig/npu_check.py", "--build", build]),
        ("bench/tileconfig/sm_fill.py", [py, f"{b}/tileconfig/sm_fill.py", "--build", build]),
        ("bench/tileconfig/split_decision.py (reduced grid)",
         [py, f"{b}/tileconfig/split_decision.py", "--build", build,
          "--sizes", "128,512,2048", "--ks", "256,4096"]),
        ("bench/copies/run.py", [py, f"{b}/copies/run.py", "--no-exec"]),
    ]


def payload_files():
    files = []
    for top in PAYLOAD_DIRS:
        for dirpath, dirnames, names in os.walk(os.path.join(ROOT, top)):
            dirnames.sort()
            for name in sorted(names):
                if not name.endswith(".mlir"):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, errors="replace") as f:
                    if ENTRY_RE.search(f.read()):
                        files.append(path)
    return files


def mask_timing_columns(text):
    """In a table whose header names a timing column ("ms", "us", "packer
    ms", ...), masks that column's right-aligned numbers in the rows below,
    up to the next blank line: the number ending nearest the header word's
    end (a wide cell to its left may push it a few characters right)."""
    out, ends = [], []
    for line in text.split("\n"):
        if not line.strip():
            ends = []
        elif ends:
            numbers = [m for m in re.finditer(r"\S+", line) if NUMBER_RE.fullmatch(m.group())]
            spans = set()
            for end in ends:
                near = [m for m in numbers if abs(m.end() - end) <= 6]
                if near:
                    best = min(near, key=lambda m: abs(m.end() - end))
                    spans.add((best.start(), best.end()))
            for start, stop in sorted(spans, reverse=True):
                line = line[:start] + "~" + line[stop:]
        else:
            heads = [m.end() for m in TIMING_HEADER_RE.finditer(line)]
            if heads and len(line.split()) >= 3:
                ends = heads
        out.append(line)
    return "\n".join(out)


def normalize(text, build=None):
    """Masks what differs between two runs of the same decisions: timings,
    temporary paths, the build folder and the checkout's path (snapshots of
    two worktrees compare)."""
    if build:
        text = text.replace(build, "<build>").replace(ROOT, "<root>")
    return TMP_RE.sub("<tmp>", TIMING_RE.sub("<time>", text))


def comparable(text):
    """The stored text with timing columns masked (their alignment is kept in
    the snapshot, so the column of a header word is found) and blanks
    collapsed (column widths follow the masked figures' widths)."""
    text = CALLS_RE.sub("<n> calls per sample", mask_timing_columns(normalize(text)))
    return re.sub(r"[ \t]+", " ", text)


def item_file(out, name):
    safe = re.sub(r"[^\w.-]+", "_", name)
    return os.path.join(out, safe + ".txt")


def snapshot(args):
    build = os.path.abspath(args.build)
    opt = os.path.join(build, "bin", "hwsched-opt")
    if not os.access(opt, os.X_OK):
        sys.exit(f"no hwsched-opt in {build}/bin: build first (scripts/build.sh)")
    os.makedirs(args.out, exist_ok=True)
    env = dict(os.environ, HWSCHED_OPT=opt, PATH=os.path.join(build, "bin") + os.pathsep
               + os.environ.get("PATH", ""))
    env.pop("HWSCHED_TARGET", None)
    items = []
    if not args.no_payloads:
        for path in payload_files():
            rel = os.path.relpath(path, ROOT)
            if rel in EXCLUDED:
                print(f"skipped {rel}: {EXCLUDED[rel]}", flush=True)
                continue
            cmd = [opt, path, "--split-input-file", "--transform-interpreter",
                   "--mlir-disable-threading"]
            items.append((rel, cmd, os.path.dirname(path),
                          dict(env, HWSCHED_SPEC_PATH=os.path.join(ROOT, "hw-specs"))))
    if not args.no_benches:
        for name, cmd in benches(build):
            items.append((name, cmd, ROOT, env))
    print(f"decisions snapshot of {build} on {cpu_name()}: {len(items)} items -> {args.out}",
          flush=True)
    start = time.monotonic()
    for i, (name, cmd, cwd, item_env) in enumerate(items, 1):
        t0 = time.monotonic()
        old = os.getcwd()
        os.chdir(cwd)
        try:
            rc, out, err = run_tool(cmd, timeout=PER_ITEM_TIMEOUT, env=item_env)
        finally:
            os.chdir(old)
        text = f"exit {rc}\n--- stdout\n{out}\n--- stderr\n{err}"
        with open(item_file(args.out, name), "w") as f:
            f.write(f"{name}\n" + normalize(text, build))
        elapsed = time.monotonic() - start
        left = elapsed / i * (len(items) - i)
        print(f"[{i}/{len(items)}] {name}: exit {rc}, {time.monotonic() - t0:.1f} s "
              f"(about {left / 60:.0f} min left)", file=sys.stderr, flush=True)
    return 0


def read_item(path):
    """An item's text as compared (see comparable)."""
    with open(path, errors="replace") as f:
        return comparable(f.read())


def compare(args):
    a = {n for n in os.listdir(args.before) if n.endswith(".txt")}
    b = {n for n in os.listdir(args.after) if n.endswith(".txt")}
    same = differ = 0
    for name in sorted(a & b):
        pa, pb = os.path.join(args.before, name), os.path.join(args.after, name)
        ta, tb = read_item(pa), read_item(pb)
        if ta == tb:
            same += 1
            continue
        differ += 1
        la, lb = ta.splitlines(), tb.splitlines()
        diff = [d for d in difflib.unified_diff(la, lb, "before", "after", n=0, lineterm="")
                if not d.startswith(("---", "+++", "@@"))]
        print(f"DIFFERS {la[0] if la else name}:")
        for line in diff[:args.lines]:
            print(f"    {line[:200]}")
    only = sorted(a ^ b)
    for name in only:
        print(f"ONLY IN {'before' if name in a else 'after'}: {name}")
    print(f"{same + differ + len(only)} items compared, {same} identical, {differ} differ, "
          f"{len(only)} only in one")
    return 1 if differ or only else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("snapshot", help="record the decisions of one build")
    s.add_argument("--build", default=os.path.join(ROOT, "build"))
    s.add_argument("--out", required=True)
    s.add_argument("--no-payloads", action="store_true", help="only the benches")
    s.add_argument("--no-benches", action="store_true", help="only the payload files")
    c = sub.add_parser("compare", help="compare two snapshots")
    c.add_argument("before")
    c.add_argument("after")
    c.add_argument("--lines", type=int, default=8, help="differing lines shown per item")
    args = ap.parse_args()
    return snapshot(args) if args.cmd == "snapshot" else compare(args)


if __name__ == "__main__":
    sys.exit(main())
