// A consumer whose other operands come from side-effect-free chains created
// after the producer: a scale tensor filled from a constant, and an init
// sized by tensor.dim of an argument (dynamic rows).
func.func @scaled(%a: tensor<?x64xf32>, %b: tensor<64x32xf32>, %acc: tensor<?x32xf32>) -> tensor<?x32xf32> {
  %mm = linalg.matmul ins(%a, %b : tensor<?x64xf32>, tensor<64x32xf32>) outs(%acc : tensor<?x32xf32>) -> tensor<?x32xf32>
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %a, %c0 : tensor<?x64xf32>
  %two = arith.constant 2.000000e+00 : f32
  %e = tensor.empty(%rows) : tensor<?x32xf32>
  %scale = linalg.fill ins(%two : f32) outs(%e : tensor<?x32xf32>) -> tensor<?x32xf32>
  %e2 = tensor.empty(%rows) : tensor<?x32xf32>
  %r = linalg.mul ins(%mm, %scale : tensor<?x32xf32>, tensor<?x32xf32>) outs(%e2 : tensor<?x32xf32>) -> tensor<?x32xf32>
  return %r : tensor<?x32xf32>
}

func.func @static_scaled(%a: tensor<128x64xf32>, %b: tensor<64x32xf32>, %acc: tensor<128x32xf32>) -> tensor<128x32xf32> {
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf32>, tensor<64x32xf32>) outs(%acc : tensor<128x32xf32>) -> tensor<128x32xf32>
  %two = arith.constant 2.000000e+00 : f32
  %e = tensor.empty() : tensor<128x32xf32>
  %scale = linalg.fill ins(%two : f32) outs(%e : tensor<128x32xf32>) -> tensor<128x32xf32>
  %e2 = tensor.empty() : tensor<128x32xf32>
  %r = linalg.mul ins(%mm, %scale : tensor<128x32xf32>, tensor<128x32xf32>) outs(%e2 : tensor<128x32xf32>) -> tensor<128x32xf32>
  return %r : tensor<128x32xf32>
}
