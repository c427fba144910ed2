// Matmul-class ops with dynamic extents as frontends emit them (a dynamic
// batch of rows, sequence length or reduction length):
//  - @mm_dyn: M, N and K all dynamic, a fill init and a bias + ReLU
//    epilogue (f32);
//  - @mm_dyn_k: only K dynamic, i8 x i8 -> i32 accumulating into an
//    argument;
//  - @conv_dyn: an NHWC convolution whose image and output sizes are
//    dynamic (static filter).
// @main runs them at sizes that are not multiples of any tile or chunk
// (M = 300, N = 260, K = 70; K = 600 over two reduction chunks; a 12 x 10
// image) and prints the results (integration_test/Scripts/
// frontend-dynamic-extents.test).
#map_ij = affine_map<(i, j) -> (i, j)>
#map_j = affine_map<(i, j) -> (j)>
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}

func.func @mm_dyn(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %bias: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#map_ij, #map_j, #map_ij], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<?x?xf32>, tensor<?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %v = arith.maximumf %s, %zero : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @mm_dyn_k(%a: tensor<40x?xi8>, %b: tensor<?x24xi8>, %c: tensor<40x24xi32>) -> tensor<40x24xi32> {
  %r = linalg.matmul ins(%a, %b : tensor<40x?xi8>, tensor<?x24xi8>) outs(%c : tensor<40x24xi32>) -> tensor<40x24xi32>
  return %r : tensor<40x24xi32>
}

func.func @conv_dyn(%img: tensor<1x?x?x4xf32>, %flt: tensor<3x3x4x8xf32>) -> tensor<1x?x?x8xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %h = tensor.dim %img, %c1 : tensor<1x?x?x4xf32>
  %w = tensor.dim %img, %c2 : tensor<1x?x?x4xf32>
  %oh = arith.subi %h, %c2 : index
  %ow = arith.subi %w, %c2 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%oh, %ow) : tensor<1x?x?x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x?x?x8xf32>) -> tensor<1x?x?x8xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%img, %flt : tensor<1x?x?x4xf32>, tensor<3x3x4x8xf32>) outs(%f : tensor<1x?x?x8xf32>) -> tensor<1x?x?x8xf32>
  return %r : tensor<1x?x?x8xf32>
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

// Elementwise f32 -> i8 / i32 (small integers, exact).
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
func.func @to_i32(%x: tensor<?x?xf32>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xi32>
  %r = linalg.generic {indexing_maps = [#map_ij, #map_ij], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xi32>) {
  ^bb0(%v: f32, %o: i32):
    %i = arith.fptosi %v : f32 to i32
    linalg.yield %i : i32
  } -> tensor<?x?xi32>
  return %r : tensor<?x?xi32>
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c24 = arith.constant 24 : index
  %c36 = arith.constant 36 : index
  %c40 = arith.constant 40 : index
  %c70 = arith.constant 70 : index
  %c120 = arith.constant 120 : index
  %c260 = arith.constant 260 : index
  %c300 = arith.constant 300 : index
  %c600 = arith.constant 600 : index
  %s0 = arith.constant 0.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32

  // M = 300, N = 260, K = 70.
  %a = func.call @ramp(%c300, %c70, %c1, %c7, %s3) : (index, index, index, index, f32) -> tensor<?x?xf32>
  %b = func.call @ramp(%c70, %c260, %c3, %c5, %s2) : (index, index, index, index, f32) -> tensor<?x?xf32>
  %bias2 = func.call @ramp(%c1, %c260, %c1, %c7, %s3) : (index, index, index, index, f32) -> tensor<?x?xf32>
  %bias = tensor.collapse_shape %bias2 [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  %r1 = func.call @mm_dyn(%a, %b, %bias) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  %m1 = bufferization.to_buffer %r1 : tensor<?x?xf32> to memref<?x?xf32>
  %u1 = memref.cast %m1 : memref<?x?xf32> to memref<*xf32>
  func.call @printMemrefF32(%u1) : (memref<*xf32>) -> ()

  // K = 600: two reduction chunks, the second one padded.
  %akf = func.call @ramp(%c40, %c600, %c1, %c7, %s3) : (index, index, index, index, f32) -> tensor<?x?xf32>
  %bkf = func.call @ramp(%c600, %c24, %c3, %c5, %s2) : (index, index, index, index, f32) -> tensor<?x?xf32>
  %ckf = func.call @ramp(%c40, %c24, %c5, %c3, %s0) : (index, index, index, index, f32) -> tensor<?x?xf32>
  %aki = func.call @to_i8(%akf) : (tensor<?x?xf32>) -> tensor<?x?xi8>
  %bki = func.call @to_i8(%bkf) : (tensor<?x?xf32>) -> tensor<?x?xi8>
  %cki = func.call @to_i32(%ckf) : (tensor<?x?xf32>) -> tensor<?x?xi32>
  %ak = tensor.cast %aki : tensor<?x?xi8> to tensor<40x?xi8>
  %bk = tensor.cast %bki : tensor<?x?xi8> to tensor<?x24xi8>
  %ck = tensor.cast %cki : tensor<?x?xi32> to tensor<40x24xi32>
  %r2 = func.call @mm_dyn_k(%ak, %bk, %ck) : (tensor<40x?xi8>, tensor<?x24xi8>, tensor<40x24xi32>) -> tensor<40x24xi32>
  %m2 = bufferization.to_buffer %r2 : tensor<40x24xi32> to memref<40x24xi32>
  %u2 = memref.cast %m2 : memref<40x24xi32> to memref<*xi32>
  func.call @printMemrefI32(%u2) : (memref<*xi32>) -> ()

  // A 12 x 10 image with 4 channels, a 3 x 3 filter to 8 channels.
  %c4 = arith.constant 4 : index
  %imgd = func.call @ramp(%c120, %c4, %c3, %c7, %s3) : (index, index, index, index, f32) -> tensor<?x?xf32>
  %imgs = tensor.cast %imgd : tensor<?x?xf32> to tensor<120x4xf32>
  %img4 = tensor.expand_shape %imgs [[0, 1, 2], [3]] output_shape [1, 12, 10, 4] : tensor<120x4xf32> into tensor<1x12x10x4xf32>
  %img = tensor.cast %img4 : tensor<1x12x10x4xf32> to tensor<1x?x?x4xf32>
  %fltd = func.call @ramp(%c36, %c8, %c1, %c5, %s2) : (index, index, index, index, f32) -> tensor<?x?xf32>
  %flts = tensor.cast %fltd : tensor<?x?xf32> to tensor<36x8xf32>
  %flt = tensor.expand_shape %flts [[0, 1, 2], [3]] output_shape [3, 3, 4, 8] : tensor<36x8xf32> into tensor<3x3x4x8xf32>
  %r3 = func.call @conv_dyn(%img, %flt) : (tensor<1x?x?x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x?x?x8xf32>
  %m3 = bufferization.to_buffer %r3 : tensor<1x?x?x8xf32> to memref<1x?x?x8xf32>
  %u3 = memref.cast %m3 : memref<1x?x?x8xf32> to memref<*xf32>
  func.call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
  return
}
