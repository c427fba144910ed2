#!/usr/bin/env python3
"""examples/gpu-matmul/run.py: the GPU matmul + bias + ReLU schedule, and what
ptxas says about the kernel it produces against what the ops predicted.

Runs transform-scripts/gpu-matmul.mlir @gpu_matmul_smem_pipelined (with
transform-scripts/gpu-dispatch.mlir) on input.mlir for one target, collects
the decisions from the ops' remarks, lowers the scheduled kernel through
MLIR's NVVM path to PTX with utils/ptxas-report.py and prints predicted vs
ptxas:

- shared memory: transform.smem.merge_allocations' peak and
  transform.pipeline.schedule_stages' on-chip bytes against ptxas'
  "bytes smem" (static shared memory);
- registers: transform.cost_model.estimate registers_per_thread (the remark
  "predicted registers per thread: N") against ptxas' "Used N registers"
  at the spec's register cap (gpu.max_registers_per_thread), within
  --tolerance (default 0.2, the register model's stated accuracy, see
  integration_test/CostModel/ptxas-registers.mlir);
- spills: ptxas spill bytes at the spec's cap and at a cap equal to the
  prediction (DESIGN.md: ptxas register counts drift up to the budget it is
  given, so whether the kernel fits the predicted count is the sharper test).

Workgroup memref.alloc has no NVVM lowering: the merged shared buffer
becomes a workgroup memref.global before the lowering (as in
integration_test/Smem/ptxas-smem.mlir).

usage: run.py [--target NAME|PATH] [--opt TOOL] [--input FILE]
              [--entry NAME] [--tolerance F] [--check] [--no-ptxas] [--ir FILE]
              [--keep-temps DIR] [-- extra hwsched-opt args]
  --check     exit 1 unless shared memory matches both predictions, the
              registers are within the tolerance and nothing spills at
              the predicted cap.
  --entry     the sequence (default gpu_matmul_smem_pipelined; e.g.
              gpu_matmul_auto on a payload whose pick does not split K).
  --no-ptxas  only the decisions (no lowering).
  --ir FILE   also write the scheduled IR there.
$HWSCHED_OPT names the tool (default: hwsched-opt on PATH, else build/bin/);
$HWSCHED_SPEC_PATH is honoured as by hwsched-opt.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPTS = [os.path.join(ROOT, "transform-scripts", f)
           for f in ("matmul-frontend.mlir", "gpu-matmul.mlir", "gpu-dispatch.mlir",
                     "gpu-matmul-tensorcore.mlir")]
ENTRY = "gpu_matmul_smem_pipelined"
PTXAS_REPORT = os.path.join(ROOT, "utils", "ptxas-report.py")
BUILT_OPT = os.path.join(ROOT, "build", "bin", "hwsched-opt")

ALLOC = re.compile(r"^(\s*)(%[\w.$-]+) = memref\.alloc\(\) "
                   r"(?:\{alignment = (\d+) : i64\} )?: "
                   r"(memref<[^\n]*#gpu\.address_space<workgroup>>)\s*$")


def die(msg):
    sys.stderr.write("run.py: error: " + msg + "\n")
    sys.exit(2)


def find_spec(target):
    """The JSON file hwsched-opt would load for `target` (same search order)."""
    if target.endswith(".json") or os.sep in target:
        return target
    dirs = [d for d in os.environ.get("HWSCHED_SPEC_PATH", "").split(":") if d]
    dirs.append(os.path.join(ROOT, "hw-specs"))
    for d in dirs:
        path = os.path.join(d, target + ".json")
        if os.path.exists(path):
            return path
    die("no spec %s.json in %s" % (target, ":".join(dirs)))


def allocs_to_globals(text):
    """Each static workgroup memref.alloc becomes a memref.get_global of a
    module-level workgroup memref.global (the NVVM path lowers those)."""
    globals_, out = [], []
    for line in text.split("\n"):
        m = ALLOC.match(line)
        if not m:
            out.append(line)
            continue
        indent, name, align, ty = m.groups()
        sym = "__smem%d" % len(globals_)
        attr = " {alignment = %s : i64}" % align if align else ""
        globals_.append('  memref.global "private" @%s : %s = uninitialized%s'
                        % (sym, ty, attr))
        out.append("%s%s = memref.get_global @%s : %s" % (indent, name, sym, ty))
    for i, line in enumerate(out):
        if line.startswith("module"):
            out[i + 1:i + 1] = globals_
            break
    return "\n".join(out), len(globals_)


def remark(pattern, text, what, group=1, conv=int):
    m = re.search(pattern, text)
    if not m:
        die("no %s remark in the hwsched-opt output" % what)
    return conv(m.group(group))


def ptxas(ir_path, arch, cap, opt, keep):
    cmd = [sys.executable, PTXAS_REPORT, ir_path, "--opt", opt, "--arch", arch,
           "--maxrregcount", str(cap), "--format", "json"]
    if keep:
        cmd += ["--keep-temps", os.path.join(keep, "ptxas-cap%d" % cap)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        if "uses too much shared data" in p.stderr:
            # ptxas accepts at most 48 KiB of static shared memory; beyond
            # that a kernel needs dynamic shared memory, which this lowering
            # (one workgroup memref.global) does not produce.
            die("the merged shared buffer is static shared memory, which "
                "ptxas limits to 48 KiB; larger tiles need dynamic shared "
                "memory (gpu.dynamic_shared_memory), not done here")
        die("utils/ptxas-report.py failed")
    kernels = json.loads(p.stdout)["kernels"]
    if len(kernels) != 1:
        die("expected one kernel, ptxas reported %d" % len(kernels))
    return kernels[0]


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", default="nvidia-a100")
    ap.add_argument("--opt", default=os.environ.get("HWSCHED_OPT")
                    or shutil.which("hwsched-opt") or BUILT_OPT)
    ap.add_argument("--input", default=os.path.join(HERE, "input.mlir"))
    ap.add_argument("--entry", default=ENTRY,
                    help="sequence to run (default %s; gpu_matmul_auto when "
                    "its pick does not split K)" % ENTRY)
    ap.add_argument("--tolerance", type=float, default=0.2)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--no-ptxas", action="store_true")
    ap.add_argument("--ir")
    ap.add_argument("--keep-temps")
    ap.add_argument("extra", nargs="*")
    args = ap.parse_args()
    opt = os.path.abspath(args.opt) if os.sep in args.opt else args.opt

    with open(find_spec(args.target)) as f:
        spec = json.load(f)
    gpu = spec.get("gpu", {})
    if spec.get("kind") != "gpu" or "compute_capability" not in gpu:
        die("%s is not a GPU spec with gpu.compute_capability" % args.target)
    arch = gpu["compute_capability"]
    cap = int(gpu.get("max_registers_per_thread", 255))

    tmp = args.keep_temps or tempfile.mkdtemp(prefix="gpu-matmul-")
    os.makedirs(tmp, exist_ok=True)
    try:
        scheduled = os.path.join(tmp, "scheduled.mlir")
        cmd = [opt, args.input,
               "--transform-preload-library=transform-library-paths="
               + ",".join(SCRIPTS),
               "--transform-interpreter=entry-point=" + args.entry,
               "--hwsched-target=" + args.target,
               "--mlir-print-op-on-diagnostic=false", "-o", scheduled] + args.extra
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            sys.stderr.write(p.stderr)
            die("the schedule failed: " + " ".join(cmd))
        log = p.stderr
        if args.ir:
            shutil.copyfile(scheduled, args.ir)

        decision = remark(r"remark: select_tile_config on '[^']*' for [^:]*: (.*)",
                          log, "select_tile_config", conv=str)
        regs_all = set(re.findall(r"(\d+) : i64", remark(
            r"predicted registers per thread: ([^\n]*)", log, "estimate", conv=str)))
        if len(regs_all) != 1:
            die("the matmul copies have different estimates: %s" % sorted(regs_all))
        regs = int(regs_all.pop())
        pick_regs = remark(r"remark: candidate #1: [^:]*: (\d+) registers/thread", log,
                           "select_tile_config candidate #1")
        m = re.search(r"remark: stages (\d+) of limit (\d+): .*achieved interval (\d+)", log)
        if not m:
            die("no schedule_stages remark")
        stages, limit, interval = (int(x) for x in m.groups())
        sched_bytes = remark(r"remark: on-chip bytes (\d+) of capacity", log,
                             "schedule_stages on-chip bytes")
        smem_cap = remark(r"remark: on-chip bytes \d+ of capacity (\d+)", log,
                          "schedule_stages capacity")
        buffers = re.findall(r"remark: buffer (\d+) cop(?:y|ies) x (\d+) bytes on chip", log)
        peak = remark(r"remark: merged \d+ of \d+ on-chip allocations: sum \d+ B, peak (\d+) B",
                      log, "merge_allocations")
        merged = remark(r"remark: (merged \d+ of \d+ on-chip allocations: sum \d+ B, peak \d+ B)",
                        log, "merge_allocations", conv=str)

        print("target %s (%s), schedule %s @%s" % (args.target, arch,
                                                   "transform-scripts/gpu-matmul.mlir", args.entry))
        print("select_tile_config: " + decision)
        print("schedule_stages: %d stages (limit %d), interval %d, buffers %s, "
              "on-chip bytes %d of capacity %d" % (
                  stages, limit, interval,
                  " + ".join("%sx%s" % b for b in buffers), sched_bytes, smem_cap))
        print("merge_allocations: " + merged)
        print("estimate: %d registers per thread on the kernel's per-thread matmul "
              "(select_tile_config's pick: %d)" % (regs, pick_regs))
        if args.no_ptxas:
            return 0

        text, n = allocs_to_globals(open(scheduled).read())
        if n != 1:
            die("expected one merged workgroup buffer, found %d" % n)
        lowered = os.path.join(tmp, "scheduled-globals.mlir")
        with open(lowered, "w") as f:
            f.write(text)
        full = ptxas(lowered, arch, cap, opt, args.keep_temps)
        tight = ptxas(lowered, arch, regs, opt, args.keep_temps)

        dev = (full["registers"] - regs) / float(regs)
        ok_smem = full["smem_bytes"] == peak == sched_bytes
        ok_regs = abs(dev) <= args.tolerance
        ok_fit = tight["spill_store_bytes"] == 0 and tight["spill_load_bytes"] == 0
        rows = [
            ("shared memory bytes (merge_allocations peak)", peak, full["smem_bytes"],
             "equal" if peak == full["smem_bytes"] else "DIFFERENT"),
            ("shared memory bytes (schedule_stages on-chip)", sched_bytes,
             full["smem_bytes"],
             "equal" if sched_bytes == full["smem_bytes"] else "DIFFERENT"),
            ("registers per thread (cap %d)" % cap, regs, full["registers"],
             "%+.1f%%, %s %d%%" % (100 * dev, "within" if ok_regs else "OUTSIDE",
                                   round(100 * args.tolerance))),
            ("spill bytes store/load (cap %d)" % cap, 0,
             "%d/%d" % (full["spill_store_bytes"], full["spill_load_bytes"]), ""),
            ("spill bytes store/load (cap %d = predicted)" % regs, 0,
             "%d/%d" % (tight["spill_store_bytes"], tight["spill_load_bytes"]),
             "fits" if ok_fit else "SPILLS"),
        ]
        print("%-46s %10s %10s  %s" % ("figure", "predicted", "ptxas", "check"))
        for name, pred, got, check in rows:
            print("%-46s %10s %10s  %s" % (name, pred, got, check))
        verdict = ok_smem and ok_regs and ok_fit
        print("result: %s" % ("PASS" if verdict else "FAIL"))
        return 0 if verdict or not args.check else 1
    finally:
        if not args.keep_temps:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
