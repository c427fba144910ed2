// StableHLO with preferred_element_type f32 on bf16 operands: bf16 x bf16
// -> f32. M 32, N 64, K 96.
func.func @dot_bf16(%A: tensor<32x96xbf16>, %B: tensor<96x64xbf16>) -> tensor<32x64xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<32x64xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<32x64xf32>) -> tensor<32x64xf32>
  %2 = linalg.matmul ins(%A, %B : tensor<32x96xbf16>, tensor<96x64xbf16>) outs(%1 : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %2 : tensor<32x64xf32>
}
