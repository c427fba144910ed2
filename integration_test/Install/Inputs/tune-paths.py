"""Prints where the installed hwsched_tune package finds what it reuses."""
import sys

sys.path.insert(0, sys.argv[1])
from hwsched_tune import paths  # noqa: E402

print("layout", paths.LAYOUT)
print("lowering", paths.cpu_bench().LOWERING.split("(")[0])
print("gpu example", paths.gpu_example() is not None)
print("tools tag", paths.hwsched_tools().TAG)
