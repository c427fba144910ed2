#!/usr/bin/env python3
"""A hwsched-opt that misbehaves on purpose, to show the robustness driver
and the op fuzzer catch each kind of bug. HWSCHED_FAULT selects the fault:
  crash   abort with "LLVM ERROR" when the input applies merge_allocations
  dirty   after a failure, dump a payload that differs from the original
          (every IR dump but the first, which is the driver's baseline)
  nondet  print a different remark on every run
  garbled print IR that does not parse after a successful transform
Anything else runs the real hwsched-opt (found on PATH) unchanged."""
import os
import random
import shutil
import subprocess
import sys

real = shutil.which("hwsched-opt")
fault = os.environ.get("HWSCHED_FAULT", "")
text = open(sys.argv[1]).read() if len(sys.argv) > 1 and os.path.isfile(sys.argv[1]) else ""
if fault == "crash" and "transform.smem.merge_allocations" in text:
    sys.stderr.write("LLVM ERROR: injected crash\n")
    sys.stderr.flush()
    os.abort()
p = subprocess.run([real] + sys.argv[1:], capture_output=True, text=True)
out, err = p.stdout, p.stderr
if fault == "dirty":
    parts = err.split("// -----// IR Dump After")
    for i in range(2, len(parts)):
        parts[i] = parts[i].replace("func.func @", "func.func @dirty_", 1)
    err = "// -----// IR Dump After".join(parts)
if fault == "garbled" and any(a.startswith("--transform-interpreter") for a in sys.argv):
    out = out.replace("return\n", "return %undefined\n")
if fault == "nondet":
    err += f"x.mlir:1:1: remark: {random.random()}\n"
sys.stdout.write(out)
sys.stderr.write(err)
sys.exit(p.returncode)
