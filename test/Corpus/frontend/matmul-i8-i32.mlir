// Quantized (IREE, TOSA): i8 x i8 -> i32 with an integer zero fill.
// M 64, N 64, K 32.
func.func @qmatmul(%A: tensor<64x32xi8>, %B: tensor<32x64xi8>) -> tensor<64x64xi32> {
  %c0_i32 = arith.constant 0 : i32
  %0 = tensor.empty() : tensor<64x64xi32>
  %1 = linalg.fill ins(%c0_i32 : i32) outs(%0 : tensor<64x64xi32>) -> tensor<64x64xi32>
  %2 = linalg.matmul ins(%A, %B : tensor<64x32xi8>, tensor<32x64xi8>) outs(%1 : tensor<64x64xi32>) -> tensor<64x64xi32>
  return %2 : tensor<64x64xi32>
}
