#!/usr/bin/env python3
"""num_threads of select_tile_config against the thread forall it describes.

Writes one function per small problem (matmuls, batch matmuls,
elementwise ops of rank 1 to 4, transposes, fills, row reductions, a
convolution; extents 1 to 24), then for every Linalg op: select_tile_config
{ explain } on --target, tile_using_forall by `tile_sizes`, and the block's
op by `thread_tile_sizes` (the documented flow). Each thread forall is
reported with its trip counts (a remark on the forall, the printed op
carries them), and the pick's num_threads must equal them, innermost loop
first (x, y, z), 1 for the dims the forall does not have.

Prints one line per mismatch or refusal and
`THREAD-FORALL-SWEEP: <n> ops, <m> compared, <k> mismatches, <r> refused`;
exit 1 on a mismatch or, with --no-refusals, on a refusal.
"""

import argparse
import itertools
import re
import subprocess
import sys

ELEMS = [1, 2, 3, 7, 16, 24]


def t(shape, elem="f32"):
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


def payloads():
    """(name, function text) per problem."""
    out = []
    for m, n, k in itertools.product([1, 2, 3, 7, 16, 24], [1, 2, 3, 7, 16, 24], [4, 33]):
        a, b, c = t([m, k]), t([k, n]), t([m, n])
        out.append((f"matmul_{m}x{n}x{k}",
                    f"func.func @matmul_{m}x{n}x{k}(%a: {a}, %b: {b}, %c: {c}) -> {c} {{\n"
                    f"  %r = linalg.matmul ins(%a, %b : {a}, {b}) outs(%c : {c}) -> {c}\n"
                    f"  return %r : {c}\n}}"))
    for bt, m, n, k in [(2, 3, 5, 4), (4, 16, 8, 8), (3, 1, 24, 16)]:
        a, b, c = t([bt, m, k]), t([bt, k, n]), t([bt, m, n])
        name = f"bmm_{bt}x{m}x{n}x{k}"
        out.append((name,
                    f"func.func @{name}(%a: {a}, %b: {b}, %c: {c}) -> {c} {{\n"
                    f"  %r = linalg.batch_matmul ins(%a, %b : {a}, {b}) outs(%c : {c}) -> {c}\n"
                    f"  return %r : {c}\n}}"))
    shapes = [[n] for n in [1, 3, 16, 17]]
    shapes += [[m, n] for m, n in itertools.product(ELEMS, ELEMS)]
    shapes += [[2, 3, 16], [4, 8, 16], [2, 2, 2, 16], [3, 5, 7, 9]]
    for shape in shapes:
        x = t(shape)
        name = "add_" + "x".join(map(str, shape))
        out.append((name,
                    f"func.func @{name}(%a: {x}, %b: {x}, %c: {x}) -> {x} {{\n"
                    f"  %r = linalg.add ins(%a, %b : {x}, {x}) outs(%c : {x}) -> {x}\n"
                    f"  return %r : {x}\n}}"))
    for m, n in [(3, 16), (16, 5), (16, 16), (24, 7)]:
        name = f"transpose_{m}x{n}"
        out.append((name,
                    f"func.func @{name}(%a: {t([m, n])}, %c: {t([n, m])}) -> {t([n, m])} {{\n"
                    f"  %r = linalg.transpose ins(%a : {t([m, n])}) outs(%c : {t([n, m])}) permutation = [1, 0]\n"
                    f"  return %r : {t([n, m])}\n}}"))
    for m, n in [(7, 9), (16, 16), (1, 24)]:
        name = f"fill_{m}x{n}"
        out.append((name,
                    f"func.func @{name}(%v: f32, %c: {t([m, n])}) -> {t([m, n])} {{\n"
                    f"  %r = linalg.fill ins(%v : f32) outs(%c : {t([m, n])}) -> {t([m, n])}\n"
                    f"  return %r : {t([m, n])}\n}}"))
    for m, k in [(2, 16), (16, 64), (7, 5), (24, 3), (1, 40)]:
        name = f"rowsum_{m}x{k}"
        out.append((name,
                    f"func.func @{name}(%a: {t([m, k])}, %c: {t([m])}) -> {t([m])} {{\n"
                    f"  %r = linalg.reduce ins(%a : {t([m, k])}) outs(%c : {t([m])}) dimensions = [1]\n"
                    f"    (%x: f32, %y: f32) {{\n"
                    f"      %s = arith.addf %x, %y : f32\n"
                    f"      linalg.yield %s : f32\n"
                    f"    }}\n"
                    f"  return %r : {t([m])}\n}}"))
    i, f, o = t([1, 6, 6, 3]), t([3, 3, 3, 4]), t([1, 4, 4, 4])
    out.append(("conv_small",
                f"func.func @conv_small(%i: {i}, %f: {f}, %o: {o}) -> {o} {{\n"
                f"  %r = linalg.conv_2d_nhwc_hwcf ins(%i, %f : {i}, {f}) outs(%o : {o}) -> {o}\n"
                f"  return %r : {o}\n}}"))
    return out


PICK = """module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op) {
    %ops = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    transform.foreach %ops : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      transform.sequence %op : !transform.any_op failures(suppress) {
      ^bb1(%o: !transform.any_op):
        %t, %thr, %red, %st, %nt = transform.cost_model.select_tile_config %o { target = "TARGET", explain }
            : (!transform.any_op) -> (!transform.any_param, !transform.any_param, !transform.any_param, !transform.any_param, !transform.any_param)
TILE      }
    }
    transform.yield
  }
}
"""

# Only for picks with a non-zero thread tile (upstream tile_using_forall
# crashes on all-zero tile sizes; such a pick has no thread forall).
TILE = """        %blk, %f1 = transform.structured.tile_using_forall %o tile_sizes *(%t) : (!transform.any_op, !transform.any_param) -> (!transform.any_op, !transform.any_op)
        %thd, %f2 = transform.structured.tile_using_forall %blk tile_sizes *(%thr) : (!transform.any_op, !transform.any_param) -> (!transform.any_op, !transform.any_op)
        transform.debug.emit_remark_at %f2, "THREAD-FORALL" : !transform.any_op
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hwsched-opt", required=True)
    ap.add_argument("--target", required=True)
    ap.add_argument("--no-refusals", action="store_true")
    args = ap.parse_args()
    all_items = payloads()

    def run(items, tile):
        text = "\n\n".join(f for _, f in items) + "\n\n" + \
            PICK.replace("TARGET", args.target).replace("TILE", TILE if tile else "")
        # Line ranges of the functions, to name the op each remark is about.
        starts, line = [], 1
        for name, f in items:
            starts.append((line, name))
            line += f.count("\n") + 2
        p = subprocess.run([args.hwsched_opt, "-", "--transform-interpreter",
                            "-o", "/dev/null"], input=text, capture_output=True,
                           text=True)
        if p.returncode != 0:
            sys.stderr.write(p.stderr)
            raise SystemExit(f"THREAD-FORALL-SWEEP: hwsched-opt failed ({p.returncode})")

        def owner(n):
            return max((s for s in starts if s[0] <= n), key=lambda s: s[0])[1]

        picks, foralls, refusals = {}, {}, {}
        lines = p.stderr.split("\n")
        for i, l in enumerate(lines):
            m = re.match(r"^<stdin>:(\d+):\d+: remark: select_tile_config on .*"
                         r"thread_tile_sizes \[([^]]*)\].*num_threads \[(\d+), (\d+), (\d+)\]", l)
            if m:
                thread = [int(x) for x in m.group(2).split(",")]
                picks[owner(int(m.group(1)))] = (thread, [int(m.group(k)) for k in (3, 4, 5)])
                continue
            m = re.match(r"^<stdin>:(\d+):\d+: remark: THREAD-FORALL$", l)
            if m:
                # The printed op follows ("see current operation: scf.forall ...").
                for j in range(i + 1, min(i + 6, len(lines))):
                    h = re.search(r"scf\.forall \([^)]*\) in \(([^)]*)\)", lines[j])
                    if h:
                        foralls[owner(int(m.group(1)))] = [x.strip() for x in h.group(1).split(",")]
                        break
                continue
            m = re.match(r"^<stdin>:(\d+):\d+: error: (.*)$", l)
            if m:
                refusals.setdefault(owner(int(m.group(1))), m.group(2))
        return picks, foralls, refusals

    picks, _, refusals = run(all_items, False)
    items = [(n, f) for n, f in all_items if n in picks and any(picks[n][0])]
    _, foralls, _ = run(items, True)
    items = all_items
    compared = mismatches = dynamic = 0
    for name, _ in items:
        if name not in picks:
            print(f"refused: {name}: {refusals.get(name, 'no pick')}")
            continue
        thread, threads = picks[name]
        trips = foralls.get(name, []) if any(thread) else []
        if any(not x.isdigit() for x in trips):
            dynamic += 1
            continue
        expect = [int(x) for x in reversed(trips)] + [1] * (3 - len(trips))
        compared += 1
        if len(trips) > 3 or expect != threads:
            mismatches += 1
            print(f"mismatch: {name}: num_threads {threads}, thread forall "
                  f"trip counts (outer to inner) {trips}")
    refused = sum(1 for name, _ in items if name not in picks)
    print(f"THREAD-FORALL-SWEEP: {len(items)} ops, {compared} compared, "
          f"{mismatches} mismatches, {refused} refused, {dynamic} dynamic foralls")
    return 1 if mismatches or (args.no_refusals and refused) else 0


if __name__ == "__main__":
    sys.exit(main())
