#!/usr/bin/env python3
"""bench/gpu-runner/tensorcore-ptx.py: PTX of the tensor-core matmul schedule, per shape.

For each shape MxNxK it writes the payload (C = 0; C += A x B with A MxK
f16, B KxN f16, C MxN f32, as linalg.fill + linalg.matmul on tensors),
applies each variant of the schedule (--entry, named sequences of
transform-scripts/gpu-matmul-tensorcore.mlir; by default
@gpu_matmul_tensorcore_mma_sync and @gpu_matmul_tensorcore_mma_sync_swizzled)
with hwsched-opt, makes the workgroup allocations workgroup memref.globals
(examples/gpu-matmul/run.py's allocs_to_globals: a workgroup memref.alloc
inside the launch would lower to malloc), and lowers and assembles it with
utils/ptxas-report.py for each architecture (ptxas -v). Into OUT it writes,
per variant V (the sequence's name without "gpu_matmul_tensorcore_"), shape
and architecture:

  ARCH/V_MxNxK.ptx               the kernel (launch bounds kept)
  ARCH/V_MxNxK.launch.json       how to launch it, as bench/gpu-runner/on-gpu.sh
                                 reads it: m, n, k, type, grid, block, smem
                                 (dynamic bytes), args (the kernel's operands
                                 as hwsched-gpu-run names them), c_init,
                                 epilogue, entry; and ptxas figures,
                                 instructions per K step, the runner command
  work/V_MxNxK/                  the payload, the scheduled IR and
                                 ptxas-report.py's intermediate files

and prints one line per variant, shape and architecture. Needs no GPU; the PTX runs
with build/bin/hwsched-gpu-run (the command is in launch.json; --dry-run
checks the signature without a GPU; on a GPU machine
`bench/gpu-runner/on-gpu.sh RUNNER OUT/sm_90` runs every shape).

usage: tensorcore-ptx.py [--shapes 1024,2048x2048x512,...] [--arch sm_80,sm_90]
                         [--out DIR] [--opt TOOL] [--ptxas PATH]
                         [--script FILE] [--entry NAME,...]
"""

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PTXAS_REPORT = os.path.join(ROOT, "utils", "ptxas-report.py")
EXAMPLE_RUN = os.path.join(ROOT, "examples", "gpu-matmul", "run.py")
SCRIPT = os.path.join(ROOT, "transform-scripts", "gpu-matmul-tensorcore.mlir")
# The schedule's variants (named sequences of SCRIPT), each shape built with
# each: plain row-major shared memory, and swizzled against bank conflicts.
ENTRIES = "gpu_matmul_tensorcore_mma_sync,gpu_matmul_tensorcore_mma_sync_swizzled"
ENTRY_PREFIX = "gpu_matmul_tensorcore_"
sys.path.insert(0, os.path.join(ROOT, "utils"))
from hwsched_tools import toolchain  # noqa: E402

# The program the schedule applies to (the schedule itself lives in
# transform-scripts/). Operand names are hwsched-gpu-run's.
PAYLOAD = """\
func.func @matmul(%A: tensor<{m}x{k}xf16>, %B: tensor<{k}x{n}xf16>,
                  %C: tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%C : tensor<{m}x{n}xf32>)
      -> tensor<{m}x{n}xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<{m}x{k}xf16>, tensor<{k}x{n}xf16>)
                      outs(%init : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %mm : tensor<{m}x{n}xf32>
}}
"""
PAYLOAD_OPERANDS = ["A", "B", "C"]


def die(msg):
    sys.stderr.write("tensorcore-ptx: error: %s\n" % msg)
    sys.exit(1)


def load_module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def short_name(entry):
    """The file name part for a sequence: its name without ENTRY_PREFIX."""
    return entry[len(ENTRY_PREFIX):] if entry.startswith(ENTRY_PREFIX) else entry


def parse_shape(text):
    parts = [int(x) for x in text.lower().split("x")]
    if len(parts) == 1:
        parts *= 3
    if len(parts) != 3 or min(parts) <= 0:
        die("bad shape %r (want N or MxNxK)" % text)
    return tuple(parts)


def run(cmd, what):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stdout + p.stderr)
        die("%s failed (exit %d): %s" % (what, p.returncode, " ".join(cmd)))
    return p.stdout


def index_constants(text):
    """%name -> value of every `%name = arith.constant V : index`."""
    return {m.group(1): int(m.group(2)) for m in re.finditer(
        r"(%[\w$.-]+) = arith\.constant (-?\d+) : index", text)}


def launch_of(binary_ir):
    """Grid, block, dynamic shared memory and operand order of the one
    gpu.launch_func of the lowered host code."""
    found = re.findall(
        r"gpu\.launch_func\s+@[\w$.]+::@([\w$.]+)\s+blocks in \(([^)]*)\)\s+"
        r"threads in \(([^)]*)\)\s*(?:dynamic_shared_memory_size\s+(%[\w$.-]+))?\s*"
        r"args\(([^)]*)\)", binary_ir)
    if len(found) != 1:
        die("expected one gpu.launch_func in the lowered IR, found %d" % len(found))
    kernel, blocks, threads, dyn, args = found[0]
    consts = index_constants(binary_ir)

    def dims(text):
        vals = []
        for v in (x.strip() for x in text.split(",")):
            if v not in consts:
                die("launch dimension %s is not a constant" % v)
            vals.append(consts[v])
        return vals

    func = re.search(r"func\.func @\w+\(([^)]*)\)", binary_ir)
    params = re.findall(r"(%[\w$.-]+)\s*:", func.group(1)) if func else []
    operands = []
    for a in re.findall(r"(%[\w$.-]+)\s*:", args):
        if a not in params:
            die("kernel operand %s is not a function argument" % a)
        operands.append(PAYLOAD_OPERANDS[params.index(a)])
    return {"entry": kernel, "grid": dims(blocks), "block": dims(threads),
            "smem_dynamic_bytes": consts[dyn] if dyn else 0, "args": operands}


def k_step_counts(ptx):
    """Instruction counts of the innermost backward-branch loop that holds
    mma.sync (the K loop)."""
    lines = ptx.split("\n")
    labels = {}
    for i, line in enumerate(lines):
        m = re.match(r"\s*(\$L__\w+):", line)
        if m:
            labels[m.group(1)] = i
    loops = []
    for i, line in enumerate(lines):
        m = re.search(r"\bbra(?:\.uni)?\s+(\$L__\w+);", line)
        if m and m.group(1) in labels and labels[m.group(1)] < i:
            body = [x.strip() for x in lines[labels[m.group(1)] + 1:i + 1]]
            body = [x for x in body if x and not x.startswith(("$", "//", "{", "}"))]
            if any("mma.sync" in x for x in body):
                loops.append(body)
    if not loops:
        return None
    body = min(loops, key=len)

    def count(pattern):
        return sum(1 for x in body if re.search(pattern, x))

    return {
        "instructions": len(body),
        "mma.sync": count(r"\bmma\.sync"),
        "ldmatrix": count(r"\bldmatrix"),
        "cp.async": count(r"\bcp\.async\.c[ag]\b"),
        "cp.async.commit_group": count(r"\bcp\.async\.commit_group"),
        "cp.async.wait_group": sorted(int(n) for n in re.findall(
            r"cp\.async\.wait_group\s+(\d+)", "\n".join(body))),
        "bar.sync": count(r"\b(?:bar|barrier)\.sync"),
    }


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shapes", default="1024,2048,4096,8192",
                    help="comma-separated N (square) or MxNxK; M, N multiples "
                         "of 128, K of 32 and >= 96 (default 1024,2048,4096,8192)")
    ap.add_argument("--arch", default="sm_80,sm_90")
    ap.add_argument("--out", default="tensorcore-ptx")
    ap.add_argument("--opt", help="hwsched-opt (default: build/bin, $HWSCHED_OPT, PATH)")
    ap.add_argument("--ptxas", help="ptxas (default: PATH, else /usr/local/cuda/bin/ptxas)")
    ap.add_argument("--script", default=SCRIPT)
    ap.add_argument("--entry", default=ENTRIES,
                    help="comma-separated named sequences of --script (default %s)"
                    % ENTRIES)
    args = ap.parse_args()

    opt = toolchain.find_hwsched_opt(args.opt)
    if not opt:
        die("no hwsched-opt (build the project or pass --opt)")
    ptxas = toolchain.ptxas(args.ptxas)
    if not ptxas:
        die("no ptxas (install the CUDA toolkit or pass --ptxas)")
    example = load_module("hwsched_gpu_matmul_example", EXAMPLE_RUN)
    archs = [a.strip() for a in args.arch.split(",") if a.strip()]
    entries = [e.strip() for e in args.entry.split(",") if e.strip()]
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)

    for shape in (parse_shape(s) for s in args.shapes.split(",") if s.strip()):
        m, n, k = shape
        if m % 128 or n % 128 or k % 32 or k < 96:
            die("%dx%dx%d: the schedule's tiles need M, N multiples of 128 and K "
                "a multiple of 32, at least 96 (3 K steps for its 3 stages; "
                "upstream's pipeliner refuses fewer)" % shape)
        for entry in entries:
            name = "%s_%dx%dx%d" % ((short_name(entry),) + shape)
            work = os.path.join(out, "work", name)
            os.makedirs(work, exist_ok=True)
            payload = os.path.join(work, "payload.mlir")
            with open(payload, "w") as f:
                f.write(PAYLOAD.format(m=m, n=n, k=k))
            scheduled = os.path.join(work, "scheduled.mlir")
            run([opt, payload,
                 "--transform-preload-library=transform-library-paths=" + args.script,
                 "--transform-interpreter=entry-point=" + entry,
                 "-o", scheduled], "the schedule")
            with open(scheduled) as f:
                text, globals_made = example.allocs_to_globals(f.read())
            if "memref.alloc" in text.split("gpu.launch", 1)[-1]:
                die("%s: a memref.alloc is left in the kernel (it would lower to "
                    "malloc)" % name)
            lowered_in = os.path.join(work, "scheduled-globals.mlir")
            with open(lowered_in, "w") as f:
                f.write(text)

            for arch in archs:
                temps = os.path.join(work, arch)
                report = json.loads(run(
                    [sys.executable, PTXAS_REPORT, lowered_in, "--opt", opt,
                     "--ptxas", ptxas, "--arch", arch, "--format", "json",
                     "--keep-temps", temps], "ptxas-report.py (%s)" % arch))
                if len(report["kernels"]) != 1:
                    die("%s: expected one kernel, ptxas reported %d"
                        % (name, len(report["kernels"])))
                kernel = report["kernels"][0]
                with open(os.path.join(temps, "02-binary.mlir")) as f:
                    launch = launch_of(f.read())
                ptx_src = os.path.join(temps, kernel["module"] + ".ptx")
                if not os.path.exists(ptx_src):
                    die("no PTX %s" % ptx_src)
                os.makedirs(os.path.join(out, arch), exist_ok=True)
                ptx_path = os.path.join(out, arch, name + ".ptx")
                shutil.copyfile(ptx_src, ptx_path)
                with open(ptx_path, encoding="latin-1") as f:
                    counts = k_step_counts(f.read())
                if launch["entry"] != kernel["name"]:
                    die("%s: launch_func names %s, ptxas reports %s"
                        % (name, launch["entry"], kernel["name"]))
                # The kernel writes all of C (the fill is in the kernel): the
                # runner's default NaN fill of C checks that.
                command = [
                    "build/bin/hwsched-gpu-run", ptx_path, "--m", str(m), "--n", str(n),
                    "--k", str(k), "--type", "f16",
                    "--grid", ",".join(map(str, launch["grid"])),
                    "--block", ",".join(map(str, launch["block"])),
                    "--args", ",".join(launch["args"])]
                if launch["smem_dynamic_bytes"]:
                    command += ["--smem", str(launch["smem_dynamic_bytes"])]
                info = {
                    "m": m, "n": n, "k": k,
                    # hwsched-gpu-run --type f16: A and B f16, C f32.
                    "type": "f16",
                    "grid": launch["grid"],
                    "block": launch["block"],
                    "smem": launch["smem_dynamic_bytes"],
                    "args": ",".join(launch["args"]),
                    # The kernel zero-fills C itself: the runner's NaN fill
                    # checks that every element is written.
                    "c_init": "nan",
                    "epilogue": "none",
                    "entry": launch["entry"],
                    "arch": arch,
                    "ptx": ptx_path,
                    "smem_static_bytes": kernel["smem_bytes"],
                    "workgroup_globals": globals_made,
                    "ptxas": {key: kernel[key] for key in (
                        "registers", "spill_store_bytes", "spill_load_bytes",
                        "stack_frame_bytes", "smem_bytes")},
                    "k_step": counts,
                    "schedule": {"script": os.path.relpath(args.script, ROOT),
                                 "entry": entry},
                    "command": command,
                }
                json_path = os.path.join(out, arch, name + ".launch.json")
                with open(json_path, "w") as f:
                    json.dump(info, f, indent=2)
                    f.write("\n")
                c = counts or {}
                print("%s %s: entry %s grid %s block %s args %s | registers %d, spills "
                      "%d/%d bytes, smem %d static + %d dynamic | per K step: %s "
                      "instructions, %s mma.sync, %s ldmatrix, %s cp.async, %s "
                      "commit_group, wait_group %s, %s bar.sync"
                      % (name, arch, launch["entry"], launch["grid"], launch["block"],
                         info["args"], kernel["registers"], kernel["spill_store_bytes"],
                         kernel["spill_load_bytes"], kernel["smem_bytes"],
                         launch["smem_dynamic_bytes"], c.get("instructions"),
                         c.get("mma.sync"), c.get("ldmatrix"), c.get("cp.async"),
                         c.get("cp.async.commit_group"), c.get("cp.async.wait_group"),
                         c.get("bar.sync")))
    print("wrote %s" % out)


if __name__ == "__main__":
    main()
