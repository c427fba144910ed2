// A tiny matmul (a small head or a unit test): M 2, N 3, K 4, f32, fill +
// matmul.
func.func @tiny(%A: tensor<2x4xf32>, %B: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<2x3xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = linalg.matmul ins(%A, %B : tensor<2x4xf32>, tensor<4x3xf32>) outs(%1 : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}
