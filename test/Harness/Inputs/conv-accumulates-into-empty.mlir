// IREE's @nhwc_conv_mfma_truncf shape (LLVMGPU config_igemm_tile_and_fuse
// test), smaller: the convolution accumulates into a tensor.empty() while
// the fill beside it goes unused, so its result is undefined. The CPU
// schedule reads that init from other memory than the unscheduled loops do,
// and the two print different numbers: exec-check.py must call that an
// invalid instance, not a miscompile (integration_test/Harness/
// exec-check.mlir).
func.func @conv_into_empty(%in: tensor<1x10x10x8xf32>, %f: tensor<3x3x8x16xf32>, %unused: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf16> {
  %cst = arith.constant 0.000000e+00 : f32
  %empty = tensor.empty() : tensor<1x8x8x16xf32>
  %empty2 = tensor.empty() : tensor<1x8x8x16xf16>
  %fill = linalg.fill ins(%cst : f32) outs(%unused : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%in, %f : tensor<1x10x10x8xf32>, tensor<3x3x8x16xf32>) outs(%empty : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv : tensor<1x8x8x16xf32>) outs(%empty2 : tensor<1x8x8x16xf16>) {
  ^bb0(%x: f32, %o: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<1x8x8x16xf16>
  return %t : tensor<1x8x8x16xf16>
}
