// torch-mlir with a dynamic batch size: M is dynamic (tensor.dim of the
// input sizes the tensor.empty), N 64, K 32, f32, fill + matmul.
func.func @forward(%arg0: tensor<?x32xf32>, %arg1: tensor<32x64xf32>) -> tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %dim = tensor.dim %arg0, %c0 : tensor<?x32xf32>
  %0 = tensor.empty(%dim) : tensor<?x64xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x64xf32>) -> tensor<?x64xf32>
  %2 = linalg.matmul ins(%arg0, %arg1 : tensor<?x32xf32>, tensor<32x64xf32>) outs(%1 : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %2 : tensor<?x64xf32>
}
