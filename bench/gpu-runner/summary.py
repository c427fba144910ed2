#!/usr/bin/env python3
"""bench/gpu-runner/summary.py REPORTS_DIR: one line per hwsched-gpu-run
report (--json) in REPORTS_DIR: the kernel, the check against cuBLAS, its
TFLOP/s and cuBLAS' at the median of the paired launches, and their ratio
(> 1: faster than cuBLAS). on-gpu.sh prints it after its runs."""

import glob
import json
import os
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: summary.py REPORTS_DIR")
    rows = []
    for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
        try:
            with open(path) as f:
                d = json.load(f)
        except (OSError, ValueError):
            continue
        if not isinstance(d, dict) or "kernel_time" not in d:
            continue
        check = d.get("check", {})
        rows.append("%-52s %s max|diff| %-8.3g %8.1f TFLOP/s  cuBLAS %8.1f  ratio %.3f" % (
            os.path.basename(path)[:-len(".json")],
            "PASS" if check.get("passed") else "FAIL",
            check.get("max_abs_error", -1),
            d["kernel_time"]["tflops_median"], d["cublas_time"]["tflops_median"],
            d.get("speed_vs_cublas_median", 0)))
    print("== summary (%s: %d reports)" % (d.get("device", "?") if rows else "-", len(rows)))
    print("\n".join(rows))


if __name__ == "__main__":
    main()
