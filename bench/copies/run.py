#!/usr/bin/env python3
"""Benchmark of transform.smem.eliminate_redundant_copies on real IR.

Usage: python3 bench/copies/run.py [--no-exec] [--keep DIR]

Produces payload IR the way the project does today (the shipped GPU mapping
script test/Harness/Inputs/map-matmul-to-gpu.mlir; a shared-memory
promotion script; one-shot-bufferize of tensor programs, with and without
copy-before-write), applies the op (target nvidia-a100, `explain`; the
shared-memory promotion also with x86-avx512, whose spec lets consumers
read any memory space directly) and
prints, per input: copies before/after (removed forward/backward), local
allocations and their bytes before/after, on-chip
(#gpu.address_space<workgroup>) bytes before/after, and whether the program
prints the same on the CPU before and after (utils/exec-check.py; n/a for
IR with gpu.launch). Needs hwsched-opt ($HWSCHED_OPT, PATH or build/bin).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "utils"))
from hwsched_tools import toolchain  # noqa: E402
INPUTS = os.path.join(HERE, "inputs")
HARNESS = os.path.join(ROOT, "test", "Harness", "Inputs")
LIBRARY = os.path.join(ROOT, "test", "Copies", "Inputs", "eliminate-library.mlir")

# The spec the op reads (the library names none); a case may name another.
DEFAULT_TARGET = "nvidia-a100"

ONE_SHOT = ("builtin.module(one-shot-bufferize{bufferize-function-boundaries "
            "function-boundary-type-conversion=identity-layout-map%s})")


def lib(path, entry):
    return [f"--transform-preload-library=transform-library-paths={path}",
            f"--transform-interpreter=entry-point={entry}"]


CASES = [
    ("matmul-bias-relu", "map_matmul_to_gpu_4x4",
     os.path.join(HARNESS, "matmul-bias-relu.mlir"),
     lib(os.path.join(HARNESS, "map-matmul-to-gpu.mlir"), "map_matmul_to_gpu_4x4"), False),
    ("matmul-bias-relu", "map_matmul_to_gpu_8x8",
     os.path.join(HARNESS, "matmul-bias-relu.mlir"),
     lib(os.path.join(HARNESS, "map-matmul-to-gpu.mlir"), "map_matmul_to_gpu_8x8"), False),
    ("matmul 64^3", "promote_smem (inputs/promote-smem.mlir)",
     os.path.join(INPUTS, "matmul.mlir"),
     lib(os.path.join(INPUTS, "promote-smem.mlir"), "promote_smem"), True),
    # The same promoted IR judged by the CPU spec, whose
    # onchip.direct_read_spaces says every memory space is the same DRAM:
    # the staging copies are not needed there.
    ("matmul 64^3", "promote_smem (inputs/promote-smem.mlir)",
     os.path.join(INPUTS, "matmul.mlir"),
     lib(os.path.join(INPUTS, "promote-smem.mlir"), "promote_smem"), True,
     "x86-avx512"),
]
for name, path in [("matmul-exec (Harness)", os.path.join(HARNESS, "matmul-exec.mlir")),
                   ("tiled-elementwise", os.path.join(INPUTS, "tiled-elementwise.mlir")),
                   ("tiled-elementwise-smem",
                    os.path.join(INPUTS, "tiled-elementwise-smem.mlir")),
                   ("concat-pad", os.path.join(INPUTS, "concat-pad.mlir"))]:
    CASES.append((name, "one-shot-bufferize", path,
                  [f"--pass-pipeline={ONE_SHOT % ''}"], True))
    CASES.append((name, "one-shot-bufferize copy-before-write", path,
                  [f"--pass-pipeline={ONE_SHOT % ' copy-before-write'}"], True))
# The shared-memory temporaries judged by the CPU spec too.
for variant in ["", " copy-before-write"]:
    CASES.append(("tiled-elementwise-smem", "one-shot-bufferize" + variant,
                  os.path.join(INPUTS, "tiled-elementwise-smem.mlir"),
                  [f"--pass-pipeline={ONE_SHOT % variant}"], True,
                  "x86-avx512"))

SUMMARY = re.compile(r"removed (\d+) of (\d+) copies \((\d+) forward, (\d+) backward\)"
                     r".*?(?:: (\d+) -> (\d+) bytes)?$", re.M)
ALLOC = re.compile(r"= memref\.alloca?\(.*: memref<(.*)>\s*$", re.M)
BITS = {"f64": 64, "f32": 32, "f16": 16, "bf16": 16, "i64": 64, "i32": 32,
        "i16": 16, "i8": 8, "i1": 8}


def alloc_stats(text):
    count = total = onchip = dynamic = 0
    for match in ALLOC.finditer(text):
        body = match.group(1)
        count += 1
        shape_elem = body.split(",")[0].strip()
        parts = shape_elem.split("x")
        dims, elem = parts[:-1], parts[-1]
        if any(d == "?" for d in dims) or elem not in BITS:
            dynamic += 1
            continue
        n = 1
        for d in dims:
            n *= int(d)
        size = n * BITS[elem] // 8
        total += size
        if "#gpu.address_space<workgroup>" in body:
            onchip += size
    return count, total, onchip, dynamic


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--no-exec", action="store_true")
    parser.add_argument("--keep")
    args = parser.parse_args(argv)
    opt = toolchain.find_hwsched_opt()
    if not opt:
        print("hwsched-opt not found ($HWSCHED_OPT, PATH or build/bin)", file=sys.stderr)
        return 2
    work = args.keep or tempfile.mkdtemp(prefix="bench-copies-")
    os.makedirs(work, exist_ok=True)
    header = ("| input | produced by | target | copies before -> after | removed (fwd/bwd) "
              "| allocs before -> after | alloc bytes before -> after "
              "| on-chip bytes before -> after | CPU exec-check |")
    print(header)
    print("|" + "---|" * 9)
    status = 0
    try:
        for index, case in enumerate(CASES):
            name, how, path, produce, executable = case[:5]
            target = case[5] if len(case) > 5 else DEFAULT_TARGET
            before = os.path.join(work, f"case{index}.before.mlir")
            made = run([opt, path, *produce, "-o", before])
            if made.returncode:
                print(f"| {name} | {how} | {target} | producing the payload failed: "
                      f"{made.stderr.strip().splitlines()[-1]} |")
                status = 1
                continue
            transform = [f"--hwsched-target={target}",
                         *lib(LIBRARY, "__transform_main")]
            after = run([opt, before, *transform, "--mlir-print-op-on-diagnostic=false"])
            if after.returncode:
                print(f"| {name} | {how} | {target} | transform failed |")
                print(after.stderr[-2000:], file=sys.stderr)
                status = 1
                continue
            removed = copies = fwd = bwd = ob = oa = 0
            for m in SUMMARY.finditer(after.stderr):
                removed += int(m.group(1))
                copies += int(m.group(2))
                fwd += int(m.group(3))
                bwd += int(m.group(4))
            with open(before) as f:
                b_count, b_bytes, b_onchip, b_dyn = alloc_stats(f.read())
            a_count, a_bytes, a_onchip, a_dyn = alloc_stats(after.stdout)
            verdict = "n/a (gpu.launch)"
            if executable and not args.no_exec:
                check = run([sys.executable, os.path.join(ROOT, "utils", "exec-check.py"),
                             before, "--erase-memory-spaces", "--", *transform])
                verdict = next((l for l in check.stdout.splitlines()
                                if l.startswith("EXEC-CHECK:")), "EXEC-CHECK: none")
                verdict = verdict.replace("EXEC-CHECK: ", "")
                if check.returncode:
                    status = 1
            elif executable:
                verdict = "skipped"
            dyn = f" (+{b_dyn}->{a_dyn} dynamic)" if b_dyn or a_dyn else ""
            print(f"| {name} | {how} | {target} | {copies} -> {copies - removed} | {removed} "
                  f"({fwd}/{bwd}) | {b_count} -> {a_count} | {b_bytes} -> {a_bytes}{dyn} "
                  f"| {b_onchip} -> {a_onchip} | {verdict} |")
            sys.stdout.flush()
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
