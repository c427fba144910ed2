#!/usr/bin/env python3
"""copy-differential.py: randomized differential test of copy elimination.

Usage:
  python3 utils/copy-differential.py [--first-seed S] [--files F]
      [--kernels K] [--library FILE] [--keep DIR]

For each of F seeds, generates a module of K random kernels with
utils/gen-copy-programs.py, applies the transform library (default:
test/Copies/Inputs/eliminate-library.mlir, which runs
transform.smem.eliminate_redundant_copies on every function) and checks
with utils/exec-check.py (--erase-memory-spaces) that every kernel prints
the same outputs before and after. Counts the copy ops (memref.copy,
linalg.copy, copy-like linalg.generic as printed) before and after with the
opt tool ($HWSCHED_OPT, else hwsched-opt on PATH or in build/bin).

Prints one line per file and a summary:
  seed S: K kernels, copies A -> B, EXEC-CHECK: PASS (...)
  SUMMARY: N cases in F files, copies A -> B (R removed), F files identical
Exit status 1 if any file fails.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from hwsched_tools import toolchain  # noqa: E402


def opt_tool():
    return toolchain.find_hwsched_opt() or "hwsched-opt"


COPY_GENERIC = re.compile(
    r"linalg\.generic \{indexing_maps = \[#map, #map\][^\n]*\n\s*\^bb0\(%in: f32, %out: f32\):\n\s*linalg\.yield %in : f32")


def count_copies(text):
    return (text.count("memref.copy ") + text.count("linalg.copy ")
            + len(COPY_GENERIC.findall(text)))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--files", type=int, default=10)
    parser.add_argument("--kernels", type=int, default=30)
    parser.add_argument("--library", default=os.path.join(
        ROOT, "test", "Copies", "Inputs", "eliminate-library.mlir"))
    parser.add_argument("--keep", help="keep the generated files here")
    args = parser.parse_args(argv)

    gen = __import__("gen-copy-programs")
    opt = opt_tool()
    transform = [f"--transform-preload-library=transform-library-paths={args.library}",
                 "--transform-interpreter"]
    workdir = args.keep or tempfile.mkdtemp(prefix="copy-differential-")
    os.makedirs(workdir, exist_ok=True)
    failures = 0
    total_before = total_after = 0
    try:
        for seed in range(args.first_seed, args.first_seed + args.files):
            path = os.path.join(workdir, f"random-{seed}.mlir")
            with open(path, "w") as f:
                f.write(gen.generate_module(seed, args.kernels))
            canon = subprocess.run([opt, path], capture_output=True, text=True)
            after = subprocess.run([opt, path, *transform], capture_output=True,
                                   text=True)
            if canon.returncode or after.returncode:
                failures += 1
                print(f"seed {seed}: transform failed:\n{after.stderr[-2000:]}")
                continue
            before_n = count_copies(canon.stdout)
            after_n = count_copies(after.stdout)
            total_before += before_n
            total_after += after_n
            check = subprocess.run(
                [sys.executable, os.path.join(HERE, "exec-check.py"), path,
                 "--erase-memory-spaces", "--", *transform],
                capture_output=True, text=True)
            verdict = next((l for l in check.stdout.splitlines()
                            if l.startswith("EXEC-CHECK:")), "EXEC-CHECK: none")
            print(f"seed {seed}: {args.kernels} kernels, copies {before_n} -> "
                  f"{after_n}, {verdict}")
            if check.returncode:
                failures += 1
                print(check.stdout[-4000:])
            sys.stdout.flush()
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    files = args.files
    print(f"SUMMARY: {files * args.kernels} cases in {files} files, copies "
          f"{total_before} -> {total_after} ({total_before - total_after} "
          f"removed), {files - failures} files identical")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
