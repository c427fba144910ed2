"""Bracket-aware reading of MLIR text, for the tools that read signatures,
types and attributes without a parser: utils/exec_harness.py (function
signatures), hwsched_tools/dynamic_extents.py (indexing maps, ins/outs) and
hwsched_tools/transform_calls.py (named-sequence signatures).

Two things a plain count gets wrong in MLIR are handled: the `>` of an arrow
(`affine_map<(d0) -> (d0)>`, `(i32) -> i32`) closes nothing, and brackets
inside string literals (`"a[b"`) do not count.
"""

PAIRS = {"(": ")", "[": "]", "{": "}", "<": ">"}
CLOSERS = set(PAIRS.values())


def _scan(text, start=0):
    """(index, character) of the bracket and separator characters of `text`
    from `start` that are outside string literals; an arrow's `>` is left
    out."""
    quote = False
    for i in range(start, len(text)):
        c = text[i]
        if c == '"' and (i == 0 or text[i - 1] != "\\"):
            quote = not quote
            continue
        if quote:
            continue
        if c == ">" and i > 0 and text[i - 1] == "-":
            continue
        yield i, c


def closing(text, start):
    """Index of the bracket that closes the one at text[start]. Only that
    kind of bracket is counted. ValueError when it is not closed."""
    open_ch = text[start]
    close = PAIRS[open_ch]
    depth = 0
    for i, c in _scan(text, start):
        if c == open_ch:
            depth += 1
        elif c == close:
            depth -= 1
            if depth == 0:
                return i
    raise ValueError(f"unbalanced '{open_ch}' at offset {start}")


def split_top(text, sep=","):
    """The parts of `text` between the `sep`s outside brackets and string
    literals, stripped; an empty last part (a trailing separator, or empty
    text) is dropped."""
    parts, depth, last = [], 0, 0
    for i, c in _scan(text):
        if c in PAIRS:
            depth += 1
        elif c in CLOSERS:
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(text[last:i].strip())
            last = i + 1
    tail = text[last:].strip()
    if tail:
        parts.append(tail)
    return parts
