// A matmul whose result is reshaped (tensor.expand_shape) before its ReLU
// epilogue, as frontends write it: the CPU schedule used to hang on it.
func.func @mm_expand_relu(%a: tensor<196x36xf32>, %b: tensor<36x16xf32>) -> tensor<14x14x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<196x16xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<196x16xf32>) -> tensor<196x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<196x36xf32>, tensor<36x16xf32>) outs(%f : tensor<196x16xf32>) -> tensor<196x16xf32>
  %x = tensor.expand_shape %m [[0, 1], [2]] output_shape [14, 14, 16] : tensor<196x16xf32> into tensor<14x14x16xf32>
  %e3 = tensor.empty() : tensor<14x14x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<14x14x16xf32>) outs(%e3 : tensor<14x14x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %z = arith.maximumf %in, %cst : f32
    linalg.yield %z : f32
  } -> tensor<14x14x16xf32>
  return %r : tensor<14x14x16xf32>
}
