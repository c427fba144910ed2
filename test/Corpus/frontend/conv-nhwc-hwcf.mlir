// StableHLO / TOSA convolution (NHWC input, HWCF filter, VALID padding,
// stride 1) lowered to linalg.conv_2d_nhwc_hwcf with fill. f32,
// 1 x 18 x 18 x 16 input, 3 x 3 x 16 x 32 filter.
func.func @conv(%input: tensor<1x18x18x16xf32>, %filter: tensor<3x3x16x32xf32>) -> tensor<1x16x16x32xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1x16x16x32xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  %2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%input, %filter : tensor<1x18x18x16xf32>, tensor<3x3x16x32xf32>) outs(%1 : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  return %2 : tensor<1x16x16x32xf32>
}
