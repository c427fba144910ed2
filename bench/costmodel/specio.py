"""Edit cost_weights entries of a hwsched spec file in place, textually, so the
rest of the file (layout, comments-free JSON formatting, key order) is kept.

    set_cost_weights(path, {"reg_base": 12.5, ...}, source=None)
"""
import json
import re


def _fmt(value):
    if isinstance(value, int):
        return str(value)
    return repr(round(float(value), 4))


def set_cost_weights(path, values, source=None):
    text = open(path).read()
    m = re.search(r'"cost_weights"\s*:\s*\{', text)
    if not m:
        raise SystemExit(f"{path}: no cost_weights section")
    start = m.end()
    end = text.index("}", start)
    block = text[start:end]
    indent = re.search(r'\n(\s*)"', block).group(1)
    for key, value in values.items():
        pat = re.compile(r'("%s"\s*:\s*)([-0-9.eE+]+)' % re.escape(key))
        if pat.search(block):
            block = pat.sub(lambda mm: mm.group(1) + _fmt(value), block)
        else:
            block = block.rstrip() + ",\n" + indent + f'"{key}": {_fmt(value)}' \
                + "\n" + indent[:-2]
    text = text[:start] + block + text[end:]
    if source is not None:
        sm = re.search(r'("cost_weights"\s*:\s*)("(?:[^"\\]|\\.)*")', text[end:])
        if sm:
            a = end + sm.start(2)
            b = end + sm.end(2)
            text = text[:a] + json.dumps(source) + text[b:]
    json.loads(text)  # still valid JSON
    open(path, "w").write(text)
