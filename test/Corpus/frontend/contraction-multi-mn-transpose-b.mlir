// IREE's expanded matmul with a transposed B (LLVMGPU/test/ROCDL/
// config_tile_and_fuse.mlir @expanded_matmul_transpose_b: lhs 2x64x2048,
// rhs 10x64x2048, f16 -> f32), scaled down: two M loops (d0, d2), two N
// loops (d1, d3), B stored N x K. transform.hwsched.contraction_to_matmul
// makes it one 2-D contraction with layout copies (B to K x N, the result
// back to 2x4x32x32) that stay on the host, outside the kernel.
#map = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>
#map1 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d3, d4)>
#map2 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
func.func @expanded_matmul_transpose_b(%lhs: tensor<2x32x128xf16>, %rhs: tensor<4x32x128xf16>) -> tensor<2x4x32x32xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %empty = tensor.empty() : tensor<2x4x32x32xf32>
  %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<2x4x32x32xf32>) -> tensor<2x4x32x32xf32>
  %mm = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%lhs, %rhs : tensor<2x32x128xf16>, tensor<4x32x128xf16>) outs(%fill : tensor<2x4x32x32xf32>) {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %a = arith.extf %in : f16 to f32
    %b = arith.extf %in_0 : f16 to f32
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %p, %out : f32
    linalg.yield %s : f32
  } -> tensor<2x4x32x32xf32>
  return %mm : tensor<2x4x32x32xf32>
}
