// A convolution whose image and output are dynamic, with the image reaching
// the op through a tensor.cast: the harness's extent solver
// (utils/hwsched_tools/dynamic_extents.py) follows only function arguments
// passed straight to Linalg ops, so both get the one default extent (24),
// and a 24-row output needs 26 image rows for this 3x3 window. The
// unscheduled reference reads out of bounds: exec-check.py must call that an
// invalid instance, not compare the reads
// (integration_test/Harness/exec-check.mlir).
func.func @conv_dyn_cast(%img: tensor<1x?x?x4xf32>, %flt: tensor<3x3x4x8xf32>, %out: tensor<1x?x?x8xf32>) -> tensor<1x?x?x8xf32> {
  %c = tensor.cast %img : tensor<1x?x?x4xf32> to tensor<?x?x?x4xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%c, %flt : tensor<?x?x?x4xf32>, tensor<3x3x4x8xf32>) outs(%out : tensor<1x?x?x8xf32>) -> tensor<1x?x?x8xf32>
  return %r : tensor<1x?x?x8xf32>
}
