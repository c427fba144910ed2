// transform.hwsched.split_k: upstream linalg::splitReduction with the factor
// from a parameter; the split loop first (partials s x M x N), one factor
// for all payload ops or one per op, factor 1 leaves the op alone.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter | FileCheck %s
// RUN: hwsched-opt %s --split-input-file --transform-interpreter 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// CHECK-LABEL: func.func @matmul(
// CHECK-SAME:    %[[A:[^:]+]]: tensor<64x256xf32>, %[[B:[^:]+]]: tensor<256x32xf32>, %[[C:[^:]+]]: tensor<64x32xf32>
// CHECK-DAG:   %[[A4:.+]] = tensor.expand_shape %[[A]] {{\[}}[0], [1, 2]] output_shape [64, 4, 64]
// CHECK-DAG:   %[[B4:.+]] = tensor.expand_shape %[[B]] {{\[}}[0, 1], [2]] output_shape [4, 64, 32]
// CHECK:       %[[E:.+]] = tensor.empty() : tensor<4x64x32xf32>
// CHECK:       %[[Z:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<4x64x32xf32>)
// CHECK:       %[[P:.+]] = linalg.generic
// CHECK-SAME:    iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:    ins(%[[A4]], %[[B4]] : tensor<64x4x64xf32>, tensor<4x64x32xf32>) outs(%[[Z]] : tensor<4x64x32xf32>)
// CHECK:       %[[R:.+]] = linalg.generic
// CHECK-SAME:    iterator_types = ["reduction", "parallel", "parallel"]
// CHECK-SAME:    ins(%[[P]] : tensor<4x64x32xf32>) outs(%[[C]] : tensor<64x32xf32>)
// CHECK:       return %[[R]]
// REMARK: remark: split_k results: fill, partial, combine 1 : i64, 1 : i64, 1 : i64
func.func @matmul(%a: tensor<64x256xf32>, %b: tensor<256x32xf32>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x256xf32>, tensor<256x32xf32>) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.param.constant 4 : i64 -> !transform.param<i64>
    %f, %p, %c = transform.hwsched.split_k %op by %s : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %nf = transform.num_associations %f : (!transform.any_op) -> !transform.param<i64>
    %np = transform.num_associations %p : (!transform.any_op) -> !transform.param<i64>
    %nc = transform.num_associations %c : (!transform.any_op) -> !transform.param<i64>
    %all = transform.merge_handles %nf, %np, %nc : !transform.param<i64>
    transform.debug.emit_param_as_remark %all, "split_k results: fill, partial, combine" : !transform.param<i64>
    transform.yield
  }
}

// -----

// One factor per payload op: the first matmul split by 2, the second left
// alone (factor 1: returned as the partial, no fill or combine).
// CHECK-LABEL: func.func @two(
// CHECK:       tensor.empty() : tensor<2x16x16xf32>
// CHECK:       linalg.generic
// CHECK-SAME:    outs(%{{.+}} : tensor<2x16x16xf32>)
// CHECK:       linalg.generic
// CHECK-SAME:    iterator_types = ["reduction", "parallel", "parallel"]
// CHECK:       linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<16x32xf32>, tensor<32x16xf32>)
// CHECK-NOT:   linalg.generic
// CHECK:       return
// REMARK: remark: partials: 2 : i64
func.func @two(%a: tensor<16x32xf32>, %b: tensor<32x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  %r2 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x16xf32>) outs(%r : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r2 : tensor<16x16xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %s2 = transform.param.constant 2 : i64 -> !transform.param<i64>
    %s1 = transform.param.constant 1 : i64 -> !transform.param<i64>
    %s = transform.merge_handles %s2, %s1 : !transform.param<i64>
    %f, %p, %c = transform.hwsched.split_k %op by %s : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %np = transform.num_associations %p : (!transform.any_op) -> !transform.param<i64>
    transform.debug.emit_param_as_remark %np, "partials:" : !transform.param<i64>
    transform.yield
  }
}

// -----

// A max-reduction (neutral element -inf) splits too: not only matmuls.
// CHECK-LABEL: func.func @rowmax(
// CHECK:       linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<8x32xf32>)
// CHECK:       arith.maximumf
// CHECK:       linalg.generic
// CHECK-SAME:    iterator_types = ["reduction", "parallel"]
#in = affine_map<(i, k) -> (i, k)>
#out = affine_map<(i, k) -> (i)>
func.func @rowmax(%a: tensor<32x1024xf32>, %init: tensor<32xf32>) -> tensor<32xf32> {
  %r = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<32x1024xf32>) outs(%init : tensor<32xf32>) {
  ^bb0(%x: f32, %m: f32):
    %y = arith.maximumf %x, %m : f32
    linalg.yield %y : f32
  } -> tensor<32xf32>
  return %r : tensor<32xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.param.constant 8 : i64 -> !transform.param<i64>
    %f, %p, %c = transform.hwsched.split_k %op by %s : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
