// A convolution whose image is static (1 x 14 x 16) and whose filter and
// output are dynamic: with one extent for every `?` (exec_harness.py's
// --dynamic-extent, 24 by default) the filter would be larger than the
// image. exec-check.py solves extents that fit instead
// (hwsched_tools/dynamic_extents.py: output 7 x 8, filter 8 x 9, so that
// 7 + 8 - 1 = 14 and 8 + 9 - 1 = 16) and the check runs
// (integration_test/Harness/exec-check.mlir).
func.func @conv_dyn_filter(%img: tensor<1x14x16x4xf32>, %flt: tensor<?x?x4x8xf32>, %out: tensor<1x?x?x8xf32>) -> tensor<1x?x?x8xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%img, %flt : tensor<1x14x16x4xf32>, tensor<?x?x4x8xf32>) outs(%out : tensor<1x?x?x8xf32>) -> tensor<1x?x?x8xf32>
  return %r : tensor<1x?x?x8xf32>
}
