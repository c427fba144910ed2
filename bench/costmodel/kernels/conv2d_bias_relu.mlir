// 3x3 convolution (NHWC input, HWCF filter, stride 1) + per-channel bias +
// ReLU. Root: the epilogue; the convolution is fused into its thread tile.
func.func @conv2d_bias_relu(%in: tensor<1x34x130x32xf32>,
                            %filter: tensor<3x3x32x128xf32>,
                            %bias: tensor<128xf32>,
                            %out: tensor<1x32x128x128xf32>)
    -> tensor<1x32x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : tensor<1x32x128x128xf32>) -> tensor<1x32x128x128xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {producer,
                                    dilations = dense<1> : tensor<2xi64>,
                                    strides = dense<1> : tensor<2xi64>}
      ins(%in, %filter : tensor<1x34x130x32xf32>, tensor<3x3x32x128xf32>)
      outs(%init : tensor<1x32x128x128xf32>) -> tensor<1x32x128x128xf32>
  %res = linalg.generic {root,
      indexing_maps = [affine_map<(n, h, w, f) -> (n, h, w, f)>,
                       affine_map<(n, h, w, f) -> (f)>,
                       affine_map<(n, h, w, f) -> (n, h, w, f)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %bias : tensor<1x32x128x128xf32>, tensor<128xf32>)
      outs(%out : tensor<1x32x128x128xf32>) {
  ^bb0(%acc: f32, %b: f32, %o: f32):
    %sum = arith.addf %acc, %b : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<1x32x128x128xf32>
  return %res : tensor<1x32x128x128xf32>
}
