// torch-mlir, aten.linear + aten.relu: the weight (out x in) transposed by
// linalg.transpose, fill + matmul, then the bias add and the ReLU as
// linalg.generic ops, each with its own tensor.empty created right before
// it (after the matmul). f32, batch rows 64, in 48, out 80.
func.func @forward(%x: tensor<64x48xf32>, %w: tensor<80x48xf32>, %b: tensor<80xf32>) -> tensor<64x80xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<48x80xf32>
  %transposed = linalg.transpose ins(%w : tensor<80x48xf32>) outs(%0 : tensor<48x80xf32>) permutation = [1, 0]
  %1 = tensor.empty() : tensor<64x80xf32>
  %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<64x80xf32>) -> tensor<64x80xf32>
  %3 = linalg.matmul ins(%x, %transposed : tensor<64x48xf32>, tensor<48x80xf32>) outs(%2 : tensor<64x80xf32>) -> tensor<64x80xf32>
  %4 = tensor.empty() : tensor<64x80xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%3, %b : tensor<64x80xf32>, tensor<80xf32>) outs(%4 : tensor<64x80xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %8 = arith.addf %in, %in_0 : f32
    linalg.yield %8 : f32
  } -> tensor<64x80xf32>
  %6 = tensor.empty() : tensor<64x80xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<64x80xf32>) outs(%6 : tensor<64x80xf32>) {
  ^bb0(%in: f32, %out: f32):
    %8 = arith.cmpf ugt, %in, %cst : f32
    %9 = arith.select %8, %in, %cst : f32
    linalg.yield %9 : f32
  } -> tensor<64x80xf32>
  return %7 : tensor<64x80xf32>
}
