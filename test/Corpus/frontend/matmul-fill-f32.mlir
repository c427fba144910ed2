// torch-mlir, aten.mm: the zero init filled into a tensor.empty created
// right before the matmul. f32, M 128, N 96, K 64.
func.func @forward(%arg0: tensor<128x64xf32>, %arg1: tensor<64x96xf32>) -> tensor<128x96xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<128x96xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<128x96xf32>) -> tensor<128x96xf32>
  %2 = linalg.matmul ins(%arg0, %arg1 : tensor<128x64xf32>, tensor<64x96xf32>) outs(%1 : tensor<128x96xf32>) -> tensor<128x96xf32>
  return %2 : tensor<128x96xf32>
}
