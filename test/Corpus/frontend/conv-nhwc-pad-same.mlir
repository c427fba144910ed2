// StableHLO convolution with SAME padding: tensor.pad of the input
// (created before the conv's tensor.empty), then fill +
// linalg.conv_2d_nhwc_hwcf. f32, 1 x 16 x 16 x 8 input padded to
// 18 x 18, 3 x 3 x 8 x 16 filter.
func.func @conv_same(%input: tensor<1x16x16x8xf32>, %filter: tensor<3x3x8x16xf32>) -> tensor<1x16x16x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %padded = tensor.pad %input low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %cst : f32
  } : tensor<1x16x16x8xf32> to tensor<1x18x18x8xf32>
  %0 = tensor.empty() : tensor<1x16x16x16xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %filter : tensor<1x18x18x8xf32>, tensor<3x3x8x16xf32>) outs(%1 : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  return %2 : tensor<1x16x16x16xf32>
}
