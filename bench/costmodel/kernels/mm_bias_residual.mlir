// matmul + bias + residual + ReLU: a multi-input epilogue. Root: the epilogue.
func.func @mm_bias_residual(%A: tensor<512x256xf32>, %B: tensor<256x512xf32>,
                            %bias: tensor<512xf32>, %res_in: tensor<512x512xf32>,
                            %out: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : tensor<512x512xf32>) -> tensor<512x512xf32>
  %mm = linalg.matmul {producer} ins(%A, %B : tensor<512x256xf32>, tensor<256x512xf32>)
                      outs(%init : tensor<512x512xf32>) -> tensor<512x512xf32>
  %res = linalg.generic {root, indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias, %res_in : tensor<512x512xf32>, tensor<512xf32>, tensor<512x512xf32>) outs(%out : tensor<512x512xf32>) {
  ^bb0(%acc: f32, %b: f32, %r: f32, %o: f32):
    %sum = arith.addf %acc, %b : f32
    %sum2 = arith.addf %sum, %r : f32
    %relu = arith.maximumf %sum2, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<512x512xf32>
  return %res : tensor<512x512xf32>
}
