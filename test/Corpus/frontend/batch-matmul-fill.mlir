// StableHLO dot_general with a batch dim (attention scores) lowered to
// linalg.batch_matmul with fill. f32, batch 4, M 64, N 48, K 32.
func.func @bmm(%A: tensor<4x64x32xf32>, %B: tensor<4x32x48xf32>) -> tensor<4x64x48xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<4x64x48xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x64x48xf32>) -> tensor<4x64x48xf32>
  %2 = linalg.batch_matmul ins(%A, %B : tensor<4x64x32xf32>, tensor<4x32x48xf32>) outs(%1 : tensor<4x64x48xf32>) -> tensor<4x64x48xf32>
  return %2 : tensor<4x64x48xf32>
}
