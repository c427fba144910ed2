"""Where the tools are: the one place that knows the LLVM/MLIR install, CUDA's
ptxas and hwsched-opt.

Every script and bench asks here instead of spelling a path. The LLVM
install is, in order: $HWSCHED_LLVM_DIR; the prefix `llvm-config-22` (or
`llvm-config`, when it reports major version 22) prints; /usr/lib/llvm-22,
where Debian's packages put it (scripts/bootstrap.sh installs them).
"""

import functools
import os
import shutil
import subprocess

LLVM_MAJOR = 22
DEBIAN_LLVM_DIR = f"/usr/lib/llvm-{LLVM_MAJOR}"
CUDA_PTXAS = "/usr/local/cuda/bin/ptxas"

_TOOLS = os.path.dirname(os.path.abspath(__file__))   # utils/hwsched_tools
UTILS = os.path.dirname(_TOOLS)
ROOT = os.path.dirname(UTILS)                           # repository root


@functools.lru_cache(maxsize=None)
def llvm_dir():
    """The LLVM/MLIR 22 install prefix (see the module comment)."""
    env = os.environ.get("HWSCHED_LLVM_DIR")
    if env:
        return env
    for config in (f"llvm-config-{LLVM_MAJOR}", "llvm-config"):
        path = shutil.which(config)
        if not path:
            continue
        try:
            out = subprocess.run([path, "--version", "--prefix"], capture_output=True,
                                 text=True, timeout=10).stdout.split()
        except (OSError, subprocess.TimeoutExpired):
            continue
        if len(out) == 2 and out[0].split(".")[0] == str(LLVM_MAJOR):
            return out[1]
    return DEBIAN_LLVM_DIR


def llvm_tool(name):
    """An LLVM/MLIR executable (mlir-opt, mlir-runner, llc, FileCheck, ...)."""
    return os.path.join(llvm_dir(), "bin", name)


def llvm_lib(name):
    """A library of the LLVM install (runner utils, libomp)."""
    return os.path.join(llvm_dir(), "lib", name)


def mlir_opt():
    return llvm_tool("mlir-opt")


def mlir_runner():
    return llvm_tool("mlir-runner")


RUNNER_LIB_NAMES = ("libmlir_c_runner_utils.so", "libmlir_runner_utils.so")


def runner_libs():
    """The shared libraries mlir-runner loads for the CPU checks and benches."""
    return [llvm_lib(name) for name in RUNNER_LIB_NAMES]


def openmp_lib():
    """LLVM's OpenMP runtime (Debian: libomp-22-dev): a CPU schedule for
    several cores runs its column panels on OpenMP threads."""
    return llvm_lib("libomp.so")


def ptxas(explicit=None):
    """--ptxas, else ptxas on PATH, else CUDA's default install; None when
    there is none (GPU ground-truth checks are then skipped)."""
    for cand in (explicit, shutil.which("ptxas"), CUDA_PTXAS):
        if cand and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    return explicit or None


def is_executable(path):
    return bool(path) and os.path.isfile(path) and os.access(path, os.X_OK)


def find_hwsched_opt(explicit=None, fallback_to_mlir_opt=False):
    """The hwsched-opt to run: `explicit` (a path or a name on PATH), else
    $HWSCHED_OPT, else hwsched-opt on PATH, else the build tree's
    build/bin/hwsched-opt; with `fallback_to_mlir_opt`, stock mlir-opt last
    (for steps that need no hwsched op). None when nothing is found."""
    candidates = [explicit, os.environ.get("HWSCHED_OPT"), shutil.which("hwsched-opt"),
                  os.path.join(ROOT, "build", "bin", "hwsched-opt")]
    if fallback_to_mlir_opt:
        candidates.append(mlir_opt())
    for cand in candidates:
        if not cand:
            continue
        if os.sep not in cand:
            cand = shutil.which(cand) or cand
        if is_executable(cand):
            return os.path.abspath(cand)
    return None
