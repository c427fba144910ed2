"""Linalg ops of a payload that read an uninitialized tensor.

A `tensor.empty()` has undefined contents. An op whose init is one and whose
body reads the init's element (a reduction that accumulates into it, a
generic that uses `%out`) computes an undefined result: upstream test
payloads do this on purpose (they check a compiler's configuration, not
values), e.g. IREE's `@nhwc_conv_mfma_truncf`, whose convolution accumulates
into a `tensor.empty()` while the fill beside it goes unused. Two correct
lowerings of such a payload may print different numbers, so
utils/exec-check.py reports a difference on it as an invalid instance, not
a miscompile.

Reads the payload with its named ops generalized
(`--linalg-generalize-named-ops`), as hwsched_tools.dynamic_extents does.
"""

import re

from .dynamic_extents import _functions, _operand_list, _past
from .mlir_text import split_top

EMPTY = re.compile(r"(%[\w$.-]+)\s*=\s*tensor\.empty\s*\(")
GENERIC = re.compile(r"linalg\.generic\s*\{")


def uninitialized_reads(generalized_text):
    """One line per op that reads a tensor.empty init: '@func: <init>
    (tensor.empty) is the init of a linalg.generic whose body reads it'."""
    found = []
    for name, _, body in _functions(generalized_text):
        empties = set(EMPTY.findall(body))
        if not empties:
            continue
        for m in GENERIC.finditer(body):
            attr_end = _past(body, m.end() - 1)
            om = re.compile(r"outs\s*\(").search(body, attr_end)
            if not om:
                continue
            pairs, outs_end = _operand_list(body, om.end() - 1)
            if not pairs:
                continue
            inits = [n for n, _ in pairs]
            region = body.find("{", outs_end)
            if region < 0:
                continue
            region_text = body[region:_past(body, region)]
            bb = re.search(r"\^bb0\s*\(", region_text)
            if not bb:
                continue
            args_end = _past(region_text, bb.end() - 1)
            args = [a.split(":")[0].strip()
                    for a in split_top(region_text[bb.end():args_end - 1])]
            rest = region_text[args_end:]
            for init, arg in zip(inits, args[len(args) - len(inits):]):
                if init in empties and re.search(re.escape(arg) + r"\b", rest):
                    found.append(f"@{name}: {init} (tensor.empty) is the init "
                                 "of a linalg.generic whose body reads it")
    return found


def main(argv=None):
    """`python3 -m hwsched_tools.undefined_reads [FILE]`: the reads of a
    payload whose named ops are already generalized (stdin by default), one
    per line; 'none' when there is none."""
    import argparse
    import sys
    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("file", nargs="?")
    args = ap.parse_args(argv)
    text = open(args.file).read() if args.file else sys.stdin.read()
    print("\n".join(uninitialized_reads(text)) or "none")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
