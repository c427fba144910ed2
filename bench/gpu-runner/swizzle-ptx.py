#!/usr/bin/env python3
"""swizzle-ptx.py: our bank-conflict swizzle against upstream's, side by side.

The tensor-core schedule (transform-scripts/gpu-matmul-tensorcore.mlir)
swizzles its shared tiles with transform.smem.avoid_bank_conflicts, which
picks, per tile, the XOR swizzle with the fewest bank wavefronts and then
the smallest mask, from the spec's banks. Upstream MLIR's
nvgpu-optimize-shared-memory pass assumes 128-byte lines and swizzles with
the widest mask a row allows. Both remove the ldmatrix conflicts of these
kernels (test/Smem/avoid-bank-conflicts.mlir and docs/Smem.md give the
wavefront counts); this bench shows what the smaller masks buy in the
compiled kernel: it builds the cost model's picks twice with
bench/gpu-runner/tensorcore-ptx.py, once with the shipped script and once
with a copy whose swizzle steps call upstream's pass instead (the only
difference), and prints ptxas's registers, spills and instructions per K
step side by side. ptxas only: no GPU needed (figures of the timed runs
come from bench/gpu-runner/run.py where a GPU is present).

usage: swizzle-ptx.py [--shapes 512,1024,...] [--types f16,tf32,bf16]
                      [--arch sm_80,sm_90] [--out DIR] [--opt TOOL]
"""

import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(ROOT, "transform-scripts", "gpu-matmul-tensorcore.mlir")
TENSORCORE_PTX = os.path.join(HERE, "tensorcore-ptx.py")
ENTRIES = {"f16": "gpu_matmul_tensorcore_auto", "bf16": "gpu_matmul_tensorcore_auto",
           "tf32": "gpu_matmul_tensorcore_auto_tf32"}
TARGETS = {"sm_80": "nvidia-a100", "sm_90": "nvidia-h100"}

# Our step and the handle the next step takes; the upstream copy replaces
# both (the pass returns a new handle).
OUR_STEP = re.compile(
    r"^(\s*)transform\.smem\.avoid_bank_conflicts (%\w+) : !transform\.any_op\n"
    r"((?:.*\n){1,2}?.*)\(\2, ", re.M)


def upstream_script(text):
    def swap(m):
        indent, handle, middle = m.group(1), m.group(2), m.group(3)
        return (f'{indent}{handle}_up = transform.apply_registered_pass '
                f'"nvgpu-optimize-shared-memory" to {handle}\n'
                f"{indent}    : (!transform.any_op) -> !transform.any_op\n"
                f"{middle}({handle}_up, ")
    swapped, n = OUR_STEP.subn(swap, text)
    if n == 0:
        sys.exit("swizzle-ptx: no transform.smem.avoid_bank_conflicts step "
                 "followed by a use of its handle in " + SCRIPT)
    return swapped, n


def run(script, entry, kind, target, arch, shapes, out, opt):
    cmd = [sys.executable, TENSORCORE_PTX, "--script", script, "--entry", entry,
           "--type", kind, "--target", target, "--arch", arch, "--out", out,
           "--shapes", shapes]
    if opt:
        cmd += ["--opt", opt]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    rows = {}
    for line in proc.stdout.splitlines():
        m = re.match(r"^\S+?_(\d+x\d+x\d+) (sm_\d+): .*registers (\d+), spills (\S+) bytes"
                     r".*per K step: (\d+) instructions", line)
        if m:
            rows[m.group(1)] = (int(m.group(3)), m.group(4), int(m.group(5)))
    if not rows:
        sys.exit("swizzle-ptx: tensorcore-ptx.py built nothing:\n" + proc.stderr[-3000:])
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shapes", default="512,1024,2048,4096,256x2048x1024,2048x256x512")
    ap.add_argument("--types", default="f16,tf32")
    ap.add_argument("--arch", default="sm_80,sm_90")
    ap.add_argument("--out", default="swizzle-ptx")
    ap.add_argument("--opt", help="hwsched-opt (default: tensorcore-ptx.py's)")
    args = ap.parse_args()

    os.makedirs(args.out, exist_ok=True)
    text = open(SCRIPT).read()
    upstream, steps = upstream_script(text)
    up_path = os.path.join(args.out, "gpu-matmul-tensorcore-upstream-swizzle.mlir")
    with open(up_path, "w") as f:
        f.write(upstream)
    print(f"# swizzle-ptx: {SCRIPT} as shipped (ours) vs with its {steps} swizzle "
          f"steps calling nvgpu-optimize-shared-memory (upstream): ptxas figures of "
          f"the cost model's picks")
    print("| type | arch | shape | registers ours / upstream | spills ours / upstream "
          "| instructions per K step ours / upstream |")
    print("|---|---|---|---|---|---|")
    fewer_regs = fewer_instr = worse = 0
    total = 0
    for kind in args.types.split(","):
        for arch in args.arch.split(","):
            if arch not in TARGETS or kind not in ENTRIES:
                sys.exit(f"swizzle-ptx: --arch takes {','.join(TARGETS)}, --types "
                         f"{','.join(ENTRIES)}")
            target = TARGETS[arch]
            ours = run(SCRIPT, ENTRIES[kind], kind, target, arch, args.shapes,
                       os.path.join(args.out, f"ours-{kind}-{arch}"), args.opt)
            ups = run(up_path, ENTRIES[kind], kind, target, arch, args.shapes,
                      os.path.join(args.out, f"upstream-{kind}-{arch}"), args.opt)
            for shape in sorted(set(ours) ^ set(ups)):
                print(f"| {kind} | {arch} | {shape} | built by "
                      f"{'ours' if shape in ours else 'upstream'} only | | |")
            for shape in ours:
                if shape not in ups:
                    continue
                (r0, s0, i0), (r1, s1, i1) = ours[shape], ups[shape]
                spilled = lambda x: sum(int(b) for b in x.split("/"))
                total += 1
                fewer_regs += r0 < r1
                fewer_instr += i0 < i1
                worse += r0 > r1 or i0 > i1 or spilled(s0) > spilled(s1)
                print(f"| {kind} | {arch} | {shape} | {r0} / {r1} | {s0} / {s1} | {i0} / {i1} |")
    print(f"# {total} kernels: ours has fewer registers on {fewer_regs}, fewer "
          f"instructions per K step on {fewer_instr}, more registers, instructions "
          f"or spill bytes on {worse}")


if __name__ == "__main__":
    main()
