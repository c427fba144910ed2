// Upstream Linalg tests and bufferized dispatches: C += A * B on memref
// arguments, no tensors. f32, M 64, N 48, K 32.
func.func @matmul_memref(%A: memref<64x32xf32>, %B: memref<32x48xf32>, %C: memref<64x48xf32>) {
  linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x48xf32>) outs(%C : memref<64x48xf32>)
  return
}
