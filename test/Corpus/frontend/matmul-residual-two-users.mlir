// A residual block: the matmul result feeds a residual add and is also
// returned (two users), the add's init a tensor.empty created after the
// matmul. f32, M 64, N 64, K 64.
func.func @residual(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<64x64xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %2 = linalg.matmul ins(%x, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %3 = tensor.empty() : tensor<64x64xf32>
  %4 = linalg.add ins(%2, %x : tensor<64x64xf32>, tensor<64x64xf32>) outs(%3 : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %4, %2 : tensor<64x64xf32>, tensor<64x64xf32>
}
