# -*- Python -*-
"""lit configuration for the hwsched test suite."""

import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "HWSCHED"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "README.md", "lit.cfg.py",
                   "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.hwsched_obj_root, "test")

# Debian's LLVM tools (FileCheck, not, count) are not on PATH: use the tools
# dir, then our own build.
llvm_config.with_system_environment(["HOME", "TMPDIR"])
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.hwsched_tools_dir, append_path=True)
# Specs are found through the shipped directory only, unless a test says so.
config.environment.pop("HWSCHED_SPEC_PATH", None)
config.environment.pop("HWSCHED_TARGET", None)
llvm_config.use_default_substitutions()

src = config.hwsched_src_root
python = config.python_executable or shutil.which("python3") or "python3"
config.substitutions.extend([
    ("%python", python),
    ("%utils", os.path.join(src, "utils")),
    ("%specs", os.path.join(src, "hw-specs")),
    ("%scripts", os.path.join(src, "transform-scripts")),
    ("%examples", os.path.join(src, "examples")),
    ("%mlir_opt", os.path.join(config.llvm_tools_dir, "mlir-opt")),
    ("%mlir_runner", os.path.join(config.llvm_tools_dir, "mlir-runner")),
    ("%mlir_lib_dir", config.llvm_lib_dir),
    ("%hwsched_plugin", os.path.join(config.hwsched_lib_dir, "HwschedPlugin.so")),
    ("%hwsched_obj_root", config.hwsched_obj_root),
])

# Ground truth for GPU figures: tests that need ptxas declare REQUIRES: ptxas
# and are skipped where CUDA is not installed.
ptxas = shutil.which("ptxas") or (
    "/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas")
    else None)
if ptxas:
    config.available_features.add("ptxas")
    config.environment["PATH"] = (os.path.dirname(ptxas) + os.pathsep +
                                  config.environment["PATH"])
if config.hwsched_sanitized in ("ON", "1", "TRUE"):
    config.available_features.add("sanitizers")
