// Convolutions and contractions no im2col or batch route takes: a batchless
// generic convolution (IREE), a depthwise convolution, linalg.mmt4d.
#mapI = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0 + d3, d1 + d4, d5)>
#mapF = affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4, d5, d2)>
#mapO = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>
func.func @batchless_conv(%img: tensor<16x16x8xf32>, %flt: tensor<3x3x8x16xf32>, %acc: tensor<14x14x16xf32>) -> tensor<14x14x16xf32> {
  %r = linalg.generic {indexing_maps = [#mapI, #mapF, #mapO], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%img, %flt : tensor<16x16x8xf32>, tensor<3x3x8x16xf32>) outs(%acc : tensor<14x14x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<14x14x16xf32>
  return %r : tensor<14x14x16xf32>
}
func.func @depthwise(%img: tensor<1x10x10x8xf32>, %flt: tensor<3x3x8xf32>, %acc: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%img, %flt : tensor<1x10x10x8xf32>, tensor<3x3x8xf32>) outs(%acc : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}
func.func @mmt4d(%a: tensor<4x5x8x2xf32>, %b: tensor<3x5x4x2xf32>, %c: tensor<4x3x8x4xf32>) -> tensor<4x3x8x4xf32> {
  %r = linalg.mmt4d ins(%a, %b : tensor<4x5x8x2xf32>, tensor<3x5x4x2xf32>) outs(%c : tensor<4x3x8x4xf32>) -> tensor<4x3x8x4xf32>
  return %r : tensor<4x3x8x4xf32>
}
