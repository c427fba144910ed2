// matmul whose consumer is a transpose (the GPU model refuses to fuse it:
// the matmul is scheduled alone).
func.func @matmul_transpose(%A: tensor<64x64xf32>, %B: tensor<64x64xf32>, %out: tensor<64x64xf32>)
    -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<64x64xf32>, tensor<64x64xf32>)
                      outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %t = linalg.transpose ins(%mm : tensor<64x64xf32>) outs(%out : tensor<64x64xf32>) permutation = [1, 0]
  return %t : tensor<64x64xf32>
}
