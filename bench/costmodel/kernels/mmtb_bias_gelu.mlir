// C = A * B^T (a generic contraction, B stored N x K like a conv filter
// bank) + bias, then a tanh-based activation. Root: the epilogue.
func.func @mmtb_bias_gelu(%A: tensor<512x256xf32>, %B: tensor<512x256xf32>,
                          %bias: tensor<512xf32>, %out: tensor<512x512xf32>)
    -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : tensor<512x512xf32>) -> tensor<512x512xf32>
  %mm = linalg.generic {producer, indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : tensor<512x256xf32>, tensor<512x256xf32>) outs(%init : tensor<512x512xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<512x512xf32>
  %res = linalg.generic {root, indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<512x512xf32>, tensor<512xf32>) outs(%out : tensor<512x512xf32>) {
  ^bb0(%acc: f32, %b: f32, %o: f32):
    %x = arith.addf %acc, %b : f32
    %t = math.tanh %x : f32
    %y = arith.mulf %x, %t : f32
    linalg.yield %y : f32
  } -> tensor<512x512xf32>
  return %res : tensor<512x512xf32>
}
