// transform.hwsched.split_accumulation: a C += A x B that the tensor-core
// kernel would take with a filled init becomes a product into a zero-filled
// tensor (the same matmul op, its init changed) and a linalg.add of C after
// it; matmuls the kernel would not take, and filled ones, are left as they
// are. Then match_mma_sync_matmuls takes the product.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @acc(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<512x256xf16>, %[[B:[a-z0-9]+]]: tensor<256x512xf16>, %[[C:[a-z0-9]+]]: tensor<512x512xf32>
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<512x512xf32>
// CHECK:         %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<512x512xf32>)
// CHECK:         %[[P:.*]] = linalg.matmul ins(%[[A]], %[[B]] : {{.*}}) outs(%[[Z]] : tensor<512x512xf32>)
// CHECK:         %[[S:.*]] = linalg.add ins(%[[P]], %[[C]] : {{.*}}) outs(%[[C]] : tensor<512x512xf32>)
// f32 inputs without allow_tf32: not taken, not split.
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<512x256xf32>, tensor<256x512xf32>) outs(%[[C]] : tensor<512x512xf32>)
// CHECK:         return %[[S]],
func.func @acc(%a: tensor<512x256xf16>, %b: tensor<256x512xf16>, %c: tensor<512x512xf32>,
               %a32: tensor<512x256xf32>, %b32: tensor<256x512xf32>)
    -> (tensor<512x512xf32>, tensor<512x512xf32>) {
  // expected-remark @below {{C += A x B split into a product into a zero-filled tensor and an addition of C after it, so that the tensor-core kernel takes the product (tile 64x64x64, warp 32x32 of mma.sync m16n8k16}}
  // expected-remark @below {{taken by the tensor-core kernel (mma.sync)}}
  %r = linalg.matmul ins(%a, %b : tensor<512x256xf16>, tensor<256x512xf16>)
                     outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  // expected-remark @below {{not taken by the tensor-core kernel (mma.sync): mma_sync: input #0 is f32}}
  %r32 = linalg.matmul ins(%a32, %b32 : tensor<512x256xf32>, tensor<256x512xf32>)
                       outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %r, %r32 : tensor<512x512xf32>, tensor<512x512xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mms = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %adds = transform.hwsched.split_accumulation %mms { target = "nvidia-a100", explain }
        : (!transform.any_op) -> !transform.any_op
    // The handle to the matmuls is still valid: the routing takes the
    // product.
    %taken, %others = transform.hwsched.match_mma_sync_matmuls %mms { target = "nvidia-a100", explain }
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %n = transform.num_associations %adds : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{1}}
    transform.debug.emit_param_as_remark %n : !transform.param<i64>
    transform.yield
  }
}

// -----

// On a CPU target nothing is split and nothing is said.
// CHECK-LABEL: func.func @cpu(
// CHECK-NOT:     linalg.add
func.func @cpu(%a: tensor<512x256xf16>, %b: tensor<256x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<512x256xf16>, tensor<256x512xf16>)
                     outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mms = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %adds = transform.hwsched.split_accumulation %mms { target = "x86-avx512", explain }
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// An unknown target fails before anything changes.
func.func @bad(%a: tensor<512x256xf16>, %b: tensor<256x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<512x256xf16>, tensor<256x512xf16>)
                     outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mms = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{no-such-gpu}}
    %adds = transform.hwsched.split_accumulation %mms { target = "no-such-gpu" }
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
