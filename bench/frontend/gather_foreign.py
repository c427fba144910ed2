#!/usr/bin/env python3
"""Builds the foreign corpus: payloads cut out of upstream test files.

    python3 bench/frontend/gather_foreign.py --raw RAW_DIR --out CORPUS_DIR \
        [--sources bench/frontend/foreign-sources.txt] [--download]

The sources file lists one test file per line, `REPO PATH COMMIT` (e.g.
`llvm/llvm-project mlir/test/Dialect/Linalg/transform-op-pad.mlir <sha>`).
Each file is read from RAW_DIR/REPO/PATH; with --download, files missing
there are first fetched from https://raw.githubusercontent.com/REPO/COMMIT/PATH
(the only network access: the benchmark itself never downloads anything).

Each file is split at `// -----`; from every chunk the RUN / CHECK lines and
all other `//` comments are removed, and so is every transform script
(`transform.named_sequence`, `transform.sequence` and
`transform.with_pdl_patterns` blocks, and the `transform.with_named_sequence`
attribute), so that only the payload the test ran its script on remains.
Chunks without a Linalg op are dropped; chunks that do not parse with our
tools are kept (the benchmark skips and counts them). One file per source
file goes to CORPUS_DIR/<repo>/<path> (chunks joined by `// -----`), and
CORPUS_DIR/SOURCES.md records the repository, path, commit and chunk count of
each. Keep the corpus outside the repository: it is not ours to commit.
"""

import argparse
import os
import re
import sys
import urllib.request

DROP_BLOCKS = re.compile(r"^\s*(?:%[\w.$-]+(?:, %[\w.$-]+)*\s*=\s*)?"
                         r"transform\.(named_sequence|sequence|with_pdl_patterns)\b")


def strip_blocks(lines):
    """Removes transform blocks (from their first line to the matching
    closing brace)."""
    out, i = [], 0
    while i < len(lines):
        if DROP_BLOCKS.match(lines[i]):
            depth = lines[i].count("{") - lines[i].count("}")
            i += 1
            while i < len(lines) and depth > 0:
                depth += lines[i].count("{") - lines[i].count("}")
                i += 1
            continue
        out.append(lines[i])
        i += 1
    return out


def clean_chunk(chunk):
    lines = [l for l in chunk.split("\n") if not l.strip().startswith("//")]
    # Trailing comments (expected-* annotations, CHECK hints).
    lines = [re.sub(r"\s+//.*$", "", l) if '"' not in l.split("//", 1)[-1] else l
             for l in lines]
    lines = strip_blocks(lines)
    text = "\n".join(lines)
    text = re.sub(r"\{\s*transform\.with_named_sequence\s*\}", "", text)
    text = re.sub(r"transform\.with_named_sequence\s*,\s*", "", text)
    text = re.sub(r",\s*transform\.with_named_sequence\b", "", text)
    # A module left without ops.
    text = re.sub(r"module\s*(@[\w$.-]+\s*)?(attributes\s*\{\s*\}\s*)?\{\s*\}", "", text)
    text = re.sub(r"\n{3,}", "\n\n", text).strip()
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sources", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                      "foreign-sources.txt"))
    ap.add_argument("--raw", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--download", action="store_true")
    args = ap.parse_args()
    rows = []
    with open(args.sources) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                rows.append(line.split())
    os.makedirs(args.out, exist_ok=True)
    table = []
    for repo, path, commit in rows:
        raw = os.path.join(args.raw, repo, path)
        if not os.path.exists(raw) and args.download:
            url = f"https://raw.githubusercontent.com/{repo}/{commit}/{path}"
            os.makedirs(os.path.dirname(raw), exist_ok=True)
            print(f"gather: downloading {url}", flush=True)
            with urllib.request.urlopen(url, timeout=60) as r, open(raw, "wb") as f:
                f.write(r.read())
        if not os.path.exists(raw):
            print(f"gather: missing {raw} (run with --download, or put the file there)",
                  file=sys.stderr)
            continue
        with open(raw, errors="replace") as f:
            text = f.read()
        chunks = [clean_chunk(c) for c in re.split(r"^// -----\s*$", text, flags=re.M)]
        chunks = [c for c in chunks if re.search(r"\blinalg\.", c)]
        if not chunks:
            continue
        dst = os.path.join(args.out, repo, path)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "w") as f:
            f.write("\n\n// -----\n\n".join(chunks) + "\n")
        table.append((repo, path, commit, len(chunks)))
        print(f"gather: {repo} {path}: {len(chunks)} chunks", flush=True)
    with open(os.path.join(args.out, "SOURCES.md"), "w") as f:
        f.write("# Foreign corpus sources\n\nPayloads cut out of public test files by "
                "bench/frontend/gather_foreign.py (RUN/CHECK lines, comments and "
                "transform scripts removed). Not part of the hwsched repository.\n\n"
                "| repository | path | commit | chunks |\n|---|---|---|---|\n")
        for repo, path, commit, n in table:
            f.write(f"| {repo} | {path} | {commit} | {n} |\n")
    print(f"gather: {len(table)} files, {sum(t[3] for t in table)} chunks in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
