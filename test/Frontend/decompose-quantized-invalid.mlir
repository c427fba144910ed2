// Bad input for transform.hwsched.decompose_quantized: a silenceable failure
// naming the op and what would make it work; nothing is rewritten (every
// payload op is checked before any is changed).
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics --mlir-print-ir-after-failure 2>&1 >/dev/null | FileCheck %s

// A plain op among quantized ones: the quantized one is not rewritten either.
// CHECK-LABEL: func.func @not_quantized(
// CHECK:       linalg.quantized_matmul
// CHECK:       linalg.matmul
func.func @not_quantized(%a: tensor<8x8xi8>, %b: tensor<8x8xi8>, %c: tensor<8x8xi32>, %z: i32) -> (tensor<8x8xi32>, tensor<8x8xi32>) {
  %q = linalg.quantized_matmul ins(%a, %b, %z, %z : tensor<8x8xi8>, tensor<8x8xi8>, i32, i32) outs(%c : tensor<8x8xi32>) -> tensor<8x8xi32>
  // expected-note @below {{payload op}}
  %p = linalg.matmul ins(%a, %b : tensor<8x8xi8>, tensor<8x8xi8>) outs(%c : tensor<8x8xi32>) -> tensor<8x8xi32>
  return %q, %p : tensor<8x8xi32>, tensor<8x8xi32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %q = transform.structured.match ops{["linalg.quantized_matmul", "linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot take the plain form of the op: 'linalg.matmul' is not a quantized Linalg op (linalg.quantized_matmul, linalg.quantized_batch_matmul, linalg.conv_*_q, linalg.depthwise_conv_*_q)}}
    %p = transform.hwsched.decompose_quantized %q : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Buffers: the subtraction would need a new buffer.
// CHECK-LABEL: func.func @on_memrefs(
// CHECK:       linalg.quantized_matmul
func.func @on_memrefs(%a: memref<8x8xi8>, %b: memref<8x8xi8>, %c: memref<8x8xi32>, %z: i32) {
  // expected-note @below {{payload op}}
  linalg.quantized_matmul ins(%a, %b, %z, %z : memref<8x8xi8>, memref<8x8xi8>, i32, i32) outs(%c : memref<8x8xi32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %q = transform.structured.match ops{["linalg.quantized_matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot take the plain form of the op: the op works on buffers (memref operands): subtracting a zero point needs a new tensor; write the op on tensors (before bufferization)}}
    %p = transform.hwsched.decompose_quantized %q : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Float operands: a quantized op on floats is not an integer quantization.
// CHECK-LABEL: func.func @float_operands(
// CHECK:       linalg.quantized_matmul
func.func @float_operands(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>, %z: f32) -> tensor<8x8xf32> {
  // expected-note @below {{payload op}}
  %q = linalg.quantized_matmul ins(%a, %b, %z, %z : tensor<8x8xf32>, tensor<8x8xf32>, f32, f32) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %q : tensor<8x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %q = transform.structured.match ops{["linalg.quantized_matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot take the plain form of the op: the result's element type is not an integer}}
    %p = transform.hwsched.decompose_quantized %q : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
