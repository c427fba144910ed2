"""The one CPU lowering pipeline: from the IR a transform script leaves
(tensors or memrefs, linalg, vector, scf, affine, omp) to the LLVM dialect
mlir-runner executes.

utils/exec-check.py runs it for the before/after semantics checks and the
CPU benches run it for the timings, so a checked schedule is the measured
schedule. Options cover what differs between callers: whether tensors remain
(bufferize), whether the program frees what bufferization allocates
(deallocate: long-running timing loops would otherwise grow the heap).
"""

BUFFERIZE_PASS = ("one-shot-bufferize{bufferize-function-boundaries "
                  "function-boundary-type-conversion=identity-layout-map}")

# Buffer deallocation after one-shot bufferization (a bench that calls a
# kernel thousands of times must not leak its temporaries).
DEALLOCATION_PASSES = ["buffer-deallocation-pipeline", "convert-bufferization-to-memref"]

# From loops and vectors on memrefs to the LLVM dialect, one pass per entry.
TO_LLVM_PASSES = [
    "convert-linalg-to-loops",
    "convert-vector-to-scf",
    "lower-affine",
    "convert-scf-to-cf",
    "expand-strided-metadata",
    "lower-affine",  # expand-strided-metadata creates affine.apply
    "finalize-memref-to-llvm",
    "convert-vector-to-llvm",
    "convert-math-to-llvm",
    "convert-math-to-libm",  # math ops without an LLVM intrinsic (tanh, erf, ...)
    "convert-arith-to-llvm",
    "convert-index-to-llvm",
    "convert-ub-to-llvm",
    "convert-cf-to-llvm",
    "convert-func-to-llvm",
    # OpenMP regions (the CPU schedule's multi-threaded column panels): their
    # block arguments and types to LLVM; mlir-runner then translates the omp
    # ops and the program needs an OpenMP runtime (toolchain.openmp_lib()).
    "convert-openmp-to-llvm",
    "reconcile-unrealized-casts",
]


def cpu_lowering_passes(bufferize=True, deallocate=False):
    """The pipeline as a list of pass entries."""
    passes = []
    if bufferize:
        passes.append(BUFFERIZE_PASS)
        if deallocate:
            passes += DEALLOCATION_PASSES
    return passes + TO_LLVM_PASSES


def cpu_lowering_pipeline(bufferize=True, deallocate=False):
    """The pipeline as a --pass-pipeline value: builtin.module(...)."""
    return "builtin.module(" + ",".join(cpu_lowering_passes(bufferize, deallocate)) + ")"
