// IREE / upstream: linalg.matmul with indexing_maps reading B transposed
// (N x K, a Linear layer's weight as stored), fill in a tensor.empty.
// f32, M 96, N 64, K 48.
func.func @matmul_tb(%A: tensor<96x48xf32>, %B: tensor<64x48xf32>) -> tensor<96x64xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<96x64xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<96x64xf32>) -> tensor<96x64xf32>
  %2 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%A, %B : tensor<96x48xf32>, tensor<64x48xf32>) outs(%1 : tensor<96x64xf32>) -> tensor<96x64xf32>
  return %2 : tensor<96x64xf32>
}
