// A 1024 x 1024 matmul whose result is reshaped and returned: the Linalg
// types shrink, the reshape's result type (no Linalg op reads it) does not,
// so the reshape no longer verifies.
func.func @matmul_reshape(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<4x256x1024xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%z : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %r = tensor.expand_shape %m [[0, 1], [2]] output_shape [4, 256, 1024] : tensor<1024x1024xf32> into tensor<4x256x1024xf32>
  return %r : tensor<4x256x1024xf32>
}
