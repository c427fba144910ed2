// transform.cost_model.select_tile_config measurement mode (measure_top_k):
// the model's top k candidates are compiled and run on the host CPU, the
// remark lists each with its measured time, and the params are the fastest
// one's lists. Timing values are not asserted (they depend on the machine);
// Inputs/check-measure.py checks the structure: k measured candidates, the
// kept one is the fastest listed, and the params equal its lists.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter -o /dev/null 2>&1 \
// RUN:   | %python %test_src/TileConfig/Inputs/check-measure.py --k 3
// The payload is not changed by measuring.
// RUN: hwsched-opt %s --split-input-file --transform-interpreter | FileCheck %s

// CHECK-LABEL: func.func @matmul_64
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<64x128xf32>, tensor<128x64xf32>) outs(%{{.*}} : tensor<64x64xf32>)
func.func @matmul_64(%a: tensor<64x128xf32>, %b: tensor<128x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", measure_top_k = 3, measure_samples = 3 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.debug.emit_param_as_remark %t#0, "picked tile_sizes" : !transform.param<i64>
    transform.debug.emit_param_as_remark %t#2, "picked reduction_tile_sizes" : !transform.param<i64>
    transform.debug.emit_param_as_remark %t#1, "picked thread_tile_sizes" : !transform.param<i64>
    transform.yield
  }
}

// -----

// A convolution-like generic (1x1 convolution over NHWC written as a
// 5-loop contraction): the standalone copy keeps the generic's body.
// CHECK-LABEL: func.func @conv1x1
// CHECK: linalg.generic
func.func @conv1x1(%img: tensor<1x8x16x32xf32>, %w: tensor<32x64xf32>, %out: tensor<1x8x16x64xf32>) -> tensor<1x8x16x64xf32> {
  %r = linalg.generic {indexing_maps = [
      affine_map<(n, h, w, f, c) -> (n, h, w, c)>,
      affine_map<(n, h, w, f, c) -> (c, f)>,
      affine_map<(n, h, w, f, c) -> (n, h, w, f)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%img, %w : tensor<1x8x16x32xf32>, tensor<32x64xf32>) outs(%out : tensor<1x8x16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x8x16x64xf32>
  return %r : tensor<1x8x16x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", measure_top_k = 3, measure_samples = 3 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.debug.emit_param_as_remark %t#0, "picked tile_sizes" : !transform.param<i64>
    transform.debug.emit_param_as_remark %t#2, "picked reduction_tile_sizes" : !transform.param<i64>
    transform.debug.emit_param_as_remark %t#1, "picked thread_tile_sizes" : !transform.param<i64>
    transform.yield
  }
}
