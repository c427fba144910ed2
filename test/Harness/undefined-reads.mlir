// Ops that read an uninitialized tensor (utils/hwsched_tools/
// undefined_reads.py), on which utils/exec-check.py reports differing
// outputs as an invalid instance rather than a miscompile: a reduction or a
// generic reading %out with a tensor.empty init. A fill or an elementwise
// op writing into a tensor.empty, and a reduction into a filled tensor, are
// not reads.
//
// RUN: mlir-opt %s --linalg-generalize-named-ops \
// RUN: | env PYTHONPATH=%utils %python -m hwsched_tools.undefined_reads | FileCheck %s

// CHECK: @matmul_into_empty: %{{.+}} (tensor.empty) is the init of a linalg.generic whose body reads it
// CHECK-NEXT: @generic_reads_out: %{{.+}} (tensor.empty) is the init of a linalg.generic whose body reads it
// CHECK-NOT: @
func.func @matmul_into_empty(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
func.func @matmul_into_fill(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
func.func @elementwise_into_empty(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @generic_reads_out(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %o : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
