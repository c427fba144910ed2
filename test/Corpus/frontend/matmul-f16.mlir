// torch-mlir, a half-precision model (model.half()): f16 operands and f16
// result, fill + matmul. M 64, N 32, K 64.
func.func @forward(%arg0: tensor<64x64xf16>, %arg1: tensor<64x32xf16>) -> tensor<64x32xf16> {
  %cst = arith.constant 0.000000e+00 : f16
  %0 = tensor.empty() : tensor<64x32xf16>
  %1 = linalg.fill ins(%cst : f16) outs(%0 : tensor<64x32xf16>) -> tensor<64x32xf16>
  %2 = linalg.matmul ins(%arg0, %arg1 : tensor<64x64xf16>, tensor<64x32xf16>) outs(%1 : tensor<64x32xf16>) -> tensor<64x32xf16>
  return %2 : tensor<64x32xf16>
}
