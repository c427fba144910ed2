// IREE's im2col'd convolution with four output channels (Preprocessing/
// Common/test/pad_to_intrinsics_mfma.mlir: conv 3x3x320 -> 4, f16 inputs,
// f32 accumulator, so K = 2880 and N = 4) as the matmul it becomes, scaled
// down: N 4 is narrower than a vector and K 1000 is not a multiple of the
// CPU K block. f16 operands, f32 accumulator, M 64.
func.func @matmul_f16_n4(%A: tensor<64x1000xf16>, %B: tensor<1000x4xf16>, %C: tensor<64x4xf32>) -> tensor<64x4xf32> {
  %0 = linalg.matmul ins(%A, %B : tensor<64x1000xf16>, tensor<1000x4xf16>) outs(%C : tensor<64x4xf32>) -> tensor<64x4xf32>
  return %0 : tensor<64x4xf32>
}
