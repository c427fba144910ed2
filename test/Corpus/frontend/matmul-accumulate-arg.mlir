// C += A * B into a function argument (StableHLO dot + add folded, IREE
// dispatch regions, upstream Linalg tests): the matmul's init is the
// argument itself, no fill. f32, M 64, N 128, K 32.
func.func @matmul_acc(%A: tensor<64x32xf32>, %B: tensor<32x128xf32>, %C: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x128xf32>) outs(%C : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
