"""Fails when a file of one layer depends on a layer above it.

The layers run one way (docs/Architecture.md):
    Support -> HwSpec, Dialect -> Analysis -> CostModel -> Transforms
    -> TransformOps
A file under include/hwsched/<L>/ or lib/<L>/ may include
"hwsched/<M>/..." only when M is at or below L, and lib/<L>/CMakeLists.txt
may link only Hwsched libraries built in a folder at or below L. Prints one
line per offending edge (file, line, the edge) and exits 1 if there is any.
"""
import re
import sys
from pathlib import Path

# Rank of each layer; equal ranks may not use each other unless the same.
RANK = {
    "Support": 0,
    "HwSpec": 1,
    "Dialect": 1,
    "Analysis": 2,
    "CostModel": 3,
    "Transforms": 4,
    "TransformOps": 5,
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"hwsched/([A-Za-z]+)/')
LIBRARY = re.compile(r"\b(Hwsched[A-Za-z]+)\b")
DEFINED = re.compile(r"add_mlir_(?:library|dialect_library)\(\s*(Hwsched[A-Za-z]+)")


def allowed(user, used):
    if user == used:
        return True
    return RANK[used] < RANK[user]


def main(root):
    root = Path(root)
    problems = []
    # Which layer folder defines each Hwsched library.
    owner = {}
    for cml in (root / "lib").glob("**/CMakeLists.txt"):
        layer = cml.relative_to(root / "lib").parts[0]
        for name in DEFINED.findall(cml.read_text()):
            owner[name] = layer
    for layer in RANK:
        for base in (root / "include" / "hwsched" / layer, root / "lib" / layer):
            if not base.is_dir():
                continue
            for path in sorted(base.rglob("*")):
                if path.suffix not in (".h", ".cpp", ".inc", ".td", ".c"):
                    continue
                for no, line in enumerate(path.read_text().splitlines(), 1):
                    m = INCLUDE.match(line)
                    if m and m.group(1) in RANK and not allowed(layer, m.group(1)):
                        problems.append(
                            f"{path.relative_to(root)}:{no}: {layer} includes "
                            f"hwsched/{m.group(1)} (a layer above or beside it)")
        for cml in sorted((root / "lib" / layer).glob("**/CMakeLists.txt")):
            text = cml.read_text()
            defined = set(DEFINED.findall(text))
            for no, line in enumerate(text.splitlines(), 1):
                if line.lstrip().startswith("#"):
                    continue
                for lib in LIBRARY.findall(line):
                    used = owner.get(lib)
                    if lib in defined or used is None or used not in RANK:
                        continue
                    if not allowed(layer, used):
                        problems.append(
                            f"{cml.relative_to(root)}:{no}: {layer} links {lib} "
                            f"(built in lib/{used}, a layer above or beside it)")
    for p in problems:
        print(p)
    print(f"layering: {len(problems)} upward edge(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
