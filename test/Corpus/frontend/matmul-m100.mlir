// An odd M (not a multiple of any block tile): M 100, N 64, K 48, f32,
// fill + matmul (torch-mlir order).
func.func @forward(%arg0: tensor<100x48xf32>, %arg1: tensor<48x64xf32>) -> tensor<100x64xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<100x64xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<100x64xf32>) -> tensor<100x64xf32>
  %2 = linalg.matmul ins(%arg0, %arg1 : tensor<100x48xf32>, tensor<48x64xf32>) outs(%1 : tensor<100x64xf32>) -> tensor<100x64xf32>
  return %2 : tensor<100x64xf32>
}
