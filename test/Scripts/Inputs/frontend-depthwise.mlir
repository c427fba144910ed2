// Depthwise convolutions as frontends emit them (MobileNet-style blocks
// through torch-mlir, TOSA or IREE): f32 with a channel count that is no
// multiple of the vector width (20) and an odd image (13 x 11), the same
// with a dynamic batch, and the int8 quantized form with zero points.
// @main runs each and prints the results
// (integration_test/Scripts/frontend-depthwise.test).
#map_ij = affine_map<(i, j) -> (i, j)>
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}

func.func @dw_f32(%img: tensor<2x13x11x20xf32>, %flt: tensor<3x3x20xf32>) -> tensor<2x11x9x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x11x9x20xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x11x9x20xf32>) -> tensor<2x11x9x20xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%img, %flt : tensor<2x13x11x20xf32>, tensor<3x3x20xf32>) outs(%f : tensor<2x11x9x20xf32>) -> tensor<2x11x9x20xf32>
  return %r : tensor<2x11x9x20xf32>
}

func.func @dw_dyn_batch(%img: tensor<?x13x11x20xf32>, %flt: tensor<3x3x20xf32>, %out: tensor<?x11x9x20xf32>) -> tensor<?x11x9x20xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%img, %flt : tensor<?x13x11x20xf32>, tensor<3x3x20xf32>) outs(%out : tensor<?x11x9x20xf32>) -> tensor<?x11x9x20xf32>
  return %r : tensor<?x11x9x20xf32>
}

func.func @dw_q(%img: tensor<1x13x11x20xi8>, %flt: tensor<3x3x20xi8>) -> tensor<1x11x9x20xi32> {
  %zero = arith.constant 0 : i32
  %izp = arith.constant 3 : i32
  %fzp = arith.constant -2 : i32
  %e = tensor.empty() : tensor<1x11x9x20xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<1x11x9x20xi32>) -> tensor<1x11x9x20xi32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%img, %flt, %izp, %fzp : tensor<1x13x11x20xi8>, tensor<3x3x20xi8>, i32, i32) outs(%f : tensor<1x11x9x20xi32>) -> tensor<1x11x9x20xi32>
  return %r : tensor<1x11x9x20xi32>
}

// (i * p + j) mod q - s, as f32.
func.func @ramp(%m: index, %n: index, %p: index, %q: index, %s: f32) -> tensor<?x?xf32> {
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#map_ij], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ip = arith.muli %i, %p : index
    %t = arith.addi %ip, %j : index
    %r = arith.remui %t, %q : index
    %ri = arith.index_cast %r : index to i32
    %f = arith.sitofp %ri : i32 to f32
    %d = arith.subf %f, %s : f32
    linalg.yield %d : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @to_i8(%x: tensor<?x?xf32>) -> tensor<?x?xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xi8>
  %r = linalg.generic {indexing_maps = [#map_ij, #map_ij], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xi8>) {
  ^bb0(%v: f32, %o: i8):
    %i = arith.fptosi %v : f32 to i8
    linalg.yield %i : i8
  } -> tensor<?x?xi8>
  return %r : tensor<?x?xi8>
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c11 = arith.constant 11 : index
  %c20 = arith.constant 20 : index
  %c143 = arith.constant 143 : index
  %c286 = arith.constant 286 : index
  %s0 = arith.constant 0.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32

  %imgd = func.call @ramp(%c286, %c20, %c3, %c7, %s3) : (index, index, index, index, f32) -> tensor<?x?xf32>
  %imgs = tensor.cast %imgd : tensor<?x?xf32> to tensor<286x20xf32>
  %img = tensor.expand_shape %imgs [[0, 1, 2], [3]] output_shape [2, 13, 11, 20] : tensor<286x20xf32> into tensor<2x13x11x20xf32>
  %fltd = func.call @ramp(%c9, %c20, %c1, %c5, %s2) : (index, index, index, index, f32) -> tensor<?x?xf32>
  %flts = tensor.cast %fltd : tensor<?x?xf32> to tensor<9x20xf32>
  %flt = tensor.expand_shape %flts [[0, 1], [2]] output_shape [3, 3, 20] : tensor<9x20xf32> into tensor<3x3x20xf32>

  %r1 = func.call @dw_f32(%img, %flt) : (tensor<2x13x11x20xf32>, tensor<3x3x20xf32>) -> tensor<2x11x9x20xf32>
  %m1 = bufferization.to_buffer %r1 : tensor<2x11x9x20xf32> to memref<2x11x9x20xf32>
  %u1 = memref.cast %m1 : memref<2x11x9x20xf32> to memref<*xf32>
  func.call @printMemrefF32(%u1) : (memref<*xf32>) -> ()

  %imgdyn = tensor.cast %img : tensor<2x13x11x20xf32> to tensor<?x13x11x20xf32>
  %outd = func.call @ramp(%c11, %c9, %c5, %c3, %s0) : (index, index, index, index, f32) -> tensor<?x?xf32>
  %outs = tensor.cast %outd : tensor<?x?xf32> to tensor<11x9xf32>
  %e2 = tensor.empty() : tensor<2x11x9x20xf32>
  %outb = linalg.broadcast ins(%outs : tensor<11x9xf32>) outs(%e2 : tensor<2x11x9x20xf32>) dimensions = [0, 3]
  %outdyn = tensor.cast %outb : tensor<2x11x9x20xf32> to tensor<?x11x9x20xf32>
  %r2 = func.call @dw_dyn_batch(%imgdyn, %flt, %outdyn) : (tensor<?x13x11x20xf32>, tensor<3x3x20xf32>, tensor<?x11x9x20xf32>) -> tensor<?x11x9x20xf32>
  %m2 = bufferization.to_buffer %r2 : tensor<?x11x9x20xf32> to memref<?x11x9x20xf32>
  %u2 = memref.cast %m2 : memref<?x11x9x20xf32> to memref<*xf32>
  func.call @printMemrefF32(%u2) : (memref<*xf32>) -> ()

  %imgq2 = func.call @ramp(%c143, %c20, %c3, %c7, %s3) : (index, index, index, index, f32) -> tensor<?x?xf32>
  %imgq8 = func.call @to_i8(%imgq2) : (tensor<?x?xf32>) -> tensor<?x?xi8>
  %imgqs = tensor.cast %imgq8 : tensor<?x?xi8> to tensor<143x20xi8>
  %imgq = tensor.expand_shape %imgqs [[0, 1, 2], [3]] output_shape [1, 13, 11, 20] : tensor<143x20xi8> into tensor<1x13x11x20xi8>
  %fltq8 = func.call @to_i8(%fltd) : (tensor<?x?xf32>) -> tensor<?x?xi8>
  %fltqs = tensor.cast %fltq8 : tensor<?x?xi8> to tensor<9x20xi8>
  %fltq = tensor.expand_shape %fltqs [[0, 1], [2]] output_shape [3, 3, 20] : tensor<9x20xi8> into tensor<3x3x20xi8>
  %r3 = func.call @dw_q(%imgq, %fltq) : (tensor<1x13x11x20xi8>, tensor<3x3x20xi8>) -> tensor<1x11x9x20xi32>
  %m3 = bufferization.to_buffer %r3 : tensor<1x11x9x20xi32> to memref<1x11x9x20xi32>
  %u3 = memref.cast %m3 : memref<1x11x9x20xi32> to memref<*xi32>
  func.call @printMemrefI32(%u3) : (memref<*xi32>) -> ()
  return
}
