// examples/npu-fusion: one AI core's block of two NPU kernels, scheduled by
// transform-scripts/npu.mlir through schedule.mlir (see README.md).
//
// @chain: relu((x + y) * z), an elementwise Add + Mul + ReLU chain.
// @cube: C = A * B (cube) feeding a LayerNorm-style row reduction (sum of
// squares per row) and a ReLU.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

func.func @chain(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>, %z: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %a = linalg.add ins(%x, %y : tensor<64x64xf32>, tensor<64x64xf32>)
                  outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.mul ins(%a, %z : tensor<64x64xf32>, tensor<64x64xf32>)
                  outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %relu = arith.maximumf %v, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

func.func @cube(%A: tensor<32x32xf32>, %B: tensor<32x32xf32>) -> (tensor<32xf32>, tensor<32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %er = tensor.empty() : tensor<32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<32x32xf32>, tensor<32x32xf32>)
                      outs(%init : tensor<32x32xf32>) -> tensor<32x32xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%mm : tensor<32x32xf32>) outs(%acc : tensor<32xf32>) {
  ^bb0(%v: f32, %s: f32):
    %v2 = arith.mulf %v, %v : f32
    %r = arith.addf %s, %v2 : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<32x32xf32>
  return %sq, %relu : tensor<32xf32>, tensor<32x32xf32>
}
