#!/usr/bin/env python3
"""bench/gpu-runner/tensorcore-ptx.py: PTX of the tensor-core matmul schedule, per shape.

For each shape MxNxK it writes the payload (C = 0; C += A x B with A MxK
f16, B KxN f16, C MxN f32, as linalg.fill + linalg.matmul on tensors; with
--type bf16 A and B bf16; with --type tf32 A and B f32, for the tf32 kernel),
applies each variant of the schedule (--entry, named sequences of
transform-scripts/gpu-matmul-tensorcore.mlir; by default
@gpu_matmul_tensorcore_mma_sync and @gpu_matmul_tensorcore_mma_sync_swizzled;
the dynamic-shared-memory ones are @gpu_matmul_tensorcore_mma_sync_swizzled_k64,
_s4 and _k64_s4, see TILES)
with hwsched-opt, makes the workgroup allocations workgroup memref.globals
(examples/gpu-matmul/run.py's allocs_to_globals: a workgroup memref.alloc
inside the launch would lower to malloc), and lowers and assembles it with
utils/ptxas-report.py for each architecture (ptxas -v). The variants with
more than 48 KiB of shared memory (the static limit) mark their gpu.launch
hwsched.dynamic_shared_memory: their buffers become views of one
gpu.dynamic_shared_memory instead (allocs_to_dynamic_shared_memory), the
launch takes the bytes as dynamic_shared_memory_size and launch.json's smem
(the runner's --smem) says how many. Into OUT it writes,
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

--entry gpu_matmul_auto schedules the payload as frontend IR is scheduled
(transform-scripts/gpu-matmul.mlir's entry point, with the scripts it
calls); with --target nvidia-h100 (or nvidia-h200) it takes the Hopper
kernel, with an sm_80/86/89 target the tensor-core (mma.sync) kernel in a
function of its own (its fill value a scalar kernel argument: args
f32=V,...). --entry gpu_matmul_tensorcore_auto builds the mma.sync kernel
with the cost model's tiles (select_tile_config { mma_sync });
--candidate-rank R its (R + 1)-th candidate instead, to check the model's
ranking on a GPU.

usage: tensorcore-ptx.py [--shapes 1024,2048x2048x512,...] [--arch sm_80,sm_90]
                         [--out DIR] [--opt TOOL] [--ptxas PATH]
                         [--script FILE] [--target SPEC] [--entry NAME,...]
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
# The Hopper kernels (wgmma + TMA, sm_90a only): their own script, chosen
# for an --entry of that prefix when --script is not given.
HOPPER_SCRIPT = os.path.join(ROOT, "transform-scripts", "gpu-matmul-hopper.mlir")
HOPPER_PREFIX = "gpu_matmul_wgmma_tma"
# The GPU entry point for frontend IR (transform-scripts/gpu-matmul.mlir with
# the three scripts it calls into): on an sm_90 --target it routes the f16
# matmul to the Hopper kernel, on sm_80/86/89 to the tensor-core (mma.sync)
# kernel, elsewhere to its other schedules.
AUTO_ENTRY = "gpu_matmul_auto"
AUTO_SCRIPTS = ",".join(os.path.join(ROOT, "transform-scripts", name) for name in
                        ("matmul-frontend.mlir", "gpu-matmul.mlir", "gpu-dispatch.mlir",
                         "gpu-matmul-tensorcore.mlir"))
# The schedule's variants (named sequences of SCRIPT), each shape built with
# each: plain row-major shared memory, and swizzled against bank conflicts.
ENTRIES = "gpu_matmul_tensorcore_mma_sync,gpu_matmul_tensorcore_mma_sync_swizzled"
ENTRY_PREFIX = "gpu_matmul_tensorcore_"
# What each sequence of SCRIPT needs of a shape (its comment there says why):
# the C tile of a block (rows, columns), the K step and the number of
# pipeline stages (upstream's pipeliner refuses fewer K steps than stages).
# The dynamic-shared-memory variants are not in the default ENTRIES: they
# need K >= 192 or 256.
TILES = {
    "gpu_matmul_tensorcore_mma_sync": (128, 128, 32, 3),
    "gpu_matmul_tensorcore_mma_sync_swizzled": (128, 128, 32, 3),
    "gpu_matmul_tensorcore_mma_sync_swizzled_k64": (128, 128, 64, 3),
    "gpu_matmul_tensorcore_mma_sync_swizzled_s4": (128, 128, 32, 4),
    "gpu_matmul_tensorcore_mma_sync_swizzled_k64_s4": (128, 128, 64, 4),
    "gpu_matmul_tensorcore_mma_sync_swizzled_k64_128x256": (128, 256, 64, 3),
    "gpu_matmul_tensorcore_mma_sync_swizzled_k64_128x256_s4": (128, 256, 64, 4),
    # transform-scripts/gpu-matmul-tensorcore.mlir's @gpu_matmul_tensorcore_tiles
    # on fixed parameters (the stage count is a cap: schedule_stages may take
    # fewer for the target's shared memory).
    "gpu_matmul_tensorcore_tiles_fixed_128x128_k32": (128, 128, 32, 4),
    "gpu_matmul_tensorcore_tiles_fixed_128x128_k64": (128, 128, 64, 4),
    "gpu_matmul_tensorcore_tiles_fixed_128x256_k64": (128, 256, 64, 4),
    "gpu_matmul_tensorcore_tiles_fixed_256x128_k64": (256, 128, 64, 4),
    "gpu_matmul_tensorcore_tiles_fixed_128x128_k64_w64x32": (128, 128, 64, 4),
    "gpu_matmul_tensorcore_tiles_fixed_64x64_k32_w32x32": (64, 64, 32, 4),
    "gpu_matmul_tensorcore_tiles_fixed_64x128_k32": (64, 128, 32, 4),
    "gpu_matmul_tensorcore_tiles_fixed_64x128_k64_w32x64": (64, 128, 64, 4),
    "gpu_matmul_tensorcore_tiles_fixed_64x64_k64": (64, 64, 64, 4),
    "gpu_matmul_tensorcore_tiles_fixed_256x256_k64": (256, 256, 64, 4),
    "gpu_matmul_wgmma_tma": (128, 128, 64, 4),
    "gpu_matmul_wgmma_tma_128x256_w2": (128, 256, 64, 4),
    "gpu_matmul_wgmma_tma_256x128_w2": (256, 128, 64, 4),
    "gpu_matmul_wgmma_tma_128x256_w2_s3": (128, 256, 64, 3),
    "gpu_matmul_wgmma_tma_s3": (128, 128, 64, 3),
    "gpu_matmul_wgmma_tma_128x256_w2_g8": (128, 256, 64, 4),
    "gpu_matmul_wgmma_tma_s3_g8": (128, 128, 64, 3),
    "gpu_matmul_wgmma_tma_128x256_w2_p": (128, 256, 64, 4),
    "gpu_matmul_wgmma_tma_128x256_w2_p_g8": (128, 256, 64, 4),
    "gpu_matmul_wgmma_tma_256x128_w2_p_g8": (256, 128, 64, 4),
    "gpu_matmul_wgmma_tma_s3_p_g8": (128, 128, 64, 3),
}
# Shared memory one block may use after opting in, per architecture (the CUDA
# C++ Programming Guide's compute-capability table, as hwsched-gpu-run's
# sharedMemoryOptinLimit has it): a variant that needs more is not built for
# that architecture (its launch would fail).
SMEM_OPTIN_BYTES = {
    "sm_70": 96 * 1024, "sm_72": 96 * 1024, "sm_75": 64 * 1024,
    "sm_80": 163 * 1024, "sm_87": 163 * 1024, "sm_86": 99 * 1024,
    "sm_89": 99 * 1024, "sm_90": 227 * 1024, "sm_90a": 227 * 1024,
}
sys.path.insert(0, os.path.join(ROOT, "utils"))
from hwsched_tools import toolchain  # noqa: E402

# The program the schedule applies to (the schedule itself lives in
# transform-scripts/). Operand names are hwsched-gpu-run's.
PAYLOAD = """\
func.func @matmul(%A: tensor<{m}x{k}x{elem}>, %B: tensor<{k}x{n}x{elem}>,
                  %C: tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%C : tensor<{m}x{n}xf32>)
      -> tensor<{m}x{n}xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<{m}x{k}x{elem}>, tensor<{k}x{n}x{elem}>)
                      outs(%init : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %mm : tensor<{m}x{n}xf32>
}}
"""
PAYLOAD_OPERANDS = ["A", "B", "C"]
# --epilogue bias-relu: C = relu(A x B + bias), the bias per column (the
# runner's --epilogue bias-relu), as a frontend writes it: an elementwise
# linalg.generic after the filled matmul. @gpu_matmul_auto fuses it into
# the tensor-core kernel's C stores (transform.fusion.epilogue_into_stores).
PAYLOAD_BIAS_RELU = """\
func.func @matmul(%A: tensor<{m}x{k}x{elem}>, %B: tensor<{k}x{n}x{elem}>,
                  %bias: tensor<{n}xf32>, %C: tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{m}x{n}xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<{m}x{n}xf32>)
      -> tensor<{m}x{n}xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<{m}x{k}x{elem}>, tensor<{k}x{n}x{elem}>)
                      outs(%init : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %r = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (j)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}}
      ins(%mm, %bias : tensor<{m}x{n}xf32>, tensor<{n}xf32>)
      outs(%C : tensor<{m}x{n}xf32>) {{
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }} -> tensor<{m}x{n}xf32>
  return %r : tensor<{m}x{n}xf32>
}}
"""
PAYLOAD_BIAS_RELU_OPERANDS = ["A", "B", "bias", "C"]
# --type: the inputs' element type in the payload and hwsched-gpu-run's
# --type (tf32: f32 inputs that the kernel multiplies as tf32, checked
# against cuBLAS's CUBLAS_COMPUTE_32F_FAST_TF32; bf16: bf16 inputs, checked
# against cublasGemmEx with CUDA_R_16BF inputs).
INPUT_TYPES = {"f16": "f16", "bf16": "bf16", "tf32": "f32"}


def die(msg):
    sys.stderr.write("tensorcore-ptx: error: %s\n" % msg)
    sys.exit(1)


def load_module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def script_for(entry, script):
    """--script when given, else the script that holds ENTRY."""
    if script:
        return script
    if entry == AUTO_ENTRY:
        return AUTO_SCRIPTS
    return HOPPER_SCRIPT if entry.startswith(HOPPER_PREFIX) else SCRIPT


def ranked_script(script, rank, out):
    """A copy of SCRIPT whose select_tile_config { mma_sync } returns the
    model's (RANK + 1)-th candidate (candidate_rank), in OUT."""
    with open(script) as f:
        text = f.read()
    if not MMA_SYNC_ATTRS.search(text):
        die("--candidate-rank: %s has no select_tile_config { mma_sync, explain } "
            "(with or without allow_tf32)" % script)
    path = os.path.join(out, "work", "script-rank%d.mlir" % rank)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        # Every explained mma_sync pick, the f16 and the tf32 entry alike
        # (an entry runs only one of them).
        f.write(MMA_SYNC_ATTRS.sub(
            lambda m: "{ mma_sync, %sexplain, candidate_rank = %d }" % (m.group(1) or "", rank),
            text))
    return path


def short_name(entry):
    """The file name part for a sequence: its name without ENTRY_PREFIX (or
    "gpu_matmul_" for the Hopper kernels)."""
    for prefix in (ENTRY_PREFIX, "gpu_matmul_"):
        if entry.startswith(prefix):
            return entry[len(prefix):]
    return entry


def parse_shape(text):
    parts = [int(x) for x in text.lower().split("x")]
    if len(parts) == 1:
        parts *= 3
    if len(parts) != 3 or min(parts) <= 0:
        die("bad shape %r (want N or MxNxK)" % text)
    return tuple(parts)


def run(cmd, what, with_stderr=False):
    """CMD's stdout (and its stderr, the remarks, with `with_stderr`); dies
    with both printed when it fails."""
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stdout + p.stderr)
        die("%s failed (exit %d): %s" % (what, p.returncode, " ".join(cmd)))
    return (p.stdout, p.stderr) if with_stderr else p.stdout


# The plan the Hopper rewrite explains (transform.hwsched.rewrite_matmul_as_wgmma
# with `explain`): its tiles and the registers per thread the model expects.
HOPPER_PLAN = re.compile(r"remark: (wgmma \+ TMA matmul [^\n]*?~(\d+) in all[^\n]*)")
# The tensor-core kernel's pick (select_tile_config { mma_sync, explain } in
# @gpu_matmul_tensorcore_auto): the chosen candidate and its registers.
MMA_PLAN = re.compile(r"remark: (?:candidate #1: |taken by the tensor-core kernel \(mma\.sync\), "
                      r"tiles from the cost model: )(tile [^\n]*?of mma\.sync[^\n]*?: "
                      r"(\d+) registers/thread[^\n]*)")
# The same op told to return the model's (r + 1)-th candidate
# (--candidate-rank): how the model's ranking is checked on a GPU.
MMA_SYNC_ATTRS = re.compile(r"\{ mma_sync, (allow_tf32, )?explain \}")


def index_constants(text):
    """%name -> value of every `%name = arith.constant V : index` (or i32:
    the launch's dynamic shared memory size)."""
    return {m.group(1): int(m.group(2)) for m in re.finditer(
        r"(%[\w$.-]+) = arith\.constant (-?\d+) : (?:index|i32)\b", text)}


def tensor_maps_of(text, operands=PAYLOAD_OPERANDS):
    """%map -> (operand name, TMA box innermost first) of each
    nvgpu.tma.create.descriptor of a function argument in TEXT (the host code
    of a Hopper kernel before lowering)."""
    func = re.search(r"func\.func @\w+\(([^)]*)\)", text)
    params = re.findall(r"(%[\w$.-]+)\s*:", func.group(1)) if func else []
    casts = dict(re.findall(r"(%[\w$.-]+) = memref\.cast (%[\w$.-]+) :", text))
    maps = {}
    for name, source, rows, cols in re.findall(
            r"(%[\w$.-]+) = nvgpu\.tma\.create\.descriptor (%[\w$.-]+) box\[[^\]]*\]"
            r" : memref<\*x\w+> -> <tensor = memref<(\d+)x(\d+)x", text):
        arg = casts.get(source, source)
        if arg not in params:
            die("tensor map %s is not of a function argument" % name)
        maps[name] = (operands[params.index(arg)], [int(cols), int(rows)])
    return maps


def payload_names_in_launch_function(text, operands=PAYLOAD_OPERANDS):
    """%param -> the runner's operand name (A, B, C, or f32=V for a scalar)
    for the parameters of the function holding the gpu.launch_func: the
    payload function's own, or, for a kernel function of its own (the
    tensor-core route of @gpu_matmul_auto outlines the matmul and its fill),
    what the payload function's call passes for each."""
    funcs = [(m.start(), m.group(1), re.findall(r"(%[\w$.-]+)\s*:", m.group(2)))
             for m in re.finditer(r"func\.func (?:private )?@([\w$.]+)\(([^)]*)\)", text)]
    launch = text.find("gpu.launch_func")
    holder = max((f for f in funcs if f[0] < launch), key=lambda f: f[0], default=None)
    if holder is None:
        return {}
    payload = [f for f in funcs if f[1] == "matmul"]
    if not payload or holder[1] == "matmul":
        return {p: operands[i] for i, p in enumerate(holder[2])
                if i < len(operands)}
    outer = dict(zip(payload[0][2], operands))
    call = re.search(r"call @%s\(([^)]*)\)" % re.escape(holder[1]), text)
    if not call:
        return {}
    floats = dict(re.findall(r"(%[\w$.-]+) = arith\.constant ([-+0-9.e]+) : f32", text))
    names = {}
    for param, arg in zip(holder[2], (a.strip() for a in call.group(1).split(","))):
        if arg in outer:
            names[param] = outer[arg]
        elif arg in floats:
            names[param] = "f32=%s" % float(floats[arg])
    return names


def launch_of(binary_ir, tensor_maps=None, operands=PAYLOAD_OPERANDS):
    """Grid, block, dynamic shared memory and operand order of the one
    gpu.launch_func of the lowered host code (TENSOR_MAPS: tensor_maps_of
    of it, for a Hopper kernel's outlined host code)."""
    tensor_maps = tensor_maps or {}
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

    names = payload_names_in_launch_function(binary_ir, operands)
    kernel_operands = []
    for a in re.findall(r"(%[\w$.-]+)\s*:", args):
        if a in names:
            kernel_operands.append(names[a])
        elif a in tensor_maps:
            kernel_operands.append("tmap" + tensor_maps[a][0])
        else:
            die("kernel operand %s is neither a function argument nor a tensor "
                "map of one" % a)
    return {"entry": kernel, "grid": dims(blocks), "block": dims(threads),
            "smem_dynamic_bytes": consts[dyn] if dyn else 0, "args": kernel_operands}


# A workgroup memref.alloc of a static shape inside the launch.
WORKGROUP_ALLOC = re.compile(
    r"^(\s*)(%[\w.$-]+) = memref\.alloc\(\) (?:\{alignment = (\d+) : i64\} )?: "
    r"(memref<([0-9x]+)x(f16|f32|bf16|i8|i16|i32)(, #gpu\.address_space<workgroup>)>)\s*$")
ELEMENT_BYTES = {"i8": 1, "f16": 2, "bf16": 2, "i16": 2, "f32": 4, "i32": 4}
DYNAMIC_MARK = "hwsched.dynamic_shared_memory"
# Offsets of the buffers in dynamic shared memory: 16 bytes would do for
# cp.async and ldmatrix; 128 keeps every buffer on its own bank-row start,
# like the swizzle assumes.
DYNAMIC_ALIGN = 128


def allocs_to_dynamic_shared_memory(text):
    """For a launch the schedule marked (attribute DYNAMIC_MARK): each of its
    static workgroup memref.allocs becomes a memref.view, at a DYNAMIC_ALIGN
    aligned offset, of the launch's one gpu.dynamic_shared_memory, and the
    launch gets dynamic_shared_memory_size = their total (what the runner's
    --smem must pass). Returns (text, bytes); bytes 0 and the text unchanged
    when nothing is marked."""
    if ("} {%s}" % DYNAMIC_MARK) not in text:
        return text, 0
    lines = text.split("\n")
    launches = [i for i, l in enumerate(lines) if re.match(r"\s*gpu\.launch\b", l)]
    if len(launches) != 1 or not lines[launches[0]].rstrip().endswith("{"):
        die("dynamic shared memory: expected one gpu.launch (found %d)" % len(launches))
    at = launches[0]
    base = "%__dyn_smem"
    space = None
    out, total, views = [], 0, 0
    for i, line in enumerate(lines):
        m = WORKGROUP_ALLOC.match(line) if i > at else None
        if not m:
            out.append(line.replace("} {%s}" % DYNAMIC_MARK, "}"))
            continue
        indent, name, _, ty, dims, elem, space = m.groups()
        size = ELEMENT_BYTES[elem]
        for d in dims.split("x"):
            size *= int(d)
        offset = -(-total // DYNAMIC_ALIGN) * DYNAMIC_ALIGN
        total = offset + size
        if views == 0:
            out.append("%s%s = gpu.dynamic_shared_memory : memref<?xi8%s>"
                       % (indent, base, space))
        out.append("%s%%__dyn_smem_off%d = arith.constant %d : index"
                   % (indent, views, offset))
        out.append("%s%s = memref.view %s[%%__dyn_smem_off%d][] : memref<?xi8%s> to %s"
                   % (indent, name, base, views, space, ty))
        views += 1
    if not views:
        die("dynamic shared memory: the marked launch has no workgroup buffer")
    launch = out[at]
    indent = re.match(r"\s*", launch).group(0)
    out[at] = launch.rstrip()[:-1].rstrip() + " dynamic_shared_memory_size %__dyn_smem_bytes {"
    out.insert(at, "%s%%__dyn_smem_bytes = arith.constant %d : i32" % (indent, total))
    return "\n".join(out), total


# The kernel's dynamic shared memory as PTX wants it: an external, unsized
# shared array (`.extern .shared .align 16 .b8 NAME[]`). MLIR 22's lowering of
# gpu.dynamic_shared_memory (convert-gpu-to-nvvm) makes its own global
# internal instead, which the NVPTX back end demotes to a 1-byte *static*
# shared variable of the kernel that the buffers then overrun; it reuses a
# zero-sized shared i8 array of its alignment (16) already in the gpu.module,
# so this declaration is placed there after outlining.
DYNAMIC_SMEM_GLOBAL = ("llvm.mlir.global external @__hwsched_dynamic_smem() "
                       "{addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>")


def outline_with_extern_dynamic_smem(opt, src, dst, before=""):
    """Outlines the launch of SRC into a gpu.module and declares the external
    dynamic shared array in it (DYNAMIC_SMEM_GLOBAL); writes DST.
    utils/ptxas-report.py's pipeline then finds nothing left to outline.
    BEFORE: passes to run on the module first (the Hopper kernels lower their
    nvgpu ops before outlining, so that the kernel takes each tensor map as
    a pointer: convert-gpu-to-nvvm has no conversion of the tensor map
    type)."""
    run([opt, src, "--pass-pipeline=builtin.module(%sgpu-launch-sink-index-computations,"
         "gpu-kernel-outlining)" % before, "-o", dst], "outlining")
    with open(dst) as f:
        text = f.read()
    text, n = re.subn(r"^(\s*)(gpu\.module @[\w$.]+ \{)$",
                      lambda m: "%s%s\n%s  %s" % (m.group(1), m.group(2), m.group(1),
                                                 DYNAMIC_SMEM_GLOBAL),
                      text, flags=re.M)
    if n != 1:
        die("dynamic shared memory: expected one gpu.module after outlining, found %d" % n)
    with open(dst, "w") as f:
        f.write(text)


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
            if any("mma.sync" in x or "wgmma.mma_async" in x for x in body):
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
        "wgmma.mma_async": count(r"\bwgmma\.mma_async"),
        "cp.async.bulk.tensor": count(r"\bcp\.async\.bulk\.tensor"),
        "mbarrier.try_wait": count(r"\bmbarrier\.try_wait"),
        "wgmma.wait_group": sorted(int(n) for n in re.findall(
            r"wgmma\.wait_group\.sync\.aligned\s+(\d+)", "\n".join(body))),
    }


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shapes", default="1024,2048,4096,8192",
                    help="comma-separated N (square) or MxNxK; M, N multiples "
                         "of 128, K of the K step and at least stages x K step "
                         "(default 1024,2048,4096,8192)")
    ap.add_argument("--arch", default="sm_80,sm_90")
    ap.add_argument("--out", default="tensorcore-ptx")
    ap.add_argument("--opt", help="hwsched-opt (default: build/bin, $HWSCHED_OPT, PATH)")
    ap.add_argument("--ptxas", help="ptxas (default: PATH, else /usr/local/cuda/bin/ptxas)")
    ap.add_argument("--script", help="the transform script (default: "
                    "transform-scripts/gpu-matmul-tensorcore.mlir, or "
                    "gpu-matmul-hopper.mlir for the gpu_matmul_wgmma_tma entries)")
    ap.add_argument("--target", help="the hardware spec the schedule decides "
                    "for (hwsched-opt --hwsched-target; default: the script's "
                    "own, nvidia-h100 for the Hopper entries)")
    ap.add_argument("--entry", default=ENTRIES,
                    help="comma-separated named sequences of --script (default %s)"
                    % ENTRIES)
    ap.add_argument("--type", choices=sorted(INPUT_TYPES), default="f16",
                    help="the inputs: f16, bf16 (mma.sync .bf16, sm_80 and "
                    "later), or tf32 (f32 inputs multiplied as "
                    "tf32: use with an entry that allows it, e.g. "
                    "gpu_matmul_tensorcore_auto_tf32; default f16)")
    ap.add_argument("--epilogue", choices=["none", "bias-relu"], default="none",
                    help="bias-relu: the payload is relu(A x B + bias) (an "
                         "elementwise linalg.generic after the matmul; "
                         "--entry gpu_matmul_auto fuses it into the "
                         "tensor-core kernel's C stores)")
    ap.add_argument("--candidate-rank", type=int,
                    help="build the model's (R + 1)-th candidate instead of its "
                    "pick: select_tile_config { mma_sync } with candidate_rank = R "
                    "(@gpu_matmul_tensorcore_auto); the variant names end in _rR")
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
        for entry in entries:
            if entry in TILES:
                bm, bn, bk, stages = TILES[entry]
                if m % bm or n % bn or k % bk or k < bk * stages:
                    die("%dx%dx%d: %s's tiles need M a multiple of %d, N of %d and K "
                        "a multiple of %d, at least %d (%d K steps for its %d stages; "
                        "upstream's pipeliner refuses fewer)"
                        % (shape + (entry, bm, bn, bk, bk * stages, stages, stages)))
        for entry in entries:
            name = "%s%s_%dx%dx%d" % ((short_name(entry),
                                        "" if args.candidate_rank is None
                                        else "_r%d" % args.candidate_rank) + shape)
            work = os.path.join(out, "work", name)
            os.makedirs(work, exist_ok=True)
            payload = os.path.join(work, "payload.mlir")
            operands = (PAYLOAD_BIAS_RELU_OPERANDS if args.epilogue == "bias-relu"
                        else PAYLOAD_OPERANDS)
            with open(payload, "w") as f:
                f.write((PAYLOAD_BIAS_RELU if args.epilogue == "bias-relu" else PAYLOAD)
                        .format(m=m, n=n, k=k, elem=INPUT_TYPES[args.type]))
            scheduled = os.path.join(work, "scheduled.mlir")
            script = script_for(entry, args.script)
            if args.candidate_rank is not None:
                script = ranked_script(script, args.candidate_rank, out)
            _, remarks = run([opt, payload] +
                 (["--hwsched-target=" + args.target] if args.target else []) +
                 ["--transform-preload-library=transform-library-paths=" + script,
                  "--transform-interpreter=entry-point=" + entry,
                  "-o", scheduled], "the schedule", with_stderr=True)
            plan = HOPPER_PLAN.search(remarks) or MMA_PLAN.search(remarks)
            with open(scheduled) as f:
                text = f.read()
            hopper = "nvgpu.tma.create.descriptor" in text
            # The schedule placed the buffers in dynamic shared memory itself
            # (merge_allocations { dynamic_shared_memory }): the launch's
            # dynamic_shared_memory_size says how many bytes.
            own_dynamic = "gpu.dynamic_shared_memory" in text
            host_launch, tensor_maps = None, {}
            if hopper or own_dynamic:
                # The launch as the runner sees it, read before the nvgpu
                # ops are lowered (the tensor maps still say which operand
                # and which box they are).
                plain = os.path.join(work, "outlined-host.mlir")
                run([opt, scheduled, "--pass-pipeline=builtin.module("
                     "gpu-launch-sink-index-computations,gpu-kernel-outlining)",
                     "-o", plain], "outlining")
                with open(plain) as f:
                    plain_text = f.read()
                tensor_maps = tensor_maps_of(plain_text, operands)
                host_launch = launch_of(plain_text, tensor_maps, operands)
                dynamic_bytes = host_launch["smem_dynamic_bytes"]
            else:
                text, dynamic_bytes = allocs_to_dynamic_shared_memory(text)
            text, globals_made = example.allocs_to_globals(text)
            if "memref.alloc" in text.split("gpu.launch", 1)[-1]:
                die("%s: a memref.alloc is left in the kernel (it would lower to "
                    "malloc)" % name)
            lowered_in = os.path.join(work, "scheduled-globals.mlir")
            with open(lowered_in, "w") as f:
                f.write(text)
            if dynamic_bytes:
                outlined = os.path.join(work, "outlined.mlir")
                outline_with_extern_dynamic_smem(
                    opt, lowered_in, outlined,
                    before="convert-nvgpu-to-nvvm," if hopper else "")
                lowered_in = outlined

            for arch in archs:
                # wgmma and TMA exist on sm_90a only (the "a" features).
                chip = arch
                if hopper:
                    if not arch.startswith("sm_90"):
                        print("%s %s: not built: wgmma and TMA need sm_90a" % (name, arch))
                        continue
                    chip = "sm_90a"
                limit = SMEM_OPTIN_BYTES.get(arch)
                if limit is not None and dynamic_bytes > limit:
                    print("%s %s: not built: %d bytes of dynamic shared memory, "
                          "%s allows %d per block" % (name, arch, dynamic_bytes, arch, limit))
                    continue
                temps = os.path.join(work, arch)
                report = json.loads(run(
                    [sys.executable, PTXAS_REPORT, lowered_in, "--opt", opt,
                     "--ptxas", ptxas, "--arch", chip, "--format", "json",
                     "--keep-temps", temps], "ptxas-report.py (%s)" % arch))
                if len(report["kernels"]) != 1:
                    die("%s: expected one kernel, ptxas reported %d"
                        % (name, len(report["kernels"])))
                kernel = report["kernels"][0]
                if hopper:
                    launch = host_launch
                else:
                    with open(os.path.join(temps, "02-binary.mlir")) as f:
                        launch = launch_of(f.read(), operands=operands)
                ptx_src = os.path.join(temps, kernel["module"] + ".ptx")
                if not os.path.exists(ptx_src):
                    die("no PTX %s" % ptx_src)
                os.makedirs(os.path.join(out, arch), exist_ok=True)
                ptx_path = os.path.join(out, arch, name + ".ptx")
                shutil.copyfile(ptx_src, ptx_path)
                with open(ptx_path, encoding="latin-1") as f:
                    counts = k_step_counts(f.read())
                if launch["smem_dynamic_bytes"] != dynamic_bytes:
                    die("%s: the launch asks for %d bytes of dynamic shared memory, "
                        "its buffers take %d" % (name, launch["smem_dynamic_bytes"],
                                                 dynamic_bytes))
                # A Hopper kernel's mbarriers (8 bytes each, each group in
                # 16-byte units) are its only static shared memory.
                static_allowed = sum(-(-8 * int(n) // 16) * 16 for n in re.findall(
                    r"nvgpu\.mbarrier\.create -> <.*?num_barriers = (\d+)>", text))
                if dynamic_bytes and kernel["smem_bytes"] > static_allowed:
                    die("%s: %d bytes of static shared memory beside the dynamic "
                        "buffers (the dynamic array was not lowered as an external "
                        "declaration)" % (name, kernel["smem_bytes"]))
                if launch["entry"] != kernel["name"]:
                    die("%s: launch_func names %s, ptxas reports %s"
                        % (name, launch["entry"], kernel["name"]))
                # The kernel writes all of C (the fill is in the kernel): the
                # runner's default NaN fill of C checks that.
                command = [
                    "build/bin/hwsched-gpu-run", ptx_path, "--m", str(m), "--n", str(n),
                    "--k", str(k), "--type", args.type,
                    "--grid", ",".join(map(str, launch["grid"])),
                    "--block", ",".join(map(str, launch["block"])),
                    "--args", ",".join(launch["args"])]
                if args.epilogue != "none":
                    command += ["--epilogue", args.epilogue]
                if launch["smem_dynamic_bytes"]:
                    command += ["--smem", str(launch["smem_dynamic_bytes"])]
                boxes = {operand: box for operand, box in tensor_maps.values()}
                for operand, box in sorted(boxes.items()):
                    command += ["--tma-box-%s" % operand.lower(),
                                ",".join(map(str, box))]
                info = {
                    "m": m, "n": n, "k": k,
                    # hwsched-gpu-run --type f16 (bf16): A and B f16
                    # (bf16), C f32; tf32: A, B and C f32.
                    "type": args.type,
                    "grid": launch["grid"],
                    "block": launch["block"],
                    "smem": launch["smem_dynamic_bytes"],
                    "args": ",".join(launch["args"]),
                    # The kernel zero-fills C itself: the runner's NaN fill
                    # checks that every element is written.
                    "c_init": "nan",
                    "epilogue": args.epilogue,
                    "entry": launch["entry"],
                    "arch": chip,
                    "ptx": ptx_path,
                    "smem_static_bytes": kernel["smem_bytes"],
                    "workgroup_globals": globals_made,
                    "ptxas": {key: kernel[key] for key in (
                        "registers", "spill_store_bytes", "spill_load_bytes",
                        "stack_frame_bytes", "smem_bytes")},
                    "k_step": counts,
                    "schedule": {"script": os.path.relpath(script, ROOT),
                                 "entry": entry},
                    "command": command,
                }
                if plan:
                    # What the op decided and the registers its model expects:
                    # the check of the model against ptxas.
                    info["model"] = {"plan": plan.group(1),
                                     "registers": int(plan.group(2))}
                for operand, box in sorted(boxes.items()):
                    # The runner's --tma-box-a / -b: each tensor map's box,
                    # innermost first; the kernels swizzle 128 bytes.
                    info["tma_box_%s" % operand.lower()] = box
                    info["tma_swizzle"] = 128
                json_path = os.path.join(out, arch, name + ".launch.json")
                with open(json_path, "w") as f:
                    json.dump(info, f, indent=2)
                    f.write("\n")
                c = counts or {}
                if hopper:
                    steps = ("%s instructions, %s wgmma.mma_async, %s cp.async.bulk.tensor, "
                             "%s mbarrier.try_wait, wgmma.wait_group %s, %s bar.sync"
                             % (c.get("instructions"), c.get("wgmma.mma_async"),
                                c.get("cp.async.bulk.tensor"), c.get("mbarrier.try_wait"),
                                c.get("wgmma.wait_group"), c.get("bar.sync")))
                else:
                    steps = ("%s instructions, %s mma.sync, %s ldmatrix, %s cp.async, %s "
                             "commit_group, wait_group %s, %s bar.sync"
                             % (c.get("instructions"), c.get("mma.sync"), c.get("ldmatrix"),
                                c.get("cp.async"), c.get("cp.async.commit_group"),
                                c.get("cp.async.wait_group"), c.get("bar.sync")))
                print("%s %s: entry %s grid %s block %s args %s | registers %d, spills "
                      "%d/%d bytes, smem %d static + %d dynamic | per K step: %s"
                      % (name, chip, launch["entry"], launch["grid"], launch["block"],
                         info["args"], kernel["registers"], kernel["spill_store_bytes"],
                         kernel["spill_load_bytes"], kernel["smem_bytes"],
                         launch["smem_dynamic_bytes"], steps)
                      + ("" if "model" not in info else
                         " | model ~%d registers (ptxas %+.1f%%)" % (
                             info["model"]["registers"],
                             100.0 * (kernel["registers"] - info["model"]["registers"])
                             / info["model"]["registers"])))
    print("wrote %s" % out)


if __name__ == "__main__":
    main()
