// IREE's dynamic quantized convolution (GlobalOptimization test
// linalg_quantized_conv_to_conv, @conv2d_dyn, with its 1024 output
// channels): batch, height and width dynamic, input and output both
// arguments. Chunks of 256 in each of the three would pad a 2^34-element
// output (64 GiB); chunk_dynamic_loops halves them to 16 x 32 x 32 (2^24 elements).
// The harness (utils/exec-check.py --add-main) solves input extents that
// fit: 24 x 26 x 27 for a 24 x 24 x 24 output.
func.func @conv2d_dyn_q(%arg0: tensor<?x?x?x5xi8>, %arg1: tensor<3x4x5x1024xi8>, %arg2: tensor<?x?x?x1024xi32>) -> tensor<?x?x?x1024xi32> {
  %iZp = arith.constant 0 : i32
  %fZp = arith.constant 0 : i32
  %0 = linalg.conv_2d_nhwc_hwcf_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg0, %arg1, %iZp, %fZp : tensor<?x?x?x5xi8>, tensor<3x4x5x1024xi8>, i32, i32) outs(%arg2 : tensor<?x?x?x1024xi32>) -> tensor<?x?x?x1024xi32>
  return %0 : tensor<?x?x?x1024xi32>
}
