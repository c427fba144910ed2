#!/usr/bin/env python3
"""Turns each static workgroup memref.alloc into a memref.get_global of a
module-level workgroup memref.global, so the NVVM path can lower it (it has
no lowering for memref.alloc in shared memory) and ptxas reports its bytes as
static shared memory. Reads MLIR text on stdin, writes it on stdout.
Test helper for integration_test/Smem/ptxas-smem.mlir."""

import re
import sys

ALLOC = re.compile(r"^(\s*)(%[\w.$-]+) = memref\.alloc\(\) "
                   r"(?:\{alignment = (\d+) : i64\} )?: "
                   r"(memref<[^\n]*#gpu\.address_space<workgroup>>)\s*$")

lines = sys.stdin.read().split("\n")
globals_, out = [], []
for line in lines:
    m = ALLOC.match(line)
    if not m:
        out.append(line)
        continue
    indent, name, align, ty = m.groups()
    sym = f"__smem{len(globals_)}"
    attr = f" {{alignment = {align} : i64}}" if align else ""
    globals_.append(f'  memref.global "private" @{sym} : {ty} = uninitialized{attr}')
    out.append(f"{indent}{name} = memref.get_global @{sym} : {ty}")
for i, line in enumerate(out):
    if line.startswith("module"):
        out[i + 1:i + 1] = globals_
        break
sys.stdout.write("\n".join(out))
