// transform-scripts/gpu-matmul.mlir @gpu_matmul_epilogue when the model
// refuses the epilogue (a transposing consumer: uncoalesced writes; or a
// spec whose register cap the fused kernel would exceed). The remark says
// why, the sequence fails before changing anything.
//
// RUN: not hwsched-opt %s --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/gpu-matmul.mlir,%scripts/gpu-matmul-tensorcore.mlir \
// RUN:   --transform-interpreter --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s
// RUN: not hwsched-opt %s --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/gpu-matmul.mlir,%scripts/gpu-matmul-tensorcore.mlir \
// RUN:   --transform-interpreter --mlir-print-ir-after-failure 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=UNCHANGED
//
// CHECK: remark: fusion of 'linalg.transpose' into 'linalg.matmul' on nvidia-a100: reject (not profitable: cost >= 0, dominated by coalescing_penalty)
// CHECK: gpu-matmul.mlir:{{[0-9]+}}:{{[0-9]+}}: error: expected parameter to be equal to 1, got 0
//
// The same script on the matmul + bias + ReLU that test/Scripts/gpu-matmul.mlir
// fuses and maps to the GPU, but with a spec copy whose
// gpu.max_registers_per_thread is 16 (HWSCHED_SPEC_PATH): the fused kernel's
// register floor no longer fits, the model refuses, the payload is unchanged.
// RUN: env HWSCHED_SPEC_PATH=%S/Inputs/small-regs not hwsched-opt %S/Inputs/gpu-matmul-bias-relu.mlir \
// RUN:   --transform-preload-library=transform-library-paths=%S/Inputs/gpu-lib \
// RUN:   --transform-interpreter=entry-point=gpu_mm_64_4_k4 --mlir-print-ir-after-failure \
// RUN:   --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=REGS
// REGS: remark: fusion of 'linalg.generic' into 'linalg.matmul' on nvidia-a100: reject (spills: at least 24 registers per thread > limit 16)
// REGS: error: expected parameter to be equal to 1, got 0
// REGS-LABEL: func.func @matmul_bias_relu(
// REGS-NOT: scf.forall
// REGS-NOT: gpu.launch
// REGS: linalg.matmul {{.*}} -> tensor<512x512xf32>
//
// UNCHANGED-LABEL: func.func @matmul_transpose(
// UNCHANGED:       linalg.fill
// UNCHANGED-NEXT:  linalg.matmul {{.*}} -> tensor<64x64xf32>
// UNCHANGED-NEXT:  linalg.transpose
// UNCHANGED-NOT:   scf.forall
// The dump goes on with the transform module (with the preloaded library).
// UNCHANGED:       transform.named_sequence @__transform_main


func.func @matmul_transpose(%A: tensor<64x64xf32>, %B: tensor<64x64xf32>, %out: tensor<64x64xf32>)
    -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<64x64xf32>, tensor<64x64xf32>)
                      outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %t = linalg.transpose ins(%mm : tensor<64x64xf32>) outs(%out : tensor<64x64xf32>) permutation = [1, 0]
  return %t : tensor<64x64xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence private @gpu_matmul_epilogue(
      !transform.any_op {transform.consumed},
      !transform.param<i64> {transform.readonly},
      !transform.param<i64> {transform.readonly},
      !transform.param<i64> {transform.readonly})

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %block = transform.param.constant 64 : i64 -> !transform.param<i64>
    %thread = transform.param.constant 4 : i64 -> !transform.param<i64>
    %k = transform.param.constant 4 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_epilogue failures(propagate) (%root, %block, %thread, %k)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
}
