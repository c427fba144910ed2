// Execution payload for the NPU scripts (transform-scripts/npu.mlir), also
// run by utils/exec-check.py.
//
// @chain computes relu((x + y) * z) on 64x64 f32 tensors with three Linalg
// ops (linalg.add, linalg.mul, a ReLU linalg.generic): one AI core's block.
// @main builds the inputs from index formulas whose values are small
// multiples of 1/8, so every result is exact in f32, and prints the result.

#id = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

  func.func @chain(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>,
                   %z: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %e = tensor.empty() : tensor<64x64xf32>
    %a = linalg.add ins(%x, %y : tensor<64x64xf32>, tensor<64x64xf32>)
                    outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
    %m = linalg.mul ins(%a, %z : tensor<64x64xf32>, tensor<64x64xf32>)
                    outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%m : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
    ^bb0(%v: f32, %o: f32):
      %zero = arith.constant 0.0 : f32
      %relu = arith.maximumf %v, %zero : f32
      linalg.yield %relu : f32
    } -> tensor<64x64xf32>
    return %r : tensor<64x64xf32>
  }

  // t[i, j] = ((a*i + b*j) mod m - c) / 8
  func.func private @fill(%a: index, %b: index, %m: index, %c: index) -> tensor<64x64xf32> {
    %e = tensor.empty() : tensor<64x64xf32>
    %eighth = arith.constant 0.125 : f32
    %t = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
        outs(%e : tensor<64x64xf32>) {
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
    } -> tensor<64x64xf32>
    return %t : tensor<64x64xf32>
  }

  func.func @main() {
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %c11 = arith.constant 11 : index
    %c13 = arith.constant 13 : index
    %x = func.call @fill(%c7, %c3, %c11, %c5) : (index, index, index, index) -> tensor<64x64xf32>
    %y = func.call @fill(%c5, %c2, %c13, %c6) : (index, index, index, index) -> tensor<64x64xf32>
    %z = func.call @fill(%c3, %c7, %c5, %c2) : (index, index, index, index) -> tensor<64x64xf32>
    %r = func.call @chain(%x, %y, %z)
        : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %rm = bufferization.to_buffer %r : tensor<64x64xf32> to memref<64x64xf32>
    %ru = memref.cast %rm : memref<64x64xf32> to memref<*xf32>
    func.call @printMemrefF32(%ru) : (memref<*xf32>) -> ()
    return
  }
}
