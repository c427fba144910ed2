// Execution payload for utils/exec-check.py (see utils/README.md).
//
// @matmul computes relu(A * B + bias) on tensors with awkward sizes
// (M=33, N=47, K=29) so that tiling by [8, 16, 4] leaves remainders in every
// dimension. @main builds the inputs deterministically with linalg.index-based
// formulas and prints the result with printMemrefF32.
//
// All input values are small multiples of 1/32, so every product and partial
// sum is exactly representable in f32: any reordering of the reduction (e.g.
// by tiling) must give bit-identical output, and exact comparison is valid.

#map_2d = affine_map<(d0, d1) -> (d0, d1)>
#map_bias = affine_map<(d0, d1) -> (d1)>
#map_1d = affine_map<(d0) -> (d0)>

module {
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

  func.func @matmul(%A: tensor<33x29xf32>, %B: tensor<29x47xf32>,
                    %bias: tensor<47xf32>) -> tensor<33x47xf32> {
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<33x47xf32>
    %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<33x47xf32>) -> tensor<33x47xf32>
    %mm = linalg.matmul ins(%A, %B : tensor<33x29xf32>, tensor<29x47xf32>)
                        outs(%init : tensor<33x47xf32>) -> tensor<33x47xf32>
    %res = linalg.generic {indexing_maps = [#map_2d, #map_bias, #map_2d],
                           iterator_types = ["parallel", "parallel"]}
        ins(%mm, %bias : tensor<33x47xf32>, tensor<47xf32>)
        outs(%empty : tensor<33x47xf32>) {
    ^bb0(%x: f32, %b: f32, %out: f32):
      %s = arith.addf %x, %b : f32
      %r = arith.maximumf %s, %zero : f32
      linalg.yield %r : f32
    } -> tensor<33x47xf32>
    return %res : tensor<33x47xf32>
  }

  // v = ((a*i + b*j) mod m - c) * scale, computed in index arithmetic.
  func.func private @pattern(%i: index, %j: index, %a: index, %b: index,
                             %m: index, %c: index, %scale: f32) -> f32 {
    %ai = arith.muli %a, %i : index
    %bj = arith.muli %b, %j : index
    %s = arith.addi %ai, %bj : index
    %r = arith.remui %s, %m : index
    %d = arith.subi %r, %c : index
    %di = arith.index_cast %d : index to i32
    %f = arith.sitofp %di : i32 to f32
    %v = arith.mulf %f, %scale : f32
    return %v : f32
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %c11 = arith.constant 11 : index
    %c13 = arith.constant 13 : index
    %quarter = arith.constant 0.25 : f32
    %eighth = arith.constant 0.125 : f32
    %half = arith.constant 0.5 : f32

    // A[i, k] = ((7i + 3k) mod 11 - 5) / 4
    %eA = tensor.empty() : tensor<33x29xf32>
    %A = linalg.generic {indexing_maps = [#map_2d], iterator_types = ["parallel", "parallel"]}
        outs(%eA : tensor<33x29xf32>) {
    ^bb0(%out: f32):
      %i = linalg.index 0 : index
      %k = linalg.index 1 : index
      %v = func.call @pattern(%i, %k, %c7, %c3, %c11, %c5, %quarter)
          : (index, index, index, index, index, index, f32) -> f32
      linalg.yield %v : f32
    } -> tensor<33x29xf32>

    // B[k, j] = ((5k + 2j) mod 13 - 6) / 8
    %eB = tensor.empty() : tensor<29x47xf32>
    %B = linalg.generic {indexing_maps = [#map_2d], iterator_types = ["parallel", "parallel"]}
        outs(%eB : tensor<29x47xf32>) {
    ^bb0(%out: f32):
      %k = linalg.index 0 : index
      %j = linalg.index 1 : index
      %v = func.call @pattern(%k, %j, %c5, %c2, %c13, %c6, %eighth)
          : (index, index, index, index, index, index, f32) -> f32
      linalg.yield %v : f32
    } -> tensor<29x47xf32>

    // bias[j] = ((3j) mod 7 - 2) / 2   (mostly positive shifts, some negative)
    %eBias = tensor.empty() : tensor<47xf32>
    %bias = linalg.generic {indexing_maps = [#map_1d], iterator_types = ["parallel"]}
        outs(%eBias : tensor<47xf32>) {
    ^bb0(%out: f32):
      %j = linalg.index 0 : index
      %v = func.call @pattern(%j, %c0, %c3, %c0, %c7, %c2, %half)
          : (index, index, index, index, index, index, f32) -> f32
      linalg.yield %v : f32
    } -> tensor<47xf32>

    %C = func.call @matmul(%A, %B, %bias)
        : (tensor<33x29xf32>, tensor<29x47xf32>, tensor<47xf32>) -> tensor<33x47xf32>

    %Cm = bufferization.to_buffer %C : tensor<33x47xf32> to memref<33x47xf32>
    %Cu = memref.cast %Cm : memref<33x47xf32> to memref<*xf32>
    func.call @printMemrefF32(%Cu) : (memref<*xf32>) -> ()
    return
  }
}
