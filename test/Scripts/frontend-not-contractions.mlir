// Convolution-shaped ops that are not multiply-accumulates get a remark that
// says so (and what would make them schedulable), not a missing-route one; a
// multiply-accumulate convolution no route takes gets one that names both
// routes and what they need. All are left as they are. Through @hwsched_cpu_matmul_main, whose
// @hwsched_prepare_contractions (transform-scripts/matmul-frontend.mlir)
// reports every matmul-class op no route takes; a reduction whose body
// multiplies but that is neither a contraction nor a convolution gets its
// own remark, one that does not multiply gets none. A batch of
// matrix-vector products, which no matmul schedule takes, gets a remark that
// says so; a depthwise convolution gets the depthwise schedule.
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
// REM: remark: hwsched: not scheduled: a reduction whose body multiplies, but neither a contraction of two operands (C += A * B: each reduction loop indexes both A and B, no third input) nor a convolution, so no matmul schedule applies; fold a zero point or scale
// REM-NEXT: linalg.generic
// REM: remark: hwsched: not scheduled: a reduction whose body multiplies, but neither a contraction
// REM-NEXT: linalg.generic
// REM: remark: hwsched: not scheduled: each batch element of this op is a matrix-vector product (M or N of extent 1: a depthwise convolution reads one filter channel per output channel
// REM-NEXT: linalg.batch_matmul
// REM-NOT: no im2col route
// REM-NOT: remark: hwsched: not scheduled
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

// A depthwise convolution with a dynamic batch: the CPU entry's depthwise
// schedule takes it (chunked batch, channels as vector lanes).
// CHECK-LABEL: func.func @depthwise_dynamic(
// CHECK:         vector.fma
// CHECK:         } {hwsched.chunk_loop = 256 : i64}
func.func @depthwise_dynamic(%input: tensor<?x18x18x16xf32>, %filter: tensor<3x3x16xf32>, %output: tensor<?x16x16x16xf32>) -> tensor<?x16x16x16xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%input, %filter : tensor<?x18x18x16xf32>, tensor<3x3x16xf32>) outs(%output : tensor<?x16x16x16xf32>) -> tensor<?x16x16x16xf32>
  return %r : tensor<?x16x16x16xf32>
}

// A batch of matrix-vector products (a batch_matmul with one column, as an
// attention decode step writes it): each batch element is left in its batch
// loop with a remark.
// CHECK-LABEL: func.func @batch_matvec(
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
func.func @batch_matvec(%a: tensor<4x16x32xf32>, %b: tensor<4x32x1xf32>, %c: tensor<4x16x1xf32>) -> tensor<4x16x1xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<4x16x32xf32>, tensor<4x32x1xf32>) outs(%c : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  return %r : tensor<4x16x1xf32>
}

// A convolution-like generic with a zero point as a third (scalar) input,
// as IREE's ROCDL config_igemm_tile_and_fuse.mlir
// @conv_integer_like_extra_scalar_input writes it: neither a contraction
// nor a convolution to the upstream classifiers, left with the remark.
// CHECK-LABEL: func.func @conv_zero_point_input(
// CHECK: linalg.generic
// CHECK: arith.subi
#zp_img = affine_map<(d0, d1, d2, d3) -> (d0 + d2, d1 + d3)>
#zp_flt = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#zp_scl = affine_map<(d0, d1, d2, d3) -> ()>
#zp_out = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @conv_zero_point_input(%img: tensor<9x9xi8>, %flt: tensor<3x3xi8>, %zp: i32, %acc: tensor<7x7xi32>) -> tensor<7x7xi32> {
  %0 = linalg.generic {indexing_maps = [#zp_img, #zp_flt, #zp_scl, #zp_out], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%img, %flt, %zp : tensor<9x9xi8>, tensor<3x3xi8>, i32) outs(%acc : tensor<7x7xi32>) {
  ^bb0(%x: i8, %w: i8, %z: i32, %o: i32):
    %xi = arith.extui %x : i8 to i32
    %xs = arith.subi %xi, %z : i32
    %wi = arith.extui %w : i8 to i32
    %p = arith.muli %xs, %wi : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  } -> tensor<7x7xi32>
  return %0 : tensor<7x7xi32>
}

// A sum of squared differences (a variance, as in IREE's
// DispatchCreation/test/sink_reshapes.mlir @reduce_broadcast): it
// multiplies, but one value by itself; left with the same remark.
// CHECK-LABEL: func.func @sum_of_squares(
// CHECK: linalg.generic
// CHECK: arith.mulf
func.func @sum_of_squares(%x: tensor<4x64xf32>, %mean: tensor<4xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %mean : tensor<4x64xf32>, tensor<4xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %q = arith.mulf %d, %d : f32
    %s = arith.addf %o, %q : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// No remark for a reduction that does not multiply (a row sum) or for an
// elementwise op with three inputs (a select): they are not matmul-class.
// CHECK-LABEL: func.func @not_matmul_class(
// CHECK: linalg.generic
// CHECK: linalg.generic
func.func @not_matmul_class(%x: tensor<4x64xf32>, %acc: tensor<4xf32>, %c: tensor<4xi1>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x64xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%c, %0, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%p: i1, %u: f32, %v: f32, %o: f32):
    %m = arith.mulf %u, %v : f32
    %r = arith.select %p, %m, %v : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
