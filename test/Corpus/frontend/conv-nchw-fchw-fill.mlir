// IREE's GPU configuration tests and torch-mlir without bias: fill +
// linalg.conv_2d_nchw_fchw, stride 1. As im2col + batch matmul, each batch
// element copies its 288 x 256 im2col matrix inside the frontend's batch
// loop. f32, 2 x 32 x 18 x 18 input, 24 x 32 x 3 x 3 filter.
func.func @conv_nchw(%input: tensor<2x32x18x18xf32>, %filter: tensor<24x32x3x3xf32>) -> tensor<2x24x16x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<2x24x16x16xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x24x16x16xf32>) -> tensor<2x24x16x16xf32>
  %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%input, %filter : tensor<2x32x18x18xf32>, tensor<24x32x3x3xf32>) outs(%1 : tensor<2x24x16x16xf32>) -> tensor<2x24x16x16xf32>
  return %2 : tensor<2x24x16x16xf32>
}
