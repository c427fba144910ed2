// StableHLO dot_general with lhs contracting dim 0 lowered to a
// linalg.generic contraction (A stored K x M), fill in a tensor.empty.
// f32, M 64, N 80, K 32.
func.func @dot_general(%A: tensor<32x64xf32>, %B: tensor<32x80xf32>) -> tensor<64x80xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<64x80xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<64x80xf32>) -> tensor<64x80xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%A, %B : tensor<32x64xf32>, tensor<32x80xf32>) outs(%1 : tensor<64x80xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %3 = arith.mulf %a, %b : f32
    %4 = arith.addf %c, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<64x80xf32>
  return %2 : tensor<64x80xf32>
}
