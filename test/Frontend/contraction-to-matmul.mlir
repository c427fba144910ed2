// transform.hwsched.contraction_to_matmul: any contraction or convolution as
// one contraction with loops (m, n, k) or (batch, m, n, k); explain prints
// the plan. Semantics are execution-checked in
// integration_test/Frontend/contraction-to-matmul-exec.test.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics | FileCheck %s

// A batchless 3x3 convolution written as a linalg.generic (IREE's tests):
// the image copied as patches (im2col), the filter collapsed as it is.
// CHECK-LABEL: func.func @batchless_conv(
// CHECK:       %[[E:.+]] = tensor.empty() : tensor<14x14x3x3x8xf32>
// CHECK:       %[[P:.+]] = linalg.generic {{.*}} ins(%{{.+}} : tensor<16x16x8xf32>) outs(%[[E]] : tensor<14x14x3x3x8xf32>)
// CHECK:       %[[A:.+]] = tensor.collapse_shape %[[P]] {{\[}}[0, 1], [2, 3, 4]] : tensor<14x14x3x3x8xf32> into tensor<196x72xf32>
// CHECK:       %[[B:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1, 2], [3]] : tensor<3x3x8x16xf32> into tensor<72x16xf32>
// CHECK:       %[[C:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1], [2]] : tensor<14x14x16xf32> into tensor<196x16xf32>
// CHECK:       %[[MM:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} ins(%[[A]], %[[B]] : tensor<196x72xf32>, tensor<72x16xf32>) outs(%[[C]] : tensor<196x16xf32>)
// CHECK:         arith.mulf
// CHECK:         arith.addf
// CHECK:       %[[R:.+]] = tensor.expand_shape %[[MM]] {{\[}}[0, 1], [2]] output_shape [14, 14, 16] : tensor<196x16xf32> into tensor<14x14x16xf32>
// CHECK:       return %[[R]]
#mapI = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0 + d3, d1 + d4, d5)>
#mapF = affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4, d5, d2)>
#mapO = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>
func.func @batchless_conv(%img: tensor<16x16x8xf32>, %flt: tensor<3x3x8x16xf32>, %acc: tensor<14x14x16xf32>) -> tensor<14x14x16xf32> {
  // expected-remark @below {{contraction_to_matmul: 6 loops -> batch [], M [d0, d1], N [d2], K [d3, d4, d5]; A copied (im2col gather), B as it is, C as it is: a contraction 196 x 16 x 72}}
  %r = linalg.generic {indexing_maps = [#mapI, #mapF, #mapO], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%img, %flt : tensor<16x16x8xf32>, tensor<3x3x8x16xf32>) outs(%acc : tensor<14x14x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<14x14x16xf32>
  return %r : tensor<14x14x16xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %mm = transform.hwsched.contraction_to_matmul %op {explain} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A depthwise convolution: the channels are a batch, there is no N (a unit
// one), and C is copied to (channel, image) order and back.
// CHECK-LABEL: func.func @depthwise(
// CHECK:       tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2]] output_shape [8, 9, 1] : tensor<8x9xf32> into tensor<8x9x1xf32>
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]{{.*}} ins(%{{.+}}, %{{.+}} : tensor<8x64x9xf32>, tensor<8x9x1xf32>) outs(%{{.+}} : tensor<8x64x1xf32>)
// CHECK:       tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2]] : tensor<8x64x1xf32> into tensor<8x64xf32>
// CHECK:       tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2, 3]] output_shape [8, 1, 8, 8] : tensor<8x64xf32> into tensor<8x1x8x8xf32>
// CHECK:       %[[BACK:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<1x8x8x8xf32>)
// CHECK:       return %[[BACK]]
func.func @depthwise(%img: tensor<1x10x10x8xf32>, %flt: tensor<3x3x8xf32>, %acc: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  // expected-remark @below {{contraction_to_matmul: 6 loops -> batch [d3], M [d0, d1, d2], N [], K [d4, d5]; A copied (im2col gather), B copied, C copied: a batch-8 contraction 64 x 1 x 9}}
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%img, %flt : tensor<1x10x10x8xf32>, tensor<3x3x8xf32>) outs(%acc : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.depthwise_conv_2d_nhwc_hwc"]} in %root : (!transform.any_op) -> !transform.any_op
    %mm = transform.hwsched.contraction_to_matmul %op {explain} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// linalg.mmt4d: two M, two N and two K loops, each group collapsed (A, B
// and C copied to grouped layouts).
// CHECK-LABEL: func.func @mmt4d(
// CHECK:       linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<32x10xf32>, tensor<10x12xf32>) outs(%{{.+}} : tensor<32x12xf32>)
// CHECK:       tensor.expand_shape %{{.+}} {{\[}}[0, 1], [2, 3]] output_shape [4, 8, 3, 4] : tensor<32x12xf32> into tensor<4x8x3x4xf32>
func.func @mmt4d(%a: tensor<4x5x8x2xf32>, %b: tensor<3x5x4x2xf32>, %c: tensor<4x3x8x4xf32>) -> tensor<4x3x8x4xf32> {
  // expected-remark @below {{contraction_to_matmul: 6 loops -> batch [], M [d0, d3], N [d1, d4], K [d2, d5]; A copied, B copied, C copied: a contraction 32 x 12 x 10}}
  %r = linalg.mmt4d ins(%a, %b : tensor<4x5x8x2xf32>, tensor<3x5x4x2xf32>) outs(%c : tensor<4x3x8x4xf32>) -> tensor<4x3x8x4xf32>
  return %r : tensor<4x3x8x4xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.mmt4d"]} in %root : (!transform.any_op) -> !transform.any_op
    %mm = transform.hwsched.contraction_to_matmul %op {explain} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
