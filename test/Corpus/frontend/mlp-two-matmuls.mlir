// torch-mlir, a two-layer MLP: two matmuls in one function with a ReLU
// between them, every init a tensor.empty created right before its op.
// f32, 64 x 32 -> 64 x 96 -> 64 x 48.
func.func @forward(%x: tensor<64x32xf32>, %w1: tensor<32x96xf32>, %w2: tensor<96x48xf32>) -> tensor<64x48xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<64x96xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<64x96xf32>) -> tensor<64x96xf32>
  %2 = linalg.matmul ins(%x, %w1 : tensor<64x32xf32>, tensor<32x96xf32>) outs(%1 : tensor<64x96xf32>) -> tensor<64x96xf32>
  %3 = tensor.empty() : tensor<64x96xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<64x96xf32>) outs(%3 : tensor<64x96xf32>) {
  ^bb0(%in: f32, %out: f32):
    %9 = arith.maximumf %in, %cst : f32
    linalg.yield %9 : f32
  } -> tensor<64x96xf32>
  %5 = tensor.empty() : tensor<64x48xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<64x48xf32>) -> tensor<64x48xf32>
  %7 = linalg.matmul ins(%4, %w2 : tensor<64x96xf32>, tensor<96x48xf32>) outs(%6 : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %7 : tensor<64x48xf32>
}
