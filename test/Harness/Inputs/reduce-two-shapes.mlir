// One 301 x 301 argument read as a plain 2-D operand (an elementwise
// square) and as the input of a stride-2, 3-tap window (150 outputs read
// 2 * 149 + 3 = 301 columns): at a cap of 256 its columns become 256 + 13 =
// 269 through the square, but stay 301 through the window (150 outputs are
// under the cap).
func.func @two_reads(%x: tensor<301x301xf32>, %w: tensor<3xf32>) -> (tensor<301x301xf32>, tensor<301x150xf32>) {
  %e = tensor.empty() : tensor<301x301xf32>
  %sq = linalg.mul ins(%x, %x : tensor<301x301xf32>, tensor<301x301xf32>) outs(%e : tensor<301x301xf32>) -> tensor<301x301xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %e2 = tensor.empty() : tensor<301x150xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e2 : tensor<301x150xf32>) -> tensor<301x150xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, 2 * j + k)>, affine_map<(i, j, k) -> (k)>, affine_map<(i, j, k) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<301x301xf32>, tensor<3xf32>) outs(%z : tensor<301x150xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<301x150xf32>
  return %sq, %c : tensor<301x301xf32>, tensor<301x150xf32>
}
