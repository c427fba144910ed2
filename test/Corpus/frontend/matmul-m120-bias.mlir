// M 120 (not a power of two) with a bias epilogue whose init is created
// after the matmul (IREE order). f32, M 120, N 64, K 40.
func.func @matmul_bias(%A: tensor<120x40xf32>, %B: tensor<40x64xf32>, %bias: tensor<64xf32>) -> tensor<120x64xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<120x64xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<120x64xf32>) -> tensor<120x64xf32>
  %2 = linalg.matmul ins(%A, %B : tensor<120x40xf32>, tensor<40x64xf32>) outs(%1 : tensor<120x64xf32>) -> tensor<120x64xf32>
  %3 = tensor.empty() : tensor<120x64xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%2, %bias : tensor<120x64xf32>, tensor<64xf32>) outs(%3 : tensor<120x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %5 = arith.addf %in, %in_0 : f32
    linalg.yield %5 : f32
  } -> tensor<120x64xf32>
  return %4 : tensor<120x64xf32>
}
