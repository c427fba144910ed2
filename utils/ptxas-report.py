#!/usr/bin/env python3
"""ptxas-report: register / spill / shared-memory figures for a GPU-mapped kernel.

Lowers an MLIR input through MLIR's NVVM path to PTX, assembles the PTX with
``ptxas -v`` at a fixed register cap and prints what ptxas reports per kernel.
This is the ground truth the hwsched cost model is compared against; no GPU
is needed (ptxas runs on any machine).

Usage::

    python3 utils/ptxas-report.py INPUT.mlir
        [--transform-library FILE] [--entry-point NAME]
        [--opt TOOL] [--arch sm_80] [--features +ptx80]
        [--maxrregcount N] [--ptxas PATH]
        [--keep-temps DIR] [--format json|text]

Steps (each failure is reported on stderr with the step name and the exact
command, exit status 1):

1. ``transform`` (only with --transform-library): run the opt tool with
   ``--transform-preload-library=transform-library-paths=FILE
   --transform-interpreter=entry-point=NAME``.  The script is expected to
   tile, bufferize and produce a ``gpu.launch`` (map_forall_to_blocks
   generate_gpu_launch, map_nested_forall_to_threads).  Without a library
   the input must already contain ``gpu.launch`` ops (or outlined
   ``gpu.module``s).
2. ``lower``: ``gpu-launch-sink-index-computations``, ``gpu-kernel-outlining``,
   ``nvvm-attach-target{chip=ARCH features=FEATURES O=3}``, the NVVM
   conversion passes nested on ``gpu.module`` and
   ``gpu-module-to-binary{format=isa}`` (see LOWERING_PIPELINE below).
3. ``extract``: decode the PTX from each ``gpu.binary``'s
   ``assembly = "..."`` string (MLIR prints non-printable bytes as ``\\XX``
   hex and a backslash as ``\\\\``) and strip the ``.maxntid`` /
   ``.reqntid`` / ``.minnctapersm`` / ``.maxnreg`` directives: with them
   ptxas derives its own register limit and ignores ``-maxrregcount``.
4. ``ptxas``: ``ptxas -arch=ARCH -v -maxrregcount=N`` and parse its report.

Tool lookup:
  --opt    default: $HWSCHED_OPT, else ``hwsched-opt`` on PATH or in build/bin, else
           LLVM's mlir-opt (hwsched_tools.toolchain).  Any mlir-opt
           compatible tool.
  --ptxas  default: ``ptxas`` on PATH, else /usr/local/cuda/bin/ptxas.

Output (``--format json``, the default)::

    {"arch": "sm_80", "maxrregcount": 255,
     "kernels": [{"name": "matmul_bias_relu_kernel", "module": "...",
                  "registers": 64, "spill_store_bytes": 0,
                  "spill_load_bytes": 0, "stack_frame_bytes": 0,
                  "smem_bytes": 0, "cmem_bytes": 560, "barriers": 1}]}

``--format text`` prints one line per kernel (what the lit tests check)::

    kernel matmul_bias_relu_kernel: registers=64 spill_store_bytes=0 spill_load_bytes=0 smem_bytes=0

Intermediate files (01-mapped.mlir, 02-binary.mlir, <module>.ptx,
<module>.stripped.ptx, <module>.ptxas.txt, commands.sh) live in a temporary
directory that is deleted, unless --keep-temps DIR is given.
"""

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hwsched_tools import toolchain  # noqa: E402

DEFAULT_MLIR_OPT = toolchain.mlir_opt()
DEFAULT_PTXAS = toolchain.CUDA_PTXAS

# Passes nested on gpu.module. convert-gpu-to-nvvm also lowers memref ops
# (finalize-memref-to-llvm is anchored on builtin.module and cannot be nested
# here); the host side is left untouched, gpu-module-to-binary only needs the
# gpu.module bodies in the LLVM/NVVM dialects.
GPU_MODULE_PASSES = [
    "convert-vector-to-scf{full-unroll=true}",
    "convert-linalg-to-loops",
    "convert-scf-to-cf",
    "expand-strided-metadata",
    "lower-affine",
    # nvgpu ops (mma.sync, ldmatrix, cp.async and their groups) have no
    # lowering in convert-gpu-to-nvvm; a kernel without them is unchanged.
    "convert-nvgpu-to-nvvm",
    "convert-gpu-to-nvvm",
    # NVVM ops that lower to inline PTX (mbarrier waits, wgmma fences and
    # waits of the Hopper kernels); nothing else has them.
    "convert-nvvm-to-llvm",
    "convert-vector-to-llvm",
    "convert-math-to-llvm",
    "convert-arith-to-llvm",
    "convert-index-to-llvm",
    "convert-ub-to-llvm",
    "canonicalize",
    "cse",
    "reconcile-unrealized-casts",
]


def lowering_pipeline(arch, features):
    return (
        "builtin.module("
        "gpu-launch-sink-index-computations,"
        "gpu-kernel-outlining,"
        "nvvm-attach-target{chip=%s features=%s O=3},"
        "gpu.module(%s),"
        "gpu-module-to-binary{format=isa})"
        % (arch, features, ",".join(GPU_MODULE_PASSES))
    )


# Directives that make ptxas compute its own register limit.
LAUNCH_BOUND_DIRECTIVE = re.compile(
    r"^[ \t]*\.(?:maxntid|reqntid|minnctapersm|maxnreg)\b[^\n;{]*;?[ \t]*\n?",
    re.MULTILINE,
)
INLINE_LAUNCH_BOUND_DIRECTIVE = re.compile(
    r"\.(?:maxntid|reqntid|minnctapersm|maxnreg)\b[ \t]+[0-9][0-9, \t]*"
)


class StepError(Exception):
    def __init__(self, step, message, cmd=None, output=None):
        super().__init__(message)
        self.step = step
        self.message = message
        self.cmd = cmd
        self.output = output


def fail(err):
    lines = ["ptxas-report: error: step '%s' failed: %s" % (err.step, err.message)]
    if err.cmd:
        lines.append("  command: " + shlex.join(err.cmd))
    if err.output:
        out = err.output.rstrip()
        if len(out) > 8000:
            out = "...\n" + out[-8000:]
        lines.append(out)
    sys.stderr.write("\n".join(lines) + "\n")
    sys.exit(1)


def run(step, cmd, log, stdout_path=None):
    """Run cmd; return combined stdout+stderr text (stdout to a file if asked)."""
    log.append(shlex.join(cmd) + (" > " + shlex.quote(stdout_path) if stdout_path else ""))
    try:
        if stdout_path:
            with open(stdout_path, "wb") as out:
                proc = subprocess.run(cmd, stdout=out, stderr=subprocess.PIPE)
            text = proc.stderr.decode("utf-8", "replace")
        else:
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            text = proc.stdout.decode("utf-8", "replace")
    except OSError as e:
        raise StepError(step, "cannot execute %s: %s" % (cmd[0], e), cmd)
    if proc.returncode != 0:
        raise StepError(step, "exit status %d" % proc.returncode, cmd, text)
    return text


def find_opt(explicit):
    if explicit:
        return explicit
    return toolchain.find_hwsched_opt(fallback_to_mlir_opt=True) or DEFAULT_MLIR_OPT


def find_ptxas(explicit):
    return toolchain.ptxas(explicit) or DEFAULT_PTXAS


_STRING_SPECIAL = re.compile(rb'["\\]')
_HEX = b"0123456789abcdefABCDEF"


def read_mlir_string(buf, pos):
    """Decode the MLIR string literal whose opening quote is at buf[pos - 1].

    MLIR prints printable ASCII as is, a backslash as two backslashes and
    every other byte (newline, tab, quote, non-ASCII) as \\XX hex; the
    lexer also accepts \\n, \\t and \\". Returns (bytes, index after the
    closing quote).
    """
    out = bytearray()
    while True:
        m = _STRING_SPECIAL.search(buf, pos)
        if m is None:
            raise ValueError("unterminated string literal")
        j = m.start()
        out += buf[pos:j]
        if buf[j] == ord('"'):
            return bytes(out), j + 1
        esc = buf[j + 1:j + 2]
        if esc in (b"\\", b'"'):
            out += esc
            pos = j + 2
        elif esc == b"n":
            out.append(10)
            pos = j + 2
        elif esc == b"t":
            out.append(9)
            pos = j + 2
        elif len(buf) >= j + 3 and buf[j + 1] in _HEX and buf[j + 2] in _HEX:
            out.append(int(buf[j + 1:j + 3], 16))
            pos = j + 3
        else:
            raise ValueError("bad escape sequence at offset %d" % j)


_BINARY = re.compile(rb"gpu\.binary\s+@([\w$.-]+)")
_ASSEMBLY = re.compile(rb'\bassembly\s*=\s*"')


def extract_ptx(mlir_bytes):
    """Return [(module_name, ptx_text)] for every gpu.binary object with PTX."""
    binaries = list(_BINARY.finditer(mlir_bytes))
    result = []
    for k, b in enumerate(binaries):
        end = binaries[k + 1].start() if k + 1 < len(binaries) else len(mlir_bytes)
        pos = b.end()
        n = 0
        while True:
            m = _ASSEMBLY.search(mlir_bytes, pos, end)
            if m is None:
                break
            raw, pos = read_mlir_string(mlir_bytes, m.end())
            name = b.group(1).decode()
            if n:
                name += ".%d" % n
            n += 1
            result.append((name, raw.decode("latin-1")))
    return result


def strip_launch_bounds(ptx):
    ptx = LAUNCH_BOUND_DIRECTIVE.sub("", ptx)
    return INLINE_LAUNCH_BOUND_DIRECTIVE.sub("", ptx)


_RE_ENTRY = re.compile(r"Compiling entry function '([^']+)'")
_RE_PROPS = re.compile(r"Function properties for (\S+)")
_RE_STACK = re.compile(
    r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_RE_USED = re.compile(r"Used (\d+) registers")
_RE_BARRIERS = re.compile(r"used (\d+) barriers")
_RE_SMEM = re.compile(r"(\d+) bytes smem")
_RE_CMEM = re.compile(r"(\d+) bytes cmem\[(\d+)\]")


def parse_ptxas(text):
    """Parse `ptxas -v` output into a list of per-entry-function dicts."""
    entries = {}
    order = []
    props = {}
    cur_entry = None
    cur_props = None
    for line in text.splitlines():
        m = _RE_ENTRY.search(line)
        if m:
            cur_entry = m.group(1)
            if cur_entry not in entries:
                order.append(cur_entry)
                entries[cur_entry] = {}
            continue
        m = _RE_PROPS.search(line)
        if m:
            cur_props = m.group(1)
            continue
        m = _RE_STACK.search(line)
        if m and cur_props is not None:
            props[cur_props] = tuple(int(x) for x in m.groups())
            continue
        m = _RE_USED.search(line)
        if m and cur_entry is not None:
            e = entries[cur_entry]
            e["registers"] = int(m.group(1))
            b = _RE_BARRIERS.search(line)
            e["barriers"] = int(b.group(1)) if b else 0
            s = _RE_SMEM.search(line)
            e["smem_bytes"] = int(s.group(1)) if s else 0
            e["cmem"] = {int(bank): int(n) for n, bank in _RE_CMEM.findall(line)}
    kernels = []
    for name in order:
        e = entries[name]
        if "registers" not in e:
            continue
        stack, st, ld = props.get(name, (0, 0, 0))
        kernels.append({
            "name": name,
            "registers": e["registers"],
            "spill_store_bytes": st,
            "spill_load_bytes": ld,
            "stack_frame_bytes": stack,
            "smem_bytes": e["smem_bytes"],
            "cmem_bytes": sum(e["cmem"].values()),
            "cmem": {str(k): v for k, v in sorted(e["cmem"].items())},
            "barriers": e["barriers"],
        })
    return kernels


def report(args, tmp):
    opt = find_opt(args.opt)
    ptxas = find_ptxas(args.ptxas)
    log = []
    try:
        if not os.path.isfile(args.input):
            raise StepError("input", "no such file: %s" % args.input)
        current = args.input

        # 1. Transform script.
        if args.transform_library:
            if not os.path.exists(args.transform_library):
                raise StepError("transform",
                                "no such file: %s" % args.transform_library)
            interp = "--transform-interpreter"
            if args.entry_point:
                interp += "=entry-point=" + args.entry_point
            mapped = os.path.join(tmp, "01-mapped.mlir")
            run("transform", [
                opt, current,
                "--transform-preload-library=transform-library-paths="
                + args.transform_library,
                interp,
            ], log, stdout_path=mapped)
            current = mapped

        # 2. Outline and lower to PTX.
        binary = os.path.join(tmp, "02-binary.mlir")
        lower_cmd = [opt, current,
                     "--pass-pipeline=" + lowering_pipeline(args.arch, args.features)]
        run("lower", lower_cmd, log, stdout_path=binary)
        hint = "" if args.keep_temps else " (rerun with --keep-temps DIR to inspect it)"

        # 3. Extract the PTX.
        with open(binary, "rb") as f:
            data = f.read()
        try:
            modules = extract_ptx(data)
        except ValueError as e:
            raise StepError("extract", "%s in the output of the lower step%s"
                            % (e, hint), lower_cmd)
        if not modules:
            raise StepError("extract",
                            "no kernel found: no gpu.binary with an assembly "
                            "string in the output of the lower step (did the "
                            "input contain a gpu.launch?)%s" % hint, lower_cmd)

        # 4. ptxas.
        kernels = []
        for name, ptx in modules:
            safe = re.sub(r"[^\w.-]", "_", name)
            raw_path = os.path.join(tmp, safe + ".ptx")
            ptx_path = os.path.join(tmp, safe + ".stripped.ptx")
            with open(raw_path, "w", encoding="latin-1", newline="") as f:
                f.write(ptx)
            with open(ptx_path, "w", encoding="latin-1", newline="") as f:
                f.write(strip_launch_bounds(ptx))
            cmd = [ptxas, "-arch=" + args.arch, "-v",
                   "-maxrregcount=%d" % args.maxrregcount,
                   ptx_path, "-o", os.path.join(tmp, safe + ".cubin")]
            text = run("ptxas", cmd, log)
            with open(os.path.join(tmp, safe + ".ptxas.txt"), "w") as f:
                f.write(text)
            found = parse_ptxas(text)
            if not found and re.search(r"\.entry\b", ptx):
                raise StepError("ptxas", "could not parse the ptxas -v report",
                                cmd, text)
            for k in found:
                k["module"] = name
            kernels.extend(found)
        if not kernels:
            raise StepError("ptxas", "no kernel found: the PTX has no .entry "
                            "function%s" % hint, lower_cmd)
    finally:
        with open(os.path.join(tmp, "commands.sh"), "w") as f:
            f.write("#!/bin/sh\n# Commands run by ptxas-report.py\n")
            f.write("\n".join(log) + "\n")
    return {"arch": args.arch, "maxrregcount": args.maxrregcount,
            "input": args.input,
            "transform_library": args.transform_library,
            "entry_point": args.entry_point,
            "opt": opt, "ptxas": ptxas, "kernels": kernels}


def main(argv=None):
    p = argparse.ArgumentParser(
        description="Lower a GPU-mapped MLIR kernel to PTX and report "
                    "ptxas -v register/spill/smem figures.")
    p.add_argument("input", help="input .mlir file")
    p.add_argument("--transform-library", metavar="FILE",
                   help="transform library to preload and interpret first")
    p.add_argument("--entry-point", metavar="NAME",
                   help="transform named sequence to run (default: the "
                        "interpreter's default, __transform_main)")
    p.add_argument("--opt", metavar="PATH",
                   help="mlir-opt compatible tool (default: $HWSCHED_OPT, "
                        "else hwsched-opt on PATH, else %s)" % DEFAULT_MLIR_OPT)
    p.add_argument("--arch", default="sm_80", help="target SM (default sm_80)")
    p.add_argument("--features", default="+ptx80",
                   help="nvvm-attach-target features (default +ptx80)")
    p.add_argument("--maxrregcount", type=int, default=255, metavar="N",
                   help="ptxas register cap (default 255)")
    p.add_argument("--ptxas", metavar="PATH",
                   help="ptxas binary (default: PATH lookup, else %s)"
                        % DEFAULT_PTXAS)
    p.add_argument("--keep-temps", metavar="DIR",
                   help="keep intermediate files in DIR")
    p.add_argument("--format", choices=("json", "text"), default="json")
    args = p.parse_args(argv)
    if args.entry_point and not args.transform_library:
        p.error("--entry-point needs --transform-library")
    if args.maxrregcount <= 0:
        p.error("--maxrregcount must be positive")

    try:
        if args.keep_temps:
            os.makedirs(args.keep_temps, exist_ok=True)
            result = report(args, args.keep_temps)
        else:
            with tempfile.TemporaryDirectory(prefix="ptxas-report-") as tmp:
                result = report(args, tmp)
    except StepError as e:
        fail(e)

    if args.format == "json":
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for k in result["kernels"]:
            sys.stdout.write(
                "kernel %s: registers=%d spill_store_bytes=%d "
                "spill_load_bytes=%d smem_bytes=%d\n"
                % (k["name"], k["registers"], k["spill_store_bytes"],
                   k["spill_load_bytes"], k["smem_bytes"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
