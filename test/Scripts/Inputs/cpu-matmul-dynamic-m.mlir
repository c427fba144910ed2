// Matmuls with a dynamic M (N and K static) as frontends emit them for a
// dynamic batch of rows: f32, f32 with a bias + ReLU epilogue, and
// i8 x i8 -> i32; @main runs each at M = 1, 100 and 301 (not multiples of
// the register or cache tiles) and prints the results
// (integration_test/Scripts/cpu-matmul-dynamic-m.test).
#map_ij = affine_map<(i, j) -> (i, j)>
#map_j = affine_map<(i, j) -> (j)>
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}

func.func @mm_f32(%a: tensor<?x64xf32>, %b: tensor<64x48xf32>, %c: tensor<?x48xf32>) -> tensor<?x48xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x64xf32>, tensor<64x48xf32>) outs(%c : tensor<?x48xf32>) -> tensor<?x48xf32>
  return %r : tensor<?x48xf32>
}

func.func @mm_bias_relu(%a: tensor<?x64xf32>, %b: tensor<64x48xf32>, %bias: tensor<48xf32>) -> tensor<?x48xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x48xf32>) -> tensor<?x48xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<?x64xf32>, tensor<64x48xf32>) outs(%f : tensor<?x48xf32>) -> tensor<?x48xf32>
  %r = linalg.generic {indexing_maps = [#map_ij, #map_j, #map_ij], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<?x48xf32>, tensor<48xf32>) outs(%e : tensor<?x48xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %v = arith.maximumf %s, %zero : f32
    linalg.yield %v : f32
  } -> tensor<?x48xf32>
  return %r : tensor<?x48xf32>
}

func.func @mm_i8(%a: tensor<?x64xi8>, %b: tensor<64x48xi8>, %c: tensor<?x48xi32>) -> tensor<?x48xi32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x64xi8>, tensor<64x48xi8>) outs(%c : tensor<?x48xi32>) -> tensor<?x48xi32>
  return %r : tensor<?x48xi32>
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

func.func @run(%m: index) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %s0 = arith.constant 0.0 : f32
  %s2 = arith.constant 2.0 : f32
  %s3 = arith.constant 3.0 : f32
  %ad = func.call @ramp(%m, %c64, %c1, %c7, %s3) : (index, index, index, index, f32) -> tensor<?x?xf32>
  %bd = func.call @ramp(%c64, %c48, %c3, %c5, %s2) : (index, index, index, index, f32) -> tensor<?x?xf32>
  %a = tensor.cast %ad : tensor<?x?xf32> to tensor<?x64xf32>
  %b = tensor.cast %bd : tensor<?x?xf32> to tensor<64x48xf32>
  %cd = func.call @ramp(%m, %c48, %c5, %c3, %s0) : (index, index, index, index, f32) -> tensor<?x?xf32>
  %c = tensor.cast %cd : tensor<?x?xf32> to tensor<?x48xf32>
  %biasd = func.call @ramp(%c1, %c48, %c1, %c7, %s3) : (index, index, index, index, f32) -> tensor<?x?xf32>
  %bias2 = tensor.cast %biasd : tensor<?x?xf32> to tensor<1x48xf32>
  %bias = tensor.collapse_shape %bias2 [[0, 1]] : tensor<1x48xf32> into tensor<48xf32>

  %r1 = func.call @mm_f32(%a, %b, %c) : (tensor<?x64xf32>, tensor<64x48xf32>, tensor<?x48xf32>) -> tensor<?x48xf32>
  %m1 = bufferization.to_buffer %r1 : tensor<?x48xf32> to memref<?x48xf32>
  %u1 = memref.cast %m1 : memref<?x48xf32> to memref<*xf32>
  func.call @printMemrefF32(%u1) : (memref<*xf32>) -> ()

  %r2 = func.call @mm_bias_relu(%a, %b, %bias) : (tensor<?x64xf32>, tensor<64x48xf32>, tensor<48xf32>) -> tensor<?x48xf32>
  %m2 = bufferization.to_buffer %r2 : tensor<?x48xf32> to memref<?x48xf32>
  %u2 = memref.cast %m2 : memref<?x48xf32> to memref<*xf32>
  func.call @printMemrefF32(%u2) : (memref<*xf32>) -> ()

  %aid = func.call @to_i8(%ad) : (tensor<?x?xf32>) -> tensor<?x?xi8>
  %bid = func.call @to_i8(%bd) : (tensor<?x?xf32>) -> tensor<?x?xi8>
  %cid = func.call @to_i32(%cd) : (tensor<?x?xf32>) -> tensor<?x?xi32>
  %ai = tensor.cast %aid : tensor<?x?xi8> to tensor<?x64xi8>
  %bi = tensor.cast %bid : tensor<?x?xi8> to tensor<64x48xi8>
  %ci = tensor.cast %cid : tensor<?x?xi32> to tensor<?x48xi32>
  %r3 = func.call @mm_i8(%ai, %bi, %ci) : (tensor<?x64xi8>, tensor<64x48xi8>, tensor<?x48xi32>) -> tensor<?x48xi32>
  %m3 = bufferization.to_buffer %r3 : tensor<?x48xi32> to memref<?x48xi32>
  %u3 = memref.cast %m3 : memref<?x48xi32> to memref<*xi32>
  func.call @printMemrefI32(%u3) : (memref<*xi32>) -> ()
  return
}

func.func @main() {
  %m1 = arith.constant 1 : index
  func.call @run(%m1) : (index) -> ()
  %m2 = arith.constant 100 : index
  func.call @run(%m2) : (index) -> ()
  %m3 = arith.constant 301 : index
  func.call @run(%m3) : (index) -> ()
  return
}
