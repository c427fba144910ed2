// The extents exec-check.py gives dynamic argument dimensions
// (utils/hwsched_tools/dynamic_extents.py): solved from the Linalg ops that
// read the arguments, so that a convolution's input fits its output, window,
// stride and dilation; one extent (24) where nothing constrains a loop.
// "-" marks a static dimension.
//
// RUN: mlir-opt %s --linalg-generalize-named-ops \
// RUN: | env PYTHONPATH=%utils %python -m hwsched_tools.dynamic_extents | FileCheck %s

// Stride 2, 3x3 window: 24 output rows read (24 - 1) * 2 + 3 = 49 input rows.
// CHECK-DAG: @conv_stride2 arg 0: 24x49x49x-
// CHECK-DAG: @conv_stride2 arg 2: 24x24x24x-
func.func @conv_stride2(%in: tensor<?x?x?x16xf32>, %f: tensor<3x3x16x32xf32>, %out: tensor<?x?x?x32xf32>) -> tensor<?x?x?x32xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %f : tensor<?x?x?x16xf32>, tensor<3x3x16x32xf32>) outs(%out : tensor<?x?x?x32xf32>) -> tensor<?x?x?x32xf32>
  return %r : tensor<?x?x?x32xf32>
}

// Dilation 2 in NCHW: 24 outputs read 23 + 2 * (3 - 1) + 1 = 28 inputs.
// CHECK-DAG: @conv_nchw_dilated arg 0: 24x-x28x28
// CHECK-DAG: @conv_nchw_dilated arg 2: 24x-x24x24
func.func @conv_nchw_dilated(%in: tensor<?x8x?x?xf32>, %f: tensor<16x8x3x3xf32>, %out: tensor<?x16x?x?xf32>) -> tensor<?x16x?x?xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<?x8x?x?xf32>, tensor<16x8x3x3xf32>) outs(%out : tensor<?x16x?x?xf32>) -> tensor<?x16x?x?xf32>
  return %r : tensor<?x16x?x?xf32>
}

// A static 14 x 16 image with a dynamic filter and output: the output loop
// takes at most half of the window's span (7 = 13 / 2 + 1), the filter the
// rest (14 = 7 + 8 - 1, 16 = 8 + 9 - 1).
// CHECK-DAG: @conv_dyn_filter arg 1: 8x9x-x-
// CHECK-DAG: @conv_dyn_filter arg 2: -x7x8x-
func.func @conv_dyn_filter(%img: tensor<1x14x16x4xf32>, %flt: tensor<?x?x4x8xf32>, %out: tensor<1x?x?x8xf32>) -> tensor<1x?x?x8xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%img, %flt : tensor<1x14x16x4xf32>, tensor<?x?x4x8xf32>) outs(%out : tensor<1x?x?x8xf32>) -> tensor<1x?x?x8xf32>
  return %r : tensor<1x?x?x8xf32>
}

// Every dimension dynamic (IREE's @conv2d_all_dyn): the window loops, which
// nothing fixes, get a filter-sized default (3), the others 24.
// CHECK-DAG: @conv_all_dyn arg 0: 24x26x26x24
// CHECK-DAG: @conv_all_dyn arg 1: 3x3x24x24
// CHECK-DAG: @conv_all_dyn arg 2: 24x24x24x24
func.func @conv_all_dyn(%in: tensor<?x?x?x?xf32>, %f: tensor<?x?x?x?xf32>, %out: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) outs(%out : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

// A matmul with a dynamic M and K: the default; the static N stays.
// CHECK-DAG: @matmul_dyn arg 0: 24x24
// CHECK-DAG: @matmul_dyn arg 1: 24x-
// CHECK-DAG: @matmul_dyn arg 2: 24x-
func.func @matmul_dyn(%a: tensor<?x?xf32>, %b: tensor<?x40xf32>, %c: tensor<?x40xf32>) -> tensor<?x40xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x40xf32>) outs(%c : tensor<?x40xf32>) -> tensor<?x40xf32>
  return %r : tensor<?x40xf32>
}

// An extent chosen for one op fixes the loops of the next: the pooling's
// 2x2 window on a 10-row static input gives 9 rows, which the add reads.
// CHECK-DAG: @pool_then_add arg 1: 9x9
// CHECK-DAG: @pool_then_add arg 2: 9x9
func.func @pool_then_add(%in: tensor<10x10xf32>, %acc: tensor<?x?xf32>, %other: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %w = tensor.empty() : tensor<2x2xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0 + d2, d1 + d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%in, %w : tensor<10x10xf32>, tensor<2x2xf32>) outs(%acc : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.maximumf %x, %o : f32
    linalg.yield %m : f32
  } -> tensor<?x?xf32>
  %s = linalg.add ins(%p, %other : tensor<?x?xf32>, tensor<?x?xf32>) outs(%p : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}
