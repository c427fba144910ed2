#!/usr/bin/env python3
"""exec-check-split.py: run exec-check.py on every `// -----` chunk of a file.

Usage:
  python3 utils/exec-check-split.py INPUT.mlir [exec-check options] -- <transform args>

Each chunk of INPUT.mlir (split like --split-input-file) that defines
`func.func @main` is written to a temporary file and checked with
utils/exec-check.py, with the given options; a chunk that contains the line
`// exec-check: expect-changed` also gets --expect-changed. Prints one line per checked
chunk, `chunk N (line L): <exec-check verdict>`, then the failing output
of exec-check for chunks that fail. Exit status 1 when any chunk fails or no
chunk has a @main. Lines with `// expected-` annotations are blanked first.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main(argv):
    if "--" in argv:
        split = argv.index("--")
        own, transform = argv[:split], argv[split:]
    else:
        own, transform = argv, ["--"]
    if not own:
        print(__doc__, file=sys.stderr)
        return 2
    source, options = own[0], own[1:]
    with open(source) as f:
        lines = f.read().split("\n")
    chunks, start, current = [], 1, []
    for number, line in enumerate(lines, 1):
        if line.strip() == "// -----":
            chunks.append((start, current))
            start, current = number + 1, []
        else:
            current.append(line)
    chunks.append((start, current))

    failed = checked = 0
    with tempfile.TemporaryDirectory(prefix="exec-check-split-") as tmp:
        for index, (first, body) in enumerate(chunks):
            text = "\n".join(body)
            if "func.func @main()" not in text:
                continue
            checked += 1
            # Keep line numbers: pad with empty lines so diagnostics point at
            # the original file's lines. `expected-*` annotations are blanked:
            # MLIR 22 tools report unmet ones as errors even without
            # --verify-diagnostics, which exec-check treats as a failure.
            text = "\n".join("" if "// expected-" in l else l
                             for l in text.split("\n"))
            path = os.path.join(tmp, f"chunk{index}.mlir")
            with open(path, "w") as f:
                f.write("\n" * (first - 1) + text + "\n")
            extra = ["--expect-changed"] if "// exec-check: expect-changed" in text else []
            cmd = [sys.executable, os.path.join(HERE, "exec-check.py"), path,
                   *options, *extra, *transform]
            run = subprocess.run(cmd, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True)
            verdict = next((l for l in run.stdout.splitlines()
                            if l.startswith("EXEC-CHECK:")), "EXEC-CHECK: none")
            print(f"chunk {index} (line {first}): {verdict}")
            if run.returncode != 0:
                failed += 1
                print(run.stdout)
    if checked == 0:
        print("no chunk defines func.func @main()")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
