//===- TensorCoreOps.td - patterns of the mma.sync kernel ------*- tablegen -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_TENSORCOREOPS
#define HWSCHED_TRANSFORMOPS_TENSORCOREOPS

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/IR/OpBase.td"

def ApplyMmaSyncF32ToTf32PatternsOp
    : Op<Transform_Dialect, "apply_patterns.hwsched.mma_sync_f32_to_tf32",
         [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let cppNamespace = "::hwsched";
  let summary = "Marks f32 nvgpu.mma.sync ops to run on tensor cores as tf32";
  let description = [{
    Collects the upstream pattern (`nvgpu::populateMmaSyncF32ToTF32Patterns`,
    which MLIR 22 registers only in a test pass) that sets `tf32Enabled` on
    every `nvgpu.mma.sync` whose operands are f32: the tensor cores multiply
    f32 only as tf32 (mma.sync m16n8k8 or m16n8k4), so
    `convert-nvgpu-to-nvvm` lowers an f32 `nvgpu.mma.sync` only when it
    carries the attribute (PTX
    `mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32`). tf32 rounds A's
    and B's mantissas to 10 bits; the products are summed in f32.
    `mma.sync` ops on other element types, and those already marked, are
    left as they are.

    Use it inside `transform.apply_patterns`, after the vector-to-nvgpu
    conversion (`convert-vector-to-gpu{use-nvgpu}`) and before the
    lowering to NVVM; `transform-scripts/gpu-matmul-tensorcore.mlir`
    applies it to the tensor-core kernel, which
    `select_tile_config { mma_sync, allow_tf32 }` (or
    `match_mma_sync_matmuls { allow_tf32 }`) admitted for f32 inputs.

    #### Example

    ```mlir
    transform.apply_patterns to %func {
      transform.apply_patterns.hwsched.mma_sync_f32_to_tf32
    } : !transform.any_op
    ```

    #### Return modes

    A pattern descriptor: it never fails. The rewrite only adds the
    attribute; the surrounding `transform.apply_patterns` reports whether
    the patterns converged.
  }];
  let assemblyFormat = "attr-dict";
}

#endif // HWSCHED_TRANSFORMOPS_TENSORCOREOPS
