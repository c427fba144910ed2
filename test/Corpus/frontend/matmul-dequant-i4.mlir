// IREE's weight-only quantized LLM matmuls (SPIR-V and LLVMGPU config
// tests): i4 weights in groups of 32, each group with an f32 scale and
// zero point, dequantized by a linalg.generic (extui, uitofp, sub, mul)
// into a tensor.empty, then contracted over both the group and the
// in-group dimension. 64 output features, 4 groups of 32, 16 rows.
#wmap = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#smap = affine_map<(d0, d1, d2) -> (d0, d1)>
#amap = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#bmap = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
#cmap = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @matmul_dequant_i4(%w: tensor<64x4x32xi4>, %scale: tensor<64x4xf32>, %zero: tensor<64x4xf32>, %x: tensor<16x4x32xf32>) -> tensor<16x64xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<16x64xf32>
  %1 = tensor.empty() : tensor<64x4x32xf32>
  %2 = linalg.fill ins(%cst : f32) outs(%0 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %3 = linalg.generic {indexing_maps = [#wmap, #smap, #smap, #wmap], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w, %scale, %zero : tensor<64x4x32xi4>, tensor<64x4xf32>, tensor<64x4xf32>) outs(%1 : tensor<64x4x32xf32>) {
  ^bb0(%q: i4, %s: f32, %z: f32, %out: f32):
    %4 = arith.extui %q : i4 to i32
    %5 = arith.uitofp %4 : i32 to f32
    %6 = arith.subf %5, %z : f32
    %7 = arith.mulf %6, %s : f32
    linalg.yield %7 : f32
  } -> tensor<64x4x32xf32>
  %8 = linalg.generic {indexing_maps = [#amap, #bmap, #cmap], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x, %3 : tensor<16x4x32xf32>, tensor<64x4x32xf32>) outs(%2 : tensor<16x64xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %9 = arith.mulf %a, %b : f32
    %10 = arith.addf %9, %out : f32
    linalg.yield %10 : f32
  } -> tensor<16x64xf32>
  return %8 : tensor<16x64xf32>
}
