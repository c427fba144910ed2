// IREE's batched matmul with a narrow N (Codegen/SPIRV/test/
// config_amd_matmul.mlir, batch 16, M 4096, N 40, K 4096), scaled down: N 40
// is not a multiple of the CPU register tile, so the last tile is partial.
// f32, batch 4, M 96, N 40, K 128.
func.func @bmm_n40(%A: tensor<4x96x128xf32>, %B: tensor<4x128x40xf32>, %C: tensor<4x96x40xf32>) -> tensor<4x96x40xf32> {
  %0 = linalg.batch_matmul ins(%A, %B : tensor<4x96x128xf32>, tensor<4x128x40xf32>) outs(%C : tensor<4x96x40xf32>) -> tensor<4x96x40xf32>
  return %0 : tensor<4x96x40xf32>
}
