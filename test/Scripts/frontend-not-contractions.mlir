// Convolution-shaped ops that are not multiply-accumulates get a remark that
// says so (and what would make them schedulable), not a missing-route one; a
// multiply-accumulate convolution no route takes gets one that names both
// routes and what they need. All are left as they are. Through @hwsched_cpu_matmul_main, whose
// @hwsched_prepare_contractions (transform-scripts/matmul-frontend.mlir)
// reports every matmul-class op no route takes.
//
// RUN: hwsched-opt %s --hwsched-target=x86-avx512 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_cpu_matmul_main \
// RUN:   --mlir-print-op-on-diagnostic=false -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REM
// RUN: FileCheck %s < %t.mlir

// REM: remark: hwsched: not scheduled: this convolution-shaped op is not a plain multiply-accumulate, so it is not a contraction and no matmul schedule applies: a pooling (sum, max or min over windows) needs a reduction schedule
// REM-NEXT: linalg.generic
// REM: remark: hwsched: not scheduled: this convolution-shaped op is not a plain multiply-accumulate
// REM-NEXT: linalg.pooling_nhwc_max
// REM: remark: hwsched: not scheduled: no route to a matmul for this convolution: it is a multiply-accumulate, but neither the im2col route of the named 2-D convolutions nor transform.hwsched.contraction_to_matmul took it (that op needs tensors with static extents
// REM-NEXT: linalg.depthwise_conv_2d_nhwc_hwc
// REM: remark: hwsched: not scheduled: no route to a matmul for this convolution: it is a multiply-accumulate
// REM-NEXT: linalg.depthwise_conv_2d_nhwc_hwc
// REM-NOT: no im2col route
// REM-NOT: error

// A sum pooling written as a generic (as IREE's batchless pooling tests do).
// CHECK-LABEL: func.func @sum_pool(
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK: arith.addf
func.func @sum_pool(%input: tensor<18x18x16xf32>, %filter: tensor<3x3xf32>, %output: tensor<16x16x16xf32>) -> tensor<16x16x16xf32> {
  %r = linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0 + d3, d1 + d4, d2)>,
                       affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>,
                       affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%input, %filter : tensor<18x18x16xf32>, tensor<3x3xf32>) outs(%output : tensor<16x16x16xf32>) {
  ^bb0(%in: f32, %f: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<16x16x16xf32>
  return %r : tensor<16x16x16xf32>
}

// A named max pooling.
// CHECK-LABEL: func.func @max_pool(
// CHECK: linalg.pooling_nhwc_max
func.func @max_pool(%input: tensor<1x18x18x16xf32>, %window: tensor<3x3xf32>, %output: tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32> {
  %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%input, %window : tensor<1x18x18x16xf32>, tensor<3x3xf32>) outs(%output : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  return %r : tensor<1x16x16x16xf32>
}

// A depthwise convolution with a dynamic batch.
// CHECK-LABEL: func.func @depthwise_dynamic(
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
func.func @depthwise_dynamic(%input: tensor<?x18x18x16xf32>, %filter: tensor<3x3x16xf32>, %output: tensor<?x16x16x16xf32>) -> tensor<?x16x16x16xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%input, %filter : tensor<?x18x18x16xf32>, tensor<3x3x16xf32>) outs(%output : tensor<?x16x16x16xf32>) -> tensor<?x16x16x16xf32>
  return %r : tensor<?x16x16x16xf32>
}

// The same on integers (an integer multiply-accumulate body).
// CHECK-LABEL: func.func @depthwise_dynamic_i32(
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
func.func @depthwise_dynamic_i32(%input: tensor<?x18x18x16xi32>, %filter: tensor<3x3x16xi32>, %output: tensor<?x16x16x16xi32>) -> tensor<?x16x16x16xi32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%input, %filter : tensor<?x18x18x16xi32>, tensor<3x3x16xi32>) outs(%output : tensor<?x16x16x16xi32>) -> tensor<?x16x16x16xi32>
  return %r : tensor<?x16x16x16xi32>
}
