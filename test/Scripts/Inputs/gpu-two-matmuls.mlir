// Two matmuls in a row in one function, the second reading the first:
// @gpu_matmul_auto gives each its own schedule.
func.func @two(%A: tensor<64x64xf32>, %B: tensor<64x64xf32>, %out: tensor<64x64xf32>)
    -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m1 = linalg.matmul ins(%A, %B : tensor<64x64xf32>, tensor<64x64xf32>)
                      outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m2 = linalg.matmul ins(%m1, %B : tensor<64x64xf32>, tensor<64x64xf32>)
                      outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %m2 : tensor<64x64xf32>
}
