#!/usr/bin/env python3
"""CPU validation of the fusion decisions: producer/consumer pairs run with
mlir-runner fused vs unfused, against filter_fusable_consumers on a CPU spec.

For every pair the script
  1. asks `transform.cost_model.filter_fusable_consumers {explain}` (hwsched-opt,
     --spec, default x86-avx512) whether to fuse the consumer into the
     producer;
  2. builds two programs from the same payload with the shipped sequences of
     transform-scripts/cpu-measure.mlir (called with the pair's row tile):
     "fused" tiles the consumer with tile_using_forall and pulls the producer
     into the loop (fuse_into_containing_op); "unfused" tiles the consumer
     the same way and leaves the producer outside;
  3. lowers both to LLVM (one-shot-bufferize, buffer deallocation, loops),
     (both fold tensor.empty slices so that tiles allocate tile-sized
     buffers), runs each --runs times with mlir-runner -O3; each run times --reps
     calls per sample, 5 samples; the figure is the median over all samples;
  4. calls a difference significant when |fused - unfused| / min exceeds
     max(--min-diff, the relative interquartile range of either variant),
     and checks that the model's decision names the faster variant.
Prints one row per pair and the agreement on the significant pairs.

The machine this runs on is not the spec's Xeon: the decisions depend on
ratios (recomputed work vs. traffic saved), which carry over.

Usage: python3 bench/costmodel/cpu_pairs.py [--spec x86-avx512] [--runs 3]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "utils"))
from hwsched_tools import lowering, toolchain, transform_calls  # noqa: E402

# The shared CPU lowering; the timing loop frees its temporaries.
PIPELINE = lowering.cpu_lowering_pipeline(deallocate=True)

EW = "affine_map<({d}) -> ({d})>"


def ident(rank):
    d = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({d}) -> ({d})>"


# Each pair: name, inputs [(name, shape)], body (producer tagged {producer},
# consumer tagged {consumer}, returning %res), result shape, consumer tile.
PAIRS = []


def pair(name, inputs, body, result, tile, reps):
    PAIRS.append(dict(name=name, inputs=inputs, body=body, result=result,
                      tile=tile, reps=reps))


def t(shape):
    return "tensor<" + "x".join(str(s) for s in shape) + "xf32>"


# 1-2. Elementwise chains: fusion saves a pass over the intermediate.
for n in (2048, 512):
    s = t([n, n])
    pair(f"add_mul_{n}", [("x", [n, n]), ("y", [n, n]), ("z", [n, n])], f"""
  %e = tensor.empty() : {s}
  %p = linalg.add {{producer}} ins(%x, %y : {s}, {s}) outs(%e : {s}) -> {s}
  %res = linalg.mul {{consumer}} ins(%p, %z : {s}, {s}) outs(%e : {s}) -> {s}
""", [n, n], [8, 0], 4 if n == 2048 else 40)

# 3. Transcendental producer + elementwise consumer.
s = t([1024, 1024])
pair("exp_sub_1024", [("x", [1024, 1024]), ("y", [1024, 1024])], f"""
  %e = tensor.empty() : {s}
  %p = linalg.exp {{producer}} ins(%x : {s}) outs(%e : {s}) -> {s}
  %res = linalg.sub {{consumer}} ins(%p, %y : {s}, {s}) outs(%e : {s}) -> {s}
""", [1024, 1024], [8, 0], 8)

# 4-6. Broadcast consumers of a 1-D transcendental producer: tiling the
# consumer's rows recomputes the producer once per row tile.
for rows, n in ((4096, 2048), (512, 2048), (64, 2048), (16, 2048)):
    v, m = t([n]), t([rows, n])
    pair(f"exp_bcast_{rows}x{n}", [("x", [n]), ("w", [rows, n])], f"""
  %e1 = tensor.empty() : {v}
  %e2 = tensor.empty() : {m}
  %p = linalg.exp {{producer}} ins(%x : {v}) outs(%e1 : {v}) -> {v}
  %res = linalg.generic {{consumer, indexing_maps = [affine_map<(d0, d1) -> (d1)>, {ident(2)}, {ident(2)}],
                         iterator_types = ["parallel", "parallel"]}}
      ins(%p, %w : {v}, {m}) outs(%e2 : {m}) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  }} -> {m}
""", [rows, n], [8, 0], max(1, 8192 // rows))

# 7. Matmul + bias/ReLU epilogue.
n = 256
mm = t([n, n])
pair("matmul_bias_relu_256", [("a", [n, n]), ("b", [n, n]), ("bias", [n])], f"""
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {mm}
  %init = linalg.fill ins(%zero : f32) outs(%e : {mm}) -> {mm}
  %p = linalg.matmul {{producer}} ins(%a, %b : {mm}, {mm}) outs(%init : {mm}) -> {mm}
  %res = linalg.generic {{consumer, indexing_maps = [{ident(2)}, affine_map<(d0, d1) -> (d1)>, {ident(2)}],
                         iterator_types = ["parallel", "parallel"]}}
      ins(%p, %bias : {mm}, {t([n])}) outs(%e : {mm}) {{
  ^bb0(%x: f32, %bb: f32, %o: f32):
    %s = arith.addf %x, %bb : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }} -> {mm}
""", [n, n], [8, 0], 3)

# 8. Elementwise producer + row reduction (softmax-like denominator).
s, r = t([2048, 2048]), t([2048])
pair("exp_rowsum_2048", [("x", [2048, 2048]), ("acc", [2048])], f"""
  %e = tensor.empty() : {s}
  %p = linalg.exp {{producer}} ins(%x : {s}) outs(%e : {s}) -> {s}
  %res = linalg.generic {{consumer, indexing_maps = [{ident(2)}, affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}}
      ins(%p : {s}) outs(%acc : {r}) {{
  ^bb0(%a: f32, %o: f32):
    %q = arith.addf %o, %a : f32
    linalg.yield %q : f32
  }} -> {r}
""", [2048], [8], 2)

# 9. Elementwise producer + transposing consumer.
pair("exp_transpose_1024", [("x", [1024, 1024])], f"""
  %e = tensor.empty() : {t([1024, 1024])}
  %e2 = tensor.empty() : {t([1024, 1024])}
  %p = linalg.exp {{producer}} ins(%x : {t([1024, 1024])}) outs(%e : {t([1024, 1024])}) -> {t([1024, 1024])}
  %res = linalg.transpose {{consumer}} ins(%p : {t([1024, 1024])}) outs(%e2 : {t([1024, 1024])}) permutation = [1, 0]
""", [1024, 1024], [8, 0], 8)

# 10. Column-broadcast of a 2-D producer row (producer [rows], consumer
# reads p[d0] over 2048 columns: no recomputation when tiling rows).
pair("exp_colbcast_2048", [("x", [2048]), ("w", [2048, 2048])], f"""
  %e1 = tensor.empty() : {t([2048])}
  %e2 = tensor.empty() : {t([2048, 2048])}
  %p = linalg.exp {{producer}} ins(%x : {t([2048])}) outs(%e1 : {t([2048])}) -> {t([2048])}
  %res = linalg.generic {{consumer, indexing_maps = [affine_map<(d0, d1) -> (d0)>, {ident(2)}, {ident(2)}],
                         iterator_types = ["parallel", "parallel"]}}
      ins(%p, %w : {t([2048])}, {t([2048, 2048])}) outs(%e2 : {t([2048, 2048])}) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %q = arith.mulf %a, %b : f32
    linalg.yield %q : f32
  }} -> {t([2048, 2048])}
""", [2048, 2048], [8, 0], 4)


# 11. Back-to-back GEMMs, the second's N (64) fits the first's N (128).
a1, b1, b2 = t([256, 128]), t([128, 128]), t([128, 64])
o1, o2 = t([256, 128]), t([256, 64])
pair("matmul_matmul_256", [("a", [256, 128]), ("b", [128, 128]), ("c", [128, 64])], f"""
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : {o1}
  %e2 = tensor.empty() : {o2}
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : {o1}) -> {o1}
  %i2 = linalg.fill ins(%zero : f32) outs(%e2 : {o2}) -> {o2}
  %p = linalg.matmul {{producer}} ins(%a, %b : {a1}, {b1}) outs(%i1 : {o1}) -> {o1}
  %res = linalg.matmul {{consumer}} ins(%p, %c : {o1}, {b2}) outs(%i2 : {o2}) -> {o2}
""", [256, 64], [8, 0], 4)

# 12. A long elementwise chain step on a wide tensor.
s = t([512, 8192])
pair("mul_max_512x8192", [("x", [512, 8192]), ("y", [512, 8192])], f"""
  %e = tensor.empty() : {s}
  %p = linalg.mul {{producer}} ins(%x, %y : {s}, {s}) outs(%e : {s}) -> {s}
  %res = linalg.max {{consumer}} ins(%p, %y : {s}, {s}) outs(%e : {s}) -> {s}
""", [512, 8192], [8, 0], 4)


def payload(p):
    args = ", ".join(f"%{n}: {t(s)}" for n, s in p["inputs"])
    res = t(p["result"])
    fills = []
    for i, (n, s) in enumerate(p["inputs"]):
        fills.append(f"""  %e_{n} = tensor.empty() : {t(s)}
  %c_{n} = arith.constant {0.25 + 0.125 * i} : f32
  %{n} = linalg.fill ins(%c_{n} : f32) outs(%e_{n} : {t(s)}) -> {t(s)}""")
    call_args = ", ".join(f"%{n}" for n, _ in p["inputs"])
    call_types = ", ".join(t(s) for _, s in p["inputs"])
    zeros = ", ".join("%c0" for _ in p["result"])
    return f"""func.func @kernel({args}) -> {res} {{
{p['body']}
  return %res : {res}
}}

func.func private @rtclock() -> f64
func.func @main() {{
{chr(10).join(fills)}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %reps = arith.constant {p['reps']} : index
  %c5 = arith.constant 5 : index
  scf.for %s = %c0 to %c5 step %c1 {{
    %t0 = func.call @rtclock() : () -> f64
    scf.for %i = %c0 to %reps step %c1 {{
      %r = func.call @kernel({call_args}) : ({call_types}) -> {res}
      %v = tensor.extract %r[{zeros}] : {res}
      %big = arith.constant 1.0e30 : f32
      %never = arith.cmpf ogt, %v, %big : f32
      scf.if %never {{
        vector.print %v : f32
      }}
    }}
    %t1 = func.call @rtclock() : () -> f64
    %dt = arith.subf %t1, %t0 : f64
    vector.print %dt : f64
  }}
  return
}}
"""


# The schedules are the shipped sequences of transform-scripts/cpu-measure.mlir;
# this script writes only the entry points that call them with a pair's row
# tile (transform_calls.Wrapper).
ENTRIES = {"decide": "hwsched_cpu_measure_fusion_decision",
           "fused": "hwsched_cpu_measure_fused_pair",
           "unfused": "hwsched_cpu_measure_unfused_pair"}


def library_paths(p, tmp):
    """{entry: the --transform-preload-library option} for pair `p`: per
    entry (decide, fused, unfused) a @__transform_main calling the shipped
    sequence with the pair's consumer tile (rows of its first loop; the
    other loops untiled), written into `tmp`, then the shipped script."""
    rows, *rest = p["tile"]
    if any(rest):
        raise SystemExit(f"{p['name']}: only the first loop is tiled, got {p['tile']}")
    options = {}
    for entry, sequence in ENTRIES.items():
        w = transform_calls.Wrapper(["cpu-measure.mlir"], root_effect="readonly")
        args = [w.root] if entry == "decide" else [w.root, w.param(rows)]
        w.include(sequence, *args)
        path = os.path.join(tmp, f"{p['name']}.{entry}.mlir")
        with open(path, "w") as f:
            f.write(w.text())
        options[entry] = w.preload_option(path)
    return options


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{p.stderr[-3000:]}")
    return p


def build(opt, src, preload, out, spec):
    transformed = out + ".t.mlir"
    run([opt, src, preload, "--transform-interpreter", f"--hwsched-target={spec}",
         "-o", transformed])
    run([toolchain.mlir_opt(), transformed, f"--pass-pipeline={PIPELINE}",
         "-o", out])


def measure(llvm_file, runs):
    libs = ",".join(toolchain.runner_libs())
    samples = []
    for _ in range(runs):
        p = run([toolchain.mlir_runner(), "-O3", "-e", "main",
                 "-entry-point-result=void", f"-shared-libs={libs}",
                 llvm_file])
        samples += [float(x) for x in p.stdout.split()]
    samples.sort()
    med = statistics.median(samples)
    q1 = samples[len(samples) // 4]
    q3 = samples[(3 * len(samples)) // 4]
    return med, (q3 - q1) / med


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--spec", default="x86-avx512")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--min-diff", type=float, default=0.05)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--only", help="regex on pair names")
    args = ap.parse_args()
    opt = os.path.join(args.build, "bin", "hwsched-opt")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for p in PAIRS:
            if args.only and not re.search(args.only, p["name"]):
                continue
            src = os.path.join(tmp, p["name"] + ".mlir")
            open(src, "w").write(payload(p))
            preload = library_paths(p, tmp)
            d = subprocess.run(
                [opt, src, preload["decide"], "--transform-interpreter",
                 f"--hwsched-target={args.spec}", "-o", os.devnull],
                capture_output=True, text=True).stderr
            m = re.search(r": (fuse|reject)( \(([^)]*(\([^)]*\))?[^)]*)\))?;", d)
            if not m:
                raise SystemExit(f"no decision for {p['name']}:\n{d}")
            fuse = m.group(1) == "fuse"
            times = {}
            for variant in ("fused", "unfused"):
                out = os.path.join(tmp, f"{p['name']}.{variant}.ll.mlir")
                build(opt, src, preload[variant], out, args.spec)
                times[variant] = measure(out, args.runs)
            (tf, nf), (tu, nu) = times["fused"], times["unfused"]
            diff = abs(tf - tu) / min(tf, tu)
            significant = diff > max(args.min_diff, nf, nu)
            faster_fused = tf < tu
            agree = faster_fused == fuse
            rows.append((p["name"], fuse, m.group(3) or "", tf, tu, diff,
                         significant, agree))
            print(f"  measured {p['name']}", file=sys.stderr)
    print(f"{'pair':24} {'model':7} {'fused ms':>9} {'unfused ms':>10} "
          f"{'diff%':>6} {'signif':>6} {'agree':>5}  reason")
    for name, fuse, reason, tf, tu, diff, sig, agree in rows:
        print(f"{name:24} {'fuse' if fuse else 'reject':7} {tf * 1e3:9.2f} "
              f"{tu * 1e3:10.2f} {diff * 100:6.1f} {'yes' if sig else 'no':>6} "
              f"{('Y' if agree else 'N') if sig else '-':>5}  {reason[:60]}")
    sig = [r for r in rows if r[6]]
    ok = sum(1 for r in sig if r[7])
    print(f"\npairs: {len(rows)}, significant: {len(sig)}, decision agrees "
          f"with the measurement on {ok}/{len(sig)}"
          + (f" = {100.0 * ok / len(sig):.1f}% (target >= 90%)" if sig else ""))


if __name__ == "__main__":
    main()
