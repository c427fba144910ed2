func.func @mm(%a: tensor<48x36xf32>, %b: tensor<36x40xf32>, %c: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<48x36xf32>, tensor<36x40xf32>) outs(%c : tensor<48x40xf32>) -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}
