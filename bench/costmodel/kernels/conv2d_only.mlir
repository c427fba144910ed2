// 3x3 convolution (NHWC input, HWCF filter, stride 1) alone: the unfused
// producer kernel. Root: the convolution.
func.func @conv2d_only(%in: tensor<1x34x130x32xf32>,
                       %filter: tensor<3x3x32x128xf32>,
                       %out: tensor<1x32x128x128xf32>)
    -> tensor<1x32x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : tensor<1x32x128x128xf32>) -> tensor<1x32x128x128xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {root,
                                    dilations = dense<1> : tensor<2xi64>,
                                    strides = dense<1> : tensor<2xi64>}
      ins(%in, %filter : tensor<1x34x130x32xf32>, tensor<3x3x32x128xf32>)
      outs(%init : tensor<1x32x128x128xf32>) -> tensor<1x32x128x128xf32>
  return %conv : tensor<1x32x128x128xf32>
}
