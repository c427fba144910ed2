"""Calling the shipped transform-scripts/ sequences from a script with fixed
params, as upstream's test-tune-extension.mlir does: the schedule stays in
the .mlir library, the caller only writes a small @__transform_main that
makes the numbers (`transform.param.constant`) and includes the sequences.

    w = Wrapper(["gpu-measure.mlir", "gpu-matmul.mlir", "gpu-dispatch.mlir"])
    bm, bn = w.param(64), w.param(64)
    epi_t, mm_t = w.include("gpu_measure_chain_2d", w.root, bm, bn, tm, tn)
    open(path, "w").write(w.text())
    cmd = [opt, payload, w.preload_option(path), "--transform-interpreter"]

The private declarations the wrapper needs (argument effects, result types)
are read from the library files, so the sequence's signature is written
once, in the library.
"""

import os
import re

from .mlir_text import closing, split_top
from .toolchain import ROOT

SCRIPTS = os.path.join(ROOT, "transform-scripts")
HANDLE = "!transform.any_op"
PARAM = "!transform.param<i64>"


def script_path(name):
    """A file of transform-scripts/ (a path is returned as it is)."""
    return name if os.sep in name else os.path.join(SCRIPTS, name)


def preload_option(paths):
    """The hwsched-opt option preloading `paths` (transform-scripts/ names
    or paths)."""
    return ("--transform-preload-library=transform-library-paths="
            + ",".join(script_path(p) for p in paths))


def signatures(paths):
    """{name: (argument declarations, result types)} of the named sequences
    defined in `paths`, e.g. "gpu_measure_registers":
    (["!transform.any_op {transform.readonly}"], ["!transform.param<i64>"])."""
    sigs = {}
    for path in paths:
        with open(script_path(path)) as f:
            text = f.read()
        for m in re.finditer(r"transform\.named_sequence @(\w+)\(", text):
            end = closing(text, m.end() - 1) + 1
            args = [re.sub(r"^%\w+\s*:\s*", "", a)
                    for a in split_top(text[m.end():end - 1])]
            rest = text[end:text.index("{", end)].strip()
            results = []
            if rest.startswith("->"):
                results = split_top(rest[2:].strip().strip("()"))
            sigs[m.group(1)] = (args, results)
    return sigs


class Wrapper:
    """A @__transform_main over the payload root (`self.root`) that makes
    params and includes library sequences; `text()` is the module to
    preload next to the library files."""

    def __init__(self, library, root_effect="consumed"):
        self.library = list(library)
        self.sigs = signatures(self.library)
        self.root = "%root"
        self.root_effect = root_effect
        self.lines = []
        self.used = []
        self.count = 0

    def _name(self, hint):
        self.count += 1
        return f"%{hint}{self.count}"

    def param(self, value):
        """A !transform.param<i64> holding `value`."""
        name = self._name("p")
        self.lines.append(f"{name} = transform.param.constant {int(value)} : i64 -> {PARAM}")
        return name

    def params(self, values):
        """One !transform.param<i64> holding `values` in order."""
        names = [self.param(v) for v in values]
        name = self._name("ps")
        self.lines.append(f"{name} = transform.merge_handles {', '.join(names)} : {PARAM}")
        return name

    def include(self, sequence, *args):
        """Includes `sequence` on `args`; returns its results' names (one
        name, a tuple, or None)."""
        decls, results = self.sigs[sequence]
        if len(args) != len(decls):
            raise ValueError(f"@{sequence} takes {len(decls)} arguments, got {len(args)}")
        if sequence not in self.used:
            self.used.append(sequence)
        arg_types = [d.split(" {")[0] for d in decls]
        names = [self._name("r") for _ in results]
        lhs = f"{', '.join(names)} = " if names else ""
        self.lines.append(
            f"{lhs}transform.include @{sequence} failures(propagate) ({', '.join(args)})\n"
            f"        : ({', '.join(arg_types)}) -> ({', '.join(results)})")
        if not names:
            return None
        return names[0] if len(names) == 1 else tuple(names)

    def text(self):
        decls = []
        for seq in self.used:
            args, results = self.sigs[seq]
            res = f" -> ({', '.join(results)})" if results else ""
            decls.append(f"  transform.named_sequence private @{seq}({', '.join(args)}){res}")
        body = "".join(f"    {line}\n" for line in self.lines)
        return ("module attributes {transform.with_named_sequence} {\n"
                + "\n".join(decls) + "\n"
                f"  transform.named_sequence @__transform_main({self.root}: {HANDLE} "
                f"{{transform.{self.root_effect}}}) {{\n"
                f"{body}    transform.yield\n  }}\n}}\n")

    def preload_option(self, path):
        """The preload option for this wrapper, written to `path`, and its
        library."""
        return preload_option([path] + self.library)
