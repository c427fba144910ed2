// matmul + scale, written transposed (the consumer changes the layout).
// Root: the epilogue.
func.func @mm_transpose_out(%A: tensor<512x256xf32>, %B: tensor<256x512xf32>,
                            %out: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : tensor<512x512xf32>) -> tensor<512x512xf32>
  %mm = linalg.matmul {producer} ins(%A, %B : tensor<512x256xf32>, tensor<256x512xf32>)
                      outs(%init : tensor<512x512xf32>) -> tensor<512x512xf32>
  %res = linalg.generic {root, indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<512x512xf32>) outs(%out : tensor<512x512xf32>) {
  ^bb0(%acc: f32, %o: f32):
    %s = arith.mulf %acc, %two : f32
    linalg.yield %s : f32
  } -> tensor<512x512xf32>
  return %res : tensor<512x512xf32>
}
