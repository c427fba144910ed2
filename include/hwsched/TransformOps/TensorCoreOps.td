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
include "hwsched/TransformOps/HwschedTransformBase.td"

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

def ApplyMmaSyncBf16ToNvvmPatternsOp
    : Op<Transform_Dialect, "apply_patterns.hwsched.mma_sync_bf16_to_nvvm",
         [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let cppNamespace = "::hwsched";
  let summary = "Lowers bf16 nvgpu.mma.sync ops to nvvm.mma.sync";
  let description = [{
    Collects the pattern that rewrites every `nvgpu.mma.sync` m16n8k16 whose
    A and B are bf16 and whose accumulators are f32 into `nvvm.mma.sync`
    (PTX `mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32`, sm_80 and
    later). MLIR 22's `convert-nvgpu-to-nvvm` fails on such an op ("failed
    to deduce operand PTX types"); NVVM takes bf16 operands packed two to
    an i32. The pattern bitcasts each `vector<2xbf16>` row of A
    (`vector<4x2xbf16>`, four registers) and B (`vector<2x2xbf16>`, two) to
    an i32, passes the four f32 accumulators of `vector<2x2xf32>` as
    scalars and builds the `vector<2x2xf32>` result from the returned
    struct, so the surrounding IR keeps the nvgpu fragment types and lowers
    as before (`convert-vector-to-llvm` for the bitcasts and extracts).
    bf16 rounds A and B to 8-bit mantissas (they are bf16 already); the
    products are summed in f32. Other `mma.sync` ops (f16, tf32, integer,
    other shapes) are left to `convert-nvgpu-to-nvvm`.

    Use it inside `transform.apply_patterns` after the vector-to-nvgpu
    conversion (the pass `hwsched-convert-vector-to-nvgpu`, which unlike
    upstream's `convert-vector-to-gpu{use-nvgpu}` takes bf16);
    `transform-scripts/gpu-matmul-tensorcore.mlir` applies both in step 11
    of the tensor-core kernel, which `select_tile_config { mma_sync }`
    admits for bf16 inputs on targets whose spec lists bf16 mma.

    #### Example

    ```mlir
    transform.apply_patterns to %func {
      transform.apply_patterns.hwsched.mma_sync_bf16_to_nvvm
    } : !transform.any_op
    ```

    #### Return modes

    A pattern descriptor: it never fails. An mma.sync it does not lower is
    left as it is; the surrounding `transform.apply_patterns` reports
    whether the patterns converged.
  }];
  let assemblyFormat = "attr-dict";
}

def ApplyMmaSyncTf32ToNvvmPatternsOp
    : Op<Transform_Dialect, "apply_patterns.hwsched.mma_sync_tf32_to_nvvm",
         [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let cppNamespace = "::hwsched";
  let summary = "Lowers tf32 nvgpu.mma.sync ops to nvvm.mma.sync with rounded operands";
  let description = [{
    Collects the pattern that rewrites every `nvgpu.mma.sync` m16n8k8 with
    `tf32Enabled`, f32 A (`vector<4x1xf32>`) and B (`vector<2x1xf32>`) and
    f32 accumulators into `nvvm.mma.sync` (PTX
    `mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32`, sm_80 and later)
    whose six A and B registers are first rounded to tf32 with
    `nvvm.convert.float.to.tf32 {rnd = rna}` (PTX `cvt.rna.tf32.f32`: to the
    nearest, ties away from zero, as cuBLAS' and CUTLASS' tf32 GEMMs round).

    Why: MLIR 22's `convert-nvgpu-to-nvvm` passes the f32 registers through
    a bitcast, and the tensor core then reads the top 19 bits of each: it
    truncates. Truncation is biased (every product loses magnitude), so the
    error grows linearly with K: on an H200 a 4096^3 tf32 product was 1.5e-3
    (relative) below cuBLAS' TF32 GEMM, three times the tf32 bound; rounded,
    it is within it. The cost is one `cvt` per A and B register.

    The accumulators are passed as scalars and the `vector<2x2xf32>` result
    is rebuilt from the returned struct, so the surrounding IR keeps the
    nvgpu fragment types and lowers as before. Other `mma.sync` ops (f16,
    bf16, integer, other shapes) are left to `convert-nvgpu-to-nvvm` or
    `transform.apply_patterns.hwsched.mma_sync_bf16_to_nvvm`.

    Use it inside `transform.apply_patterns` after the kernel's pipeline
    (`transform-scripts/gpu-matmul-tensorcore.mlir` applies it with the bf16
    lowering in `@gpu_matmul_tensorcore_lower_mma_inputs`).

    #### Example

    ```mlir
    transform.apply_patterns to %launch {
      transform.apply_patterns.hwsched.mma_sync_tf32_to_nvvm
    } : !transform.any_op
    ```

    #### Return modes

    A pattern descriptor: it never fails. An mma.sync it does not lower is
    left as it is; the surrounding `transform.apply_patterns` reports
    whether the patterns converged.
  }];
  let assemblyFormat = "attr-dict";
}

def SplitAccumulationOp
    : Hwsched_TransformOp<"hwsched.split_accumulation",
                          [HwschedNumericParams]> {
  let summary = "Turns C += A x B into a filled product and an addition, "
                "where that lets the tensor-core kernel take it";
  let description = !strconcat([{
    The tensor-core (mma.sync) kernel of
    `transform-scripts/gpu-matmul-tensorcore.mlir` fuses the init of C into
    its accumulators: they start in registers from a `linalg.fill` and C is
    stored once. A matmul that accumulates into C instead (C += A x B, the
    form most frontends emit for a matmul into an existing tensor) is not
    taken. For each payload op of `ops` that the kernel would take if its
    init were a fill (the checks and tile rules of
    `match_mma_sync_matmuls`, with `allow_tf32` and the overrides as
    there), this op rewrites

    ```mlir
    %r = linalg.matmul ins(%a, %b : ...) outs(%c : ...)
    ```

    into a product into a zero-filled tensor and an elementwise addition
    of the old init, written into C:

    ```mlir
    %e = tensor.empty() : ...
    %z = linalg.fill ins(%zero : f32) outs(%e : ...)
    %p = linalg.matmul ins(%a, %b : ...) outs(%z : ...)
    %r = linalg.add ins(%p, %c : ...) outs(%c : ...)
    ```

    The matmul op itself is kept (only its init operand changes), so
    handles to it stay valid and the routing that follows
    (`match_mma_sync_matmuls`) takes it; the addition is an elementwise
    consumer of the product, which `@gpu_matmul_auto` runs as a kernel of
    its own after the tensor-core kernel. The sum is the same up to
    floating-point rounding (C is added last instead of first). Ops that
    already have a fill init, are not matmuls, or that the kernel would
    not take (another element type, extents no tile divides, a target
    below sm_80, ...) are left as they are.

    With `explain`, each op it splits gets a remark saying so.

    #### Example

    ```mlir
    %adds = transform.hwsched.split_accumulation %matmuls { explain }
        : (!transform.any_op) -> !transform.any_op
    ```

    #### Return modes

    Only reads the handle; modifies the payload; `additions` holds the new
    `linalg.add` ops in the order of their matmuls. A matmul not split is
    not a failure. A target that does not resolve (an unknown spec, a bad
    override) is a silenceable failure before anything changes.
  }], HwschedParamsDoc, HwschedTargetDoc);

  let arguments = !con((ins TransformHandleTypeInterface:$ops,
                            OptionalAttr<StrAttr>:$target,
                            UnitAttr:$explain,
                            UnitAttr:$allow_tf32),
                          HwschedParamArgs);
  let results = (outs TransformHandleTypeInterface:$additions);
  let assemblyFormat =
      "$ops (`params` `(` custom<HwschedParams>($params, $param_names)^ `)`)? attr-dict `:` "
      "functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

#endif // HWSCHED_TRANSFORMOPS_TENSORCOREOPS
