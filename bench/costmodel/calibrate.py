#!/usr/bin/env python3
"""Fits the GPU register model's constants to ptxas and writes them into the
spec files' cost_weights (the values live in the specs, not in code).

  demand = reg_base + reg_per_address_operand*addr
         + max(reg_per_accumulator*acc + reg_per_fragment*frag, epilogue)
      fitted by least squares (non-negative) to ptxas registers at cap 255
      (--fit relative: to the relative error);
  floor  = reg_floor_base + acc + step
      reg_floor_base: the middle of the interval that separates the kernels
      ptxas spills at each cap from those it does not (max accuracy if no
      value separates them).
The epilogue weights (reg_per_epilogue_input = reg_per_temporary) are the
largest value <= 1 for which no kernel's epilogue phase exceeds ptxas (the
corpus never shows the epilogue as the peak phase, so only that bound is
identifiable).

Usage:
  python3 bench/costmodel/calibrate.py [--arch sm_80] [--spec nvidia-a100]
      [--caps 64,128] [--fit absolute|relative] [--only REGEX]
      [--write hw-specs/nvidia-a100.json ...] [--from-json F...]
Without --write it only prints the fit.
"""
import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gpu_corpus  # noqa: E402
from specio import set_cost_weights  # noqa: E402


def solve(a, b):
    """Least squares via normal equations + Gaussian elimination."""
    n = len(a[0])
    ata = [[sum(r[i] * r[j] for r in a) for j in range(n)] for i in range(n)]
    atb = [sum(r[i] * y for r, y in zip(a, b)) for i in range(n)]
    m = [row[:] + [v] for row, v in zip(ata, atb)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if abs(m[c][c]) < 1e-12:
            continue
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] if abs(m[i][i]) > 1e-12 else 0.0
            for i in range(n)]


def nnls(cols, names, rows, target):
    """Least squares with non-negative coefficients (drop negative ones)."""
    active = list(range(len(cols)))
    while True:
        a = [[cols[j](r) for j in active] for r in rows]
        x = solve(a, [target(r) for r in rows])
        neg = [k for k, v in enumerate(x) if v < 0]
        if not neg:
            out = {n: 0.0 for n in names}
            for k, j in enumerate(active):
                out[names[j]] = x[k]
            return out
        del active[neg[0]]


def fit(rows, caps, relative=False):
    """Fits the constants; with `relative`, the demand minimises the squared
    relative error (each row divided by its ptxas count): the validation
    criterion is relative (within 20%), and a few small-tile kernels on which
    ptxas allocates 2-4x the model (mm_bias_relu 2x2x4: 84, conv2d_bias_relu
    2x2x4: 158) otherwise dominate the absolute fit."""
    cols = [lambda r: 1.0, lambda r: r["acc"], lambda r: r["frag"],
            lambda r: r["addr"]]
    names = ["reg_base", "reg_per_accumulator", "reg_per_fragment",
             "reg_per_address_operand"]
    if relative:
        demand = nnls([lambda r, f=f: f(r) / r["ptxas255"] for f in cols],
                      names, rows, lambda r: 1.0)
    else:
        demand = nnls(cols, names, rows, lambda r: r["ptxas255"])
    # Floor: spill iff floor_base + acc + step > cap.
    best = None
    for fb in range(0, max(caps) + 1):
        good = sum((fb + r["acc"] + r["step"] > cap) == r["spills"][cap]
                   for r in rows for cap in caps if cap in r["spills"])
        if best is None or good > best[1]:
            best = (fb, good, [fb])
        elif good == best[1]:
            best[2].append(fb)
    lo, hi = min(best[2]), max(best[2])
    demand["reg_floor_base"] = float((lo + hi) // 2)
    # Epilogue weights (one shared weight w for epilogue inputs and
    # temporaries): the largest w <= 1 for which no kernel's epilogue phase
    # exceeds what ptxas allocates (the epilogue is never observed as the
    # peak, so only this upper bound is identifiable).
    w = 1.0
    for r in rows:
        if r["epi"] + r["tmp"] > 0:
            room = (r["ptxas255"] - demand["reg_base"]
                    - demand["reg_per_address_operand"] * r["addr"]
                    - demand["reg_per_accumulator"] * r["acc"])
            w = min(w, max(0.0, room / (r["epi"] + r["tmp"])))
    demand["reg_per_epilogue_input"] = w
    demand["reg_per_temporary"] = w
    total = sum(len(r["spills"]) for r in rows)
    return demand, (best[1], total, lo, hi)


def predict(w, r):
    main_loop = w["reg_per_accumulator"] * r["acc"] + w["reg_per_fragment"] * r["frag"]
    epilogue = (w["reg_per_accumulator"] * r["acc"]
                + w["reg_per_epilogue_input"] * r["epi"]
                + w["reg_per_temporary"] * r["tmp"])
    demand = (w["reg_base"] + w["reg_per_address_operand"] * r["addr"]
              + max(main_loop, epilogue))
    floor = w["reg_floor_base"] + r["acc"] + r["step"]
    return -(-demand // 1), -(-floor // 1)


def cross_validate(rows, caps, relative=False):
    """Leave one kernel family out: fit on the others, predict it."""
    within = spill_ok = spill_n = 0
    for family in sorted({r["kernel"] for r in rows}):
        train = [r for r in rows if r["kernel"] != family]
        test = [r for r in rows if r["kernel"] == family]
        w, _ = fit(train, caps, relative)
        for r in test:
            demand, floor = predict(w, r)
            within += abs(demand - r["ptxas255"]) <= 0.2 * r["ptxas255"]
            for cap, spilled in r["spills"].items():
                spill_n += 1
                spill_ok += (floor > cap) == spilled
    n = len(rows)
    print(f"leave-one-family-out: demand within 20% on {within}/{n} = "
          f"{100.0 * within / n:.1f}%, spill prediction {spill_ok}/{spill_n} = "
          f"{100.0 * spill_ok / spill_n:.1f}%")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--arch", default="sm_80")
    ap.add_argument("--spec", default="nvidia-a100",
                    help="spec whose current weights the estimate uses "
                    "(features only: the fit does not depend on them)")
    ap.add_argument("--caps", default="64,128")
    ap.add_argument("--build", default=os.path.join(gpu_corpus.ROOT, "build"))
    ap.add_argument("--write", nargs="*", default=[])
    ap.add_argument("--save-json")
    ap.add_argument("--from-json")
    ap.add_argument("--fit", choices=["absolute", "relative"],
                    default="absolute",
                    help="least squares on registers (absolute, what the "
                    "shipped constants come from) or on relative error")
    ap.add_argument("--only", help="regex on the kernel name: fit on these "
                    "kernels only (the shipped constants: "
                    "'^(mm|mmtb|bmm)_')")
    ap.add_argument("--cross-validate", action="store_true",
                    help="also fit on all kernel families but one and "
                    "predict the held-out family, for each family")
    args = ap.parse_args()
    caps = [int(c) for c in args.caps.split(",")]
    opt = os.path.join(args.build, "bin", "hwsched-opt")
    if args.from_json:
        rows = json.load(open(args.from_json))
        for r in rows:
            r["spills"] = {int(k): v for k, v in r["spills"].items()}
    else:
        rows = None
        for cap in caps:
            corpus = [c for c in gpu_corpus.CORPUS
                      if not args.only or re.search(args.only, c[0])]
            part = gpu_corpus.run_corpus(opt, args.spec, args.arch, cap,
                                         corpus)
            if rows is None:
                rows = part
                for r in rows:
                    r["spills"] = {}
            for r, p in zip(rows, part):
                r["spills"][cap] = p["spill_store"] > 0 or p["spill_load"] > 0
    if args.save_json:
        json.dump(rows, open(args.save_json, "w"), indent=1)
    if args.only:
        rows = [r for r in rows if re.search(args.only, r["kernel"])]
    relative = args.fit == "relative"
    if args.cross_validate:
        cross_validate(rows, caps, relative)
    weights, (good, total, lo, hi) = fit(rows, caps, relative)
    print(f"corpus: {len(rows)} kernels, arch {args.arch}, caps {caps}")
    for k, v in weights.items():
        print(f"  {k:26} = {v:.4f}")
    print(f"  floor separates spills on {good}/{total} (kernel, cap) pairs; "
          f"reg_floor_base feasible in [{lo}, {hi}]")
    print("  reg_per_epilogue_input = reg_per_temporary: the largest weight "
          "(<= 1) that keeps every kernel's epilogue phase within ptxas")
    source = (f"calibration: reg_* fitted by bench/costmodel/calibrate.py "
              f"against ptxas ({args.arch}, CUDA 13) on the "
              f"{len(rows)}-kernel corpus of bench/costmodel/gpu_corpus.py "
              f"(demand: {args.fit} least squares vs registers at "
              f"-maxrregcount=255; "
              f"floor: spills at caps {args.caps}; reg_per_epilogue_input = "
              f"reg_per_temporary: the largest weight <= 1 that keeps every "
              f"kernel's epilogue phase within ptxas); default_thread_tile_elements/"
              f"default_reduction_tile = the 4x4x4 per-thread tile of the "
              f"foundation's GPU mapping; memory_transaction_bytes = 32-byte "
              f"L2 sector (CUDA C++ Best Practices Guide, coalesced access); "
              f"recompute_limit and the score weights are calibration "
              f"defaults.")
    for path in args.write:
        set_cost_weights(path, {k: round(v, 3) for k, v in weights.items()},
                         source=source)
        print(f"  wrote {path}")


if __name__ == "__main__":
    main()
