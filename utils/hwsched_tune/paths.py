"""Where hwsched-tune finds its tools and the repository's shared helpers.

The package runs from the source tree (utils/hwsched_tune, launched by
build/bin/hwsched-tune) or installed (share/hwsched/python/hwsched_tune,
launched by bin/hwsched-tune). Both layouts keep the transform scripts, the
specs and the CPU bench helpers at fixed places relative to the package.
"""

import importlib
import importlib.util
import os
import sys

PACKAGE = os.path.dirname(os.path.abspath(__file__))


def _layout():
    """(repository or share root, kind): "source" has utils/, "installed"
    has python/ beside scripts/ and hw-specs/."""
    parent = os.path.dirname(PACKAGE)          # utils/ or share/hwsched/python
    root = os.path.dirname(parent)             # repo root or share/hwsched
    if os.path.basename(parent) == "python":
        return root, "installed"
    return root, "source"


ROOT, LAYOUT = _layout()


def scripts_dir():
    """transform-scripts/ (the same name in both layouts)."""
    return os.path.join(ROOT, "transform-scripts")


def cpu_bench_dir():
    """bench/cpu-matmul (run.py: the lowering, cputime.c)."""
    return os.path.join(ROOT, "bench", "cpu-matmul")


def utils_dir():
    """utils/ (the hwsched_tools package, ptxas-report.py) in either layout."""
    return os.path.join(ROOT, "utils")


def find_hwsched_opt(explicit=None):
    """--opt, else $HWSCHED_OPT, else the hwsched-opt beside the launcher
    (build/bin or the install's bin), else the toolbox's search (PATH, the
    build tree)."""
    launcher_dir = os.environ.get("HWSCHED_TUNE_BIN_DIR")
    for cand in (explicit, os.environ.get("HWSCHED_OPT"),
                 launcher_dir and os.path.join(launcher_dir, "hwsched-opt")):
        if cand and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return os.path.abspath(cand)
    return hwsched_tools().toolchain.find_hwsched_opt()


def mlir_opt():
    return hwsched_tools().toolchain.mlir_opt()


def mlir_runner():
    return hwsched_tools().toolchain.mlir_runner()


def runner_libs():
    return hwsched_tools().toolchain.runner_libs()


def openmp_lib():
    """LLVM's OpenMP runtime: a CPU schedule for a spec with several cores
    runs its column panels on OpenMP threads."""
    return hwsched_tools().toolchain.openmp_lib()


def uses_openmp(lowered_text):
    return "omp.parallel" in lowered_text


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_cpu_bench = None


def cpu_bench():
    """bench/cpu-matmul/run.py as a module: the CPU lowering pipeline
    (LOWERING) that the CPU bench measures with, so a tuned candidate is
    lowered exactly as the bench lowers the schedule."""
    global _cpu_bench
    if _cpu_bench is None:
        _cpu_bench = _load("hwsched_cpu_matmul_bench",
                           os.path.join(cpu_bench_dir(), "run.py"))
    return _cpu_bench


_tools = None


def hwsched_tools():
    """The shared toolbox utils/hwsched_tools (tool discovery, the CPU
    lowering, run_tool, crashed), imported from utils/ in either layout."""
    global _tools
    if _tools is None:
        if utils_dir() not in sys.path:
            sys.path.insert(0, utils_dir())
        _tools = importlib.import_module("hwsched_tools")
    return _tools


_gpu_example = False


def gpu_example():
    """examples/gpu-matmul/run.py as a module (allocs_to_globals: workgroup
    allocations as memref.globals, which the NVVM path lowers), or None
    where it is not installed."""
    global _gpu_example
    if _gpu_example is False:
        path = os.path.join(ROOT, "examples", "gpu-matmul", "run.py")
        _gpu_example = _load("hwsched_gpu_matmul_example", path) if os.path.exists(path) else None
    return _gpu_example
