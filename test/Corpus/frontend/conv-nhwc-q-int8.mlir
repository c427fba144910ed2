// A TFLite / TOSA int8 convolution as IREE imports it
// (GlobalOptimization/test/linalg_quantized_conv_to_conv.mlir's
// linalg.conv_2d_nhwc_hwcf_q with an input zero point and a symmetric
// filter), scaled down: i8 image 1x12x12x8, filter 3x3x8x16, stride 1,
// input zero point -2, filter zero point 0, i32 accumulator.
func.func @conv_q(%img: tensor<1x12x12x8xi8>, %flt: tensor<3x3x8x16xi8>) -> tensor<1x10x10x16xi32> {
  %zi = arith.constant -2 : i32
  %zf = arith.constant 0 : i32
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x10x10x16xi32>
  %acc = linalg.fill ins(%c0 : i32) outs(%e : tensor<1x10x10x16xi32>) -> tensor<1x10x10x16xi32>
  %r = linalg.conv_2d_nhwc_hwcf_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%img, %flt, %zi, %zf : tensor<1x12x12x8xi8>, tensor<3x3x8x16xi8>, i32, i32) outs(%acc : tensor<1x10x10x16xi32>) -> tensor<1x10x10x16xi32>
  return %r : tensor<1x10x10x16xi32>
}
