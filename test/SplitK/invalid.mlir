// Bad input for transform.hwsched.split_k: a silenceable failure naming the
// reason and the payload op; nothing is rewritten (every payload op is
// checked before any is split).
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics --mlir-print-ir-after-failure 2>&1 >/dev/null | FileCheck %s

// CHECK-LABEL: func.func @not_divisible(
// CHECK:       linalg.matmul
// CHECK-NOT:   tensor.expand_shape
func.func @not_divisible(%a: tensor<16x100xf32>, %b: tensor<100x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  // expected-note @below {{payload op}}
  %r = linalg.matmul ins(%a, %b : tensor<16x100xf32>, tensor<100x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.param.constant 8 : i64 -> !transform.param<i64>
    // expected-error @below {{cannot split the reduction by 8: the reduction extent 100 is not a multiple of the split factor 8}}
    %f, %p, %c = transform.hwsched.split_k %op by %s : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The second op fails its check: the first, which could be split, is left
// alone too.
// CHECK-LABEL: func.func @second_bad(
// CHECK-NOT:   tensor.expand_shape
// CHECK:       linalg.matmul
// CHECK:       linalg.conv_2d_nhwc_hwcf
func.func @second_bad(%a: tensor<16x64xf32>, %b: tensor<64x16xf32>, %c: tensor<16x16xf32>,
                      %img: tensor<1x10x10x4xf32>, %flt: tensor<3x3x4x8xf32>, %o: tensor<1x8x8x8xf32>) -> (tensor<16x16xf32>, tensor<1x8x8x8xf32>) {
  %r = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  // expected-note @below {{payload op}}
  %q = linalg.conv_2d_nhwc_hwcf ins(%img, %flt : tensor<1x10x10x4xf32>, tensor<3x3x4x8xf32>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r, %q : tensor<16x16xf32>, tensor<1x8x8x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.param.constant 2 : i64 -> !transform.param<i64>
    // expected-error @below {{cannot split the reduction by 2: the op has 3 reduction loops (split_k splits exactly one)}}
    %f, %p, %c = transform.hwsched.split_k %op by %s : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @zero(%a: tensor<16x64xf32>, %b: tensor<64x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.param.constant 0 : i64 -> !transform.param<i64>
    // expected-error @below {{split factor 0 is below 1}}
    %f, %p, %c = transform.hwsched.split_k %op by %s : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @count(%a: tensor<16x64xf32>, %b: tensor<64x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %s2 = transform.param.constant 2 : i64 -> !transform.param<i64>
    %s = transform.merge_handles %s2, %s2, %s2 : !transform.param<i64>
    // expected-error @below {{split_k holds 3 values for 1 payload ops (expected one, or one per payload op)}}
    %f, %p, %c = transform.hwsched.split_k %op by %s : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @buffers(%a: memref<16x64xf32>, %b: memref<64x16xf32>, %c: memref<16x16xf32>) {
  // expected-note @below {{payload op}}
  linalg.matmul ins(%a, %b : memref<16x64xf32>, memref<64x16xf32>) outs(%c : memref<16x16xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.param.constant 2 : i64 -> !transform.param<i64>
    // expected-error @below {{cannot split the reduction by 2: the op is not on tensors}}
    %f, %p, %c = transform.hwsched.split_k %op by %s : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @not_linalg(%x: f32, %y: f32) -> f32 {
  // expected-note @below {{payload op}}
  %s = arith.addf %x, %y : f32
  return %s : f32
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["arith.addf"]} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.param.constant 2 : i64 -> !transform.param<i64>
    // expected-error @below {{cannot split the reduction by 2: 'arith.addf' is not a Linalg op}}
    %f, %p, %c = transform.hwsched.split_k %op by %s : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A reduction whose combiner has no neutral element arith knows (a
// subtraction) cannot be split.
#in = affine_map<(i, k) -> (i, k)>
#out = affine_map<(i, k) -> (i)>
func.func @no_neutral(%a: tensor<8x64xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  // expected-note @below {{payload op}}
  %r = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<8x64xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%x: f32, %m: f32):
    %y = arith.subf %m, %x : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.param.constant 2 : i64 -> !transform.param<i64>
    // expected-error @below {{cannot split the reduction by 2:}}
    %f, %p, %c = transform.hwsched.split_k %op by %s : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A dynamic parallel extent: upstream splitReduction would build the
// partials' tensor.empty without its dynamic size (invalid IR).
func.func @dynamic_m(%a: tensor<?x64xf32>, %b: tensor<64x64xf32>, %c: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-note @below {{payload op}}
  %r = linalg.matmul ins(%a, %b : tensor<?x64xf32>, tensor<64x64xf32>) outs(%c : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.param.constant 2 : i64 -> !transform.param<i64>
    // expected-error @below {{cannot split the reduction by 2: an operand has a dynamic shape}}
    %f, %p, %c = transform.hwsched.split_k %op by %s : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
