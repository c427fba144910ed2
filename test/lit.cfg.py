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
    ("%hwsched_src", src),
    ("%hwsched_tools", config.hwsched_tools_dir),
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

# LLVM's OpenMP runtime (libomp-22-dev), which the multi-threaded CPU
# schedule's programs load into mlir-runner.
if os.path.exists(os.path.join(config.llvm_lib_dir, "libomp.so")):
    config.available_features.add("openmp")

# Dask distributed (Debian's python3-distributed, scripts/bootstrap.sh) for
# the test that tunes through a local cluster.
import subprocess as _subprocess
if _subprocess.run([python, "-c", "import distributed"],
                   stdout=_subprocess.DEVNULL,
                   stderr=_subprocess.DEVNULL).returncode == 0:
    config.available_features.add("dask")

# The dialect plugin loads into the stock mlir-opt (see the sanitizer note
# below for the one configuration where it cannot).
config.available_features.add("plugin")

# GoogleTest unit tests (unittests/), built where libgtest-dev is installed.
if config.hwsched_unittests in ("ON", "1", "TRUE"):
    config.available_features.add("unittests")
    config.substitutions.append(
        ("%unittests", os.path.join(config.hwsched_obj_root, "unittests")))

# Ground truth for GPU figures: tests that need ptxas declare REQUIRES: ptxas
# and are skipped where CUDA is not installed.
ptxas = shutil.which("ptxas") or (
    "/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas")
    else None)
if ptxas:
    config.available_features.add("ptxas")
    config.environment["PATH"] = (os.path.dirname(ptxas) + os.pathsep +
                                  config.environment["PATH"])

# bench/gpu-runner's hwsched-gpu-run, built where CMake found the CUDA
# toolkit: its dry-run and no-device tests declare REQUIRES: gpu-runner.
if getattr(config, "hwsched_gpu_runner", "") in ("ON", "1", "TRUE"):
    config.available_features.add("gpu-runner")
    _stub = getattr(config, "hwsched_cuda_stub_driver", "")
    if _stub and os.path.exists(_stub):
        config.available_features.add("cuda-driver-stub")
        config.substitutions.append(("%cuda_driver_stub", _stub))
else:
    lit_config.note("hwsched-gpu-run not built (no CUDA toolkit found by "
                    "CMake): GPU runner tests are unsupported")
# A usable NVIDIA GPU: `nvidia-smi -L` lists at least one device. Tests that
# launch kernels declare REQUIRES: cuda-device; the no-device message test
# declares UNSUPPORTED: cuda-device.
_nvidia_smi = shutil.which("nvidia-smi")
if _nvidia_smi:
    try:
        _listing = _subprocess.run([_nvidia_smi, "-L"], capture_output=True,
                                   text=True, timeout=30).stdout
    except (OSError, _subprocess.TimeoutExpired):
        _listing = ""
    if any(line.startswith("GPU ") for line in _listing.splitlines()):
        config.available_features.add("cuda-device")

if config.hwsched_sanitized in ("ON", "1", "TRUE"):
    config.available_features.add("sanitizers")
    # Sanitizer reports must fail the test: UBSan only reports and goes on
    # unless told to halt; leaks are reported at exit (LeakSanitizer).
    # Options given by the caller win.
    llvm_config.with_system_environment(
        ["ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"])
    config.environment.setdefault(
        "ASAN_OPTIONS", "detect_leaks=1:strict_string_checks=1:"
        "detect_stack_use_after_return=1:check_initialization_order=1")
    config.environment.setdefault(
        "UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1")
    # Our executables link the sanitizer runtimes, but the plugin is loaded
    # into the stock (uninstrumented) mlir-opt, where the ASan runtime must
    # come first: %mlir_opt becomes a wrapper that preloads it. A wrapper
    # (not an `env LD_PRELOAD=...` prefix) so `--opt %mlir_opt` keeps working
    # in the harness tests.
    # The runtime of the compiler that built us: GCC's libasan, or clang's
    # (the libFuzzer build, which scripts/test-sanitized.sh also tests).
    import subprocess
    runtime = ("libclang_rt.asan-x86_64.so"
               if "clang" in os.path.basename(config.hwsched_cxx_compiler)
               else "libasan.so")
    libasan = subprocess.run(
        [config.hwsched_cxx_compiler, f"-print-file-name={runtime}"],
        capture_output=True, text=True).stdout.strip()
    if os.path.isabs(libasan) and os.path.exists(libasan):
        # Named mlir-opt, so tests that check printed commands still match.
        wrapper_dir = os.path.join(config.test_exec_root, "asan-preload")
        wrapper = os.path.join(wrapper_dir, "mlir-opt")
        os.makedirs(wrapper_dir, exist_ok=True)
        with open(wrapper, "w") as f:
            f.write("#!/bin/sh\n"
                    f"LD_PRELOAD={libasan}${{LD_PRELOAD:+:$LD_PRELOAD}} "
                    f"exec {os.path.join(config.llvm_tools_dir, 'mlir-opt')} "
                    '"$@"\n')
        os.chmod(wrapper, 0o755)
        config.substitutions = [
            (k, wrapper if k == "%mlir_opt" else v)
            for k, v in config.substitutions]
    else:
        # No ASan runtime to preload: the plugin cannot load; tests that load
        # it are marked UNSUPPORTED by `REQUIRES: plugin`.
        lit_config.note(f"sanitized build: no {runtime} to preload into "
                        "mlir-opt; plugin tests are unsupported")
        config.available_features.discard("plugin")
