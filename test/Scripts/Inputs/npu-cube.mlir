// Execution payload for @npu_cube_reduction (transform-scripts/npu.mlir),
// also run by utils/exec-check.py.
//
// @cube computes C = A * B (a cube op on the NPU) and two consumers of C: a
// LayerNorm-style row reduction (sum of squares per row, a vector reduction
// over the cube result) and a ReLU (elementwise). @main builds the inputs
// from index formulas (multiples of 1/8, exact in f32) and prints both.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

module {
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

  func.func @cube(%A: tensor<32x32xf32>, %B: tensor<32x32xf32>)
      -> (tensor<32xf32>, tensor<32x32xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<32x32xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
    %er = tensor.empty() : tensor<32xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
    %mm = linalg.matmul ins(%A, %B : tensor<32x32xf32>, tensor<32x32xf32>)
                        outs(%init : tensor<32x32xf32>) -> tensor<32x32xf32>
    %sq = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%mm : tensor<32x32xf32>) outs(%acc : tensor<32xf32>) {
    ^bb0(%x: f32, %s: f32):
      %x2 = arith.mulf %x, %x : f32
      %r = arith.addf %s, %x2 : f32
      linalg.yield %r : f32
    } -> tensor<32xf32>
    %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%mm : tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) {
    ^bb0(%x: f32, %o: f32):
      %r = arith.maximumf %x, %zero : f32
      linalg.yield %r : f32
    } -> tensor<32x32xf32>
    return %sq, %relu : tensor<32xf32>, tensor<32x32xf32>
  }

  // t[i, j] = ((a*i + b*j) mod m - c) / 8
  func.func private @fill(%a: index, %b: index, %m: index, %c: index) -> tensor<32x32xf32> {
    %e = tensor.empty() : tensor<32x32xf32>
    %eighth = arith.constant 0.125 : f32
    %t = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
        outs(%e : tensor<32x32xf32>) {
    ^bb0(%o: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %ai = arith.muli %a, %i : index
      %bj = arith.muli %b, %j : index
      %s = arith.addi %ai, %bj : index
      %r = arith.remui %s, %m : index
      %d = arith.subi %r, %c : index
      %di = arith.index_cast %d : index to i32
      %f = arith.sitofp %di : i32 to f32
      %v = arith.mulf %f, %eighth : f32
      linalg.yield %v : f32
    } -> tensor<32x32xf32>
    return %t : tensor<32x32xf32>
  }

  func.func @main() {
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %c11 = arith.constant 11 : index
    %c13 = arith.constant 13 : index
    %a = func.call @fill(%c7, %c3, %c11, %c5) : (index, index, index, index) -> tensor<32x32xf32>
    %b = func.call @fill(%c5, %c2, %c13, %c6) : (index, index, index, index) -> tensor<32x32xf32>
    %sq, %relu = func.call @cube(%a, %b)
        : (tensor<32x32xf32>, tensor<32x32xf32>) -> (tensor<32xf32>, tensor<32x32xf32>)
    %sqm = bufferization.to_buffer %sq : tensor<32xf32> to memref<32xf32>
    %squ = memref.cast %sqm : memref<32xf32> to memref<*xf32>
    func.call @printMemrefF32(%squ) : (memref<*xf32>) -> ()
    %rm = bufferization.to_buffer %relu : tensor<32x32xf32> to memref<32x32xf32>
    %ru = memref.cast %rm : memref<32x32xf32> to memref<*xf32>
    func.call @printMemrefF32(%ru) : (memref<*xf32>) -> ()
    return
  }
}
