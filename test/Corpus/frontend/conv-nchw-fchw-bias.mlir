// torch-mlir, aten.convolution with bias (NCHW input, FCHW filter,
// stride 2): the bias broadcast into a tensor.empty by a linalg.generic is
// the convolution's init. f32, 2 x 8 x 17 x 17 input, 16 x 8 x 3 x 3
// filter.
func.func @forward(%input: tensor<2x8x17x17xf32>, %weight: tensor<16x8x3x3xf32>, %bias: tensor<16xf32>) -> tensor<2x16x8x8xf32> {
  %0 = tensor.empty() : tensor<2x16x8x8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bias : tensor<16xf32>) outs(%0 : tensor<2x16x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x16x8x8xf32>
  %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%input, %weight : tensor<2x8x17x17xf32>, tensor<16x8x3x3xf32>) outs(%1 : tensor<2x16x8x8xf32>) -> tensor<2x16x8x8xf32>
  return %2 : tensor<2x16x8x8xf32>
}
