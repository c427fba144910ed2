// An int8 fully connected layer as torch-mlir / TOSA emit it
// (linalg.quantized_matmul with both zero points non-zero), M 48, N 32,
// K 40, i32 accumulator.
func.func @matmul_q(%a: tensor<48x40xi8>, %b: tensor<40x32xi8>) -> tensor<48x32xi32> {
  %za = arith.constant 5 : i32
  %zb = arith.constant -3 : i32
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<48x32xi32>
  %acc = linalg.fill ins(%c0 : i32) outs(%e : tensor<48x32xi32>) -> tensor<48x32xi32>
  %r = linalg.quantized_matmul ins(%a, %b, %za, %zb : tensor<48x40xi8>, tensor<40x32xi8>, i32, i32) outs(%acc : tensor<48x32xi32>) -> tensor<48x32xi32>
  return %r : tensor<48x32xi32>
}
